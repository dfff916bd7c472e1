//! The morris family on a 3x3 grid of points: three men's morris, tapatan and achi.
//! Pieces slide, so positions repeat: the solver uses retrograde analysis.

use crate::game::{
    grid_syntax, key_3x3, parse_grid, piece_at, write_grid, Game, Notation, Outcome, Player,
    PositionError,
};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use tictable::board::has_line;
use tictable::Symmetry;

/// A morris game on 3x3 points (numbered 1-9 left to right, top to bottom): each side
/// places its pieces in turn, X first, until all are placed, then a move slides one's
/// own piece to an adjacent empty point; three of one's own in a row, column or
/// diagonal wins at once in either phase; a side with no legal move on its turn loses.
///
/// - `three-mens-morris` (Murray's "smaller merels"): 3 pieces each, slides along rows
///   and columns only.
/// - `tapatan`: 3 pieces each, slides also along the two diagonals (corner to centre
///   and back).
/// - `achi`: as tapatan with 4 pieces each.
///
/// ```
/// use tictable_games::{Game, Morris};
/// assert_eq!(Morris::achi().id(), "achi");
/// assert!(Morris::tapatan().repeats());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Morris {
    pieces: u32,
    diagonals: bool,
}

/// A morris position: each side's points (bit `i` = point `i`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MorrisPosition {
    /// X's points.
    pub x: u16,
    /// O's points.
    pub o: u16,
    /// The side to move.
    pub to_move: Player,
}

/// A morris move: a placement (`from` is `None`) or a slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MorrisMove {
    /// The point a piece leaves, `None` for a placement.
    pub from: Option<u8>,
    /// The point the piece goes to.
    pub to: u8,
}

impl Morris {
    /// Three men's morris.
    pub const fn three_mens_morris() -> Morris {
        Morris {
            pieces: 3,
            diagonals: false,
        }
    }

    /// Tapatan.
    pub const fn tapatan() -> Morris {
        Morris {
            pieces: 3,
            diagonals: true,
        }
    }

    /// Achi.
    pub const fn achi() -> Morris {
        Morris {
            pieces: 4,
            diagonals: true,
        }
    }

    /// The points adjacent to `point` along the board's lines.
    const fn neighbours(&self, point: usize) -> u16 {
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
        if self.diagonals {
            // The diagonals join each corner to the centre.
            if point == 4 {
                n |= 0b101_000_101;
            } else if point % 2 == 0 {
                n |= 1 << 4;
            }
        }
        n
    }

    /// Calls `visit` with each legal move of `p`, without allocating: placements
    /// lowest point first while the side to move has pieces to place, then slides by
    /// the point left, then the point reached; none once either side has a line. The
    /// one move generator of the morris games: [`Game::moves`] collects it, the
    /// machine's `games` firmware (no heap) walks it, and the best-move tables' bit
    /// `i` is its `i`-th move.
    ///
    /// ```
    /// use tictable_games::{Game, Morris, MorrisMove, MorrisPosition, Player};
    /// // X on points 1, 2 and 4 (people's numbers), O on 5, 6 and 9, X to slide.
    /// let p = MorrisPosition { x: 0b000_001_011, o: 0b100_110_000, to_move: Player::X };
    /// let mut slides = Vec::new();
    /// Morris::three_mens_morris().each_move(&p, |mv| slides.push(mv));
    /// // Along rows and columns only: 2 to 3, 4 to 7.
    /// assert_eq!(slides, [MorrisMove { from: Some(1), to: 2 }, MorrisMove { from: Some(3), to: 6 }]);
    /// // Tapatan's diagonals add nothing here (the centre is taken).
    /// let mut moves = Vec::new();
    /// Morris::tapatan().moves(&p, &mut moves);
    /// assert_eq!(moves, slides);
    /// ```
    pub fn each_move(&self, p: &MorrisPosition, mut visit: impl FnMut(MorrisMove)) {
        self.walk(p, &mut visit);
    }

    /// [`Morris::each_move`]'s walk, compiled once for every caller (a few hundred
    /// bytes less flash in the machine's `games` image than one copy per closure).
    fn walk(&self, p: &MorrisPosition, visit: &mut dyn FnMut(MorrisMove)) {
        let (own, other) = Morris::own(p);
        if has_line(other) || has_line(own) {
            return;
        }
        let empty = !(p.x | p.o) & 0x1ff;
        // Bit loops, not iterator adapters: the machine's image is smaller so.
        if own.count_ones() < self.pieces {
            for to in 0..9u8 {
                if empty >> to & 1 != 0 {
                    visit(MorrisMove { from: None, to });
                }
            }
            return;
        }
        for from in 0..9u8 {
            if own >> from & 1 == 0 {
                continue;
            }
            let targets = self.neighbours(from.into()) & empty;
            for to in 0..9u8 {
                if targets >> to & 1 != 0 {
                    visit(MorrisMove {
                        from: Some(from),
                        to,
                    });
                }
            }
        }
    }

    /// Whether the side to move in `p` has a legal move ([`Morris::each_move`]).
    fn has_move(&self, p: &MorrisPosition) -> bool {
        let mut any = false;
        self.each_move(p, |_| any = true);
        any
    }

    fn own(p: &MorrisPosition) -> (u16, u16) {
        match p.to_move {
            Player::X => (p.x, p.o),
            Player::O => (p.o, p.x),
        }
    }
}

impl Game for Morris {
    type Position = MorrisPosition;
    type Move = MorrisMove;

    fn id(&self) -> String {
        match (self.pieces, self.diagonals) {
            (3, false) => "three-mens-morris",
            (3, true) => "tapatan",
            _ => "achi",
        }
        .into()
    }

    fn rules(&self) -> String {
        format!(
            "3x3 points, {} pieces each; X first; place all, then slide one's own piece to an adjacent empty point ({}); three in a row, column or diagonal wins at once; no legal move loses",
            self.pieces,
            if self.diagonals { "along rows, columns and the two diagonals" } else { "along rows and columns" }
        )
    }

    fn start(&self) -> MorrisPosition {
        MorrisPosition {
            x: 0,
            o: 0,
            to_move: Player::X,
        }
    }

    fn moves(&self, p: &MorrisPosition, out: &mut Vec<MorrisMove>) {
        self.each_move(p, |mv| out.push(mv));
    }

    fn play(&self, p: &MorrisPosition, mv: MorrisMove) -> MorrisPosition {
        let (mut own, other) = Morris::own(p);
        if let Some(from) = mv.from {
            own &= !(1 << from);
        }
        own |= 1 << mv.to;
        match p.to_move {
            Player::X => MorrisPosition {
                x: own,
                o: other,
                to_move: Player::O,
            },
            Player::O => MorrisPosition {
                x: other,
                o: own,
                to_move: Player::X,
            },
        }
    }

    fn primitive(&self, p: &MorrisPosition) -> Option<Outcome> {
        // The other side's line, or no legal move, loses for the side to move.
        (!self.has_move(p)).then_some(Outcome::Loss)
    }

    fn to_move(&self, p: &MorrisPosition) -> Player {
        p.to_move
    }

    fn key_space(&self) -> u64 {
        2 * 19_683
    }

    fn key(&self, p: &MorrisPosition) -> u64 {
        key_3x3(p.x, p.o, p.to_move)
    }

    fn symmetries(&self) -> usize {
        8
    }

    fn transform(&self, p: &MorrisPosition, index: usize) -> MorrisPosition {
        match Symmetry::from_index(index as u8) {
            Some(s) => MorrisPosition {
                x: s.apply_bits(p.x),
                o: s.apply_bits(p.o),
                to_move: p.to_move,
            },
            None => *p,
        }
    }

    fn repeats(&self) -> bool {
        true
    }

    fn write_move(&self, mv: MorrisMove, notation: Notation) -> String {
        let to = notation.number(mv.to.into());
        match mv.from {
            None => format!("{to}"),
            Some(from) => format!("{}-{to}", notation.number(from.into())),
        }
    }

    fn move_syntax(&self, notation: Notation) -> String {
        let (a, b) = (notation.number(0), notation.number(8));
        format!(
            "a point {a}-{b} to place a piece, or from-to (`{a}-{}`) to slide one",
            notation.number(1)
        )
    }

    fn parse_position(&self, text: &str) -> Result<MorrisPosition, PositionError> {
        let (x, o, side) = parse_grid(text, 3, 3, true)?;
        let (nx, no) = (x.count_ones(), o.count_ones());
        let to_move = side.unwrap_or(Player::X);
        let placing = nx < self.pieces || no < self.pieces;
        let reason = if nx > self.pieces || no > self.pieces {
            "more pieces than a side has"
        } else if placing
            && !(nx == no && to_move == Player::X || nx == no + 1 && to_move == Player::O)
        {
            "while placing, X has as many pieces as O (X to move) or one more (O to move)"
        } else {
            return Ok(MorrisPosition {
                x: x as u16,
                o: o as u16,
                to_move,
            });
        };
        Err(PositionError::new(text, reason, grid_syntax(3, 3, true)))
    }

    fn write_position(&self, p: &MorrisPosition, _: Notation) -> String {
        let grid = write_grid(3, 3, |i| piece_at(p.x.into(), p.o.into(), i));
        format!("{grid} {}", p.to_move.char())
    }
}
