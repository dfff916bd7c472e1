//! `tictable puzzle`: `--json` serves a puzzle the table confirms (the side to move
//! wins, exactly one move keeps the win); in plain text the answer is solved, a wrong
//! move failed as the table judges it, `hint` narrows; bad arguments exit 2.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use tictable_games::{solve, Game, Notation, Outcome, TicTacToe};

fn tictable(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tictable");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The position and the answer of `puzzle --json`'s object (the API notation).
pub fn position_and_answer<G: Game>(game: &G, json: &serde_json::Value) -> (G::Position, G::Move) {
    let position = game
        .parse_position(json["position"].as_str().unwrap())
        .unwrap();
    let answer = game
        .parse_move(&position, json["answer"].as_str().unwrap(), Notation::Api)
        .unwrap();
    (position, answer)
}

#[test]
fn a_puzzle_solved_and_one_failed_as_the_table_judges() {
    let solution = solve(TicTacToe::normal()).unwrap();
    let game = solution.game();
    // The first seed whose puzzle has a move that draws (the subtler failure to judge).
    let draws = |position: &_, m: &_| {
        solution.get(&game.play(position, *m)).unwrap().outcome == Outcome::Draw
    };
    let (seed, position, answer) = (0..100u64)
        .find_map(|seed| {
            let seed_text = seed.to_string();
            let args = [
                "puzzle",
                "--remoteness",
                "3",
                "--seed",
                &seed_text,
                "--json",
            ];
            let out = tictable(&args, "");
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(json["remoteness"], 3);
            let (position, answer) = position_and_answer(game, &json);
            let mut moves = Vec::new();
            game.moves(&position, &mut moves);
            moves
                .iter()
                .any(|m| draws(&position, m))
                .then_some((seed_text, position, answer))
        })
        .expect("a puzzle with a drawing move");
    let args = ["puzzle", "--remoteness", "3", "--seed", &seed];
    let record = solution.get(&position).unwrap();
    assert_eq!((record.outcome, record.remoteness), (Outcome::Win, 3));
    assert_eq!(
        tictable_games::strategy::perfect_moves(&solution, &position),
        vec![answer]
    );

    // Solved: the answer, as people write it, after a hint.
    let people = game.write_move(answer, Notation::People);
    let out = tictable(&args, &format!("hint\n{people}\n"));
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(said.contains("Hint: the move is one of"), "{said}");
    assert!(
        said.contains(&format!("Solved: {people} keeps the win")),
        "{said}"
    );

    // Failed: another legal move, and what the table says it leaves.
    let mut moves = Vec::new();
    game.moves(&position, &mut moves);
    // A move that draws: the table says the mover can only draw after it.
    let wrong = *moves.iter().find(|m| draws(&position, m)).unwrap();
    let child = solution.get(&game.play(&position, wrong)).unwrap();
    let expected = match child.outcome {
        Outcome::Draw => "draws".to_string(),
        Outcome::Win => format!("loses in {}", child.remoteness + 1),
        Outcome::Loss => unreachable!("a second winning move"),
    };
    let wrong = game.write_move(wrong, Notation::People);
    let out = tictable(&args, &format!("0\n{wrong}\n"));
    let said = text(&out.stdout);
    assert!(said.contains("is not a legal move here"), "{said}");
    // The one wording of a mistake (the page's and `play`'s `w` too), remoteness
    // counting the move.
    assert!(
        said.contains(&format!(
            "Not it: {wrong} {expected} is a mistake where {people} wins in 3."
        )),
        "{said}"
    );
}

#[test]
fn every_game_without_a_puzzle_of_that_remoteness_or_unknown_exits_2() {
    let out = tictable(&["puzzle", "--game", "hexapawn", "--remoteness", "2"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("remoteness with puzzles: 1, 3"));
    let out = tictable(&["puzzle", "--game", "chess"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tictable(&["puzzle", "--remoteness", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tictable(
        &["puzzle", "--game", "connect4:4x4", "--seed", "1", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
}

/// Connect Four 4x6 and 6x4 (too large to solve on demand, no `--table`): the puzzle is
/// found by the live search, the same for the same seed, and is one by an independent
/// search here (the side to move wins in that many plies, exactly one move leads to a
/// position lost for the opponent); plain text judges the answer and a wrong move as
/// the search does; an even remoteness (no Connect Four win takes one) exits 2 with a
/// clear error, not an endless search.
#[test]
fn the_large_boards_puzzles_are_found_and_judged_by_the_search() {
    use tictable_games::search::Searcher;
    use tictable_games::{catalog, ConnectFour};
    for (id, remoteness) in [("connect4:4x6", "9"), ("connect4:6x4", "13")] {
        let catalog::AnyGame::ConnectFour(game) = catalog::parse(id).unwrap() else {
            unreachable!()
        };
        let args = [
            "puzzle",
            "--game",
            id,
            "--remoteness",
            remoteness,
            "--seed",
            "5",
        ];
        let out = tictable(&[&args[..], &["--json"]].concat(), "");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            out.stdout,
            tictable(&[&args[..], &["--json"]].concat(), "").stdout,
            "the same seed, the same puzzle"
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let (position, answer) = position_and_answer::<ConnectFour>(&game, &json);
        let mut searcher = Searcher::new(game, 1 << 22).unwrap();
        let record = searcher.record(&position);
        assert_eq!(
            (record.outcome, record.remoteness.to_string()),
            (Outcome::Win, remoteness.to_string())
        );
        let mut moves = Vec::new();
        game.moves(&position, &mut moves);
        let children: Vec<_> = moves
            .iter()
            .map(|&m| searcher.record(&game.play(&position, m)))
            .collect();
        let winning: Vec<u8> = moves
            .iter()
            .zip(&children)
            .filter(|(_, c)| c.outcome == Outcome::Loss)
            .map(|(&m, _)| m)
            .collect();
        assert_eq!(winning, vec![answer], "{id}: exactly one winning move");
        let people = game.write_move(answer, Notation::People);
        let said = text(&tictable(&args, &format!("hint\n{people}\n")).stdout);
        assert!(
            said.contains("Hint: the move is one of")
                && said.contains(&format!("Solved: {people} keeps the win")),
            "{said}"
        );
        let (k, child) = moves
            .iter()
            .zip(&children)
            .find(|(&m, _)| m != answer)
            .unwrap();
        let expected = match child.outcome {
            Outcome::Draw => "draws".to_string(),
            Outcome::Win => format!("loses in {}", child.remoteness + 1),
            Outcome::Loss => unreachable!(),
        };
        let wrong = game.write_move(*k, Notation::People);
        let said = text(&tictable(&args, &format!("{wrong}\n")).stdout);
        assert!(
            said.contains(&format!(
                "Not it: {wrong} {expected} is a mistake where {people} wins in {remoteness}."
            )),
            "{said}"
        );
    }
    let out = tictable(
        &["puzzle", "--game", "connect4:6x4", "--remoteness", "4"],
        "",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no puzzle won in 4 plies found within 2000 tries")
            && err.contains("odd number of plies"),
        "{err}"
    );
}
