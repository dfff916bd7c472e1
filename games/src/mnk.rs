//! m,n,k-games: tic-tac-toe on an M x N board where K in a line wins.

use crate::game::{
    grid_syntax, parse_grid, piece_at, write_grid, Game, Notation, Outcome, Player, PositionError,
};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The most cells: 3^40 keys still fit a `u64`.
const MAX_CELLS: usize = 40;

/// `mnk:M,N,K`: M columns, N rows, K of one's own in a row, column or diagonal wins, a
/// full board draws; X moves first. Cells are numbered row by row, top row first.
///
/// ```
/// use tictable_games::{Game, Mnk};
/// let game = Mnk::new(4, 3, 3).unwrap();
/// assert_eq!(game.id(), "mnk:4,3,3");
/// assert!(Mnk::new(9, 9, 9).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mnk {
    columns: usize,
    rows: usize,
    k: usize,
    /// Every line of K cells, as a mask.
    lines: Vec<u64>,
    /// The symmetries as cell permutations (`image[s][cell]`).
    images: Vec<Vec<usize>>,
    /// Per symmetry, per byte of a bitboard, per byte value: the base-3 weight of the
    /// image's cells (the key in four or ten lookups per image).
    weights: Vec<[u64; 256]>,
}

/// Why an m,n,k-game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MnkError {
    /// A size of 0, or K longer than both sides.
    Shape {
        /// Columns.
        m: usize,
        /// Rows.
        n: usize,
        /// Line length.
        k: usize,
    },
    /// More cells than a table can index.
    TooLarge {
        /// The cells.
        cells: usize,
    },
}

impl fmt::Display for MnkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MnkError::Shape { m, n, k } => write!(
                f,
                "mnk:{m},{n},{k} is not a game: M and N at least 1, K from 1 to max(M, N)"
            ),
            MnkError::TooLarge { cells } => write!(
                f,
                "{cells} cells would need a table of 3^{cells} = {:.2e} bytes; at most {MAX_CELLS} cells (M x N) are supported",
                libm_pow3(*cells)
            ),
        }
    }
}

impl core::error::Error for MnkError {}

fn libm_pow3(n: usize) -> f64 {
    (0..n).fold(1.0, |p, _| p * 3.0)
}

impl Mnk {
    /// The game with `m` columns, `n` rows and `k` in a line to win.
    pub fn new(m: usize, n: usize, k: usize) -> Result<Mnk, MnkError> {
        if m == 0 || n == 0 || k == 0 || k > m.max(n) {
            return Err(MnkError::Shape { m, n, k });
        }
        let cells = m * n;
        if cells > MAX_CELLS {
            return Err(MnkError::TooLarge { cells });
        }
        let at = |column: usize, row: usize| row * m + column;
        let mut lines = Vec::new();
        for row in 0..n {
            for column in 0..m {
                // Right, down, down-right, down-left.
                for (dc, dr) in [(1isize, 0isize), (0, 1), (1, 1), (-1, 1)] {
                    let end_c = column as isize + dc * (k as isize - 1);
                    let end_r = row as isize + dr * (k as isize - 1);
                    if end_c < 0 || end_c >= m as isize || end_r >= n as isize {
                        continue;
                    }
                    let mut mask = 0u64;
                    for i in 0..k as isize {
                        mask |= 1
                            << at(
                                (column as isize + dc * i) as usize,
                                (row as isize + dr * i) as usize,
                            );
                    }
                    if !lines.contains(&mask) {
                        lines.push(mask);
                    }
                }
            }
        }
        // Symmetries: identity, mirror left-right, mirror top-bottom, half turn; on a
        // square board also the four that transpose.
        let mut images = Vec::new();
        for s in 0..if m == n { 8 } else { 4 } {
            let image: Vec<usize> = (0..cells)
                .map(|cell| {
                    let (mut c, mut r) = (cell % m, cell / m);
                    if s & 1 != 0 {
                        c = m - 1 - c;
                    }
                    if s & 2 != 0 {
                        r = n - 1 - r;
                    }
                    if s & 4 != 0 {
                        core::mem::swap(&mut c, &mut r);
                    }
                    at(c, r)
                })
                .collect();
            images.push(image);
        }
        let bytes = cells.div_ceil(8);
        let mut pow3 = vec![1u64; cells];
        for i in 1..cells {
            pow3[i] = pow3[i - 1] * 3;
        }
        let mut weights = Vec::with_capacity(images.len() * bytes);
        for image in &images {
            for byte in 0..bytes {
                let mut table = [0u64; 256];
                for (value, weight) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let cell = byte * 8 + bit;
                        if value >> bit & 1 != 0 && cell < cells {
                            *weight += pow3[image[cell]];
                        }
                    }
                }
                weights.push(table);
            }
        }
        Ok(Mnk {
            columns: m,
            rows: n,
            k,
            lines,
            images,
            weights,
        })
    }

    fn cells(&self) -> usize {
        self.columns * self.rows
    }

    /// The key of the image of `(x, o)` under symmetry `s`.
    #[inline]
    fn key_of(&self, x: u64, o: u64, s: usize) -> u64 {
        let bytes = self.cells().div_ceil(8);
        let tables = &self.weights[s * bytes..(s + 1) * bytes];
        let mut key = 0;
        for (byte, table) in tables.iter().enumerate() {
            key += table[(x >> (8 * byte)) as usize & 0xff]
                + 2 * table[(o >> (8 * byte)) as usize & 0xff];
        }
        key
    }

    fn has_line(&self, bits: u64) -> bool {
        // A line is complete when every one of its cells is set.
        self.lines.iter().any(|line| bits & line == *line)
    }
}

/// A position of an m,n,k-game: X's and O's cells (bit `i` = cell `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MnkPosition {
    /// X's cells.
    pub x: u64,
    /// O's cells.
    pub o: u64,
}

impl Game for Mnk {
    type Position = MnkPosition;
    type Move = u8;

    fn id(&self) -> String {
        format!("mnk:{},{},{}", self.columns, self.rows, self.k)
    }

    fn rules(&self) -> String {
        format!(
            "{} columns x {} rows; X first; {} of one's own in a row, column or diagonal wins; a full board draws",
            self.columns, self.rows, self.k
        )
    }

    fn start(&self) -> MnkPosition {
        MnkPosition { x: 0, o: 0 }
    }

    fn moves(&self, p: &MnkPosition, out: &mut Vec<u8>) {
        let occupied = p.x | p.o;
        out.extend((0..self.cells() as u8).filter(|&c| occupied >> c & 1 == 0));
    }

    fn play(&self, p: &MnkPosition, cell: u8) -> MnkPosition {
        let bit = 1u64 << cell;
        if p.x.count_ones() == p.o.count_ones() {
            MnkPosition {
                x: p.x | bit,
                o: p.o,
            }
        } else {
            MnkPosition {
                x: p.x,
                o: p.o | bit,
            }
        }
    }

    fn primitive(&self, p: &MnkPosition) -> Option<Outcome> {
        // Only the player who just moved can have completed a line.
        let last = if p.x.count_ones() > p.o.count_ones() {
            p.x
        } else {
            p.o
        };
        if self.has_line(last) {
            Some(Outcome::Loss)
        } else if (p.x | p.o).count_ones() as usize == self.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn to_move(&self, p: &MnkPosition) -> Player {
        if p.x.count_ones() == p.o.count_ones() {
            Player::X
        } else {
            Player::O
        }
    }

    fn key_space(&self) -> u64 {
        3u64.pow(self.cells() as u32)
    }

    fn key(&self, p: &MnkPosition) -> u64 {
        self.key_of(p.x, p.o, 0)
    }

    fn symmetries(&self) -> usize {
        self.images.len()
    }

    fn transform(&self, p: &MnkPosition, s: usize) -> MnkPosition {
        let map = |bits: u64| {
            (0..self.cells())
                .filter(|&c| bits >> c & 1 != 0)
                .fold(0u64, |acc, c| acc | 1 << self.images[s][c])
        };
        MnkPosition {
            x: map(p.x),
            o: map(p.o),
        }
    }

    fn symmetric_key(&self, p: &MnkPosition, s: usize) -> u64 {
        self.key_of(p.x, p.o, s)
    }

    fn write_move(&self, cell: u8, notation: Notation) -> String {
        format!("{}", notation.number(cell.into()))
    }

    fn move_syntax(&self, notation: Notation) -> String {
        format!(
            "a cell {}-{} (left to right, top to bottom)",
            notation.number(0),
            notation.number(self.cells() - 1)
        )
    }

    fn parse_position(&self, text: &str) -> Result<MnkPosition, PositionError> {
        let (x, o, _) = parse_grid(text, self.columns, self.rows, false)?;
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            let expected = grid_syntax(self.columns, self.rows, false);
            return Err(PositionError::new(
                text,
                "X has as many pieces as O or one more",
                expected,
            ));
        }
        Ok(MnkPosition { x, o })
    }

    fn write_position(&self, p: &MnkPosition, _: Notation) -> String {
        write_grid(self.columns, self.rows, |i| piece_at(p.x, p.o, i))
    }
}
