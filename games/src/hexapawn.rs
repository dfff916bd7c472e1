//! Gardner's hexapawn: three pawns each on a 3x3 board.

use crate::game::{
    grid_syntax, key_3x3, parse_grid, piece_at, write_grid, Game, Notation, Outcome, Player,
    PositionError,
};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// `hexapawn` (Martin Gardner, 1962): White's three pawns (X) on the bottom row,
/// Black's (O) on the top, White first. A pawn steps forward to an empty square or
/// diagonally forward onto an enemy pawn, capturing it. Reaching the far row,
/// capturing every enemy pawn, or leaving the opponent without a move wins. Squares are
/// numbered 1-9 left to right, top to bottom; a move is written from-to (`8-5`).
///
/// ```
/// use tictable_games::{solve, Hexapawn, Outcome};
/// // Gardner: the second player, Black, wins.
/// assert_eq!(solve(Hexapawn).unwrap().start().outcome, Outcome::Loss);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hexapawn;

/// A hexapawn position: White's and Black's squares (bit `i` = square `i`, top row
/// first) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexapawnPosition {
    /// White's pawns.
    pub white: u16,
    /// Black's pawns.
    pub black: u16,
    /// The side to move (X is White).
    pub to_move: Player,
}

/// A pawn's move from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PawnMove {
    /// The square the pawn leaves.
    pub from: u8,
    /// The square it reaches.
    pub to: u8,
}

const TOP: u16 = 0b000_000_111;
const BOTTOM: u16 = 0b111_000_000;

impl Hexapawn {
    /// Calls `visit` with each legal move of `p`, without allocating: by the square
    /// left (lowest first), the step straight on, then the captures to the lower and
    /// the higher column; none once the game is over (the last mover reached the far
    /// row or took every pawn). The one move generator of hexapawn: [`Game::moves`]
    /// collects it, the machine's `games` firmware (no heap) walks it, and the
    /// best-move tables' bit `i` is its `i`-th move.
    ///
    /// ```
    /// use tictable_games::{Game, Hexapawn, PawnMove};
    /// let mut moves = Vec::new();
    /// Hexapawn.each_move(&Hexapawn.start(), |mv| moves.push(mv));
    /// // White's three pushes (people's 7-4, 8-5, 9-6).
    /// let push = |from, to| PawnMove { from, to };
    /// assert_eq!(moves, [push(6, 3), push(7, 4), push(8, 5)]);
    /// ```
    pub fn each_move(&self, p: &HexapawnPosition, mut visit: impl FnMut(PawnMove)) {
        self.walk(p, &mut visit);
    }

    /// [`Hexapawn::each_move`]'s walk, compiled once for every caller (less flash in
    /// the machine's `games` image than one copy per closure).
    fn walk(&self, p: &HexapawnPosition, visit: &mut dyn FnMut(PawnMove)) {
        // The game is over once the last mover reached the far row or took every pawn.
        if p.white & TOP != 0 || p.black & BOTTOM != 0 || p.white == 0 || p.black == 0 {
            return;
        }
        let (own, enemy) = Hexapawn::sides(p);
        let forward: i8 = if p.to_move == Player::X { -3 } else { 3 };
        for from in (0..9i8).filter(|&f| own >> f & 1 != 0) {
            let ahead = from + forward;
            if !(0..9).contains(&ahead) {
                continue;
            }
            if (p.white | p.black) >> ahead & 1 == 0 {
                visit(PawnMove {
                    from: from as u8,
                    to: ahead as u8,
                });
            }
            for side in [-1i8, 1] {
                let column = from % 3 + side;
                let to = ahead + side;
                if (0..3).contains(&column) && enemy >> to & 1 != 0 {
                    visit(PawnMove {
                        from: from as u8,
                        to: to as u8,
                    });
                }
            }
        }
    }

    fn sides(p: &HexapawnPosition) -> (u16, u16) {
        match p.to_move {
            Player::X => (p.white, p.black),
            Player::O => (p.black, p.white),
        }
    }
}

impl Game for Hexapawn {
    type Position = HexapawnPosition;
    type Move = PawnMove;

    fn id(&self) -> String {
        "hexapawn".into()
    }

    fn rules(&self) -> String {
        "3x3; White's 3 pawns on the bottom row, Black's on the top; White first; a pawn steps forward to an empty square or diagonally forward capturing; reaching the far row, capturing every enemy pawn or leaving the opponent without a move wins".into()
    }

    fn start(&self) -> HexapawnPosition {
        HexapawnPosition {
            white: BOTTOM,
            black: TOP,
            to_move: Player::X,
        }
    }

    fn moves(&self, p: &HexapawnPosition, out: &mut Vec<PawnMove>) {
        self.each_move(p, |mv| out.push(mv));
    }

    fn play(&self, p: &HexapawnPosition, mv: PawnMove) -> HexapawnPosition {
        let (mut own, mut enemy) = Hexapawn::sides(p);
        own = own & !(1 << mv.from) | 1 << mv.to;
        enemy &= !(1 << mv.to);
        match p.to_move {
            Player::X => HexapawnPosition {
                white: own,
                black: enemy,
                to_move: Player::O,
            },
            Player::O => HexapawnPosition {
                white: enemy,
                black: own,
                to_move: Player::X,
            },
        }
    }

    fn primitive(&self, p: &HexapawnPosition) -> Option<Outcome> {
        // Every way the game ends is a win for the player who just moved.
        let mut any = false;
        self.each_move(p, |_| any = true);
        (!any).then_some(Outcome::Loss)
    }

    fn to_move(&self, p: &HexapawnPosition) -> Player {
        p.to_move
    }

    fn key_space(&self) -> u64 {
        2 * 19_683
    }

    fn key(&self, p: &HexapawnPosition) -> u64 {
        key_3x3(p.white, p.black, p.to_move)
    }

    fn symmetries(&self) -> usize {
        2
    }

    fn transform(&self, p: &HexapawnPosition, index: usize) -> HexapawnPosition {
        if index == 0 {
            return *p;
        }
        // Left-right mirror: swap the outer columns.
        let mirror =
            |b: u16| (b & 0b010_010_010) | (b & 0b001_001_001) << 2 | (b & 0b100_100_100) >> 2;
        HexapawnPosition {
            white: mirror(p.white),
            black: mirror(p.black),
            to_move: p.to_move,
        }
    }

    fn write_move(&self, mv: PawnMove, notation: Notation) -> String {
        format!(
            "{}-{}",
            notation.number(mv.from.into()),
            notation.number(mv.to.into())
        )
    }

    fn move_syntax(&self, notation: Notation) -> String {
        format!(
            "from-to, squares {}-{} left to right, top to bottom (`{}-{}`)",
            notation.number(0),
            notation.number(8),
            notation.number(7),
            notation.number(4)
        )
    }

    fn parse_position(&self, text: &str) -> Result<HexapawnPosition, PositionError> {
        let (white, black, side) = parse_grid(text, 3, 3, true)?;
        if white.count_ones() > 3 || black.count_ones() > 3 {
            return Err(PositionError::new(
                text,
                "more than 3 pawns a side",
                grid_syntax(3, 3, true),
            ));
        }
        Ok(HexapawnPosition {
            white: white as u16,
            black: black as u16,
            to_move: side.unwrap_or(Player::X),
        })
    }

    fn write_position(&self, p: &HexapawnPosition, _: Notation) -> String {
        let grid = write_grid(3, 3, |i| piece_at(p.white.into(), p.black.into(), i));
        format!("{grid} {}", p.to_move.char())
    }
}
