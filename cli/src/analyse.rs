//! `tictable analyse`: analyse positions given as arguments or on stdin.

use crate::oracle::move_record;
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use tictable::{analyse, move_values, Analysis, Board, Square};

/// The longest input line `analyse -` takes, in bytes; a longer one is answered with
/// an error (quoting its start) and the next line is read, so memory stays bounded
/// whatever comes in.
pub const MAX_LINE: usize = 1024;

/// At most this many characters of a rejected input are quoted back.
const EXCERPT_CHARS: usize = 40;

/// Analyse positions: the outcome, plies to the end, and the best and safe moves.
///
/// A position is 9 cells (X, O, and '.', '-' or '_' for empty), optionally split into
/// rows by '/': `XX.OO....` or `XX./OO./...`, top row first. The readable report
/// numbers squares 1-9 left to right, top to bottom; `--json` numbers them 0-8 (the
/// programmer's numbering). With `-`, lines longer than 1024 bytes are refused (each with
/// its own error line). Exit status: 0 when every position was valid, 2 otherwise (74
/// when the output cannot be written).
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per input line, in order (the stable format for scripts).
    #[arg(long)]
    json: bool,
    /// Positions to analyse, or `-` to read one position per line from stdin.
    #[arg(required = true, value_name = "POSITION")]
    positions: Vec<String>,
    /// Another game (`tictable games` lists them): positions in its notation (rows
    /// top first joined by `/`, plus the side to move for morris games and hexapawn),
    /// each legal move with its value and remoteness in the game's move notation
    /// (people: from 1; `--json`: from 0), and the best moves.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// With `--game`: the game's table file, written by `tictable solve --game G --out
    /// DIR` (needed for games too large to solve on demand, such as mnk:6,3,3; on
    /// connect4:4x6, 6x4 and 5x5 it replaces the live search).
    #[arg(long, value_name = "FILE", requires = "game")]
    table: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    if let Some(id) = args.game.clone() {
        return run_game(&id, &args);
    }
    answer_all(&args, LEGEND, |input: &str| {
        let result = parse(input);
        let valid = result.is_ok();
        let input = excerpt(input);
        let answer = if args.json {
            format!("{}\n", json_line(&input, result))
        } else {
            text_report(&input, result)
        };
        (answer, valid)
    })
}

/// Reads one line into `line` (its newline included), keeping at most `limit + 1`
/// bytes of it and skipping the rest: the line's whole length in bytes (without the
/// newline), or `None` at the end of the input.
pub fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<usize>> {
    line.clear();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then_some(length));
        }
        any = true;
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let keep = (limit + 1).saturating_sub(line.len()).min(chunk.len());
        line.extend_from_slice(&chunk[..keep]);
        let used = chunk.len();
        length = length.saturating_add(used - usize::from(end));
        input.consume(used);
        if end {
            return Ok(Some(length));
        }
    }
}

/// Why an input line has no analysis.
#[derive(Debug)]
pub enum Rejected {
    /// Not a position (the index counts characters of the line as given).
    Position(tictable::PositionError),
    /// Longer than [`MAX_LINE`] bytes.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
}

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejected::Position(e) => write!(f, "{e}"),
            Rejected::TooLong { bytes } => {
                write!(
                    f,
                    "line of {bytes} bytes is longer than the limit of {MAX_LINE}"
                )
            }
        }
    }
}

/// Parses `input` with surrounding white space ignored; an error's index counts
/// the characters of `input` itself.
fn parse(input: &str) -> Result<Board, Rejected> {
    use tictable::PositionError::{BadCharacter, BadSeparator};
    let trimmed = input.trim_start();
    let lead = input.chars().count() - trimmed.chars().count();
    trimmed.trim_end().parse::<Board>().map_err(|e| {
        Rejected::Position(match e {
            BadCharacter { index, found } => BadCharacter {
                index: index + lead,
                found,
            },
            BadSeparator { index } => BadSeparator {
                index: index + lead,
            },
            e => e,
        })
    })
}

/// `input`, or its first [`EXCERPT_CHARS`] characters and "..." when it is longer.
fn excerpt(input: &str) -> std::borrow::Cow<'_, str> {
    match input.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}...", &input[..end]).into(),
        None => input.into(),
    }
}

fn squares(set: tictable::Squares) -> Vec<u8> {
    set.iter().map(Square::index).collect()
}

/// The JSON object for one input line.
pub fn json_line(input: &str, result: Result<Board, Rejected>) -> Value {
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
fn text_report(input: &str, result: Result<Board, Rejected>) -> String {
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
                    (None, Some(value)) => format!("{}:{value}", index + 1),
                    (None, None) => format!("{}", index + 1),
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
            .map(|s| (s.index() + 1).to_string())
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

/// `analyse --game G`: each position in `G`'s notation, solved on demand or read from
/// `--table`; a Connect Four board too large to solve
/// ([`searched_live`](tictable_games::search::searched_live)) is searched live, position
/// by position, unless `--table` is given ([`crate::live`]).
fn run_game(id: &str, args: &Args) -> ExitCode {
    use crate::oracle::Oracle;
    let game = match crate::solve::parse_game(id, "analyse") {
        Ok(game) => game,
        Err(code) => return code,
    };
    if let Some(g) = crate::live::searched(&game, args.table.as_deref()) {
        let live = match crate::live::Live::new(g) {
            Ok(live) => live,
            Err(e) => {
                eprintln!("analyse: {e}");
                return ExitCode::from(2);
            }
        };
        return answer_all(args, GAME_LEGEND, |input: &str| {
            game_report(&g, |p| live.answer(p), input, args.json)
        });
    }
    tictable_games::dispatch!(game, g => {
        let solution = match crate::solve::load_or_solve(g, args.table.as_deref()) {
            Ok(solution) => solution,
            Err(e) => {
                eprintln!("analyse: {e}");
                return ExitCode::from(2);
            }
        };
        answer_all(args, GAME_LEGEND, |input: &str| {
            game_report(solution.game(), |p| solution.answer(p), input, args.json)
        })
    })
}

/// The last line of the readable report (not of `--json`): what its words mean, in
/// short; `docs/glossary.md` has them in full.
const LEGEND: &str = "(win/loss in N: N plies, single moves, to the end with perfect play; \
Best: the fastest win or slowest loss; Safe: keeps the outcome. Words: docs/glossary.md)\n";

/// [`LEGEND`] for `--game`, whose report has no safe moves.
const GAME_LEGEND: &str = "(win/loss in N: N plies, single moves, to the end with perfect \
play; Best: the fastest win or slowest loss. Words: docs/glossary.md)\n";

/// Answers every position of `args` (`-`: each line of stdin, at most [`MAX_LINE`]
/// bytes kept) with `report`, which says whether the input was valid; without
/// `--json`, ends with `legend` once when a position was valid.
fn answer_all(
    args: &Args,
    legend: &str,
    mut report: impl FnMut(&str) -> (String, bool),
) -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut all_valid = true;
    let mut any_valid = false;
    let mut read_error = None;
    let result = (|| -> io::Result<()> {
        for position in &args.positions {
            if position == "-" {
                let mut stdin = io::stdin().lock();
                let mut line = Vec::new();
                loop {
                    let length = match read_line(&mut stdin, &mut line, MAX_LINE) {
                        Ok(Some(length)) => length,
                        Ok(None) => break,
                        Err(e) => {
                            read_error = Some(e);
                            return out.flush();
                        }
                    };
                    let text = String::from_utf8_lossy(&line);
                    let text = text.strip_suffix('\n').unwrap_or(&text);
                    let text = text.strip_suffix('\r').unwrap_or(text);
                    let (answer, valid) = if length > MAX_LINE {
                        let e = Err(Rejected::TooLong { bytes: length });
                        let input = excerpt(text);
                        if args.json {
                            (format!("{}\n", json_line(&input, e)), false)
                        } else {
                            (text_report(&input, e), false)
                        }
                    } else {
                        report(text)
                    };
                    all_valid &= valid;
                    any_valid |= valid;
                    out.write_all(answer.as_bytes())?;
                }
            } else {
                let (answer, valid) = report(position);
                all_valid &= valid;
                any_valid |= valid;
                out.write_all(answer.as_bytes())?;
            }
        }
        if any_valid && !args.json {
            out.write_all(legend.as_bytes())?;
        }
        out.flush()
    })();
    match (crate::output::closed_is_done(result), read_error) {
        (Err(e), _) => crate::output::write_failed("stdout", &e),
        (Ok(()), Some(e)) => {
            eprintln!("tictable: cannot read stdin: {e}");
            ExitCode::from(2)
        }
        (Ok(()), None) if all_valid => ExitCode::SUCCESS,
        (Ok(()), None) => {
            eprintln!("tictable: some positions were invalid");
            ExitCode::from(2)
        }
    }
}

/// A record's value for people: `win in 3`, `draw`, `loss in 2`.
pub(crate) fn value_text(record: tictable_games::Record) -> String {
    match record.outcome {
        tictable::Outcome::Draw => "draw".to_string(),
        outcome => format!("{outcome} in {}", record.remoteness),
    }
}

/// One position of a game analysed, its record and each move's child record from
/// `answer` (`None`: not reachable): the text report (or the JSON line) and whether the
/// input was a valid, reachable position.
fn game_report<G: tictable_games::Game>(
    game: &G,
    answer: impl FnOnce(&G::Position) -> Option<crate::oracle::Answer<G>>,
    input: &str,
    json: bool,
) -> (String, bool) {
    use tictable_games::Notation;
    let refuse = |e: String| {
        let input = excerpt(input);
        if json {
            (
                json!({"position": input, "error": e}).to_string() + "\n",
                false,
            )
        } else {
            (format!("{input}: invalid position: {e}\n\n"), false)
        }
    };
    let position = match game.parse_position(input.trim()) {
        Ok(p) => p,
        Err(e) => return refuse(e.to_string()),
    };
    let Some((record, children)) = answer(&position) else {
        return refuse(format!(
            "`{}` is not reachable from the start of {}",
            input.trim(),
            game.id()
        ));
    };
    let notation = if json {
        Notation::Api
    } else {
        Notation::People
    };
    let written = game.write_position(&position, notation);
    let mover = game.to_move(&position);
    let moves: Vec<(G::Move, tictable_games::Record)> = children
        .iter()
        .map(|&(mv, child)| (mv, move_record(child)))
        .collect();
    let values: Vec<(String, tictable_games::Record)> = moves
        .iter()
        .map(|&(mv, r)| (game.write_move(mv, notation), r))
        .collect();
    // The best moves: those keeping the position's own record (the fastest win, the
    // draw, the slowest loss).
    let best: Vec<String> = crate::oracle::best(record, &children)
        .into_iter()
        .map(|mv| game.write_move(mv, notation))
        .collect();
    let remoteness = |r: tictable_games::Record| {
        if r.outcome == tictable::Outcome::Draw {
            Value::Null
        } else {
            r.remoteness.into()
        }
    };
    if json {
        let line = if moves.is_empty() {
            json!({
                "game": game.id(),
                "position": written,
                "terminal": true,
                "to_move": mover.to_string(),
                "value": record.outcome.as_str(),
                "best": [],
                "moves": [],
            })
        } else {
            json!({
                "game": game.id(),
                "position": written,
                "terminal": false,
                "to_move": mover.to_string(),
                "value": record.outcome.as_str(),
                "remoteness": remoteness(record),
                "moves": values.iter().map(|(mv, r)| json!({
                    "move": mv,
                    "value": r.outcome.as_str(),
                    "remoteness": remoteness(*r),
                })).collect::<Vec<_>>(),
                "best": best,
            })
        };
        return (line.to_string() + "\n", true);
    }
    let mut report = format!("{} {written}\n", game.id());
    if moves.is_empty() {
        report.push_str(&format!(
            "Game over: {} for {mover}, the side to move.\n\n",
            record.outcome.as_str()
        ));
        return (report, true);
    }
    for (mv, r) in &values {
        report.push_str(&format!("  {mv:>6}  {}\n", value_text(*r)));
    }
    report.push_str(&format!(
        "{mover} to move: {}. Best: {}.\n\n",
        value_text(record),
        best.join(", ")
    ));
    (report, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::Live;
    use crate::oracle::Oracle;
    use tictable_games::{ConnectFour, Game, Notation};

    /// The live search's report (text and JSON) equals the solved table's on
    /// connect4:4x4 and 5x4 positions: every position of the first plies (finished,
    /// unreachable and every other kind met), then a random game's every position.
    #[test]
    fn the_search_reports_as_the_table_does() {
        for (w, h, plies) in [(4, 4, 6), (5, 4, 4)] {
            let game = ConnectFour::new(w, h).unwrap();
            let solution = tictable_games::solve(game).unwrap();
            let live = Live::new(game).unwrap();
            let mut layer = vec![game.start()];
            let mut inputs = Vec::new();
            for _ in 0..plies {
                let mut next = Vec::new();
                for p in &layer {
                    inputs.push(game.write_position(p, Notation::People));
                    let mut moves = Vec::new();
                    if game.primitive(p).is_none() {
                        game.moves(p, &mut moves);
                    }
                    next.extend(moves.into_iter().map(|mv| game.play(p, mv)));
                }
                next.sort_by_key(|p| game.key(p));
                next.dedup_by_key(|p| game.key(p));
                layer = next;
            }
            // Positions deep in the game, to its end.
            let mut p = game.start();
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            while game.primitive(&p).is_none() {
                let mut moves = Vec::new();
                game.moves(&p, &mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p = game.play(&p, moves[(seed % moves.len() as u64) as usize]);
                inputs.push(game.write_position(&p, Notation::People));
            }
            // Unreachable though well formed: X's only piece on O's, so X's first
            // move was not on the bottom row.
            let row = |r: &str| format!("{r}{}", ".".repeat(w - 1));
            let rows: Vec<String> = (0..h)
                .map(|r| match h - 1 - r {
                    0 => row("O"),
                    1 => row("X"),
                    _ => row("."),
                })
                .collect();
            inputs.push(rows.join("/"));
            let mut refused = 0;
            for input in &inputs {
                for json in [false, true] {
                    let table = game_report(&game, |p| solution.answer(p), input, json);
                    let live = game_report(&game, |p| live.answer(p), input, json);
                    assert_eq!(live, table, "connect4:{w}x{h} {input}");
                    refused += usize::from(!table.1);
                }
            }
            assert!(refused > 0, "no unreachable position tried");
            assert!(inputs.len() > 100, "{}", inputs.len());
        }
    }
}
