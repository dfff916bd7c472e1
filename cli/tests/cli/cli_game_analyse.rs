//! `tictable analyse --game G` and `tictable verify --game G`: moves valued in the
//! game's own notation, the wrong notation refused (exit 2), a big game read from a
//! table file, a table of another game or a corrupted one refused (exit 1).

use std::process::{Command, Output};
use tictable_games::file::TableFile;

fn tictable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .output()
        .expect("run tictable")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tictable-cli-games2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320), bit by bit as in RFC 1952 §8.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn analyse_values_every_move_in_the_games_notation() {
    // Hexapawn from the start: Black wins in 6 plies (Gardner, 1962); only 2-5 (people)
    // delays the loss that long: 1-4 and 3-6 lose in 4.
    let out = tictable(&["analyse", "--game", "hexapawn", "OOO/.../XXX X"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("X to move: loss in 6. Best: 8-5."),
        "{report}"
    );
    assert!(report.contains("7-4  loss in 4"), "{report}");
    // JSON: the same moves numbered from 0.
    let out = tictable(&["analyse", "--game", "hexapawn", "--json", "OOO/.../XXX X"]);
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(v["value"], "loss");
    assert_eq!(v["remoteness"], 6);
    assert_eq!(v["best"], serde_json::json!(["7-4"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    // Tic-tac-toe through the generic solver: X completes the top row at 3.
    let out = tictable(&["analyse", "--game", "tictactoe", "--json", "XX./OO./..."]);
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(
        (v["value"].as_str(), v["remoteness"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["best"], serde_json::json!(["2"]));
    // Connect Four 4x4 is a draw (Tromp): every opening keeps it.
    let out = tictable(&["analyse", "--game", "connect4:4x4", "..../..../..../...."]);
    assert!(text(&out.stdout).contains("X to move: draw. Best: 1, 2, 3, 4."));
}

#[test]
fn analyse_refuses_the_wrong_notation_and_unreachable_positions() {
    let out = tictable(&["analyse", "--game", "connect4:4x4", "XXXXXXXXX"]);
    assert_eq!(out.status.code(), Some(2));
    let report = text(&out.stdout);
    assert!(report.contains("expected 4 rows of 4 cells"), "{report}");
    // Black to move at the start: not reachable.
    let out = tictable(&["analyse", "--game", "hexapawn", "OOO/.../XXX O"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("not reachable"));
    let out = tictable(&["analyse", "--game", "chess", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("known games"));
    // A big game without a table: told how to make one, before any work.
    // (mnk:4,4,4, 43,046,721 keys, is solved on demand: 100,000,000 at most.)
    let out = tictable(&["analyse", "--game", "mnk:6,3,3", "....../....../......"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("needs a 387420489-byte table")
            && text(&out.stderr).contains("--out DIR"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn analyse_and_verify_read_a_table_file_and_refuse_another_games() {
    let dir = dir();
    let d = dir.to_str().unwrap();
    assert!(tictable(&["solve", "--game", "connect4:4x4", "--out", d])
        .status
        .success());
    let path = dir.join("connect4-4x4.postcard");
    let p = path.to_str().unwrap();
    let out = tictable(&[
        "analyse",
        "--game",
        "connect4:4x4",
        "--table",
        p,
        "..../..../..../X...",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("O to move: draw"));
    let out = tictable(&[
        "verify",
        "--game",
        "connect4:4x4",
        "--table",
        p,
        "--live-budget",
        "2000",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("agree with their children"));
    // The table of another game: the file format's error.
    let out = tictable(&[
        "analyse",
        "--game",
        "connect4:5x4",
        "--table",
        p,
        "..../..../..../.....",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("a table of connect4:4x4, not connect4:5x4"),
        "{}",
        text(&out.stderr)
    );
    let out = tictable(&["verify", "--game", "tictactoe", "--table", p]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn verify_fails_on_a_corrupted_table() {
    let dir = dir();
    let d = dir.to_str().unwrap();
    assert!(tictable(&["solve", "--game", "tictactoe", "--out", d])
        .status
        .success());
    let bytes = std::fs::read(dir.join("tictactoe.postcard")).unwrap();
    let good = dir.join("good.postcard");
    std::fs::write(&good, &bytes).unwrap();
    let out = tictable(&[
        "verify",
        "--game",
        "tictactoe",
        "--table",
        good.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("765 classes agree"));
    // One record byte flipped: the checksum refuses the file.
    let mut file: TableFile = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(
        crc32(&file.records),
        file.checksum,
        "the test's CRC-32 is the file's"
    );
    let last = file.records.len() - 1;
    file.records[last] ^= 0x01;
    let damaged = dir.join("damaged.postcard");
    std::fs::write(&damaged, postcard::to_extend(&file, Vec::new()).unwrap()).unwrap();
    let out = tictable(&[
        "verify",
        "--game",
        "tictactoe",
        "--table",
        damaged.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("checksum"),
        "{}",
        text(&out.stderr)
    );
    // The same flip with the checksum made to match: the consistency check finds it.
    file.checksum = crc32(&file.records);
    let forged = dir.join("forged.postcard");
    std::fs::write(&forged, postcard::to_extend(&file, Vec::new()).unwrap()).unwrap();
    let out = tictable(&[
        "verify",
        "--game",
        "tictactoe",
        "--table",
        forged.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("INCONSISTENT"),
        "{}",
        text(&out.stderr)
    );
}

/// The large Connect Four boards without `--table`: the live search, its start values
/// Tromp's (6x4: the second player wins; 4x6: a draw), a reply's value the same as the
/// start's, and an unreachable position refused.
#[test]
fn analyse_searches_the_large_boards_live() {
    let out = tictable(&[
        "analyse",
        "--game",
        "connect4:6x4",
        "--json",
        "....../....../....../......",
        "....../....../....../..X...",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["value"], "loss", "{}", lines[0]);
    assert_eq!(lines[0]["remoteness"], 24, "{}", lines[0]);
    assert_eq!(lines[0]["moves"][2]["value"], "loss");
    assert_eq!(lines[1]["value"], "win", "{}", lines[1]);
    assert_eq!(lines[1]["remoteness"], 23, "{}", lines[1]);
    let out = tictable(&[
        "analyse",
        "--game",
        "connect4:4x6",
        "..../..../..../..../..../....",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("X to move: draw."),
        "{}",
        text(&out.stdout)
    );
    let out = tictable(&[
        "analyse",
        "--game",
        "connect4:5x5",
        "...../...../...../X..../O....",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("is not reachable"),
        "{}",
        text(&out.stdout)
    );
}
