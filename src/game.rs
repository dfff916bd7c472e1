//! A game with history: [`Game`] plays moves from the empty board, undoes and redoes
//! them, and reports the result and the winning line. Fixed arrays, no allocation.
//!
//! With the `serde` feature a game saves and loads (see the module `serialize`); loading
//! replays and checks every move, so a tampered file is an error, never a bad game.
//!
//! ```
//! use tictable::game::{Game, GameResult};
//! use tictable::{Player, Square};
//! let sq = |i| Square::new(i).unwrap();
//! let mut game = Game::new();
//! for i in [0, 3, 1, 4, 2] {
//!     game.play(sq(i))?;
//! }
//! assert_eq!(game.result(), Some(GameResult::Win(Player::X)));
//! assert_eq!(game.winning_line().bits(), 0b111);
//! assert_eq!(game.undo(), Some(sq(2)));
//! assert_eq!(game.result(), None);
//! assert_eq!(game.redo(), Some(sq(2)));
//! # Ok::<(), tictable::MoveError>(())
//! ```

use crate::board::{Board, MoveError, Player, Square, Squares};
use core::fmt;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// This player completed a line.
    Win(Player),
    /// The board is full and nobody has a line.
    Draw,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win(player) => write!(f, "{player} wins"),
            GameResult::Draw => f.write_str("draw"),
        }
    }
}

/// Why a list of moves is not a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameError {
    /// More than nine moves.
    TooManyMoves,
    /// Move number `ply` (0-based) cannot be played.
    IllegalMove {
        /// The 0-based index of the move in the list.
        ply: u8,
        /// The move.
        square: Square,
        /// Why it is illegal.
        error: MoveError,
    },
    /// The current position is past the end of the recorded moves.
    CursorOutOfRange {
        /// The current ply given.
        cursor: u8,
        /// The number of recorded moves.
        moves: u8,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameError::TooManyMoves => f.write_str("more than 9 moves"),
            GameError::IllegalMove { ply, square, error } => {
                write!(f, "move {} (square {square}) is illegal: {error}", ply + 1)
            }
            GameError::CursorOutOfRange { cursor, moves } => write!(
                f,
                "current move {cursor} is past the {moves} recorded moves"
            ),
        }
    }
}

impl core::error::Error for GameError {}

/// A game from the empty board: the moves played, the moves undone (which
/// [`redo`](Game::redo) replays until a new move discards them), and the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    moves: [Square; 9],
    /// Moves recorded (played and undone).
    len: u8,
    /// Moves currently played: `moves[..cursor]`.
    cursor: u8,
    board: Board,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A new game on the empty board.
    pub const fn new() -> Game {
        Game {
            moves: [Square::CENTRE; 9],
            len: 0,
            cursor: 0,
            board: Board::EMPTY,
        }
    }

    /// A game from recorded moves of which the first `cursor` are played (the rest can
    /// be redone). Every move is replayed and checked.
    ///
    /// ```
    /// use tictable::game::{Game, GameError};
    /// use tictable::{MoveError, Square};
    /// let sq = |i| Square::new(i).unwrap();
    /// let game = Game::from_moves(&[sq(4), sq(0), sq(8)], 2).unwrap();
    /// assert_eq!(game.board().to_string(), "O...X....");
    /// assert_eq!(
    ///     Game::from_moves(&[sq(4), sq(4)], 2),
    ///     Err(GameError::IllegalMove { ply: 1, square: sq(4), error: MoveError::Occupied { square: sq(4) } })
    /// );
    /// ```
    pub fn from_moves(moves: &[Square], cursor: usize) -> Result<Game, GameError> {
        if moves.len() > 9 {
            return Err(GameError::TooManyMoves);
        }
        if cursor > moves.len() {
            return Err(GameError::CursorOutOfRange {
                cursor: cursor.min(255) as u8,
                moves: moves.len() as u8,
            });
        }
        let mut game = Game::new();
        for (ply, &square) in moves.iter().enumerate() {
            game.play(square).map_err(|error| GameError::IllegalMove {
                ply: ply as u8,
                square,
                error,
            })?;
        }
        while game.ply() > cursor {
            game.undo();
        }
        Ok(game)
    }

    /// The current position.
    #[inline]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> &[Square] {
        &self.moves[..self.cursor as usize]
    }

    /// Every recorded move: the ones played, then the ones undone (redo order).
    pub fn history(&self) -> &[Square] {
        &self.moves[..self.len as usize]
    }

    /// The number of moves played.
    #[inline]
    pub const fn ply(&self) -> usize {
        self.cursor as usize
    }

    /// The side to move (or whose turn it would be in a finished game).
    #[inline]
    pub const fn to_move(&self) -> Player {
        self.board.to_move()
    }

    /// The side to move plays `square`; undone moves are forgotten unless `square` is
    /// the next one to redo, which keeps the rest of them.
    ///
    /// ```
    /// use tictable::{game::Game, MoveError, Square};
    /// let mut game = Game::new();
    /// game.play(Square::CENTRE).unwrap();
    /// assert_eq!(game.play(Square::CENTRE), Err(MoveError::Occupied { square: Square::CENTRE }));
    /// assert_eq!(game.ply(), 1); // nothing changed
    /// ```
    pub fn play(&mut self, square: Square) -> Result<(), MoveError> {
        let board = self.board.play(square)?;
        let cursor = self.cursor as usize;
        if !(cursor < self.len as usize && self.moves[cursor] == square) {
            self.len = self.cursor + 1;
        }
        self.moves[cursor] = square;
        self.cursor += 1;
        self.board = board;
        Ok(())
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Square> {
        if self.cursor == 0 {
            return None;
        }
        self.cursor -= 1;
        let square = self.moves[self.cursor as usize];
        self.board = self.replay();
        Some(square)
    }

    /// Replays the next undone move; returns it, or `None` when there is none.
    pub fn redo(&mut self) -> Option<Square> {
        if self.cursor >= self.len {
            return None;
        }
        let square = self.moves[self.cursor as usize];
        // Recorded moves were legal when played, so replaying them cannot fail.
        let board = self.board.play(square).ok()?;
        self.cursor += 1;
        self.board = board;
        Some(square)
    }

    /// Whether a move can be taken back.
    pub const fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    /// Whether an undone move can be replayed.
    pub const fn can_redo(&self) -> bool {
        self.cursor < self.len
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Square> {
        self.moves().last().copied()
    }

    /// The result, once the game is over.
    pub const fn result(&self) -> Option<GameResult> {
        match self.board.winner() {
            Some(player) => Some(GameResult::Win(player)),
            None if self.board.is_full() => Some(GameResult::Draw),
            None => None,
        }
    }

    /// The squares of the completed line(s), empty while nobody has won.
    pub const fn winning_line(&self) -> Squares {
        self.board.winning_lines()
    }

    /// The position after `moves[..cursor]`.
    fn replay(&self) -> Board {
        self.moves()
            .iter()
            .fold(Board::EMPTY, |board, s| board.play_unchecked(s.bit()))
    }
}
