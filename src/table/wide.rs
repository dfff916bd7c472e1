//! The per-board entry of the layout 64-bit hosts look up: the board's
//! [`Analysis`] in its packed form (four bytes, see [`Analysis`]), or [`NONE`] for a
//! board no game reaches, so a lookup is one index, one load and one comparison.
//!
//! `build.rs` fills one entry for each of the 3^9 boards, by base-3 index
//! ([`crate::board::Board::base3_index`]), with what the canonical table answers for
//! it (the lookup path of `table/lookup.rs`: validate, canonicalise, probe, check the
//! entry, map the moves back), so this layout holds the canonical table's answers,
//! precomputed, and nothing else. The checks ran there, once per board: a lookup
//! only reads (and tests compare every board's entry with the canonical tables).

use crate::analysis::Analysis;

/// The entry of a board without an analysis (no game reaches it): no analysis packs
/// to it.
pub const NONE: u32 = u32::MAX;

/// Packs the table's answer for a board: its analysis, or `None` for a board no game
/// reaches ([`NONE`]). Panics unless [`decode`] gives `answer` back (`build.rs` packs
/// every entry with it).
#[cfg_attr(not(test), allow(dead_code))]
pub fn encode(answer: Option<Analysis>) -> u32 {
    let value = answer.map_or(NONE, Analysis::packed);
    assert_eq!(decode(value), answer);
    value
}

/// Unpacks an entry: the analysis, or `None` for [`NONE`].
#[inline(always)]
pub const fn decode(value: u32) -> Option<Analysis> {
    Analysis::from_packed(value)
}
