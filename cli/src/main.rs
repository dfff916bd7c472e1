//! `tictable`: the command-line interface. Each subcommand lives in its own module.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod analyse;
mod export;
mod games;
mod map;
mod output;
mod play;
mod player;
mod selfplay;
mod simulate;
mod solve;
mod stats;
mod values;
mod verify;

/// Perfect tic-tac-toe from a precomputed lookup table.
#[derive(Parser)]
#[command(name = "tictable", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
#[command(after_help = "Without a subcommand, tictable starts `play` (with the same options).")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: play::Args,
}

#[derive(Subcommand)]
enum Command {
    Analyse(analyse::Args),
    Simulate(simulate::Args),
    Verify(verify::Args),
    Play(play::Args),
    Selfplay(selfplay::Args),
    Export(export::Args),
    Stats(stats::Args),
    Map(map::Args),
    Games(games::Args),
    Solve(solve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Analyse(args)) => analyse::run(args),
        Some(Command::Verify(args)) => verify::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Selfplay(args)) => selfplay::run(args),
        Some(Command::Export(args)) => export::run(args),
        Some(Command::Simulate(args)) => simulate::run(args),
        Some(Command::Stats(args)) => stats::run(args),
        Some(Command::Map(args)) => map::run(args),
        Some(Command::Games(args)) => games::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        None => play::run(cli.play),
    }
}
