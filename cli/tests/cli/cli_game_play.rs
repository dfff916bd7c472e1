//! `play --game G --plain` and `selfplay --game G --exact` end to end: each game's
//! board, moves in its notation (and the notation in `--help` and in the error for a
//! bad move), saves that name their game, games too large to solve on demand refused
//! with the size they need, and exact probabilities checked against published ones.

use super::support::{play_plain, tictable};

/// `play --plain --seed 1 ARGS` fed `input`.
fn plain(args: &[&str], input: &str) -> String {
    play_plain(&[&["--seed", "1"], args].concat(), input)
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
    // Seed 1: O answered 2 in column 2.
    assert!(out.contains("│. O . .│\n  │. X . .│"), "{out}");
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

/// `selfplay --game G --exact --json` as a JSON value.
fn exact_json(args: &[&str]) -> serde_json::Value {
    let output = tictable()
        .args(["selfplay", "--exact", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn selfplay_exact_matches_the_players_table_in_docs_players_md() {
    // The rows of docs/players.md's table of every level of every game (written by
    // scripts/players-table from tictable_games::players::outcome_probabilities),
    // each cell `win / draw / loss` for the level: `selfplay --game G --exact` must
    // give the same fractions.
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/players.md"),
    )
    .unwrap();
    let opponents = ["random", "epsilon:0.1", "epsilon:0.3", "perfect"];
    let mut checked = 0;
    for (game, level, side, column) in [
        ("misere", "sharp", "X", 0),
        ("misere", "gentle:0", "O", 2),
        ("misere", "adaptive", "O", 1),
        ("hexapawn", "gentle:0.5", "X", 1),
        ("hexapawn", "perfect", "X", 3),
    ] {
        let row = format!("| {game} | `{level}` | {side} | ");
        let line = docs
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("no row {row} in docs/players.md"));
        let cell = line[row.len()..].split(" | ").nth(column).unwrap();
        let fractions: Vec<&str> = cell
            .split(" / ")
            .map(|part| part.split(' ').next().unwrap())
            .collect();
        let opponent = opponents[column];
        let (x, o) = if side == "X" {
            (level, opponent)
        } else {
            (opponent, level)
        };
        let v = exact_json(&["--game", game, "--x", x, "--o", o]);
        let (win, loss) = if side == "X" {
            ("x_win_exact", "o_win_exact")
        } else {
            ("o_win_exact", "x_win_exact")
        };
        assert_eq!(
            [&v[win], &v["draw_exact"], &v[loss]],
            [fractions[0], fractions[1], fractions[2]],
            "{game}: X {x} vs O {o}"
        );
        checked += 1;
    }
    assert_eq!(checked, 5);
    // The table's figure the brief names: sharp against random in misère, as X.
    let v = exact_json(&["--game", "misere", "--x", "sharp", "--o", "random"]);
    assert_eq!(v["x_win_exact"], "29/48");
}

#[test]
fn every_level_of_the_players_plays_every_game_and_the_others_are_refused() {
    for level in [
        "sharp",
        "gentle:0.3",
        "adaptive",
        "epsilon:0.2",
        "hard",
        "random",
    ] {
        let out = plain(&["--game", "hexapawn", "--x", level, "--o", "perfect"], "");
        assert!(
            out.contains("Game over: Black (perfect) wins."),
            "{level}:\n{out}"
        );
    }
    for (subcommand, args, said) in [
        ("play", &["--o", "gentle:1.5"][..], "F from 0 to 1"),
        (
            "selfplay",
            &["--x", "gentle:1.5", "--o", "random"][..],
            "F from 0 to 1",
        ),
        ("play", &["--o", "medium"][..], "plays tic-tac-toe only"),
        (
            "selfplay",
            &["--x", "trap", "--o", "random"][..],
            "plays tic-tac-toe only",
        ),
        (
            "selfplay",
            &["--x", "sharp@5", "--o", "random"][..],
            "epsilon:E",
        ),
    ] {
        let output = tictable()
            .args([subcommand, "--game", "hexapawn"])
            .args(if subcommand == "play" {
                &["--plain"][..]
            } else {
                &["--exact"][..]
            })
            .args(args)
            .write_stdin("")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{subcommand} {args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains(said), "{subcommand} {args:?}: {err}");
    }
    // The morris games: perfect or random only, said so.
    let output = tictable()
        .args(["play", "--plain", "--game", "tapatan", "--o", "sharp"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("perfect (or hard) or random"), "{err}");
    let out = plain(&["--game", "tapatan", "--o", "random"], "5\nq\n");
    assert!(out.contains("O (random) plays"), "{out}");
}

#[test]
fn adaptive_shows_its_estimate_of_the_person_in_every_game() {
    // In connect4:4x4 (a draw) the person drops into columns 1, 4, 1, 4, ...: some
    // of these give value away, and the estimate of ε moves off the prior's 0.5.
    let out = plain(
        &["--game", "connect4:4x4", "--o", "adaptive"],
        "1\n4\n1\n4\n1\n4\n2\n3\nq\n",
    );
    let estimates: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split("you play like ε ≈ ").nth(1))
        .filter_map(|rest| rest.split(')').next())
        .collect();
    assert!(estimates.len() >= 4, "{out}");
    assert_eq!(estimates[0], "0.5", "the prior's mean: {out}");
    assert!(
        estimates.iter().any(|e| *e != "0.5"),
        "the estimate moves: {estimates:?}\n{out}"
    );
}
