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

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[start..].split('"').next()
}

/// A `<text>` element: its estimated box (left, top, right, bottom) and its words.
struct Text {
    bounds: [f64; 4],
    words: String,
}

/// Every `<text>` of `svg` with a box estimated from its font size: 0.6 em a
/// character (wider than the average of sans-serif faces, so an estimate that fits
/// means the text fits), from 0.8 em above the baseline to 0.2 em below.
fn texts(svg: &str) -> Vec<Text> {
    svg.split("<text")
        .skip(1)
        .map(|rest| {
            let (tag, rest) = rest.split_once('>').expect("a tag");
            let content = rest.split("</text>").next().expect("closed text");
            let words = content
                .replace("&apos;", "'")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
            let number = |name| -> f64 {
                attribute(tag, name)
                    .unwrap_or_else(|| panic!("{name} in <text{tag}>"))
                    .parse()
                    .expect("a number")
            };
            let (x, y, size) = (number("x"), number("y"), number("font-size"));
            let width = words.chars().count() as f64 * size * 0.6;
            let left = match attribute(tag, "text-anchor") {
                Some("middle") => x - width / 2.0,
                Some("end") => x - width,
                _ => x,
            };
            Text {
                bounds: [left, y - 0.8 * size, left + width, y + 0.2 * size],
                words,
            }
        })
        .collect()
}

#[test]
fn the_title_and_legend_fit_the_canvas_and_name_the_colour() {
    // Issue 28: the title ran off both sides of the canvas, called the side's moves
    // "red" (they are vermilion, Okabe-Ito #d55e00) and there was no legend.
    for player in ["x", "o"] {
        let svg = map(player);
        let view: Vec<f64> = attribute(&svg, "viewBox")
            .expect("a viewBox")
            .split(' ')
            .map(|n| n.parse().unwrap())
            .collect();
        let (width, height) = (view[2], view[3]);
        // The map's top: its first grid line (after the legend's) starts there.
        let map = svg
            .split_once("<g id=\"legend\">")
            .and_then(|(_, legend)| legend.split_once("</g>"))
            .map_or(svg.as_str(), |(_, map)| map);
        let map_top: f64 = map
            .split("<path d=\"M")
            .nth(1)
            .and_then(|d| d.split(['v', 'h']).next())
            .and_then(|start| start.split(' ').nth(1))
            .expect("a grid line")
            .parse()
            .unwrap();
        let texts = texts(&svg);
        assert!(texts.len() >= 3, "a title and a legend: {svg:.600}");
        for t in &texts {
            let [left, top, right, bottom] = t.bounds;
            assert!(
                left >= 0.0 && right <= width && top >= 0.0 && bottom <= height,
                "{player}: {:?} leaves the {width}x{height} canvas: {:?}",
                t.words,
                t.bounds
            );
            assert!(bottom <= map_top, "{player}: {:?} lies on the map", t.words);
        }
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                let apart = a.bounds[2] <= b.bounds[0]
                    || b.bounds[2] <= a.bounds[0]
                    || a.bounds[3] <= b.bounds[1]
                    || b.bounds[3] <= a.bounds[1];
                assert!(apart, "{player}: {:?} overlaps {:?}", a.words, b.words);
            }
        }
        let words: String = texts
            .iter()
            .map(|t| t.words.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(!words.to_lowercase().contains("red"), "{words}");
        assert!(words.contains("vermilion"), "{words}");
        // The legend draws what it names: a vermilion mark for the side's move, a
        // dark one for pieces already played, and a small map for a reply.
        let legend = svg
            .split("<g id=\"legend\">")
            .nth(1)
            .and_then(|l| l.split("</g>").next())
            .expect("a legend group");
        assert!(
            legend.contains("#d55e00") && legend.contains("#222"),
            "{legend}"
        );
        let side = player.to_uppercase();
        assert!(words.contains(&format!("{side}'s move")), "{words}");
        assert!(words.contains("already played"), "{words}");
        assert!(words.contains("replies there"), "{words}");
    }
}
