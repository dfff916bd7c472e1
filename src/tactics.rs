//! Positions whose best moves the next two plies decide, answered by rule instead of
//! by the table.
//!
//! Most of the table's decision positions are of this kind: of the 627 canonical
//! ones, 321 are won in one ply, 72 lost in two, 133 must block the opponent's one
//! threat and 5 have one square left, so the table of best moves that
//! microcontrollers use ([`crate::table`]) stores only the other 96. `build.rs`
//! checks the rule against the solver on every canonical decision position before
//! it leaves those positions out, and the tests check it on every reachable one.

use crate::analysis::Analysis;
use crate::board::{Board, Squares, Status};
use crate::entry;
use crate::symmetry::canonical;

/// The best moves of `board`, a valid position with a move to make, when the next
/// two plies decide them; `None` when only a deeper search (or the table) can:
///
/// - the side to move can complete a line: the squares that do (a win in 1 ply;
///   nothing is faster);
/// - it cannot, and the opponent threatens to complete a line on one square: that
///   square (any other move loses at once, which is the worst outcome there is);
/// - it cannot, and the opponent threatens two squares or more: one move blocks at
///   most one of them, so every move loses in 2 plies and every empty square is best;
/// - one square is left: that square.
///
/// ```
/// use tictable::{tactics::immediate_best, Board};
/// let win: Board = "XX./OO./...".parse()?;
/// assert_eq!(immediate_best(win).map(|s| s.bits()), Some(0b100));
/// // X to move cannot win and O threatens squares 2 and 6: every move loses.
/// let lost: Board = "OO./OXX/.X.".parse()?;
/// assert!(lost.winning_moves(lost.to_move()).is_empty());
/// assert_eq!(immediate_best(lost), Some(lost.empty_squares()));
/// // O to move must block X on square 8.
/// let block: Board = "XO./.X./...".parse()?;
/// assert_eq!(immediate_best(block).map(|s| s.bits()), Some(1 << 8));
/// assert_eq!(immediate_best(Board::EMPTY), None);
/// # Ok::<(), tictable::PositionError>(())
/// ```
pub const fn immediate_best(board: Board) -> Option<Squares> {
    let mover = board.to_move();
    let wins = board.winning_moves(mover);
    if !wins.is_empty() {
        return Some(wins);
    }
    let empty = board.empty_squares();
    let threats = board.winning_moves(mover.other());
    // `at_most_one` rather than `len`: no population count (none on Arm).
    if threats.is_empty() {
        if !empty.is_empty() && empty.at_most_one() {
            Some(empty)
        } else {
            None
        }
    } else if threats.at_most_one() {
        Some(threats)
    } else {
        Some(empty)
    }
}

/// The best moves of `board`, or `None` when the game is over or the board is
/// invalid: by the rule of [`immediate_best`], else from `get`, the table of best
/// moves as a function from a canonical key ([`entry::key`]) to the best moves of
/// that canonical position, mapped back through the inverse symmetry (`None` when
/// `get` has no set under the key).
///
/// [`crate::best_moves`] runs it over the compiled table of best moves (on 64-bit
/// hosts `build.rs` runs it once per board and stores the answers), so every layout
/// answers through this one path.
///
/// ```
/// use tictable::{tactics::best_moves_in, Board};
/// // Decided by the rule: no probe.
/// let win: Board = "XX./OO./...".parse()?;
/// assert_eq!(best_moves_in(win, |_| None).map(|s| s.bits()), Some(0b100));
/// // The empty board needs the table: here a table without it.
/// assert_eq!(best_moves_in(Board::EMPTY, |_| None), None);
/// # Ok::<(), tictable::PositionError>(())
/// ```
#[inline]
pub fn best_moves_in(board: Board, get: impl FnOnce(u16) -> Option<Squares>) -> Option<Squares> {
    if board.status().ok()? != Status::Ongoing {
        return None;
    }
    if let Some(best) = immediate_best(board) {
        return Some(best);
    }
    let (canonical_board, symmetry) = canonical(board);
    Some(
        symmetry
            .inverse()
            .apply_squares(get(entry::key(canonical_board))?),
    )
}

/// The entries of the table of best moves, `(key, best)`: for every position of
/// `decisions` (the solver's canonical decision positions and their analyses) that
/// [`immediate_best`] leaves undecided, its key ([`entry::key`]) and the bits of its
/// best moves, in the order of `decisions`. `build.rs` compiles them into the crate
/// and `src/export.rs` writes them into the C header: one source for both.
///
/// ```
/// # #[cfg(feature = "std")] {
/// let solution = tictable::solve::solve();
/// let entries: Vec<(u16, u16)> = tictable::tactics::table_entries(&solution.decisions).collect();
/// assert_eq!(entries.len(), 96);
/// assert!(entries.iter().all(|&(_, best)| best != 0 && best < 1 << 9));
/// # }
/// ```
pub fn table_entries(decisions: &[(Board, Analysis)]) -> impl Iterator<Item = (u16, u16)> + '_ {
    decisions
        .iter()
        .filter(|(board, _)| immediate_best(*board).is_none())
        .map(|(board, analysis)| (entry::key(*board), analysis.best().bits()))
}
