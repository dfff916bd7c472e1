//! `tictable play`: the interactive game, full-screen (`tui`) or as a line dialogue
//! (`plain`), both driving the same state machine (`app`).

pub mod app;
mod game_plain;
mod game_tui;
pub mod look;
mod plain;
pub mod puzzle_tui;
mod refute;
pub(crate) use refute::mistake_text;
pub mod session;
mod tui;
pub mod ui;

use app::{App, Effect, KeyLayout, Seat, Settings};
use rand_core::SeedableRng;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Play tic-tac-toe against the engine, another person, or watch two engines.
///
/// Squares are numbered 1-9 left to right, top to bottom (1 = top-left, 9 =
/// bottom-right); `--layout keypad` uses the numeric keypad instead (7 = top-left).
/// The empty squares show their keys.
///
/// Full-screen: a digit or a mouse click places, or arrow keys move the cursor and
/// Enter or Space places; u undo, r redo, h hint (each empty square shows win in n /
/// draw / loss in n for the side to move), w why your last move was a mistake (its
/// refutation on the board, a ply per Space), n new game, s save, l load (both ask for
/// the file), m menu (players, mistake rates, delay, clock, keys), q quit (asks
/// first when a game in progress is not saved; a finished game is already in the
/// score, so q quits at once), Ctrl-C quit at once.
///
/// X always moves first: to let the engine open, use `--x LEVEL --o human`. Two
/// engines (`--x perfect --o trap`) play game after game until a key is pressed;
/// with `--game tictactoe` and two levels every game has (`--x perfect --o perfect`)
/// they are watched a move per key, as below.
/// A PLAYER is `human` or a level: random, easy, medium, perfect (or hard), trap,
/// sharp, gentle:F (F from 0 to 1), adaptive (shows its estimate of your ε) or
/// epsilon:E (docs/players.md), with an optional mistake rate for perfect and trap (`perfect:0.15` plays a move
/// of the next worse outcome class 15% of the time) and an optional forced first
/// move (`perfect@5`: the centre, squares 1-9). A forced first move gives up the
/// never-lose guarantee of perfect and trap: an O forced onto an edge after X took
/// the centre can lose.
///
/// Other games (`--game G`, `tictable games` lists them): the board is drawn as the
/// game's own and moves are typed in its notation, numbered from 1: a cell (mnk:M,N,K,
/// misere), a column (connect4:WxH), a point to place or from-to to slide
/// (three-mens-morris, tapatan, achi: `1-2`), from-to for a pawn (hexapawn: `8-5`).
/// Full-screen, a slide or a pawn move is two keys (from, to); u undo, r redo, h hints
/// (every move's value and remoteness: plies to the end with perfect play), w why
/// your last move was a mistake (its refutation on the board), n new
/// game, s save and l load (--file, read and checked first; the save names the
/// game), q quit (n, l and q ask first when a game in progress is not saved: the key
/// again full-screen, y/n with --plain). The game is
/// solved at the start (a table of up to 100,000,000 bytes: every listed game but
/// connect4:4x6, 6x4 and 5x5, which are searched live instead); a larger game of
/// another kind is refused with the table size it needs (pass its table with
/// --table). Players: human, perfect (keeps the value; the winner hurries, the loser
/// delays), sharp, gentle:F, adaptive (shows its estimate of your ε), random or
/// epsilon:E; O defaults to perfect. The morris games (positions repeat): human,
/// perfect or random; the boards searched live: those or epsilon:E.
/// Two engines are watched a move per key (Space; u back, a auto), each move with its
/// value and why the others are worse.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Who plays X (moves first): `human` or a level, e.g. `perfect`, `trap:0.1` or
    /// `trap@2`; a forced first move gives up the never-lose guarantee.
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    x: Seat,
    /// Who plays O: `human` or a level, as for --x [default: trap; with --game:
    /// perfect].
    #[arg(long, value_name = "PLAYER")]
    o: Option<Seat>,
    /// Another game than tic-tac-toe (`tictable games` lists them), e.g. connect4:4x4,
    /// hexapawn.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// With --game: the game's table file, written by `tictable solve --game G --out
    /// DIR` (for games too large to solve on demand; on connect4:4x6, 6x4 and 5x5 it
    /// replaces the live search, and every level plays).
    #[arg(long, value_name = "FILE", requires = "game")]
    table: Option<PathBuf>,
    /// Seconds an engine visibly "thinks" before moving in the full-screen game (0
    /// to 60; the --plain dialogue answers at once, for scripts).
    #[arg(long, value_name = "SECONDS", default_value = "0.4", allow_hyphen_values = true, value_parser = parse_delay)]
    delay: Duration,
    /// Seconds a person has for each move in the full-screen game (1 to 3600), shown
    /// counting down; when it runs out a random move is played for them.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_clock)]
    clock: Option<Duration>,
    /// Which key picks which square: `rows` (1 = top-left) or `keypad` (7 =
    /// top-left, as on a numeric keypad).
    #[arg(long, value_enum, default_value = "rows")]
    layout: KeyLayout,
    /// No terminal bell when a game ends.
    #[arg(long)]
    quiet: bool,
    /// A line-oriented dialogue on stdin/stdout instead of the full-screen game (no
    /// terminal needed: scripts, pipes, screen readers). Also used when stdin or
    /// stdout is not a terminal.
    #[arg(long)]
    plain: bool,
    /// Seed for the engines' random choices (0 to 18446744073709551615; default:
    /// from the clock).
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = crate::values::seed)]
    seed: Option<u64>,
    /// The file s and l offer (a JSON save file; squares in it are 0-8).
    #[arg(long, value_name = "PATH", default_value = "tictable-game.json")]
    file: PathBuf,
}

/// A number of seconds in `range`, for `what`.
fn parse_seconds(
    text: &str,
    range: std::ops::RangeInclusive<f64>,
    what: &str,
) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !range.contains(&seconds) {
        return Err(format!(
            "{what} must be between {} and {} seconds",
            range.start(),
            range.end()
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_delay(text: &str) -> Result<Duration, String> {
    parse_seconds(text, 0.0..=60.0, "the delay")
}

fn parse_clock(text: &str) -> Result<Duration, String> {
    parse_seconds(text, 1.0..=3600.0, "the move clock")
}

pub fn run(args: Args) -> ExitCode {
    let o = args
        .o
        .unwrap_or(Seat::Engine(tictable::strategy::Strategy::new(
            tictable::strategy::Level::Trap,
        )));
    let settings = Settings {
        delay: args.delay,
        layout: args.layout,
        clock: args.clock,
        ..Settings::new(args.x, o)
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed(&args));
    match args.game.as_deref().map(str::trim) {
        None => {}
        // `--game tictactoe` with two engines that every game has is watched a move
        // per key, as every other game is; otherwise (a person, or a tic-tac-toe-only
        // level, or its own --clock or --layout) tic-tac-toe's own game, where two
        // engines play game after game.
        Some("tictactoe")
            if !watched_as_any_game(args.x, o)
                || args.clock.is_some()
                || args.layout != KeyLayout::Rows => {}
        Some(id) => return run_game(id, &args, &mut rng),
    }
    let mut app = App::new(settings);
    app.file = args.file.clone();
    let stdin_terminal = std::io::stdin().is_terminal();
    let result = if args.plain || !stdin_terminal || !std::io::stdout().is_terminal() {
        if args.clock.is_some() {
            eprintln!(
                "tictable: --clock is for the full-screen game only: this line dialogue \
                 has no move clock"
            );
        }
        let stdout = anstream::AutoStream::auto(std::io::stdout());
        let input = std::io::stdin().lock();
        let mut stderr = std::io::stderr();
        let bell = (!args.quiet).then_some(&mut stderr as &mut dyn std::io::Write);
        plain::run(app, input, stdout, &mut rng, !stdin_terminal, bell)
    } else {
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        tui::run(app, &mut rng, ui::Theme { color }, !args.quiet)
    };
    match result {
        // Input that cannot be read is bad input (2), not a write error.
        Err(e) if e.get_ref().is_some_and(|inner| inner.is::<ReadFailed>()) => {
            eprintln!("tictable: {e}");
            ExitCode::from(2)
        }
        result => crate::output::finish(result),
    }
}

/// Whether `x` and `o` are two engines of levels every game has (`--game`'s players).
fn watched_as_any_game(x: Seat, o: Seat) -> bool {
    [x, o].into_iter().all(|seat| match seat {
        Seat::Human => false,
        Seat::Engine(s) => crate::player::for_game(s, false).is_ok(),
    })
}

/// The seed of `--seed`, or one from the clock.
fn seed(args: &Args) -> u64 {
    args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
    })
}

/// `play --game G` for every game but tic-tac-toe (which keeps its own game above):
/// the game solved (or its `--table` read, or, for a Connect Four board too large to
/// solve, searched live: [`crate::live`]), then the dialogue or the full-screen game.
fn run_game(id: &str, args: &Args, rng: &mut rand_pcg::Pcg64Mcg) -> ExitCode {
    let game = match crate::solve::parse_game(id, "play") {
        Ok(game) => game,
        Err(code) => return code,
    };
    if args.clock.is_some() || args.layout != KeyLayout::Rows {
        return refuse("--clock and --layout are for tic-tac-toe only".into());
    }
    let perfect = Seat::Engine(tictable::strategy::Strategy::new(
        tictable::strategy::Level::Perfect,
    ));
    let repeats = tictable_games::dispatch!(&game, g => tictable_games::Game::repeats(g));
    let seat = |seat: Seat| match seat {
        Seat::Human => Ok(None),
        Seat::Engine(s) => crate::player::for_game(s, repeats).map(Some),
    };
    let seats = match (seat(args.x), seat(args.o.unwrap_or(perfect))) {
        (Ok(x), Ok(o)) => [x, o],
        (Err(e), _) | (_, Err(e)) => return refuse(e),
    };
    if let Some(g) = crate::live::searched(&game, args.table.as_deref()) {
        if let Some(e) = seats.iter().flatten().find_map(|e| needs_table(e, &g)) {
            return refuse(e);
        }
        return match crate::live::Live::new(g) {
            Ok(live) => play(Box::new(live), seats, args, rng),
            Err(e) => refuse(e),
        };
    }
    tictable_games::dispatch!(game, g => {
        match solve_for_play(g, args.table.as_deref()) {
            Ok(solution) => play(Box::new(solution), seats, args, rng),
            Err(e) => refuse(e),
        }
    })
}

/// `play: E` on stderr, exit status 2.
fn refuse(e: String) -> ExitCode {
    eprintln!("play: {e}");
    ExitCode::from(2)
}

/// Why `engine` cannot play `game`, searched live: its level looks through the whole
/// table, which this board does not have; `None` for the levels that play from the
/// search ([`WITHOUT_TABLE`](crate::oracle::WITHOUT_TABLE)).
fn needs_table(
    engine: &tictable_games::players::Player,
    game: &tictable_games::ConnectFour,
) -> Option<String> {
    use tictable_games::Game;
    if crate::oracle::WITHOUT_TABLE.contains(&engine.level()) {
        return None;
    }
    let id = game.id();
    Some(format!(
        "`{engine}` chooses from the whole solved table of {id} ({} bytes), which is not \
         solved on demand: this board is searched live, where the levels are perfect (or \
         hard), random and epsilon:E; or write the table once with `tictable solve --game {id} --out \
         DIR` and pass `--table DIR/{}`",
        game.key_space(),
        crate::solve::file_name(&id)
    ))
}

/// Plays `oracle`'s game with `seats`: the dialogue or the full-screen game.
fn play<G: tictable_games::Game + 'static>(
    oracle: Box<dyn crate::oracle::Oracle<G>>,
    seats: [Option<tictable_games::players::Player>; 2],
    args: &Args,
    rng: &mut rand_pcg::Pcg64Mcg,
) -> ExitCode {
    let session = session::Session::new(oracle, seats, args.file.clone());
    let stdin_terminal = std::io::stdin().is_terminal();
    let result = if args.plain || !stdin_terminal || !std::io::stdout().is_terminal() {
        let stdout = anstream::AutoStream::auto(std::io::stdout());
        game_plain::run(
            session,
            std::io::stdin().lock(),
            stdout,
            rng,
            !stdin_terminal,
        )
    } else {
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        game_tui::run(session, rng, args.delay, color)
    };
    match result {
        Err(e) if e.get_ref().is_some_and(|inner| inner.is::<ReadFailed>()) => {
            eprintln!("tictable: {e}");
            ExitCode::from(2)
        }
        result => crate::output::finish(result),
    }
}

/// `game` solved for play, with a progress line on stderr (its table read from
/// `table` instead when given); a game too large to solve on demand is refused before
/// any work, with the table size it needs (the check of `analyse --game`).
pub(crate) fn solve_for_play<G: tictable_games::Game>(
    game: G,
    table: Option<&Path>,
) -> Result<tictable_games::Solution<G>, String> {
    if table.is_some() || game.key_space() > crate::solve::ON_DEMAND_KEYS {
        return crate::solve::load_or_solve(game, table);
    }
    let id = game.id();
    let start = std::time::Instant::now();
    let mut stderr = std::io::stderr();
    let terminal = stderr.is_terminal();
    let mut report = |n: u64| {
        if terminal {
            let _ = write!(stderr, "\r\x1b[Ksolving {id}: {n} positions");
        }
    };
    let solution = tictable_games::solve_with(
        game,
        tictable_games::Options {
            progress: Some(&mut report),
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    eprintln!(
        "{}solved {id}: {} positions in {:.1} s",
        if terminal { "\r\x1b[K" } else { "" },
        solution.summary().positions,
        start.elapsed().as_secs_f64()
    );
    Ok(solution)
}

/// A failed read of the person's input, told apart from a failed write (which
/// ends the program with a write error's status).
#[derive(Debug)]
struct ReadFailed(std::io::Error);

impl std::fmt::Display for ReadFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read the input: {}", self.0)
    }
}

impl std::error::Error for ReadFailed {}

/// `e`, marked as a failed read ([`ReadFailed`]).
fn read_failed(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), ReadFailed(e))
}

/// A typed answer to a y/n question (`y`, `yes`, `n`, `no`, any case), or `None`
/// for anything else (the `--plain` dialogues then ask again).
fn yes_no(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(true),
        "n" | "no" => Some(false),
        _ => None,
    }
}

/// Performs the file I/O an action asked for and reports back to the app; an
/// existing file is replaced only after the person agreed.
fn perform(app: &mut App, effect: Effect) {
    match effect {
        Effect::None => {}
        // A directory cannot be replaced by a save file: said at once, not after
        // "overwrite it?".
        Effect::Save { path, .. } if path.is_dir() => app.saved(Err(format!(
            "{} is a directory: give a file name",
            path.display()
        ))),
        Effect::Save {
            path,
            overwrite: false,
            ..
        } if path.exists() => app.ask_overwrite(path),
        Effect::Save { path, text, .. } => app.saved(
            std::fs::write(&path, text + "\n")
                .map(|()| path.display().to_string())
                .map_err(|e| format!("{}: {e}", path.display())),
        ),
        Effect::Load(path) => {
            let result = read_save(&path);
            app.loaded_from(path, result)
        }
    }
}

pub use session::MAX_SAVE_BYTES;

/// Reads a save file of at most [`MAX_SAVE_BYTES`].
pub fn read_save(file: &Path) -> Result<String, String> {
    use std::io::Read;
    let name = file.display();
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(format!(
            "{name}: larger than {MAX_SAVE_BYTES} bytes: not a saved game"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{name}: not text (UTF-8): not a saved game"))
}

/// The engine to move plays, if any; `false` when no engine is to move.
fn engine_move<R: rand_core::Rng + ?Sized>(app: &mut App, rng: &mut R) -> bool {
    let Some(strategy) = app.engine_to_move() else {
        return false;
    };
    match strategy.choose(&app.game.board(), rng) {
        Ok(square) => {
            app.apply(app::Action::EngineMove(square));
            true
        }
        Err(e) => {
            app.message = Some(format!("engine error: {e}"));
            false
        }
    }
}
