//! `tictable analyse`: analyse positions given as arguments or on stdin.

use serde_json::{json, Value};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use tictable::{analyse, move_values, Analysis, Board, Square};

/// Analyse positions: the outcome, plies to the end, and the best and safe moves.
///
/// A position is 9 cells (X, O, and '.', '-' or '_' for empty), optionally split into
/// rows by '/': `XX.OO....` or `XX./OO./...`. Squares are numbered 0..=8 row-major
/// from the top-left. Exit status: 0 when every position was valid, 2 otherwise.
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per input line, in order (the stable format for scripts).
    #[arg(long)]
    json: bool,
    /// Positions to analyse, or `-` to read one position per line from stdin.
    #[arg(required = true, value_name = "POSITION")]
    positions: Vec<String>,
}

pub fn run(args: Args) -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut all_valid = true;
    let mut answer = |input: &str, out: &mut dyn Write| -> io::Result<()> {
        let result = input.trim().parse::<Board>();
        all_valid &= result.is_ok();
        if args.json {
            writeln!(out, "{}", json_line(input, result))
        } else {
            write!(out, "{}", text_report(input, result))
        }
    };
    let result = (|| -> io::Result<()> {
        for position in &args.positions {
            if position == "-" {
                let mut stdin = io::stdin().lock();
                let mut line = Vec::new();
                loop {
                    line.clear();
                    if stdin.read_until(b'\n', &mut line)? == 0 {
                        break;
                    }
                    let text = String::from_utf8_lossy(&line);
                    let text = text.strip_suffix('\n').unwrap_or(&text);
                    let text = text.strip_suffix('\r').unwrap_or(text);
                    answer(text, &mut out)?;
                }
            } else {
                answer(position, &mut out)?;
            }
        }
        out.flush()
    })();
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tictable: {e}");
            ExitCode::from(2)
        }
        Ok(()) if all_valid => ExitCode::SUCCESS,
        Ok(()) => {
            eprintln!("tictable: some positions were invalid");
            ExitCode::from(2)
        }
    }
}

fn squares(set: tictable::Squares) -> Vec<u8> {
    set.iter().map(Square::index).collect()
}

/// The JSON object for one input line.
pub fn json_line(input: &str, result: Result<Board, tictable::PositionError>) -> Value {
    let board = match result {
        Ok(board) => board,
        Err(e) => return json!({"position": input, "error": e.to_string()}),
    };
    match analyse(&board) {
        Err(e) => json!({"position": input, "error": e.to_string()}),
        Ok(a) if a.is_terminal() => json!({
            "position": board.to_string(),
            "terminal": true,
            "winner": a.winner().map(|p| p.to_string()),
            "best": [],
            "safe": [],
        }),
        Ok(a) => json!({
            "position": board.to_string(),
            "to_move": a.to_move().to_string(),
            "outcome": a.outcome().as_str(),
            "plies": a.plies(),
            "best": squares(a.best()),
            "safe": squares(a.safe()),
        }),
    }
}

/// The readable report for one input line.
fn text_report(input: &str, result: Result<Board, tictable::PositionError>) -> String {
    let board = match result {
        Ok(board) => board,
        Err(e) => return format!("{input}: invalid position: {e}\n\n"),
    };
    let (analysis, values) = match (analyse(&board), move_values(&board)) {
        (Ok(a), Ok(v)) => (a, v),
        (Err(e), _) | (_, Err(e)) => return format!("{input}: invalid position: {e}\n\n"),
    };
    let mut report = format!("{board}\n");
    for row in 0..3 {
        if row > 0 {
            report.push_str("------------+------------+------------\n");
        }
        let cells: Vec<String> = (0..3)
            .map(|column| {
                let index = row * 3 + column;
                let square = Square::new(index).expect("index < 9");
                let cell = match (board.get(square), values[index as usize]) {
                    (Some(player), _) => format!("    {player}"),
                    (None, Some(value)) => format!("{index}:{value}"),
                    (None, None) => format!("{index}"),
                };
                format!(" {cell:<11}")
            })
            .collect();
        report.push_str(&cells.join("|"));
        report.push('\n');
    }
    report.push_str(&summary(&analysis));
    report.push_str("\n\n");
    report
}

/// One line saying what the position is worth.
fn summary(a: &Analysis) -> String {
    if a.is_terminal() {
        return match a.winner() {
            Some(winner) => format!("Game over: {winner} won."),
            None => "Game over: draw.".to_string(),
        };
    }
    let list = |set: tictable::Squares| {
        set.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let value = tictable::MoveValue {
        outcome: a.outcome(),
        plies: a.plies(),
    };
    format!(
        "{} to move: {value}. Best: {}. Safe: {}.",
        a.to_move(),
        list(a.best()),
        list(a.safe())
    )
}
