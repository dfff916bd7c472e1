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
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// One side's packed table ([`BestMoveTable::to_bytes`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// Bytes of a key.
    pub key_bytes: u8,
    /// Bytes of a move mask.
    pub mask_bytes: u8,
    /// The entries: key then mask, little-endian, in key order.
    pub entries: Vec<u8>,
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
    /// CRC-32 (ISO-HDLC) of both sides' entries, the first's then the second's.
    pub checksum: u32,
}

const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

fn checksum(sides: &[Side; 2]) -> u32 {
    let mut digest = CRC.digest();
    digest.update(&sides[0].entries);
    digest.update(&sides[1].entries);
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
        key_bytes: t.key_bytes(),
        mask_bytes: t.mask_bytes(),
        entries: t.to_bytes(),
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
        BestMoveTable::from_bytes(
            player,
            file.key_space,
            s.key_bytes,
            s.mask_bytes,
            &s.entries,
        )
        .map_err(|_| FileError::Records)
    };
    Ok([
        side(Player::X, &file.sides[0])?,
        side(Player::O, &file.sides[1])?,
    ])
}
