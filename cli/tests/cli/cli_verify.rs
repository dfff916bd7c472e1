//! `tictable verify`: the compiled tables and, with `--table FILE`, a postcard table
//! file checked position by position against the live search; a file that does not
//! load, or one wrong answer, fails with exit status 1.

use std::process::{Command, Output};
use tictable::portable::{Table, TableFile};

const COMMITTED: &[u8] = include_bytes!("../../../tables/tictactoe.postcard");

fn tictable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .output()
        .expect("run tictable")
}

/// Writes `bytes` to a fresh file named `name` in the test's temporary folder.
fn file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tictable-cli-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The committed table with record `index`'s value replaced by `value` (CRC fixed).
fn with_value(index: usize, value: u16) -> Vec<u8> {
    let mut records: Vec<(u16, u16)> = Table::from_postcard(COMMITTED).unwrap().entries().collect();
    records[index].1 = value;
    let bytes: Vec<u8> = records
        .iter()
        .flat_map(|(k, v)| k.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    postcard::to_extend(&TableFile::new(&bytes).unwrap(), Vec::new()).unwrap()
}

/// The committed table's value for record 0: the empty board.
fn empty_board_value() -> u16 {
    let (key, value) = Table::from_postcard(COMMITTED)
        .unwrap()
        .entries()
        .next()
        .unwrap();
    assert_eq!(key, 0, "record 0 is the empty board");
    value
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_compiled_tables_verify() {
    let out = tictable(&["verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("compiled tables: 5478 positions checked, 0 mismatches"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_committed_table_file_verifies() {
    let path = file("good.postcard", COMMITTED);
    let out = tictable(&["verify", "--table", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("5478 positions checked, 0 mismatches"));
}

#[test]
fn a_well_formed_but_wrong_table_fails_position_by_position() {
    // The empty board (record 0, a draw with every move best) claims only the centre.
    let value = empty_board_value();
    let path = file("wrong.postcard", &with_value(0, (value & !0x1ff) | 1 << 4));
    let out = tictable(&["verify", "--table", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 mismatches"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("mismatch at ........."),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_table_that_does_not_load_fails_with_the_reason() {
    let value = empty_board_value();
    for (name, bytes, reason) in [
        (
            "malformed.postcard",
            with_value(0, value | 3 << 13),
            "not a valid analysis",
        ),
        ("truncated.postcard", COMMITTED[..100].to_vec(), "truncated"),
        ("foreign.postcard", b"GIF89a".to_vec(), "bad magic"),
    ] {
        let path = file(name, &bytes);
        let out = tictable(&["verify", "--table", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(stderr(&out).contains(reason), "{name}: {}", stderr(&out));
    }
    let out = tictable(&["verify", "--table", "/nonexistent/table.postcard"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("/nonexistent/table.postcard"));
}
