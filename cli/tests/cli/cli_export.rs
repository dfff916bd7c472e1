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
