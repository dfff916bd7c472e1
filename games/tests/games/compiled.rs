//! The committed best-move files of the small games (`games/tables/`, one `.moves.postcard` file per game,
//! compiled in by the `table-*` features) equal a fresh solve's, byte for byte; with a
//! feature on, the compiled tables equal the solver's. Regenerate the files with
//! `TICTABLE_WRITE_TABLES=1 cargo test -p tictable-games --test games compiled`.

use crate::common::solved;
use std::path::Path;
use tictable_games::{best_file, catalog, compiled, dispatch, Game};

/// The games with a committed file and a feature.
const GAMES: [&str; 6] = [
    "tictactoe",
    "misere",
    "three-mens-morris",
    "tapatan",
    "achi",
    "hexapawn",
];

fn path(id: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tables")
        .join(format!("{id}.moves.postcard"))
}

#[test]
fn committed_files_equal_a_fresh_solve() {
    let write = std::env::var_os("TICTABLE_WRITE_TABLES").is_some();
    for id in GAMES {
        let game = catalog::parse(id).unwrap();
        let fresh = dispatch!(game, g => best_file::to_postcard(&solved(g)).unwrap());
        if write {
            std::fs::write(path(id), &fresh).unwrap();
        }
        let committed = std::fs::read(path(id)).unwrap_or_default();
        assert!(
            committed == fresh,
            "games/tables/{id}.moves.postcard differs from a fresh solve: regenerate it with \
             TICTABLE_WRITE_TABLES=1 cargo test -p tictable-games --test games compiled"
        );
    }
}

#[test]
fn compiled_tables_equal_the_solvers() {
    for id in GAMES {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => {
            let enabled = compiled::COMPILED.contains(&id);
            match compiled::tables(&g) {
                Some(tables) => {
                    assert!(enabled);
                    let id = g.id();
                    assert_eq!(tables.unwrap(), best_file::tables(&solved(g)).unwrap(), "{id}");
                }
                None => assert!(!enabled),
            }
        });
    }
}
