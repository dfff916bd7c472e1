//! A whole simulated machine: build, calibrate, play games, count what happened.
//!
//! No allocation: the world is shared through any [`WorldHandle`] (`&RefCell<World>`
//! on a microcontroller, `Rc<RefCell<World>>` on the host), so the same runner plays
//! the games of `tictable simulate` and those of the on-target images under QEMU.

use super::bus::SimBus;
use super::flash::MemFlash;
use super::human::{SimHuman, Style};
use super::pins::{Role, SimPin};
use super::world::{SimConfig, World, WorldHandle};
use super::SplitMix64;
use crate::device::classify::{Calibration, CalibrationError, Calibrator, Margins, Reference};
use crate::device::controller::{
    Controller, GameSetup, Hardware, Layout, MoveChooser, ResumeError, State, StrategyChooser,
};
use crate::device::guided;
use crate::device::motion::{Axis, AxisId, Machine, PinLift};
use crate::device::panel::{Button, Panel};
use crate::device::persist::Store;
use crate::device::scanner::{ScanSettings, Scanner};
use crate::device::sensors::{SensorBank, SensorError, SensorSettings, Wiring};
use crate::device::Colour;
use crate::strategy::{Level, Strategy};
use crate::Square;
use core::cell::RefCell;

/// The controller type of the simulated machine whose world is shared through `W`.
pub type SimController<C, W> = Controller<SimBus<W>, SimPin<W>, SimPin<W>, PinLift<SimPin<W>>, C>;

/// Tries of the technician's sensor initialisation (1 ms apart) before giving up.
pub const INIT_TRIES: u32 = 10_000;

/// Why a simulated machine could not be built or restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A sensor did not initialise ([`INIT_TRIES`] tries).
    Sensor(Square, SensorError),
    /// Storage ran out of pieces of a colour during calibration.
    NoPiece(Colour),
    /// The calibration readings were refused.
    Calibration(CalibrationError),
    /// The simulated flash is too small for the snapshot store.
    FlashTooSmall,
    /// The simulated flash could not be read.
    FlashRead,
    /// Nothing was saved before the power cut.
    NothingSaved,
    /// The controller refused the saved snapshot.
    Resume(ResumeError),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::Sensor(s, e) => write!(f, "sensor {s}: {e}"),
            SimError::NoPiece(c) => write!(f, "no {c:?} piece left in storage"),
            SimError::Calibration(e) => write!(f, "{e}"),
            SimError::FlashTooSmall => f.write_str("flash too small"),
            SimError::FlashRead => f.write_str("flash read failed"),
            SimError::NothingSaved => f.write_str("nothing saved"),
            SimError::Resume(e) => write!(f, "resume: {e:?}"),
        }
    }
}

/// Calibrates the sensors the way a technician would: the guided procedure's steps
/// ([`guided::STEPS`]: the board empty, then black and white pieces on every square,
/// five at a time) laid out by hand and read through the real drivers
/// ([`guided::record_step`]), without going through the buttons (the tests of the
/// procedure itself do). Flicker faults are suspended meanwhile (a technician repeats
/// a bad calibration); bus NACKs are not.
pub fn calibrate<W: WorldHandle>(
    world: &RefCell<World>,
    bank: &mut SensorBank<SimBus<W>>,
) -> Result<Calibration, SimError> {
    let flicker = world.borrow().config.flicker_rate;
    world.borrow_mut().config.flicker_rate = 0.0;
    let result = (|| {
        // Simulated time runs on (1 ms per try): sensors sample in time.
        let tick = || {
            let mut w = world.borrow_mut();
            w.now_ms += 1;
            w.now_ms
        };
        let mut init = bank.init();
        for _ in 0..INIT_TRIES {
            if init.is_ok() {
                break;
            }
            tick();
            init = bank.init();
        }
        init.map_err(|(s, e)| SimError::Sensor(s, e))?;
        // The guided procedure's steps, laid out by hand.
        let mut cal = Calibrator::new();
        for step in &guided::STEPS {
            {
                let mut w = world.borrow_mut();
                w.reset_pieces();
                let colour = match step.reference {
                    Reference::Empty => None,
                    Reference::Black => Some(Colour::Black),
                    Reference::White => Some(Colour::White),
                };
                if let Some(colour) = colour {
                    for s in step.squares {
                        let i = w.stored_piece(colour).ok_or(SimError::NoPiece(colour))?;
                        let to = w.config.pose.square_centre(s);
                        w.hand_move(i, to, 0.0);
                    }
                }
            }
            let mut now = world.borrow().now_ms;
            while guided::record_step(bank, &mut cal, step, now).is_err() {
                now = tick();
            }
        }
        world.borrow_mut().reset_pieces();
        cal.finish(guided::MIN_SEPARATION, Margins::DEFAULT)
            .map_err(SimError::Calibration)
    })();
    world.borrow_mut().config.flicker_rate = flicker;
    result
}

/// Erase unit of the simulated flash: 1 KiB pages, as the firmware's STM32F103
/// (512 B in the no_std core alone; the store adapts to either).
#[cfg(feature = "std")]
pub const FLASH_PAGE: usize = 1024;
/// Erase unit of the simulated flash: 1 KiB pages, as the firmware's STM32F103
/// (512 B in the no_std core alone; the store adapts to either).
#[cfg(not(feature = "std"))]
pub const FLASH_PAGE: usize = 512;

/// Pages of the snapshot store: the firmware's 12 in the host simulator, so its
/// erase counts are the machine's; 2 in the no_std core alone (the QEMU images,
/// whose micro:bit has 16 KiB of RAM for everything, the flash included).
#[cfg(feature = "std")]
pub const FLASH_PAGES: usize = 12;
/// Pages of the snapshot store: the firmware's 12 in the host simulator, so its
/// erase counts are the machine's; 2 in the no_std core alone (the QEMU images,
/// whose micro:bit has 16 KiB of RAM for everything, the flash included).
#[cfg(not(feature = "std"))]
pub const FLASH_PAGES: usize = 2;

/// Bytes of simulated flash for snapshots: the store's pages.
pub const FLASH_BYTES: usize = FLASH_PAGES * FLASH_PAGE;

/// The simulated snapshot flash: [`FLASH_BYTES`] of NOR flash in [`FLASH_PAGE`]
/// pages, written in half-words like the STM32F103's.
pub type SimFlash = MemFlash<FLASH_BYTES, FLASH_PAGE, 2>;

const _: () = assert!(Store::<SimFlash>::PAGE_STRIDE == FLASH_PAGE);

/// The real controller on the simulated hardware of `world`.
pub fn build_controller<C: MoveChooser, W: WorldHandle>(
    world: &W,
    calibration: Calibration,
    chooser: C,
) -> SimController<C, W> {
    let config = world.borrow().config.clone();
    let layout = Layout {
        pose: config.pose,
        storage: config.storage,
        park: config.park,
    };
    let pin = |role| SimPin::new(world.clone(), role);
    let bank = SensorBank::new(
        SimBus::new(world.clone(), Wiring::DEFAULT),
        Wiring::DEFAULT,
        SensorSettings::DEFAULT,
    )
    .with_recovery();
    let axis = |id, a| {
        Axis::new(
            id,
            pin(Role::Step(a)),
            pin(Role::Dir(a)),
            pin(Role::Limit(a)),
            config.axis,
        )
    };
    let machine = Machine::new(
        axis(AxisId::X, 0),
        axis(AxisId::Y, 1),
        PinLift(pin(Role::Lift)),
        pin(Role::Magnet),
        config.timing,
    );
    let panel = Panel::new(
        core::array::from_fn(|i| pin(Role::Button(i))),
        core::array::from_fn(|i| pin(Role::Light(i))),
        50,
    );
    let hw = Hardware {
        sensors: bank,
        scanner: Scanner::new(calibration, ScanSettings::DEFAULT),
        machine,
        panel,
    };
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    Controller::new(hw, chooser, layout, setup)
}

/// A simulated machine: the world and the real controller driving it. `W` is how
/// the world is shared (see [`WorldHandle`]).
pub struct SimMachine<C, W> {
    /// The physical world.
    pub world: W,
    /// The controller.
    pub controller: SimController<C, W>,
    /// The clock, ms.
    pub now: u32,
    /// Snapshots, saved whenever the controller changes.
    pub store: Store<SimFlash>,
    saved_revision: Option<u32>,
}

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Builds a machine in `world` (as it is) and calibrates its sensors.
    ///
    /// ```
    /// use core::cell::RefCell;
    /// use tictable::device::controller::{BestMove, GameSetup};
    /// use tictable::device::sim::human::{SimHuman, Style};
    /// use tictable::device::sim::run::SimMachine;
    /// use tictable::device::sim::world::{SimConfig, World};
    ///
    /// let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 3)));
    /// let mut m = SimMachine::with_world(&world, BestMove).unwrap();
    /// let mut human = SimHuman::new(Style::Perfect, 0.0, 4);
    /// let setup = GameSetup { device_first: true, first_square: None };
    /// let report = m.play_game(setup, &mut human, Style::Perfect, None);
    /// assert!(report.finished && report.device_won != Some(false));
    /// assert_eq!(report.pieces_lost, 0);
    /// ```
    pub fn with_world(world: W, chooser: C) -> Result<SimMachine<C, W>, SimError> {
        let mut bank = SensorBank::new(
            SimBus::new(world.clone(), Wiring::DEFAULT),
            Wiring::DEFAULT,
            SensorSettings::DEFAULT,
        )
        .with_recovery();
        let calibration = calibrate(&world, &mut bank)?;
        // The machine's clock goes on from the calibration's.
        let now = world.borrow().now_ms;
        let controller = build_controller(&world, calibration, chooser);
        let store = Store::new(SimFlash::new(), 0).map_err(|_| SimError::FlashTooSmall)?;
        Ok(SimMachine {
            world,
            controller,
            now,
            store,
            saved_revision: None,
        })
    }

    /// Saves a snapshot when the controller changed (as the firmware's loop does).
    fn persist(&mut self) {
        let rev = self.controller.revision();
        if self.saved_revision == Some(rev) {
            return;
        }
        self.saved_revision = Some(rev);
        // The store skips a snapshot equal to the one it holds; the in-memory flash
        // fails only on a power cut a test asked for (then the previous copy stays).
        let _ = self.store.save(&self.controller.snapshot());
    }

    /// Cuts the power and restarts: the world loses what power holds (the magnet
    /// drops its piece), a fresh controller is built and resumed from the flash.
    pub fn power_cycle(&mut self, chooser: C) -> Result<(), SimError> {
        self.world.borrow_mut().power_cut();
        let snap = self
            .store
            .load()
            .map_err(|_| SimError::FlashRead)?
            .ok_or(SimError::NothingSaved)?;
        let mut controller = build_controller(&self.world, snap.calibration, chooser);
        controller.resume(&snap).map_err(SimError::Resume)?;
        self.controller = controller;
        self.saved_revision = None;
        Ok(())
    }

    /// One millisecond: the human acts, then the controller polls.
    pub fn tick(&mut self, human: &mut SimHuman) {
        self.now += 1;
        let record = self.controller.record().board();
        let expected = self.controller.expected_view();
        {
            let mut w = self.world.borrow_mut();
            w.now_ms = self.now;
            human.step(&mut w, record, expected, self.now);
        }
        self.controller.poll(self.now);
        self.persist();
    }

    /// Ticks until `done` or `limit_ms` pass; whether `done` became true.
    pub fn run_until(
        &mut self,
        human: &mut SimHuman,
        limit_ms: u32,
        mut done: impl FnMut(&Self) -> bool,
    ) -> bool {
        let end = self.now + limit_ms;
        while self.now < end {
            if done(self) {
                return true;
            }
            self.tick(human);
        }
        done(self)
    }

    /// Presses `button` once and lets it settle.
    pub fn press(&mut self, human: &mut SimHuman, button: Button) {
        for pressing in [false, true] {
            if pressing {
                human.press(button, self.now);
            }
            // A press in progress (the last move's) is finished first.
            for _ in 0..1000 {
                if !human.pressing() {
                    break;
                }
                self.tick(human);
            }
        }
        for _ in 0..20 {
            self.tick(human);
        }
    }
}

/// An observer of state changes: the world, the new state, the game record.
pub type Watch<'a> = dyn FnMut(&World, State, &crate::device::controller::GameRecord) + 'a;

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Gets a game going: waits until the machine is ready, clears the board (all
    /// pieces back to storage), selects the setup with the buttons and presses
    /// Start. Whether the machine was ready.
    pub fn start_game(&mut self, setup: GameSetup, human: &mut SimHuman, style: Style) -> bool {
        // Wait for the machine to be ready (homing after power-on).
        let ready = self.run_until(human, 60_000, |m| {
            matches!(m.controller.state(), State::Setup | State::Over(_))
        });
        self.world.borrow_mut().reset_pieces();
        human.new_game(setup.device_colour().other(), style);
        for _ in 0..2 {
            if self.controller.setup().device_first != setup.device_first {
                self.press(human, Button::Side);
            }
        }
        for _ in 0..10 {
            if self.controller.setup().first_square == setup.first_square {
                break;
            }
            self.press(human, Button::FirstSquare);
        }
        self.press(human, Button::Start);
        ready
    }
}

/// What happened in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// `Some(true)`: the device won; `Some(false)`: it lost; `None`: draw or stuck.
    pub device_won: Option<bool>,
    /// The game ended.
    pub finished: bool,
    /// Cheats the human made.
    pub cheats: u32,
    /// Moved pieces the device put back.
    pub restores: u32,
    /// Squares where the pieces at the end differ from the game record.
    pub pieces_lost: u32,
    /// Longest placement, ms.
    pub max_placement_ms: u32,
    /// Game duration, ms.
    pub duration_ms: u32,
    /// Times the human fixed the board after the error light.
    pub fixes: u32,
}

/// Totals over many games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: u32,
    /// Device wins.
    pub device_wins: u32,
    /// Draws.
    pub device_draws: u32,
    /// Device losses.
    pub device_losses: u32,
    /// Cheats made.
    pub cheats_injected: u32,
    /// Moved pieces put back.
    pub cheats_restored: u32,
    /// Faults injected (NACKs, flickers, missed pick-ups).
    pub faults_injected: u64,
    /// Squares wrong at the end of a game.
    pub pieces_lost: u32,
    /// Games that did not end in time.
    pub stuck_games: u32,
    /// Longest placement, ms.
    pub max_placement_ms: u32,
    /// Longest placement predicted by the motion model, ms.
    pub max_model_ms: u32,
    /// Times the error light came on.
    pub errors: u32,
    /// Times a human fixed the board by hand.
    pub human_fixes: u32,
    /// Bus collisions (two sensors selected at once): must be 0.
    pub collisions: u64,
    /// Placement retries after a missed pick-up.
    pub retries: u32,
}

/// How long a game may take before it counts as stuck, ms of virtual time.
pub const GAME_LIMIT_MS: u32 = 20 * 60 * 1000;

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Plays one game with `setup` against `human`; `watch` sees every state change.
    pub fn play_game(
        &mut self,
        setup: GameSetup,
        human: &mut SimHuman,
        style: Style,
        mut watch: Option<&mut Watch<'_>>,
    ) -> GameReport {
        let before = self.controller.stats();
        let (cheats0, fixes0) = (human.cheats, human.fixes);
        let start = self.now;
        self.start_game(setup, human, style);
        let mut last = None;
        let finished = self.run_until(human, GAME_LIMIT_MS, |m| {
            let state = m.controller.state();
            if last != Some(state) {
                last = Some(state);
                if let Some(w) = watch.as_mut() {
                    w(&m.world.borrow(), state, m.controller.record());
                }
            }
            matches!(state, State::Over(_))
        });
        let after = self.controller.stats();
        let record = self.controller.record().board();
        let w = self.world.borrow();
        let pieces_lost = match w.board() {
            Some((x, o)) => ((x ^ record.x()) | (o ^ record.o())).count_ones(),
            None => 1,
        };
        GameReport {
            device_won: match self.controller.state() {
                State::Over(r) => r,
                _ => None,
            },
            finished,
            cheats: human.cheats - cheats0,
            restores: after.restores - before.restores,
            pieces_lost,
            max_placement_ms: after.max_placement_ms,
            duration_ms: self.now - start,
            fixes: human.fixes - fixes0,
        }
    }
}

/// Options of a batch of simulated games.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    /// Number of games.
    pub games: u32,
    /// Seed of everything.
    pub seed: u64,
    /// Probability per human turn of moving a device piece.
    pub cheat_rate: f64,
    /// Probability of each injected fault (per I2C transaction, reading, pick-up).
    pub fault_rate: f64,
    /// Board rotation, degrees.
    pub angle_deg: f32,
    /// The device's playing level.
    pub level: Level,
}

/// Plays a batch (the device at `batch.level`): alternating device first and second, a random first square half
/// the time, humans random, perfect or erring (20 %). `watch` sees every state change of
/// every game (the CLI's `--watch` stops after the first). No allocation: the world
/// lives on the stack.
///
/// ```
/// use tictable::device::sim::run::{run_batch, Batch};
/// use tictable::strategy::Level;
///
/// let batch = Batch {
///     games: 2, seed: 5, cheat_rate: 0.5, fault_rate: 0.01, angle_deg: 10.0, level: Level::Trap,
/// };
/// let s = run_batch(batch, None).unwrap();
/// assert_eq!((s.games, s.device_losses, s.stuck_games, s.pieces_lost), (2, 0, 0, 0));
/// assert_eq!(s.cheats_restored, s.cheats_injected);
/// ```
pub fn run_batch(batch: Batch, mut watch: Option<&mut Watch<'_>>) -> Result<Summary, SimError> {
    let config = SimConfig::standard(batch.angle_deg, batch.fault_rate, batch.seed);
    let chooser = |seed| StrategyChooser {
        strategy: Strategy::new(batch.level),
        rng: SplitMix64::new(seed),
    };
    let chooser0 = chooser(batch.seed ^ 0x5EED);
    let world = RefCell::new(World::new(config));
    let mut m = SimMachine::with_world(&world, chooser0)?;
    let mut human = SimHuman::new(Style::Random, batch.cheat_rate, batch.seed ^ 0xC0FFEE);
    let mut rng = SplitMix64::new(batch.seed.wrapping_mul(31).wrapping_add(7));
    let mut s = Summary::default();
    for g in 0..batch.games {
        let setup = GameSetup {
            device_first: g % 2 == 0,
            first_square: if g % 2 == 0 && rng.chance(0.5) {
                Square::new(rng.below(9) as u8)
            } else {
                None
            },
        };
        let style = match rng.below(3) {
            0 => Style::Random,
            1 => Style::Perfect,
            _ => Style::Erring(0.2),
        };
        let r = m.play_game(setup, &mut human, style, watch.as_deref_mut());
        s.games += 1;
        match (r.finished, r.device_won) {
            (false, _) => s.stuck_games += 1,
            (true, Some(true)) => s.device_wins += 1,
            (true, Some(false)) => s.device_losses += 1,
            (true, None) => s.device_draws += 1,
        }
        s.cheats_injected += r.cheats;
        s.cheats_restored += r.restores;
        s.pieces_lost += r.pieces_lost;
        s.human_fixes += r.fixes;
        if !r.finished {
            // A stuck game leaves the machine in an unknown state: start afresh.
            let config = SimConfig::standard(batch.angle_deg, batch.fault_rate, rng.next());
            let faults = m.world.borrow().stats.faults();
            let collisions = m.world.borrow().stats.collisions;
            s.faults_injected += faults;
            s.collisions += collisions;
            let st = m.controller.stats();
            s.max_placement_ms = s.max_placement_ms.max(st.max_placement_ms);
            s.max_model_ms = s.max_model_ms.max(st.max_model_ms);
            s.errors += st.errors;
            s.retries += st.retries;
            let chooser = chooser(rng.next());
            *world.borrow_mut() = World::new(config);
            m = SimMachine::with_world(&world, chooser)?;
        }
    }
    let w = m.world.borrow();
    s.faults_injected += w.stats.faults();
    s.collisions += w.stats.collisions;
    let st = m.controller.stats();
    s.max_placement_ms = s.max_placement_ms.max(st.max_placement_ms);
    s.max_model_ms = s.max_model_ms.max(st.max_model_ms);
    s.errors += st.errors;
    s.retries += st.retries;
    Ok(s)
}
