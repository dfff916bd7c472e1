//! `play --game G --plain` and `selfplay --game G --exact` end to end: each game's
//! board, moves in its notation (and the notation in `--help` and in the error for a
//! bad move), saves that name their game, games too large to solve on demand refused
//! with the size they need, the large Connect Four boards played from the live search
//! (each engine reply checked against `analyse --game`), and exact probabilities
//! checked against published ones.

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
fn new_load_and_quit_ask_before_an_unsaved_game_is_lost() {
    // As tic-tac-toe's --plain and the full screen: n, l and q on a game in progress
    // that is not saved ask first (y does it, n keeps the game, anything else asks
    // again); a saved game, or a file that cannot be loaded, asks nothing.
    let dir = std::env::temp_dir().join(format!("tictable-game-ask-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c4.json");
    let file = file.to_str().unwrap();
    let game = ["--game", "connect4:4x4", "--file", file];
    let empty = "  │. . . .│\n  │. . . .│\n  │. . . .│\n  │. . . .│\n";
    // X 1, O 1 (seed 1), saved: n starts anew at once.
    let out = plain(&game, "1\ns\nn\n");
    assert!(
        out.contains(&format!("> n\n\n   1 2 3 4\n{empty}")),
        "{out}"
    );
    // X 3, not saved: n asks; a wrong answer asks again, n keeps the game, y starts anew.
    let new = "This game is not saved: discard it and start a new one? (y/n) > ";
    let out = plain(&game, "3\nn\nmaybe\nn\nn\ny\n");
    assert!(
        out.contains(&format!(
            "> n\n{new}maybe\nPlease answer y or n.\n{new}n\nNothing done.\n> n\n{new}y\n\n   1 2 3 4\n{empty}"
        )),
        "{out}"
    );
    assert_eq!(out.matches(empty).count(), 2, "{out}");
    // l: a file that does not load is said at once; the saved game asks, n keeps
    // the game, y loads it.
    let none = dir.join("none.json");
    let load = format!("This game is not saved: discard it and load {file}? (y/n) > ");
    let out = plain(&game, &format!("3\nl {}\nl\nn\nl\ny\n", none.display()));
    assert!(
        out.contains(&format!(
            "> l {}\nNot loaded: {}: No such file",
            none.display(),
            none.display()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "> l\n{load}n\nNothing done.\n> l\n{load}y\nLoaded {file}.\n"
        )),
        "{out}"
    );
    assert!(out.contains("│O . . .│\n  │X . . .│"), "{out}");
    // q asks too: n plays on, y quits (the moves after it never read).
    let quit = "This game is not saved: discard it and quit? (y/n) > ";
    let out = plain(&game, "3\nq\nn\n4\nq\ny\n2\n");
    assert!(
        out.contains(&format!("> q\n{quit}n\nNothing done.\n> 4\n")),
        "{out}"
    );
    assert!(out.ends_with(&format!("> q\n{quit}y\n")), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_games_and_levels_are_usage_errors() {
    for (args, said) in [
        (&["--game", "chess"][..], "known games: tictactoe"),
        (&["--game", "mnk:6,3,3"][..], "needs a 387420489-byte table"),
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

/// What a `play --plain --game connect4:WxH` transcript shows, in order: each board
/// drawn (as the game writes positions: rows top first joined by `/`), and the other
/// lines.
#[derive(Debug)]
enum Shown {
    Board(String),
    Line(String),
}

/// The transcript `out` read into boards and lines.
fn shown(out: &str) -> Vec<Shown> {
    let mut shown = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    for line in out.lines() {
        if let Some(row) = line.strip_prefix("  │") {
            rows.push(row.trim_end_matches('│').replace(' ', ""));
            continue;
        }
        if !rows.is_empty() {
            shown.push(Shown::Board(rows.join("/")));
            rows.clear();
        }
        if !line.starts_with("  └") && !line.trim().is_empty() {
            shown.push(Shown::Line(line.to_string()));
        }
    }
    shown
}

/// `analyse --game GAME --json` of `positions`, one object each.
fn analysed(game: &str, positions: &[String]) -> Vec<serde_json::Value> {
    let output = tictable()
        .args(["analyse", "--game", game, "--json", "-"])
        .write_stdin(positions.join("\n") + "\n")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), positions.len());
    lines
}

/// A move's value as the dialogue says it (`loss in 24`, `draw`) from `analyse
/// --json`'s move object.
fn said_value(mv: &serde_json::Value) -> String {
    match mv["remoteness"].as_u64() {
        Some(r) => format!("{} in {r}", mv["value"].as_str().unwrap()),
        None => mv["value"].as_str().unwrap().to_string(),
    }
}

/// The move objects of `analyse --json`'s `line` for the column `column` (people's
/// numbering, from 1).
fn column_move(line: &serde_json::Value, column: usize) -> &serde_json::Value {
    line["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"].as_str().and_then(|s| s.parse().ok()) == Some(column - 1))
        .unwrap_or_else(|| panic!("no column {column} in {line}"))
}

/// A whole game on a board searched live, the person on one side (dropping into the
/// columns in turn, `w` after each move) and perfect on the other: every engine reply
/// is one of `analyse --game`'s best moves, said with its value there; every mistake
/// sentence names the person's move and the best moves with their values there.
fn against_perfect(game: &str, width: usize, person_first: bool) {
    let mut input = String::new();
    for _ in 0..12 {
        for column in 1..=width {
            input.push_str(&format!("{column}\nw\n"));
        }
    }
    input.push_str("q\n");
    let seats: &[&str] = if person_first {
        &["--o", "perfect"]
    } else {
        &["--x", "perfect", "--o", "human"]
    };
    let out = plain(&[&["--game", game][..], seats].concat(), &input);
    assert!(out.contains("Game over: "), "{game}:\n{out}");
    // Each engine move with the position it was played in; each mistake sentence with
    // the person's move and the position before it.
    let mut replies: Vec<(String, usize, String)> = Vec::new();
    let mut mistakes: Vec<(String, String)> = Vec::new();
    let mut board = String::new();
    let mut typed: Option<(String, String)> = None;
    let mut person: Option<(String, String)> = None;
    let mut refutation = false;
    for item in shown(&out) {
        match item {
            Shown::Board(_) if refutation => refutation = false,
            Shown::Board(b) => {
                if let Some((before, column)) = typed.take() {
                    if b != before {
                        person = Some((before, column));
                    }
                }
                board = b;
            }
            Shown::Line(line) => {
                if let Some(column) = line.strip_prefix("> ") {
                    if column.chars().all(|c| c.is_ascii_digit()) {
                        typed = Some((board.clone(), column.to_string()));
                    }
                } else if let Some((_, said)) = line.split_once(" (perfect) plays ") {
                    let (column, value) = said.split_once(": ").unwrap();
                    replies.push((board.clone(), column.parse().unwrap(), value.into()));
                } else if line.contains("is a mistake where") {
                    let (before, column) = person.clone().unwrap();
                    assert!(line.starts_with(&format!("{column} ")), "{line}");
                    mistakes.push((before, line.split(" The refutation").next().unwrap().into()));
                    refutation = true;
                }
            }
        }
    }
    assert!(replies.len() >= 4, "{game}:\n{out}");
    let positions: Vec<String> = replies.iter().map(|(p, _, _)| p.clone()).collect();
    for ((position, column, value), line) in replies.iter().zip(analysed(game, &positions)) {
        let best = line["best"].as_array().unwrap();
        assert!(
            best.contains(&serde_json::Value::from((column - 1).to_string())),
            "{game} {position}: perfect played {column}, analyse's best {best:?}"
        );
        assert_eq!(
            &said_value(column_move(&line, *column)),
            value,
            "{game} {position}"
        );
    }
    assert!(!mistakes.is_empty(), "{game}: no mistake said:\n{out}");
    let positions: Vec<String> = mistakes.iter().map(|(p, _)| p.clone()).collect();
    for ((position, said), line) in mistakes.iter().zip(analysed(game, &positions)) {
        let played: usize = said.split(' ').next().unwrap().parse().unwrap();
        let best: Vec<usize> = line["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().parse::<usize>().unwrap() + 1)
            .collect();
        let value = said_value(column_move(&line, played));
        let kept = said_value(column_move(&line, best[0]));
        let names: Vec<String> = best.iter().map(usize::to_string).collect();
        // "2 loses in 6 is a mistake where 5 keeps the draw." (docs/glossary.md).
        let verb = |value: &str, one: bool, kept: bool| {
            let s = if one { "s" } else { "" };
            match value.split_once(' ') {
                None if kept => format!("keep{s} the draw"),
                None => format!("draw{s}"),
                Some(("win", n)) => format!("win{s} {n}"),
                Some((_, n)) => format!("lose{s} {n}"),
            }
        };
        let expected = format!(
            "{played} {} is a mistake where {} {}.",
            verb(&value, true, false),
            names.join(", "),
            verb(&kept, best.len() == 1, true)
        );
        assert_eq!(said, &expected, "{game} {position}");
    }
}

#[test]
fn the_large_boards_are_played_from_the_live_search_each_reply_best() {
    for (game, width) in [("connect4:6x4", 6), ("connect4:5x5", 5)] {
        against_perfect(game, width, true);
        against_perfect(game, width, false);
    }
}

#[test]
fn a_large_board_refuses_the_levels_that_need_its_whole_table() {
    for level in ["sharp", "gentle:0.5", "adaptive"] {
        let output = tictable()
            .args(["play", "--plain", "--game", "connect4:6x4", "--x", level])
            .write_stdin("")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{level}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains("the whole solved table of connect4:6x4")
                && err.contains("the levels are perfect (or hard), random and epsilon:E")
                && err.contains("--table DIR/connect4-6x4.postcard"),
            "{level}: {err}"
        );
    }
    let out = plain(
        &["--game", "connect4:4x6", "--x", "random", "--o", "hard"],
        "",
    );
    assert!(out.contains("Game over: "), "{out}");
    let out = plain(
        &[
            "--game",
            "connect4:6x4",
            "--x",
            "epsilon:0.2",
            "--o",
            "epsilon:1",
        ],
        "",
    );
    assert!(
        out.contains("X (epsilon:0.2) plays ") && out.contains("Game over: "),
        "{out}"
    );
}

#[test]
fn connect4_5x4_and_mnk_4_4_4_play_and_analyse_without_a_table() {
    let out = plain(&["--game", "connect4:5x4"], "h\n3\nq\n");
    // Tromp: 5x4 is a draw; the three middle columns keep it.
    assert!(
        out.contains("Hints: 2 draw, 3 draw, 4 draw, 1 loss in 20, 5 loss in 20"),
        "{out}"
    );
    assert!(out.contains("O (perfect) plays "), "{out}");
    let out = plain(
        &["--game", "mnk:4,4,4", "--x", "perfect", "--o", "perfect"],
        "",
    );
    // 4x4 tic-tac-toe (4 in a line) is a draw.
    assert!(out.contains("Game over: a draw."), "{out}");
    let output = tictable()
        .args([
            "analyse",
            "--game",
            "connect4:5x4",
            "--json",
            "...../...../...../.....",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["value"], "draw");
}

#[test]
fn verify_on_a_searched_board_says_it_checks_a_table() {
    let output = tictable()
        .args(["verify", "--game", "connect4:5x5"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.contains("connect4:5x5 has no table to check")
            && err.contains("--table DIR/connect4-5x5.postcard"),
        "{err}"
    );
}
