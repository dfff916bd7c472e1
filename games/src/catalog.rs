//! The shipped games by id: `tictactoe`, `misere`, `mnk:M,N,K`, `connect4:WxH`,
//! `three-mens-morris`, `tapatan`, `achi`, `hexapawn`.

use crate::connect_four::{ConnectFour, ConnectFourError};
use crate::game::Game;
use crate::hexapawn::Hexapawn;
use crate::mnk::{Mnk, MnkError};
use crate::morris::Morris;
use crate::tictactoe::TicTacToe;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// One of the shipped games, chosen at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Tic-tac-toe or misère.
    TicTacToe(TicTacToe),
    /// An m,n,k-game.
    Mnk(Mnk),
    /// Connect Four.
    ConnectFour(ConnectFour),
    /// Three men's morris, tapatan or achi.
    Morris(Morris),
    /// Hexapawn.
    Hexapawn(Hexapawn),
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
///
/// ```
/// use tictable_games::{catalog, dispatch, Game};
/// let any = catalog::parse("connect4:5x4").unwrap();
/// let space = dispatch!(&any, game => game.key_space());
/// assert_eq!(space, 31u64.pow(5));
/// ```
#[macro_export]
macro_rules! dispatch {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::catalog::AnyGame::TicTacToe($g) => $body,
            $crate::catalog::AnyGame::Mnk($g) => $body,
            $crate::catalog::AnyGame::ConnectFour($g) => $body,
            $crate::catalog::AnyGame::Morris($g) => $body,
            $crate::catalog::AnyGame::Hexapawn($g) => $body,
        }
    };
}

/// The ids `--game` takes, with the sizes shipped and checked for the families.
pub const LISTED: [&str; 18] = [
    "tictactoe",
    "misere",
    "mnk:3,3,3",
    "mnk:4,3,3",
    "mnk:4,4,3",
    "mnk:4,4,4",
    "connect4:4x4",
    "connect4:5x4",
    "connect4:4x5",
    "connect4:4x6",
    "connect4:6x4",
    "connect4:5x5",
    "three-mens-morris",
    "tapatan",
    "achi",
    "hexapawn",
    "mnk:M,N,K",
    "connect4:WxH",
];

/// Each listed id with its rules in one line (the families' patterns with their
/// general rules).
///
/// ```
/// let listed = tictable_games::catalog::describe();
/// assert_eq!(listed[0].0, "tictactoe");
/// assert!(listed.iter().any(|(id, rules)| id == "connect4:WxH" && rules.contains("lowest empty cell")));
/// ```
pub fn describe() -> Vec<(String, String)> {
    LISTED
        .iter()
        .map(|&id| {
            let rules = match id {
                "mnk:M,N,K" => "M columns x N rows; X first; K of one's own in a row, column or diagonal wins; a full board draws".to_string(),
                "connect4:WxH" => "W columns x H rows; X first; a piece drops to the lowest empty cell of its column; four in a row, column or diagonal wins; a full board draws".to_string(),
                _ => parse(id).map(|g| g.rules()).unwrap_or_default(),
            };
            (id.to_string(), rules)
        })
        .collect()
}

/// The games `--game all` solves: every listed one but the families' patterns.
pub fn all() -> Vec<AnyGame> {
    LISTED.iter().filter_map(|id| parse(id).ok()).collect()
}

/// Why a game id was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    /// No game has this id.
    Unknown(String),
    /// `mnk:` without three numbers.
    MnkSyntax(String),
    /// An m,n,k-game that cannot be set up.
    Mnk(MnkError),
    /// `connect4:` without `WxH`.
    ConnectFourSyntax(String),
    /// A Connect Four board that cannot be set up.
    ConnectFour(ConnectFourError),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::Unknown(id) => {
                write!(f, "unknown game `{id}`; known games: {}", LISTED.join(", "))
            }
            CatalogError::MnkSyntax(id) => write!(
                f,
                "`{id}`: expected mnk:M,N,K (columns, rows, line length), e.g. mnk:4,4,4"
            ),
            CatalogError::Mnk(e) => e.fmt(f),
            CatalogError::ConnectFourSyntax(id) => write!(
                f,
                "`{id}`: expected connect4:WxH (columns x rows), e.g. connect4:5x4"
            ),
            CatalogError::ConnectFour(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for CatalogError {}

/// The game with this id.
///
/// ```
/// use tictable_games::{catalog, Game};
/// assert_eq!(catalog::parse("mnk:4,4,4").unwrap().id(), "mnk:4,4,4");
/// assert!(catalog::parse("chess").unwrap_err().to_string().contains("tictactoe"));
/// assert!(catalog::parse("mnk:9,9,9").unwrap_err().to_string().contains("3^81"));
/// ```
pub fn parse(id: &str) -> Result<AnyGame, CatalogError> {
    let id = id.trim();
    let numbers = |text: &str, separator: char| -> Option<Vec<usize>> {
        text.split(separator)
            .map(|n| n.trim().parse().ok())
            .collect()
    };
    Ok(match id {
        "tictactoe" => AnyGame::TicTacToe(TicTacToe::normal()),
        "misere" => AnyGame::TicTacToe(TicTacToe::misere()),
        "three-mens-morris" => AnyGame::Morris(Morris::three_mens_morris()),
        "tapatan" => AnyGame::Morris(Morris::tapatan()),
        "achi" => AnyGame::Morris(Morris::achi()),
        "hexapawn" => AnyGame::Hexapawn(Hexapawn),
        _ => {
            if let Some(rest) = id.strip_prefix("mnk:") {
                match numbers(rest, ',').as_deref() {
                    Some(&[m, n, k]) => AnyGame::Mnk(Mnk::new(m, n, k).map_err(CatalogError::Mnk)?),
                    _ => return Err(CatalogError::MnkSyntax(id.to_string())),
                }
            } else if let Some(rest) = id.strip_prefix("connect4:") {
                match numbers(rest, 'x').as_deref() {
                    Some(&[w, h]) => AnyGame::ConnectFour(
                        ConnectFour::new(w, h).map_err(CatalogError::ConnectFour)?,
                    ),
                    _ => return Err(CatalogError::ConnectFourSyntax(id.to_string())),
                }
            } else {
                return Err(CatalogError::Unknown(id.to_string()));
            }
        }
    })
}

impl AnyGame {
    /// The game's id.
    pub fn id(&self) -> String {
        dispatch!(self, g => g.id())
    }

    /// The rules in one line.
    pub fn rules(&self) -> String {
        dispatch!(self, g => g.rules())
    }

    /// The bytes the solver's table takes (one per key).
    pub fn table_bytes(&self) -> u64 {
        dispatch!(self, g => g.key_space())
    }
}
