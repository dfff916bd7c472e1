//! The analyse path the CLI takes, on arbitrary input: bytes read as `analyse -` reads
//! stdin (lossy UTF-8, one position per line, trimmed), and the first four bytes as
//! raw bitboards (`Board::from_bits`, as a sensor may deliver them). Nothing panics;
//! an invalid board is refused with an error by every entry point; a valid one gets
//! the same analysis from the table and from the live search, and move values and
//! best moves that agree with it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::{analyse, best_move, move_values, search, Board, MoveValue};

fn check(board: Board) {
    let table = analyse(&board).map_err(|e| e.to_string());
    let live = search::analyse(&board).map_err(|e| e.to_string());
    assert_eq!(table, live, "table and search disagree on {board}");
    assert_eq!(table.is_ok(), board.validate().is_ok());
    let values = move_values(&board);
    assert_eq!(values.is_ok(), table.is_ok());
    let (Ok(a), Ok(values)) = (table, values) else {
        assert_eq!(best_move(&board), None);
        return;
    };
    assert_eq!(best_move(&board), a.best().first());
    let top = MoveValue {
        outcome: a.outcome(),
        plies: a.plies(),
    };
    for square in tictable::Square::ALL {
        let value = values[square.index() as usize];
        assert_eq!(value.is_some(), board.legal_moves().contains(square));
        if a.best().contains(square) {
            assert_eq!(value, Some(top), "best move {square} of {board}");
        }
        if let Some(v) = value {
            assert_eq!(v.outcome == a.outcome(), a.safe().contains(square));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let [x0, x1, o0, o1, ..] = *data {
        let (x, o) = (u16::from_le_bytes([x0, x1]), u16::from_le_bytes([o0, o1]));
        if let Ok(board) = Board::from_bits(x, o) {
            check(board);
        }
    }
    for line in String::from_utf8_lossy(data).lines() {
        if let Ok(board) = line.trim().parse::<Board>() {
            check(board);
        }
    }
});
