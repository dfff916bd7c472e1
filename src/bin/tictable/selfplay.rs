//! `tictable selfplay`: two levels play each other, sampled or exactly.

use indicatif::{ProgressBar, ProgressStyle};
use num_traits::ToPrimitive;
use rand_core::SeedableRng;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;
use tictable::selfplay::{exact, Sampler};
use tictable::strategy::Strategy;

/// Two players play each other: sampled games, or exact result probabilities.
///
/// Sampled games use a seeded RNG (same seed, same games). With `--exact` the game
/// tree is walked once per position, weighted by both players' move distributions, in
/// exact rational arithmetic.
///
/// A LEVEL is random, easy, medium, perfect or trap; perfect and trap take a mistake
/// rate (`perfect:0.15`: 15% of the moves come from the next worse outcome class),
/// and any level a forced first move (`perfect@4`, squares 0-8 row-major from the
/// top-left).
///
/// JSON (one line): {"x":..,"o":..,"games":N,"x_win":..,"o_win":..,"draw":..}; with
/// --exact "games" is null and "x_win_exact", "o_win_exact", "draw_exact" hold the
/// fractions as strings.
#[derive(clap::Args)]
pub struct Args {
    /// The player of X (moves first).
    #[arg(long, value_name = "LEVEL")]
    x: Strategy,
    /// The player of O.
    #[arg(long, value_name = "LEVEL")]
    o: Strategy,
    /// Number of sampled games.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        conflicts_with = "exact"
    )]
    games: u64,
    /// Seed of the random generator (PCG-64 MCG); the same seed replays the same games.
    #[arg(long, value_name = "S", default_value_t = 0, conflicts_with = "exact")]
    seed: u64,
    /// Exact probabilities instead of sampled games.
    #[arg(long)]
    exact: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let (x, o) = (args.x, args.o);
    let bold = anstyle::Style::new().bold();
    if args.exact {
        let p = match exact(&x, &o) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("tictable: {e}");
                return ExitCode::FAILURE;
            }
        };
        let f = |r: &num_rational::BigRational| r.to_f64().unwrap_or(f64::NAN);
        if args.json {
            println!(
                "{}",
                json!({
                    "x": x.to_string(), "o": o.to_string(), "games": null,
                    "x_win": f(&p.x_win), "o_win": f(&p.o_win), "draw": f(&p.draw),
                    "x_win_exact": p.x_win.to_string(),
                    "o_win_exact": p.o_win.to_string(),
                    "draw_exact": p.draw.to_string(),
                })
            );
        } else {
            anstream::println!("{bold}X {x} vs O {o}, exact:{bold:#}");
            for (name, r) in [
                ("X wins", &p.x_win),
                ("O wins", &p.o_win),
                ("draws", &p.draw),
            ] {
                anstream::println!("  {name:<7} {:>9.5}%  = {r}", 100.0 * f(r));
            }
        }
        return ExitCode::SUCCESS;
    }
    let progress = if args.games >= 100_000 {
        // Drawn on stderr, and only when stderr is a terminal.
        let bar = ProgressBar::new(args.games);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games · {per_sec} · ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(args.seed);
    let start = Instant::now();
    let counts = match Sampler::new(x, o).run(args.games, &mut rng, |n| progress.set_position(n)) {
        Ok(counts) => counts,
        Err(e) => {
            progress.abandon();
            eprintln!("tictable: {e}");
            return ExitCode::FAILURE;
        }
    };
    progress.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let games = counts.games().max(1) as f64;
    let share = |n: u64| n as f64 / games;
    if args.json {
        println!(
            "{}",
            json!({
                "x": x.to_string(), "o": o.to_string(), "games": counts.games(),
                "x_win": share(counts.x_win), "o_win": share(counts.o_win),
                "draw": share(counts.draw),
            })
        );
    } else {
        anstream::println!(
            "{bold}X {x} vs O {o}: {} games, seed {}{bold:#}",
            counts.games(),
            args.seed
        );
        for (name, n) in [
            ("X wins", counts.x_win),
            ("O wins", counts.o_win),
            ("draws", counts.draw),
        ] {
            println!("  {name:<7} {:>9.5}%  ({n})", 100.0 * share(n));
        }
        println!(
            "  {:.0} games/s ({:.3} s)",
            counts.games() as f64 / seconds.max(1e-9),
            seconds
        );
    }
    ExitCode::SUCCESS
}
