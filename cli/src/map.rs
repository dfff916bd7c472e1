//! `tictable map`: the complete optimal-strategy map of one side as an SVG picture.
//!
//! Like the famous one-page map: the board is drawn with the side's chosen move in
//! red; in every square still empty lies a smaller map, for when the opponent
//! replies there; and so on, down to the end of every game. The side plays the
//! table's lowest-numbered best move ([`tictable::best_move`]); the opponent's every
//! reply is drawn. Each decision is a `<g>` element with `data-pos` (the position,
//! as `tictable analyse` reads it) and `data-move` (the chosen square, 0..=8), so a
//! program can check the picture against the table.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tictable::{best_move, Board, Player, Square};

/// Draw the optimal-strategy map for one side (SVG).
#[derive(clap::Args)]
pub struct Args {
    /// The side whose moves the map shows: `x` (moves first) or `o`.
    #[arg(long, value_parser = ["x", "o", "X", "O"])]
    player: String,
    /// The SVG file to write (`-`: standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// Colours: the side's move, pieces already played, grid lines (Okabe-Ito red).
const CHOSEN: &str = "#d55e00";
const INK: &str = "#222";
const GRID: &str = "#999";

/// The SVG of `player`'s map.
pub fn svg(player: Player) -> String {
    const SIZE: f64 = 2700.0;
    const TITLE: f64 = 90.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {SIZE} {h}\" \
         font-family=\"sans-serif\">\n<title>Optimal moves for {p}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <text x=\"{mid}\" y=\"60\" font-size=\"48\" text-anchor=\"middle\">\
         Complete map of optimal tic-tac-toe moves for {p} (red: {p}'s move; \
         in each empty square, the map after the opponent plays there)</text>\n",
        h = SIZE + TITLE,
        p = player.char(),
        mid = SIZE / 2.0,
    );
    draw(&mut s, Board::EMPTY, player, 0.0, TITLE, SIZE);
    s.push_str("</svg>\n");
    s
}

/// Draws the map of `board` (any side to move) in the square at (`x`, `y`) of side
/// `size`.
fn draw(s: &mut String, board: Board, player: Player, x: f64, y: f64, size: f64) {
    let cell = size / 3.0;
    let chosen = (board.to_move() == player && !board.is_over())
        .then(|| best_move(&board))
        .flatten();
    match chosen {
        Some(m) => {
            let _ = writeln!(s, "<g data-pos=\"{board}\" data-move=\"{}\">", m.index());
        }
        None => s.push_str("<g>\n"),
    }
    let stroke = (size / 150.0).max(0.4);
    for i in 1..3 {
        let d = cell * f64::from(i);
        let _ = writeln!(
            s,
            "<path d=\"M{:.1} {:.1}v{size:.1}M{:.1} {:.1}h{size:.1}\" stroke=\"{GRID}\" stroke-width=\"{stroke:.2}\"/>",
            x + d,
            y,
            x,
            y + d
        );
    }
    let after = chosen.and_then(|m| board.play(m).ok()).unwrap_or(board);
    for square in (0..9).filter_map(Square::new) {
        let (cx, cy) = (
            x + cell * f64::from(square.column()),
            y + cell * f64::from(square.row()),
        );
        match after.get(square) {
            Some(p) => {
                let colour = if chosen == Some(square) { CHOSEN } else { INK };
                mark(s, p, cx, cy, cell, colour);
            }
            None if !after.is_over() => {
                if let Ok(next) = after.play(square) {
                    let pad = cell * 0.08;
                    draw(s, next, player, cx + pad, cy + pad, cell - 2.0 * pad);
                }
            }
            None => {}
        }
    }
    s.push_str("</g>\n");
}

/// An X or an O filling the cell at (`x`, `y`).
fn mark(s: &mut String, p: Player, x: f64, y: f64, cell: f64, colour: &str) {
    let w = (cell / 10.0).max(0.3);
    let (a, b) = (cell * 0.2, cell * 0.8);
    match p {
        Player::X => {
            let _ = writeln!(
                s,
                "<path d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\" stroke=\"{colour}\" stroke-width=\"{w:.2}\"/>",
                x + a,
                y + a,
                x + b,
                y + b,
                x + b,
                y + a,
                x + a,
                y + b
            );
        }
        Player::O => {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{w:.2}\"/>",
                x + cell / 2.0,
                y + cell / 2.0,
                cell * 0.3
            );
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let player = if args.player.eq_ignore_ascii_case("x") {
        Player::X
    } else {
        Player::O
    };
    let picture = svg(player);
    let written = if args.output.as_os_str() == "-" {
        crate::output::print(picture.as_bytes())
    } else {
        std::fs::write(&args.output, picture)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tictable: {}: {e}", args.output.display());
            ExitCode::from(2)
        }
    }
}
