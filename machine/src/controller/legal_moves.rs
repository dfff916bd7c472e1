//! The legal moves of any game the machine plays, with each child and the end of
//! the game, without allocating (the firmware's `games` image has no heap): a thin
//! adapter over the games' own rules. Tic-tac-toe and misère place on the engine's
//! [`Board`](tictable::Board); the morris games and hexapawn walk
//! `tictable-games`' move generators ([`Morris::each_move`](tictable_games::Morris::each_move),
//! [`Hexapawn::each_move`]: the ones [`Game::moves`] collects, so the best-move
//! tables' bit `i` is the `i`-th child here) and end by [`Game::primitive`]. The
//! moves are carried into [`Move`] and the positions into [`Position`] here and
//! nowhere else; a host test checks the carrying on every reachable position of
//! each game (`tests/machine/legal_moves.rs`).

use super::position::morris;
use super::{Move, Position, Rules};
use core::ops::Deref;
use tictable::{Player, Square};
use tictable_games::{Game, Hexapawn, MorrisMove, Outcome, PawnMove};

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

/// A morris move as the machine's [`Move`] (`None` for a point past 8: none is).
fn of_morris(mv: MorrisMove) -> Option<Move> {
    let to = Square::new(mv.to)?;
    Some(match mv.from {
        None => Move::Place(to),
        Some(from) => Move::Slide {
            from: Square::new(from)?,
            to,
        },
    })
}

/// A hexapawn move as the machine's [`Move`] (`None` for a square past 8: none is).
fn of_pawn(mv: PawnMove) -> Option<Move> {
    Some(Move::Pawn {
        from: Square::new(mv.from)?,
        to: Square::new(mv.to)?,
    })
}

/// `p` after the side to move placed a piece on `s` (a placing game's child).
const fn placed(p: &Position, s: Square) -> Position {
    match p.to_move {
        Player::X => Position {
            x: p.x | s.bit(),
            o: p.o,
            to_move: Player::O,
        },
        Player::O => Position {
            x: p.x,
            o: p.o | s.bit(),
            to_move: Player::X,
        },
    }
}

/// Every legal move of the side to move in `p` under `rules` with its child, in
/// `tictable-games`' order; empty once the game is over.
pub(super) fn children(rules: Rules, p: &Position) -> Children {
    let mut out = NONE;
    match rules {
        Rules::TicTacToe | Rules::Misere => {
            let board = p.board();
            if !board.is_over() {
                for s in board.legal_moves().iter() {
                    out.push((Move::Place(s), placed(p, s)));
                }
            }
        }
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            let (game, m) = (morris(rules), p.morris());
            game.each_move(&m, |mv| {
                if let Some(step) = of_morris(mv) {
                    out.push((step, Position::of_morris(game.play(&m, mv))));
                }
            });
        }
        Rules::Hexapawn => {
            let h = p.hexapawn();
            Hexapawn.each_move(&h, |mv| {
                if let Some(step) = of_pawn(mv) {
                    out.push((step, Position::of_hexapawn(Hexapawn.play(&h, mv))));
                }
            });
        }
    }
    out
}

/// `None` while the game goes on; when its rules end it, `Some` of the winner
/// (`None`: a draw), as `tictable-games` judges it ([`Game::primitive`]).
pub(super) fn result(rules: Rules, p: &Position) -> Option<Option<Player>> {
    let outcome = match rules {
        Rules::TicTacToe | Rules::Misere => return rules.result(&p.board()),
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            morris(rules).primitive(&p.morris())
        }
        Rules::Hexapawn => Hexapawn.primitive(&p.hexapawn()),
    }?;
    // The outcome is the side to move's.
    Some(match outcome {
        Outcome::Win => Some(p.to_move),
        Outcome::Loss => Some(p.to_move.other()),
        Outcome::Draw => None,
    })
}
