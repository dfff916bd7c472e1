//! Scripted complete games on the emulated CPU: the real `tictable::device`
//! `Controller` (sensors through the real `tcs3472`/`xca9548a` drivers, steppers,
//! lift, magnet, buttons, lights) against the simulator's no_std core
//! (`tictable::device::sim`, feature `sim-core`): the same bus, pin and world models
//! and the same simulated people as `tictable simulate` on the host, with the world
//! shared by reference. This module is a table of scenarios (data) and the checks
//! the run must pass; the runner is the library's
//! (`tictable::device::sim::scenario`).

use core::cell::RefCell;
use core::fmt;
use tictable::device::controller::{BestMove, GameSetup, State};
use tictable::device::sim::faults::{FaultKind, FaultSet};
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::{SimError, SimMachine, GAME_LIMIT_MS};
use tictable::device::sim::scenario::{PowerCut, Scenario, Summary, Violation};
use tictable::device::sim::world::{SimConfig, World};
use tictable::Square;

/// The games: perfect play both ways, a cheater whose moved pieces the device must
/// put back, an erring person on a machine with bus and sensor faults and missed
/// grips, a magnet that misses half of its grips, and a power cut during the device's first placement (1.5 s after Start).
const SCENARIOS: [Scenario; 6] = [
    Scenario::game(true, None, Style::Perfect),
    Scenario::game(false, None, Style::Perfect),
    Scenario {
        cheat_rate: 1.0,
        ..Scenario::game(true, Some(0), Style::Random)
    },
    Scenario {
        faults: FaultSet::I2C_AND_MAGNET,
        fault_rate: 0.02,
        ..Scenario::game(false, None, Style::Erring(0.3))
    },
    Scenario {
        faults: FaultSet::EMPTY.with(FaultKind::Magnet),
        fault_rate: 0.5,
        ..Scenario::game(true, Some(8), Style::Perfect)
    },
    Scenario {
        power_cut: Some(PowerCut::AtMs(1_500)),
        ..Scenario::game(true, Some(4), Style::Perfect)
    },
];

/// The number of scripted games.
pub const GAMES: usize = SCENARIOS.len();

/// The fault kinds of the table: each must be injected and recovered from.
const REQUESTED: FaultSet = FaultSet::I2C_AND_MAGNET.with(FaultKind::PowerCut);

/// Totals of the scripted games.
pub struct Outcome {
    /// Everything counted.
    pub summary: Summary,
    /// The controller's state when the power failed.
    pub cut_in: Option<State>,
}

/// Why the games failed.
pub enum Failure {
    /// The machine could not be built or calibrated.
    Setup(SimError),
    /// The warm-up game did not get going or did not end in time.
    WarmUp,
    /// The totals broke the contract.
    Contract(Violation),
    /// The cheating game had no cheat.
    NoCheat,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Setup(e) => write!(f, "setup: {e}"),
            Failure::WarmUp => f.write_str("the warm-up game did not play out"),
            Failure::Contract(v) => write!(f, "{v}"),
            Failure::NoCheat => f.write_str("the cheating game had no cheat"),
        }
    }
}

/// The simulated machine, its world shared by reference.
type Machine<'w> = SimMachine<BestMove, &'w RefCell<World>>;

/// Plays the scripted games on one calibrated machine, in order. First, while the
/// gantry carries the first piece of a warm-up game (device first, square 5),
/// `time_passes` gets a function that runs one controller pass, 10 µs after the
/// last, so the caller can time the passes that emit the steps; the warm-up game
/// then plays out.
pub fn play(time_passes: impl FnOnce(&mut dyn FnMut())) -> Result<Outcome, Failure> {
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
    let mut summary = Summary::default();
    let mut cut_in = None;
    for scenario in &SCENARIOS {
        let r = machine.play_scenario(scenario, &mut person, &mut || BestMove, None);
        cut_in = cut_in.or(r.cut_in);
        if scenario.cheat_rate > 0.0 && r.cheats == 0 {
            return Err(Failure::NoCheat);
        }
        summary.add_game(&r);
    }
    summary.add_machine(&mut machine);
    summary.check(REQUESTED, 0).map_err(Failure::Contract)?;
    Ok(Outcome { summary, cut_in })
}
