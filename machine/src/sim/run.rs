//! A whole simulated machine: build, calibrate, tick, save snapshots by the
//! library's [`SavePolicy`], cut the power and resume. Games are played from
//! [`Scenario`](super::scenario::Scenario)s by the one runner in
//! [`super::scenario`].
//!
//! No allocation: the world is shared through any [`WorldHandle`] (`&RefCell<World>`
//! on a microcontroller, `Rc<RefCell<World>>` on the host), so the same runner plays
//! the games of `tictable simulate`, the tests and the on-target images under QEMU.

use super::bus::SimBus;
use super::flash::MemFlash;
use super::human::{SimHuman, Style, ABANDON_PRESS_MS};
use super::pins::{Role, SimPin};
use super::world::{World, WorldHandle};
use crate::classify::{Calibration, CalibrationError, Calibrator, Margins, Reference};
use crate::controller::{
    Controller, GameSetup, Hardware, Layout, MoveChooser, Problem, ResumeError, State, Stats,
};
use crate::guided;
use crate::motion::PoseError;
use crate::motion::{Axis, AxisId, Machine, PinLift};
use crate::panel::{Button, Panel};
use crate::persist::Store;
use crate::save_policy::SavePolicy;
use crate::scanner::{ScanSettings, Scanner};
use crate::sensors::{SensorBank, SensorError, SensorSettings, Wiring};
use crate::Colour;
use core::cell::RefCell;
use tictable::Square;

/// The firmware's independent watchdog timeout at its shortest, ms: reload 1874
/// at LSI / 32, the LSI at its fastest 60 kHz (`firmware/src/safety.rs`: 1.5 s at
/// the nominal 40 kHz). The super-loop feeds it once per pass.
pub const WATCHDOG_MS: u32 = 1_000;

/// A flash page erase on the STM32F103 at its slowest, µs (datasheet: 20–40 ms).
pub const ERASE_US: u64 = 40_000;

/// Programming one half-word of the STM32F103's flash at its slowest, µs
/// (datasheet: 40–70 µs).
pub const HALF_WORD_US: u64 = 70;

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
    /// The simulated board cannot be built (a rotation beyond 45 degrees).
    Config(PoseError),
    /// This build cannot play the game (misère needs the `games` feature).
    GameNotBuilt(crate::controller::Rules),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::Sensor(s, e) => write!(f, "the sensor under square {}: {e}", s.index() + 1),
            SimError::NoPiece(c) => write!(
                f,
                "no {} piece left in storage",
                if *c == Colour::Black {
                    "black"
                } else {
                    "white"
                }
            ),
            SimError::Calibration(e) => write!(f, "{e}"),
            SimError::FlashTooSmall => f.write_str("flash too small"),
            SimError::FlashRead => f.write_str("flash read failed"),
            SimError::NothingSaved => f.write_str("nothing saved"),
            SimError::Resume(e) => write!(f, "resume: {e:?}"),
            SimError::Config(e) => write!(f, "board: {e}"),
            SimError::GameNotBuilt(r) => write!(f, "this build cannot play {}", r.id()),
        }
    }
}

/// Calibrates the sensors the way a technician would: the guided procedure's steps
/// ([`guided::STEPS`]: the board empty, then black and white pieces on every square,
/// five at a time) laid out by hand and read through the real drivers
/// ([`guided::record_step`]), without going through the buttons (the tests of the
/// procedure itself do). This is the bench calibration of a machine that works: the
/// bus and sensor faults of the run (NACKs, timeouts, a hung bus, brown-outs,
/// flicker, frozen sensors) are suspended meanwhile and start with the machine's
/// first game, where the controller's own sensor start-up meets them. So a run at a
/// rate no bus survives gives stuck games (exit 1), not a machine that was never
/// built.
pub fn calibrate<W: WorldHandle>(
    world: &RefCell<World>,
    bank: &mut SensorBank<SimBus<W>>,
) -> Result<Calibration, SimError> {
    let before = world.borrow().config.clone();
    {
        let c = &mut world.borrow_mut().config;
        c.nack_rate = 0.0;
        c.timeout_rate = 0.0;
        c.bus_hang_rate = 0.0;
        c.brownout_rate = 0.0;
        c.flicker_rate = 0.0;
        c.stuck_rate = 0.0;
    }
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
            // The step ends when its squares have their samples, or after
            // `STEP_LIMIT_MS` (then `finish` names a square without readings).
            let mut now = world.borrow().now_ms;
            while guided::record_step(bank, &mut cal, step, now).is_err() {
                now = tick();
            }
        }
        world.borrow_mut().reset_pieces();
        cal.finish(guided::MIN_SEPARATION, Margins::DEFAULT)
            .map_err(SimError::Calibration)
    })();
    world.borrow_mut().config = before;
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

/// Pages of the snapshot store: the firmware's 24 in the host simulator, so its
/// erase counts are the machine's; 2 in the no_std core alone (the QEMU images,
/// whose micro:bit has 16 KiB of RAM for everything, the flash included).
#[cfg(feature = "std")]
pub const FLASH_PAGES: usize = 24;
/// Pages of the snapshot store: the firmware's 24 in the host simulator, so its
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

/// The head alone on simulated pins: both axes, the lift and the magnet.
pub type SimHead<W> = Machine<SimPin<W>, SimPin<W>, PinLift<SimPin<W>>>;

/// The real head drivers on the simulated pins of `world` (STEP, DIR and the
/// homing switch of each axis, lift, magnet), with the world's axis settings and
/// head timing: the head of [`build_controller`], and of tests that drive it alone.
///
/// ```
/// use core::cell::RefCell;
/// use std::rc::Rc;
/// use tictable_machine::sim::run::build_head;
/// use tictable_machine::sim::world::{SimConfig, World};
///
/// let world = Rc::new(RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 1).unwrap())));
/// let mut head = build_head(&world);
/// head.start_homing(0).unwrap();
/// let homed_in_ms = (1..60_000u32).find(|&t| {
///     world.borrow_mut().now_ms = t;
///     head.poll(t).is_ok()
/// });
/// assert!(homed_in_ms.is_some());
/// ```
pub fn build_head<W: WorldHandle>(world: &W) -> SimHead<W> {
    let (axis, timing) = {
        let w = world.borrow();
        (w.config.axis, w.config.timing)
    };
    let pin = |role| SimPin::new(world.clone(), role);
    let new_axis = |id, a| {
        Axis::new(
            id,
            pin(Role::Step(a)),
            pin(Role::Dir(a)),
            pin(Role::Limit(a)),
            axis,
        )
    };
    Machine::new(
        new_axis(AxisId::X, 0),
        new_axis(AxisId::Y, 1),
        PinLift(pin(Role::Lift)),
        pin(Role::Magnet),
        timing,
    )
}

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
    let machine = build_head(world);
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
    /// Snapshots, saved by the library's [`SavePolicy`].
    pub store: Store<SimFlash>,
    policy: SavePolicy,
    /// A power cut during the next snapshot save: `(erase, bytes)` cuts the erase
    /// (`true`) or the write after that many bytes ([`MemFlash`]'s torn writes).
    pub tear_next_save: Option<(bool, usize)>,
    /// A save was cut by [`SimMachine::tear_next_save`]: the power is off, call
    /// [`SimMachine::power_cycle`].
    pub power_lost: bool,
    /// What the controllers replaced by power cuts counted.
    past: Stats,
    /// The watchdog's timeout, ms ([`WATCHDOG_MS`]).
    pub watchdog_ms: u32,
    /// A pass of the loop (the controller's poll and a snapshot save) took
    /// longer than the watchdog's timeout: the microcontroller has reset, call
    /// [`SimMachine::watchdog_restart`].
    pub watchdog_fired: bool,
    /// The longest pass of the loop so far, µs of bus and flash time.
    pub longest_pass_us: u64,
}

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Builds a machine in `world` (as it is) and calibrates its sensors.
    ///
    /// ```
    /// use core::cell::RefCell;
    /// use tictable_machine::controller::{BestMove, GameSetup};
    /// use tictable_machine::sim::human::{SimHuman, Style};
    /// use tictable_machine::sim::run::SimMachine;
    /// use tictable_machine::sim::world::{SimConfig, World};
    ///
    /// use tictable_machine::sim::scenario::Scenario;
    ///
    /// let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 3).unwrap()));
    /// let mut m = SimMachine::with_world(&world, BestMove).unwrap();
    /// let mut human = SimHuman::new(Style::Perfect, 0.0, 4);
    /// let report = m.play_scenario(&Scenario::game(true, None, Style::Perfect), &mut human, &mut || BestMove, None);
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
            policy: SavePolicy::new(),
            tear_next_save: None,
            power_lost: false,
            past: Stats::default(),
            watchdog_ms: WATCHDOG_MS,
            watchdog_fired: false,
            longest_pass_us: 0,
        })
    }

    /// Saves a snapshot when the library's [`SavePolicy`] says so, as the
    /// firmware's loop does.
    fn persist(&mut self) {
        let rev = self.controller.revision();
        let busy = self.controller.hardware().machine.is_busy();
        if self.power_lost || !self.policy.due(rev, busy, self.controller.state()) {
            return;
        }
        if let Some((erase, bytes)) = self.tear_next_save.take() {
            let f = self.store.flash_mut();
            if erase {
                f.tear_erase = Some(bytes);
            } else {
                f.tear_write = Some(bytes);
            }
        }
        // The store skips a snapshot equal to the one it holds; the in-memory flash
        // fails only on a power cut asked for (then the previous copy stays).
        let saved = self.store.save(&self.controller.snapshot());
        self.power_lost = saved.is_err();
        // A cut that did not fall inside this save (nothing was written) is dropped.
        let f = self.store.flash_mut();
        (f.tear_erase, f.tear_write) = (None, None);
    }

    /// The controller's running totals since the machine was built, power cuts
    /// included (a restarted controller counts from 0).
    pub fn stats(&self) -> Stats {
        self.past.then(self.controller.stats())
    }

    /// The flash's erases: all of them, and those of the most erased page.
    pub fn flash_erases(&mut self) -> (u32, u32) {
        let f = self.store.flash_mut();
        (f.erases, f.max_page_erases())
    }

    /// Cuts the power and restarts: the world loses what power holds (the magnet
    /// drops its piece), a fresh controller is built and resumed from the flash.
    pub fn power_cycle(&mut self, chooser: C) -> Result<(), SimError> {
        self.world.borrow_mut().power_cut();
        self.power_lost = false;
        self.resume_from_flash(chooser)
    }

    /// The watchdog reset the microcontroller: its pins go back to their reset
    /// state (the sensors and multiplexers stay powered), a fresh controller is
    /// built and resumed from the flash, as after a power cut.
    pub fn watchdog_restart(&mut self, chooser: C) -> Result<(), SimError> {
        self.world.borrow_mut().mcu_reset();
        self.watchdog_fired = false;
        self.resume_from_flash(chooser)
    }

    /// A fresh controller resumed from the newest snapshot on the flash.
    fn resume_from_flash(&mut self, chooser: C) -> Result<(), SimError> {
        let snap = self
            .store
            .load()
            .map_err(|_| SimError::FlashRead)?
            .ok_or(SimError::NothingSaved)?;
        let mut controller = build_controller(&self.world, snap.calibration, chooser);
        controller.resume(&snap).map_err(SimError::Resume)?;
        self.past = self.stats();
        self.controller = controller;
        self.policy = SavePolicy::new();
        Ok(())
    }

    /// One millisecond: the human acts, then a snapshot is saved when due and the
    /// controller polls, in the firmware's loop's order (the save sees the state
    /// the last poll left, so the boot's save comes before the poll that starts
    /// homing). The pass's bus and flash time (what the firmware's loop would
    /// spend on them) is checked against the watchdog's timeout
    /// ([`SimMachine::watchdog_fired`]).
    pub fn tick(&mut self, human: &mut SimHuman) {
        self.now += 1;
        let bus0 = {
            let mut w = self.world.borrow_mut();
            w.now_ms = self.now;
            human.step(&mut w, self.now);
            w.bus_us
        };
        let flash0 = self.flash_time_us();
        self.persist();
        // A save torn by a cut: the power is off, nothing polls.
        if !self.power_lost {
            self.controller.poll(self.now);
        }
        let bus = self.world.borrow().bus_us - bus0;
        let pass = bus + self.flash_time_us() - flash0;
        self.longest_pass_us = self.longest_pass_us.max(pass);
        self.watchdog_fired |= pass > u64::from(self.watchdog_ms) * 1000;
    }

    /// The flash's busy time so far, µs: erases and half-words programmed, each
    /// at its slowest.
    fn flash_time_us(&mut self) -> u64 {
        let f = self.store.flash_mut();
        u64::from(f.erases) * ERASE_US + f.written / 2 * HALF_WORD_US
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
pub type Watch<'a> = dyn FnMut(&World, State, &crate::controller::GameRecord) + 'a;

/// How long a game may take before it counts as stuck, ms of virtual time.
pub const GAME_LIMIT_MS: u32 = 20 * 60 * 1000;

/// How long the machine may take to become ready (sensors up, homed), ms.
pub const READY_LIMIT_MS: u32 = 60_000;

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Gets a game going: waits until the machine is ready (in Setup, or a game
    /// or task over), clears the board (all pieces back to storage), selects the
    /// setup with the buttons and presses Start. `false` when the machine did not
    /// become ready within [`READY_LIMIT_MS`] (nothing is pressed then) or did
    /// not take the setup.
    ///
    /// A press still in progress is finished first; if it started a round (a
    /// person's Start meant for an error light that went out as the last game
    /// ended), the operator abandons that round by holding Start.
    pub fn start_game(&mut self, setup: GameSetup, human: &mut SimHuman, style: Style) -> bool {
        let ready = |m: &Self| {
            matches!(
                m.controller.state(),
                State::Setup | State::Over(_) | State::TaskDone
            )
        };
        for _ in 0..1_000 {
            if !human.pressing() {
                break;
            }
            self.tick(human);
        }
        // A round under way that nobody started for this game (a Start press
        // meant for an error light): no state that waits for the setup.
        let stray_round = matches!(
            self.controller.state(),
            State::WaitEmpty
                | State::Error(Problem::BoardNotEmpty)
                | State::Placing { .. }
                | State::Verifying { .. }
                | State::HumanTurn
                | State::Checking
        );
        if stray_round {
            // The operator knows that round is not a game (and does not set its
            // board up again while the machine asks for it to be cleared).
            human.new_game(person_colour(setup, human.rules), style);
            human.hold(Button::Start, self.now, ABANDON_PRESS_MS);
            self.run_until(human, ABANDON_PRESS_MS + 200, |_| false);
            self.world.borrow_mut().reset_pieces();
        }
        if !self.run_until(human, READY_LIMIT_MS, ready) {
            return false;
        }
        self.world.borrow_mut().reset_pieces();
        human.new_game(person_colour(setup, human.rules), style);
        for _ in 0..2 {
            if self.controller.setup().device_first != setup.device_first {
                self.press(human, Button::Side);
            }
        }
        for _ in 0..10 {
            if !setup.device_first || self.controller.setup().first_square == setup.first_square {
                break;
            }
            self.press(human, Button::FirstSquare);
        }
        // The first square matters only when the device moves first.
        let taken = self.controller.setup();
        let same = taken.device_first == setup.device_first
            && (!setup.device_first || taken.first_square == setup.first_square);
        if !same || !ready(self) {
            return false;
        }
        self.press(human, Button::Start);
        true
    }
}

/// The person's colour in `rules`' game with `setup`: the device's other (in
/// hexapawn White moves first, `games` feature).
fn person_colour(setup: GameSetup, rules: crate::controller::Rules) -> crate::Colour {
    #[cfg(feature = "games")]
    return setup.colour_in(rules).other();
    #[cfg(not(feature = "games"))]
    {
        let _ = rules;
        setup.device_colour().other()
    }
}
