//! The per-board entry of the layout 64-bit hosts look up: the whole answer for one
//! board in a `u32`, so a lookup is one index, one load and a few shifts.
//!
//! `build.rs` fills one entry for each of the 3^9 boards, by base-3 index
//! ([`Board::base3_index`]), with what the canonical table answers for it (the
//! lookup path of [`super::lookup`]: validate, canonicalise, probe, check the entry,
//! map the moves back), so this layout holds the canonical table's answers,
//! precomputed, and nothing else. The checks ran there, once per board: a lookup
//! only unpacks (and tests compare every board's entry with the canonical tables).
//!
//! | bits    | field                                                          |
//! |---------|----------------------------------------------------------------|
//! | 0..=8   | best moves (bit `i` = square `i`)                              |
//! | 9..=12  | plies to the end under optimal play, 0 for a finished game     |
//! | 13..=14 | outcome for the side to move: 0 loss, 1 draw, 2 win; 3: [`NONE`] |
//! | 15      | side to move: 0 X, 1 O                                         |
//! | 16..=24 | safe moves                                                     |
//! | 25..=31 | 0                                                              |
//!
//! (The sets sit at bits 0 and 16 so that each is one shift and one mask.)

use crate::analysis::{Analysis, Outcome};
use crate::board::{Board, Player, Squares};

const PLIES_SHIFT: u32 = 9;
const OUTCOME_SHIFT: u32 = 13;
const TO_MOVE_SHIFT: u32 = 15;
const SAFE_SHIFT: u32 = 16;

/// The entry of a board without an analysis: no game reaches it.
pub const NONE: u32 = 3 << OUTCOME_SHIFT;

/// Packs the table's answer for `board`: its analysis, or `None` for a board no game
/// reaches ([`NONE`]). Panics unless [`decode`] gives `answer` back (`build.rs` packs
/// every entry with it, so a layout that loses a field does not build).
#[cfg_attr(not(test), allow(dead_code))]
pub fn encode(board: Board, answer: Option<Analysis>) -> u32 {
    let value = match answer {
        None => NONE,
        Some(a) => {
            u32::from(a.best().bits())
                | u32::from(a.plies()) << PLIES_SHIFT
                | (a.outcome() as u32) << OUTCOME_SHIFT
                | u32::from(a.to_move() == Player::O) << TO_MOVE_SHIFT
                | u32::from(a.safe().bits()) << SAFE_SHIFT
        }
    };
    assert_eq!(decode(value), answer, "{board:?}");
    value
}

/// Unpacks an entry: the analysis, or `None` for [`NONE`]. No branch that the
/// position decides (a mispredicted one costs more than the whole lookup).
#[inline(always)]
pub fn decode(value: u32) -> Option<Analysis> {
    // Outcome 3 is `NONE`; the fourth element is never read.
    const OUTCOMES: [Outcome; 4] = [Outcome::Loss, Outcome::Draw, Outcome::Win, Outcome::Win];
    let outcome = (value >> OUTCOME_SHIFT) & 3;
    if outcome == 3 {
        return None;
    }
    let to_move = if value & 1 << TO_MOVE_SHIFT != 0 {
        Player::O
    } else {
        Player::X
    };
    Some(Analysis::new(
        to_move,
        OUTCOMES[outcome as usize],
        ((value >> PLIES_SHIFT) & 0xf) as u8,
        Squares::from_bits(value as u16),
        Squares::from_bits((value >> SAFE_SHIFT) as u16),
    ))
}
