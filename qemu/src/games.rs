//! Scripted complete games on the emulated CPU: the real `tictable_machine`
//! `Controller` (sensors through the real `tcs3472`/`xca9548a` drivers, steppers,
//! lift, magnet, buttons, lights) against the simulator's no_std core
//! (`tictable_machine::sim`, feature `sim-core`): the same bus, pin and world models
//! and the same simulated people as `tictable simulate` on the host, with the world
//! shared by reference. The games are the library's table of scripted scenarios
//! (`tictable_machine::sim::scenario::SCRIPTED`: perfect play, a cheater, a power
//! cut, and one game per fault kind, each injected and recovered from), played and
//! checked by its runner (`SimMachine::play_scripted`), as the host's test
//! `device_scripted` does. Each game prints a line: what it ran, its figures, PASS
//! or FAIL.

use core::cell::RefCell;
use core::fmt;
use cortex_m_semihosting::hprintln;
use tictable::Square;
use tictable_machine::controller::{BestMove, GameSetup, State};
use tictable_machine::sim::batch::{Summary, Violation};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::{SimError, SimMachine, GAME_LIMIT_MS};
use tictable_machine::sim::scenario::SCRIPTED;
use tictable_machine::sim::world::{SimConfig, World};

/// The number of scripted games.
pub const GAMES: usize = SCRIPTED.len();

/// Why the games failed.
pub enum Failure {
    /// The machine could not be built or calibrated.
    Setup(SimError),
    /// The warm-up game did not get going or did not end in time.
    WarmUp,
    /// A game, or the totals, broke the contract.
    Contract(Violation),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Setup(e) => write!(f, "setup: {e}"),
            Failure::WarmUp => f.write_str("the warm-up game did not play out"),
            Failure::Contract(v) => write!(f, "{v}"),
        }
    }
}

/// The simulated machine, its world shared by reference.
type Machine<'w> = SimMachine<BestMove, &'w RefCell<World>>;

/// Plays the scripted games on one calibrated machine, in order, printing a line
/// per game; their totals. First, while the
/// gantry carries the first piece of a warm-up game (device first, square 5),
/// `time_passes` gets a function that runs one controller pass, 10 µs after the
/// last, so the caller can time the passes that emit the steps; the warm-up game
/// then plays out.
pub fn play(time_passes: impl FnOnce(&mut dyn FnMut())) -> Result<Summary, Failure> {
    let config = SimConfig::standard(0.0, 0.0, 0x2545_F491)
        .map_err(|e| Failure::Setup(SimError::Config(e)))?;
    let world = RefCell::new(World::new(config));
    let mut machine = SimMachine::with_world(&world, BestMove).map_err(Failure::Setup)?;
    let mut person = SimHuman::new(Style::Perfect, 0.0, 0x5EED);
    let over = |m: &Machine<'_>| matches!(m.controller.state(), State::Over(_));
    let warm_up = GameSetup {
        device_first: true,
        first_square: Square::new(4),
    };
    let moving = |m: &Machine<'_>| {
        matches!(m.controller.state(), State::Placing { .. })
            && m.controller.hardware().machine.is_busy()
    };
    if !machine.start_game(warm_up, &mut person, Style::Perfect)
        || !machine.run_until(&mut person, 60_000, moving)
    {
        return Err(Failure::WarmUp);
    }
    let (mut ms, mut us) = (machine.now, 0u32);
    time_passes(&mut || {
        us += 10;
        if us >= 1000 {
            us -= 1000;
            ms += 1;
        }
        machine.controller.poll_at(ms, us as u16);
    });
    machine.now = ms;
    if !machine.run_until(&mut person, GAME_LIMIT_MS, over) {
        return Err(Failure::WarmUp);
    }
    machine
        .play_scripted(
            &SCRIPTED,
            &mut person,
            &mut || BestMove,
            &mut |i, s, r, ok| {
                let (verdict, why) = match ok {
                    // The check asked for every kind of the game injected and the
                    // game ended right.
                    Ok(()) if s.faults.is_empty() => ("PASS", None),
                    Ok(()) => ("recovered, PASS", None),
                    Err(v) => ("FAIL", Some(v)),
                };
                hprintln!(
                    "game {}/{} {}: {}: {}: {}",
                    i + 1,
                    GAMES,
                    crate::CPU,
                    s,
                    r,
                    verdict
                );
                if let Some(v) = why {
                    hprintln!("game {}/{} {}: {}", i + 1, GAMES, crate::CPU, v);
                }
            },
        )
        .map_err(Failure::Contract)
}
