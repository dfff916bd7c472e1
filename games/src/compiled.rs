//! Best-move tables compiled into the crate, behind one cargo feature per game (off by
//! default, so a plain build compiles and embeds nothing): `table-tictactoe`,
//! `table-misere`, `table-three-mens-morris`, `table-tapatan`, `table-achi`,
//! `table-hexapawn` (`tables-all` for every one). Each embeds the game's best-move file
//! ([`best_file`]) from `games/tables/` (for example
//! `games/tables/misere.moves.postcard`), which a test regenerates from the solver and
//! compares byte for byte; [`tables`] reads it back (checked, as any file) with no solve
//! at run time.
//!
//! ```
//! # #[cfg(feature = "table-hexapawn")] {
//! use tictable_games::{compiled, Hexapawn};
//! let [white, black] = compiled::tables(&Hexapawn).unwrap().unwrap();
//! assert_eq!(white.entries() + black.entries(), 37);
//! # }
//! ```

use crate::best_file;
use crate::best_move::BestMoveTable;
use crate::file::FileError;
use crate::game::Game;

/// The game ids with a compiled table in this build (the features enabled).
pub const COMPILED: &[&str] = &[
    #[cfg(feature = "table-tictactoe")]
    "tictactoe",
    #[cfg(feature = "table-misere")]
    "misere",
    #[cfg(feature = "table-three-mens-morris")]
    "three-mens-morris",
    #[cfg(feature = "table-tapatan")]
    "tapatan",
    #[cfg(feature = "table-achi")]
    "achi",
    #[cfg(feature = "table-hexapawn")]
    "hexapawn",
];

/// The embedded best-move file of the game `id`, `None` when its feature is off.
pub fn file(id: &str) -> Option<&'static [u8]> {
    match id {
        #[cfg(feature = "table-tictactoe")]
        "tictactoe" => Some(include_bytes!("../tables/tictactoe.moves.postcard")),
        #[cfg(feature = "table-misere")]
        "misere" => Some(include_bytes!("../tables/misere.moves.postcard")),
        #[cfg(feature = "table-three-mens-morris")]
        "three-mens-morris" => Some(include_bytes!("../tables/three-mens-morris.moves.postcard")),
        #[cfg(feature = "table-tapatan")]
        "tapatan" => Some(include_bytes!("../tables/tapatan.moves.postcard")),
        #[cfg(feature = "table-achi")]
        "achi" => Some(include_bytes!("../tables/achi.moves.postcard")),
        #[cfg(feature = "table-hexapawn")]
        "hexapawn" => Some(include_bytes!("../tables/hexapawn.moves.postcard")),
        _ => None,
    }
}

/// Both sides' compiled best-move tables of `game`: `None` when its feature is off,
/// else the embedded file read back (refused like any file if it were another game's).
pub fn tables<G: Game>(game: &G) -> Option<Result<[BestMoveTable; 2], FileError>> {
    file(&game.id()).map(|bytes| best_file::from_postcard(game, bytes))
}
