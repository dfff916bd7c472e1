//! `tictable play`: the interactive game, full-screen (`tui`) or as a line dialogue
//! (`plain`), both driving the same state machine (`app`).

pub mod app;
mod plain;
mod tui;
pub mod ui;

use app::{App, Effect, Seat, Settings};
use rand_core::SeedableRng;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Play tic-tac-toe against the engine, another person, or watch two engines.
///
/// Full-screen: arrow keys move the cursor, Enter or Space places; digits 1-9 place by
/// numeric-keypad layout (7 = top-left ... 3 = bottom-right); u undo, r redo, h hint
/// (each empty square shows win in n / draw / loss in n for the side to move), n new
/// game, s save, l load, m menu (players, delay), q or Ctrl-C quit.
///
/// X always moves first: to let the engine open, use `--x LEVEL --o human`.
/// A PLAYER is `human` or a level: random, easy, medium, perfect, trap, with an
/// optional mistake rate for perfect and trap (`perfect:0.15` plays a move of the
/// next worse outcome class 15% of the time) and an optional forced first move
/// (`perfect@4`, squares 0-8 row-major from the top-left).
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Who plays X (moves first): `human` or a level.
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    x: Seat,
    /// Who plays O: `human` or a level.
    #[arg(long, value_name = "PLAYER", default_value = "trap")]
    o: Seat,
    /// Seconds an engine visibly "thinks" before moving in the full-screen game (0
    /// allowed; the --plain dialogue answers at once, for scripts).
    #[arg(long, value_name = "SECONDS", default_value = "0.4", value_parser = parse_delay)]
    delay: Duration,
    /// A line-oriented dialogue on stdin/stdout instead of the full-screen game (no
    /// terminal needed: scripts, pipes, screen readers). Also used when stdin or
    /// stdout is not a terminal.
    #[arg(long)]
    plain: bool,
    /// Seed for the engines' random choices (default: from the clock).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// The file that s saves to and l loads from (JSON).
    #[arg(long, value_name = "PATH", default_value = "tictable-game.json")]
    file: PathBuf,
}

fn parse_delay(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(0.0..=60.0).contains(&seconds) {
        return Err("the delay must be between 0 and 60 seconds".to_string());
    }
    Ok(Duration::from_secs_f64(seconds))
}

pub fn run(args: Args) -> ExitCode {
    let settings = Settings {
        x: args.x,
        o: args.o,
        delay: args.delay,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
    });
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let app = App::new(settings);
    let stdin_terminal = std::io::stdin().is_terminal();
    let result = if args.plain || !stdin_terminal || !std::io::stdout().is_terminal() {
        let stdout = anstream::AutoStream::auto(std::io::stdout());
        let input = std::io::stdin().lock();
        plain::run(app, input, stdout, &mut rng, &args.file, !stdin_terminal)
    } else {
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        tui::run(app, &mut rng, &args.file, ui::Theme { color })
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tictable: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Performs the file I/O an action asked for and reports back to the app.
fn perform(app: &mut App, effect: Effect, file: &Path) {
    match effect {
        Effect::None => {}
        Effect::Save(text) => app.saved(
            std::fs::write(file, text + "\n")
                .map(|()| file.display().to_string())
                .map_err(|e| format!("{}: {e}", file.display())),
        ),
        Effect::Load => app.loaded(read_save(file)),
    }
}

/// The largest save file read, in bytes: a saved game is under 60 bytes, so anything
/// near this is not one (and `/dev/zero` is refused without filling memory).
pub const MAX_SAVE_BYTES: u64 = 4096;

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
