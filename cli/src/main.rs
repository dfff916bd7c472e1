//! `tictable`: the command-line interface. Each subcommand lives in its own module.
#![forbid(unsafe_code)]

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};
use std::io;
use std::process::ExitCode;

mod analyse;
mod export;
mod games;
mod live;
mod map;
mod move_times;
mod oracle;
mod output;
mod play;
mod player;
mod puzzle;
mod reachable;
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
#[command(
    after_help = "Without a subcommand, tictable starts `play` (with the same options).\n\n\
    Exit status, every command: 0 success (also when the reader of stdout went away), \
    1 a check failed (verify, simulate), 2 bad arguments or input, 74 the output could \
    not be written."
)]
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
    Puzzle(puzzle::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused(&sensible(e, std::env::args())),
    };
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
        Some(Command::Puzzle(args)) => puzzle::run(args),
        None => play::run(cli.play),
    }
}

/// What clap says when it does not run a subcommand, and the exit status: the help
/// or the version on stdout (0; a write error other than a closed pipe is one, as
/// for every subcommand), a usage error on stderr (2).
fn refused(e: &clap::Error) -> ExitCode {
    let printed = e.print();
    if !e.use_stderr() {
        if let Err(w) = output::closed_is_done(printed) {
            return output::write_failed("stdout", &w);
        }
    }
    let _ = io::Write::flush(&mut io::stderr());
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// `e` without clap's "a similar argument exists" when the argument it names is
/// not similar: clap suggests any option whose name is within its Jaro threshold
/// (0.7), which a one-letter name such as `--o` is for almost anything (`--bogus`).
/// A suggestion is kept when it is at most a third of the typed name's letters
/// away (one for short names: `--sed` for `--seed`, `--exat` for `--exact`); the
/// usage line then is the command's own, not one built around the dropped
/// suggestion.
fn sensible(mut e: clap::Error, args: impl Iterator<Item = String>) -> clap::Error {
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let name = |v: Option<&ContextValue>| match v {
        Some(ContextValue::String(s)) => Some(
            s.trim_start_matches('-')
                .split('=')
                .next()
                .unwrap_or("")
                .to_string(),
        ),
        _ => None,
    };
    let (Some(typed), Some(suggested)) = (
        name(e.get(ContextKind::InvalidArg)),
        name(e.get(ContextKind::SuggestedArg)),
    ) else {
        return e;
    };
    if edit_distance(&typed, &suggested) <= (typed.chars().count() / 3).max(1) {
        return e;
    }
    e.remove(ContextKind::SuggestedArg);
    let mut root = Cli::command().bin_name("tictable");
    root.build();
    let sub = args
        .skip(1)
        .find(|a| root.find_subcommand(a).is_some())
        .unwrap_or_default();
    let usage = match root.find_subcommand_mut(&sub) {
        Some(sub) => sub.render_usage(),
        None => root.render_usage(),
    };
    e.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    e
}

/// The Levenshtein distance between `a` and `b`, in characters: the fewest
/// insertions, deletions and substitutions that turn one into the other.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances_are_levenshtein() {
        // The textbook example (Levenshtein 1966; "kitten" -> "sitting" is 3).
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("seed", "seed"), 0);
        assert_eq!(edit_distance("bogus", "o"), 4);
    }
}
