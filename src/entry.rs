//! The table's key and packed entry: one `u16` key and one `u16` value per canonical
//! decision position (4 bytes an entry in the `phf` map).
//!
//! **Key**: the base-3 index of the canonical board ([`Board::base3_index`]), below
//! 3^9 = 19683, so bit 15 is free; `key | 0x8000` ([`EXTRA_KEY`]) is the key of an
//! extra entry (see below).
//!
//! **Value** (bit 0 is the least significant):
//!
//! | bits   | field                                                      |
//! |--------|------------------------------------------------------------|
//! | 0..=8  | a square set `S` (bit `i` = square `i` of the canonical board) |
//! | 9..=12 | plies to the end under optimal play, 1..=9                 |
//! | 13..=14| outcome for the side to move: 0 loss, 1 draw, 2 win        |
//! | 15     | [`SAFE_STORED`]: `safe` is the value of the extra entry    |
//!
//! `safe` is derivable in all but a few positions, so only one set is stored:
//! - loss: `S = best`; `safe` = every legal move (all lose).
//! - draw: `S = best = safe` (a draw always fills the board, so every drawing move
//!   takes the same number of plies).
//! - win in 1 ply: `S = safe`; `best` = the squares that complete a line at once
//!   ([`Board::winning_moves`]).
//! - win in 3 or more plies: `S = best`; `safe = best`, or, when bit 15 is set, the
//!   9-bit set stored as the value of the extra entry `key | 0x8000` (2 positions up
//!   to symmetry need it).

use crate::analysis::{Analysis, Outcome};
use crate::board::{Board, Squares};
use crate::symmetry::Symmetry;

/// Value bit: `safe` is stored in the extra entry at `key | EXTRA_KEY`.
pub const SAFE_STORED: u16 = 1 << 15;
/// Key bit of an extra entry.
pub const EXTRA_KEY: u16 = 1 << 15;

const PLIES_SHIFT: u32 = 9;
const OUTCOME_SHIFT: u32 = 13;

/// The table key of a canonical board.
#[inline]
pub const fn key(canonical: Board) -> u16 {
    canonical.base3_index()
}

/// Packs the analysis of a canonical decision position: the value, and the value of
/// the extra entry when `safe` must be stored.
pub fn encode(canonical: Board, analysis: &Analysis) -> (u16, Option<u16>) {
    let (best, safe) = (analysis.best().bits(), analysis.safe().bits());
    let (set, extra) = match analysis.outcome() {
        Outcome::Loss | Outcome::Draw => (best, None),
        Outcome::Win if analysis.plies() == 1 => (safe, None),
        Outcome::Win if safe == best => (best, None),
        Outcome::Win => (best, Some(safe)),
    };
    let outcome = analysis.outcome() as u16;
    let mut value = set | (analysis.plies() as u16) << PLIES_SHIFT | outcome << OUTCOME_SHIFT;
    if extra.is_some() {
        value |= SAFE_STORED;
    }
    debug_assert_eq!(
        decode(canonical, Symmetry::IDENTITY, value, || extra),
        Some(*analysis)
    );
    (value, extra)
}

/// The table entries of the canonical decision positions `decisions`, in their order:
/// `(key, value)` for each position, followed by `(key | EXTRA_KEY, safe)` when `safe`
/// is stored. `build.rs` and the exported artefacts both take their entries from here.
pub fn entries(decisions: &[(Board, Analysis)]) -> impl Iterator<Item = (u16, u16)> + '_ {
    decisions.iter().flat_map(|(board, analysis)| {
        let key = key(*board);
        let (value, extra) = encode(*board, analysis);
        core::iter::once((key, value)).chain(extra.map(|safe| (key | EXTRA_KEY, safe)))
    })
}

/// Unpacks `value`, the entry of `canonical(board) = (_, symmetry)`, into the analysis
/// of `board` (a valid decision position). `extra` fetches the value of an extra entry
/// (at `key | EXTRA_KEY`). `None` when the value is malformed or a needed extra entry is missing.
#[inline]
pub fn decode(
    board: Board,
    symmetry: Symmetry,
    value: u16,
    extra: impl FnOnce() -> Option<u16>,
) -> Option<Analysis> {
    let back = symmetry.inverse();
    let set = back.apply_squares(Squares::from_bits(value));
    let plies = ((value >> PLIES_SHIFT) & 0xf) as u8;
    let empty = board.empty_squares();
    let (outcome, best, safe) = match (value >> OUTCOME_SHIFT) & 3 {
        0 => (Outcome::Loss, set, empty),
        1 => (Outcome::Draw, set, set),
        2 if plies == 1 => (Outcome::Win, board.winning_moves(board.to_move()), set),
        2 if value & SAFE_STORED != 0 => {
            let safe = back.apply_squares(Squares::from_bits(extra()?));
            (Outcome::Win, set, safe)
        }
        2 => (Outcome::Win, set, set),
        _ => return None,
    };
    if plies == 0 || best.is_empty() || !best.is_subset(safe) || !safe.is_subset(empty) {
        return None;
    }
    Some(Analysis::new(board.to_move(), outcome, plies, best, safe))
}
