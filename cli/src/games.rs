//! `tictable games`: the games `solve --game` knows, with their rules in one line.

use crate::output;
use std::fmt::Write as _;
use std::process::ExitCode;
use tictable_games::catalog;

/// List the games and their rules.
///
/// One line per game: its id (as `solve --game` takes it) and its rules. The families
/// `mnk:M,N,K` and `connect4:WxH` take any size that fits; the sizes listed are the
/// ones checked against published results.
#[derive(clap::Args)]
pub struct Args {
    /// One JSON array of objects `{"id", "rules"}` instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let listed = catalog::describe();
    let text = if args.json {
        let games: Vec<serde_json::Value> = listed
            .iter()
            .map(|(id, rules)| serde_json::json!({ "id": id, "rules": rules }))
            .collect();
        format!("{}\n", serde_json::Value::Array(games))
    } else {
        let width = listed.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
        let mut text = String::new();
        for (id, rules) in &listed {
            let _ = writeln!(text, "{id:<width$}  {rules}");
        }
        text
    };
    match output::print(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("games: {e}");
            ExitCode::FAILURE
        }
    }
}
