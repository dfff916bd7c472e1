//! A closed pipe ends the program quietly, as Unix tools do (`tictable map | head`):
//! every subcommand that writes to stdout, writing into a pipe nobody reads, exits
//! with its usual status and says nothing on stderr (no "Broken pipe", no panic).

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
    let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(writer)
        .output()
        .expect("run tictable");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_subcommand_that_writes_ends_quietly_on_a_closed_pipe() {
    let mut loud = Vec::new();
    for args in [
        &["map", "--player", "x"][..],
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
    ] {
        let (code, stderr) = into_closed_pipe(args);
        if code != Some(0) || !stderr.is_empty() {
            loud.push(format!("{args:?}: exit {code:?}, stderr {stderr:?}"));
        }
    }
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}
