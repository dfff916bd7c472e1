//! `src/opening.rs` against the engine: the first move worked out in advance is the
//! distribution the engine's search gives, for every level the Level button reaches
//! and every estimate of `adaptive`; and every level that searches the whole game
//! tree from the empty board has one (else the device thinks past the watchdog's
//! limit on the 8 MHz clock).
use super::opening::{adaptive_first, first_move};
use tictable::opponent::{chosen_moves, Aim, Objective};
use tictable::strategy::{Level, MistakeRate, Strategy};
use tictable::{Board, Square};

/// The levels whose move from the empty board searches the whole game tree.
const SEARCHING: [Level; 4] = [Level::Trap, Level::Sharp, Level::Gentle, Level::Adaptive];

#[test]
fn every_level_the_button_reaches_has_the_engines_first_move() {
    // The firmware starts at trap (no mistakes) and the Level button gives every other
    // level at its default parameter (gentle 0.5, epsilon 0.1).
    for level in Level::ALL {
        let s = Strategy::new(level);
        let engine = s.distribution(&Board::EMPTY).expect("empty board");
        match first_move(&s) {
            Some(d) => assert_eq!(d, engine, "{level}"),
            None => assert!(!SEARCHING.contains(&level), "{level}: no first move"),
        }
    }
    for f in ["gentle:0", "gentle:0.5", "gentle:1"] {
        let s: Strategy = f.parse().expect("level");
        let engine = s.distribution(&Board::EMPTY).expect("empty board");
        assert_eq!(first_move(&s), Some(engine), "{f}");
    }
}

#[test]
fn not_worked_out_is_left_to_the_search() {
    for s in ["gentle:0.3", "trap:0.1", "trap@5", "sharp@1", "perfect"] {
        let s: Strategy = s.parse().expect("level");
        assert_eq!(first_move(&s), None, "{s}");
    }
}

#[test]
fn adaptive_first_move_at_every_estimate() {
    for e in 0..=MistakeRate::SCALE {
        let rate = MistakeRate::new(e).expect("rate");
        let engine = chosen_moves(&Board::EMPTY, rate, Aim::Most, Objective::Score).expect("moves");
        assert_eq!(adaptive_first(rate), engine, "ε = {e}/10000");
    }
    // Through a learning strategy: after a careful person and after a careless one.
    let mut s = Strategy::new(Level::Adaptive);
    let mut b = Board::EMPTY;
    for (x, o) in [(4, 0), (8, 2), (1, 7)] {
        b = b.play(Square::ALL[x]).expect("legal");
        s.observe(&b, Square::ALL[o]);
        b = b.play(Square::ALL[o]).expect("legal");
    }
    let engine = s.distribution(&Board::EMPTY).expect("empty board");
    assert_eq!(
        first_move(&s),
        Some(engine),
        "estimate {}",
        s.posterior().mean()
    );
}
