//! The best-move tables (`tictable_games::best_move`): built for each side of each small
//! game, checked class by class against the solved values (`BestMoveTable::verify`) and
//! position by position (every reachable position, not class) against
//! `Solution::best_moves`; the postcard file reads back and refuses other games. A
//! corrupted mask, a missing entry or a table of other rules fails the checks.

use crate::common::{each_reachable, solved};
use tictable_games::best_move::{BestMoveError, BestMoveTable};
use tictable_games::file::FileError;
use tictable_games::{best_file, catalog, dispatch, Game, Hexapawn, Player, TicTacToe};

/// Builds both sides' tables of `game`, verifies them class by class and position by
/// position; the tables.
fn checked<G: Game>(game: G) -> [BestMoveTable; 2] {
    let solution = solved(game);
    let tables = best_file::tables(&solution).expect("the tables build");
    for table in &tables {
        assert_eq!(table.verify(&solution), Ok(table.entries()));
    }
    let game = solution.game();
    let mut positions = 0;
    each_reachable(game, |p| {
        let mover = game.to_move(p);
        let table = &tables[usize::from(mover == Player::O)];
        let expected = solution.best_moves(p);
        match table.best_moves(game, p) {
            Some(found) => {
                assert_eq!(
                    found,
                    expected,
                    "{}",
                    game.write_position(p, tictable_games::Notation::Api)
                );
                assert!(!found.is_empty());
                positions += 1;
            }
            None => assert!(expected.is_empty(), "a position missing from the table"),
        }
        // The other side's table has no entry for this position.
        assert!(tables[usize::from(mover == Player::X)]
            .best_moves(game, p)
            .is_none());
    });
    assert!(positions > 0);
    tables
}

#[test]
fn small_games_best_moves_agree_with_the_solution_everywhere() {
    for id in [
        "tictactoe",
        "misere",
        "hexapawn",
        "three-mens-morris",
        "tapatan",
        "achi",
        "connect4:3x4",
    ] {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => { checked(g); });
    }
}

#[test]
#[ignore = "release: 4x4 Connect Four and 4,3,3 take seconds in debug"]
fn larger_games_best_moves_agree_with_the_solution_everywhere() {
    for id in ["connect4:4x4", "mnk:4,3,3"] {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => { checked(g); });
    }
}

#[test]
fn tic_tac_toe_sizes() {
    // Every reachable class with X to move and a move to make, and likewise O: the 765
    // classes less the 138 finished ones, split by the side to move.
    let [x, o] = checked(TicTacToe::normal());
    assert_eq!(x.entries() + o.entries(), 765 - 138);
    assert_eq!((x.key_bytes(), x.mask_bytes()), (2, 2));
    assert_eq!(x.bits_per_position(), 32);
}

#[test]
fn a_corrupted_or_foreign_table_fails_verification() {
    let solution = solved(TicTacToe::normal());
    let [mut x, _] = best_file::tables(&solution).unwrap();
    let (key, mask) = x.iter().nth(10).unwrap();
    // One more move (a non-best one) in one entry.
    let wrong = mask | (!mask & mask.wrapping_add(1));
    x.set_mask(10, wrong);
    assert_eq!(
        x.verify(&solution),
        Err(BestMoveError::WrongMoves {
            key,
            found: wrong,
            expected: mask
        })
    );
    // Misère's table against tic-tac-toe's solution: other rules, other moves.
    let misere = solved(TicTacToe::misere());
    let [mx, _] = best_file::tables(&misere).unwrap();
    assert!(matches!(
        mx.verify(&solution),
        Err(BestMoveError::WrongMoves { .. })
    ));
    // The other side's table: entries missing.
    let [_, o] = best_file::tables(&solution).unwrap();
    let o_as_x = BestMoveTable::from_bytes(
        Player::X,
        o.key_space(),
        o.key_bytes(),
        o.mask_bytes(),
        &o.to_bytes(),
    )
    .unwrap();
    assert!(matches!(
        o_as_x.verify(&solution),
        Err(BestMoveError::Missing { .. })
    ));
}

#[test]
fn the_file_reads_back_and_refuses_other_games_and_damage() {
    let solution = solved(Hexapawn);
    let tables = best_file::tables(&solution).unwrap();
    let bytes = best_file::to_postcard(&solution).unwrap();
    assert_eq!(best_file::from_postcard(&Hexapawn, &bytes).unwrap(), tables);
    assert_eq!(
        best_file::from_postcard(&TicTacToe::normal(), &bytes).unwrap_err(),
        FileError::Game {
            found: "hexapawn".into(),
            expected: "tictactoe".into()
        }
    );
    let mut damaged = bytes.clone();
    let last = damaged.len() - 6;
    damaged[last] ^= 1;
    assert!(best_file::from_postcard(&Hexapawn, &damaged).is_err());
    // The value table file is not a best-move file.
    let values = tictable_games::file::to_postcard(&solution);
    assert_eq!(
        best_file::from_postcard(&Hexapawn, &values).unwrap_err(),
        FileError::Magic
    );
    assert!(best_file::from_postcard(&Hexapawn, &bytes[..bytes.len() / 2]).is_err());
}

/// A best-move file of format version 1 (whole-byte entries), as that version wrote it.
#[derive(serde::Serialize)]
struct VersionOne {
    magic: [u8; 8],
    version: u16,
    game: String,
    rules: String,
    key_space: u64,
    sides: [(u8, u8, Vec<u8>); 2],
    checksum: u32,
}

#[test]
fn the_file_is_packed_to_exact_bits_and_an_old_file_is_refused() {
    let solution = solved(Hexapawn);
    let tables = best_file::tables(&solution).unwrap();
    let bytes = best_file::to_postcard(&solution).unwrap();
    // The entries are the exact-bit streams of the exports, nothing wider.
    let file: best_file::BestMovesFile = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(file.version, 2);
    for (side, table) in file.sides.iter().zip(&tables) {
        assert_eq!(side.bits, table.to_bits());
        assert!((side.bits.len() as u64) < table.bytes());
    }
    // Version 1's layout, written as it was: refused, naming both versions.
    let side = |t: &BestMoveTable| (t.key_bytes(), t.mask_bytes(), t.to_bytes());
    let old = postcard::to_allocvec(&VersionOne {
        magic: best_file::MAGIC,
        version: 1,
        game: "hexapawn".into(),
        rules: Hexapawn.rules(),
        key_space: Hexapawn.key_space(),
        sides: [side(&tables[0]), side(&tables[1])],
        checksum: 0,
    })
    .unwrap();
    let error = best_file::from_postcard(&Hexapawn, &old).unwrap_err();
    assert_eq!(
        error,
        FileError::Version {
            found: 1,
            expected: 2
        }
    );
    assert_eq!(
        error.to_string(),
        "table format version 1; this program reads version 2 (write the file again with this program)"
    );
    // A stream with a bit set in its padding, or one entry short, is malformed.
    let mut padded = file.clone();
    let last = padded.sides[0].bits.len() - 1;
    padded.sides[0].bits[last] |= 0x80;
    let short = {
        let mut f = file.clone();
        f.sides[1].entries -= 1;
        f
    };
    for (what, mut f) in [("padding", padded), ("entries", short)] {
        let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
        let mut digest = crc.digest();
        digest.update(&f.sides[0].bits);
        digest.update(&f.sides[1].bits);
        f.checksum = digest.finalize();
        let error = best_file::from_postcard(&Hexapawn, &postcard::to_allocvec(&f).unwrap());
        assert_eq!(error.unwrap_err(), FileError::Records, "{what}");
    }
}
