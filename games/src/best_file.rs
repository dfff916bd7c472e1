//! Both sides' best-move tables ([`BestMoveTable`]) in a file: the postcard encoding
//! of [`BestMovesFile`], whose header names the game, its rules and the format version
//! (as the value table's [`file`](crate::file)), so a table of another game is refused.
//!
//! ```
//! use tictable_games::{best_file, solve, Hexapawn, TicTacToe};
//! let solution = solve(Hexapawn).unwrap();
//! let bytes = best_file::to_postcard(&solution).unwrap();
//! let [first, second] = best_file::from_postcard(&Hexapawn, &bytes).unwrap();
//! assert_eq!(first.entries() + second.entries(), 37);
//! let error = best_file::from_postcard(&TicTacToe::normal(), &bytes).err().unwrap();
//! assert!(error.to_string().contains("a table of hexapawn, not tictactoe"));
//! ```

use crate::best_move::{BestMoveError, BestMoveTable};
use crate::file::{check_header, check_magic, FileError};
use crate::game::{Game, Player};
use crate::solver::Solution;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The first eight bytes of every best-move file.
pub const MAGIC: [u8; 8] = *b"TTMOVES\0";
/// The format version this crate writes and reads: 2, the entries packed to exact bits
/// (version 1 held them in whole bytes; such a file is refused, saying both versions).
pub const FORMAT_VERSION: u16 = 2;

/// One side's table packed to exact bits ([`BestMoveTable::to_bits`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// Bytes of a move mask in whole bytes ([`BestMoveTable::mask_bytes`]: the most
    /// legal moves of an entry), kept so the table reads back equal.
    pub mask_bytes: u8,
    /// Bits of a mask ([`BestMoveTable::mask_bits`]); a key has
    /// [`BestMoveTable::key_bits`], from the key space.
    pub mask_bits: u8,
    /// The number of entries.
    pub entries: u64,
    /// The entries: key then mask, each entry `key_bits + mask_bits` bits of one
    /// little-endian bit stream, in key order, the last byte padded with zeros.
    pub bits: Vec<u8>,
}

/// The first fields of every version: read before the rest, so a file of another
/// version is refused as such.
#[derive(Deserialize)]
struct Head {
    magic: [u8; 8],
    version: u16,
}

/// The file: a header naming what it holds, then the first player's table and the
/// second's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestMovesFile {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`FORMAT_VERSION`].
    pub version: u16,
    /// The game's id.
    pub game: String,
    /// The game's rules in one line.
    pub rules: String,
    /// The game's key space.
    pub key_space: u64,
    /// The first player's table, then the second's.
    pub sides: [Side; 2],
    /// CRC-32 (ISO-HDLC) of both sides' bits, the first's then the second's.
    pub checksum: u32,
}

const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

fn checksum(sides: &[Side; 2]) -> u32 {
    let mut digest = CRC.digest();
    digest.update(&sides[0].bits);
    digest.update(&sides[1].bits);
    digest.finalize()
}

/// Both sides' tables of `solution`'s game.
pub fn tables<G: Game>(solution: &Solution<G>) -> Result<[BestMoveTable; 2], BestMoveError> {
    Ok([
        BestMoveTable::build(solution, Player::X)?,
        BestMoveTable::build(solution, Player::O)?,
    ])
}

/// The file of `tables` (the first player's, then the second's) of `game`.
pub fn encode<G: Game>(game: &G, tables: &[BestMoveTable; 2]) -> Vec<u8> {
    let side = |t: &BestMoveTable| Side {
        mask_bytes: t.mask_bytes(),
        mask_bits: t.mask_bits(),
        entries: t.entries(),
        bits: t.to_bits(),
    };
    let sides = [side(&tables[0]), side(&tables[1])];
    let file = BestMovesFile {
        magic: MAGIC,
        version: FORMAT_VERSION,
        game: game.id(),
        rules: game.rules(),
        key_space: game.key_space(),
        checksum: checksum(&sides),
        sides,
    };
    // Serializing into a vector cannot fail.
    postcard::to_allocvec(&file).unwrap_or_default()
}

/// The file of both sides' tables of `solution`: byte for byte the same for the same
/// game.
pub fn to_postcard<G: Game>(solution: &Solution<G>) -> Result<Vec<u8>, BestMoveError> {
    Ok(encode(solution.game(), &tables(solution)?))
}

/// Both sides' tables of `game` stored in `bytes`, or why the file is refused: another
/// game, rules or version, damage, or malformed entries.
pub fn from_postcard<G: Game>(game: &G, bytes: &[u8]) -> Result<[BestMoveTable; 2], FileError> {
    check_magic(bytes, &MAGIC)?;
    let (head, _) = postcard::take_from_bytes::<Head>(bytes).map_err(|_| FileError::Decode)?;
    if head.magic != MAGIC || head.version != FORMAT_VERSION {
        return Err(FileError::Version {
            found: head.version,
            expected: FORMAT_VERSION,
        });
    }
    let file: BestMovesFile = postcard::from_bytes(bytes).map_err(|_| FileError::Decode)?;
    check_header(
        game,
        FORMAT_VERSION,
        file.version,
        &file.game,
        &file.rules,
        file.key_space,
    )?;
    if checksum(&file.sides) != file.checksum {
        return Err(FileError::Checksum);
    }
    let side = |player, s: &Side| {
        BestMoveTable::from_bits(
            player,
            file.key_space,
            s.mask_bytes,
            s.mask_bits,
            s.entries,
            &s.bits,
        )
        .map_err(|_| FileError::Records)
    };
    Ok([
        side(Player::X, &file.sides[0])?,
        side(Player::O, &file.sides[1])?,
    ])
}

/// One side's bit-packed entries read in place ([`packed`]), as [`Side`] holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct PackedSide<'a> {
    /// Bytes of a move mask in whole bytes.
    pub mask_bytes: u8,
    /// Bits of a mask.
    pub mask_bits: u8,
    /// The number of entries.
    pub entries: u64,
    /// The entries: key then mask, `key_bits + mask_bits` bits each, one
    /// little-endian bit stream in key order.
    pub bits: &'a [u8],
}

/// A best-move file read in place, borrowing its bytes (no allocation: the firmware
/// reads its tables from flash this way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct PackedFile<'a> {
    magic: [u8; 8],
    version: u16,
    /// The game's id.
    pub game: &'a str,
    /// The game's rules in one line.
    pub rules: &'a str,
    /// The game's key space.
    pub key_space: u64,
    /// The first player's table, then the second's.
    #[serde(borrow)]
    pub sides: [PackedSide<'a>; 2],
    checksum: u32,
}

/// Bits of a key in a space of `key_space` keys ([`BestMoveTable::key_bits`]).
const fn key_bits(key_space: u64) -> u32 {
    let bits = u64::BITS - key_space.saturating_sub(1).leading_zeros();
    if bits == 0 {
        1
    } else {
        bits
    }
}

impl PackedFile<'_> {
    /// The mask of the class `key` in `player`'s table ([`crate::best_move::lookup_bits`]
    /// over the packed bits, no allocation); `None` when the key is not there.
    pub fn lookup(&self, player: Player, key: u64) -> Option<u64> {
        let side = &self.sides[usize::from(player == Player::O)];
        crate::best_move::lookup_bits(
            side.bits,
            key_bits(self.key_space),
            u32::from(side.mask_bits),
            usize::try_from(side.entries).ok()?,
            key,
        )
    }
}

/// The best-move file `bytes` read in place, without allocating (not even for an
/// error): checked for its magic bytes, format version, checksum and entry widths
/// (every entry within the bits); the caller compares [`PackedFile::game`] with its
/// game's id. The entries themselves are read by [`PackedFile::lookup`] (the
/// allocating [`from_postcard`] checks their order too).
///
/// ```
/// use tictable_games::{best_file, solve, Hexapawn, Player};
/// let solution = solve(Hexapawn).unwrap();
/// let bytes = best_file::to_postcard(&solution).unwrap();
/// let file = best_file::packed(&bytes).unwrap();
/// let [white, _] = best_file::from_postcard(&Hexapawn, &bytes).unwrap();
/// for (key, mask) in white.iter() {
///     assert_eq!(file.lookup(Player::X, key), Some(mask));
/// }
/// assert_eq!(file.game, "hexapawn");
/// let mut damaged = bytes.clone();
/// *damaged.last_mut().unwrap() ^= 1;
/// assert!(best_file::packed(&damaged).is_err());
/// ```
pub fn packed(bytes: &[u8]) -> Result<PackedFile<'_>, FileError> {
    check_magic(bytes, &MAGIC)?;
    let (head, _) = postcard::take_from_bytes::<Head>(bytes).map_err(|_| FileError::Decode)?;
    if head.version != FORMAT_VERSION {
        return Err(FileError::Version {
            found: head.version,
            expected: FORMAT_VERSION,
        });
    }
    let file: PackedFile<'_> = postcard::from_bytes(bytes).map_err(|_| FileError::Decode)?;
    let mut digest = CRC.digest();
    for side in &file.sides {
        let width = u64::from(key_bits(file.key_space)) + u64::from(side.mask_bits);
        if !(1..=64).contains(&side.mask_bits)
            || !(1..=8).contains(&side.mask_bytes)
            || side.entries.checked_mul(width).map(|b| b.div_ceil(8))
                != Some(side.bits.len() as u64)
        {
            return Err(FileError::Records);
        }
        digest.update(side.bits);
    }
    if digest.finalize() != file.checksum {
        return Err(FileError::Checksum);
    }
    Ok(file)
}
