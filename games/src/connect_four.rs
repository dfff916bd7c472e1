//! Connect Four on any board whose columns fit a 64-bit bitboard.

use crate::game::{
    grid_syntax, parse_grid, piece_at, write_grid, Game, Notation, Outcome, Player, PositionError,
};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// `connect4:WxH`: W columns, H rows; a piece drops to the lowest empty cell of its
/// column; four of one's own in a row, column or diagonal wins; a full board draws; X
/// moves first. Moves are column numbers, left to right.
///
/// A position is two bitboards of `H + 1` bits per column (a spare bit above each
/// column keeps lines from wrapping); its key gives each column the code
/// `pieces | 1 << height` (a number below `2^(H+1)`), so the key space is
/// `(2^(H+1) - 1)^W`: 887,503,681 for 6x4.
///
/// ```
/// use tictable_games::{ConnectFour, Game};
/// let game = ConnectFour::new(4, 4).unwrap();
/// assert_eq!(game.key_space(), 31u64.pow(4));
/// assert!(ConnectFour::new(9, 9).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    width: usize,
    height: usize,
}

/// Why a Connect Four board cannot be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectFourError {
    /// A width or height of 0.
    Empty,
    /// The board would not fit the bitboards and the table.
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

impl fmt::Display for ConnectFourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectFourError::Empty => {
                f.write_str("connect4:WxH needs at least 1 column and 1 row")
            }
            ConnectFourError::TooLarge { width, height } => {
                let codes = ((1u128 << (height + 1).min(127)) - 1) as f64;
                let bytes = (0..*width).fold(1.0, |p: f64, _| p * codes);
                write!(
                    f,
                    "connect4:{width}x{height} would need a table of {bytes:.2e} bytes (one per key, {codes} codes per column); \
                     at most width x (height + 1) = 64 bits and 2^64 keys are supported"
                )
            }
        }
    }
}

impl core::error::Error for ConnectFourError {}

/// A Connect Four position: X's pieces and all pieces (bit `column * (H + 1) + row`,
/// row 0 at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4Position {
    /// X's pieces.
    pub x: u64,
    /// Every piece.
    pub mask: u64,
}

impl ConnectFour {
    /// The game on `width` columns and `height` rows.
    pub fn new(width: usize, height: usize) -> Result<ConnectFour, ConnectFourError> {
        if width == 0 || height == 0 {
            return Err(ConnectFourError::Empty);
        }
        let too_large = ConnectFourError::TooLarge { width, height };
        if width * (height + 1) > 64 {
            return Err(too_large);
        }
        ((1u64 << (height + 1)) - 1)
            .checked_pow(width as u32)
            .ok_or(too_large)?;
        Ok(ConnectFour { width, height })
    }

    /// The number of columns.
    pub const fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    pub const fn height(&self) -> usize {
        self.height
    }

    const fn stride(&self) -> usize {
        self.height + 1
    }

    const fn bottom(&self, column: usize) -> u64 {
        1 << (column * self.stride())
    }

    const fn top(&self, column: usize) -> u64 {
        1 << (column * self.stride() + self.height - 1)
    }

    /// The code of each column, below `2^(H+1) - 1`.
    fn codes(&self, p: &Connect4Position) -> impl Iterator<Item = u64> + '_ {
        let p = *p;
        let column_mask = (1u64 << self.stride()) - 1;
        (0..self.width).map(move |c| {
            let shift = c * self.stride();
            let height = (p.mask >> shift & column_mask).count_ones();
            ((p.x >> shift & column_mask) | 1 << height) - 1
        })
    }

    fn has_four(&self, bits: u64) -> bool {
        let h = self.height as u32;
        [1, h + 1, h, h + 2].into_iter().any(|d| {
            let pairs = bits & bits >> d;
            pairs & pairs >> (2 * d) != 0
        })
    }
}

impl Game for ConnectFour {
    type Position = Connect4Position;
    type Move = u8;

    fn id(&self) -> String {
        format!("connect4:{}x{}", self.width, self.height)
    }

    fn rules(&self) -> String {
        format!(
            "{} columns x {} rows; X first; a piece drops to the lowest empty cell of its column; four of one's own in a row, column or diagonal wins; a full board draws",
            self.width, self.height
        )
    }

    fn start(&self) -> Connect4Position {
        Connect4Position { x: 0, mask: 0 }
    }

    fn moves(&self, p: &Connect4Position, out: &mut Vec<u8>) {
        out.extend((0..self.width as u8).filter(|&c| p.mask & self.top(c.into()) == 0));
    }

    fn play(&self, p: &Connect4Position, column: u8) -> Connect4Position {
        let mask = p.mask | (p.mask + self.bottom(column.into()));
        let piece = mask ^ p.mask;
        let x = if p.mask.count_ones() % 2 == 0 {
            p.x | piece
        } else {
            p.x
        };
        Connect4Position { x, mask }
    }

    fn primitive(&self, p: &Connect4Position) -> Option<Outcome> {
        let pieces = p.mask.count_ones();
        // Only the player who just moved can have completed a line.
        let last = if pieces % 2 == 1 { p.x } else { p.mask ^ p.x };
        if self.has_four(last) {
            Some(Outcome::Loss)
        } else if pieces as usize == self.width * self.height {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn to_move(&self, p: &Connect4Position) -> Player {
        if p.mask.count_ones() % 2 == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    fn key_space(&self) -> u64 {
        ((1u64 << self.stride()) - 1).pow(self.width as u32)
    }

    fn key(&self, p: &Connect4Position) -> u64 {
        let radix = (1u64 << self.stride()) - 1;
        self.codes(p)
            .fold((0, 1), |(key, place), code| {
                (key + code * place, place * radix)
            })
            .0
    }

    fn symmetries(&self) -> usize {
        2
    }

    fn transform(&self, p: &Connect4Position, index: usize) -> Connect4Position {
        if index == 0 {
            return *p;
        }
        let column_mask = (1u64 << self.stride()) - 1;
        let mirror = |bits: u64| {
            (0..self.width).fold(0, |acc, c| {
                acc | (bits >> (c * self.stride()) & column_mask)
                    << ((self.width - 1 - c) * self.stride())
            })
        };
        Connect4Position {
            x: mirror(p.x),
            mask: mirror(p.mask),
        }
    }

    fn symmetric_key(&self, p: &Connect4Position, index: usize) -> u64 {
        if index == 0 {
            return self.key(p);
        }
        // The mirror image: the same codes, the columns in reverse order.
        let radix = (1u64 << self.stride()) - 1;
        self.codes(p).fold(0, |key, code| key * radix + code)
    }

    fn write_move(&self, column: u8, notation: Notation) -> String {
        format!("{}", notation.number(column.into()))
    }

    fn move_syntax(&self, notation: Notation) -> String {
        format!(
            "a column {}-{} (left to right)",
            notation.number(0),
            notation.number(self.width - 1)
        )
    }

    fn parse_position(&self, text: &str) -> Result<Connect4Position, PositionError> {
        let (w, h) = (self.width, self.height);
        let (gx, go, _) = parse_grid(text, w, h, false)?;
        let mut p = Connect4Position { x: 0, mask: 0 };
        for i in 0..w * h {
            let bit = 1u64 << ((i % w) * self.stride() + h - 1 - i / w);
            if (gx | go) >> i & 1 != 0 {
                p.mask |= bit;
            }
            if gx >> i & 1 != 0 {
                p.x |= bit;
            }
        }
        let column_mask = (1u64 << self.stride()) - 1;
        let floating = (0..w).any(|c| {
            let column = p.mask >> (c * self.stride()) & column_mask;
            column & (column + 1) != 0
        });
        let (nx, no) = (gx.count_ones(), go.count_ones());
        let reason = if floating {
            "a piece above an empty cell"
        } else if nx != no && nx != no + 1 {
            "X has as many pieces as O or one more"
        } else {
            return Ok(p);
        };
        Err(PositionError::new(text, reason, grid_syntax(w, h, false)))
    }

    fn write_position(&self, p: &Connect4Position, _: Notation) -> String {
        write_grid(self.width, self.height, |i| {
            let (column, row) = (i % self.width, self.height - 1 - i / self.width);
            piece_at(p.x, p.mask ^ p.x, column * self.stride() + row)
        })
    }
}
