//! Use the compiled table from another Rust program: add `tictable` as a dependency
//! (`default-features = false` for `no_std`) and call `analyse` / `best_move`. The
//! output numbers squares 1-9 as people do; the library's `Square` counts 0-8.
//!
//! Run: `cargo run --example compiled_table [POSITION]`, e.g. `X...O...X` or `X../.O./..X`.

use tictable::{analyse, best_move, move_values, Board, MoveValue, Squares};

fn main() {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "X../.O./..X".to_string());
    match report(&text) {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("{text}: {e}");
            std::process::exit(2);
        }
    }
}

/// What the example prints for the position `text`. People number squares 1-9, left
/// to right, top to bottom; the library's `Square` numbers them 0-8, so every square
/// shown is `index() + 1`.
pub fn report(text: &str) -> Result<String, tictable::PositionError> {
    let board: Board = text.parse()?;
    let mut out = board.pretty().to_string();
    let analysis = analyse(&board).expect("a parsed board is valid");
    if analysis.is_terminal() {
        out += "The game is over.\n";
        return Ok(out);
    }
    let people = |squares: Squares| {
        squares
            .iter()
            .map(|s| (s.index() + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let value = MoveValue {
        outcome: analysis.outcome(),
        plies: analysis.plies(),
    };
    out += &format!(
        "{} to move: {value}; best moves {}, safe moves {} (squares 1-9, left to right, \
         top to bottom)\n",
        analysis.to_move(),
        people(analysis.best()),
        people(analysis.safe()),
    );
    for (index, value) in move_values(&board).expect("valid").iter().enumerate() {
        if let Some(value) = value {
            out += &format!("  square {}: {value}\n", index + 1);
        }
    }
    let best = best_move(&board).expect("a move to make");
    out += &format!(
        "Play {} (best_move gives Square {}: the library numbers squares 0-8).\n",
        best.index() + 1,
        best.index()
    );
    Ok(out)
}
