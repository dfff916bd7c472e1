//! Every small game, one engine: a [`Game`] trait that a game implements in one small
//! file, and one [`solve`]r that gives every reachable position its value (win, draw or
//! loss for the side to move) and remoteness (plies to the end under perfect play).
//!
//! The shipped games: [`TicTacToe`] (normal and misère, over the `tictable` engine's
//! board), [`Mnk`] (m,n,k-games), [`ConnectFour`] (any width and height), [`Morris`]
//! (three men's morris, tapatan, achi: positions repeat, solved by retrograde analysis)
//! and [`Hexapawn`]. [`catalog`] turns a game id (`mnk:4,4,4`) into a game.
//!
//! Over a solved table, [`players`] plays any game without repeats at the engine's
//! levels (`perfect`, `sharp`, `gentle:F`, `adaptive`, `random`, `epsilon:E`), and
//! [`puzzle`] finds, counts and judges the positions where exactly one move keeps a win.
//!
//! ```
//! use tictable_games::{solve, Outcome, TicTacToe};
//! let solution = solve(TicTacToe::normal()).unwrap();
//! assert_eq!(solution.summary().positions, 5478);
//! assert_eq!(solution.start().outcome, Outcome::Draw);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod best_file;
pub mod best_move;
pub mod catalog;
pub mod cell_key;
pub mod check;
pub mod compiled;
mod connect_four;
pub mod export;
pub mod file;
mod game;
mod hexapawn;
mod mnk;
mod morris;
pub mod move_slots;
pub mod players;
pub mod puzzle;
pub mod search;
mod solver;
pub mod strategy;
mod tictactoe;

pub use connect_four::{Connect4Position, ConnectFour, ConnectFourError};
pub use game::{Game, MoveError, Notation, Outcome, Player, PositionError};
pub use hexapawn::{Hexapawn, HexapawnPosition, PawnMove};
pub use mnk::{Mnk, MnkError, MnkPosition};
pub use morris::{Morris, MorrisMove, MorrisPosition};
pub use solver::{
    canonical, class_key, combine, solve, solve_with, Counts, Options, Record, Solution,
    SolveError, Summary, MAX_REMOTENESS,
};
pub use tictactoe::TicTacToe;
