//! Positions whose best moves the next two plies decide, answered by rule instead of
//! by the table.
//!
//! Most of the table's decision positions are of this kind: of the 627 canonical
//! ones, 321 are won in one ply, 72 lost in two, 127 must block the opponent's one
//! threat and 11 have one square left, so the table of best moves that
//! microcontrollers use ([`crate::table`]) stores only the other 96. `build.rs` checks the rule against the solver on every canonical
//! decision position before it leaves those positions out, and the tests check it
//! on every reachable one.

use crate::board::{Board, Squares};

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
    match threats.len() {
        0 if empty.len() == 1 => Some(empty),
        0 => None,
        1 => Some(threats),
        _ => Some(empty),
    }
}
