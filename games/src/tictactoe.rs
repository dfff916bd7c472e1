//! Tic-tac-toe and its misère form, over the `tictable` engine's [`Board`]: the same
//! moves, lines and eight symmetries; only the value of a completed line differs.

use crate::game::{
    grid_syntax, parse_grid, write_grid, Game, Notation, Outcome, Player, PositionError,
};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use tictable::board::Status;
use tictable::{Board, Square, Symmetry};

/// Tic-tac-toe (`tictactoe`): three in a line wins; or misère (`misere`): whoever
/// completes three of their own in a line loses. A full board without a line draws.
///
/// ```
/// use tictable_games::{solve, Outcome, TicTacToe};
/// let misere = solve(TicTacToe::misere()).unwrap();
/// assert_eq!(misere.start().outcome, Outcome::Draw);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    misere: bool,
}

impl TicTacToe {
    /// Tic-tac-toe.
    pub const fn normal() -> TicTacToe {
        TicTacToe { misere: false }
    }

    /// Misère tic-tac-toe.
    pub const fn misere() -> TicTacToe {
        TicTacToe { misere: true }
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = Square;

    fn id(&self) -> String {
        if self.misere { "misere" } else { "tictactoe" }.into()
    }

    fn rules(&self) -> String {
        if self.misere {
            "3x3; X first; whoever completes three of their own in a row, column or diagonal loses; a full board draws".into()
        } else {
            "3x3; X first; three of one's own in a row, column or diagonal wins; a full board draws"
                .into()
        }
    }

    fn start(&self) -> Board {
        Board::EMPTY
    }

    fn moves(&self, board: &Board, out: &mut Vec<Square>) {
        if !board.is_over() {
            out.extend(board.legal_moves().iter());
        }
    }

    fn play(&self, board: &Board, square: Square) -> Board {
        // A legal move of an unfinished board: `Board::play` accepts it.
        board.play(square).unwrap_or(*board)
    }

    fn primitive(&self, board: &Board) -> Option<Outcome> {
        match board.status() {
            // Only the player who just moved can have completed a line.
            Ok(Status::Won(_)) if self.misere => Some(Outcome::Win),
            Ok(Status::Won(_)) => Some(Outcome::Loss),
            Ok(Status::Drawn) => Some(Outcome::Draw),
            Ok(Status::Ongoing) | Err(_) => None,
        }
    }

    fn to_move(&self, board: &Board) -> Player {
        board.to_move()
    }

    fn key_space(&self) -> u64 {
        19_683 // 3^9
    }

    fn key(&self, board: &Board) -> u64 {
        u64::from(board.base3_index())
    }

    fn symmetries(&self) -> usize {
        8
    }

    fn transform(&self, board: &Board, index: usize) -> Board {
        Symmetry::from_index(index as u8).map_or(*board, |s| s.apply(*board))
    }

    fn write_move(&self, square: Square, notation: Notation) -> String {
        format!("{}", notation.number(square.index().into()))
    }

    fn move_syntax(&self, notation: Notation) -> String {
        format!(
            "a square {}-{} (left to right, top to bottom)",
            notation.number(0),
            notation.number(8)
        )
    }

    fn parse_position(&self, text: &str) -> Result<Board, PositionError> {
        let (x, o, _) = parse_grid(text, 3, 3, false)?;
        // The engine's checks: the counts, and no play after a line.
        Board::from_bits(x as u16, o as u16)
            .and_then(|board| board.validate().map(|()| board))
            .map_err(|e| PositionError::new(text, e.to_string(), grid_syntax(3, 3, false)))
    }

    fn write_position(&self, board: &Board, _: Notation) -> String {
        write_grid(3, 3, |i| Square::new(i as u8).and_then(|s| board.get(s)))
    }
}
