//! A closed pipe ends the program quietly, as Unix tools do (`tictable map | head`):
//! every subcommand that writes to stdout, writing into a pipe nobody reads, exits
//! with its usual status and says nothing on stderr (no "Broken pipe", no panic).
//! Every other write error (a full disk) is said, with one exit status for every
//! subcommand: 74 (docs/cli.md, "Exit status").

use std::process::{Command, Stdio};

/// Runs `tictable args` with stdout a pipe whose reading end is already closed: every
/// write fails with EPIPE. Its exit status and stderr.
fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    // The pipe's reading end goes to `true`, which exits without reading; once it
    // has, no process holds that end (the parent closed its copy at the spawn).
    let mut reader = Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("run true");
    let writer = reader.stdin.take().expect("the pipe's writing end");
    assert!(reader.wait().expect("true ends").success());
    with_stdout(args, writer.into())
}

/// Runs `tictable args` writing to `stdout`: its exit status and stderr.
fn with_stdout(args: &[&str], stdout: Stdio) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .expect("run tictable");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every subcommand that writes to stdout, with the arguments the tests give it.
const WRITERS: [&[&str]; 15] = [
    &["map", "--player", "x"],
    &["analyse", "X...O...."],
    &["verify"],
    &[
        "selfplay", "--x", "random", "--o", "random", "--games", "10",
    ],
    &["selfplay", "--x", "random", "--o", "random", "--exact"],
    &[
        "selfplay", "--x", "random", "--o", "random", "--exact", "--json",
    ],
    &["export", "--format", "json"],
    &["stats", "--runs", "1"],
    &["stats", "--runs", "1", "--json"],
    &["play", "--plain"],
    &["--help"],
    &["simulate", "--games", "1"],
    &["simulate", "--games", "1", "--json"],
    &["puzzle", "--seed", "1", "--json"],
    &["puzzle", "--seed", "1"],
];

#[test]
fn every_subcommand_that_writes_ends_quietly_on_a_closed_pipe() {
    let mut loud = Vec::new();
    for args in WRITERS {
        let (code, stderr) = into_closed_pipe(args);
        if code != Some(0) || !stderr.is_empty() {
            loud.push(format!("{args:?}: exit {code:?}, stderr {stderr:?}"));
        }
    }
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

/// Runs `tictable args` with stdout `/dev/full` (every write fails with ENOSPC): its
/// exit status and stderr.
fn into_full_disk(args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    with_stdout(args, full.into())
}

#[test]
fn a_write_error_is_said_with_status_74_by_every_subcommand() {
    // Issue 34 item 13: `/dev/full` ended selfplay with 1 and analyse with 2.
    let mut wrong = Vec::new();
    let dir = std::env::temp_dir().join(format!("tictable-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let into_dir = dir.to_str().unwrap();
    let mut cases: Vec<(Vec<&str>, &str)> = WRITERS
        .iter()
        .map(|args| (args.to_vec(), "cannot write stdout: "))
        .collect();
    // Files named with --output: a full disk, and a directory.
    for file in ["/dev/full", into_dir] {
        cases.push((vec!["export", "--format", "c", "--output", file], file));
        cases.push((vec!["map", "--player", "o", "--output", file], file));
    }
    for (args, said) in &cases {
        let (code, stderr) = into_full_disk(args);
        let first = stderr.lines().next().unwrap_or("");
        if code != Some(74)
            || !first.starts_with("tictable: cannot write ")
            || !first.contains(said)
        {
            wrong.push(format!("{args:?}: exit {code:?}, stderr {stderr:?}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The help says so, as docs/cli.md does.
    let help = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .arg("--help")
        .output()
        .expect("run tictable");
    let help = String::from_utf8_lossy(&help.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("74 the output could not be written"),
        "{help}"
    );
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/cli.md")).unwrap();
    assert!(
        docs.contains("| 74 | the output could not be written"),
        "docs/cli.md"
    );
}

#[test]
fn input_that_cannot_be_read_is_bad_input_with_status_2() {
    // A directory as stdin: every read fails (EISDIR). Not a write error.
    for args in [&["analyse", "-"][..], &["play", "--plain"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
            .args(args)
            .stdin(std::fs::File::open(std::env::temp_dir()).expect("open a directory"))
            .output()
            .expect("run tictable");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("cannot read"), "{args:?}: {stderr}");
        assert!(!stderr.contains("cannot write"), "{args:?}: {stderr}");
    }
}
