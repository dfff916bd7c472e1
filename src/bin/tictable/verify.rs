//! `tictable verify`: re-solve every reachable position with the live search and
//! compare with the compiled table.

use std::process::ExitCode;
use tictable::{analyse, search, solve::board_of_index};

/// Re-solve every reachable position with the live alpha-beta search and compare it
/// with the compiled table. Exit status 1 on any mismatch.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> ExitCode {
    let start = std::time::Instant::now();
    let (mut checked, mut mismatches) = (0usize, 0usize);
    for index in 0..19683 {
        let board = board_of_index(index);
        if board.validate().is_err() {
            continue;
        }
        checked += 1;
        let (table, live) = (analyse(&board), search::analyse(&board));
        if table != live {
            mismatches += 1;
            eprintln!("mismatch at {board}: table {table:?}, search {live:?}");
        }
    }
    println!(
        "verify: {checked} positions checked, {mismatches} mismatches ({:.0} ms)",
        start.elapsed().as_secs_f64() * 1e3
    );
    if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
