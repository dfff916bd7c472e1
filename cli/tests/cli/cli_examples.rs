//! The examples as people read their output: squares numbered 1-9 left to right, top
//! to bottom (the library's 0-8 stays in the code). Each example's report function is
//! compiled in here, so this test runs with the CLI's tests.

#[allow(dead_code)]
#[path = "../../../examples/compiled_table.rs"]
mod compiled_table;

#[allow(dead_code)]
#[path = "../../../examples/load_postcard.rs"]
mod load_postcard;

/// The numbers after `prefix` in `text`'s lines that start with it.
fn numbered(text: &str, prefix: &str) -> Vec<u8> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix(prefix))
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap_or_else(|_| panic!("{prefix}{rest}"))
        })
        .collect()
}

#[test]
fn compiled_table_numbers_squares_1_to_9() {
    // Issue 28: "square 2 ... Play 1" meant the top-right corner and the top edge.
    // X on 1 and 9, O on 5: the empty squares are 2, 3, 4, 6, 7, 8; O must take an
    // edge (2, 4, 6 or 8), and the lowest best move is 2.
    let report = compiled_table::report("X../.O./..X").unwrap();
    assert_eq!(numbered(&report, "square "), [2, 3, 4, 6, 7, 8], "{report}");
    assert!(report.contains("Play 2 "), "{report}");
    assert!(report.contains("best moves 2, 4, 6, 8"), "{report}");
    assert!(report.contains("squares 1-9"), "{report}");
    assert!(!report.contains("plies"), "{report}");
    assert!(compiled_table::report("XY.......").is_err());
}

#[test]
fn load_postcard_numbers_squares_1_to_9_and_counts_in_words() {
    // Issue 28: "play 0" meant the top-left corner, and "win in 1 plies".
    let table = tictable::portable::Table::from_postcard(include_bytes!(
        "../../../tables/tictactoe.postcard"
    ))
    .unwrap();
    // X to move on X X . / O O . / . . . wins on square 3 at once.
    let line = load_postcard::describe(&table, "XX.OO....");
    assert!(line.contains("win in 1"), "{line}");
    assert!(!line.contains("plies"), "{line}");
    assert!(line.ends_with("play 3"), "{line}");
    // The empty board: the lowest best move is the corner 1.
    let line = load_postcard::describe(&table, ".........");
    assert!(line.ends_with("play 1"), "{line}");
}
