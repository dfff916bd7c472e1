//! The [`Game`] trait: everything the solver needs to know about a game, and the text
//! notations people and programs use for its moves and positions.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

pub use tictable::{Outcome, Player};

/// Who reads a move or a position: people number squares, points and columns from 1,
/// programs (the API, JSON, save files) from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Squares, points and columns numbered from 1 (left to right, top to bottom).
    People,
    /// The same numbered from 0, for JSON and other programming interfaces.
    Api,
}

impl Notation {
    /// The number people or programs write for the 0-based `index`.
    ///
    /// ```
    /// use tictable_games::Notation;
    /// assert_eq!(Notation::People.number(0), 1);
    /// assert_eq!(Notation::Api.number(0), 0);
    /// ```
    pub const fn number(self, index: usize) -> usize {
        match self {
            Notation::People => index + 1,
            Notation::Api => index,
        }
    }
}

/// A two-player game with perfect information and no chance, given by its rules.
///
/// A game is a handful of functions (the start, the legal moves, playing a move, the
/// value of a finished position, the side to move and a dense key); the solver
/// ([`crate::solve`]) needs nothing else and knows nothing of any game. Symmetries are
/// optional: a game that supplies them is solved over one position per class.
///
/// The smallest complete game, a race to 3 where each player adds 1 or 2 and whoever
/// reaches 3 wins:
///
/// ```
/// use tictable_games::{solve, Game, Notation, Outcome, Player};
///
/// struct Race;
/// impl Game for Race {
///     type Position = u8; // the total so far
///     type Move = u8; // what the mover adds
///     fn id(&self) -> String { "race".into() }
///     fn rules(&self) -> String { "add 1 or 2 in turn; whoever reaches 3 wins".into() }
///     fn start(&self) -> u8 { 0 }
///     fn moves(&self, total: &u8, out: &mut Vec<u8>) {
///         out.extend([1, 2].into_iter().filter(|step| total + step <= 3));
///     }
///     fn play(&self, total: &u8, step: u8) -> u8 { total + step }
///     // The player who reached 3 just moved: the side to move has lost.
///     fn primitive(&self, total: &u8) -> Option<Outcome> { (*total == 3).then_some(Outcome::Loss) }
///     // Not known from the total alone in general; here the key below needs only the total.
///     fn to_move(&self, _: &u8) -> Player { Player::X }
///     fn key_space(&self) -> u64 { 4 }
///     fn key(&self, total: &u8) -> u64 { u64::from(*total) }
///     fn write_move(&self, step: u8, _: Notation) -> String { step.to_string() }
///     fn move_syntax(&self, _: Notation) -> String { "1 or 2".into() }
///     fn write_position(&self, total: &u8, _: Notation) -> String { total.to_string() }
/// }
///
/// let solution = solve(Race).unwrap();
/// // From 0 the mover adds 1 (the opponent then cannot reach 3 before the mover).
/// assert_eq!(solution.start(), (Outcome::Loss, 2).into());
/// assert_eq!(solution.summary().positions, 4);
/// ```
pub trait Game {
    /// A position: everything that decides the legal moves and the outcome.
    type Position: Copy + Eq + fmt::Debug;
    /// A move.
    type Move: Copy + Eq + fmt::Debug;

    /// The game's identifier, as `--game` takes it (`tictactoe`, `mnk:4,4,4`).
    fn id(&self) -> String;
    /// The rules in one line.
    fn rules(&self) -> String;
    /// The position before the first move.
    fn start(&self) -> Self::Position;
    /// Appends the legal moves of `position` to `out`. Only asked of positions whose
    /// [`primitive`](Game::primitive) value is `None` (the game goes on).
    fn moves(&self, position: &Self::Position, out: &mut Vec<Self::Move>);
    /// The position after `mv`, one of the legal moves of `position`.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;
    /// The value of a finished position for the side to move (its primitive value), or
    /// `None` while play goes on. A position without legal moves must be finished.
    fn primitive(&self, position: &Self::Position) -> Option<Outcome>;
    /// The side to move; [`Player::X`] is the first player (White in hexapawn).
    fn to_move(&self, position: &Self::Position) -> Player;
    /// The number of keys: every key is below it. The solver's table has one byte per
    /// key, so a dense index (a base-3 rank, a column-height code) keeps it small.
    fn key_space(&self) -> u64;
    /// A key that differs for different positions.
    fn key(&self, position: &Self::Position) -> u64;
    /// The number of board symmetries (1, the identity, when the game names none).
    fn symmetries(&self) -> usize {
        1
    }
    /// The image of `position` under symmetry `index` (0 is the identity). A symmetry
    /// must map legal moves to legal moves and keep the primitive value.
    fn transform(&self, position: &Self::Position, index: usize) -> Self::Position {
        let _ = index;
        *position
    }
    /// The key of the image of `position` under symmetry `index`: the key of
    /// [`transform`](Game::transform), which a game may compute faster.
    fn symmetric_key(&self, position: &Self::Position, index: usize) -> u64 {
        self.key(&self.transform(position, index))
    }
    /// Whether positions can repeat (pieces slide back and forth). Such games are
    /// solved by retrograde analysis; the others by a memoized search.
    fn repeats(&self) -> bool {
        false
    }
    /// `mv` as people or programs write it (`5`, `1-2`).
    fn write_move(&self, mv: Self::Move, notation: Notation) -> String;
    /// How moves are written, for help texts and errors (`a square 1-9`).
    fn move_syntax(&self, notation: Notation) -> String;
    /// `position` as text: the board row by row, top row first.
    fn write_position(&self, position: &Self::Position, notation: Notation) -> String;

    /// Reads a position written as [`write_position`](Game::write_position) writes it,
    /// or says what is wrong and what was expected. Games that read no positions keep
    /// this default, which refuses every text.
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError> {
        Err(PositionError::new(
            text,
            "this game reads no positions",
            String::new(),
        ))
    }

    /// Reads a move of `position` written in `notation`: one of its legal moves, or an
    /// error naming the expected syntax and the legal moves.
    ///
    /// ```
    /// use tictable_games::{Game, MoveError, Notation, TicTacToe};
    /// let game = TicTacToe::normal();
    /// let start = game.start();
    /// assert_eq!(game.write_move(game.parse_move(&start, "5", Notation::People).unwrap(), Notation::Api), "4");
    /// assert!(matches!(game.parse_move(&start, "10", Notation::People), Err(MoveError::Illegal { .. })));
    /// ```
    fn parse_move(
        &self,
        position: &Self::Position,
        text: &str,
        notation: Notation,
    ) -> Result<Self::Move, MoveError> {
        let mut moves = Vec::new();
        if self.primitive(position).is_none() {
            self.moves(position, &mut moves);
        }
        if moves.is_empty() {
            return Err(MoveError::GameOver);
        }
        let text = text.trim();
        let written: Vec<String> = moves
            .iter()
            .map(|&mv| self.write_move(mv, notation))
            .collect();
        match written.iter().position(|w| w == text) {
            Some(i) => Ok(moves[i]),
            None => Err(MoveError::Illegal {
                text: text.to_string(),
                syntax: self.move_syntax(notation),
                legal: written,
            }),
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over: no move is legal.
    GameOver,
    /// The text is not one of the legal moves.
    Illegal {
        /// What was typed.
        text: String,
        /// How moves of this game are written.
        syntax: String,
        /// The legal moves, as they are written.
        legal: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is over: no move is legal"),
            MoveError::Illegal {
                text,
                syntax,
                legal,
            } => write!(
                f,
                "`{text}` is not a legal move here (moves are {syntax}); legal: {}",
                legal.join(", ")
            ),
        }
    }
}

impl core::error::Error for MoveError {}

/// Why a position's text was refused: what is wrong, and the notation expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The text read.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
    /// The notation expected, with an example.
    pub expected: String,
}

impl PositionError {
    pub(crate) fn new(text: &str, reason: impl Into<String>, expected: String) -> PositionError {
        PositionError {
            text: text.to_string(),
            reason: reason.into(),
            expected,
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.text, self.reason)?;
        if !self.expected.is_empty() {
            write!(f, "; expected {}", self.expected)?;
        }
        Ok(())
    }
}

impl core::error::Error for PositionError {}

/// The notation of a grid position: `rows` rows of `columns` cells, top row first.
pub(crate) fn grid_syntax(columns: usize, rows: usize, side: bool) -> String {
    let row: String = core::iter::repeat_n('.', columns).collect();
    let example: Vec<&str> = core::iter::repeat_n(row.as_str(), rows).collect();
    format!(
        "{rows} rows of {columns} cells (X, O or .) joined by /, top row first{}, e.g. `{}{}`",
        if side {
            ", then a space and the side to move (X or O)"
        } else {
            ""
        },
        example.join("/"),
        if side { " X" } else { "" }
    )
}

/// Reads a grid position: X's and O's cells as bitboards (bit `i` = cell `i`, row-major
/// from the top row) and, when `side`, the side to move after a space.
pub(crate) fn parse_grid(
    text: &str,
    columns: usize,
    rows: usize,
    side: bool,
) -> Result<(u64, u64, Option<Player>), PositionError> {
    let error = |reason: &str| PositionError::new(text, reason, grid_syntax(columns, rows, side));
    let trimmed = text.trim();
    let (board, to_move) = if side {
        let (board, mover) = trimmed
            .rsplit_once(' ')
            .ok_or_else(|| error("no side to move"))?;
        let mover = match mover {
            "X" | "x" => Player::X,
            "O" | "o" => Player::O,
            _ => return Err(error("the side to move is X or O")),
        };
        (board.trim(), Some(mover))
    } else {
        (trimmed, None)
    };
    let lines: Vec<&str> = board.split('/').collect();
    if lines.len() != rows || lines.iter().any(|l| l.chars().count() != columns) {
        return Err(error("the wrong number of rows or cells"));
    }
    let (mut x, mut o) = (0u64, 0u64);
    for (i, c) in lines.iter().flat_map(|l| l.chars()).enumerate() {
        match c {
            'X' | 'x' => x |= 1 << i,
            'O' | 'o' => o |= 1 << i,
            '.' => {}
            _ => return Err(error("a cell other than X, O or .")),
        }
    }
    Ok((x, o, to_move))
}

/// The board as rows of `X`, `O` and `.` joined by `/`, top row first: `cell(i)` gives
/// the piece on cell `i` (row-major, top row first).
pub(crate) fn write_grid(
    columns: usize,
    rows: usize,
    cell: impl Fn(usize) -> Option<Player>,
) -> String {
    let mut text = String::with_capacity((columns + 1) * rows);
    for row in 0..rows {
        if row > 0 {
            text.push('/');
        }
        for column in 0..columns {
            text.push(cell(row * columns + column).map_or('.', Player::char));
        }
    }
    text
}

/// The piece on cell `i` of two bitboards (bit `i` = cell `i`).
pub(crate) fn piece_at(x: u64, o: u64, i: usize) -> Option<Player> {
    if x >> i & 1 != 0 {
        Some(Player::X)
    } else if o >> i & 1 != 0 {
        Some(Player::O)
    } else {
        None
    }
}

/// The key of a 3x3 board and the side to move: the board's base-3 rank (cell `i`
/// counts `3^i` for X, twice that for O) times 2, plus 1 when O moves; below
/// `2 * 3^9`.
pub(crate) fn key_3x3(x: u16, o: u16, to_move: Player) -> u64 {
    let board = (0..9).rev().fold(0u64, |key, i| {
        key * 3 + u64::from(x >> i & 1) + 2 * u64::from(o >> i & 1)
    });
    board * 2 + matches!(to_move, Player::O) as u64
}
