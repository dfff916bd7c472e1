//! `tictable`: the command-line interface. Each subcommand lives in its own module.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod analyse;
mod simulate;
mod verify;

/// Perfect tic-tac-toe from a precomputed lookup table.
#[derive(Parser)]
#[command(name = "tictable", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Analyse(analyse::Args),
    Simulate(simulate::Args),
    Verify(verify::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyse(args) => analyse::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Verify(args) => verify::run(args),
    }
}
