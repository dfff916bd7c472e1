//! Use the compiled table from another Rust program: add `tictable` as a dependency
//! (`default-features = false` for `no_std`) and call `analyse` / `best_move`.
//!
//! Run: `cargo run --example compiled_table [POSITION]`, e.g. `X...O...X` or `X../.O./..X`.

use tictable::{analyse, best_move, move_values, Board};

fn main() {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "X../.O./..X".to_string());
    let board: Board = match text.parse() {
        Ok(board) => board,
        Err(e) => {
            eprintln!("{text}: {e}");
            std::process::exit(2);
        }
    };
    print!("{}", board.pretty());
    let analysis = analyse(&board).expect("a parsed board is valid");
    if analysis.is_terminal() {
        println!("The game is over.");
        return;
    }
    println!(
        "{} to move: {} in {} plies; best moves {:?}, safe moves {:?}",
        analysis.to_move(),
        analysis.outcome(),
        analysis.plies(),
        analysis
            .best()
            .iter()
            .map(|s| s.index())
            .collect::<Vec<_>>(),
        analysis
            .safe()
            .iter()
            .map(|s| s.index())
            .collect::<Vec<_>>(),
    );
    for (square, value) in move_values(&board).expect("valid").iter().enumerate() {
        if let Some(value) = value {
            println!("  square {square}: {value}");
        }
    }
    println!("Play {}.", best_move(&board).expect("a move to make"));
}
