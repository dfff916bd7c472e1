//! Set-ups the `play` tests share (cli_play, cli_game_play): the program with colour
//! off, and a `play --plain` dialogue fed its input.

use assert_cmd::Command;

/// `tictable`, with `NO_COLOR` set.
pub fn tictable() -> Command {
    let mut cmd = Command::cargo_bin("tictable").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

/// `tictable play --plain ARGS` fed `input`: what it wrote on stdout (it must succeed).
pub fn play_plain(args: &[&str], input: &str) -> String {
    let output = tictable()
        .args(["play", "--plain"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}
