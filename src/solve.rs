//! The full solve behind the table: enumerate every reachable position from the empty
//! board, reduce by symmetry, and solve each canonical decision position with
//! alpha-beta over a transposition table keyed by canonical position.
//!
//! `build.rs` runs this at compile time (it includes this file); the library exposes
//! it (feature `std`) so the solve can be timed and the artefacts regenerated.

use crate::analysis::Analysis;
use crate::board::Board;
use crate::search::{self, Bound, Score, TranspositionTable};
use crate::symmetry::canonical;
use bitvec::prelude::*;
use std::vec::Vec;

/// Number of base-3 board indices (3^9).
const BOARDS: usize = 19683;

/// A transposition table over canonical positions, indexed by base-3 index.
struct CanonicalTable(Vec<Option<(Score, Bound)>>);

impl TranspositionTable for CanonicalTable {
    fn probe(&self, board: Board) -> Option<(Score, Bound)> {
        self.0[canonical(board).0.base3_index() as usize]
    }
    fn store(&mut self, board: Board, score: Score, bound: Bound) {
        self.0[canonical(board).0.base3_index() as usize] = Some((score, bound));
    }
}

/// Every reachable position, and every canonical one, with their analyses.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Reachable positions (5478).
    pub reachable: usize,
    /// Reachable finished games (958).
    pub reachable_terminal: usize,
    /// Canonical reachable positions (765), in increasing base-3 index.
    pub canonical: Vec<Board>,
    /// Canonical decision positions (627) with their analyses, in increasing base-3 index.
    pub decisions: Vec<(Board, Analysis)>,
}

/// Enumerates and solves every reachable position.
///
/// ```
/// let s = tictable::solve::solve();
/// assert_eq!((s.reachable, s.canonical.len(), s.decisions.len()), (5478, 765, 627));
/// ```
pub fn solve() -> Solution {
    let mut visited = bitvec![0; BOARDS];
    let mut is_canonical = bitvec![0; BOARDS];
    let (mut reachable, mut reachable_terminal) = (0, 0);
    let mut stack = Vec::with_capacity(64);
    stack.push(Board::EMPTY);
    visited.set(0, true);
    while let Some(board) = stack.pop() {
        reachable += 1;
        if board.is_over() {
            reachable_terminal += 1;
        }
        is_canonical.set(canonical(board).0.base3_index() as usize, true);
        for square in board.legal_moves() {
            let child = board.play_unchecked(square.bit());
            let index = child.base3_index() as usize;
            if !visited.replace(index, true) {
                stack.push(child);
            }
        }
    }
    let canonical_boards: Vec<Board> = is_canonical
        .iter_ones()
        .map(|index| board_of_index(index as u16))
        .collect();
    let mut table = CanonicalTable(std::vec![None; BOARDS]);
    let decisions = canonical_boards
        .iter()
        .filter(|board| !board.is_over())
        .map(|&board| match search::analyse_with(&board, &mut table) {
            Ok(analysis) => (board, analysis),
            Err(e) => unreachable!("enumerated an invalid board {board}: {e}"),
        })
        .collect();
    Solution {
        reachable,
        reachable_terminal,
        canonical: canonical_boards,
        decisions,
    }
}

/// The board with this base-3 index (digit `i`: 0 empty, 1 X, 2 O), taken modulo
/// 3^9 ([`Board::from_base3_index`] for indices below 19683).
pub fn board_of_index(index: u16) -> Board {
    Board::from_base3_index(index % 19683).unwrap_or(Board::EMPTY)
}
