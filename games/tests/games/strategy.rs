//! The minimal strategy (issue 33 §4): for each side, the classes met playing one
//! perfect strategy against every reply, checked by playing it out against every reply.

use crate::common::solved;
use tictable_games::strategy::{minimal, perfect_moves, worst_result};
use tictable_games::{Game, Hexapawn, Outcome, Player, TicTacToe};

#[test]
fn tictactoe_strategies_are_perfect_and_small() {
    let solution = solved(TicTacToe::normal());
    let x = minimal(&solution, Player::X);
    let o = minimal(&solution, Player::O);
    eprintln!(
        "tictactoe X {} ({}) O {} ({})",
        x.entries(),
        x.choices(),
        o.entries(),
        o.choices()
    );
    // Played out against every reply, each keeps the draw (tic-tac-toe is a draw).
    assert_eq!(worst_result(&solution, &x), Some(Outcome::Draw));
    assert_eq!(worst_result(&solution, &o), Some(Outcome::Draw));
}

#[test]
fn misere_and_hexapawn_strategies() {
    let solution = solved(TicTacToe::misere());
    let x = minimal(&solution, Player::X);
    let o = minimal(&solution, Player::O);
    eprintln!(
        "misere X {} ({}) O {} ({})",
        x.entries(),
        x.choices(),
        o.entries(),
        o.choices()
    );
    assert_eq!(worst_result(&solution, &x), Some(Outcome::Draw));
    assert_eq!(worst_result(&solution, &o), Some(Outcome::Draw));
    let solution = solved(Hexapawn);
    let white = minimal(&solution, Player::X);
    let black = minimal(&solution, Player::O);
    eprintln!(
        "hexapawn W {} ({}) B {} ({})",
        white.entries(),
        white.choices(),
        black.entries(),
        black.choices()
    );
    // Black wins (Gardner, 1962): Black's strategy wins against every reply.
    assert_eq!(worst_result(&solution, &black), Some(Outcome::Win));
    assert_eq!(worst_result(&solution, &white), Some(Outcome::Loss));
    let _ = perfect_moves(&solution, &solution.game().start());
}
