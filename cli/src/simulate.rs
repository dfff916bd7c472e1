//! `tictable simulate`: whole games between the simulated machine (the real
//! controller and drivers on a simulated bus and pins) and simulated humans.

use crate::player;
use crate::selfplay::count as count_of;
use crate::values;
use clap::error::ErrorKind;
use clap::Args as _;
use serde_json::json;
use std::io::{self, Write};
use std::process::ExitCode;
use tictable::strategy::Level;
use tictable::Square;
use tictable_machine::controller::{GameRecord, State};
use tictable_machine::panel::Light;
use tictable_machine::sim::batch::{run_batch, Batch};
use tictable_machine::sim::faults::{ByKind, FaultSet};
use tictable_machine::sim::scenario::PLACEMENT_LIMIT_MS;
use tictable_machine::sim::world::World;
use tictable_machine::Colour;

/// The fewest games the snapshot flash must last (erase cycles of its most erased
/// page).
const MIN_WEAR_GAMES: u64 = 100_000;

/// The fewest games that measure the flash wear: a shorter run's erases are
/// mostly the first calibration's and the page fill's, so its projection says
/// little; below this the wear is reported but not judged.
const WEAR_JUDGED_FROM_GAMES: u32 = 100;

/// Play whole games on the simulated machine and report what happened.
///
/// Games alternate device first (black, optionally from a random first square) and
/// device second; humans are random, perfect or err 20 % of the time. Exit status 0
/// when the device never lost, every cheat was restored, no piece was lost, no game
/// got stuck or was not resumed after a power cut, no bus collision happened, every
/// placement took at most 15 s, every fault kind asked for was injected and recovered
/// from, and the snapshot flash lasts at least 100,000 games (judged from 100 games
/// on); games a person gave up do not break it (they are counted as abandoned). 1
/// otherwise (the first broken rule on stderr); 2 for bad arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 100, allow_hyphen_values = true, value_parser = count)]
    games: u32,
    /// Seed of everything random (world, humans, faults, device choices).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = values::seed)]
    seed: u64,
    /// Probability per human turn that the human moves a device piece instead.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = probability)]
    cheat_rate: f64,
    /// The fault kinds to inject, separated by commas, or `all`: i2c, brownout,
    /// stuck-sensor, bus-hang, lost-steps, magnet, drop, bump, human-extra,
    /// power-cut. Default: i2c,magnet when --fault-rate is above 0. Needs a
    /// --fault-rate above 0.
    #[arg(long, value_parser = faults)]
    faults: Option<FaultSet>,
    /// Probability of each fault kind: per I2C transaction and sensor reading
    /// (i2c), per grip (magnet), per human turn (human-extra), per state change of
    /// the machine (power-cut).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = probability)]
    fault_rate: f64,
    /// Board rotation in degrees (-45..=45).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = angle)]
    angle: f32,
    /// The device's level: random, easy, medium, perfect (or hard), trap (perfect
    /// play that steers towards the opponent's mistakes), sharp, gentle (F = 0.5),
    /// adaptive or epsilon (ε = 0.1), written as for `play`; the
    /// machine's panel sets a level only, so no mistake rate and no forced first move.
    #[arg(long, default_value = "trap", value_parser = level)]
    level: Level,
    /// One JSON line instead of text.
    #[arg(long)]
    json: bool,
    /// Show the first game state by state: board, head, lights.
    #[arg(long)]
    watch: bool,
}

fn count(s: &str) -> Result<u32, String> {
    values::games(s, u32::MAX.into()).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// A level as `play` and `selfplay` read a player ([`player::parse`]), refusing what
/// the machine cannot do: its panel sets a level only, and the simulation chooses
/// its first square game by game.
fn level(s: &str) -> Result<Level, String> {
    let strategy = player::parse(s)?;
    if strategy.mistake_rate() != strategy.level().default_parameter() {
        return Err(format!(
            "`{s}`: the machine plays its level without a mistake rate (its panel sets \
             only the level): write `{}`",
            strategy.level()
        ));
    }
    if strategy.first_move().is_some() {
        return Err(format!(
            "`{s}`: the simulation chooses the machine's first square game by game (a \
             random one half of the time it opens): write `{}`",
            strategy.level()
        ));
    }
    Ok(strategy.level())
}

fn faults(s: &str) -> Result<FaultSet, String> {
    s.parse().map_err(|e| format!("{s}: {e}"))
}

fn probability(s: &str) -> Result<f64, String> {
    let p: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{p} is not a probability in 0..=1"))
    }
}

fn angle(s: &str) -> Result<f32, String> {
    let a: f32 = s.parse().map_err(|e| format!("{e}"))?;
    if (-45.0..=45.0).contains(&a) {
        Ok(a)
    } else {
        Err(format!("{a} degrees is outside -45..=45"))
    }
}

/// A text frame of the machine: the pieces as they lie, the head, the lights.
fn frame(w: &World, state: State, record: &GameRecord) -> String {
    let mut out = format!("t={:>9.3} s  {}\n", w.now_ms as f64 / 1000.0, state);
    for row in 0..3u8 {
        let cells: Vec<String> = (0..3u8)
            .map(|col| {
                let s = Square::new(row * 3 + col).unwrap_or(Square::CENTRE);
                match w.piece_on(s).map(|i| w.pieces[i].colour) {
                    Some(Colour::Black) => " X ".into(),
                    Some(Colour::White) => " O ".into(),
                    None => format!(" {} ", s.index() + 1),
                }
            })
            .collect();
        out += &format!("   {}\n", cells.join("|"));
        if row < 2 {
            out += "   ---+---+---\n";
        }
    }
    let head = w.head_um();
    let lights: Vec<&str> = Light::ALL
        .iter()
        .filter(|l| w.lights[l.index()])
        .map(|&l| light_name(l))
        .collect();
    out += &format!(
        "   head ({:.1}, {:.1}) mm, lift {}, magnet {}{}\n   lights: {}\n   record: {}\n",
        f64::from(head.x) / 1000.0,
        f64::from(head.y) / 1000.0,
        if w.head.lowered { "down" } else { "up" },
        if w.head.magnet { "on" } else { "off" },
        if w.head.held.is_some() {
            " (holding a piece)"
        } else {
            ""
        },
        if lights.is_empty() {
            "none".into()
        } else {
            lights.join(", ")
        },
        record.board(),
    );
    out
}

/// A light's name on the panel.
fn light_name(light: Light) -> &'static str {
    match light {
        Light::Lamp => "lamp",
        Light::DeviceTurn => "machine's turn",
        Light::HumanTurn => "person's turn",
        Light::Win => "win",
        Light::Draw => "draw",
        Light::Loss => "loss",
        Light::Error => "error",
    }
}

/// A count per kind as a JSON object (`{"i2c": 3, ...}`).
fn by_kind(n: &ByKind) -> serde_json::Value {
    n.iter()
        .map(|(k, v)| (k.name().to_string(), json!(v)))
        .collect()
}

pub fn run(args: Args) -> ExitCode {
    if args.fault_rate == 0.0 && args.faults.is_some_and(|f| !f.is_empty()) {
        // A usage mistake, reported as clap reports one (exit status 2).
        let mut command =
            Args::augment_args(clap::Command::new("simulate")).bin_name("tictable simulate");
        let _ = command
            .error(
                ErrorKind::MissingRequiredArgument,
                "--faults needs a --fault-rate above 0 (for example --fault-rate 0.01): at \
                 the default rate 0 no fault is injected",
            )
            .print();
        return ExitCode::from(2);
    }
    let requested = args.faults.unwrap_or(if args.fault_rate > 0.0 {
        FaultSet::I2C_AND_MAGNET
    } else {
        FaultSet::EMPTY
    });
    let batch = Batch {
        games: args.games,
        seed: args.seed,
        cheat_rate: args.cheat_rate,
        faults: requested,
        fault_rate: args.fault_rate,
        angle_deg: args.angle,
        level: args.level,
    };
    // Output errors (a closed pipe) are ignored: the simulation result is the exit status.
    // Only the first game is shown: frames stop once its end has been shown.
    let mut first_over = false;
    let mut print = |w: &World, s: State, r: &GameRecord| {
        let over = matches!(s, State::Over(_));
        if first_over && !over {
            return;
        }
        first_over |= over;
        let _ = writeln!(io::stdout(), "{}", frame(w, s, r));
    };
    let start = std::time::Instant::now();
    let summary = match run_batch(batch, if args.watch { Some(&mut print) } else { None }) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tictable: the simulated machine could not start: {e}");
            return ExitCode::from(2);
        }
    };
    let s = summary;
    let mut out = io::stdout().lock();
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            json!({
                "games": s.games,
                "device_wins": s.device_wins,
                "device_draws": s.device_draws,
                "device_losses": s.device_losses,
                "cheats_injected": s.cheats_injected,
                "cheats_restored": s.cheats_restored,
                "cheats_fixed_after_cut": s.cheats_fixed_after_cut,
                "cheats_fixed_after_error": s.cheats_fixed_after_error,
                "faults_injected": s.faults_injected,
                "pieces_lost": s.pieces_lost,
                "stuck_games": s.stuck_games,
                "max_placement_ms": s.max_placement_ms,
                "max_model_placement_ms": s.max_model_ms,
                "retries": s.retries,
                "errors": s.errors,
                "human_fixes": s.human_fixes,
                "bus_collisions": s.collisions,
                "faults_by_kind": by_kind(&s.faults_by_kind),
                "recovered_by_kind": by_kind(&s.recovered_by_kind),
                "placements_over_15s": s.placements_over_15s,
                "abandoned_games": s.abandoned_games,
                "unresumed_games": s.unresumed_games,
                "watchdog_resets": s.watchdog_resets,
                "longest_loop_pass_us": s.longest_pass_us,
                "flash_erases_per_game": s.flash_erases_per_game(),
                "wear_games": s.wear_games(),
                "faults": requested.iter().map(|k| k.name()).collect::<Vec<_>>(),
                "seed": args.seed,
                "cheat_rate": args.cheat_rate,
                "fault_rate": args.fault_rate,
                "angle_deg": args.angle,
                "level": args.level.name(),
            })
        );
    } else {
        let _ = writeln!(
            out,
            "{} at level {} (seed {}, cheat rate {}, fault rate {}, board at {} deg) in {:.1} s",
            count_of(s.games.into(), "game"),
            args.level,
            args.seed,
            args.cheat_rate,
            args.fault_rate,
            args.angle,
            start.elapsed().as_secs_f64()
        );
        let _ = writeln!(
            out,
            "device: {}, {}, {}; stuck games: {}, abandoned by a person: {}, not resumed after a power cut: {}",
            count_of(s.device_wins.into(), "win"),
            count_of(s.device_draws.into(), "draw"),
            count_of(s.device_losses.into(), "loss"),
            s.stuck_games,
            s.abandoned_games,
            s.unresumed_games
        );
        let kinds: Vec<String> = s
            .faults_by_kind
            .iter()
            .filter(|(k, n)| *n > 0 || requested.contains(*k))
            .map(|(k, n)| format!("{k} {n} ({} recovered)", s.recovered_by_kind[k]))
            .collect();
        let _ = writeln!(
            out,
            "faults by kind: {}",
            if kinds.is_empty() {
                "none".into()
            } else {
                kinds.join(", ")
            }
        );
        let _ = writeln!(
            out,
            "cheats: {} injected, {} restored, put back by hand {} after a power cut and {} after the error light; faults injected: {}; retries: {}",
            s.cheats_injected, s.cheats_restored, s.cheats_fixed_after_cut, s.cheats_fixed_after_error, s.faults_injected, s.retries
        );
        let _ = writeln!(
            out,
            "error light: {} times, boards fixed by hand: {}; pieces lost: {}; bus collisions: {}",
            s.errors, s.human_fixes, s.pieces_lost, s.collisions
        );
        let _ = writeln!(
            out,
            "longest placement: {} ms measured, {} ms predicted by the motion model (limit {} ms, {} over)",
            s.max_placement_ms, s.max_model_ms, PLACEMENT_LIMIT_MS, s.placements_over_15s
        );
        let _ = writeln!(
            out,
            "flash: {:.1} erases per game, lasts {}",
            s.flash_erases_per_game(),
            s.wear_games()
                .map_or("forever (nothing erased)".into(), |g| {
                    count_of(g, "game")
                })
        );
    }
    let min_wear = if s.games >= WEAR_JUDGED_FROM_GAMES {
        MIN_WEAR_GAMES
    } else {
        0
    };
    match s.check(requested, min_wear) {
        Ok(()) => ExitCode::SUCCESS,
        Err(v) => {
            eprintln!("tictable: simulate: contract broken: {v}");
            ExitCode::FAILURE
        }
    }
}
