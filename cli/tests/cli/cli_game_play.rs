//! `play --game G --plain` and `selfplay --game G --exact` end to end: each game's
//! board, moves in its notation (and the notation in `--help` and in the error for a
//! bad move), saves that name their game, games too large to solve on demand refused
//! with the size they need, and exact probabilities checked against published ones.

use assert_cmd::Command;

fn tictable() -> Command {
    let mut cmd = Command::cargo_bin("tictable").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

fn plain(args: &[&str], input: &str) -> String {
    let output = tictable()
        .args(["play", "--plain", "--seed", "1"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_game_is_drawn_as_its_own_and_takes_its_own_moves() {
    for (game, first, drawn) in [
        ("misere", "5", " 4 │ X │ 6 "),
        ("mnk:4,3,3", "12", "  9 │ 10 │ 11 │  X "),
        ("connect4:4x4", "2", "│. X . .│"),
        ("three-mens-morris", "5", "4───X───6   4───5───6"),
        ("tapatan", "1", "│ ╲ │ ╱ │   │ ╲ │ ╱ │"),
        ("achi", "9", "7───8───X   7───8───9"),
        ("hexapawn", "8-5", "4 W 6   4 5 6"),
    ] {
        let out = plain(&["--game", game, "--o", "human"], &format!("{first}\n"));
        assert!(out.contains(drawn), "{game}:\n{out}");
        assert_eq!(
            out.matches(" (person) to move").count(),
            2,
            "{game}:\n{out}"
        );
    }
}

#[test]
fn a_bad_move_names_the_notation_and_the_legal_moves() {
    let out = plain(&["--game", "hexapawn"], "5\n");
    assert!(
        out.contains("`5` is not a legal move here (moves are from-to, squares 1-9"),
        "{out}"
    );
    assert!(out.contains("legal: 7-4, 8-5, 9-6"), "{out}");
    let help = tictable().args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("from-to for a pawn (hexapawn: `8-5`)"),
        "{help}"
    );
    assert!(help.contains("a column (connect4:WxH)"), "{help}");
}

#[test]
fn two_engines_play_a_game_to_its_end_each_move_with_its_value() {
    // Gardner (1962): the second player wins hexapawn.
    let out = plain(
        &["--game", "hexapawn", "--x", "perfect", "--o", "perfect"],
        "",
    );
    assert!(
        out.contains("White (perfect) plays 8-5: loss in 6"),
        "{out}"
    );
    assert!(out.contains("Game over: Black (perfect) wins."), "{out}");
}

#[test]
fn undo_hints_save_and_load_and_another_games_save_is_refused() {
    let dir = std::env::temp_dir().join(format!("tictable-game-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c4.json");
    let file = file.to_str().unwrap();
    let out = plain(
        &["--game", "connect4:4x4", "--file", file],
        "h\n1\nu\n2\ns\nq\n",
    );
    assert!(
        out.contains("Hints: 1 draw, 2 draw, 3 draw, 4 draw"),
        "{out}"
    );
    assert!(out.contains("O (perfect) plays"), "{out}");
    let saved = std::fs::read_to_string(file).unwrap();
    assert!(
        saved.starts_with(r#"{"game":"connect4:4x4","moves":["1","#),
        "{saved}"
    );
    let out = plain(&["--game", "connect4:4x4", "--file", file], "l\n");
    assert!(out.contains(&format!("Loaded {file}.")), "{out}");
    // Seed 1: O answered 2 in column 1.
    assert!(out.contains("│O X . .│"), "{out}");
    let out = plain(&["--game", "hexapawn", "--file", file], "l\n");
    assert!(
        out.contains("a saved game of connect4:4x4, not of hexapawn"),
        "{out}"
    );
    let out = plain(
        &["--game", "hexapawn"],
        &format!("l {}\n", dir.join("none.json").display()),
    );
    assert!(
        out.contains("Not loaded: ") && out.contains("none.json"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_games_and_levels_are_usage_errors() {
    for (args, said) in [
        (&["--game", "chess"][..], "known games: tictactoe"),
        (&["--game", "mnk:4,4,4"][..], "needs a 43046721-byte table"),
        (
            &["--game", "hexapawn", "--o", "trap"][..],
            "plays tic-tac-toe only",
        ),
        (
            &["--game", "tapatan", "--clock", "5"][..],
            "for tic-tac-toe only",
        ),
    ] {
        let output = tictable()
            .args(["play", "--plain"])
            .args(args)
            .write_stdin("")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

#[test]
fn selfplay_exact_for_games_without_repeats() {
    let exact = |args: &[&str]| {
        let output = tictable()
            .args(["selfplay", "--exact", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    // Two random players of tic-tac-toe: X wins 737/1260, O 121/420, draws 8/63
    // (the classic count over all 255,168 games, e.g. Schaefer, "Tic-tac-toe
    // (Naughts and crosses, Cheese and Crackers, etc.)", 2002). In misère the same
    // games end on the same move, which loses: the wins swap.
    let v = exact(&["--game", "misere", "--x", "random", "--o", "random"]);
    assert_eq!(v["x_win_exact"], "121/420");
    assert_eq!(v["o_win_exact"], "737/1260");
    assert_eq!(v["draw_exact"], "8/63");
    assert_eq!(v["game"], "misere");
    // Gardner: perfect Black wins hexapawn against anything.
    let v = exact(&["--game", "hexapawn", "--x", "random", "--o", "perfect"]);
    assert_eq!(v["o_win_exact"], "1");
    let output = tictable()
        .args([
            "selfplay", "--exact", "--game", "achi", "--x", "random", "--o", "perfect",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("positions repeat"));
}
