//! With `levels`: the first move of the slow levels from the empty board, worked out
//! once on the host instead of on the device. From the empty board `trap`, `sharp`,
//! `gentle` and `adaptive` search the whole game tree (the trap player's move:
//! 27.6 M instructions, 17 s on the 8 MHz fallback clock, docs/vboard.md; `gentle`,
//! which searches it twice, took 1.44 times trap's time on the host, 1.34 ms against
//! 0.93 ms, release, 2026-12-06: about 24 s there, over `safety::THINK_LIMIT_MS`,
//! after which the watchdog resets and the restored game would think again). A
//! later move searches one first move's subtree (on the host trap's reply after a
//! corner took 0.13 ms, gentle's 0.30 ms).
//!
//! [`first_move`] gives exactly the distribution `Strategy::distribution` gives for
//! the empty board, or `None` (then the device thinks): firmware/host-check compares
//! the two for every level the Level button reaches and every posterior mean of
//! `adaptive`.
use tictable::strategy::{Distribution, Level, MistakeRate, Strategy};
use tictable::{Square, Squares};

/// Squares 1, 3, 7 and 9.
const CORNERS: Squares = Squares::from_bits(0b1_0100_0101);
/// Squares 2, 4, 6 and 8.
const EDGES: Squares = Squares::from_bits(0b0_1010_1010);
/// All nine squares.
const ALL: Squares = Squares::from_bits(0b1_1111_1111);
/// Square 5.
const CENTRE: Squares = Squares::from_bits(1 << 4);
/// Every square but the centre.
const CORNERS_AND_EDGES: Squares = Squares::from_bits(CORNERS.bits() | EDGES.bits());
/// Squares 1, 3, 5, 7 and 9.
const CORNERS_AND_CENTRE: Squares = Squares::from_bits(CORNERS.bits() | CENTRE.bits());

/// The distribution of `strategy`'s move from the empty board when it is one worked
/// out in advance (trap without mistakes, sharp, gentle at F = 0, 0.5 or 1, adaptive
/// at any estimate), `None` otherwise (a forced first move, a mistake rate, the
/// levels that need no search).
pub fn first_move(strategy: &Strategy) -> Option<Distribution> {
    if strategy.first_move().is_some() {
        return None;
    }
    let rate = strategy.mistake_rate().parts_per_10000();
    let half = MistakeRate::SCALE / 2;
    match strategy.level() {
        Level::Trap if rate == 0 => Some(Distribution::point(Square::CENTRE)),
        Level::Sharp => Distribution::uniform(CORNERS),
        // F of the moves from sharp (the corners), the rest from the value-keeping
        // moves with the fewest wins (the edges): uniform mixtures only at 0, 1/2, 1.
        Level::Gentle if rate == 0 => Distribution::uniform(EDGES),
        Level::Gentle if rate == half => Distribution::uniform(CORNERS_AND_EDGES),
        Level::Gentle if rate == MistakeRate::SCALE => Distribution::uniform(CORNERS),
        Level::Adaptive => Distribution::uniform(adaptive_first(strategy.posterior().mean())),
        _ => None,
    }
}

/// `adaptive`'s moves from the empty board at the estimate `e`: the highest expected
/// score against the ε-random opponent of ε = `e`. A perfect opponent (ε = 0) draws
/// whatever X does; up to ε = 1/2 the centre, at 1/2 exactly the centre and the
/// corners tie, above it the corners.
pub fn adaptive_first(e: MistakeRate) -> Squares {
    let (e, half) = (e.parts_per_10000(), MistakeRate::SCALE / 2);
    match e {
        0 => ALL,
        _ if e < half => CENTRE,
        _ if e == half => CORNERS_AND_CENTRE,
        _ => CORNERS,
    }
}
