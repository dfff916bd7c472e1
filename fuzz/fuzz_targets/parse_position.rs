//! The position parser (`Board: FromStr`) on arbitrary text, against a reference
//! parser written independently here from the documented grammar and the
//! reachability rules: both accept exactly the same texts and give the same board.
//! A board accepted also prints in the canonical form and parses back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::Board;

/// The eight lines as square triples.
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

/// The reference: 9 cells (`X x O o . - _`), or 11 characters with `/` after the
/// 3rd and 6th cell; reachable when X = O or O + 1, not both have a line, an X line
/// means X = O + 1 and an O line means X = O. Some((x mask, o mask)) when accepted.
fn reference(text: &str) -> Option<(u16, u16)> {
    let chars: Vec<char> = text.chars().collect();
    let cells: Vec<char> = match chars.len() {
        9 => chars,
        11 if chars[3] == '/' && chars[7] == '/' => chars
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 3 && *i != 7)
            .map(|(_, c)| *c)
            .collect(),
        _ => return None,
    };
    let mut grid = [0u8; 9]; // 0 empty, 1 X, 2 O
    for (i, c) in cells.iter().enumerate() {
        grid[i] = match c {
            'X' | 'x' => 1,
            'O' | 'o' => 2,
            '.' | '-' | '_' => 0,
            _ => return None,
        };
    }
    let count = |p| grid.iter().filter(|&&g| g == p).count();
    let (xs, os) = (count(1), count(2));
    let line = |p| LINES.iter().any(|l| l.iter().all(|&s| grid[s] == p));
    let (xl, ol) = (line(1), line(2));
    let counts_ok = xs == os || xs == os + 1;
    if !counts_ok || (xl && ol) || (xl && xs != os + 1) || (ol && xs != os) {
        return None;
    }
    let mask = |p| {
        (0..9)
            .filter(|&i| grid[i] == p)
            .fold(0u16, |m, i| m | 1 << i)
    };
    Some((mask(1), mask(2)))
}

fuzz_target!(|text: &str| {
    let parsed = text.parse::<Board>();
    let expected = reference(text);
    assert_eq!(
        parsed.as_ref().ok().map(|b| (b.x(), b.o())),
        expected,
        "{text:?}: parser {parsed:?}, reference {expected:?}"
    );
    if let Ok(board) = parsed {
        let printed = board.to_string();
        assert_eq!(
            printed.parse::<Board>(),
            Ok(board),
            "{text:?} does not round-trip"
        );
    }
});
