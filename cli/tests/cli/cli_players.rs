//! The players of issue 36 on the command line: one level parser for every
//! subcommand (a bad `gentle:F` gets F's range and exit 2 everywhere), sharp's exact
//! figure, and adaptive's estimate shown in `play --plain`.

use crate::cli_analyse::tictable;

#[test]
fn a_bad_gentle_gets_its_range_and_exit_2_in_every_subcommand() {
    for bad in ["gentle:1.5", "gentle:-0.1", "gentle:x", "gentle:"] {
        for args in [
            vec!["selfplay", "--x", bad, "--o", "random", "--exact"],
            vec!["selfplay", "--x", "random", "--o", bad],
            vec!["play", "--plain", "--x", bad],
            vec!["simulate", "--level", bad, "--games", "1"],
        ] {
            let out = tictable(&args, b"");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("F from 0 to 1"), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn sharp_wins_191_of_192_as_x_against_random() {
    // The figure the dynamic programme of tests/engine/players.rs proves the highest.
    let out = tictable(
        &[
            "selfplay", "--x", "sharp", "--o", "random", "--exact", "--json",
        ],
        b"",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"x_win_exact\":\"191/192\""), "{text}");
    assert!(text.contains("\"o_win_exact\":\"0\""), "{text}");
}

#[test]
fn adaptive_shows_its_estimate_in_the_plain_game() {
    // X (the person) opens in a corner, then leaves O's win open: a careless move.
    let out = tictable(&["play", "--plain", "--o", "adaptive"], b"1\n3\n8\n6\nq\n");
    let text = String::from_utf8_lossy(&out.stdout);
    let estimates: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("you play like ε ≈ ").nth(1))
        .collect();
    assert!(estimates.len() >= 3, "{text}");
    assert_eq!(
        estimates[0].split(')').next(),
        Some("0.5"),
        "the prior's mean: {text}"
    );
}
