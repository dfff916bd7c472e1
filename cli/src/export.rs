//! `tictable export`: write a table artefact (postcard, C header, JSON or Python).

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
#[derive(clap::Args)]
pub struct Args {
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
    let format = match args.format {
        FormatArg::Postcard => Format::Postcard,
        FormatArg::C => Format::C,
        FormatArg::Json => Format::Json,
        FormatArg::Python => Format::Python,
    };
    let bytes = format.render(&tictable::solve::solve());
    match &args.output {
        Some(path) => match std::fs::write(path, &bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::output::write_failed(&path.display().to_string(), &e),
        },
        None => crate::output::finish(crate::output::print(&bytes)),
    }
}
