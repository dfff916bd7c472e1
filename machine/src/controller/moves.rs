//! [`Move`]: one move of any game the machine plays on the 3x3 board, and its byte
//! in the game record (the low nibble the point reached, the high nibble the point
//! left plus one; 0 for a placement). A placement's byte is its square index, the
//! tic-tac-toe record's byte since the first snapshot format: the default build's
//! record and snapshot are unchanged.

use super::Rules;
use tictable::Square;

/// One move: a piece placed from storage, a morris slide, or a hexapawn pawn's
/// step or capture (a capture when `to` holds the other colour: the board says
/// it, the move does not).
///
/// ```
/// use tictable_machine::controller::{Move, Rules};
/// use tictable::Square;
/// let s = |i| Square::new(i).unwrap();
/// // A slide from point 1 to point 2 (people's numbers): from 0 + 1 = 1, to 1.
/// let slide = Move::Slide { from: s(0), to: s(1) };
/// assert_eq!(slide.byte(), 0x11);
/// assert_eq!(Move::Place(s(4)).byte(), 4);
/// # #[cfg(feature = "games")] {
/// assert_eq!(Move::from_byte(0x11, Rules::Tapatan), Some(slide));
/// assert_eq!(Move::from_byte(0x74, Rules::Hexapawn), Some(Move::Pawn { from: s(6), to: s(4) }));
/// # }
/// // Tic-tac-toe only places; a nibble past 8 is no point.
/// assert_eq!(Move::from_byte(0x11, Rules::TicTacToe), None);
/// assert_eq!(Move::from_byte(0x09, Rules::TicTacToe), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece from storage onto the square (tic-tac-toe, misère, a morris game's
    /// placing phase).
    Place(Square),
    /// A morris piece slid to an adjacent empty point.
    Slide {
        /// The point it leaves.
        from: Square,
        /// The point it reaches.
        to: Square,
    },
    /// A hexapawn pawn one row forward, or diagonally forward capturing.
    Pawn {
        /// The square it leaves.
        from: Square,
        /// The square it reaches.
        to: Square,
    },
}

impl Move {
    /// The square the moved piece reaches.
    pub const fn to(self) -> Square {
        match self {
            Move::Place(to) | Move::Slide { to, .. } | Move::Pawn { to, .. } => to,
        }
    }

    /// The square the moved piece leaves (`None`: from storage).
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Place(_) => None,
            Move::Slide { from, .. } | Move::Pawn { from, .. } => Some(from),
        }
    }

    /// The record's byte: `to` in the low nibble, `from + 1` (0 for a placement) in
    /// the high one.
    pub const fn byte(self) -> u8 {
        let from = match self.from() {
            Some(f) => f.index() + 1,
            None => 0,
        };
        from << 4 | self.to().index()
    }

    /// The move a record byte of `rules`' game stands for; `None` for a byte no
    /// move of that game has (a point past 8, a slide in a placing game, a
    /// placement in hexapawn). Legality in a position is the record's to check.
    pub const fn from_byte(byte: u8, rules: Rules) -> Option<Move> {
        let Some(to) = Square::new(byte & 0x0F) else {
            return None;
        };
        let from = byte >> 4;
        if from == 0 {
            #[cfg(feature = "games")]
            if matches!(rules, Rules::Hexapawn) {
                return None;
            }
            return Some(Move::Place(to));
        }
        let Some(from) = Square::new(from - 1) else {
            return None;
        };
        match rules {
            Rules::TicTacToe | Rules::Misere => {
                let _ = from;
                None
            }
            #[cfg(feature = "games")]
            Rules::Hexapawn => Some(Move::Pawn { from, to }),
            #[cfg(feature = "games")]
            Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => Some(Move::Slide { from, to }),
        }
    }
}
