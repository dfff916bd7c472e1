//! The legal moves of any game the machine plays, generated over its own
//! [`Position`] bitboards without allocating (the firmware's `games` image has no
//! heap), in `tictable-games`' order ([`Game::moves`](tictable_games::Game::moves):
//! the best-move tables' bit `i` is its `i`-th move), with each child and the end
//! of the game. A host test walks every reachable position of each game and checks
//! the moves, the children and the end against `tictable-games`' rules
//! (`tests/machine/legal_moves.rs`).

use super::{Move, Position, Rules};
use core::ops::Deref;
use tictable::board::has_line;
use tictable::{Player, Square};

/// The most legal moves of a position in any of the six games: 9 (a placement on
/// every empty point; 3 pieces with 3 empty points in the morris games, 4 with one
/// in achi; 3 pawns with 3 moves each). The host test checks no position has more.
pub const MOST_MOVES: usize = 9;

/// Up to [`MOST_MOVES`] items in a fixed array, read as a slice (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct List<T> {
    items: [T; MOST_MOVES],
    len: u8,
}

impl<T: Copy> List<T> {
    /// An empty list (`fill` only fills the unused slots).
    pub(super) const fn new(fill: T) -> List<T> {
        List {
            items: [fill; MOST_MOVES],
            len: 0,
        }
    }

    /// Appends `item`; `false`, keeping the list, when it is full.
    pub(super) fn push(&mut self, item: T) -> bool {
        let Some(slot) = self.items.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = item;
        self.len += 1;
        true
    }

    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl<T: Copy> Deref for List<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<[T; N]> for List<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy> IntoIterator for List<T> {
    type Item = T;
    type IntoIter = core::iter::Take<core::array::IntoIter<T, MOST_MOVES>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}

impl<'a, T: Copy> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A position's legal moves, each with its child.
pub type Children = List<(Move, Position)>;

/// The empty children list.
const NONE: Children = List::new((
    Move::Place(Square::CENTRE),
    Position {
        x: 0,
        o: 0,
        to_move: Player::X,
    },
));

/// The 3x3 board's points.
const ALL: u16 = 0x1ff;

/// The points joined to `point` along the board's lines: rows and columns, and with
/// `diagonals` the two diagonals (each corner to the centre).
const fn neighbours(point: u8, diagonals: bool) -> u16 {
    let (row, column) = (point / 3, point % 3);
    let mut n = 0u16;
    if column > 0 {
        n |= 1 << (point - 1);
    }
    if column < 2 {
        n |= 1 << (point + 1);
    }
    if row > 0 {
        n |= 1 << (point - 3);
    }
    if row < 2 {
        n |= 1 << (point + 3);
    }
    if diagonals {
        if point == 4 {
            n |= 0b101_000_101;
        } else if point.is_multiple_of(2) {
            n |= 1 << 4;
        }
    }
    n
}

/// The mover's squares and the other side's in `p`.
const fn sides(p: &Position) -> (u16, u16) {
    match p.to_move {
        Player::X => (p.x, p.o),
        Player::O => (p.o, p.x),
    }
}

/// The position with the mover's squares `own` and the other side's `other`, the
/// other side to move.
const fn after(p: &Position, own: u16, other: u16) -> Position {
    match p.to_move {
        Player::X => Position {
            x: own,
            o: other,
            to_move: Player::O,
        },
        Player::O => Position {
            x: other,
            o: own,
            to_move: Player::X,
        },
    }
}

/// Hexapawn's rows: White starts on the bottom one and moves up.
const TOP: u16 = 0b000_000_111;
const BOTTOM: u16 = 0b111_000_000;

/// Every legal move of the side to move in `p` under `rules` with its child, in
/// `tictable-games`' order; empty once the game is over.
pub(super) fn children(rules: Rules, p: &Position) -> Children {
    let mut out = NONE;
    let (own, other) = sides(p);
    let empty = !(p.x | p.o) & ALL;
    let mut add = |mv: Move, own: u16, other: u16| {
        out.push((mv, after(p, own, other)));
    };
    match rules {
        Rules::TicTacToe | Rules::Misere => {
            let board = p.board();
            if !board.is_over() {
                for s in board.legal_moves().iter() {
                    add(Move::Place(s), own | s.bit(), other);
                }
            }
        }
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            let pieces = if rules == Rules::Achi { 4 } else { 3 };
            let diagonals = rules != Rules::ThreeMensMorris;
            if has_line(other) || has_line(own) {
                return out;
            }
            for s in Square::ALL {
                if own.count_ones() < pieces {
                    if empty & s.bit() != 0 {
                        add(Move::Place(s), own | s.bit(), other);
                    }
                } else if own & s.bit() != 0 {
                    let targets = neighbours(s.index(), diagonals) & empty;
                    for to in Square::ALL {
                        if targets & to.bit() != 0 {
                            let moved = own & !s.bit() | to.bit();
                            add(Move::Slide { from: s, to }, moved, other);
                        }
                    }
                }
            }
        }
        Rules::Hexapawn => {
            if p.x & TOP != 0 || p.o & BOTTOM != 0 || p.x == 0 || p.o == 0 {
                return out;
            }
            let up = p.to_move == Player::X;
            for from in Square::ALL {
                if own & from.bit() == 0 {
                    continue;
                }
                let (row, column) = (from.index() / 3, from.index() % 3);
                let ahead = match (up, row) {
                    (true, 0) | (false, 2) => continue,
                    (true, _) => from.index() - 3,
                    (false, _) => from.index() + 3,
                };
                let left = own & !from.bit();
                // Straight on onto an empty square, then the captures left and right.
                let steps = [
                    (Some(ahead), empty),
                    ((column > 0).then(|| ahead - 1), other),
                    ((column < 2).then(|| ahead + 1), other),
                ];
                for (to, needs) in steps {
                    if let Some(to) = to.and_then(Square::new) {
                        if needs & to.bit() != 0 {
                            add(Move::Pawn { from, to }, left | to.bit(), other & !to.bit());
                        }
                    }
                }
            }
        }
    }
    out
}

/// `None` while the game goes on; when its rules end it, `Some` of the winner
/// (`None`: a draw), as `tictable-games` judges it.
pub(super) fn result(rules: Rules, p: &Position) -> Option<Option<Player>> {
    let mover_loses = match rules {
        Rules::TicTacToe | Rules::Misere => return rules.result(&p.board()),
        // The other side's line, or no legal move, loses for the side to move.
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            has_line(sides(p).1) || children(rules, p).is_empty()
        }
        // Every end (the far row reached, every pawn taken, no move) is the last
        // mover's win.
        Rules::Hexapawn => children(rules, p).is_empty(),
    };
    mover_loses.then_some(Some(p.to_move.other()))
}
