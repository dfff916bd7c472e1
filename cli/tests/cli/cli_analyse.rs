//! The `tictable analyse` and `tictable verify` contract, checked against an
//! independent solver written here from scratch (plain minimax, no pruning, no table).

use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the built `tictable` with `args`, `stdin` written to it; its output.
pub(crate) fn tictable(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tictable");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

const OUTCOMES: [&str; 3] = ["loss", "draw", "win"];

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// An independent solver over `[u8; 9]` cells (b'.', b'X', b'O').
struct Oracle(HashMap<[u8; 9], (i32, i32)>);

impl Oracle {
    fn won(cells: &[u8; 9], p: u8) -> bool {
        LINES.iter().any(|l| l.iter().all(|&i| cells[i] == p))
    }

    fn to_move(cells: &[u8; 9]) -> u8 {
        let x = cells.iter().filter(|&&c| c == b'X').count();
        let o = cells.iter().filter(|&&c| c == b'O').count();
        if x == o {
            b'X'
        } else {
            b'O'
        }
    }

    /// (result for the side to move: 1 win / 0 draw / -1 loss, plies to the end).
    fn solve(&mut self, cells: [u8; 9]) -> (i32, i32) {
        if let Some(&v) = self.0.get(&cells) {
            return v;
        }
        let me = Self::to_move(&cells);
        let them = if me == b'X' { b'O' } else { b'X' };
        let v = if Self::won(&cells, them) {
            (-1, 0)
        } else if !cells.contains(&b'.') {
            (0, 0)
        } else {
            let mut best = (-2, 0);
            for (result, plies) in self.children(cells) {
                // Prefer a better result; among wins the shortest, among losses the longest.
                let better = result > best.0
                    || (result == best.0
                        && (result > 0 && plies < best.1 || result < 0 && plies > best.1));
                if better {
                    best = (result, plies);
                }
            }
            best
        };
        self.0.insert(cells, v);
        v
    }

    /// Value of each move for the mover: (square, result, plies).
    fn children(&mut self, cells: [u8; 9]) -> Vec<(i32, i32)> {
        self.moves(cells)
            .into_iter()
            .map(|(_, r, p)| (r, p))
            .collect()
    }

    fn moves(&mut self, cells: [u8; 9]) -> Vec<(usize, i32, i32)> {
        let me = Self::to_move(&cells);
        (0..9)
            .filter(|&i| cells[i] == b'.')
            .map(|i| {
                let mut child = cells;
                child[i] = me;
                let (r, p) = self.solve(child);
                (i, -r, p + 1)
            })
            .collect()
    }
}

/// All reachable positions by legal play.
fn reachable() -> Vec<[u8; 9]> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![[b'.'; 9]];
    while let Some(cells) = stack.pop() {
        if !seen.insert(cells) {
            continue;
        }
        let me = Oracle::to_move(&cells);
        if Oracle::won(&cells, b'X') || Oracle::won(&cells, b'O') {
            continue;
        }
        for i in (0..9).filter(|&i| cells[i] == b'.') {
            let mut child = cells;
            child[i] = me;
            stack.push(child);
        }
    }
    seen.into_iter().collect()
}

#[test]
fn json_agrees_with_an_independent_solver_on_every_reachable_position() {
    let positions = reachable();
    assert_eq!(positions.len(), 5478);
    let input: String = positions
        .iter()
        .map(|c| format!("{}\n", String::from_utf8_lossy(c)))
        .collect();
    let output = tictable(&["analyse", "--json", "-"], input.as_bytes());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = json_lines(&output);
    assert_eq!(lines.len(), positions.len(), "one line per input line");
    let mut oracle = Oracle(HashMap::new());
    for (cells, line) in positions.iter().zip(&lines) {
        let text = String::from_utf8_lossy(cells).to_string();
        assert_eq!(line["position"], text.as_str());
        let (result, plies) = oracle.solve(*cells);
        let finished =
            Oracle::won(cells, b'X') || Oracle::won(cells, b'O') || !cells.contains(&b'.');
        if finished {
            let winner = [b'X', b'O'].into_iter().find(|&p| Oracle::won(cells, p));
            let expected = serde_json::json!({
                "position": text,
                "terminal": true,
                "winner": winner.map(|w| (w as char).to_string()),
                "best": [],
                "safe": [],
            });
            assert_eq!(line, &expected);
            assert_eq!(line.to_string(), expected.to_string(), "key order");
            continue;
        }
        let moves = oracle.moves(*cells);
        let best: Vec<usize> = moves
            .iter()
            .filter(|&&(_, r, p)| (r, p) == (result, plies))
            .map(|m| m.0)
            .collect();
        let safe: Vec<usize> = moves
            .iter()
            .filter(|m| m.1 == result)
            .map(|m| m.0)
            .collect();
        let expected = serde_json::json!({
            "position": text,
            "to_move": (Oracle::to_move(cells) as char).to_string(),
            "outcome": OUTCOMES[(result + 1) as usize],
            "plies": plies,
            "best": best,
            "safe": safe,
        });
        assert_eq!(line.to_string(), expected.to_string());
    }
}

#[test]
fn documented_examples() {
    let output = tictable(
        &["analyse", "--json", "XX.OO....", "XXX/OO./...", "XOXXOOOXX"],
        b"",
    );
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"position":"XX.OO....","to_move":"X","outcome":"win","plies":1,"best":[2],"safe":[2]}"#,
            "\n",
            r#"{"position":"XXXOO....","terminal":true,"winner":"X","best":[],"safe":[]}"#,
            "\n",
            r#"{"position":"XOXXOOOXX","terminal":true,"winner":null,"best":[],"safe":[]}"#,
            "\n"
        )
    );
}

#[test]
fn invalid_lines_get_an_error_object_and_exit_2() {
    let long = "X".repeat(1 << 20);
    let mut input = Vec::new();
    for line in [
        "XX.OO....",
        "",
        "XXXXXXXXX",
        "XX.OO..?.",
        "XXXOOO...",
        "XXXOO.O..",
        "ÄÖÜ",
        "XX./OO..../",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"XO\0......\n");
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(long.as_bytes());
    input.extend_from_slice(b"\n..X......"); // last line without newline
    let output = tictable(&["analyse", "--json", "-"], &input);
    assert_eq!(output.status.code(), Some(2));
    assert!(!output.stderr.is_empty(), "a message on stderr");
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 12, "one line per input line");
    assert_eq!(lines[0]["outcome"], "win");
    assert_eq!(lines[11]["position"], "..X......");
    assert_eq!(lines[11]["outcome"], "draw");
    for (i, line) in lines.iter().enumerate().take(11).skip(1) {
        assert!(line["error"].is_string(), "line {i}: {line}");
        assert!(line.get("outcome").is_none());
    }
    assert_eq!(lines[1]["position"], "");
    assert_eq!(lines[2]["position"], "XXXXXXXXX");
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("impossible counts"));
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("at character 8"));
    assert!(lines[4]["error"].as_str().unwrap().contains("both players"));
    assert!(lines[5]["error"].as_str().unwrap().contains("after X won"));
    assert_eq!(lines[6]["position"], "ÄÖÜ");
    assert_eq!(lines[8]["position"], "XO\u{0}......");
    // A line over the 1024-byte limit: its start quoted, its length said.
    assert_eq!(lines[10]["position"], format!("{}...", "X".repeat(40)));
    assert_eq!(
        lines[10]["error"],
        "line of 1048576 bytes is longer than the limit of 1024"
    );
}

#[test]
fn empty_input_and_usage_errors() {
    let output = tictable(&["analyse", "--json", "-"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let output = tictable(&["analyse"], b"");
    assert_eq!(
        output.status.code(),
        Some(2),
        "no position is a usage error"
    );
    let output = tictable(&["analyse", "--frobnicate", "XX.OO...."], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(!output.stderr.is_empty());
}

#[test]
fn readable_report() {
    let output = tictable(&["analyse", "XX.OO...."], b"");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("3:win in 1"), "{text}");
    assert!(text.contains("7:loss in 2"), "{text}");
    assert!(text.contains("6:draw"), "{text}");
    assert!(text.contains("X to move: win in 1. Best: 3."), "{text}");
    let output = tictable(&["analyse", "nonsense"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("invalid position"));
}

/// The readable report ends with one line saying what its words mean (issue 39: "win
/// in N", best, safe), once however many positions; `--json` has none (one object per
/// line); the glossary it names exists.
#[test]
fn readable_report_ends_with_a_legend_of_its_words() {
    let output = tictable(&["analyse", "XX.OO....", "X........"], b"");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let last = text.lines().last().unwrap();
    for word in [
        "win/loss in N",
        "plies",
        "Best:",
        "Safe:",
        "docs/glossary.md",
    ] {
        assert!(last.contains(word), "legend without {word:?}: {last}");
    }
    assert_eq!(text.matches("docs/glossary.md").count(), 1, "{text}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(root.join("docs/glossary.md").is_file());
    let output = tictable(&["analyse", "--game", "hexapawn", "OOO/.../XXX X"], b"");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.lines().last().unwrap().contains("win/loss in N"),
        "{text}"
    );
    let output = tictable(&["analyse", "--json", "XX.OO...."], b"");
    assert_eq!(json_lines(&output).len(), 1);
}

#[test]
fn verify_reports_no_mismatch() {
    let output = tictable(&["verify"], b"");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("5478 positions checked, 0 mismatches"),
        "{text}"
    );
}
