//! An exact live search for Connect Four boards whose whole table is too big to hold:
//! the value and remoteness of a position and of each of its moves, in bounded memory.
//!
//! [`solve`](crate::solve) gives every reachable position its record in a table of one
//! byte per key: 260 MB for `connect4:4x6`, 888 MB for `6x4`, 992 MB for `5x5`. A
//! [`Searcher`] answers one position at a time with the same [`Record`] (win, draw or
//! loss for the side to move, and the remoteness: the winner hurries, the loser delays)
//! from a negamax alpha-beta search over bitboards with a transposition table of a
//! fixed size chosen when it is made (no growth with the input or the search).
//!
//! The score of a position for the side to move is absolute, so a table entry holds
//! whatever path reached it: a game that ends after `T` pieces in all is worth
//! `cells + 1 - T` to its winner, the negative of that to its loser, and 0 when drawn.
//! The winner's best is the smallest `T`, the loser's the largest, exactly the
//! solver's remoteness (`T` minus the pieces on the board). The exact score is found by
//! null-window searches bisecting the possible scores (as in Pascal Pons' Connect Four
//! solver); each node first takes an immediate win, answers a position where every move
//! lets the opponent win at once, keeps only the moves that do not, and tries them
//! best first: those making the most threats (cells that would complete a line), then
//! the centre columns before the edges. Mirror images share table entries.
//!
//! ```
//! use tictable_games::search::Searcher;
//! use tictable_games::{ConnectFour, Game, Outcome};
//! let game = ConnectFour::new(4, 4).unwrap();
//! let mut searcher = Searcher::new(game, 1 << 20).unwrap();
//! let start = game.start();
//! // Connect Four 4x4 is a draw (Tromp's table of board sizes).
//! assert_eq!(searcher.record(&start).outcome, Outcome::Draw);
//! ```

use crate::connect_four::{Connect4Position, ConnectFour};
use crate::game::{Game, Outcome};
use crate::solver::{combine, Record};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The transposition table's size the page uses: 32 MiB (4 Mi entries of 8 bytes).
pub const DEFAULT_TABLE_BYTES: usize = 32 << 20;

/// A Connect Four board whose whole table (one byte per key,
/// [`Game::key_space`] bytes) would be larger than this is searched live by the page and
/// by `tictable analyse` instead of solved: `connect4:4x6`, `6x4` and `5x5`.
pub const LIVE_ABOVE_BYTES: u64 = 100_000_000;

/// Whether `game` is searched live rather than solved ([`LIVE_ABOVE_BYTES`]).
pub fn searched_live(game: &ConnectFour) -> bool {
    game.key_space() > LIVE_ABOVE_BYTES
}

/// Why a [`Searcher`] cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The board's key (`width x (height + 1)` bits) or its cells do not fit a table
    /// entry: at most 54 key bits and 63 cells.
    BoardTooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Less memory than one table entry of 8 bytes.
    NoMemory,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::BoardTooLarge { width, height } => write!(
                f,
                "connect4:{width}x{height} is too large for the live search (at most {KEY_BITS} bits of width x (height + 1) and 63 cells)"
            ),
            SearchError::NoMemory => f.write_str("the search's table needs at least 8 bytes"),
        }
    }
}

impl core::error::Error for SearchError {}

/// The most bits of a position's key a table entry holds.
const KEY_BITS: usize = 54;

/// What a table entry's score is: the exact value, or a bound on it.
const LOWER: u64 = 1;
const UPPER: u64 = 2;
const EXACT: u64 = 3;

/// The exact live search of one Connect Four board (see the [module](self)).
pub struct Searcher {
    game: ConnectFour,
    width: usize,
    height: usize,
    cells: i32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board.
    board: u64,
    /// The columns, the centre first.
    order: Vec<usize>,
    /// The transposition table: `key << 10 | kind << 8 | score as u8`, 0 when empty.
    table: Vec<u64>,
    /// log2 of the table's length.
    bits: u32,
    nodes: u64,
}

impl Searcher {
    /// A searcher for `game` whose transposition table takes at most `table_bytes`
    /// (rounded down to a power of two entries of 8 bytes).
    pub fn new(game: ConnectFour, table_bytes: usize) -> Result<Searcher, SearchError> {
        let (width, height) = (game.width(), game.height());
        if width * (height + 1) > KEY_BITS || width * height > 63 {
            return Err(SearchError::BoardTooLarge { width, height });
        }
        let entries = table_bytes / 8;
        if entries == 0 {
            return Err(SearchError::NoMemory);
        }
        let bits = usize::BITS - 1 - entries.leading_zeros();
        let stride = height + 1;
        let bottom = (0..width).fold(0u64, |b, c| b | 1 << (c * stride));
        let board = bottom * ((1u64 << height) - 1);
        // Pons' order: the centre, then alternately right and left of it.
        let order = (0..width)
            .map(|i| {
                let offset = (i as isize + 1) / 2;
                let side = if i % 2 == 1 { -1 } else { 1 };
                (width as isize / 2 + side * offset) as usize
            })
            .collect();
        Ok(Searcher {
            game,
            width,
            height,
            cells: (width * height) as i32,
            bottom,
            board,
            order,
            table: vec![0; 1 << bits],
            bits,
            nodes: 0,
        })
    }

    /// The game searched.
    pub fn game(&self) -> &ConnectFour {
        &self.game
    }

    /// The bytes of the transposition table (the search's only memory that is not on
    /// the stack; the stack holds one frame of a few words per ply).
    pub fn table_bytes(&self) -> usize {
        self.table.len() * 8
    }

    /// The positions searched so far (each call to the inner search), summed over
    /// every question asked.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table (its answers stay true across questions; this
    /// is for measuring a cold search).
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The record of `position` for the side to move: its value and remoteness, as
    /// [`solve`](crate::solve) gives them (a finished position: its outcome, 0).
    pub fn record(&mut self, position: &Connect4Position) -> Record {
        if let Some(outcome) = self.game.primitive(position) {
            return (outcome, 0).into();
        }
        let n = position.mask.count_ones() as i32;
        let current = if n % 2 == 0 {
            position.x
        } else {
            position.x ^ position.mask
        };
        let score = self.score(current, position.mask, n);
        // Score s = cells + 1 - T for a win ending with T pieces (its negative for a
        // loss): the remoteness is T - n.
        match score.signum() {
            1 => (Outcome::Win, (self.cells + 1 - score - n) as u8).into(),
            -1 => (Outcome::Loss, (self.cells + 1 + score - n) as u8).into(),
            _ => (Outcome::Draw, 0).into(),
        }
    }

    /// Each legal move of `position` (in the order of [`Game::moves`]) with the record
    /// of the position it leads to (for the opponent, who moves there), and the
    /// position's own record from them ([`combine`], as the solver combines); `None`
    /// for a finished position.
    pub fn moves(&mut self, position: &Connect4Position) -> Option<(Record, Vec<(u8, Record)>)> {
        if self.game.primitive(position).is_some() {
            return None;
        }
        let mut moves = Vec::new();
        self.game.moves(position, &mut moves);
        let children: Vec<(u8, Record)> = moves
            .into_iter()
            .map(|mv| (mv, self.record(&self.game.play(position, mv))))
            .collect();
        let record = combine(children.iter().map(|&(_, r)| r))?;
        Some((record, children))
    }

    /// The exact score of a position with `n` pieces where `current` (the side to
    /// move's pieces) has not won and the opponent has not either.
    fn score(&mut self, current: u64, mask: u64, n: i32) -> i32 {
        if self.winning(current, mask) & self.possible(mask) != 0 {
            return self.cells - n;
        }
        // A loss at the opponent's next move at worst, a win at one's own move after
        // that at best.
        let (mut min, mut max) = (-(self.cells - n - 1), self.cells - n - 2);
        if n + 1 >= self.cells {
            return 0;
        }
        while min < max {
            let mut med = min + (max - min).div_euclid(2);
            // Try near the draw first: most positions of these boards are drawn or
            // won late.
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(current, mask, n, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The cells where each column's next piece goes.
    fn possible(&self, mask: u64) -> u64 {
        mask.wrapping_add(self.bottom) & self.board
    }

    /// The empty cells that would complete a line of four for `pieces`.
    fn winning(&self, pieces: u64, mask: u64) -> u64 {
        let h = self.height;
        let p = pieces;
        // Vertical: three below.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        // Horizontal and the two diagonals: a step of h + 1, h and h + 2 bits.
        for d in [h + 1, h, h + 2] {
            let two = (p << d) & (p << (2 * d));
            r |= two & (p << (3 * d));
            r |= two & (p >> d);
            let two = (p >> d) & (p >> (2 * d));
            r |= two & (p << d);
            r |= two & (p >> (3 * d));
        }
        r & (self.board ^ mask)
    }

    /// The moves (single cells) that do not let the opponent win at its next move.
    fn non_losing(&self, current: u64, mask: u64) -> u64 {
        let mut possible = self.possible(mask);
        let threats = self.winning(current ^ mask, mask);
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two cells to block at once: every move loses.
                return 0;
            }
            possible = forced;
        }
        // Not below a cell where the opponent would complete a line.
        possible & !(threats >> 1)
    }

    /// The key of a position, shared with its mirror image: the smaller of the two
    /// codes `current + mask` (unique per position: each column's code is below
    /// `2^(height + 1)`).
    fn key(&self, current: u64, mask: u64) -> u64 {
        let key = current + mask;
        let stride = self.height + 1;
        let column = (1u64 << stride) - 1;
        let mirror = (0..self.width).fold(0u64, |m, c| {
            m | (key >> (c * stride) & column) << ((self.width - 1 - c) * stride)
        });
        key.min(mirror)
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    /// Negamax with alpha-beta (fail-soft) on a position where the side to move cannot
    /// win at once; the result is exact inside `(alpha, beta)`, else a bound on the
    /// side's score on the side of the window it falls.
    fn negamax(&mut self, current: u64, mask: u64, n: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let next = self.non_losing(current, mask);
        if next == 0 {
            return -(self.cells - n - 1);
        }
        if n >= self.cells - 2 {
            // One move each at most, and neither completes a line.
            return 0;
        }
        // The opponent cannot win at its next move; the side cannot win at this one.
        let min = -(self.cells - n - 3);
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = self.cells - n - 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = self.key(current, mask);
        let slot = self.slot(key);
        let entry = self.table[slot];
        if entry != 0 && entry >> 10 == key {
            let value = i32::from(entry as u8 as i8);
            match entry >> 8 & 3 {
                EXACT => return value,
                LOWER if value >= beta => return value,
                LOWER => alpha = alpha.max(value),
                UPPER if value <= alpha => return value,
                _ => beta = beta.min(value),
            }
        }
        // The moves, best first: the most threats made, then the centre.
        let mut moves = [(0u64, 0u32); 64];
        let mut count = 0;
        for &c in &self.order {
            let column = ((1u64 << self.height) - 1) << (c * (self.height + 1));
            let cell = next & column;
            if cell == 0 {
                continue;
            }
            let threats = self.winning(current | cell, mask).count_ones();
            let mut i = count;
            while i > 0 && moves[i - 1].1 < threats {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = (cell, threats);
            count += 1;
        }
        let floor = alpha;
        let mut best = i32::MIN;
        for &(cell, _) in &moves[..count] {
            let score = -self.negamax(current ^ mask, mask | cell, n + 1, -beta, -alpha);
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
        let kind = if best >= beta {
            LOWER
        } else if best <= floor {
            // No move raised alpha: the best is only an upper bound.
            UPPER
        } else {
            EXACT
        };
        self.table[slot] = key << 10 | kind << 8 | u64::from(best as i8 as u8);
        best
    }
}
