//! `tictable map`: the complete optimal-strategy map of one side as an SVG picture.
//!
//! Like the famous one-page map: the board is drawn with the side's chosen move in
//! vermilion; in every square still empty lies a smaller map, for when the opponent
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

/// Colours: the side's move (Okabe-Ito vermilion, told apart also by colour-blind
/// readers), pieces already played, grid lines.
const CHOSEN: &str = "#d55e00";
const INK: &str = "#222";
const GRID: &str = "#999";

/// The map's side, in user units (the SVG scales to any size).
const SIZE: f64 = 2700.0;
/// The band above the map: the title and the legend.
const HEADER: f64 = 200.0;

/// The SVG of `player`'s map.
pub fn svg(player: Player) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {SIZE} {h}\" \
         font-family=\"sans-serif\">\n<title>Optimal moves for {p}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <text x=\"{mid}\" y=\"80\" font-size=\"64\" text-anchor=\"middle\">\
         Optimal tic-tac-toe: the complete map for {p}</text>\n",
        h = SIZE + HEADER,
        p = player.char(),
        mid = SIZE / 2.0,
    );
    legend(&mut s, player);
    draw(&mut s, Board::EMPTY, player, 0.0, HEADER, SIZE);
    s.push_str("</svg>\n");
    s
}

/// The legend under the title, centred: each kind of mark drawn as on the map, and
/// named.
fn legend(s: &mut String, player: Player) {
    const ICON: f64 = 48.0;
    const TOP: f64 = 122.0;
    const FONT: f64 = 36.0;
    /// Between an icon and its words.
    const PAD: f64 = 16.0;
    /// Between two items.
    const GAP: f64 = 90.0;
    let opponent = player.other();
    let items = [
        (
            Some((player, CHOSEN)),
            format!("{player}'s move, in vermilion"),
        ),
        (Some((opponent, INK)), "pieces already played".to_string()),
        (
            None,
            format!("in an empty square: the map after {opponent} replies there"),
        ),
    ];
    // Text widths at 0.6 em a character (the test's estimate).
    let width = |words: &str| ICON + PAD + words.chars().count() as f64 * FONT * 0.6;
    let total: f64 = items.iter().map(|(_, w)| width(w) + GAP).sum::<f64>() - GAP;
    let mut x = (SIZE - total) / 2.0;
    s.push_str("<g id=\"legend\">\n");
    for (icon, words) in &items {
        match icon {
            Some((piece, colour)) => mark(s, *piece, x, TOP, ICON, colour),
            // A small empty grid: where the smaller maps lie.
            None => {
                for i in 1..3 {
                    let d = ICON / 3.0 * f64::from(i);
                    let _ = writeln!(
                        s,
                        "<path d=\"M{:.1} {TOP:.1}v{ICON:.1}M{x:.1} {:.1}h{ICON:.1}\" stroke=\"{GRID}\" stroke-width=\"3\"/>",
                        x + d,
                        TOP + d
                    );
                }
            }
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{FONT}\">{words}</text>",
            x + ICON + PAD,
            TOP + ICON / 2.0 + FONT * 0.35
        );
        x += width(words) + GAP;
    }
    s.push_str("</g>\n");
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
    if args.output.as_os_str() == "-" {
        return crate::output::finish(crate::output::print(picture.as_bytes()));
    }
    match std::fs::write(&args.output, picture) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::output::write_failed(&args.output.display().to_string(), &e),
    }
}
