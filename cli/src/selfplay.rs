//! `tictable selfplay`: two levels play each other, sampled or exactly.

use crate::player::{self, Named, Written};
use crate::values;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rand_core::SeedableRng;
use serde_json::json;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;
use tictable::selfplay::{exact, Sampler};
use tictable_games::players::outcome_probabilities;
use tictable_games::{catalog, Game};

/// Two players play each other: sampled games, or exact result probabilities.
///
/// Sampled games use a seeded RNG (same seed, same games). With `--exact` the game
/// tree is walked once per position, weighted by both players' move distributions, in
/// exact rational arithmetic.
///
/// A LEVEL is random, easy, medium, perfect (or hard), trap, sharp, gentle:F,
/// adaptive or epsilon:E (docs/players.md); perfect and trap take a mistake rate
/// (`perfect:0.15`: 15% of the moves come from the next worse outcome class), and any
/// level a forced first move (`perfect@5`, squares 1-9 left to
/// right, top to bottom: 5 is the centre). A forced first move gives up the
/// never-lose guarantee of perfect and trap (`--x random --o trap@2 --exact`).
///
/// Other games (`--game G`, with --exact; not the morris games, whose positions
/// repeat): X and O are perfect (keeps the value, the winner hurries, the loser
/// delays; uniform among such moves), sharp, gentle:F, adaptive, random (uniform
/// among the legal moves) or epsilon:E, as for tic-tac-toe (docs/players.md); the
/// tic-tac-toe-only levels (easy, medium, trap, a mistake rate, a first move) are
/// refused. adaptive learns along each line, so every line is followed: small games
/// only.
///
/// JSON (one line): {"x":..,"o":..,"games":N,"x_win":..,"o_win":..,"draw":..}, "x"
/// and "o" written as on the command line; with --exact "games" is null and
/// "x_win_exact", "o_win_exact", "draw_exact" hold the fractions as strings.
#[derive(clap::Args)]
pub struct Args {
    /// The player of X (moves first).
    #[arg(long, value_name = "LEVEL", value_parser = player::parse_written)]
    x: Written,
    /// The player of O.
    #[arg(long, value_name = "LEVEL", value_parser = player::parse_written)]
    o: Written,
    /// Number of sampled games (at least 1).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        conflicts_with = "exact",
        allow_hyphen_values = true,
        value_parser = games
    )]
    games: u64,
    /// Seed of the random generator (PCG-64 MCG); the same seed replays the same games.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        conflicts_with = "exact",
        allow_hyphen_values = true,
        value_parser = values::seed
    )]
    seed: u64,
    /// Exact probabilities instead of sampled games.
    #[arg(long)]
    exact: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Another game than tic-tac-toe (`tictable games`), with --exact.
    #[arg(long, value_name = "GAME", requires = "exact")]
    game: Option<String>,
    /// With --game: the game's table file, written by `tictable solve --game G --out
    /// DIR` (for games too large to solve on demand).
    #[arg(long, value_name = "FILE", requires = "game")]
    table: Option<std::path::PathBuf>,
}

/// A number of sampled games, from 1.
fn games(text: &str) -> Result<u64, String> {
    values::games(text, u64::MAX)
}

/// `n` and `word`, with an `s` (`es` after an `s`) unless `n` is 1 ("1 game",
/// "2 games", "2 losses").
pub fn count(n: u64, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        n if word.ends_with('s') => format!("{n} {word}es"),
        n => format!("{n} {word}s"),
    }
}

/// The progress bar: games done, games per second as a whole number, time left.
fn progress_style() -> ProgressStyle {
    ProgressStyle::with_template("{bar:40} {pos}/{len} games · {rate} · ETA {eta}")
        .map(|style| {
            style.with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} games/s", state.per_sec());
                },
            )
        })
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

pub fn run(args: Args) -> ExitCode {
    if let Some(id) = args.game.as_deref().filter(|id| id.trim() != "tictactoe") {
        return match game_report(id, &args) {
            Ok(text) => crate::output::finish(crate::output::print_styled(&text)),
            Err(e) => {
                eprintln!("selfplay: {e}");
                ExitCode::from(2)
            }
        };
    }
    let text = match report(&args) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("tictable: {e}");
            return ExitCode::FAILURE;
        }
    };
    crate::output::finish(crate::output::print_styled(&text))
}

/// Exact probabilities (X wins, O wins, draw) as `run` prints them; `game` is named
/// (in the heading and as JSON's `"game"`) for games other than tic-tac-toe.
fn exact_text(args: &Args, p: &[BigRational; 3], game: Option<&str>) -> String {
    let (x, o) = (Named(args.x.strategy), Named(args.o.strategy));
    let bold = anstyle::Style::new().bold();
    let f = |r: &BigRational| r.to_f64().unwrap_or(f64::NAN);
    let mut out = String::new();
    if args.json {
        let mut value = json!({
            "x": args.x.text, "o": args.o.text, "games": null,
            "x_win": f(&p[0]), "o_win": f(&p[1]), "draw": f(&p[2]),
            "x_win_exact": p[0].to_string(),
            "o_win_exact": p[1].to_string(),
            "draw_exact": p[2].to_string(),
        });
        if let (Some(id), Some(map)) = (game, value.as_object_mut()) {
            map.insert("game".into(), json!(id));
        }
        let _ = writeln!(out, "{value}");
    } else {
        let of = game.map_or(String::new(), |id| format!(" ({id})"));
        let _ = writeln!(out, "{bold}X {x} vs O {o}{of}, exact:{bold:#}");
        for (name, r) in [("X wins", &p[0]), ("O wins", &p[1]), ("draws", &p[2])] {
            let _ = writeln!(out, "  {name:<7} {:>9.5}%  = {r}", 100.0 * f(r));
        }
    }
    out
}

/// The games played or computed, as the text or JSON line `run` prints (styled:
/// bold headings).
fn report(args: &Args) -> Result<String, String> {
    let (strategy_x, strategy_o) = (args.x.strategy, args.o.strategy);
    let (x, o) = (Named(strategy_x), Named(strategy_o));
    // JSON names the players as written on the command line (`hard`, not `perfect`).
    let (x_written, o_written) = (&args.x.text, &args.o.text);
    let bold = anstyle::Style::new().bold();
    let mut out = String::new();
    if args.exact {
        let p = exact(&strategy_x, &strategy_o).map_err(|e| e.to_string())?;
        return Ok(exact_text(args, &[p.x_win, p.o_win, p.draw], None));
    }
    let progress = if args.games >= 100_000 {
        // Drawn on stderr, and only when stderr is a terminal.
        let bar = ProgressBar::new(args.games);
        bar.set_style(progress_style());
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(args.seed);
    let start = Instant::now();
    let counts = Sampler::new(strategy_x, strategy_o)
        .run(args.games, &mut rng, |n| progress.set_position(n))
        .map_err(|e| {
            progress.abandon();
            e.to_string()
        })?;
    progress.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    // At least one game was played (`--games` starts at 1).
    let games = counts.games().max(1) as f64;
    let share = |n: u64| n as f64 / games;
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            json!({
                "x": x_written, "o": o_written, "games": counts.games(),
                "x_win": share(counts.x_win), "o_win": share(counts.o_win),
                "draw": share(counts.draw),
            })
        );
    } else {
        let _ = writeln!(
            out,
            "{bold}X {x} vs O {o}: {}, seed {}{bold:#}",
            count(counts.games(), "game"),
            args.seed
        );
        for (name, n) in [
            ("X wins", counts.x_win),
            ("O wins", counts.o_win),
            ("draws", counts.draw),
        ] {
            let _ = writeln!(out, "  {name:<7} {:>9.5}%  ({n})", 100.0 * share(n));
        }
        let _ = writeln!(
            out,
            "  {:.0} games/s ({:.3} s)",
            counts.games() as f64 / seconds.max(1e-9),
            seconds
        );
    }
    Ok(out)
}

/// `selfplay --game G --exact`: the game solved, then the exact probabilities.
fn game_report(id: &str, args: &Args) -> Result<String, String> {
    let game = catalog::parse(id).map_err(|e| e.to_string())?;
    tictable_games::dispatch!(game, g => {
        if g.repeats() {
            return Err(format!(
                "{}: positions repeat (pieces slide back and forth), so a game can go on \
                 forever: no exact probabilities (games without repeats: tictactoe, misere, \
                 mnk:M,N,K, connect4:WxH, hexapawn)",
                g.id()
            ));
        }
        let x = player::for_game(args.x.strategy, false)?;
        let o = player::for_game(args.o.strategy, false)?;
        let solution = crate::play::solve_for_play(g, args.table.as_deref())?;
        let [x_win, draw, o_win] =
            outcome_probabilities(&solution, &x, &o).map_err(|e| e.to_string())?;
        Ok(exact_text(args, &[x_win, o_win, draw], Some(&solution.game().id())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::{ProgressDrawTarget, TermLike};
    use std::io;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.0
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?
                .push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_progress_rate_is_a_whole_number_of_games_per_second() {
        // Issue 15 item 13: indicatif's {per_sec} printed `4,019,655.1451/s`.
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(
            Some(1_000_000),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        bar.set_style(progress_style());
        for n in 1..=50 {
            bar.set_position(n * 20_000);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        bar.finish();
        let text = screen.0.lock().unwrap().clone();
        let rate = text
            .rsplit(" games/s")
            .nth(1)
            .and_then(|before| before.rsplit(' ').next())
            .unwrap_or_else(|| panic!("no rate in {text:?}"));
        assert!(
            !rate.is_empty() && rate.bytes().all(|b| b.is_ascii_digit()),
            "{rate:?} in {text:?}"
        );
        assert!(text.contains("1000000/1000000 games"), "{text:?}");
    }

    #[test]
    fn counts_read_as_words() {
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(0, "draw"), "0 draws");
        assert_eq!(count(2, "game"), "2 games");
        assert_eq!(count(2, "loss"), "2 losses");
    }
}
