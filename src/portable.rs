//! The portable table: the `tables/tictactoe.postcard` file format and its run-time
//! loader, `no_std` and allocation-free (feature `postcard`).
//!
//! The file is the [`postcard`] encoding of [`TableFile`]: a [`Preamble`] (magic and
//! format version) followed by a [`Body`] (entry count, CRC-32 of the entries, and the
//! entries as one byte string of 4-byte records `key: u16 LE, value: u16 LE`, sorted by
//! key). Keys and values are the ones of the compiled table (see [`crate::entry`]).
//! `tables/FORMAT.md` gives the byte-exact layout.
//!
//! [`Table::from_postcard`] checks everything (magic, version, lengths, checksum, key
//! order) and returns a view borrowing the input: nothing is copied, so a table
//! `include_bytes!`-ed into flash stays in flash. Lookups binary-search the records and
//! decode through the same code as the compiled table ([`crate::table`]), so a loaded
//! table answers exactly like [`crate::analyse`].
//!
//! ```
//! use tictable::{portable::Table, Board, Outcome};
//! let table = Table::from_postcard(include_bytes!("../tables/tictactoe.postcard"))?;
//! let board: Board = "XX./OO./...".parse().unwrap();
//! let a = table.analyse(&board).unwrap();
//! assert_eq!((a.outcome(), a.plies(), a.best().bits()), (Outcome::Win, 1, 1 << 2));
//! # Ok::<(), tictable::portable::DecodeError>(())
//! ```

use crate::analysis::Analysis;
use crate::board::{Board, Square, Status};
use crate::entry;
use crate::symmetry::{canonical, Symmetry};
use crate::table::{analyse_in, LookupError};
use core::fmt;
use serde::{Deserialize, Serialize};

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"TICTABLE";

/// The format version this crate reads and writes.
pub const VERSION: u16 = 1;

/// The number of canonical decision positions: a complete table has one entry each
/// (and an extra entry for each of them whose `safe` set is stored).
pub const DECISION_POSITIONS: usize = 627;

/// Bytes per entry record: `key: u16` then `value: u16`, both little-endian.
pub const RECORD_SIZE: usize = 4;

/// CRC-32/ISO-HDLC, byte-wise with a 1 KiB table computed at compile time.
static CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// The checksum of the entry bytes: CRC-32/ISO-HDLC, the CRC-32 of zlib, PNG and
/// Ethernet (polynomial 0x04C11DB7 reflected, initial value and final XOR 0xFFFFFFFF;
/// `zlib.crc32` in Python). It detects every change of up to 32 consecutive bits.
///
/// ```
/// assert_eq!(tictable::portable::checksum(b"123456789"), 0xcbf4_3926);
/// ```
pub fn checksum(entries: &[u8]) -> u32 {
    CRC.checksum(entries)
}

/// The start of a table file: what it is and which version of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preamble {
    /// Always [`MAGIC`].
    pub magic: [u8; 8],
    /// The format version, [`VERSION`] (a postcard varint).
    pub version: u16,
}

/// The rest of a version-1 table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body<'a> {
    /// Number of entry records (a postcard varint).
    pub count: u16,
    /// [`checksum`] of `entries` (a postcard varint).
    pub checksum: u32,
    /// `count` records of [`RECORD_SIZE`] bytes, in strictly increasing key order (a
    /// postcard byte string: varint length, then the bytes).
    #[serde(borrow, serialize_with = "serialize_bytes")]
    pub entries: &'a [u8],
}

/// A whole table file: postcard encodes it as the preamble then the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFile<'a> {
    /// Magic and version.
    pub preamble: Preamble,
    /// Count, checksum and entries.
    #[serde(borrow)]
    pub body: Body<'a>,
}

/// Serializes a slice as a byte string (postcard: varint length, then the raw bytes),
/// the form `&[u8]` deserializes from without copying.
fn serialize_bytes<S: serde::Serializer>(bytes: &&[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

impl<'a> TableFile<'a> {
    /// The file holding `entries` (records already laid out and sorted); the count and
    /// checksum are computed. `None` when there are more records than a `u16` counts or
    /// `entries` is not a whole number of records.
    pub fn new(entries: &'a [u8]) -> Option<TableFile<'a>> {
        if entries.len() % RECORD_SIZE != 0 {
            return None;
        }
        let count = u16::try_from(entries.len() / RECORD_SIZE).ok()?;
        Some(TableFile {
            preamble: Preamble {
                magic: MAGIC,
                version: VERSION,
            },
            body: Body {
                count,
                checksum: checksum(entries),
                entries,
            },
        })
    }
}

/// Why bytes are not a table this crate can load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeError {
    /// The bytes do not start with [`MAGIC`]: not a table file.
    BadMagic,
    /// A table file of another format version.
    UnsupportedVersion {
        /// The version found.
        found: u16,
    },
    /// The bytes end before the table does.
    Truncated,
    /// A header field is not valid postcard (for instance an overlong varint).
    Malformed,
    /// The entry bytes do not hold `count` records.
    LengthMismatch {
        /// The count in the header.
        count: u16,
        /// The length of the entry byte string.
        bytes: usize,
    },
    /// The entries do not match their checksum: the file is corrupted.
    ChecksumMismatch {
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the entry bytes.
        computed: u32,
    },
    /// Keys are not in strictly increasing order (a lookup could miss them).
    Unsorted {
        /// The index of the first record whose key is not above the previous one.
        index: usize,
    },
    /// Bytes follow the end of the table.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A header integer is written with more varint bytes than it needs (postcard
    /// writes the shortest form; another form means the file was not written by a
    /// postcard encoder, so it is refused rather than guessed at).
    NonCanonicalVarint,
    /// The key of record `index` is not the key of a canonical decision position
    /// (a position with a move to make, in its canonical orientation), nor the extra
    /// key of one whose entry announces a stored `safe` set.
    BadKey {
        /// The record's index.
        index: usize,
        /// Its key.
        key: u16,
    },
    /// The value of record `index` does not decode for its key's position: an outcome
    /// out of range, no plies, an empty best set, moves on occupied squares, `best`
    /// not within `safe`, or a stored `safe` set whose extra entry is missing.
    BadValue {
        /// The record's index.
        index: usize,
        /// Its key.
        key: u16,
        /// Its value.
        value: u16,
    },
    /// The table does not hold every canonical decision position.
    MissingPositions {
        /// The positions it holds.
        found: usize,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeError::BadMagic => write!(f, "not a tictable table (bad magic)"),
            DecodeError::UnsupportedVersion { found } => write!(
                f,
                "table format version {found} is not supported (this build reads version {VERSION})"
            ),
            DecodeError::Truncated => write!(f, "the table is truncated"),
            DecodeError::Malformed => write!(f, "the table header is malformed"),
            DecodeError::LengthMismatch { count, bytes } => write!(
                f,
                "{count} entries announced but {bytes} entry bytes found (expected {})",
                count as usize * RECORD_SIZE
            ),
            DecodeError::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch: stored {stored:#010x}, computed {computed:#010x} (corrupted table)"
            ),
            DecodeError::Unsorted { index } => {
                write!(f, "entry {index} is out of key order")
            }
            DecodeError::TrailingBytes { count } => {
                write!(f, "{count} unexpected bytes after the table")
            }
            DecodeError::NonCanonicalVarint => {
                write!(f, "a header integer is not in postcard's shortest varint form")
            }
            DecodeError::BadKey { index, key } => write!(
                f,
                "entry {index}: key {key:#06x} is not a canonical position with a move to make"
            ),
            DecodeError::BadValue { index, key, value } => write!(
                f,
                "entry {index}: value {value:#06x} is not a valid analysis of key {key:#06x}"
            ),
            DecodeError::MissingPositions { found } => write!(
                f,
                "{found} positions found, {DECISION_POSITIONS} expected (missing entries)"
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

/// Bytes of the shortest (postcard) varint of `value`: 7 bits a byte.
const fn varint_len(value: u32) -> usize {
    let bits = 32 - value.leading_zeros() as usize;
    if bits == 0 {
        1
    } else {
        bits.div_ceil(7)
    }
}

/// The decode error for a postcard error in the header.
fn header_error(e: postcard::Error) -> DecodeError {
    match e {
        postcard::Error::DeserializeUnexpectedEnd => DecodeError::Truncated,
        _ => DecodeError::Malformed,
    }
}

/// A table loaded from a postcard file: a checked view of the file's entry records.
///
/// ```
/// use tictable::{portable::{DecodeError, Table}, Board};
/// let bytes = include_bytes!("../tables/tictactoe.postcard");
/// let table = Table::from_postcard(bytes)?;
/// assert_eq!(table.len(), 629); // 627 positions + 2 extra entries
/// assert_eq!(table.best_move(&Board::EMPTY).map(|s| s.index()), Some(0));
/// assert_eq!(Table::from_postcard(&bytes[..100]), Err(DecodeError::Truncated));
/// assert_eq!(Table::from_postcard(b"GIF89a.."), Err(DecodeError::BadMagic));
/// # Ok::<(), DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table<'a> {
    /// Whole records, sorted by strictly increasing key.
    records: &'a [u8],
}

impl<'a> Table<'a> {
    /// Checks `bytes` as a table file and returns a view of its entries. Every check
    /// runs here (magic, version, header, lengths, checksum, key order), so lookups
    /// cannot meet a malformed file. Never panics, whatever the bytes.
    pub fn from_postcard(bytes: &'a [u8]) -> Result<Table<'a>, DecodeError> {
        // A prefix of the magic is a truncated table; anything else is foreign.
        let head = bytes.len().min(MAGIC.len());
        if bytes[..head] != MAGIC[..head] {
            return Err(DecodeError::BadMagic);
        }
        let (preamble, rest) =
            postcard::take_from_bytes::<Preamble>(bytes).map_err(header_error)?;
        if preamble.version != VERSION {
            return Err(DecodeError::UnsupportedVersion {
                found: preamble.version,
            });
        }
        let (body, rest) = postcard::take_from_bytes::<Body<'a>>(rest).map_err(header_error)?;
        if body.entries.len() != body.count as usize * RECORD_SIZE {
            return Err(DecodeError::LengthMismatch {
                count: body.count,
                bytes: body.entries.len(),
            });
        }
        if !rest.is_empty() {
            return Err(DecodeError::TrailingBytes { count: rest.len() });
        }
        let computed = checksum(body.entries);
        if computed != body.checksum {
            return Err(DecodeError::ChecksumMismatch {
                stored: body.checksum,
                computed,
            });
        }
        // Postcard writes the shortest varints: any other header length means a
        // longer form of some integer.
        let shortest = MAGIC.len()
            + varint_len(u32::from(preamble.version))
            + varint_len(u32::from(body.count))
            + varint_len(body.checksum)
            + varint_len(body.entries.len() as u32)
            + body.entries.len();
        if bytes.len() != shortest {
            return Err(DecodeError::NonCanonicalVarint);
        }
        let table = Table {
            records: body.entries,
        };
        let mut keys = table.entries().map(|(key, _)| key).enumerate();
        if let Some((_, mut previous)) = keys.next() {
            for (index, key) in keys {
                if key <= previous {
                    return Err(DecodeError::Unsorted { index });
                }
                previous = key;
            }
        }
        table.check_entries()?;
        Ok(table)
    }

    /// Checks every record: each key is a canonical decision position's (or the
    /// extra key of one whose value says its `safe` set is stored), each value
    /// decodes to a legal analysis of its position, and every canonical decision
    /// position is there. Whether the analyses are *right* is what `tictable verify
    /// --table` checks against the live search.
    fn check_entries(&self) -> Result<(), DecodeError> {
        let mut positions = 0;
        for (index, (key, value)) in self.entries().enumerate() {
            if key & entry::EXTRA_KEY != 0 {
                // An extra entry belongs to a position that announces it.
                let owner = self.get(key & !entry::EXTRA_KEY);
                if owner.is_none_or(|v| v & entry::SAFE_STORED == 0) {
                    return Err(DecodeError::BadKey { index, key });
                }
                continue;
            }
            let board = Board::from_base3_index(key)
                .filter(|b| b.status() == Ok(Status::Ongoing) && canonical(*b).0 == *b)
                .ok_or(DecodeError::BadKey { index, key })?;
            let extra = || self.get(key | entry::EXTRA_KEY);
            if entry::decode(board, Symmetry::IDENTITY, value, extra).is_none() {
                return Err(DecodeError::BadValue { index, key, value });
            }
            positions += 1;
        }
        if positions != DECISION_POSITIONS {
            return Err(DecodeError::MissingPositions { found: positions });
        }
        Ok(())
    }

    /// Number of entries (for the published table, 629: one per canonical decision
    /// position and two extra entries, see [`crate::entry`]).
    pub const fn len(&self) -> usize {
        self.records.len() / RECORD_SIZE
    }

    /// Whether the table has no entry.
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The little-endian `u16` at byte `offset` of the records.
    #[inline]
    fn u16_at(&self, offset: usize) -> Option<u16> {
        match *self.records.get(offset..offset.checked_add(2)?)? {
            [low, high] => Some(u16::from_le_bytes([low, high])),
            _ => None,
        }
    }

    /// The entry record at `index`: `(key, value)`.
    #[inline]
    fn record(&self, index: usize) -> Option<(u16, u16)> {
        let start = index.checked_mul(RECORD_SIZE)?;
        Some((self.u16_at(start)?, self.u16_at(start.checked_add(2)?)?))
    }

    /// The entries `(key, value)` in increasing key order.
    pub fn entries(&self) -> impl Iterator<Item = (u16, u16)> + 'a {
        let table = *self;
        (0..self.len()).filter_map(move |index| table.record(index))
    }

    /// The value stored under `key`, by binary search (halving without an early exit,
    /// so the loop has no data-dependent branch).
    pub fn get(&self, key: u16) -> Option<u16> {
        let (mut base, mut size) = (0, self.len());
        if size == 0 {
            return None;
        }
        while size > 1 {
            let half = size / 2;
            // Keys only: the value is read once, at the end.
            if self.u16_at((base + half) * RECORD_SIZE)? <= key {
                base += half;
            }
            size -= half;
        }
        let (found, value) = self.record(base)?;
        (found == key).then_some(value)
    }

    /// Analyses a position from this table alone: exactly what the file holds, or
    /// the [`LookupError`] that says why it cannot answer (no fallback to the
    /// search: [`crate::search::analyse`] is there for a program that wants one).
    pub fn analyse(&self, board: &Board) -> Result<Analysis, LookupError> {
        analyse_in(board, |key| self.get(key))
    }

    /// The lowest-numbered best move, or `None` when the game is over or the board is
    /// invalid (like [`crate::best_move`]).
    pub fn best_move(&self, board: &Board) -> Option<Square> {
        self.analyse(board).ok()?.best().first()
    }
}
