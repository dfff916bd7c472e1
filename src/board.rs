//! Positions: [`Board`] (two 9-bit bitboards), [`Square`], [`Squares`], [`Player`],
//! parsing and printing, validity, legal moves, winner and winning lines.
//!
//! A square is numbered 0..=8 row-major from the top-left:
//!
//! ```text
//! 0 1 2
//! 3 4 5
//! 6 7 8
//! ```
//!
//! X always moves first, so the side to move follows from the piece counts.

use core::fmt;
use core::str::FromStr;

/// The nine bits of a 3x3 board.
pub const FULL: u16 = 0x1ff;

/// The eight winning lines as bit masks: three rows, three columns, two diagonals.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// The squares set in a bitboard (`count_ones`), out of line on Arm: the Cortex-M
/// has no population-count instruction, so each inlined copy is some 30 bytes of
/// shifts and masks (firmware flash).
#[cfg_attr(target_arch = "arm", inline(never))]
const fn popcount(bits: u16) -> u32 {
    bits.count_ones()
}

/// Whether the bitboard `bits` contains a complete line: rows and columns by shifting
/// each cell onto the first of its line, the diagonals by mask (no loop).
///
/// ```
/// use tictable::board::has_line;
/// assert!(has_line(0b100_010_001));
/// assert!(!has_line(0b011_000_011));
/// ```
#[inline]
pub const fn has_line(bits: u16) -> bool {
    let rows = bits & (bits >> 1) & (bits >> 2) & 0b001_001_001;
    let columns = bits & (bits >> 3) & (bits >> 6) & 0b000_000_111;
    rows | columns != 0 || bits & LINES[6] == LINES[6] || bits & LINES[7] == LINES[7]
}

/// Whether a game goes on or how it ended; see [`Board::status`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has legal moves.
    Ongoing,
    /// The player completed a line.
    Won(Player),
    /// The board is full and nobody has a line.
    Drawn,
}

/// One of the two players. X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// The opponent.
    ///
    /// ```
    /// use tictable::Player;
    /// assert_eq!(Player::X.other(), Player::O);
    /// ```
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// The letter used in positions: `'X'` or `'O'`.
    pub const fn char(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square of the board, 0..=8 row-major from the top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All nine squares in order.
    pub const ALL: [Square; 9] = [
        Square(0),
        Square(1),
        Square(2),
        Square(3),
        Square(4),
        Square(5),
        Square(6),
        Square(7),
        Square(8),
    ];

    /// The centre square (4).
    pub const CENTRE: Square = Square(4);

    /// The square with this index, or `None` when `index > 8`.
    ///
    /// ```
    /// use tictable::Square;
    /// assert_eq!(Square::new(4), Some(Square::CENTRE));
    /// assert_eq!(Square::new(9), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 9 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The index 0..=8.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 (top) ..= 2 (bottom).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 3
    }

    /// The column, 0 (left) ..= 2 (right).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 3
    }

    /// The single-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of squares as a 9-bit mask (bit `i` = square `i`).
///
/// ```
/// use tictable::{Square, Squares};
/// let corners = Squares::from_bits(0b101_000_101);
/// assert_eq!(corners.len(), 4);
/// assert!(corners.contains(Square::new(8).unwrap()));
/// assert_eq!(corners.first(), Square::new(0));
/// let v: Vec<u8> = corners.iter().map(|s| s.index()).collect();
/// assert_eq!(v, [0, 2, 6, 8]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Squares(u16);

impl Squares {
    /// The empty set.
    pub const EMPTY: Squares = Squares(0);

    /// The set with the given bits; bits above 8 are dropped.
    #[inline]
    pub const fn from_bits(bits: u16) -> Squares {
        Squares(bits & FULL)
    }

    /// The mask (bit `i` = square `i`).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        popcount(self.0)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds one square or none: `len() <= 1` without counting
    /// (clearing the lowest bit leaves nothing; Cortex-M has no population count).
    ///
    /// ```
    /// use tictable::Squares;
    /// assert!(Squares::EMPTY.at_most_one());
    /// assert!(Squares::from_bits(0b1_0000_0000).at_most_one());
    /// assert!(!Squares::from_bits(0b101).at_most_one());
    /// ```
    #[inline]
    pub const fn at_most_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) == 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// The lowest-numbered square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The `n`-th square of the set in increasing order (0-based), if any.
    pub fn nth(self, n: usize) -> Option<Square> {
        self.iter().nth(n)
    }

    /// The squares in increasing order.
    #[inline]
    pub fn iter(self) -> SquaresIter {
        SquaresIter(self.0)
    }

    /// Whether every square of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: Squares) -> bool {
        self.0 & !other.0 == 0
    }
}

impl IntoIterator for Squares {
    type Item = Square;
    type IntoIter = SquaresIter;
    fn into_iter(self) -> SquaresIter {
        self.iter()
    }
}

impl FromIterator<Square> for Squares {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Squares {
        Squares(iter.into_iter().fold(0, |bits, s| bits | s.bit()))
    }
}

/// Iterator over a [`Squares`] set in increasing order.
#[derive(Clone, Debug)]
pub struct SquaresIter(u16);

impl Iterator for SquaresIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = popcount(self.0) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquaresIter {}

/// What is wrong with a position given as text or as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionError {
    /// Not 9 cells (row separators `/` excluded).
    WrongLength {
        /// How many cells were found (counting stops at 10).
        cells: usize,
    },
    /// A character that is neither a cell (`X x O o . - _`) nor a row separator.
    BadCharacter {
        /// Character index in the input (from 0).
        index: usize,
        /// The offending character.
        found: char,
    },
    /// A `/` that does not split the cells into three rows of three.
    BadSeparator {
        /// Character index in the input (from 0; the input's length in characters
        /// when a row separator is missing at the end).
        index: usize,
    },
    /// Bits set outside the nine squares.
    BitsOutOfRange,
    /// A square holds both an X and an O.
    Overlap {
        /// The square.
        square: Square,
    },
    /// Counts that no game reaches: X must have as many pieces as O or one more.
    ImpossibleCounts {
        /// Number of X pieces.
        x: u8,
        /// Number of O pieces.
        o: u8,
    },
    /// Both players have a line.
    BothWon,
    /// A move was played after `winner` completed a line.
    MoveAfterWin {
        /// The player whose line ended the game.
        winner: Player,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::WrongLength { cells } => {
                write!(f, "expected 9 cells, found {cells}")?;
                if cells > 9 {
                    write!(f, " or more")?;
                }
                Ok(())
            }
            // People count characters from 1 (the field counts from 0).
            PositionError::BadCharacter { index, found } => write!(
                f,
                "bad character {found:?} at character {} (cells are X, O, '.', '-' or '_')",
                index + 1
            ),
            PositionError::BadSeparator { index } => write!(
                f,
                "misplaced '/' at character {} (rows of three cells, e.g. XX./OO./...)",
                index + 1
            ),
            PositionError::BitsOutOfRange => write!(f, "bits set outside squares 0..=8"),
            PositionError::Overlap { square } => {
                write!(f, "square {square} holds both an X and an O")
            }
            PositionError::ImpossibleCounts { x, o } => write!(
                f,
                "impossible counts: {x} X and {o} O (X moves first, so X = O or X = O + 1)"
            ),
            PositionError::BothWon => write!(f, "both players have a line"),
            PositionError::MoveAfterWin { winner } => {
                write!(f, "a move was played after {winner} won")
            }
        }
    }
}

impl core::error::Error for PositionError {}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// The square already holds a piece.
    Occupied {
        /// The square.
        square: Square,
    },
    /// The game is over (a line or a full board).
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::Occupied { square } => write!(f, "square {square} is occupied"),
            MoveError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl core::error::Error for MoveError {}

/// A tic-tac-toe board: two 9-bit bitboards, one per player.
///
/// A `Board` always has its pieces on distinct squares within 0..=8, but it may be a
/// position no game reaches (for instance three X and no O, as a sensor may read it);
/// [`Board::validate`] tells, and the analysis functions refuse such boards. Parsing
/// with [`FromStr`] accepts only reachable positions.
///
/// ```
/// use tictable::{Board, Player, Square};
/// let board: Board = "XX./OO./...".parse().unwrap();
/// assert_eq!(board.to_string(), "XX.OO....");
/// assert_eq!(board.to_move(), Player::X);
/// let won = board.play(Square::new(2).unwrap()).unwrap();
/// assert_eq!(won.winner(), Some(Player::X));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// A board from two bitboards (bit `i` = square `i`). Checks only that the bits lie
    /// within the nine squares and do not overlap; see [`Board::validate`] for
    /// reachability.
    ///
    /// ```
    /// use tictable::{Board, PositionError, Square};
    /// assert!(Board::from_bits(0b011, 0b011_000).is_ok());
    /// assert_eq!(Board::from_bits(1, 1), Err(PositionError::Overlap { square: Square::new(0).unwrap() }));
    /// ```
    pub const fn from_bits(x: u16, o: u16) -> Result<Board, PositionError> {
        if (x | o) & !FULL != 0 {
            return Err(PositionError::BitsOutOfRange);
        }
        if x & o != 0 {
            return Err(PositionError::Overlap {
                square: Square((x & o).trailing_zeros() as u8),
            });
        }
        Ok(Board { x, o })
    }

    /// The board with base-3 index `index` (digit `i`: 0 empty, 1 X, 2 O; the
    /// inverse of [`Board::base3_index`]), `None` from 3^9 = 19683 on. Not checked
    /// for reachability (see [`Board::validate`]).
    ///
    /// ```
    /// use tictable::Board;
    /// let b: Board = "XO.......".parse().unwrap();
    /// assert_eq!(Board::from_base3_index(b.base3_index()), Some(b));
    /// assert_eq!(Board::from_base3_index(19683), None);
    /// ```
    pub const fn from_base3_index(mut index: u16) -> Option<Board> {
        if index >= 19683 {
            return None;
        }
        let (mut x, mut o, mut square) = (0, 0, 0);
        while square < 9 {
            match index % 3 {
                1 => x |= 1 << square,
                2 => o |= 1 << square,
                _ => {}
            }
            index /= 3;
            square += 1;
        }
        Some(Board { x, o })
    }

    /// A board from bitboards already known to be disjoint and within 0..=8
    /// (for internal tables; garbage in gives a board that fails validation).
    #[inline]
    pub(crate) const fn from_bits_unchecked(x: u16, o: u16) -> Board {
        Board {
            x: x & FULL,
            o: o & FULL & !x,
        }
    }

    /// The squares holding X.
    #[inline]
    pub const fn x(self) -> u16 {
        self.x
    }

    /// The squares holding O.
    #[inline]
    pub const fn o(self) -> u16 {
        self.o
    }

    /// The squares holding `player`'s pieces.
    #[inline]
    pub const fn pieces(self, player: Player) -> Squares {
        match player {
            Player::X => Squares(self.x),
            Player::O => Squares(self.o),
        }
    }

    /// What stands on `square`.
    #[inline]
    pub const fn get(self, square: Square) -> Option<Player> {
        if self.x & square.bit() != 0 {
            Some(Player::X)
        } else if self.o & square.bit() != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The empty squares.
    #[inline]
    pub const fn empty_squares(self) -> Squares {
        Squares(!(self.x | self.o) & FULL)
    }

    /// Number of pieces on the board.
    #[inline]
    pub const fn piece_count(self) -> u32 {
        popcount(self.x | self.o)
    }

    /// The side to move: X when the counts are equal, else O.
    #[inline]
    pub const fn to_move(self) -> Player {
        if popcount(self.x) > popcount(self.o) {
            Player::O
        } else {
            Player::X
        }
    }

    /// Whether every square is taken.
    #[inline]
    pub const fn is_full(self) -> bool {
        (self.x | self.o) == FULL
    }

    /// The player with a line, if exactly one has one (X first when both do, which
    /// only an invalid board allows).
    #[inline]
    pub const fn winner(self) -> Option<Player> {
        if has_line(self.x) {
            Some(Player::X)
        } else if has_line(self.o) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The empty squares where `player` would complete a line at once.
    ///
    /// ```
    /// use tictable::{Board, Player};
    /// let b: Board = "XX./OO./...".parse().unwrap();
    /// assert_eq!(b.winning_moves(Player::X).bits(), 1 << 2);
    /// assert_eq!(b.winning_moves(Player::O).bits(), 1 << 5);
    /// ```
    pub const fn winning_moves(self, player: Player) -> Squares {
        let (mine, empty) = (self.pieces(player).0, self.empty_squares().0);
        let mut bits = 0;
        let mut i = 0;
        while i < LINES.len() {
            let line = LINES[i];
            let held = mine & line;
            // Two of the three: non-zero, not a single bit, not the whole line.
            if held & held.wrapping_sub(1) != 0 && held != line {
                bits |= line & empty;
            }
            i += 1;
        }
        Squares(bits)
    }

    /// The squares of every completed line (two lines can share the winning move).
    ///
    /// ```
    /// use tictable::Board;
    /// let b: Board = "XXX/OO./...".parse().unwrap();
    /// assert_eq!(b.winning_lines().bits(), 0b111);
    /// ```
    pub const fn winning_lines(self) -> Squares {
        let mut bits = 0;
        let mut i = 0;
        while i < LINES.len() {
            let line = LINES[i];
            if self.x & line == line || self.o & line == line {
                bits |= line;
            }
            i += 1;
        }
        Squares(bits)
    }

    /// Whether the game is over: a line or a full board.
    #[inline]
    pub const fn is_over(self) -> bool {
        self.is_full() || has_line(self.x) || has_line(self.o)
    }

    /// The legal moves: the empty squares, or none when the game is over.
    #[inline]
    pub const fn legal_moves(self) -> Squares {
        if self.is_over() {
            Squares::EMPTY
        } else {
            self.empty_squares()
        }
    }

    /// The side to move puts a piece on `square`.
    ///
    /// ```
    /// use tictable::{Board, MoveError, Square};
    /// let b = Board::EMPTY.play(Square::CENTRE).unwrap();
    /// assert_eq!(b.play(Square::CENTRE), Err(MoveError::Occupied { square: Square::CENTRE }));
    /// ```
    pub const fn play(self, square: Square) -> Result<Board, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if (self.x | self.o) & square.bit() != 0 {
            return Err(MoveError::Occupied { square });
        }
        Ok(self.play_unchecked(square.bit()))
    }

    /// Puts the side to move's piece on the square(s) of `bit` without any check.
    #[inline]
    pub(crate) const fn play_unchecked(self, bit: u16) -> Board {
        match self.to_move() {
            Player::X => Board {
                x: self.x | bit,
                o: self.o,
            },
            Player::O => Board {
                x: self.x,
                o: self.o | bit,
            },
        }
    }

    /// Checks that a game reaches this board: X count = O count or O count + 1; not
    /// both players have a line; an X line implies X = O + 1; an O line implies X = O.
    ///
    /// ```
    /// use tictable::{Board, PositionError};
    /// let b = Board::from_bits(0b111, 0).unwrap();
    /// assert_eq!(b.validate(), Err(PositionError::ImpossibleCounts { x: 3, o: 0 }));
    /// ```
    pub const fn validate(self) -> Result<(), PositionError> {
        match self.status() {
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Validates the board (see [`Board::validate`]) and tells, in the same pass,
    /// whether the game goes on, was won, or is drawn.
    ///
    /// ```
    /// use tictable::{board::Status, Board, Player};
    /// assert_eq!("XXXOO....".parse::<Board>().unwrap().status(), Ok(Status::Won(Player::X)));
    /// assert_eq!(Board::EMPTY.status(), Ok(Status::Ongoing));
    /// ```
    pub const fn status(self) -> Result<Status, PositionError> {
        let x = popcount(self.x) as u8;
        let o = popcount(self.o) as u8;
        if x != o && x != o + 1 {
            return Err(PositionError::ImpossibleCounts { x, o });
        }
        match (has_line(self.x), has_line(self.o)) {
            (true, true) => Err(PositionError::BothWon),
            (true, false) if x == o => Err(PositionError::MoveAfterWin { winner: Player::X }),
            (false, true) if x != o => Err(PositionError::MoveAfterWin { winner: Player::O }),
            (true, false) => Ok(Status::Won(Player::X)),
            (false, true) => Ok(Status::Won(Player::O)),
            (false, false) if x + o == 9 => Ok(Status::Drawn),
            (false, false) => Ok(Status::Ongoing),
        }
    }

    /// A 3x3 multi-line drawing of the board, for people.
    ///
    /// ```
    /// use tictable::Board;
    /// let b: Board = "XX.OO....".parse().unwrap();
    /// assert_eq!(b.pretty().to_string(), " X | X | . \n---+---+---\n O | O | . \n---+---+---\n . | . | . \n");
    /// ```
    pub const fn pretty(self) -> Pretty {
        Pretty(self)
    }

    /// The board as a base-3 number: digit `i` (weight `3^i`) is 0 for an empty
    /// square `i`, 1 for X, 2 for O. Distinct boards have distinct indices < 3^9.
    ///
    /// ```
    /// use tictable::Board;
    /// let b: Board = "XO.......".parse().unwrap();
    /// assert_eq!(b.base3_index(), 1 + 2 * 3);
    /// ```
    #[inline]
    pub const fn base3_index(self) -> u16 {
        base3(self.x) + 2 * base3(self.o)
    }
}

/// The value of a 9-bit mask read as base-3 digits (bit `i` -> `3^i`): on 64-bit
/// hosts one load from [`BASE3`], elsewhere [`base3_by_rows`] (no 1 KiB table in a
/// microcontroller's flash).
#[inline]
const fn base3(bits: u16) -> u16 {
    #[cfg(target_pointer_width = "64")]
    return BASE3[(bits & FULL) as usize];
    #[cfg(not(target_pointer_width = "64"))]
    return base3_by_rows(bits);
}

/// [`base3_by_rows`] of every 9-bit mask, computed at compile time: the base-3 index
/// in two loads instead of six and two multiplications (`analyse` on the per-board
/// layout went from 3.1 to 1.9 ns with it, fastest criterion samples of `cargo bench
/// -p tictable-bench` on a 2-vCPU x86-64 guest).
#[cfg(target_pointer_width = "64")]
static BASE3: [u16; 512] = {
    let mut table = [0; 512];
    let mut bits = 0;
    while bits < 512 {
        table[bits] = base3_by_rows(bits as u16);
        bits += 1;
    }
    table
};

/// The value of a 9-bit mask read as base-3 digits, from the base-3 values of its
/// 3-bit groups, one row at a time.
#[inline]
const fn base3_by_rows(bits: u16) -> u16 {
    const ROW: [u16; 8] = [0, 1, 3, 4, 9, 10, 12, 13];
    ROW[(bits & 7) as usize]
        + 27 * ROW[((bits >> 3) & 7) as usize]
        + 729 * ROW[((bits >> 6) & 7) as usize]
}

impl fmt::Display for Board {
    /// The canonical 9-character form, e.g. `XX.OO....`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in Square::ALL {
            let c = match self.get(square) {
                Some(player) => player.char(),
                None => '.',
            };
            fmt::Write::write_char(f, c)?;
        }
        Ok(())
    }
}

/// A 3x3 drawing of a board; see [`Board::pretty`].
#[derive(Clone, Copy, Debug)]
pub struct Pretty(Board);

impl fmt::Display for Pretty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3u8 {
            if row > 0 {
                writeln!(f, "---+---+---")?;
            }
            for column in 0..3u8 {
                let square = Square(row * 3 + column);
                let c = self.0.get(square).map_or('.', Player::char);
                let sep = if column < 2 { "|" } else { "\n" };
                write!(f, " {c} {sep}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = PositionError;

    /// Parses 9 cells (`X`/`x`, `O`/`o`, `.`/`-`/`_`), optionally split into rows of
    /// three by `/`, and checks that the position is reachable.
    fn from_str(s: &str) -> Result<Board, PositionError> {
        let (mut x, mut o, mut cells) = (0u16, 0u16, 0usize);
        let mut separators = 0usize;
        let mut length = 0;
        for (index, found) in s.chars().enumerate() {
            length = index + 1;
            let bit = match found {
                'X' | 'x' => &mut x,
                'O' | 'o' => &mut o,
                '.' | '-' | '_' => &mut 0,
                '/' => {
                    // Row separators may only follow a complete row, once per row.
                    if cells == 0 || cells == 9 || cells % 3 != 0 || cells / 3 != separators + 1 {
                        return Err(PositionError::BadSeparator { index });
                    }
                    separators += 1;
                    continue;
                }
                _ => return Err(PositionError::BadCharacter { index, found }),
            };
            if cells == 9 {
                return Err(PositionError::WrongLength { cells: 10 });
            }
            *bit |= 1 << cells;
            cells += 1;
        }
        if cells != 9 {
            return Err(PositionError::WrongLength { cells });
        }
        if separators != 0 && separators != 2 {
            return Err(PositionError::BadSeparator { index: length });
        }
        let board = Board { x, o };
        board.validate()?;
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of reading a mask in base 3 give every 9-bit mask its digits' sum
    /// `sum of 3^i over the set bits i`.
    #[test]
    fn base3_of_every_mask() {
        for bits in 0..512u16 {
            let expected = (0..9)
                .filter(|i| bits >> i & 1 != 0)
                .map(|i| 3u16.pow(i))
                .sum::<u16>();
            assert_eq!(base3(bits), expected, "{bits:#x}");
            assert_eq!(base3_by_rows(bits), expected, "{bits:#x}");
        }
    }
}
