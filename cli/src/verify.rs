//! `tictable verify`: re-solve every reachable position with the live search and
//! compare, position by position, with the compiled tables or with a postcard table
//! file (`--table FILE`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use tictable::portable::Table;
use tictable::{analyse, best_moves, search, solve::board_of_index, Analysis, Board};

/// The largest table file `--table` reads (the published one is under 3 KB).
const MAX_TABLE_BYTES: u64 = 1 << 20;

/// Check the table against the live search, position by position.
///
/// Re-solve every reachable position with the live alpha-beta search and compare it
/// with the table's answer, position by position: the compiled analysis and
/// best-moves tables, or with `--table` a postcard table file (as written by
/// `tictable export --format postcard`). Exit status 0 only when the table answers
/// every position exactly as the search does; 1 on a mismatch, a missing or
/// malformed entry, or a file that does not load.
#[derive(clap::Args)]
pub struct Args {
    /// A postcard table file to check instead of the compiled tables.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Another game (`tictable games` lists them): its table (solved now, or with
    /// `--table` a file written by `tictable solve --game G --out DIR`) checked
    /// position by position against its children and, for games without repeats,
    /// against a live search from every reachable class whose search fits
    /// `--live-budget`.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// With `--game`: the most positions one live search may visit; a class whose search
    /// would visit more is skipped (counted). 0 skips the live search.
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "game")]
    live_budget: u64,
}

/// Reads `path`, refusing a file larger than `limit` bytes (reading at most one byte
/// more): memory stays bounded whatever the file.
pub fn read_bounded(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{}: larger than {limit} bytes: not a table",
            path.display()
        ));
    }
    Ok(bytes)
}

pub fn run(args: Args) -> ExitCode {
    if let Some(id) = &args.game {
        return run_game(id, &args);
    }
    let start = std::time::Instant::now();
    let bytes = match args
        .table
        .as_deref()
        .map(|path| read_bounded(path, MAX_TABLE_BYTES))
        .transpose()
    {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("verify: {e}");
            return ExitCode::FAILURE;
        }
    };
    let file = match bytes.as_deref().map(Table::from_postcard).transpose() {
        Ok(table) => table,
        Err(e) => {
            eprintln!("verify: the table does not load: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut checked, mut mismatches) = (0usize, 0usize);
    for index in 0..19683 {
        let board = board_of_index(index);
        if board.validate().is_err() {
            continue;
        }
        checked += 1;
        let live = search::analyse(&board).map_err(|e| e.to_string());
        let answer = match &file {
            Some(table) => table.analyse(&board).map_err(|e| e.to_string()),
            None => compiled(&board),
        };
        if answer != live {
            mismatches += 1;
            if mismatches <= 20 {
                eprintln!("mismatch at {board}: table {answer:?}, search {live:?}");
            }
        }
    }
    let what = match &args.table {
        Some(path) => format!("table {}", path.display()),
        None => "compiled tables".to_string(),
    };
    let line = format!(
        "verify: {what}: {checked} positions checked, {mismatches} mismatches ({:.0} ms)\n",
        start.elapsed().as_secs_f64() * 1e3
    );
    if let Err(e) = crate::output::print(line.as_bytes()) {
        return crate::output::write_failed("stdout", &e);
    }
    if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The compiled tables' answer for `board`: the analysis table's, provided the
/// best-moves table (what firmware plays from) gives the same best moves.
fn compiled(board: &Board) -> Result<Analysis, String> {
    let analysis = analyse(board).map_err(|e| e.to_string())?;
    let expected = (!analysis.is_terminal()).then(|| analysis.best());
    let best = best_moves(board);
    if best != expected {
        return Err(format!(
            "best-moves table gives {best:?}, analysis table {expected:?}"
        ));
    }
    Ok(analysis)
}

/// `verify --game G`: the consistency check on every reachable class, then the live
/// search (games without repeats). Exit 1 on any failure, 2 for an unknown game or one
/// too large to solve on demand (a Connect Four board searched live by `analyse` and
/// `play` included: verify checks a table, and that board has none without `--table`).
fn run_game(id: &str, args: &Args) -> ExitCode {
    use tictable_games::{check, Game};
    let game = match crate::solve::parse_game(id, "verify") {
        Ok(game) => game,
        Err(code) => return code,
    };
    if let Some(g) = crate::live::searched(&game, args.table.as_deref()) {
        let id = g.id();
        eprintln!(
            "verify: {id} has no table to check: its table ({} bytes) is not solved on demand \
             (`analyse` and `play` search this board live); verify checks a table: write it once \
             with `tictable solve --game {id} --out DIR` and pass `--table DIR/{}`",
            g.key_space(),
            crate::solve::file_name(&id)
        );
        return ExitCode::from(2);
    }
    let start = std::time::Instant::now();
    let (line, ok) = tictable_games::dispatch!(game, g => {
        let too_large = args.table.is_none() && g.key_space() > crate::solve::ON_DEMAND_KEYS;
        let solution = match crate::solve::load_or_solve(g, args.table.as_deref()) {
            Ok(solution) => solution,
            Err(e) => {
                eprintln!("verify: {e}");
                return ExitCode::from(if too_large { 2 } else { 1 });
            }
        };
        let what = match &args.table {
            Some(path) => format!("{} table {}", solution.game().id(), path.display()),
            None => format!("{} (solved now)", solution.game().id()),
        };
        match check::consistency(&solution) {
            Err(e) => (format!("verify: {what}: INCONSISTENT: {e}\n"), false),
            Ok(checked) if solution.game().repeats() => (
                format!(
                    "verify: {what}: {checked} classes agree with their children; positions repeat: no live search ({:.0} ms)\n",
                    start.elapsed().as_secs_f64() * 1e3
                ),
                true,
            ),
            Ok(checked) => match check::live(&solution, args.live_budget) {
                Err(e) => (format!("verify: {what}: MISMATCH: {e}\n"), false),
                Ok((compared, skipped)) => (
                    format!(
                        "verify: {what}: {checked} classes agree with their children; live search: {compared} agree, {skipped} skipped (over {} positions) ({:.0} ms)\n",
                        args.live_budget,
                        start.elapsed().as_secs_f64() * 1e3
                    ),
                    true,
                ),
            },
        }
    });
    let printed = if ok {
        crate::output::print(line.as_bytes())
    } else {
        eprint!("{line}");
        Ok(())
    };
    if let Err(e) = printed {
        return crate::output::write_failed("stdout", &e);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
