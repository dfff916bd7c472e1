//! The lookup path over any key -> value store of the canonical table:
//! `Board -> canonical(Board) = (key, symmetry) -> get(key) -> Entry -> Analysis`, and
//! [`LookupError`], why it gives no analysis.
//!
//! The crate's lookups run it over the compiled layouts (the compact one on 32-bit
//! targets), and `build.rs` runs it over the solver's entries to fill in the per-board
//! layout of 64-bit hosts ([`super::wide`]): one lookup path for every layout.

use crate::analysis::Analysis;
use crate::board::{Board, PositionError};
use crate::entry;
use crate::symmetry::canonical;
use core::fmt;

/// Why a table lookup gave no analysis: the position, or the table itself.
///
/// A lookup answers from the table alone: a missing or malformed entry is this
/// error, never a quiet answer from somewhere else (a program that wants "table,
/// else search" calls [`crate::search::analyse`] itself on
/// [`LookupError::MissingEntry`] or [`LookupError::MalformedEntry`]).
///
/// ```
/// use tictable::{analyse, Board, LookupError};
/// let board: Board = "XX./OO./...".parse()?;
/// match analyse(&board) {
///     Ok(a) => assert_eq!(a.best().bits(), 1 << 2),
///     Err(LookupError::MissingEntry { key }) => panic!("no entry under {key}"),
///     Err(e) => panic!("{e}"),
/// }
/// # Ok::<(), tictable::PositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LookupError {
    /// No game reaches the position.
    Position(PositionError),
    /// The table holds no entry under `key` (the canonical position's key, or
    /// `key | 0x8000` for a missing extra entry; in the per-board layout of 64-bit
    /// hosts, the board's own base-3 index).
    MissingEntry {
        /// The key looked up.
        key: u16,
    },
    /// The entry under `key` does not decode for its position (an outcome out of
    /// range, no plies, an empty best set, moves on occupied squares...).
    MalformedEntry {
        /// The key looked up (as for [`LookupError::MissingEntry`]).
        key: u16,
        /// The value stored there: a `u16` entry of the canonical table
        /// ([`crate::entry`]), or a `u32` entry of the per-board layout.
        value: u32,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The position's own words: the CLI's messages are these.
            LookupError::Position(e) => write!(f, "{e}"),
            LookupError::MissingEntry { key } => {
                write!(f, "the table has no entry for key {key:#06x}")
            }
            LookupError::MalformedEntry { key, value } => write!(
                f,
                "the table's entry for key {key:#06x} is malformed (value {value:#06x})"
            ),
        }
    }
}

impl core::error::Error for LookupError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            LookupError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for LookupError {
    fn from(e: PositionError) -> LookupError {
        LookupError::Position(e)
    }
}

/// Analyses `board` through a key -> value lookup function holding the canonical
/// table: the finished-game analysis without a lookup, else exactly what the entry
/// says, or the [`LookupError`] that says why the table cannot answer.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline]
pub fn analyse_in(
    board: &Board,
    get: impl Fn(u16) -> Option<u16>,
) -> Result<Analysis, LookupError> {
    if let Some(finished) = Analysis::finished(*board, board.status()?) {
        return Ok(finished);
    }
    let (canonical_board, symmetry) = canonical(*board);
    let key = entry::key(canonical_board);
    let value = get(key).ok_or(LookupError::MissingEntry { key })?;
    let extra_key = key | entry::EXTRA_KEY;
    let mut extra_missing = false;
    let extra = || {
        let v = get(extra_key);
        extra_missing = v.is_none();
        v
    };
    match entry::decode(*board, symmetry, value, extra) {
        Some(analysis) => Ok(analysis),
        None if extra_missing => Err(LookupError::MissingEntry { key: extra_key }),
        None => Err(LookupError::MalformedEntry {
            key,
            value: value.into(),
        }),
    }
}
