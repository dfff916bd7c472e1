//! The `tictable` binary end to end: `play --plain` dialogues (including bad input),
//! `selfplay` output, and usage errors.

use assert_cmd::Command;

fn tictable() -> Command {
    let mut cmd = Command::cargo_bin("tictable").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

fn run_plain(args: &[&str], input: &str) -> String {
    let output = tictable()
        .args(["play", "--plain"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn two_humans_play_a_game_with_bad_input_on_the_way() {
    let out = run_plain(
        &["--x", "human", "--o", "human"],
        "5\nabc\n5\n0\n10\n\n7\n8\n-3\n9\n1\n3\n",
    );
    assert!(out.contains("\"abc\" is not a move."), "{out}");
    assert!(out.contains("square 5 is taken."), "{out}");
    assert!(out.contains("0 is out of range: squares are 1-9."));
    assert!(out.contains("10 is out of range: squares are 1-9."));
    assert!(out.contains("\"-3\" is not a move."));
    // The legal moves X5 O7 X8 O9 X1 O3 were played, the bad ones ignored.
    assert!(
        out.contains(" O | X | O \n---+---+---\n 4 | X | 6 \n---+---+---\n X | 2 | O \n"),
        "{out}"
    );
    // The dialogue ended at the end of the input, cleanly, on X's turn.
    assert!(out.ends_with("X to move > \n"), "{out}");
}

#[test]
fn several_moves_on_one_line_are_refused_not_half_played() {
    let out = run_plain(&["--x", "human", "--o", "human"], "1 5 9\n5\n");
    assert!(
        out.contains("One command per line: \"1 5 9\" was not played."),
        "{out}"
    );
    // Only the 5 of the second line was played: X in the centre, square 1 still empty.
    assert!(
        out.contains(" 4 | X | 6 \n---+---+---\n 1 | 2 | 3 \n"),
        "{out}"
    );
    assert!(out.ends_with("O to move > \n"), "{out}");
}

#[test]
fn a_game_against_the_engine_ends_with_a_result_and_score() {
    // Human X plays badly (two edges); perfect O must win.
    let out = run_plain(
        &["--o", "perfect", "--seed", "7"],
        "8\n4\n1\n3\n2\n6\n9\n7\nq\n",
    );
    assert!(out.contains("O (perfect) plays"), "{out}");
    assert!(out.contains("O wins! Score: X 0 · O 1 · draws 0."), "{out}");
}

#[test]
fn engines_play_each_other_and_undo_returns_to_a_human_turn() {
    let out = run_plain(&["--x", "perfect", "--o", "trap", "--seed", "1"], "n\nq\n");
    assert_eq!(out.matches("Draw. Score:").count(), 2, "{out}");
    assert!(out.contains("Draw. Score: X 0 · O 0 · draws 2."));
    let out = run_plain(&["--o", "perfect", "--seed", "2"], "5\nu\nq\n");
    // After undo the board is empty again and it is X's (the human's) move.
    let last_board = out.rsplit("\n\n").nth(1).unwrap();
    assert!(
        last_board.contains(" 7 | 8 | 9 ") && last_board.contains(" 4 | 5 | 6 "),
        "{out}"
    );
}

#[test]
fn hints_and_save_and_load_and_bad_files() {
    let dir = std::env::temp_dir().join(format!("tictable-plain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("game.json");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"moves":[4,4],"cursor":2}"#).unwrap();
    let input = format!(
        "h\n5\n7\ns {}\nn\nl {}\nl {}\nl {}\nh\nq\n",
        good.display(),
        bad.display(),
        dir.join("missing.json").display(),
        good.display()
    );
    let out = run_plain(&["--x", "human", "--o", "human"], &input);
    assert!(
        out.contains("Hint for X: 1 draw · 2 draw · 3 draw · 4 draw · 5 draw"),
        "{out}"
    );
    assert!(out.contains(&format!("saved to {}.", good.display())));
    assert!(
        out.contains(
            "cannot load: not a valid game: move 2 (square 4) is illegal: square 4 is occupied"
        ),
        "{out}"
    );
    assert!(out.contains("cannot load:") && out.contains("missing.json"));
    assert!(out.contains("game loaded."));
    assert_eq!(
        std::fs::read_to_string(&good).unwrap(),
        "{\"moves\":[4,0],\"cursor\":2}\n"
    );
    // After the bad loads the new (empty) game was untouched, then the good load.
    assert!(out.contains("Hint for X: 1 "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_json_exact_and_sampled() {
    let out = tictable()
        .args([
            "selfplay", "--x", "random", "--o", "random", "--exact", "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["games"], serde_json::Value::Null);
    assert_eq!(v["x_win_exact"], "737/1260");
    assert_eq!(v["o_win_exact"], "121/420");
    assert_eq!(v["draw_exact"], "8/63");
    assert!((v["x_win"].as_f64().unwrap() - 737.0 / 1260.0).abs() < 1e-12);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "x",
            "o",
            "games",
            "x_win",
            "o_win",
            "draw",
            "x_win_exact",
            "o_win_exact",
            "draw_exact"
        ]
    );

    let run = || {
        let out = tictable()
            .args([
                "selfplay",
                "--x",
                "trap@4",
                "--o",
                "perfect:0.15",
                "--games",
                "2000",
                "--seed",
                "5",
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    assert_eq!(first, run(), "the same seed replays the same games");
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["x"], "trap@4");
    assert_eq!(v["o"], "perfect:0.15");
    assert_eq!(v["games"], 2000);
    let sum =
        v["x_win"].as_f64().unwrap() + v["o_win"].as_f64().unwrap() + v["draw"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-12);
    assert_eq!(v["o_win"].as_f64().unwrap(), 0.0);
}

#[test]
fn usage_errors_exit_2_on_stderr_and_help_works() {
    for args in [
        &["selfplay", "--x", "hard", "--o", "random"][..],
        &["selfplay", "--x", "easy:0.2", "--o", "random"],
        &["selfplay", "--x", "random"],
        &[
            "selfplay", "--x", "random", "--o", "random", "--exact", "--games", "5",
        ],
        &["play", "--delay", "-1"],
        &["play", "--o", "robot"],
        &["--bogus"],
    ] {
        let out = tictable().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(!out.stderr.is_empty());
    }
    for args in [
        &["--help"][..],
        &["play", "--help"],
        &["selfplay", "--help"],
    ] {
        let out = tictable().args(args).output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8(out.stdout).unwrap().contains("Usage:"));
    }
}

#[test]
fn no_subcommand_starts_play() {
    let out = tictable()
        .args(["--plain", "--o", "human"])
        .write_stdin("5\nq\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("tictable: X is human, O is human."), "{text}");
    // Without a terminal the full-screen game falls back to the dialogue.
    let out = tictable().write_stdin("q\n").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("X to move > "));
}
