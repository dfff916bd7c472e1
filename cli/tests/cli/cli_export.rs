//! `tictable export`: each format on standard output and with `-o` equals the committed
//! artefact in `tables/` byte for byte; bad arguments and unwritable files fail cleanly.

use std::path::Path;
use std::process::{Command, Output};

fn tictable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .output()
        .expect("run tictable")
}

fn committed(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("tables")
            .join(name),
    )
    .unwrap()
}

const FORMATS: [(&str, &str); 4] = [
    ("postcard", "tictactoe.postcard"),
    ("c", "tictactoe.h"),
    ("json", "tictactoe.json"),
    ("python", "tictactoe.py"),
];

#[test]
fn export_to_stdout_equals_the_committed_tables() {
    for (format, file) in FORMATS {
        let output = tictable(&["export", "--format", format]);
        assert!(output.status.success(), "{format}: {output:?}");
        assert!(output.stderr.is_empty());
        assert!(
            output.stdout == committed(file),
            "`tictable export --format {format}` differs from tables/{file}: regenerate it \
             with `cargo run -- export --format {format} -o tables/{file}`"
        );
    }
}

#[test]
fn export_to_a_file_equals_the_committed_tables() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_export");
    std::fs::create_dir_all(&dir).unwrap();
    for (format, file) in FORMATS {
        let path = dir.join(file);
        let _ = std::fs::remove_file(&path);
        let output = tictable(&["export", "--format", format, "-o", path.to_str().unwrap()]);
        assert!(output.status.success(), "{format}: {output:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), committed(file), "{format}");
    }
}

#[test]
fn export_errors() {
    let output = tictable(&["export", "--format", "xml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("possible values: postcard, c, json, python"));

    let output = tictable(&["export"]);
    assert_eq!(output.status.code(), Some(2));

    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no/such/dir/t.h");
    let output = tictable(&["export", "--format", "c", "-o", missing.to_str().unwrap()]);
    // A file that cannot be written is a write error (docs/cli.md, "Exit status").
    assert_eq!(output.status.code(), Some(74));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("tictable: cannot write ") && stderr.contains("t.h"),
        "{stderr}"
    );
    assert!(!missing.exists());
}

/// `export --game G`: every format of any game's best-move tables; the postcard file
/// reads back as that game only.
#[test]
fn export_game_best_moves_in_every_format() {
    use tictable_games::{best_file, solve, Hexapawn, TicTacToe};
    let solution = solve(Hexapawn).unwrap();
    let tables = best_file::tables(&solution).unwrap();
    let output = tictable(&["export", "--game", "hexapawn", "--format", "postcard"]);
    assert!(output.status.success());
    assert_eq!(
        best_file::from_postcard(&Hexapawn, &output.stdout).unwrap(),
        tables
    );
    let refused = best_file::from_postcard(&TicTacToe::normal(), &output.stdout).unwrap_err();
    assert_eq!(refused.to_string(), "a table of hexapawn, not tictactoe");
    let output = tictable(&["export", "--game", "hexapawn", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["game"], "hexapawn");
    assert_eq!(json["sides"][0]["entries"], tables[0].entries());
    let output = tictable(&["export", "--game", "hexapawn", "--format", "c"]);
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("hexapawn_best_moves("));
    let output = tictable(&["export", "--game", "hexapawn", "--format", "python"]);
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("def best_moves(cells, side):"));
}

#[test]
fn export_game_errors() {
    let output = tictable(&["export", "--game", "chess", "--format", "c"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("tictactoe"));
    // A game too large to solve on demand asks for its table file.
    let output = tictable(&["export", "--game", "connect4:6x4", "--format", "c"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--table"));
    // A table file of another game is refused.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_export_game");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hexapawn.postcard");
    let solution = tictable_games::solve(tictable_games::Hexapawn).unwrap();
    std::fs::write(&file, tictable_games::file::to_postcard(&solution)).unwrap();
    let output = tictable(&[
        "export",
        "--game",
        "achi",
        "--format",
        "c",
        "--table",
        file.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a table of hexapawn, not achi"));
}
