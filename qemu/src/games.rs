//! Scripted complete games on the emulated CPU: the real `tictable::device`
//! `Controller` (sensors through the real `tcs3472`/`xca9548a` drivers, steppers,
//! lift, magnet, buttons, lights) against the simulator's no_std core
//! (`tictable::device::sim`, feature `sim-core`): the same bus, pin and world models
//! and the same simulated people as `tictable simulate` on the host, with the world
//! shared by reference. This module only says which games to play and what they
//! must show.

use core::cell::RefCell;
use core::fmt;
use tictable::device::controller::{BestMove, GameSetup, State};
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::{GameReport, SimError, SimMachine, GAME_LIMIT_MS};
use tictable::device::sim::world::{SimConfig, World};
use tictable::Square;

/// One scripted game.
struct Script {
    /// The device moves first (black).
    device_first: bool,
    /// The device's first square when it moves first.
    first_square: Option<u8>,
    /// How the person plays.
    style: Style,
    /// Probability per turn that the person moves one of the device's pieces.
    cheat_rate: f64,
    /// Probability of each fault (I2C NACK, flickering reading, missed pick-up).
    fault_rate: f64,
    /// The power fails this long after Start: the machine restarts and resumes the
    /// game from its flash snapshot (a piece on the magnet drops where it is).
    power_cut_ms: Option<u32>,
}

/// A game with the person playing `style`, nothing else going wrong.
const fn game(device_first: bool, first_square: Option<u8>, style: Style) -> Script {
    Script {
        device_first,
        first_square,
        style,
        cheat_rate: 0.0,
        fault_rate: 0.0,
        power_cut_ms: None,
    }
}

/// The games: perfect play both ways, a cheater whose moved pieces the device must
/// put back, an erring person on a machine with bus and sensor faults, and a power
/// cut during the device's first placement (1.5 s after Start).
const SCRIPTS: [Script; 5] = [
    game(true, None, Style::Perfect),
    game(false, None, Style::Perfect),
    Script {
        cheat_rate: 1.0,
        ..game(true, Some(0), Style::Random)
    },
    Script {
        fault_rate: 0.02,
        ..game(false, None, Style::Erring(0.3))
    },
    Script {
        power_cut_ms: Some(1_500),
        ..game(true, Some(4), Style::Perfect)
    },
];

/// The number of scripted games.
pub const GAMES: usize = SCRIPTS.len();

/// Totals of the scripted games.
pub struct Outcome {
    /// Games the device won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Device pieces the person moved.
    pub cheats: u32,
    /// Moved pieces the device put back.
    pub restores: u32,
    /// Faults injected (NACKs, flickers, missed pick-ups).
    pub faults: u64,
    /// Games resumed from flash after a power cut.
    pub resumed: u32,
    /// The controller's state when the power failed.
    pub cut_in: Option<State>,
}

/// Why the games failed.
pub enum Failure {
    /// The machine could not be built or calibrated.
    Setup(SimError),
    /// A game did not end in time.
    Stuck(usize),
    /// The device lost a game.
    Lost(usize),
    /// The pieces on the board differ from the record at the end of a game.
    PiecesLost(usize),
    /// A moved device piece was not put back.
    NotRestored(usize),
    /// The cheating game had no cheat, or the faulty game no fault.
    NotExercised(usize),
    /// Two sensors answered at once on the bus.
    Collision,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Setup(e) => write!(f, "setup: {e}"),
            Failure::Stuck(g) => write!(f, "game {g} did not end in time"),
            Failure::Lost(g) => write!(f, "device lost game {g}"),
            Failure::PiecesLost(g) => write!(f, "board differs from the record after game {g}"),
            Failure::NotRestored(g) => write!(f, "a moved piece was not restored in game {g}"),
            Failure::NotExercised(g) => write!(f, "game {g} injected no cheat or fault"),
            Failure::Collision => f.write_str("bus collision"),
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
    let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 0x2545_F491)));
    let mut machine = SimMachine::with_world(&world, BestMove).map_err(Failure::Setup)?;
    let mut person = SimHuman::new(Style::Perfect, 0.0, 0x5EED);
    let over = |m: &Machine<'_>| matches!(m.controller.state(), State::Over(_));
    let warm_up = GameSetup {
        device_first: true,
        first_square: Square::new(4),
    };
    machine.start_game(warm_up, &mut person, Style::Perfect);
    let moving = |m: &Machine<'_>| {
        matches!(m.controller.state(), State::Placing { .. })
            && m.controller.hardware().machine.is_busy()
    };
    if !machine.run_until(&mut person, 60_000, moving) {
        return Err(Failure::NotExercised(0));
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
        return Err(Failure::Stuck(0));
    }
    let mut outcome = Outcome {
        wins: 0,
        draws: 0,
        cheats: 0,
        restores: 0,
        faults: 0,
        resumed: 0,
        cut_in: None,
    };
    for (game, script) in SCRIPTS.iter().enumerate() {
        world.borrow_mut().config.set_fault_rate(script.fault_rate);
        person.cheat_rate = script.cheat_rate;
        let faults = world.borrow().stats.faults();
        let setup = GameSetup {
            device_first: script.device_first,
            first_square: script.first_square.and_then(Square::new),
        };
        let r = match script.power_cut_ms {
            None => machine.play_game(setup, &mut person, script.style, None),
            Some(cut_ms) => {
                machine.start_game(setup, &mut person, script.style);
                if machine.run_until(&mut person, cut_ms, over) {
                    return Err(Failure::NotExercised(game));
                }
                outcome.cut_in = Some(machine.controller.state());
                machine.power_cycle(BestMove).map_err(Failure::Setup)?;
                outcome.resumed += 1;
                let finished = machine.run_until(&mut person, GAME_LIMIT_MS, over);
                let record = machine.controller.record().board();
                // A piece dropped by the cut where no sensor sees it is not in the game.
                let on_board = world.borrow().board_ignoring_strays(5.0).map(|(b, _)| b);
                GameReport {
                    device_won: match machine.controller.state() {
                        State::Over(result) => result,
                        _ => None,
                    },
                    finished,
                    pieces_lost: u32::from(on_board != Some((record.x(), record.o()))),
                    ..GameReport::default()
                }
            }
        };
        let faults = world.borrow().stats.faults() - faults;
        match (r.finished, r.device_won) {
            (false, _) => return Err(Failure::Stuck(game)),
            (true, Some(false)) => return Err(Failure::Lost(game)),
            (true, Some(true)) => outcome.wins += 1,
            (true, None) => outcome.draws += 1,
        }
        if r.pieces_lost != 0 {
            return Err(Failure::PiecesLost(game));
        }
        if r.restores != r.cheats {
            return Err(Failure::NotRestored(game));
        }
        if (script.cheat_rate > 0.0 && r.cheats == 0) || (script.fault_rate > 0.0 && faults == 0) {
            return Err(Failure::NotExercised(game));
        }
        outcome.cheats += r.cheats;
        outcome.restores += r.restores;
        outcome.faults += faults;
    }
    if world.borrow().stats.collisions != 0 {
        return Err(Failure::Collision);
    }
    Ok(outcome)
}
