//! `tictable export`: write a table artefact (postcard, C header, JSON or Python): the
//! tic-tac-toe engine's tables, or with `--game G` both sides' best-move tables of any
//! game (`tictable_games::export`).

use std::path::PathBuf;
use std::process::ExitCode;
use tictable::export::Format;

/// Write the table: postcard, C header, JSON or Python.
///
/// Solve every position and write the table as a postcard file, a single-file C99
/// header, a JSON document or a Python module (the artefacts in `tables/`, byte for
/// byte).
///
/// The output is deterministic. Regenerate the committed artefacts with
/// `tictable export --format postcard -o tables/tictactoe.postcard` (and `c` ->
/// `tables/tictactoe.h`, `json` -> `tables/tictactoe.json`, `python` ->
/// `tables/tictactoe.py`).
///
/// With `--game G`, any game's best-move tables instead (both sides: for every
/// reachable position of that side, one per symmetry class, its best moves): the
/// postcard file (refused when read as another game), a C99 header, a JSON document
/// or a Python / MicroPython module (docs/tables.md). Games over 100,000,000 keys read their
/// solved table from `--table FILE` (written by `tictable solve --game G --out DIR`).
#[derive(clap::Args)]
pub struct Args {
    /// Any game's best-move tables (`tictable games` lists the ids) instead of the
    /// tic-tac-toe engine's tables.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// With `--game`: the game's solved table (from `tictable solve --out`), for games
    /// too large to solve on demand.
    #[arg(long, value_name = "FILE", requires = "game")]
    table: Option<PathBuf>,
    /// The artefact to write.
    #[arg(long, value_enum)]
    format: FormatArg,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    /// The postcard table (tables/tictactoe.postcard), for `portable::Table`.
    Postcard,
    /// The single-file C99 header (tables/tictactoe.h).
    C,
    /// One JSON document listing every canonical decision position
    /// (tables/tictactoe.json).
    Json,
    /// The Python / MicroPython module (tables/tictactoe.py).
    Python,
}

pub fn run(args: Args) -> ExitCode {
    if let Some(id) = &args.game {
        let game = match crate::solve::parse_game(id, "export") {
            Ok(game) => game,
            Err(code) => return code,
        };
        return match tictable_games::dispatch!(game, g => game_bytes(g, &args)) {
            Ok(bytes) => write(&args, &bytes),
            Err(e) => {
                eprintln!("export: {id}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let format = match args.format {
        FormatArg::Postcard => Format::Postcard,
        FormatArg::C => Format::C,
        FormatArg::Json => Format::Json,
        FormatArg::Python => Format::Python,
    };
    let bytes = format.render(&tictable::solve::solve());
    write(&args, &bytes)
}

/// Both sides' best-move tables of `game` in the format asked for.
fn game_bytes<G: tictable_games::Game>(game: G, args: &Args) -> Result<Vec<u8>, String> {
    use tictable_games::{best_file, export};
    let solution = crate::solve::load_or_solve(game, args.table.as_deref())?;
    let tables = best_file::tables(&solution).map_err(|e| e.to_string())?;
    let game = solution.game();
    Ok(match args.format {
        FormatArg::Postcard => best_file::encode(game, &tables),
        FormatArg::C => export::c_header(game, &tables).into_bytes(),
        FormatArg::Json => export::json(&solution)
            .map_err(|e| e.to_string())?
            .into_bytes(),
        FormatArg::Python => export::python_module(game, &tables).into_bytes(),
    })
}

/// Writes `bytes` to `--output` or standard output.
fn write(args: &Args, bytes: &[u8]) -> ExitCode {
    match &args.output {
        Some(path) => match std::fs::write(path, bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::output::write_failed(&path.display().to_string(), &e),
        },
        None => crate::output::finish(crate::output::print(bytes)),
    }
}
