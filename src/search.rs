//! Live alpha-beta (negamax) search over the real game tree.
//!
//! Scores are from the side to move's point of view and depend only on how many pieces
//! stand on the board when the game ends (`n_end`): a win scores `10 - n_end`, a loss
//! `-(10 - n_end)`, a draw 0. So the winner prefers the shortest game and the loser the
//! longest, and a score needs no adjustment on the way up the tree.
//!
//! The same code solves the build-time table (`build.rs` includes this file) with a
//! [`TranspositionTable`] keyed by canonical position, and runs live in the library
//! with [`NoTable`], which keeps no memory at all.

use crate::analysis::{Analysis, Outcome};
use crate::board::{Board, PositionError, Square, Squares};

/// A score: `±(10 - pieces at the end)` for a win/loss, 0 for a draw.
pub type Score = i8;

/// Above every score.
pub const INFINITY: Score = 11;

/// Squares in search order: centre, corners, edges (strong moves first, for cut-offs).
const ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// A memory of searched positions. Implementations may key by canonical position.
pub trait TranspositionTable {
    /// A stored score and its bound for `board`, if any.
    fn probe(&self, board: Board) -> Option<(Score, Bound)>;
    /// Remember `score` with its `bound` for `board`.
    fn store(&mut self, board: Board, score: Score, bound: Bound);
}

/// No memory: a pure alpha-beta search.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTable;

impl TranspositionTable for NoTable {
    #[inline(always)]
    fn probe(&self, _: Board) -> Option<(Score, Bound)> {
        None
    }
    #[inline(always)]
    fn store(&mut self, _: Board, _: Score, _: Bound) {}
}

/// The score of a finished game for the side to move, or `None` if play goes on.
#[inline]
fn terminal_score(board: Board) -> Option<Score> {
    if board.winner().is_some() {
        // In a reachable position only the player who just moved can have a line.
        Some(-(10 - board.piece_count() as Score))
    } else if board.is_full() {
        Some(0)
    } else {
        None
    }
}

/// Negamax with alpha-beta pruning: the exact score of a valid `board` when it lies
/// strictly inside `(alpha, beta)`, otherwise a bound on the correct side.
pub fn negamax<T: TranspositionTable>(
    board: Board,
    mut alpha: Score,
    beta: Score,
    table: &mut T,
) -> Score {
    if let Some(score) = terminal_score(board) {
        return score;
    }
    if let Some((score, bound)) = table.probe(board) {
        match bound {
            Bound::Exact => return score,
            Bound::Lower if score >= beta => return score,
            Bound::Upper if score <= alpha => return score,
            _ => {}
        }
    }
    let alpha_in = alpha;
    let empty = board.empty_squares().bits();
    let mut best = -INFINITY;
    for square in ORDER {
        let bit = 1 << square;
        if empty & bit == 0 {
            continue;
        }
        let score = -negamax(board.play_unchecked(bit), -beta, -alpha, table);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    let bound = if best <= alpha_in {
        Bound::Upper
    } else if best >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    };
    table.store(board, best, bound);
    best
}

/// The exact score of a valid `board` for the side to move.
pub fn score<T: TranspositionTable>(board: Board, table: &mut T) -> Score {
    negamax(board, -INFINITY, INFINITY, table)
}

/// The outcome a score stands for.
#[inline]
pub const fn outcome_of(score: Score) -> Outcome {
    if score > 0 {
        Outcome::Win
    } else if score < 0 {
        Outcome::Loss
    } else {
        Outcome::Draw
    }
}

/// Plies from a position with `pieces` pieces to the end that `score` stands for.
#[inline]
pub const fn plies_of(score: Score, pieces: u32) -> u8 {
    let end = if score == 0 {
        9
    } else {
        10 - score.unsigned_abs() as u32
    };
    (end - pieces) as u8
}

/// Analyses a position by searching every legal move with `table` as memory.
pub fn analyse_with<T: TranspositionTable>(
    board: &Board,
    table: &mut T,
) -> Result<Analysis, PositionError> {
    let board = *board;
    if let Some(finished) = Analysis::finished(board, board.status()?) {
        return Ok(finished);
    }
    let to_move = board.to_move();
    let mut scores = [-INFINITY; 9];
    let mut top = -INFINITY;
    for square in board.empty_squares() {
        let child = board.play_unchecked(square.bit());
        let s = -score(child, table);
        scores[square.index() as usize] = s;
        top = top.max(s);
    }
    let outcome = outcome_of(top);
    let (mut best, mut safe) = (0u16, 0u16);
    for square in Square::ALL {
        let s = scores[square.index() as usize];
        if s == top {
            best |= square.bit();
        }
        if s > -INFINITY && outcome_of(s) == outcome {
            safe |= square.bit();
        }
    }
    Ok(Analysis::new(
        to_move,
        outcome,
        plies_of(top, board.piece_count()),
        Squares::from_bits(best),
        Squares::from_bits(safe),
    ))
}

/// Analyses a position with a live alpha-beta search (no table, no memory).
///
/// Returns exactly what the table lookup [`crate::analyse`] returns; it is here to
/// verify the table and to measure what the table saves.
///
/// ```
/// use tictable::{search, Board, Outcome};
/// let a = search::analyse(&Board::EMPTY).unwrap();
/// assert_eq!((a.outcome(), a.plies(), a.best().len()), (Outcome::Draw, 9, 9));
/// ```
pub fn analyse(board: &Board) -> Result<Analysis, PositionError> {
    analyse_with(board, &mut NoTable)
}
