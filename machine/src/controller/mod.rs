//! The controller: the state machine that plays with a person.
//!
//! setup → (wait for an empty board) → play → result → setup. On the device's turn
//! the move comes from a [`MoveChooser`] (by default the table: no search on the
//! MCU); the next piece of the device's colour is carried from storage to the
//! square and the placement is verified with the sensors. On the human's turn, after
//! the "done" button, the stable board must differ from the game record by exactly
//! one new piece of the human's colour on an empty square. Otherwise:
//!
//! - one device piece moved to another square: the device lifts **that** piece and
//!   puts it back, then asks for the human's move again;
//! - anything else (a piece removed, two added, a wrong colour, an unknown or
//!   faulty square): the error light, until the board matches the record again.
//!
//! Placement tasks (contest items 1 to 3: given colours on given squares, also on a
//! rotated board) run through [`Controller::start_task`] with the same placement
//! and verification code.
//!
//! The mechanism's faults: a placement is retried (a missed grip, a piece stuck on
//! the magnet) only while the motion model says the retry ends within
//! [`PLACEMENT_BUDGET_MS`] (the first retry checks the axes against the
//! switches; each takes a storage slot not tried yet in the placement);
//! a piece that lands elsewhere (dropped in transit) asks a person to remove it
//! and is placed again; [`MISSES`] misses in a row ask for the board pose; a
//! switch that closes during a move (lost steps) re-homes and play goes on; a
//! motion fault stops with the error light, and a piece held then is let go after
//! [`MAGNET_HOLD_MS`] when nobody presses Start.
//! Holding Start for [`ABANDON_HOLD_MS`] abandons the game or task in any state.
//! The error light's patterns ([`Problem::lights`]) are documented for people in
//! `firmware/README.md`, "Error light patterns".
//!
//! Invariants:
//!
//! - the game record only ever grows by verified moves: nothing is lost from it;
//! - [`Controller::poll_at`] never waits: each [`State`] is handled by one short
//!   step, and a motion under way is polled, not awaited;
//! - every change worth saving bumps [`Controller::revision`], so saving a
//!   [`Snapshot`] when it moves loses nothing across a reset.
//!
//! The state machine is split by sub-machine, one file each: `game.rs` (turns,
//! placements and their verification, the human's move, putting a moved piece
//! back), `task_entry.rs` ([`State::TaskEntry`]), `pose_calibration.rs`
//! ([`State::CalibratingPose`], jogging), [`sensor_calibration`]
//! ([`State::CalibratingSensors`], the guided procedure), `recovery.rs`
//! ([`State::Error`], snapshots and [`Controller::resume`]), `lights.rs` (what
//! the panel shows in each state), `problem.rs` ([`Problem`], its words and light
//! patterns) and `words.rs` (each [`State`] in words). This file holds the
//! [`Controller`], its accessors and the dispatch of [`Controller::poll_at`].
//!
//! How people use the buttons (task entry, calibrating the board pose by jogging,
//! the guided sensor calibration) is described in `firmware/README.md`, "Buttons
//! and lights" and "Calibration".
//!
//! The firmware's super-loop is, in outline:
//!
//! ```text
//! let mut store = Store::new(flash, BASE)?;             // persist::Store
//! if let Ok(Some(snap)) = store.load() { controller.resume(&snap)?; }
//! let mut policy = SavePolicy::new();                  // device::save_policy
//! loop {
//!     controller.poll(millis());                         // never blocks
//!     let busy = controller.hardware().machine.is_busy();
//!     if policy.due(controller.revision(), busy, controller.state()) {
//!         store.save(&controller.snapshot())?;           // appended to the log
//!     }
//! }
//! ```
//!
//! `tictable_machine::sim::run::SimMachine::tick` runs exactly this loop on the simulator.

use super::classify::Calibrator;
use super::model::FULL_STOCK;
use super::motion::{Lift, Machine, MotionError};
use super::panel::{Button, Panel};
use super::scanner::Scanner;
use super::sensors::SensorBank;
use super::Colour;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::strategy::{Level, Strategy};
use tictable::{Board, Square};

/// Runs a statistics update, only in builds with the simulator (`sim-core`): the
/// counters are for its reports and the tests, and firmware never reads them (nor
/// pays for them, or for the motion model's prediction).
macro_rules! stat {
    ($($update:tt)*) => {{
        #[cfg(feature = "sim-core")]
        {
            $($update)*
        }
    }};
}

mod game;
#[cfg(feature = "games")]
mod game_choice;
#[cfg(feature = "games")]
mod legal_moves;
mod lights;
mod moves;
#[cfg(feature = "games")]
mod moving;
mod pose_calibration;
#[cfg(feature = "games")]
mod position;
mod problem;
mod recovery;
mod rules;
pub mod sensor_calibration;
#[cfg(feature = "games")]
mod table_chooser;
mod task_entry;
mod words;

#[cfg(feature = "games")]
pub use super::model::{Ending, RecordError};
pub use super::model::{
    GameRecord, GameSetup, Layout, Mode, Snapshot, Task, TaskError, RECORD_CAPACITY,
};
#[cfg(feature = "games")]
pub use game_choice::{CONFIRM_GAME_LIGHTS, CONFIRM_GAME_MS};
#[cfg(feature = "games")]
pub use legal_moves::{Children, List, MOST_MOVES};
pub use moves::Move;
pub use pose_calibration::{Jog, CALIBRATE_HOLD_MS, JOG_REPEAT_MS, JOG_UM};
#[cfg(feature = "games")]
pub use position::Position;
pub use problem::Problem;
pub use recovery::ResumeError;
pub use rules::Rules;
#[cfg(feature = "games")]
pub use table_chooser::{best_moves, best_moves_in, best_moves_of, game_of, TableChooser};
pub use task_entry::TaskEntry;

/// Chooses the device's moves. The hook for other players (a trap player that
/// steers towards positions where people err, a weaker level...).
pub trait MoveChooser {
    /// A legal move for the side to move in `board`, or `None` when the game is over.
    /// An occupied square, or `None` in a game that goes on, stops the game with
    /// [`Problem::Mismatch`]'s light (no other move is put in its place); holding
    /// Start abandons it.
    fn choose(&mut self, board: &Board) -> Option<Square>;

    /// Switches to the next playing level (the Level button); fixed choosers ignore it.
    fn next_level(&mut self) {}

    /// Reports the person's move `square`, made in `board` (the position before it),
    /// once the device has read and accepted it; choosers that learn from the person
    /// (`adaptive`) use it, the others ignore it.
    fn observe(&mut self, board: &Board, square: Square) {
        let _ = (board, square);
    }

    /// The game this chooser plays, whose rules the controller judges the game by
    /// (end, winner, result lights): tic-tac-toe unless a chooser says otherwise
    /// (a `TableChooser` of misère, with the `games` feature).
    fn rules(&self) -> Rules {
        Rules::TicTacToe
    }

    /// Switches to `rules`' game (a resumed save's, or the game chosen with the
    /// buttons); `false`, changing nothing, when this chooser cannot play it: only
    /// tic-tac-toe unless a chooser says otherwise.
    fn set_rules(&mut self, rules: Rules) -> bool {
        rules == self.rules()
    }

    /// Whether this chooser is built to play `rules`' game (`games` feature): the
    /// games the Level button chooses among. Switches nothing and checks no table
    /// ([`MoveChooser::set_rules`] checks, at the choice): only its own game unless
    /// a chooser says otherwise.
    #[cfg(feature = "games")]
    fn plays(&self, rules: Rules) -> bool {
        rules == self.rules()
    }

    /// A legal move for the side to move in `position` of [`MoveChooser::rules`]'
    /// game, or `None` when it is over (`games` feature): by default a placing
    /// game's [`MoveChooser::choose`].
    #[cfg(feature = "games")]
    fn choose_move(&mut self, position: &Position) -> Option<Move> {
        if self.rules().places_only() {
            self.choose(&position.board()).map(Move::Place)
        } else {
            None
        }
    }

    /// Whether `mv` is a move this chooser could have chosen in `position` (a
    /// best move of a perfect chooser's table): a move of the device's made by
    /// a person's hand after a reset cut it short is taken as the device's only
    /// then (`games` feature). By default none is.
    #[cfg(feature = "games")]
    fn could_choose(&self, position: &Position, mv: Move) -> bool {
        let _ = (position, mv);
        false
    }
}

/// Any [`Strategy`] of the players module (random, easy, medium, perfect, trap,
/// sharp, gentle, adaptive, epsilon, with a mistake rate), drawn with `R`; the Level button cycles the levels.
///
/// ```
/// use tictable_machine::controller::{MoveChooser, StrategyChooser};
/// use tictable::strategy::{Level, Strategy};
/// use tictable::Board;
/// # struct Counter(u32);
/// # impl rand_core::TryRng for Counter {
/// #     type Error = core::convert::Infallible;
/// #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { self.0 = self.0.wrapping_add(0x9E37_79B9); Ok(self.0) }
/// #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { Ok(self.try_next_u32()? as u64) }
/// #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> { d.fill(0); Ok(()) }
/// # }
/// let mut c = StrategyChooser { strategy: Strategy::new(Level::Trap), rng: Counter(1) };
/// let b: Board = "XX.OO....".parse().unwrap();
/// assert_eq!(c.choose(&b).map(|s| s.index()), Some(2));
/// c.next_level(); // trap -> sharp (Level::ALL's order, round to random)
/// assert_eq!(c.strategy.level(), Level::Sharp);
/// ```
#[derive(Clone, Debug)]
pub struct StrategyChooser<R> {
    /// The strategy.
    pub strategy: Strategy,
    /// Its randomness.
    pub rng: R,
}

impl<R: rand_core::Rng> MoveChooser for StrategyChooser<R> {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        self.strategy.choose(board, &mut self.rng).ok()
    }

    /// `adaptive` updates its estimate of the person's mistake rate
    /// ([`Strategy::observe`]), across the games of a power-on too.
    fn observe(&mut self, board: &Board, square: Square) {
        self.strategy.observe(board, square);
    }

    fn next_level(&mut self) {
        let all = Level::ALL;
        let i = all
            .iter()
            .position(|l| *l == self.strategy.level())
            .unwrap_or(0);
        let next = all[(i + 1) % all.len()];
        // A mistake rate only carries over to levels that take one (perfect, trap);
        // gentle and epsilon start at their own default parameter (F = 0.5, ε = 0.1).
        let rate = self.strategy.mistake_rate();
        let base = Strategy::new(next).with_first_move(self.strategy.first_move());
        self.strategy = if next.takes_mistake_rate() {
            base.with_mistake_rate(rate).unwrap_or(base)
        } else {
            base
        };
    }
}

/// Perfect play from the table: the lowest-numbered best move.
///
/// ```
/// use tictable_machine::controller::{BestMove, MoveChooser};
/// use tictable::{Board, Square};
/// let b: Board = "XX.OO....".parse().unwrap();
/// assert_eq!(BestMove.choose(&b), Square::new(2));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct BestMove;

impl MoveChooser for BestMove {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        tictable::best_move(board)
    }
}

/// Perfect play from the table, a best move chosen at random with `R`.
#[derive(Clone, Debug)]
pub struct RandomBestMove<R>(pub R);

impl<R: rand_core::Rng> MoveChooser for RandomBestMove<R> {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        tictable::random_best_move(board, &mut self.0)
    }
}

/// The controller's state, for displays and tests.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
pub enum State {
    /// Initialising the sensors and homing.
    Starting,
    /// Waiting for Start; Side and FirstSquare change the setup.
    Setup,
    /// Waiting for the board to be cleared before a game.
    WaitEmpty,
    /// Moving a piece from storage to `square`.
    Placing {
        /// Target square.
        square: Square,
        /// The colour placed.
        colour: Colour,
        /// Attempt number (from 1).
        attempt: u8,
        /// The storage slot the piece comes from.
        slot: u8,
    },
    /// Checking the placement on `square`.
    Verifying {
        /// Target square.
        square: Square,
        /// The colour placed.
        colour: Colour,
        /// Attempt number (from 1).
        attempt: u8,
        /// The storage slot the piece came from.
        slot: u8,
    },
    /// Waiting for the human's move and button.
    HumanTurn,
    /// Reading the board after the button.
    Checking,
    /// Putting the device piece found on `from` back on `to`.
    Restoring {
        /// Where the moved piece is.
        from: Square,
        /// Where it belongs.
        to: Square,
        /// Attempt number (from 1).
        attempt: u8,
    },
    /// Checking the restored piece.
    VerifyingRestore {
        /// Where it was.
        from: Square,
        /// Where it belongs.
        to: Square,
        /// Attempt number (from 1).
        attempt: u8,
    },
    /// Carrying the person's piece captured on `square` to its capture place
    /// (hexapawn, `games` feature), then checking that it left the board; the
    /// capturing move follows.
    #[cfg(feature = "games")]
    Capturing {
        /// The capturing pawn's square.
        from: Square,
        /// The square of the captured piece (the capturing pawn's target).
        square: Square,
        /// Attempt number (from 1).
        attempt: u8,
    },
    /// Waiting until the board is fixed.
    Error(Problem),
    /// The game is over (the device's view: `Some(true)` won, `Some(false)` lost).
    Over(Option<bool>),
    /// A placement task is finished.
    TaskDone,
    /// A task is being entered with the buttons (see `firmware/README.md`).
    TaskEntry(TaskEntry),
    /// The guided sensor calibration, at step `step` (0..=4, see
    /// [`sensor_calibration`]); 5 after a failed attempt (Start begins again).
    CalibratingSensors {
        /// The step shown.
        step: u8,
    },
    /// The board pose is being calibrated by jogging (see `firmware/README.md`).
    CalibratingPose(Jog),
}

/// Placement attempts before giving up and asking for help.
pub const PLACE_ATTEMPTS: u8 = 3;

/// Every device placement, from the decision to the verified piece, ends within
/// this time or with the error light, ms (the contest's rule).
pub const PLACEMENT_BUDGET_MS: u32 = 15_000;

/// The time kept for the verifying scan of an attempt, ms: a retry starts only
/// when the motion model's transfer time plus this fits in what is left of
/// [`PLACEMENT_BUDGET_MS`].
pub const VERIFY_MS: u32 = 1_500;

/// Placements in a row that miss their square before the error light asks for
/// the board pose to be checked ([`Problem::Recalibrate`]).
pub const MISSES: u8 = 2;

/// Holding Start this long abandons the game or task in any state, ms.
pub const ABANDON_HOLD_MS: u32 = 2_000;

/// After a motion fault ([`Problem::Motion`]) the magnet lets go of a piece it
/// holds once nobody pressed Start for this long, ms: a coil is not left on for as
/// long as nobody comes. The head stands where the failed job left it: after a
/// homing that never found its switch (the fault a piece can be held through: a
/// re-home after lost steps) at the end of that axis's travel, the home side, clear
/// of the board, so the piece drops where no sensor takes it for a move.
pub const MAGNET_HOLD_MS: u32 = 60_000;

/// Running totals, for tests and the simulator's reports (kept only with the
/// `sim-core` feature, see `Controller::stats`). `games` is always the sum of
/// `wins`, `draws` and `losses`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games finished.
    pub games: u32,
    /// Games the device won.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Device placements verified.
    pub placements: u32,
    /// Placement attempts that failed verification and were retried.
    pub retries: u32,
    /// Moved device pieces put back (the device's own slides included).
    pub restores: u32,
    /// The device's slides and pawn moves (each also a restore when verified).
    pub slides: u32,
    /// Times the error light came on.
    pub errors: u32,
    /// Longest placement without the error light, from the decision to the
    /// verified piece, ms (a placement that went through the error light waited
    /// for a person).
    pub max_placement_ms: u32,
    /// Placements that took longer than [`PLACEMENT_BUDGET_MS`] without the error
    /// light (must stay 0).
    pub late_placements: u32,
    /// Retries refused because the time budget left was too short.
    pub budget_stops: u32,
    /// Games or tasks abandoned with Start held.
    pub abandons: u32,
    /// Re-homings after a limit switch closed during a move (lost steps).
    pub rehomes: u32,
    /// Pieces found off their square after a placement (dropped or missed).
    pub strays: u32,
    /// Longest placement predicted by the motion model, ms.
    pub max_model_ms: u32,
}

#[cfg(feature = "sim-core")]
impl Stats {
    /// The totals of two runs one after the other (counts added, longest times the
    /// larger): a controller restarted after a power cut counts from 0.
    pub fn then(self, b: Stats) -> Stats {
        Stats {
            games: self.games + b.games,
            wins: self.wins + b.wins,
            draws: self.draws + b.draws,
            losses: self.losses + b.losses,
            placements: self.placements + b.placements,
            retries: self.retries + b.retries,
            restores: self.restores + b.restores,
            slides: self.slides + b.slides,
            errors: self.errors + b.errors,
            max_placement_ms: self.max_placement_ms.max(b.max_placement_ms),
            late_placements: self.late_placements + b.late_placements,
            budget_stops: self.budget_stops + b.budget_stops,
            abandons: self.abandons + b.abandons,
            rehomes: self.rehomes + b.rehomes,
            strays: self.strays + b.strays,
            max_model_ms: self.max_model_ms.max(b.max_model_ms),
        }
    }
}

/// The hardware the controller drives.
pub struct Hardware<I2C, O, I, L> {
    /// The colour sensors.
    pub sensors: SensorBank<I2C>,
    /// Board readings.
    pub scanner: Scanner,
    /// Gantry, lift, magnet.
    pub machine: Machine<O, I, L>,
    /// Buttons and lights.
    pub panel: Panel<I, O>,
}

/// The playing machine.
pub struct Controller<I2C, O, I, L, C> {
    hw: Hardware<I2C, O, I, L>,
    chooser: C,
    layout: Layout,
    setup: GameSetup,
    state: State,
    record: GameRecord,
    mode: Mode,
    /// Storage slots believed to hold a piece, per colour (bit per slot).
    stock: [u8; 2],
    /// Slots where grips failed repeatedly: tried only when `stock` is exhausted.
    suspect: [u8; 2],
    /// Storage slots tried in the placement under way (bit per slot).
    tried: u8,
    /// A game or task is running (survives resets through [`Snapshot`]).
    active: bool,
    /// The placement under way: colour, storage slot, square.
    pending: Option<(Colour, u8, Square)>,
    /// Bumped on every change worth saving.
    revision: u32,
    /// When the placement under way started (the decision), ms.
    placement_started: u32,
    /// The placement under way went through the error light (`sim-core` only).
    #[cfg(feature = "sim-core")]
    placement_errored: bool,
    /// Placements in a row that missed their square.
    misses: u8,
    /// Done or Start was pressed in the error state (a press may come while a
    /// scan is still settling; cleared on every state change).
    acknowledged: bool,
    /// Since when Start is held, ms; `None` when released or once it abandoned.
    start_held: Option<u32>,
    /// Start is still held after abandoning (no second abandon).
    hold_used: bool,
    started: bool,
    now_ms: u32,
    entered_ms: u32,
    #[cfg(feature = "sim-core")]
    stats: Stats,
    /// Readings of the guided sensor calibration under way.
    calibrator: Calibrator,
    /// Run the guided sensor calibration once homed.
    calibrate_when_homed: bool,
    /// A resumed save's game number that was refused (shown once homed).
    #[cfg(feature = "games")]
    refused_game: Option<u8>,
    /// The restore under way carries the device's own slide (not a moved piece).
    #[cfg(feature = "games")]
    sliding: bool,
    /// The device's last slide used up its attempts without arriving (a board
    /// that moved, say): not started again until a person puts the board right.
    #[cfg(feature = "games")]
    slide_given_up: bool,
    /// Setup shows the game chosen (both turn lights and its number), not the setup:
    /// after a Level press, until another setup button.
    #[cfg(feature = "games")]
    show_game: bool,
    /// The last game choice skipped a game whose table did not read back (flash
    /// damaged): Setup's game display adds the Error light until another setup
    /// button or a choice that skips none.
    #[cfg(feature = "games")]
    choice_failed: bool,
    /// Since when the person's turn asks to confirm the end of the game (Level
    /// pressed once), ms.
    #[cfg(feature = "games")]
    confirm_since: Option<u32>,
    /// Hexapawn's set-up under way: `Some` of the device's home squares whose
    /// pawn is verified there (then the person sets theirs); `None` once the
    /// start stands (and in the other games).
    #[cfg(feature = "games")]
    setting_up: Option<u16>,
}

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// A controller; call [`Controller::poll`] from the super-loop.
    pub fn new(hw: Hardware<I2C, O, I, L>, chooser: C, layout: Layout, setup: GameSetup) -> Self {
        Controller {
            hw,
            chooser,
            layout,
            setup,
            state: State::Starting,
            record: GameRecord::new(),
            mode: Mode::Game,
            stock: [FULL_STOCK; 2],
            suspect: [0; 2],
            tried: 0,
            active: false,
            pending: None,
            revision: 0,
            placement_started: 0,
            #[cfg(feature = "sim-core")]
            placement_errored: false,
            misses: 0,
            acknowledged: false,
            start_held: None,
            hold_used: false,
            started: false,
            now_ms: 0,
            entered_ms: 0,
            #[cfg(feature = "sim-core")]
            stats: Stats::default(),
            calibrator: Calibrator::new(),
            calibrate_when_homed: false,
            #[cfg(feature = "games")]
            refused_game: None,
            #[cfg(feature = "games")]
            sliding: false,
            #[cfg(feature = "games")]
            slide_given_up: false,
            #[cfg(feature = "games")]
            show_game: false,
            #[cfg(feature = "games")]
            choice_failed: false,
            #[cfg(feature = "games")]
            confirm_since: None,
            #[cfg(feature = "games")]
            setting_up: None,
        }
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// The move chooser (its level, for displays).
    pub fn chooser(&self) -> &C {
        &self.chooser
    }

    /// The game record.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The rules the game is judged by: the chooser's ([`MoveChooser::rules`]).
    pub fn rules(&self) -> Rules {
        self.chooser.rules()
    }

    /// The setup for the next game.
    pub fn setup(&self) -> GameSetup {
        self.setup
    }

    /// Running totals (with the `sim-core` feature: firmware builds do not count).
    #[cfg(feature = "sim-core")]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The hardware (for inspection).
    pub fn hardware(&self) -> &Hardware<I2C, O, I, L> {
        &self.hw
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// A counter bumped on every change worth saving: save a [`Snapshot`] when it
    /// moves.
    pub fn revision(&self) -> u32 {
        self.revision
    }

    /// The error light, for `problem`.
    #[inline(never)]
    fn fail(&mut self, problem: Problem) {
        self.enter(State::Error(problem));
    }

    fn enter(&mut self, state: State) {
        if matches!(state, State::Error(_)) && !matches!(self.state, State::Error(_)) {
            stat!(
                self.stats.errors += 1;
                self.placement_errored |= self.pending.is_some();
            );
        }
        self.state = state;
        self.entered();
    }

    /// What every change of state does once `state` holds the new one (also
    /// after a change within a state, such as a button press in task entry).
    fn entered(&mut self) {
        self.acknowledged = false;
        #[cfg(feature = "games")]
        {
            self.confirm_since = None;
        }
        self.revision = self.revision.wrapping_add(1);
        if matches!(self.state, State::Over(_) | State::TaskDone) {
            self.active = false;
        }
        self.entered_ms = self.now_ms;
        self.hw.scanner.restart();
        self.lights();
    }

    /// One pass of the super-loop at `now_ms`: never waits. The same as
    /// [`Controller::poll_at`] at the start of that millisecond.
    pub fn poll(&mut self, now_ms: u32) {
        self.poll_at(now_ms, 0);
    }

    /// One pass of the super-loop at `sub_ms_us` microseconds (0..=999) into
    /// millisecond `now_ms`: never waits. Everything but the stepper pulses runs on
    /// the millisecond; with the sub-millisecond part the axes emit each step at its
    /// due time (to a sixteenth of a ms) rather than the steps of a millisecond
    /// together, provided the loop comes round often enough. The firmware passes
    /// SysTick's position within the millisecond.
    pub fn poll_at(&mut self, now_ms: u32, sub_ms_us: u16) {
        self.now_ms = now_ms;
        let presses = self.hw.panel.poll(now_ms).unwrap_or_default();
        if !self.started {
            self.start(now_ms);
            return;
        }
        if self.start_hold(now_ms) {
            self.abandon(now_ms);
            return;
        }
        // The motion under way (homing, a placement, a restore, parking) advances
        // first. Homing, placing and restoring wait for it; the other states go on
        // meanwhile (Error waits for parking to end), a park only being best effort.
        match self.hw.machine.poll_at(now_ms, sub_ms_us) {
            // A switch closed during a move: steps were lost. Home again (a held
            // piece stays on the magnet) and carry on: a placement or restore
            // then finds its piece missing and tries again.
            Err(nb::Error::Other(MotionError::LimitHit(_))) => {
                stat!(self.stats.rehomes += 1);
                if let Err(e) = self.hw.machine.start_rehoming(now_ms) {
                    self.fail(Problem::Motion(e));
                }
                return;
            }
            Err(nb::Error::Other(e)) => {
                self.fail(Problem::Motion(e));
                return;
            }
            Err(nb::Error::WouldBlock)
                if matches!(
                    self.state,
                    State::Starting
                        | State::Placing { .. }
                        | State::Restoring { .. }
                        | State::Error(_)
                ) || self.capturing() =>
            {
                return;
            }
            _ => {}
        }
        match self.state {
            State::Starting => {
                if self.calibrate_when_homed {
                    self.calibrate_when_homed = false;
                    self.start_sensor_calibration();
                } else {
                    self.ready();
                }
            }
            State::Setup | State::Over(_) | State::TaskDone => {
                #[cfg(feature = "games")]
                let presses = self.choose_game(presses);
                self.poll_setup(presses)
            }
            State::CalibratingSensors { step } => self.calibration_step(step, presses),
            State::TaskEntry(_) => self.poll_task_entry(presses, now_ms),
            State::WaitEmpty => self.poll_wait_empty(now_ms),
            State::Placing {
                square,
                colour,
                attempt,
                slot,
            } => self.enter(State::Verifying {
                square,
                colour,
                attempt,
                slot,
            }),
            State::Verifying {
                square,
                colour,
                attempt,
                slot,
            } => self.poll_verifying(square, colour, attempt, slot, now_ms),
            State::HumanTurn => {
                #[cfg(feature = "games")]
                if self.confirm_game_end(presses, now_ms) {
                    return;
                }
                if presses.contains(Button::Done) {
                    self.enter(State::Checking);
                }
            }
            State::Checking => self.poll_checking(now_ms),
            State::Restoring { from, to, attempt } => {
                self.enter(State::VerifyingRestore { from, to, attempt })
            }
            State::VerifyingRestore { from, to, attempt } => {
                self.poll_verifying_restore(from, to, attempt, now_ms)
            }
            #[cfg(feature = "games")]
            State::Capturing {
                from,
                square,
                attempt,
            } => self.poll_capturing(from, square, attempt, now_ms),
            State::Error(problem) => self.poll_error(problem, presses, now_ms),
            State::CalibratingPose(_) => self.poll_calibration(presses, now_ms),
        }
    }

    /// The first poll (and every restart after a motion failure): homes. The
    /// sensors start with the first scan, each on its own (the bank initialises a
    /// sensor on its first read and retries a failed one at the next poll): a
    /// sensor that never answers is shown by square ([`Problem::SensorFault`])
    /// while the others work, and no start-up waits for all nine at once (at a
    /// high bus error rate that took seconds, in polls long enough to trip the
    /// firmware's watchdog).
    fn start(&mut self, now_ms: u32) {
        self.started = true;
        match self.hw.machine.start_homing(now_ms) {
            Ok(()) => self.enter(State::Starting),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// Whether Start has just been held for [`ABANDON_HOLD_MS`] (once per hold).
    fn start_hold(&mut self, now_ms: u32) -> bool {
        if !self.hw.panel.is_held(Button::Start) {
            self.start_held = None;
            self.hold_used = false;
            return false;
        }
        let since = *self.start_held.get_or_insert(now_ms);
        let due = !self.hold_used && crate::elapsed_ms(now_ms, since) >= ABANDON_HOLD_MS;
        self.hold_used |= due;
        due
    }

    /// Abandons the game or task: the record is cleared (and saved, through the
    /// revision), the head raised, the magnet off and the axes homed again, and
    /// the lights ask for the board to be cleared ([`Problem::Abandoned`]); once
    /// it is empty, Setup.
    fn abandon(&mut self, now_ms: u32) {
        stat!(self.stats.abandons += 1);
        self.mode = Mode::Game;
        self.clear_round(false);
        match self.hw.machine.start_homing(now_ms) {
            Ok(()) => self.fail(Problem::Abandoned),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// Whether a capture's piece is being carried (its state waits for the motion).
    #[inline(always)]
    fn capturing(&self) -> bool {
        #[cfg(feature = "games")]
        return matches!(self.state, State::Capturing { .. });
        #[cfg(not(feature = "games"))]
        false
    }

    /// Homed and calibrated: a game or task in progress carries on once the board
    /// matches it; otherwise Setup.
    #[inline(always)]
    fn ready(&mut self) {
        #[cfg(feature = "games")]
        if let Some(code) = self.refused_game.take() {
            self.fail(Problem::UnknownGame(code));
            return;
        }
        let board = self.record.board();
        if self.active || (board.piece_count() > 0 && !board.is_over()) {
            self.fail(Problem::Mismatch);
        } else {
            self.enter(State::Setup);
        }
    }
}
