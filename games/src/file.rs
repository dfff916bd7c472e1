//! A solved game in a file: the postcard encoding of [`TableFile`], whose header names
//! the game, its rules and the format version, so a table of another game (or other
//! rules, or another version) is refused, never read as this one.
//!
//! The body lists the reachable symmetry classes in key order: for each, the gap to the
//! previous class's key (LEB128) and its record byte ([`Record::encode`]); a CRC-32 of
//! the body guards against damage.
//!
//! ```
//! use tictable_games::{file, solve, Hexapawn, TicTacToe};
//! let solution = solve(Hexapawn).unwrap();
//! let bytes = file::to_postcard(&solution);
//! let loaded = file::from_postcard(Hexapawn, &bytes).unwrap();
//! assert_eq!(loaded.table(), solution.table());
//! let error = file::from_postcard(TicTacToe::normal(), &bytes).err().unwrap();
//! assert!(error.to_string().contains("a table of hexapawn, not tictactoe"));
//! ```

use crate::game::{Game, Outcome};
use crate::solver::{Counts, Record, Solution, Summary};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

/// The first eight bytes of every game table file.
pub const MAGIC: [u8; 8] = *b"TTGAMES\0";
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// The file: a header naming what it holds, then the records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFile {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`FORMAT_VERSION`].
    pub version: u16,
    /// The game's id (`mnk:4,4,4`).
    pub game: String,
    /// The game's rules in one line, as [`Game::rules`] gives them.
    pub rules: String,
    /// The game's key space (the dense table's length).
    pub key_space: u64,
    /// The solve's counts: positions; won, drawn, lost, terminal (all positions, then
    /// the classes); the start's value (0 loss, 1 draw, 2 win) and remoteness; the
    /// longest remoteness.
    pub summary: [u64; 13],
    /// The number of records.
    pub entries: u64,
    /// CRC-32 (ISO-HDLC) of `records`.
    pub checksum: u32,
    /// For each class in key order: the key's gap to the previous one (LEB128), then
    /// the record byte.
    pub records: Vec<u8>,
}

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Not a postcard table file (truncated, or another format).
    Decode,
    /// The magic bytes are not [`MAGIC`].
    Magic,
    /// Another format version.
    Version {
        /// The version in the file.
        found: u16,
        /// The version this crate reads.
        expected: u16,
    },
    /// A table of another game.
    Game {
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// The same game id under other rules.
    Rules {
        /// The rules in the file.
        found: String,
    },
    /// The records do not match their checksum.
    Checksum,
    /// The records are malformed (a key out of order or range, a bad record byte, a
    /// count that differs).
    Records,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Decode => f.write_str("not a game table file (truncated or another format)"),
            FileError::Magic => f.write_str("not a game table file (wrong magic bytes)"),
            FileError::Version { found, expected } => write!(
                f,
                "table format version {found}; this program reads version {expected} \
                 (write the file again with this program)"
            ),
            FileError::Game { found, expected } => {
                write!(f, "a table of {found}, not {expected}")
            }
            FileError::Rules { found } => {
                write!(f, "a table of the same game id under other rules: {found}")
            }
            FileError::Checksum => {
                f.write_str("the records do not match their checksum (damaged file)")
            }
            FileError::Records => f.write_str("the records are malformed"),
        }
    }
}

impl core::error::Error for FileError {}

const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

fn outcome_index(outcome: Outcome) -> u64 {
    outcome as u64
}

fn summary_fields(s: &Summary) -> [u64; 13] {
    [
        s.positions,
        s.all.win,
        s.all.draw,
        s.all.loss,
        s.all.terminal,
        s.classes.win,
        s.classes.draw,
        s.classes.loss,
        s.classes.terminal,
        outcome_index(s.start.outcome),
        s.start.remoteness.into(),
        s.max_remoteness.into(),
        s.table_bytes,
    ]
}

/// The file of `solution`: byte for byte the same for the same game.
pub fn to_postcard<G: Game>(solution: &Solution<G>) -> Vec<u8> {
    let mut records = Vec::new();
    let mut previous = 0u64;
    let mut entries = 0u64;
    for (key, &byte) in solution.table().iter().enumerate() {
        if Record::decode(byte).is_none() {
            continue;
        }
        let mut gap = key as u64 - previous;
        previous = key as u64;
        loop {
            let low = (gap & 0x7f) as u8;
            gap >>= 7;
            if gap == 0 {
                records.push(low);
                break;
            }
            records.push(low | 0x80);
        }
        records.push(byte);
        entries += 1;
    }
    let game = solution.game();
    let file = TableFile {
        magic: MAGIC,
        version: FORMAT_VERSION,
        game: game.id(),
        rules: game.rules(),
        key_space: game.key_space(),
        summary: summary_fields(&solution.summary()),
        entries,
        checksum: CRC.checksum(&records),
        records,
    };
    // Serializing into a vector cannot fail.
    postcard::to_allocvec(&file).unwrap_or_default()
}

/// Refuses `bytes` that do not start with `magic` (the file is not of this kind).
pub(crate) fn check_magic(bytes: &[u8], magic: &[u8; 8]) -> Result<(), FileError> {
    if bytes.len() < magic.len() || bytes[..magic.len()] != magic[..] {
        return Err(FileError::Magic);
    }
    Ok(())
}

/// Refuses a decoded file header of another format version, game, rules or key space
/// than `game`'s (shared by the value tables and the best-move tables).
pub(crate) fn check_header<G: Game>(
    game: &G,
    expected_version: u16,
    version: u16,
    id: &str,
    rules: &str,
    key_space: u64,
) -> Result<(), FileError> {
    if version != expected_version {
        return Err(FileError::Version {
            found: version,
            expected: expected_version,
        });
    }
    if id != game.id() {
        return Err(FileError::Game {
            found: id.into(),
            expected: game.id(),
        });
    }
    if rules != game.rules() || key_space != game.key_space() {
        return Err(FileError::Rules {
            found: rules.into(),
        });
    }
    Ok(())
}

/// The solution of `game` stored in `bytes`, or why the file is refused: another
/// game, rules or version, damage, or malformed records. Nothing is trusted before it
/// is checked; the dense table takes [`Game::key_space`] bytes.
pub fn from_postcard<G: Game>(game: G, bytes: &[u8]) -> Result<Solution<G>, FileError> {
    check_magic(bytes, &MAGIC)?;
    let file: TableFile = postcard::from_bytes(bytes).map_err(|_| FileError::Decode)?;
    check_header(
        &game,
        FORMAT_VERSION,
        file.version,
        &file.game,
        &file.rules,
        file.key_space,
    )?;
    if CRC.checksum(&file.records) != file.checksum {
        return Err(FileError::Checksum);
    }
    let key_space = game.key_space();
    let mut table = vec![0u8; usize::try_from(key_space).map_err(|_| FileError::Records)?];
    let (mut at, mut key, mut entries) = (0usize, 0u64, 0u64);
    while at < file.records.len() {
        let mut gap = 0u64;
        let mut shift = 0;
        loop {
            let byte = *file.records.get(at).ok_or(FileError::Records)?;
            at += 1;
            if shift > 63 {
                return Err(FileError::Records);
            }
            gap |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        if entries > 0 && gap == 0 {
            return Err(FileError::Records);
        }
        key = key.checked_add(gap).ok_or(FileError::Records)?;
        let byte = *file.records.get(at).ok_or(FileError::Records)?;
        at += 1;
        if key >= key_space || Record::decode(byte).is_none() {
            return Err(FileError::Records);
        }
        table[key as usize] = byte;
        entries += 1;
    }
    if entries != file.entries {
        return Err(FileError::Records);
    }
    let s = file.summary;
    let counts = |i: usize| Counts {
        win: s[i],
        draw: s[i + 1],
        loss: s[i + 2],
        terminal: s[i + 3],
    };
    let start = Record {
        outcome: match s[9] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            _ => return Err(FileError::Records),
        },
        remoteness: u8::try_from(s[10]).map_err(|_| FileError::Records)?,
    };
    let summary = Summary {
        positions: s[0],
        all: counts(1),
        classes: counts(5),
        start,
        max_remoteness: u8::try_from(s[11]).map_err(|_| FileError::Records)?,
        table_bytes: s[12],
    };
    Ok(Solution::from_parts(game, table, summary))
}
