//! Solves the games named on the command line (all listed games without arguments)
//! and prints one line each: `cargo run --release -p tictable-games --example solve -- mnk:4,4,4`.
use std::time::Instant;
use tictable_games::{catalog, dispatch, solve};

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    let games = if ids.is_empty() {
        catalog::all()
    } else {
        ids.iter()
            .map(|id| catalog::parse(id).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    };
    for any in games {
        let t = Instant::now();
        let summary = dispatch!(any.clone(), g => solve(g).map(|s| s.summary()));
        match summary {
            Ok(s) => println!(
                "{:20} positions {:>11} classes {:>10} win {:>10} draw {:>10} loss {:>10} start {} {} max {} {:.2}s",
                any.id(), s.positions, s.classes.total(), s.all.win, s.all.draw, s.all.loss,
                s.start.outcome, s.start.remoteness, s.max_remoteness, t.elapsed().as_secs_f64()
            ),
            Err(e) => println!("{}: {e}", any.id()),
        }
    }
}
