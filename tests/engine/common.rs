//! Helpers shared by the test modules (`use crate::common;`): squares by number and the
//! reachable positions. Each module uses only some of them.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::OnceLock;
use tictable::{Board, Square};

/// Square `i` (0..=8, row-major from the top-left; people's square `i + 1`).
pub fn sq(i: u8) -> Square {
    Square::new(i).expect("a square 0..=8")
}

/// Every position a game reaches, found by playing from the empty board (so
/// without `Board::validate`), sorted: 5478 of them.
pub fn reachable() -> &'static [Board] {
    static REACHABLE: OnceLock<Vec<Board>> = OnceLock::new();
    REACHABLE.get_or_init(|| {
        let mut seen = HashSet::from([Board::EMPTY]);
        let mut order = vec![Board::EMPTY];
        let mut next = 0;
        while next < order.len() {
            let board = order[next];
            next += 1;
            for square in board.legal_moves() {
                let child = board.play(square).expect("legal move");
                if seen.insert(child) {
                    order.push(child);
                }
            }
        }
        order.sort();
        assert_eq!(order.len(), 5478);
        order
    })
}
