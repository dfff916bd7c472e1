//! The smallest complete game: a race to 10. Each player in turn adds 1 or 2 to a
//! running total, X first; whoever reaches 10 wins. `docs/games.md` shows this file.
//!
//! `cargo run -p tictable-games --example race`
use tictable_games::{check, solve, Game, Notation, Outcome, Player};

/// The game: its rules are in the functions below, nothing else is needed.
struct Race;

/// The total so far and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    total: u8,
    to_move: Player,
}

impl Game for Race {
    type Position = Position;
    type Move = u8; // what the mover adds

    fn id(&self) -> String {
        "race".into()
    }
    fn rules(&self) -> String {
        "add 1 or 2 to the total in turn, X first; whoever reaches 10 wins".into()
    }
    fn start(&self) -> Position {
        Position {
            total: 0,
            to_move: Player::X,
        }
    }
    fn moves(&self, p: &Position, out: &mut Vec<u8>) {
        out.extend([1, 2].into_iter().filter(|step| p.total + step <= 10));
    }
    fn play(&self, p: &Position, step: u8) -> Position {
        Position {
            total: p.total + step,
            to_move: p.to_move.other(),
        }
    }
    fn primitive(&self, p: &Position) -> Option<Outcome> {
        // The player who reached 10 just moved: the side to move has lost.
        (p.total == 10).then_some(Outcome::Loss)
    }
    fn to_move(&self, p: &Position) -> Player {
        p.to_move
    }
    fn key_space(&self) -> u64 {
        2 * 11
    }
    fn key(&self, p: &Position) -> u64 {
        u64::from(p.total) * 2 + (p.to_move == Player::O) as u64
    }
    fn write_move(&self, step: u8, _: Notation) -> String {
        step.to_string()
    }
    fn move_syntax(&self, _: Notation) -> String {
        "1 or 2".into()
    }
    fn write_position(&self, p: &Position, _: Notation) -> String {
        format!("{} {}", p.total, p.to_move.char())
    }
}

fn main() {
    let solution = solve(Race).expect("the race solves");
    check::consistency(&solution).expect("every position agrees with its children");
    let start = solution.start();
    // 10 is not a multiple of 3: X wins by leaving the total at 1, 4, 7, then 10.
    assert_eq!((start.outcome, start.remoteness), (Outcome::Win, 7));
    println!(
        "race: {} positions, the first player {}s in {} plies",
        solution.summary().positions,
        start.outcome,
        start.remoteness
    );
}
