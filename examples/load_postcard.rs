//! Load the table at run time from `tables/tictactoe.postcard` (here embedded with
//! `include_bytes!`, as a program without our build script would), then look positions
//! up. `Table::from_postcard` checks the bytes and borrows them: no allocation, so the
//! same code runs on a microcontroller with the table in flash. The output numbers
//! squares 1-9 as people do (the library's `Square` counts 0-8).
//!
//! Run: `cargo run --example load_postcard [POSITION...]`.

use tictable::portable::Table;
use tictable::{Board, MoveValue};

static TABLE_BYTES: &[u8] = include_bytes!("../tables/tictactoe.postcard");

fn main() {
    let table = match Table::from_postcard(TABLE_BYTES) {
        Ok(table) => table,
        Err(e) => {
            eprintln!("cannot load the table: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "loaded {} entries from {} bytes",
        table.len(),
        TABLE_BYTES.len()
    );

    let mut positions: Vec<String> = std::env::args().skip(1).collect();
    if positions.is_empty() {
        positions = [
            ".........",
            "X...O...X",
            "XX.OO....",
            "XOX.O....",
            "XXXOO....",
        ]
        .map(String::from)
        .to_vec();
    }
    for text in positions {
        println!("{}", describe(&table, &text));
    }

    // A damaged copy is refused with a reason, never misread.
    let mut damaged = TABLE_BYTES.to_vec();
    damaged[100] ^= 0x10;
    match Table::from_postcard(&damaged) {
        Ok(_) => println!("damaged copy accepted?!"),
        Err(e) => println!("damaged copy refused: {e}"),
    }
}

/// One line on the position `text`, looked up in `table`, with squares numbered 1-9
/// as people number them (the library's `Square` counts 0-8).
pub fn describe(table: &Table, text: &str) -> String {
    let board: Board = match text.parse() {
        Ok(board) => board,
        Err(e) => return format!("{text}: invalid: {e}"),
    };
    match table.analyse(&board) {
        Ok(a) if a.is_terminal() => format!("{board}: game over"),
        Ok(a) => format!(
            "{board}: {} to move, {}, play {}",
            a.to_move(),
            MoveValue {
                outcome: a.outcome(),
                plies: a.plies(),
            },
            table.best_move(&board).expect("a move to make").index() + 1,
        ),
        Err(e) => format!("{text}: invalid: {e}"),
    }
}
