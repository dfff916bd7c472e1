//! The committed artefacts in `tables/`: they equal a fresh export byte for byte, the
//! postcard table loads back to the compiled table's entries and answers, and every
//! corruption or truncation of it is rejected.
#![cfg(feature = "std")]

use tictable::export::{self, Format};
use tictable::portable::{Body, DecodeError, Preamble, Table, TableFile, MAGIC, VERSION};
use tictable::solve::{board_of_index, solve};
use tictable::{analyse, best_move, Board};

const COMMITTED: &[u8] = include_bytes!("../../tables/tictactoe.postcard");

fn committed(format: Format) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tables")
        .join(format.file_name());
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every board with pieces on distinct squares, by base-3 index (valid or not).
fn all_boards() -> impl Iterator<Item = Board> {
    (0..19683).map(board_of_index)
}

/// The postcard encoding of `file`.
fn encode(file: &TableFile) -> Vec<u8> {
    postcard::to_extend(file, Vec::new()).unwrap()
}

#[test]
fn committed_artefacts_equal_a_fresh_export() {
    let solution = solve();
    for format in Format::ALL {
        let fresh = format.render(&solution);
        assert!(
            committed(format) == fresh,
            "tables/{} differs from a fresh export: regenerate it with \
             `cargo run -- export --format {} -o tables/{}`",
            format.file_name(),
            match format {
                Format::Postcard => "postcard",
                Format::C => "c",
                Format::Json => "json",
                Format::Python => "python",
            },
            format.file_name()
        );
        // Deterministic within a run too.
        assert_eq!(format.render(&solution), fresh);
    }
}

#[test]
fn postcard_round_trip() {
    let solution = solve();
    let bytes = export::postcard(&solution);
    let (file, rest) = postcard::take_from_bytes::<TableFile>(&bytes).unwrap();
    assert!(rest.is_empty());
    assert_eq!(
        file.preamble,
        Preamble {
            magic: MAGIC,
            version: VERSION
        }
    );
    assert_eq!(file.body.count, 629);
    assert_eq!(encode(&file), bytes);
    assert_eq!(TableFile::new(file.body.entries), Some(file));

    let table = Table::from_postcard(&bytes).unwrap();
    let entries: Vec<(u16, u16)> = table.entries().collect();
    assert_eq!(entries, export::entries(&solution));
    // The same entries as the compiled phf map, and nothing else.
    let map = tictable::table::map();
    assert_eq!(map.len(), entries.len());
    for &(key, value) in &entries {
        assert_eq!(map.get(&key), Some(&value), "key {key:#06x}");
        assert_eq!(table.get(key), Some(value));
    }
    assert_eq!(
        entries.iter().filter(|(key, _)| key & 0x8000 != 0).count(),
        2
    );
}

#[test]
fn loaded_table_answers_like_the_compiled_one_everywhere() {
    let table = Table::from_postcard(COMMITTED).unwrap();
    // One entry per canonical decision position and the two extra entries.
    assert_eq!((table.len(), table.is_empty()), (629, false));
    let (mut valid, mut decisions) = (0, 0);
    for board in all_boards() {
        let expected = analyse(&board);
        assert_eq!(table.analyse(&board), expected, "{board}");
        assert_eq!(table.best_move(&board), best_move(&board), "{board}");
        if let Ok(analysis) = expected {
            valid += 1;
            // The file alone answers what the live search does.
            assert_eq!(Ok(analysis), tictable::search::analyse(&board), "{board}");
            decisions += usize::from(!analysis.is_terminal());
        }
    }
    assert_eq!((valid, decisions), (5478, 4520));
}

#[test]
fn every_truncation_is_rejected() {
    for len in 0..COMMITTED.len() {
        assert_eq!(
            Table::from_postcard(&COMMITTED[..len]),
            Err(DecodeError::Truncated),
            "truncated to {len} bytes"
        );
    }
}

/// Every byte of the committed file changed by each of `flips` (XOR) is refused, with
/// `BadMagic` in the magic; the file is unchanged afterwards.
fn corruptions_are_rejected(flips: impl Iterator<Item = u8> + Clone) {
    let mut bytes = COMMITTED.to_vec();
    for index in 0..bytes.len() {
        for flip in flips.clone() {
            bytes[index] ^= flip;
            let result = Table::from_postcard(&bytes);
            assert!(result.is_err(), "byte {index} ^ {flip:#04x} accepted");
            if index < MAGIC.len() {
                assert_eq!(result, Err(DecodeError::BadMagic));
            }
            bytes[index] ^= flip;
        }
    }
    assert_eq!(bytes, COMMITTED);
}

/// Every byte, each of its 8 single-bit flips and its complement (9 of the 255 changes a
/// byte can have; cheap in debug). All 255: [`every_single_byte_corruption_is_rejected`].
#[test]
fn every_byte_with_each_bit_flipped_is_rejected() {
    corruptions_are_rejected((0..8).map(|bit| 1u8 << bit).chain([0xff]));
}

/// Every byte changed in each of the 255 ways: 255 decodes a byte, seconds in debug, so
/// release only (`.ci/run` runs it); the debug run checks the single-bit flips above.
#[test]
#[ignore = "release only (every byte changed in all 255 ways): .ci/run runs it"]
fn every_single_byte_corruption_is_rejected() {
    corruptions_are_rejected(1..=255u8);
}

#[test]
fn typed_errors() {
    let file = postcard::take_from_bytes::<TableFile>(COMMITTED).unwrap().0;

    // Foreign bytes: other artefacts, other formats, nothing at all.
    for foreign in [
        &committed(Format::C)[..],
        &committed(Format::Json),
        b"\x89PNG\r\n\x1a\n....",
    ] {
        assert_eq!(Table::from_postcard(foreign), Err(DecodeError::BadMagic));
    }
    assert_eq!(Table::from_postcard(b""), Err(DecodeError::Truncated));
    assert_eq!(Table::from_postcard(b"TICT"), Err(DecodeError::Truncated));

    // Another version, whatever follows.
    let mut v2 = file;
    v2.preamble.version = 2;
    assert_eq!(
        Table::from_postcard(&encode(&v2)),
        Err(DecodeError::UnsupportedVersion { found: 2 })
    );
    assert_eq!(
        Table::from_postcard(b"TICTABLE\x07garbage"),
        Err(DecodeError::UnsupportedVersion { found: 7 })
    );

    // An overlong varint in the header.
    assert_eq!(
        Table::from_postcard(b"TICTABLE\xff\xff\xff\xff\xff\xff"),
        Err(DecodeError::Malformed)
    );

    // Trailing bytes.
    let mut long = COMMITTED.to_vec();
    long.push(0);
    assert_eq!(
        Table::from_postcard(&long),
        Err(DecodeError::TrailingBytes { count: 1 })
    );

    // A count that disagrees with the entry bytes.
    let mut miscounted = file;
    miscounted.body.count -= 1;
    assert_eq!(
        Table::from_postcard(&encode(&miscounted)),
        Err(DecodeError::LengthMismatch {
            count: 628,
            bytes: 629 * 4
        })
    );

    // Changed entries, stale checksum.
    let mut entries = file.body.entries.to_vec();
    entries[5] ^= 1;
    let stale = TableFile {
        body: Body {
            entries: &entries,
            ..file.body
        },
        ..file
    };
    assert!(matches!(
        Table::from_postcard(&encode(&stale)),
        Err(DecodeError::ChecksumMismatch { stored, .. }) if stored == file.body.checksum
    ));

    // Records out of order (with a correct checksum) and duplicate keys.
    let mut swapped = file.body.entries.to_vec();
    swapped[8..16].rotate_left(4);
    let unsorted = TableFile::new(&swapped).unwrap();
    assert_eq!(
        Table::from_postcard(&encode(&unsorted)),
        Err(DecodeError::Unsorted { index: 3 })
    );
    let mut duplicated = file.body.entries.to_vec();
    duplicated.copy_within(8..12, 12);
    let duplicate = TableFile::new(&duplicated).unwrap();
    assert_eq!(
        Table::from_postcard(&encode(&duplicate)),
        Err(DecodeError::Unsorted { index: 3 })
    );

    // Every error has a message.
    assert!(DecodeError::LengthMismatch { count: 2, bytes: 7 }
        .to_string()
        .contains("expected 8"));
}

/// The committed table's records as `(key, value)` pairs.
fn records() -> Vec<(u16, u16)> {
    Table::from_postcard(COMMITTED).unwrap().entries().collect()
}

/// A CRC-valid table file holding `records`, as `from_postcard` sees it.
fn load(records: &[(u16, u16)]) -> Result<usize, DecodeError> {
    let bytes: Vec<u8> = records
        .iter()
        .flat_map(|(k, v)| k.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    Table::from_postcard(&encode(&TableFile::new(&bytes).unwrap())).map(|t| t.len())
}

#[test]
fn well_formed_tables_with_malformed_values_are_refused_at_load() {
    let good = records();
    assert_eq!(load(&good), Ok(629));
    // The first ordinary record (the empty board, a draw in 9).
    let (index, (key, value)) = (0, good[0]);
    let with = |value: u16| {
        let mut r = good.clone();
        r[index] = (key, value);
        load(&r)
    };
    let bad = |value| Err(DecodeError::BadValue { index, key, value });
    // Outcome 3 (no such outcome), plies 0, an empty best set.
    let outcome3 = value | 3 << 13;
    assert_eq!(with(outcome3), bad(outcome3));
    let no_plies = value & !(0xf << 9);
    assert_eq!(with(no_plies), bad(no_plies));
    let no_best = value & !0x1ff;
    assert_eq!(with(no_best), bad(no_best));
    // A best move on an occupied square: X on 0 in the canonical "X........".
    let x0 = good.iter().position(|&(k, _)| k == 1).unwrap();
    let (k, v) = good[x0];
    let mut r = good.clone();
    r[x0] = (k, v | 1);
    assert_eq!(
        load(&r),
        Err(DecodeError::BadValue {
            index: x0,
            key: k,
            value: v | 1
        })
    );
}

#[test]
fn tables_missing_entries_or_with_foreign_keys_are_refused_at_load() {
    let good = records();
    // Only the empty board.
    assert_eq!(
        load(&good[..1]),
        Err(DecodeError::MissingPositions { found: 1 })
    );
    // One position dropped.
    let mut dropped = good.clone();
    dropped.remove(10);
    assert_eq!(
        load(&dropped),
        Err(DecodeError::MissingPositions { found: 626 })
    );
    // A key of a non-canonical position (X on square 2 is X on square 0 turned),
    // of a finished game, and beyond 3^9, each put where key order keeps it sorted.
    let keys: Vec<u16> = good.iter().map(|r| r.0).collect();
    for foreign in [
        "..X......".parse::<Board>().unwrap().base3_index(),
        "XXXOO....".parse::<Board>().unwrap().base3_index(),
    ] {
        assert!(!keys.contains(&foreign));
        let mut r = good.clone();
        let at = keys.partition_point(|&k| k < foreign);
        r.insert(at, (foreign, good[0].1));
        assert_eq!(
            load(&r),
            Err(DecodeError::BadKey {
                index: at,
                key: foreign
            })
        );
    }
    // An extra entry whose position does not announce it.
    let extra = good.iter().position(|&(k, _)| k & 0x8000 != 0).unwrap();
    let owner = good
        .iter()
        .position(|&(k, _)| k == good[extra].0 & 0x7fff)
        .unwrap();
    let mut r = good.clone();
    r[owner].1 &= 0x7fff;
    assert_eq!(
        load(&r),
        Err(DecodeError::BadKey {
            index: extra,
            key: good[extra].0
        })
    );
    // And the position announcing a missing extra entry.
    let mut r = good.clone();
    r.remove(extra);
    assert_eq!(
        load(&r),
        Err(DecodeError::BadValue {
            index: owner,
            key: good[owner].0,
            value: good[owner].1
        })
    );
}

#[test]
fn overlong_varints_are_refused() {
    // The version, 1, as the two-byte varint 0x81 0x00 (postcard writes 0x01).
    let mut bytes = MAGIC.to_vec();
    bytes.extend([0x81, 0x00]);
    bytes.extend(&COMMITTED[MAGIC.len() + 1..]);
    assert_eq!(
        Table::from_postcard(&bytes),
        Err(DecodeError::NonCanonicalVarint)
    );
}

#[test]
fn a_wrong_but_well_formed_value_loads_and_answers_what_the_file_says() {
    // The empty board is a draw with every move best: claim only the centre is.
    let mut r = records();
    r[0].1 = (r[0].1 & !0x1ff) | 1 << 4;
    let bytes: Vec<u8> = r
        .iter()
        .flat_map(|(k, v)| k.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    let file = encode(&TableFile::new(&bytes).unwrap());
    let table = Table::from_postcard(&file).unwrap();
    // The table answers alone: what it holds, not the search's answer.
    let a = table.analyse(&Board::EMPTY).unwrap();
    assert_eq!(a.best().bits(), 1 << 4);
    assert_ne!(Ok(a), tictable::search::analyse(&Board::EMPTY));
}

#[test]
fn json_lists_every_canonical_decision_position() {
    let json: serde_json::Value = serde_json::from_slice(&committed(Format::Json)).unwrap();
    assert_eq!(json["format"], "tictable");
    assert_eq!(json["version"], 1);
    let positions = json["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 627);
    let mut previous_key = None;
    for position in positions {
        let board: Board = position["position"].as_str().unwrap().parse().unwrap();
        assert_eq!(tictable::canonical(board).0, board, "{board} is canonical");
        let key = position["key"].as_u64().unwrap();
        assert_eq!(key, u64::from(tictable::entry::key(board)));
        assert!(previous_key < Some(key), "keys increase");
        previous_key = Some(key);
        let a = analyse(&board).unwrap();
        let squares = |field: &str| -> Vec<u64> {
            position[field]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        };
        let expected = |set: tictable::Squares| -> Vec<u64> {
            set.iter().map(|s| u64::from(s.index())).collect()
        };
        assert_eq!(position["to_move"], a.to_move().to_string());
        assert_eq!(position["outcome"], a.outcome().as_str());
        assert_eq!(position["plies"], a.plies());
        assert_eq!(squares("best"), expected(a.best()));
        assert_eq!(squares("safe"), expected(a.safe()));
    }
}

#[test]
fn format_md_worked_example_holds() {
    // Header bytes as tables/FORMAT.md lists them.
    assert_eq!(
        COMMITTED[..18],
        [
            0x54, 0x49, 0x43, 0x54, 0x41, 0x42, 0x4c, 0x45, 0x01, 0xf5, 0x04, 0xa1, 0xf4, 0xe3,
            0xa1, 0x0e, 0xd4, 0x13
        ]
    );
    assert_eq!(COMMITTED.len(), 2534);
    // XOO..X... -> OOXX..... by mirror left-right, key 44, record 13 at offset 70.
    let board: Board = "XOO..X...".parse().unwrap();
    let (canonical, symmetry) = tictable::canonical(board);
    assert_eq!(
        (canonical.to_string(), symmetry),
        (
            "OOXX.....".to_string(),
            tictable::Symmetry::MIRROR_LEFT_RIGHT
        )
    );
    assert_eq!(tictable::entry::key(canonical), 44);
    assert_eq!(COMMITTED[70..74], [0x2c, 0x00, 0x30, 0xc6]);
    assert_eq!(COMMITTED[2526..2530], [0x2c, 0x80, 0xb0, 0x01]);
    let a = analyse(&board).unwrap();
    assert_eq!((a.best().bits(), a.safe().bits()), (0b11000, 0b11011000));
}
