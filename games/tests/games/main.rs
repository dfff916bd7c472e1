//! `tictable-games` end to end, one test binary (`cargo test -p tictable-games --test
//! games`): one module per subject. The large boards are `#[ignore]`d here and run in
//! release by `.ci/run` (`cargo test --release -p tictable-games --test games -- --ignored`).

mod best_moves;
mod common;
mod compiled;
mod consistency;
mod docs;
mod exports;
mod large;
mod notation;
mod players;
mod published;
mod puzzles;
mod search;
mod strategy;
mod table_file;
mod tictactoe_engine;
