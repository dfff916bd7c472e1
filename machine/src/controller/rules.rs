//! Which game the controller plays on the 3x3 board: the end rule, who won, and so
//! the result lights. The move choice comes from the [`MoveChooser`](super::MoveChooser),
//! which names the rules it plays by ([`MoveChooser::rules`](super::MoveChooser::rules)):
//! the controller asks its chooser, so the rules and the table that plays them come
//! from one place, survive a power cut with it (the restarted controller gets the
//! same kind of chooser), and a tic-tac-toe build (the firmware's default, whose
//! chooser keeps the default [`Rules::TicTacToe`]) folds the choice away.

use tictable::{Board, Player};

/// The rules of a game played by placing pieces on the 3x3 board.
///
/// ```
/// use tictable_machine::controller::Rules;
/// use tictable::{Board, Player};
/// // X has three in the top row.
/// let b: Board = "XXXOO....".parse().unwrap();
/// assert_eq!(Rules::TicTacToe.result(&b), Some(Some(Player::X)));
/// assert_eq!(Rules::Misere.result(&b), Some(Some(Player::O)));
/// assert_eq!(Rules::Misere.result(&Board::EMPTY), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Rules {
    /// Three of one's own in a line wins; a full board draws.
    #[default]
    TicTacToe,
    /// Misère: three of one's own in a line **loses**; a full board draws.
    Misere,
}

impl Rules {
    /// Both games, tic-tac-toe first.
    pub const ALL: [Rules; 2] = [Rules::TicTacToe, Rules::Misere];

    /// The game's id, as `tictable-games` names it (`tictactoe`, `misere`).
    pub const fn id(self) -> &'static str {
        match self {
            Rules::TicTacToe => "tictactoe",
            Rules::Misere => "misere",
        }
    }

    /// `None` while the game goes on; when it is over, `Some` of the winner
    /// (`None`: a draw). The game ends the same way in both (a line or a full
    /// board); a line wins for its owner in tic-tac-toe and loses in misère.
    pub const fn result(self, board: &Board) -> Option<Option<Player>> {
        if !board.is_over() {
            return None;
        }
        Some(match (self, board.winner()) {
            (Rules::Misere, Some(lined_up)) => Some(lined_up.other()),
            (_, winner) => winner,
        })
    }
}
