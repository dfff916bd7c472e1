//! The artefacts committed in `tables/`, rendered from a [`Solution`]: the postcard
//! table ([`postcard()`]), the single-file C header ([`c_header`]), the JSON listing
//! ([`json`]) and the Python / MicroPython module ([`python_module`]). The output is deterministic: the same bytes on every run and machine.
//!
//! All three hold the entries of the compiled table ([`crate::entry::entries`]), sorted
//! by key; the C header also holds the best-moves table ([`best_entries`]) for programs
//! that only play. `tables/FORMAT.md` documents them byte by byte.
//!
//! ```
//! use tictable::{export::{self, Format}, portable::Table};
//! let solution = tictable::solve::solve();
//! let bytes = Format::Postcard.render(&solution);
//! assert_eq!(bytes, include_bytes!("../tables/tictactoe.postcard"));
//! assert_eq!(Table::from_postcard(&bytes).unwrap().len(), export::entries(&solution).len());
//! ```

use crate::board::Squares;
use crate::entry;
use crate::portable::{TableFile, RECORD_SIZE};
use crate::solve::Solution;
use crate::tactics;
use core::fmt::Write as _;
use serde::Serialize;

mod python;
pub use python::python_module;
use std::string::{String, ToString};
use std::vec::Vec;

/// One of the artefact formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `tables/tictactoe.postcard`: the table for [`crate::portable::Table`].
    Postcard,
    /// `tables/tictactoe.h`: a single-file C99 header with the table and the lookup.
    C,
    /// `tables/tictactoe.json`: one object per canonical decision position.
    Json,
    /// `tables/tictactoe.py`: a Python / MicroPython module with the tables and the lookup.
    Python,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Postcard, Format::C, Format::Json, Format::Python];

    /// The file name of the artefact in `tables/`.
    ///
    /// ```
    /// assert_eq!(tictable::export::Format::C.file_name(), "tictactoe.h");
    /// ```
    pub const fn file_name(self) -> &'static str {
        match self {
            Format::Postcard => "tictactoe.postcard",
            Format::C => "tictactoe.h",
            Format::Json => "tictactoe.json",
            Format::Python => "tictactoe.py",
        }
    }

    /// The artefact's bytes.
    pub fn render(self, solution: &Solution) -> Vec<u8> {
        match self {
            Format::Postcard => postcard(solution),
            Format::C => c_header(solution).into_bytes(),
            Format::Json => json(solution).into_bytes(),
            Format::Python => python_module(solution).into_bytes(),
        }
    }
}

/// The table entries `(key, value)` sorted by key: one per canonical decision position
/// and the extra entries (`key | 0x8000`), exactly those of the compiled table.
///
/// ```
/// let entries = tictable::export::entries(&tictable::solve::solve());
/// assert_eq!(entries.len(), 627 + 2);
/// assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
/// ```
pub fn entries(solution: &Solution) -> Vec<(u16, u16)> {
    let mut entries: Vec<(u16, u16)> = entry::entries(&solution.decisions).collect();
    entries.sort_unstable();
    entries
}

/// The entries `(key, best)` of the best-moves table, sorted by key: the canonical
/// decision positions whose best moves [`tactics::immediate_best`] does not decide,
/// with their best moves ([`tactics::table_entries`], the entries `build.rs` compiles
/// into the crate). The C header holds them.
///
/// ```
/// let solution = tictable::solve::solve();
/// let best = tictable::export::best_entries(&solution);
/// assert_eq!(best.len(), 96);
/// assert!(best.windows(2).all(|w| w[0].0 < w[1].0));
/// ```
pub fn best_entries(solution: &Solution) -> Vec<(u16, u16)> {
    let mut entries: Vec<(u16, u16)> = tactics::table_entries(&solution.decisions).collect();
    entries.sort_unstable();
    entries
}

/// The postcard table file: magic, version, count, CRC-32 and the sorted records
/// (layout in [`crate::portable`]).
pub fn postcard(solution: &Solution) -> Vec<u8> {
    let records = record_bytes(&entries(solution));
    let file = TableFile::new(&records).expect("fewer than 65536 entries");
    postcard::to_extend(&file, Vec::new()).expect("a Vec grows as needed")
}

/// The records of `entries`, [`RECORD_SIZE`] bytes each: key then value, u16
/// little-endian (the postcard file's records).
fn record_bytes(entries: &[(u16, u16)]) -> Vec<u8> {
    let mut records = Vec::with_capacity(entries.len() * RECORD_SIZE);
    for (key, value) in entries {
        records.extend_from_slice(&key.to_le_bytes());
        records.extend_from_slice(&value.to_le_bytes());
    }
    records
}

/// The C lookup code, with `@COUNT@`, `@DATA_BYTES@`, `@KEYS@` and `@VALUES@` (the
/// analysis table) and `@BEST_COUNT@`, `@BEST_DATA_BYTES@`, `@BEST_KEYS@` and
/// `@BEST_SETS@` (the best-moves table) to fill in.
const C_TEMPLATE: &str = include_str!("export/tictactoe.h.in");

/// The single-file C99 header: the API and documentation, and under
/// `TICTABLE_IMPLEMENTATION` the two sorted tables ([`entries`], [`best_entries`]) and
/// the lookups.
pub fn c_header(solution: &Solution) -> String {
    let entries = entries(solution);
    let best = best_entries(solution);
    let array = |entries: &[(u16, u16)], field: fn(&(u16, u16)) -> u16| {
        let mut text = String::new();
        for (i, line) in entries.chunks(12).enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str("   ");
            for entry in line {
                write!(text, " {:#06x},", field(entry)).expect("writing to a String");
            }
        }
        text
    };
    C_TEMPLATE
        .replace("@COUNT@", &entries.len().to_string())
        .replace("@DATA_BYTES@", &(entries.len() * RECORD_SIZE).to_string())
        .replace("@KEYS@", &array(&entries, |&(key, _)| key))
        .replace("@VALUES@", &array(&entries, |&(_, value)| value))
        .replace("@BEST_COUNT@", &best.len().to_string())
        .replace("@BEST_DATA_BYTES@", &(best.len() * RECORD_SIZE).to_string())
        .replace("@BEST_KEYS@", &array(&best, |&(key, _)| key))
        .replace("@BEST_SETS@", &array(&best, |&(_, set)| set))
}

/// One canonical decision position in the JSON listing.
#[derive(Serialize)]
struct JsonPosition {
    position: String,
    key: u16,
    to_move: char,
    outcome: &'static str,
    plies: u8,
    best: Vec<u8>,
    safe: Vec<u8>,
}

fn square_list(squares: Squares) -> Vec<u8> {
    squares.iter().map(|square| square.index()).collect()
}

/// The JSON listing: an object with the format name and version and `positions`, one
/// object per canonical decision position in key order (one per line), e.g.
/// `{"position":"XX.OO....","key":...,"to_move":"X","outcome":"win","plies":1,"best":[2],"safe":[2]}`.
pub fn json(solution: &Solution) -> String {
    let mut text = String::from("{\n\"format\": \"tictable\",\n\"version\": 1,\n");
    text.push_str(
        "\"description\": \"every canonical decision position (smallest of its 8 symmetric images \
         as x | o << 16); squares 0..8 row-major from the top-left; outcome and plies for the \
         side to move under optimal play; best: optimal moves; safe: moves that keep the \
         outcome. See tables/FORMAT.md.\",\n",
    );
    text.push_str("\"positions\": [\n");
    for (i, (board, analysis)) in solution.decisions.iter().enumerate() {
        let position = JsonPosition {
            position: board.to_string(),
            key: entry::key(*board),
            to_move: analysis.to_move().char(),
            outcome: analysis.outcome().as_str(),
            plies: analysis.plies(),
            best: square_list(analysis.best()),
            safe: square_list(analysis.safe()),
        };
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(&serde_json::to_string(&position).expect("plain data serializes"));
    }
    text.push_str("\n]\n}\n");
    text
}
