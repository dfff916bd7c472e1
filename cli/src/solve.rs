//! `tictable solve --game G`: every reachable position of a game solved (value and
//! remoteness), with counts, the start's value and the table's size.

use crate::output;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tictable_games::catalog::{self, AnyGame};
use tictable_games::{
    check, dispatch, file, solve_with, strategy, Game, Options, Outcome, Player, SolveError,
    Summary,
};

/// Solve a game: the value and remoteness of every reachable position.
///
/// Every position reachable from the start gets its value for the side to move (win,
/// draw or loss) and its remoteness (plies to the end with perfect play). Prints the
/// counts by value (all positions, and one per symmetry class), the start's value and
/// remoteness, the longest remoteness, the time and the table's size. `tictable games`
/// lists the ids. Exit status 2 for an unknown game or one too large to solve.
#[derive(clap::Args)]
pub struct Args {
    /// The game (`tictable games` lists them), or `all` for every listed size.
    #[arg(long, value_name = "GAME")]
    game: String,
    /// One JSON object (an array of them for `all`) instead of text.
    #[arg(long)]
    json: bool,
    /// Also check every position's record against its children's.
    #[arg(long)]
    check: bool,
    /// Write the solved table to DIR/GAME.postcard (`:` and `,` in the id become `-`):
    /// a header naming the game, its rules and the format version, then every reachable
    /// class's value and remoteness.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The largest table to build, in GiB (one byte per key).
    #[arg(long, value_name = "GIB", default_value_t = 4)]
    max_memory: u64,
    /// Also compute the minimal strategies of games whose key space is above 2^20
    /// (mnk:4,4,3, Connect Four 5x4 and larger; seconds to a minute more); smaller games
    /// always get them.
    #[arg(long)]
    strategy: bool,
    /// Solve only: no minimal strategies and no best-move tables, for any game (what
    /// `scripts/games-bench` times).
    #[arg(long, conflicts_with = "strategy")]
    no_strategy: bool,
}

/// Games with at most this many keys get their minimal strategies by default.
const STRATEGY_KEYS: u64 = 1 << 20;

/// Games with at most this many keys (16 Mi) get their best-move tables by default.
const BEST_MOVE_KEYS: u64 = 1 << 24;

/// The sizes of both sides' minimal strategies: entries, and entries with more than one
/// legal move, for the first player and the second.
#[derive(Clone, Copy)]
struct StrategySizes {
    first: (u64, u64),
    second: (u64, u64),
    /// How each was made small (`strategy::Method`), neither proven minimal.
    method: [strategy::Method; 2],
}

/// What one game's solve found, with its time and the check's result.
struct Solved {
    id: String,
    rules: String,
    summary: Summary,
    seconds: f64,
    checked: Option<Result<u64, String>>,
    /// The table file written, and its size.
    written: Option<(PathBuf, usize)>,
    /// Both sides' minimal strategies (not computed for big games without `--strategy`).
    strategy: Option<StrategySizes>,
    /// Both sides' best-move tables (not computed over 2^24 keys without `--strategy` or `--out`).
    best_moves: Option<Result<[BestMoveSize; 2], String>>,
}

/// The size of one side's best-move table (`tictable_games::best_move`).
#[derive(Clone, Copy)]
struct BestMoveSize {
    entries: u64,
    bytes: u64,
    bits: u32,
}

/// The file name of `id`'s table: `mnk:4,4,4` is `mnk-4-4-4.postcard`.
pub fn file_name(id: &str) -> String {
    format!("{}.postcard", id.replace([':', ','], "-"))
}

fn solve_one(game: &AnyGame, args: &Args) -> Result<Solved, String> {
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}: {human_pos} positions solved, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(game.id());
    let mut progress = |solved: u64| bar.set_position(solved);
    let options = Options {
        memory_limit: args.max_memory << 30,
        progress: Some(&mut progress),
    };
    let start = Instant::now();
    let (summary, checked, written) = dispatch!(game.clone(), g => {
        let solution = solve_with(g, options).map_err(|e| e.to_string())?;
        let seconds = start.elapsed().as_secs_f64();
        bar.set_message(format!("{}: checking", game.id()));
        let checked = args.check.then(|| check::consistency(&solution).map_err(|e| e.to_string()));
        let written = match &args.out {
            Some(dir) => {
                let bytes = file::to_postcard(&solution);
                let path = dir.join(file_name(&game.id()));
                std::fs::create_dir_all(dir)
                    .and_then(|()| std::fs::write(&path, &bytes))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Some((path, bytes.len()))
            }
            None => None,
        };
        let wanted = args.strategy || (!args.no_strategy && game.table_bytes() <= STRATEGY_KEYS);
        let strategy = wanted.then(|| {
            bar.set_message(format!("{}: minimal strategies", game.id()));
            let size = |player| {
                let s = strategy::minimal(&solution, player);
                ((s.entries(), s.choices()), s.method())
            };
            let ((first, m0), (second, m1)) = (size(Player::X), size(Player::O));
            StrategySizes { first, second, method: [m0, m1] }
        });
        // With `--out` the large games get their best-move tables too (the exports read the file).
        let best_wanted = args.strategy
            || (!args.no_strategy && (args.out.is_some() || game.table_bytes() <= BEST_MOVE_KEYS));
        let best_moves = best_wanted.then(|| {
            bar.set_message(format!("{}: best-move tables", game.id()));
            let size = |t: &tictable_games::best_move::BestMoveTable| BestMoveSize {
                entries: t.entries(),
                bytes: t.bytes(),
                bits: t.bits_per_position(),
            };
            tictable_games::best_file::tables(&solution)
                .map(|[a, b]| [size(&a), size(&b)])
                .map_err(|e| e.to_string())
        });
        (solution.summary(), (seconds, checked), (written, strategy, best_moves))
    });
    let (written, strategy, best_moves) = written;
    bar.finish_and_clear();
    Ok(Solved {
        id: game.id(),
        rules: game.rules(),
        summary,
        seconds: checked.0,
        checked: checked.1,
        written,
        strategy,
        best_moves,
    })
}

fn remoteness(summary: &Summary) -> Value {
    if summary.start.outcome == Outcome::Draw {
        Value::Null
    } else {
        summary.start.remoteness.into()
    }
}

fn to_json(s: &Solved) -> Value {
    let m = &s.summary;
    let mut object = json!({
        "game": s.id,
        "rules": s.rules,
        "positions": m.positions,
        "win": m.all.win,
        "loss": m.all.loss,
        "draw": m.all.draw,
        "terminal": m.all.terminal,
        "positions_symmetry": m.classes.total(),
        "win_symmetry": m.classes.win,
        "loss_symmetry": m.classes.loss,
        "draw_symmetry": m.classes.draw,
        "start": { "value": m.start.outcome.as_str(), "remoteness": remoteness(m) },
        "max_remoteness": m.max_remoteness,
        "seconds": (s.seconds * 1e6).round() / 1e6,
        "positions_per_second": (m.positions as f64 / s.seconds.max(1e-9)).round() as u64,
        "table": {
            "layout": "dense: one byte (value and remoteness) per key of a symmetry class",
            "bytes": m.table_bytes,
            "entries": m.classes.total(),
            "bits_per_position": ((m.table_bytes as f64 * 8.0 / m.classes.total().max(1) as f64) * 100.0).round() / 100.0,
        },
    });
    if let Some(checked) = &s.checked {
        object["consistent"] = json!(checked.is_ok());
    }
    object["strategy"] = match s.strategy {
        Some(st) => json!({
            "first": st.first.0,
            "second": st.second.0,
            "first_choices": st.first.1,
            "second_choices": st.second.1,
            "first_method": st.method[0].to_string(),
            "second_method": st.method[1].to_string(),
        }),
        None => Value::Null,
    };
    object["best_moves"] = match &s.best_moves {
        Some(Ok(sides)) => {
            let side = |b: &BestMoveSize| json!({ "entries": b.entries, "bytes": b.bytes, "bits_per_position": b.bits });
            json!({
                "layout": "every reachable class of the side: sorted keys with a mask of its best moves, binary search",
                "first": side(&sides[0]),
                "second": side(&sides[1]),
            })
        }
        Some(Err(e)) => json!({ "error": e }),
        None => Value::Null,
    };
    if let Some((path, bytes)) = &s.written {
        object["file"] = json!({ "path": path.display().to_string(), "bytes": bytes });
    }
    object
}

fn to_text(s: &Solved) -> String {
    let m = &s.summary;
    let mut t = String::new();
    let _ = writeln!(t, "{}: {}", s.id, s.rules);
    let _ = writeln!(
        t,
        "  positions {:>12}  win {:>11}  draw {:>11}  loss {:>11}  (terminal {})",
        m.positions, m.all.win, m.all.draw, m.all.loss, m.all.terminal
    );
    let _ = writeln!(
        t,
        "  symmetry  {:>12}  win {:>11}  draw {:>11}  loss {:>11}",
        m.classes.total(),
        m.classes.win,
        m.classes.draw,
        m.classes.loss
    );
    let start = match m.start.outcome {
        Outcome::Draw => "a draw".to_string(),
        Outcome::Win => format!("the first player wins in {} plies", m.start.remoteness),
        Outcome::Loss => format!("the second player wins in {} plies", m.start.remoteness),
    };
    let _ = writeln!(
        t,
        "  start: {start}; longest remoteness {}",
        m.max_remoteness
    );
    let _ = writeln!(
        t,
        "  {:.3} s, {:.0} positions/s; table {} bytes ({:.1} bits per class)",
        s.seconds,
        m.positions as f64 / s.seconds.max(1e-9),
        m.table_bytes,
        m.table_bytes as f64 * 8.0 / m.classes.total().max(1) as f64
    );
    match s.strategy {
        Some(st) => {
            let _ = writeln!(
                t,
                "  minimal strategy: first player {} positions ({} with a choice), second {} ({}); {}",
                st.first.0,
                st.first.1,
                st.second.0,
                st.second.1,
                if st.method[0] == st.method[1] {
                    st.method[0].to_string()
                } else {
                    format!("first: {}, second: {}", st.method[0], st.method[1])
                }
            );
        }
        None => {
            let _ = writeln!(t, "  minimal strategy: not computed (pass --strategy)");
        }
    }
    match &s.best_moves {
        Some(Ok([first, second])) => {
            let _ = writeln!(
                t,
                "  best-move tables: first player {} positions, {} bytes; second {} positions, {} bytes ({} bits per position)",
                first.entries, first.bytes, second.entries, second.bytes, first.bits
            );
        }
        Some(Err(e)) => {
            let _ = writeln!(t, "  best-move tables: {e}");
        }
        None => {
            let _ = writeln!(t, "  best-move tables: not computed (pass --strategy)");
        }
    }
    if let Some((path, bytes)) = &s.written {
        let _ = writeln!(t, "  written: {} ({bytes} bytes)", path.display());
    }
    match &s.checked {
        Some(Ok(n)) => {
            let _ = writeln!(t, "  consistent: {n} classes agree with their children");
        }
        Some(Err(e)) => {
            let _ = writeln!(t, "  INCONSISTENT: {e}");
        }
        None => {}
    }
    t
}

pub fn run(args: Args) -> ExitCode {
    let games = if args.game == "all" {
        catalog::all()
    } else {
        match parse_game(&args.game, "solve") {
            Ok(game) => vec![game],
            Err(code) => return code,
        }
    };
    // Refused before any work: a table larger than the limit.
    for game in &games {
        let needed = game.table_bytes();
        if needed > args.max_memory << 30 {
            eprintln!(
                "solve: {}: {}",
                game.id(),
                SolveError::TooLarge {
                    needed,
                    limit: args.max_memory << 30
                }
            );
            return ExitCode::from(2);
        }
    }
    let mut solved = Vec::new();
    for game in &games {
        match solve_one(game, &args) {
            Ok(s) => solved.push(s),
            Err(e) => {
                eprintln!("solve: {}: {e}", game.id());
                return ExitCode::FAILURE;
            }
        }
    }
    let text = if args.json {
        let values: Vec<Value> = solved.iter().map(to_json).collect();
        match (args.game.as_str(), values.as_slice()) {
            ("all", _) => format!("{}\n", Value::Array(values)),
            (_, [one]) => format!("{one}\n"),
            _ => format!("{}\n", Value::Array(values)),
        }
    } else {
        solved.iter().map(to_text).collect()
    };
    let consistent = solved.iter().all(|s| !matches!(s.checked, Some(Err(_))));
    match output::print(text.as_bytes()) {
        Ok(()) if consistent => ExitCode::SUCCESS,
        Ok(()) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("solve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The largest key space `play`, `analyse`, `verify`, `puzzle` and `export` solve on
/// demand: the live search's threshold
/// ([`LIVE_ABOVE_BYTES`](tictable_games::search::LIVE_ABOVE_BYTES), 100,000,000 keys,
/// one byte each). Every listed game up to it (mnk:4,4,4 and connect4:5x4 the largest)
/// solves within issue 33's budget; a larger Connect Four board is searched live
/// (`analyse`, `play`), a larger game of another kind needs its table from `solve --out`
/// through `--table FILE`.
pub const ON_DEMAND_KEYS: u64 = tictable_games::search::LIVE_ABOVE_BYTES;

/// The largest table file `--table` reads (1 GiB).
const MAX_TABLE_FILE: u64 = 1 << 30;

/// `game` solved: read from the table file `table` (written by `solve --out`; a table
/// of another game, rules or version, or a damaged one, is refused with the file
/// format's error), or solved now when the game is small enough.
pub fn load_or_solve<G: Game>(
    game: G,
    table: Option<&std::path::Path>,
) -> Result<tictable_games::Solution<G>, String> {
    match table {
        Some(path) => {
            let bytes = crate::verify::read_bounded(path, MAX_TABLE_FILE)?;
            file::from_postcard(game, &bytes)
                .map_err(|e| format!("{}: the table does not load: {e}", path.display()))
        }
        None if game.key_space() > ON_DEMAND_KEYS => {
            let id = game.id();
            Err(format!(
                "{id} needs a {}-byte table, too large to solve on demand: write it once with \
                 `tictable solve --game {id} --out DIR` and pass `--table DIR/{}`",
                game.key_space(),
                file_name(&id)
            ))
        }
        None => tictable_games::solve(game).map_err(|e| e.to_string()),
    }
}

/// The game `id` names, or (the error said on stderr by `command`) exit status 2.
pub fn parse_game(id: &str, command: &str) -> Result<AnyGame, ExitCode> {
    catalog::parse(id).map_err(|e| {
        eprintln!("{command}: {e}");
        ExitCode::from(2)
    })
}
