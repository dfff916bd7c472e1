//! The table file: read back exactly, byte-reproducible, and refused for another game,
//! other rules, another version or damage, with the reason.

use tictable_games::file::{self, FileError, TableFile};
use tictable_games::{check, solve, Hexapawn, Morris, TicTacToe};

fn reencode(bytes: &[u8], change: impl FnOnce(&mut TableFile)) -> Vec<u8> {
    let mut table: TableFile = postcard::from_bytes(bytes).unwrap();
    change(&mut table);
    postcard::to_allocvec(&table).unwrap()
}

#[test]
fn a_table_reads_back_exactly_and_checks_out() {
    let solution = solve(Morris::tapatan()).unwrap();
    let bytes = file::to_postcard(&solution);
    let loaded = file::from_postcard(Morris::tapatan(), &bytes).unwrap();
    assert_eq!(loaded.table(), solution.table());
    assert_eq!(loaded.summary(), solution.summary());
    assert_eq!(check::consistency(&loaded), Ok(744));
    // The same game gives the same bytes.
    assert_eq!(file::to_postcard(&solve(Morris::tapatan()).unwrap()), bytes);
    // Two bytes per class or so: 744 classes.
    assert!(bytes.len() < 744 * 3 + 300, "{}", bytes.len());
}

#[test]
fn a_table_of_another_game_rules_or_version_is_refused() {
    let bytes = file::to_postcard(&solve(TicTacToe::normal()).unwrap());
    let refused = |bytes: &[u8]| {
        file::from_postcard(TicTacToe::normal(), bytes)
            .err()
            .unwrap()
    };
    // Misère has the same board and key space: only the header tells them apart.
    let error = file::from_postcard(TicTacToe::misere(), &bytes)
        .err()
        .unwrap();
    assert_eq!(error.to_string(), "a table of tictactoe, not misere");
    let other_rules = reencode(&bytes, |t| t.rules.push_str(" (variant)"));
    assert!(matches!(refused(&other_rules), FileError::Rules { .. }));
    let version = reencode(&bytes, |t| t.version = 2);
    assert_eq!(
        refused(&version).to_string(),
        "table format version 2; this program reads version 1 (write the file again with this program)"
    );
}

#[test]
fn damaged_or_foreign_bytes_are_refused_never_read() {
    let bytes = file::to_postcard(&solve(Hexapawn).unwrap());
    let refused = |bytes: &[u8]| file::from_postcard(Hexapawn, bytes).err().unwrap();
    assert_eq!(refused(b"TICTABLE and more"), FileError::Magic);
    assert_eq!(refused(&bytes[..bytes.len() - 1]), FileError::Decode);
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40; // a record byte: its value changes
    assert_eq!(refused(&damaged), FileError::Checksum);
    // A well-formed file whose records are not: a key gap of 0 repeats a class.
    let repeated = reencode(&bytes, |t| {
        t.records.extend([0, 0x80]);
        t.entries += 1;
        t.checksum = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(&t.records);
    });
    assert_eq!(refused(&repeated), FileError::Records);
    // Every truncation is refused without a panic.
    for end in 0..bytes.len() {
        assert!(
            file::from_postcard(Hexapawn, &bytes[..end]).is_err(),
            "{end}"
        );
    }
}
