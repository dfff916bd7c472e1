//! `tictable games` and `tictable solve --game G`: the games with their rules, one
//! game solved (text and JSON), and the refusals (unknown game, too large) with exit
//! status 2 before any work.

use std::process::{Command, Output};

fn tictable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .output()
        .expect("run tictable")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn games_lists_every_game_with_its_rules() {
    let output = tictable(&["games"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for id in [
        "tictactoe",
        "misere",
        "mnk:M,N,K",
        "connect4:WxH",
        "three-mens-morris",
        "tapatan",
        "achi",
        "hexapawn",
    ] {
        assert!(
            text.lines().any(|line| line.starts_with(id)),
            "{id} in {text}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&tictable(&["games", "--json"]))).unwrap();
    let hexapawn = json
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "hexapawn")
        .unwrap();
    assert!(hexapawn["rules"].as_str().unwrap().contains("far row"));
}

#[test]
fn solve_json_gives_the_counts_the_start_and_the_table() {
    // Tic-tac-toe: 5,478 positions, 765 up to symmetry, a draw (DESIGN.md verified facts).
    let output = tictable(&["solve", "--game", "tictactoe", "--json", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let v: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(v["game"], "tictactoe");
    assert_eq!(v["positions"], 5478);
    assert_eq!(v["positions_symmetry"], 765);
    assert_eq!(
        v["win"].as_u64().unwrap() + v["draw"].as_u64().unwrap() + v["loss"].as_u64().unwrap(),
        5478
    );
    assert_eq!(v["start"]["value"], "draw");
    assert_eq!(v["start"]["remoteness"], serde_json::Value::Null);
    assert_eq!(v["max_remoteness"], 5);
    assert_eq!(v["table"]["bytes"], 19683);
    assert_eq!(v["consistent"], true);
    assert!(v["seconds"].as_f64().is_some());
    // The minimal strategies (games/tests/games/strategy.rs plays them out).
    assert_eq!(v["strategy"]["first"], 22);
    assert_eq!(v["strategy"]["second"], 72);
    // --no-strategy: the solve alone (what scripts/games-bench times).
    let v: serde_json::Value = serde_json::from_str(&stdout(&tictable(&[
        "solve",
        "--game",
        "tictactoe",
        "--json",
        "--no-strategy",
    ])))
    .unwrap();
    assert_eq!(v["strategy"], serde_json::Value::Null);
    assert_eq!(v["positions"], 5478);
    // Hexapawn: Black (the second player) wins in 6 plies (Gardner, 1962).
    let v: serde_json::Value = serde_json::from_str(&stdout(&tictable(&[
        "solve", "--game", "hexapawn", "--json",
    ])))
    .unwrap();
    assert_eq!(
        (
            v["start"]["value"].as_str(),
            v["start"]["remoteness"].as_u64()
        ),
        (Some("loss"), Some(6))
    );
}

#[test]
fn solve_prints_a_readable_summary() {
    let output = tictable(&["solve", "--game", "three-mens-morris", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("three-mens-morris: 3x3 points, 3 pieces each"),
        "{text}"
    );
    assert!(
        text.contains("start: the first player wins in 9 plies"),
        "{text}"
    );
    assert!(text.contains("consistent: 744 classes agree"), "{text}");
}

#[test]
fn an_unknown_game_lists_the_known_ones_with_exit_status_2() {
    let output = tictable(&["solve", "--game", "chess"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(
        text.contains("unknown game `chess`") && text.contains("tapatan, achi, hexapawn"),
        "{text}"
    );
}

#[test]
fn a_game_too_large_is_refused_with_the_size_it_would_need() {
    for (game, size) in [
        ("mnk:9,9,9", "3^81"),
        ("connect4:9x9", "1.23e27 bytes"),
        ("mnk:5,5,4", "847288609443 bytes"),
    ] {
        let started = std::time::Instant::now();
        let output = tictable(&["solve", "--game", game]);
        assert_eq!(output.status.code(), Some(2), "{game}");
        assert!(
            stderr(&output).contains(size),
            "{game}: {}",
            stderr(&output)
        );
        // Refused before any work.
        assert!(started.elapsed().as_secs() < 5, "{game}");
    }
}

#[test]
fn solve_out_writes_a_table_file_that_reads_back_for_its_game_only() {
    let dir = std::env::temp_dir().join(format!("tictable-cli-games-{}", std::process::id()));
    let output = tictable(&[
        "solve",
        "--game",
        "mnk:4,3,3",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let v: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let path = dir.join("mnk-4-3-3.postcard");
    assert_eq!(v["file"]["path"], path.display().to_string());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(v["file"]["bytes"], bytes.len());
    let game = tictable_games::Mnk::new(4, 3, 3).unwrap();
    let loaded = tictable_games::file::from_postcard(game, &bytes).unwrap();
    assert_eq!(tictable_games::check::consistency(&loaded), Ok(28_275));
    let other = tictable_games::Mnk::new(3, 4, 3).unwrap();
    let error = tictable_games::file::from_postcard(other, &bytes)
        .err()
        .unwrap();
    assert_eq!(error.to_string(), "a table of mnk:4,3,3, not mnk:3,4,3");
    std::fs::remove_dir_all(&dir).unwrap();
}
