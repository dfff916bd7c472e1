//! `tictable map`: the picture is checked against the table. Every move drawn for the
//! side is one of the table's best moves, and every reply of the opponent to a drawn
//! move leads to a drawn decision (or ends the game): the map is complete.

use std::collections::HashSet;
use std::process::Command;
use tictable::{analyse, Board, Player, Square};

/// The `(position, move)` pairs of the SVG's `data-pos`/`data-move` attributes.
fn decisions(svg: &str) -> Vec<(Board, Square)> {
    svg.split("<g data-pos=\"")
        .skip(1)
        .map(|rest| {
            let (pos, rest) = rest.split_once('"').expect("closing quote");
            let m = rest
                .strip_prefix(" data-move=\"")
                .and_then(|r| r.split_once('"'))
                .map(|(m, _)| m.parse::<u8>().expect("a square"))
                .expect("data-move");
            (
                pos.parse().expect("a position"),
                Square::new(m).expect("0..=8"),
            )
        })
        .collect()
}

fn map(player: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(["map", "--player", player])
        .output()
        .expect("run tictable");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Checks the map of `player`; returns how many decisions it draws.
fn check(svg: &str, player: Player) -> usize {
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let drawn = decisions(svg);
    let positions: HashSet<Board> = drawn.iter().map(|&(b, _)| b).collect();
    for &(board, square) in &drawn {
        assert_eq!(board.to_move(), player, "{board}: not {player}'s move");
        let a = analyse(&board).expect("a decision position");
        assert!(
            a.best().contains(square),
            "{board}: {square} is not a best move"
        );
        let after = board.play(square).expect("legal");
        if after.is_over() {
            continue;
        }
        for reply in after.legal_moves() {
            let next = after.play(reply).expect("legal");
            assert!(
                next.is_over() || positions.contains(&next),
                "{board}: the reply {reply} after {square} is not covered"
            );
        }
    }
    // The game's start is covered too: X's first move, or each of X's first moves.
    let starts: Vec<Board> = match player {
        Player::X => vec![Board::EMPTY],
        Player::O => Board::EMPTY
            .legal_moves()
            .iter()
            .map(|s| Board::EMPTY.play(s).unwrap())
            .collect(),
    };
    for start in starts {
        assert!(positions.contains(&start), "{start} is not covered");
    }
    // Playing the map never loses: X draws the empty board, so no drawn position is lost.
    for &(board, _) in &drawn {
        assert_ne!(
            analyse(&board).unwrap().outcome(),
            tictable::Outcome::Loss,
            "{board}"
        );
    }
    drawn.len()
}

#[test]
fn map_for_x_plays_best_moves_and_covers_every_reply() {
    let n = check(&map("x"), Player::X);
    assert!(n > 50, "{n} decisions");
}

#[test]
fn map_for_o_plays_best_moves_and_covers_every_reply() {
    let n = check(&map("o"), Player::O);
    assert!(n > 50, "{n} decisions");
}

#[test]
fn map_writes_a_file_and_refuses_a_bad_player() {
    let path = std::env::temp_dir().join(format!("tictable-map-{}.svg", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(["map", "--player", "o", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg, map("o"));
    std::fs::remove_file(&path).unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(["map", "--player", "z"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}
