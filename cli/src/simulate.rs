//! `tictable simulate`: whole games between the simulated machine (the real
//! controller and drivers on a simulated bus and pins) and simulated humans.

use crate::move_times::{quantile, MoveTimes};
use crate::output::{self, Tally};
use crate::player;
use crate::selfplay::count as count_of;
use crate::values;
use clap::error::ErrorKind;
use clap::Args as _;
use serde_json::json;
use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use tictable::strategy::Level;
use tictable::Square;
use tictable_machine::controller::{GameRecord, Rules, State};
use tictable_machine::panel::Light;
use tictable_machine::sim::batch::{run_batch, Batch, Summary};
use tictable_machine::sim::faults::{ByKind, FaultKind, FaultSet};
use tictable_machine::sim::scenario::PLACEMENT_LIMIT_MS;
use tictable_machine::sim::world::{SimConfig, World};
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
/// Games alternate device first (black, optionally from a random first square in
/// tic-tac-toe) and device second; humans are random, perfect or err 20 % of the
/// time (perfect at the game played: `--game misere` for misère). Exit status 0
/// when the device never lost (at perfect, hard and trap; random, easy and medium
/// lose some games, and their losses are reported, not judged; misère's start is a
/// draw, so a machine that never loses it never gives away value), every cheat was
/// restored, no piece was lost, no game got stuck or was not resumed after a power
/// cut, no bus collision happened, every placement took at most 15 s, every fault
/// kind injected was recovered from, every kind named with --faults was injected
/// where missing it had a probability below 1e-9 (a kind not drawn is said on
/// stderr), and the snapshot flash lasts at least 100,000 games (judged from 100
/// games on); games a person gave up do not break it (they are counted as
/// abandoned). 1 otherwise (the first broken rule on stderr); 2 for bad arguments;
/// 74 when the output cannot be written.
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
    /// Default: trap for tic-tac-toe, perfect for the other games (which play only that).
    #[arg(long, value_parser = level)]
    level: Option<Level>,
    /// The game: tictactoe (three in a line wins), misere (three of one's own in
    /// a line loses), three-mens-morris, tapatan or achi (pieces placed, then slid;
    /// a cheat there is a device piece moved or an illegal move of the person's
    /// own), hexapawn (the machine sets its pawns up, the person theirs; White
    /// moves first: the machine plays White when it moves first; its captures go
    /// beside the storage column); the other games play their best-move tables
    /// perfectly.
    #[arg(long, default_value = "tictactoe", value_parser = game)]
    game: Rules,
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

/// A game the machine plays (`tictactoe`, `misere`, `three-mens-morris`, `tapatan`,
/// `achi`, `hexapawn`).
fn game(s: &str) -> Result<Rules, String> {
    Rules::ALL.into_iter().find(|r| r.id() == s).ok_or_else(|| {
        format!(
            "`{s}`: the machine plays tictactoe, misere, three-mens-morris, tapatan, achi or \
             hexapawn"
        )
    })
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

/// The record in words: a placing game's board; the moves of a game whose
/// pieces move, squares 1-9 (`8-5` a slide or pawn move, `7` a placement).
fn record_text(record: &GameRecord) -> String {
    if record.game().places_only() {
        return record.board().to_string();
    }
    let moves: Vec<String> = record
        .plies()
        .map(|mv| match mv.from() {
            Some(from) => format!("{}-{}", from.index() + 1, mv.to().index() + 1),
            None => format!("{}", mv.to().index() + 1),
        })
        .collect();
    if moves.is_empty() {
        "no move yet".into()
    } else {
        moves.join(" ")
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
        record_text(record),
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

/// A usage mistake, reported as clap reports one (exit status 2).
fn usage(kind: ErrorKind, message: &str) -> ExitCode {
    let mut command =
        Args::augment_args(clap::Command::new("simulate")).bin_name("tictable simulate");
    let _ = command.error(kind, message).print();
    ExitCode::from(2)
}

pub fn run(args: Args) -> ExitCode {
    if args.fault_rate == 0.0 && args.faults.is_some_and(|f| !f.is_empty()) {
        return usage(
            ErrorKind::MissingRequiredArgument,
            "--faults needs a --fault-rate above 0 (for example --fault-rate 0.01): at \
             the default rate 0 no fault is injected",
        );
    }
    let level = match (args.game, args.level) {
        (Rules::TicTacToe, level) => level.unwrap_or(Level::Trap),
        (_, None | Some(Level::Perfect)) => Level::Perfect,
        (game, Some(other)) => {
            return usage(
                ErrorKind::ValueValidation,
                &format!(
                    "--game {} plays its best-move table only: --level perfect, not {other}",
                    game.id()
                ),
            );
        }
    };
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
        level,
        rules: args.game,
    };
    // Written as the games go; a write error is the exit status at the end (see
    // `output`), a closed pipe is not one. Only the first game is shown: frames
    // stop once its end has been shown.
    let mut out = Tally::new(io::stdout());
    let mut first_over = false;
    let mut times = MoveTimes::default();
    let mut print = |w: &World, s: State, r: &GameRecord| {
        times.saw(w.now_ms, s, r);
        let over = matches!(s, State::Over(_));
        if !args.watch || first_over && !over {
            return;
        }
        first_over |= over;
        out.put(&format!("{}\n", frame(w, s, r)));
    };
    let start = std::time::Instant::now();
    let summary = match run_batch(batch, Some(&mut print)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tictable: the simulated machine could not start: {e}");
            return ExitCode::from(2);
        }
    };
    let s = summary;
    let not_drawn = not_drawn(&s, requested, args.faults.is_some(), args.fault_rate);
    let mut text = String::new();
    if args.json {
        let mut v = json!({
            "games": s.games,
            "device_wins": s.device_wins,
            "device_draws": s.device_draws,
            "device_losses": s.device_losses,
            "draws_by_repetition": s.draws_by_repetition,
            "draws_by_length": s.draws_by_length,
            "cheats_injected": s.cheats_injected,
            "cheats_restored": s.cheats_restored,
            "illegal_moves": s.illegal_moves,
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
            "level": level.name(),
            "game": args.game.id(),
            "by_side": {
                "device_first": side(s.by_side[0]),
                "device_second": side(s.by_side[1]),
            },
        });
        // The device's slides (the games whose pieces move; 0 in the others).
        v["max_slide_ms"] = s.max_slide_ms.into();
        v["slides_over_15s"] = s.slides_over_15s.into();
        v["placement_ms"] = spread(&times.placements);
        v["move_ms"] = spread(&times.moves);
        let _ = writeln!(text, "{v}");
    } else {
        let _ = writeln!(
            text,
            "{}{} at level {} (seed {}, cheat rate {}, fault rate {}, board at {} deg) in {:.1} s",
            count_of(s.games.into(), "game"),
            match args.game {
                Rules::TicTacToe => String::new(),
                Rules::Misere => " of misère".to_string(),
                game => format!(" of {}", game.id()),
            },
            level,
            args.seed,
            args.cheat_rate,
            args.fault_rate,
            args.angle,
            start.elapsed().as_secs_f64()
        );
        let _ = writeln!(
            text,
            "device: {}, {}, {}; stuck games: {}, abandoned by a person: {}, not resumed after a power cut: {}",
            count_of(s.device_wins.into(), "win"),
            count_of(s.device_draws.into(), "draw"),
            count_of(s.device_losses.into(), "loss"),
            s.stuck_games,
            s.abandoned_games,
            s.unresumed_games
        );
        let [first, second] = s.by_side.map(|[w, d, l]| format!("{w} / {d} / {l}"));
        let _ = writeln!(
            text,
            "device wins / draws / losses moving first: {first}, moving second: {second}"
        );
        if !args.game.places_only() {
            let _ = writeln!(
                text,
                "draws by a threefold repetition: {}, by the 64-ply length: {}",
                s.draws_by_repetition, s.draws_by_length
            );
        }
        let kinds: Vec<String> = s
            .faults_by_kind
            .iter()
            .filter(|(k, n)| *n > 0 || requested.contains(*k))
            .map(|(k, n)| format!("{k} {n} ({} recovered)", s.recovered_by_kind[k]))
            .collect();
        let _ = writeln!(
            text,
            "faults by kind: {}",
            if kinds.is_empty() {
                "none".into()
            } else {
                kinds.join(", ")
            }
        );
        let _ = writeln!(
            text,
            "cheats: {} injected, {} restored, put back by hand {} after a power cut and {} after the error light; faults injected: {}; retries: {}",
            s.cheats_injected, s.cheats_restored, s.cheats_fixed_after_cut, s.cheats_fixed_after_error, s.faults_injected, s.retries
        );
        if !args.game.places_only() {
            let _ = writeln!(
                text,
                "illegal moves of the person's own (refused, put back by hand): {}",
                s.illegal_moves
            );
            let _ = writeln!(
                text,
                "longest slide of the machine's: {} ms (two travels; limit 15000 ms, {} over)",
                s.max_slide_ms, s.slides_over_15s
            );
        }
        let _ = writeln!(
            text,
            "error light: {} times, boards fixed by hand: {}; pieces lost: {}; bus collisions: {}",
            s.errors, s.human_fixes, s.pieces_lost, s.collisions
        );
        let _ = writeln!(
            text,
            "longest placement: {} ms measured, {} ms predicted by the motion model (limit {} ms, {} over)",
            s.max_placement_ms, s.max_model_ms, PLACEMENT_LIMIT_MS, s.placements_over_15s
        );
        let _ = writeln!(
            text,
            "placement times p50 / p99: {} ({} placements){}",
            p50_p99(&times.placements),
            times.placements.len(),
            if args.game.places_only() {
                String::new()
            } else {
                format!(
                    "; the machine's moves (slides, pawn moves, captures) p50 / p99: {} ({} moves)",
                    p50_p99(&times.moves),
                    times.moves.len()
                )
            }
        );
        let _ = writeln!(
            text,
            "flash: {:.1} erases per game, lasts {}",
            s.flash_erases_per_game(),
            s.wear_games()
                .map_or("forever (nothing erased)".into(), |g| {
                    count_of(g, "game")
                })
        );
    }
    out.put(&text);
    for miss in &not_drawn {
        eprintln!("tictable: simulate: {miss}");
    }
    let min_wear = if s.games >= WEAR_JUDGED_FROM_GAMES {
        MIN_WEAR_GAMES
    } else {
        0
    };
    // The contract as this level and these faults make it: losses only for a level
    // that never loses, every kind asked for only where drawing it was certain.
    // In the games whose pieces move, "never loses" is "never gives away value":
    // a game that ends worse for the machine than its side's start value (the
    // solver's) counts as lost.
    let judged = Summary {
        device_losses: if !args.game.places_only() {
            value_given_away(s.by_side, args.game.first_player_wins())
        } else if never_loses(level) {
            s.device_losses
        } else {
            0
        },
        ..s
    };
    let must_inject = not_drawn
        .iter()
        .filter(|m| m.certain)
        .fold(FaultSet::EMPTY, |set, m| set.with(m.kind));
    let judged_kinds = requested
        .iter()
        .filter(|&k| s.faults_by_kind[k] > 0)
        .fold(must_inject, FaultSet::with);
    let status = match judged.check(judged_kinds, min_wear) {
        Ok(()) => ExitCode::SUCCESS,
        Err(v) => {
            eprintln!("tictable: simulate: contract broken: {v}");
            ExitCode::FAILURE
        }
    };
    match output::closed_is_done(out.result()) {
        Ok(()) => status,
        Err(e) => output::write_failed("stdout", &e),
    }
}

/// `times`' count, p50, p99 and largest as JSON (ms; `null` without a time).
fn spread(times: &[u32]) -> serde_json::Value {
    json!({
        "count": times.len(),
        "p50": quantile(times, 0.5),
        "p99": quantile(times, 0.99),
        "max": times.iter().max(),
    })
}

/// `times`' p50 and p99 in words: `2839 / 9455 ms`.
fn p50_p99(times: &[u32]) -> String {
    match (quantile(times, 0.5), quantile(times, 0.99)) {
        (Some(a), Some(b)) => format!("{a} / {b} ms"),
        _ => "none".into(),
    }
}

/// A side's `[wins, draws, losses]` as JSON.
fn side([wins, draws, losses]: [u32; 3]) -> serde_json::Value {
    json!({ "wins": wins, "draws": draws, "losses": losses })
}

/// Whether the machine at `level` never loses, whoever it plays and whichever
/// first square it opens on: `perfect` and `trap` play only outcome-optimal moves
/// (tic-tac-toe is a draw with best play from every opening square), the other
/// levels play random moves some of the time and lose some games. Checked against
/// the engine's exact self-play in the tests below.
pub fn never_loses(level: Level) -> bool {
    matches!(
        level,
        Level::Perfect | Level::Trap | Level::Sharp | Level::Gentle | Level::Adaptive
    )
}

/// Below this probability of never drawing a fault kind in a run, drawing it is
/// taken as certain: a run that asked for it with `--faults` and did not draw it
/// breaks the contract (something is wrong with the injection, not with luck).
pub const CERTAIN_MISS: f64 = 1e-9;

/// A fault kind asked for and never drawn in a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotDrawn {
    /// The kind.
    pub kind: FaultKind,
    /// Games played.
    pub games: u32,
    /// The `--fault-rate`.
    pub rate: f64,
    /// An upper bound of the probability of never drawing the kind in these games:
    /// `(1 - p)^games`, with `p` the kind's probability per draw at this rate
    /// ([`draw_probability`]) and one draw per game (every game draws each kind at
    /// least once: it has a grip, a release, STEP pulses, bus transactions, sensor
    /// readings, a person's turn and a state change).
    pub miss: f64,
    /// Whether the kind was asked for with `--faults` and `miss` is below
    /// [`CERTAIN_MISS`].
    pub certain: bool,
}

impl std::fmt::Display for NotDrawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: not drawn in {} at rate {} (a run like this misses it with \
             probability at most {}",
            self.kind,
            count_of(self.games.into(), "game"),
            self.rate,
            if self.miss >= 1e-3 {
                format!("{:.3}", self.miss)
            } else {
                format!("{:.1e}", self.miss)
            }
        )?;
        if self.certain {
            write!(f, ", below {CERTAIN_MISS:e}: it was certain to be drawn)")
        } else {
            f.write_str("; more games or a higher rate draw it)")
        }
    }
}

/// The probability that one draw of `kind` injects it at `rate`: the highest of
/// the world's probabilities the kind sets ([`SimConfig::set_faults`]: a NACK per
/// transaction for `i2c`, a slip per STEP pulse for `lost-steps`, ...), or `rate`
/// itself for the kinds drawn outside the world (`human-extra` per person's turn,
/// `power-cut` per state change).
pub fn draw_probability(kind: FaultKind, rate: f64) -> f64 {
    let Ok(mut c) = SimConfig::standard(0.0, 0.0, 0) else {
        return rate;
    };
    c.set_faults(FaultSet::EMPTY.with(kind), rate);
    let world = [
        c.nack_rate,
        c.timeout_rate,
        c.flicker_rate,
        c.brownout_rate,
        c.stuck_rate,
        c.bus_hang_rate,
        c.missed_pickup_rate,
        c.lost_step_rate,
        c.release_fail_rate,
        c.drop_rate,
        c.bump_rate,
    ]
    .into_iter()
    .fold(0.0, f64::max);
    if world > 0.0 {
        world
    } else {
        rate
    }
}

/// The kinds of `requested` that `s` never drew, each with how likely that was;
/// `explicit` when the user named the kinds (`--faults`).
fn not_drawn(s: &Summary, requested: FaultSet, explicit: bool, rate: f64) -> Vec<NotDrawn> {
    requested
        .iter()
        .filter(|&k| s.faults_by_kind[k] == 0)
        .map(|kind| {
            let miss = (1.0 - draw_probability(kind, rate)).powf(f64::from(s.games));
            NotDrawn {
                kind,
                games: s.games,
                rate,
                miss,
                certain: explicit && miss < CERTAIN_MISS,
            }
        })
        .collect()
}

/// Games that ended worse for the machine than its side's start value, from the
/// results by side (`[wins, draws, losses]` moving first, then second) and the
/// first player's start value (`Some(true)` a win, `None` a draw).
fn value_given_away(by_side: [[u32; 3]; 2], first_wins: Option<bool>) -> u32 {
    let [[_, d1, l1], [_, d2, l2]] = by_side;
    let first = match first_wins {
        Some(true) => d1 + l1,
        None => l1,
        Some(false) => 0,
    };
    let second = match first_wins {
        Some(false) => d2 + l2,
        None => l2,
        Some(true) => 0,
    };
    first + second
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;
    use tictable::selfplay::exact;
    use tictable::strategy::Strategy;

    #[test]
    fn the_levels_that_never_lose_are_those_the_exact_self_play_finds() {
        // Against a uniformly random opponent every opponent move has a positive
        // probability, so a loss probability of exactly 0 (the engine's exact
        // self-play, rational arithmetic) means no line loses against anyone. The
        // machine opens on any square (random half the time), so every forced first
        // square is tried; a draw with best play from every opening is the textbook
        // result (Berlekamp, Conway, Guy, "Winning Ways", ch. 22).
        let random = Strategy::new(Level::Random);
        for level in Level::ALL {
            let device = Strategy::new(level);
            let mut lost = exact(&random, &device).unwrap().x_win;
            for first in (0..9).filter_map(Square::new) {
                lost += exact(&device.with_first_move(Some(first)), &random)
                    .unwrap()
                    .o_win;
            }
            lost += exact(&device, &random).unwrap().o_win;
            assert_eq!(never_loses(level), lost.is_zero(), "{level}: {lost}");
        }
    }

    #[test]
    fn a_kind_is_certain_only_when_missing_it_is_below_one_in_a_billion() {
        let mut s = Summary {
            games: 20,
            ..Summary::default()
        };
        let bump = FaultSet::EMPTY.with(FaultKind::Bump);
        // A bump per grip at 0.01 x 0.1 (GRIP_FAULT_SCALE): 0.999^20 = 0.98.
        let [miss] = not_drawn(&s, bump, true, 0.01)[..] else {
            panic!("one kind")
        };
        assert!((miss.miss - 0.999f64.powi(20)).abs() < 1e-12, "{miss:?}");
        assert!(!miss.certain);
        assert!(
            miss.to_string()
                .starts_with("bump: not drawn in 20 games at rate 0.01"),
            "{miss}"
        );
        // At rate 1 a bump comes with probability 0.1 per grip: 0.9^196 = 1.07e-9,
        // 0.9^197 = 9.7e-10 (docs/machine.md quotes both figures).
        s.games = 196;
        assert!(!not_drawn(&s, bump, true, 1.0)[0].certain);
        s.games = 197;
        assert!(not_drawn(&s, bump, true, 1.0)[0].certain);
        // Not asked for by name (the default i2c,magnet): never judged.
        assert!(!not_drawn(&s, bump, false, 1.0)[0].certain);
        // Drawn: nothing to say.
        s.faults_by_kind[FaultKind::Bump] = 1;
        assert!(not_drawn(&s, bump, true, 1.0).is_empty());
    }

    #[test]
    fn each_kind_is_drawn_at_the_probability_the_world_gives_it() {
        use tictable_machine::sim::faults::{
            GRIP_FAULT_SCALE, SENSOR_FAULT_SCALE, STEP_FAULT_SCALE,
        };
        let p = |k| draw_probability(k, 0.5);
        assert_eq!(p(FaultKind::I2c), 0.5);
        assert_eq!(p(FaultKind::Magnet), 0.5);
        assert_eq!(p(FaultKind::HumanExtra), 0.5);
        assert_eq!(p(FaultKind::PowerCut), 0.5);
        assert_eq!(p(FaultKind::Brownout), 0.5 * SENSOR_FAULT_SCALE);
        assert_eq!(p(FaultKind::LostSteps), 0.5 * STEP_FAULT_SCALE);
        assert_eq!(p(FaultKind::Bump), 0.5 * GRIP_FAULT_SCALE);
    }
}
