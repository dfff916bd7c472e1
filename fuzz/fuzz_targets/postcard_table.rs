//! Fuzz the postcard table loader, `tictable::portable::Table::from_postcard`.
//!
//! 1. The raw input as a file: any bytes give an error or a table, never a panic.
//! 2. The input as entry records inside a well-formed file (correct count and
//!    checksum, so the fuzzer gets past the checksum): unsorted keys are refused as
//!    such, sorted ones load only when every record is a legal analysis of a
//!    canonical position and all 627 are there; a table that loads answers every
//!    valid position from its records alone (no missing or malformed entry) with a
//!    well-formed analysis.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::portable::{DecodeError, Table, TableFile, RECORD_SIZE};
use tictable::solve::board_of_index;

fuzz_target!(|data: &[u8]| {
    if let Ok(table) = Table::from_postcard(data) {
        check(&table);
    }

    let records = &data[..data.len() / RECORD_SIZE * RECORD_SIZE];
    let Some(file) = TableFile::new(records) else {
        return;
    };
    let bytes = postcard::to_extend(&file, Vec::new()).expect("serialize to a Vec");
    let sorted = records
        .chunks_exact(RECORD_SIZE)
        .map(|r| u16::from_le_bytes([r[0], r[1]]))
        .collect::<Vec<_>>()
        .windows(2)
        .all(|w| w[0] < w[1]);
    match Table::from_postcard(&bytes) {
        Ok(table) => {
            assert!(sorted);
            assert_eq!(table.len(), records.len() / RECORD_SIZE);
            check(&table);
        }
        Err(DecodeError::Unsorted { .. }) => assert!(!sorted),
        Err(
            DecodeError::BadKey { .. }
            | DecodeError::BadValue { .. }
            | DecodeError::MissingPositions { .. },
        ) => assert!(sorted),
        Err(e) => panic!("a well-formed file was refused for its header: {e}"),
    }
});

/// Lookups in an accepted table: every stored key's position, and its neighbours.
fn check(table: &Table) {
    let mut previous = None;
    for (key, value) in table.entries() {
        assert!(previous < Some(key));
        previous = Some(key);
        assert_eq!(table.get(key), Some(value));
        for index in [key & 0x7fff, key.wrapping_add(1) & 0x7fff] {
            if index >= 19683 {
                continue;
            }
            let board = board_of_index(index);
            if board.validate().is_err() {
                continue;
            }
            // Validated at load: the table answers every valid position.
            let a = table.analyse(&board).expect("a loaded table answers");
            assert!(!a.best().is_empty() || a.is_terminal());
            assert!(a.best().is_subset(a.safe()));
            assert!(a.safe().is_subset(board.empty_squares()));
        }
    }
}
