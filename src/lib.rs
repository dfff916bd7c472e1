//! # tictable
//!
//! Perfect tic-tac-toe as a precomputed lookup table for constrained targets.
//!
//! `build.rs` solves every reachable position (alpha-beta with symmetry reduction)
//! and compiles a perfect-hash table (`phf`) of 627 canonical decision positions;
//! [`analyse`] answers any position in constant time: canonicalise, one lookup, map
//! the moves back. The live search ([`search::analyse`]) stays in the crate so tests
//! can verify the table against it, position by position.
//! [`best_moves`] (and [`best_move`], [`random_best_move`]), all that a machine which
//! plays needs, decide most positions by the threats on the board ([`tactics`]) and
//! look the other 96 up in a 146 B table of best moves (`table::size().best_bytes`).
//!
//! ```
//! use tictable::{analyse, best_move, Board, Outcome, Square};
//! let board: Board = "XX./OO./...".parse()?;
//! let a = analyse(&board)?;
//! assert_eq!((a.outcome(), a.plies()), (Outcome::Win, 1));
//! assert_eq!(best_move(&board), Square::new(2));
//! # Ok::<(), tictable::LookupError>(())
//! ```
//!
//! Players are probability distributions over moves ([`strategy`]); [`game`] keeps a
//! game with undo and redo.
//!
//! Features (none by default: the default build is `no_std` with two dependencies,
//! `phf` and `rand_core`): `std` adds `solve` and the artefacts of `export`;
//! `serde` (no_std) adds validating save/load (`serialize`); `postcard` (no_std) adds
//! the run-time table loader (`portable`); `stats` adds exact and sampled self-play
//! statistics (`selfplay`).
//!
//! The playing machine's logic and its simulator are the crate `tictable-machine`;
//! the program (`tictable play`, `analyse`, `selfplay`, ...) is the package
//! `tictable-cli`.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod analysis;
pub mod board;
pub mod entry;
#[cfg(feature = "std")]
pub mod export;
pub mod game;
pub mod opponent;
#[cfg(feature = "postcard")]
pub mod portable;
pub mod python_crc;
pub mod search;
#[cfg(feature = "stats")]
pub mod selfplay;
#[cfg(feature = "serde")]
pub mod serialize;
pub mod slot_hash;
#[cfg(feature = "std")]
pub mod solve;
pub mod strategy;
pub mod symmetry;
pub mod table;
pub mod tactics;

pub use analysis::{Analysis, MoveValue, Outcome};
pub use board::{Board, MoveError, Player, PositionError, Square, Squares};
pub use symmetry::{canonical, Symmetry};
pub use table::{analyse, best_move, best_moves, move_values, random_best_move, LookupError};

/// A square in defmt logs: numbered 1 to 9, as people do (here, not in
/// `board`: the build script shares that module and has no defmt).
#[cfg(feature = "defmt")]
impl defmt::Format for Square {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "square {=u8}", self.index() + 1)
    }
}

/// A set of squares in defmt logs: bit `i` is square `i + 1`.
#[cfg(feature = "defmt")]
impl defmt::Format for Squares {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "squares {=u16:#011b}", self.bits())
    }
}
