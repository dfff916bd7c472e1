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
    /// Three men's morris: 3 pieces each, placed, then slid along rows and columns.
    #[cfg(feature = "games")]
    ThreeMensMorris,
    /// Tapatan: as three men's morris, sliding along the two diagonals too.
    #[cfg(feature = "games")]
    Tapatan,
    /// Achi: as tapatan with 4 pieces each.
    #[cfg(feature = "games")]
    Achi,
    /// Hexapawn: 3 pawns each, White (moving first) from the bottom row.
    #[cfg(feature = "games")]
    Hexapawn,
}

impl Rules {
    /// The games played by placing pieces only, tic-tac-toe first.
    pub const PLACING: [Rules; 2] = [Rules::TicTacToe, Rules::Misere];

    /// Every game of this build, by [`Rules::code`]: the placing games; with the
    /// `games` feature the morris games and hexapawn too.
    #[cfg(not(feature = "games"))]
    pub const ALL: [Rules; 2] = Rules::PLACING;

    /// Every game of this build, by [`Rules::code`]: the placing games; with the
    /// `games` feature the morris games and hexapawn too.
    #[cfg(feature = "games")]
    pub const ALL: [Rules; 6] = [
        Rules::TicTacToe,
        Rules::Misere,
        Rules::ThreeMensMorris,
        Rules::Tapatan,
        Rules::Achi,
        Rules::Hexapawn,
    ];

    /// The game's id, as `tictable-games` names it (`tictactoe`, `misere`,
    /// `three-mens-morris`, `tapatan`, `achi`, `hexapawn`).
    pub const fn id(self) -> &'static str {
        match self {
            Rules::TicTacToe => "tictactoe",
            Rules::Misere => "misere",
            #[cfg(feature = "games")]
            Rules::ThreeMensMorris => "three-mens-morris",
            #[cfg(feature = "games")]
            Rules::Tapatan => "tapatan",
            #[cfg(feature = "games")]
            Rules::Achi => "achi",
            #[cfg(feature = "games")]
            Rules::Hexapawn => "hexapawn",
        }
    }

    /// The game's number (1..=6: tic-tac-toe, misère, three men's morris, tapatan,
    /// achi, hexapawn): the snapshot's game byte and the number the lights show.
    ///
    /// ```
    /// use tictable_machine::controller::Rules;
    /// for r in Rules::ALL {
    ///     assert_eq!(Rules::from_code(r.code()), Some(r));
    /// }
    /// assert_eq!(Rules::from_code(0), None);
    /// assert_eq!(Rules::from_code(7), None);
    /// ```
    pub const fn code(self) -> u8 {
        self as u8 + 1
    }

    /// The game numbered `code` ([`Rules::code`]); `None` for a number no game of
    /// this build has.
    pub const fn from_code(code: u8) -> Option<Rules> {
        let all = Rules::ALL;
        let i = code.wrapping_sub(1) as usize;
        if i < all.len() {
            Some(all[i])
        } else {
            None
        }
    }

    /// Whether a move only ever places a piece (tic-tac-toe, misère): the game's
    /// position is a [`Board`] and [`Rules::result`] judges it.
    pub const fn places_only(self) -> bool {
        matches!(self, Rules::TicTacToe | Rules::Misere)
    }

    /// `None` while the game goes on; when it is over, `Some` of the winner
    /// (`None`: a draw). The game ends the same way in both (a line or a full
    /// board); a line wins for its owner in tic-tac-toe and loses in misère.
    /// For the placing games only ([`Rules::places_only`]): the other games'
    /// results come from their record (`GameRecord::outcome`, `games` feature).
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
