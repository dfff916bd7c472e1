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
//! The game record only ever grows by verified moves: nothing is lost from it.
//!
//! Placement tasks (contest items 1 to 3: given colours on given squares, also on a
//! rotated board) run through [`Controller::start_task`] with the same placement
//! and verification code.
//!
//! # Entering a task with the buttons
//!
//! A task can also be entered on the machine itself ([`State::TaskEntry`]):
//!
//! 1. In Setup (or after a game or task: [`State::Over`], [`State::TaskDone`]),
//!    press **Done**: task entry starts, empty, colour black, no square selected.
//! 2. **Side** toggles the colour: the Device turn light lit means black, the Human
//!    turn light lit means white.
//! 3. **First square** steps the selected square 1, 2, ... 9, 1, ... (square 1 is
//!    the top left, row by row). The selection is shown in binary on four lights:
//!    Lamp = 1, Win = 2, Draw = 4, Loss = 8 (square 5 = Lamp + Draw, square 9 =
//!    Lamp + Loss); all four off = no square selected.
//! 4. **Done** adds (colour, square) to the task, in placement order, and clears
//!    the selection (the four square lights go off: the entry was taken). An
//!    entry that [`Task::new`] rejects (a square given twice, more than
//!    [`STORAGE_SLOTS`] pieces of a colour) or Done without a selected square
//!    lights **Error** and adds nothing; the next press clears the error.
//! 5. **Start** runs the task through [`Controller::start_task`] (the board must
//!    be empty first); Start with nothing added lights Error instead.
//! 6. **Level** cancels: back to Setup, the entries are dropped.
//!
//! The task being entered is not saved: after a reset the machine is in Setup.
//!
//! # Calibrating the board pose by jogging
//!
//! Where the board lies (offset and rotation, up to 45 degrees either way) is found
//! by moving the head over the centres of the two marked squares, 1 (top left)
//! and 9 (bottom right), with the buttons ([`State::CalibratingPose`]):
//!
//! 1. In Setup (or after a game or task), **press and hold Done** for
//!    [`CALIBRATE_HOLD_MS`] (2 s): task entry comes on at once, then calibration.
//!    The head goes to where the current pose puts square 1.
//! 2. **First square** jogs the head [`JOG_UM`] (1 mm) in the + direction of the
//!    selected axis, **Side** in the - direction; held longer than
//!    [`JOG_REPEAT_MS`], they repeat (about 20 mm/s). **Start** switches the axis:
//!    Device turn lit = X, Human turn lit = Y.
//! 3. **Done** records the head position over square 1 (the square lights show
//!    the target in task entry's binary: Lamp = square 1, Lamp + Loss = square 9).
//!    The head then goes to where square 9 should be; jog it onto square 9's
//!    centre and press **Done** again.
//! 4. The pose from the two points ([`Pose::from_corners`]) is checked: rotation
//!    within 45 degrees, pitch within 20..=60 mm, every square reachable. If so it
//!    replaces the layout's pose, is saved with the snapshot (a reset keeps it)
//!    and the machine is back in Setup. If not, **Error** lights, nothing changes
//!    and the routine starts again at square 1 (the next press clears the light).
//! 5. **Level** leaves at any time without changing anything.
//!
//! A jog press while the head is still moving is ignored (a 1 mm jog takes about
//! 50 ms).
//!
//! The firmware's super-loop is, in outline:
//!
//! ```text
//! let mut store = Store::new(flash, BASE)?;             // persist::Store
//! if let Ok(Some(snap)) = store.load() { controller.resume(&snap)?; }
//! let mut saved = None;
//! loop {
//!     controller.poll(millis());                         // never blocks
//!     if saved != Some(controller.revision()) {          // something changed
//!         saved = Some(controller.revision());
//!         store.save(&controller.snapshot())?;           // fixed layout + CRC-32
//!     }
//! }
//! ```
//!
//! `device::sim::run::SimMachine::tick` runs exactly this loop on the simulator.

use super::classify::{Calibrator, Margins};
use super::guided;
use super::motion::{Lift, Machine, MotionError, Point, Pose, Storage, STORAGE_SLOTS};
use super::panel::{Button, Light, Panel, Presses};
use super::persist::Snapshot;
use super::scanner::{BoardView, Scanner};
use super::sensors::{SensorBank, SensorError};
use super::{elapsed_ms, Colour};
use crate::strategy::{Level, Strategy};
use crate::{Board, Square, Squares};
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;

/// Chooses the device's moves. The hook for other players (a trap player that
/// steers towards positions where people err, a weaker level...).
pub trait MoveChooser {
    /// A legal move for the side to move in `board`, or `None` when the game is over.
    fn choose(&mut self, board: &Board) -> Option<Square>;

    /// Switches to the next playing level (the Level button); fixed choosers ignore it.
    fn next_level(&mut self) {}
}

/// Any [`Strategy`] of the players module (random, easy, medium, perfect, trap,
/// with a mistake rate), drawn with `R`; the Level button cycles the levels.
///
/// ```
/// use tictable::device::controller::{MoveChooser, StrategyChooser};
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
/// c.next_level(); // trap -> random
/// assert_eq!(c.strategy.level(), Level::Random);
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

    fn next_level(&mut self) {
        let all = Level::ALL;
        let i = all
            .iter()
            .position(|l| *l == self.strategy.level())
            .unwrap_or(0);
        let next = all[(i + 1) % all.len()];
        // A mistake rate only carries over to levels that take one.
        let rate = self.strategy.mistake_rate();
        let base = Strategy::new(next).with_first_move(self.strategy.first_move());
        self.strategy = base.with_mistake_rate(rate).unwrap_or(base);
    }
}

/// Perfect play from the table: the lowest-numbered best move.
///
/// ```
/// use tictable::device::controller::{BestMove, MoveChooser};
/// use tictable::{Board, Square};
/// let b: Board = "XX.OO....".parse().unwrap();
/// assert_eq!(BestMove.choose(&b), Square::new(2));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct BestMove;

impl MoveChooser for BestMove {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        crate::best_move(board)
    }
}

/// Perfect play from the table, a best move chosen at random with `R`.
#[derive(Clone, Debug)]
pub struct RandomBestMove<R>(pub R);

impl<R: rand_core::Rng> MoveChooser for RandomBestMove<R> {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        crate::random_best_move(board, &mut self.0)
    }
}

/// The moves of one game, in order: only verified moves are ever added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameRecord {
    moves: [u8; 9],
    len: u8,
    board: Board,
}

impl GameRecord {
    /// An empty record.
    pub const fn new() -> GameRecord {
        GameRecord {
            moves: [0; 9],
            len: 0,
            board: Board::EMPTY,
        }
    }

    /// The position reached.
    pub const fn board(&self) -> Board {
        self.board
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves[..self.len as usize]
            .iter()
            .filter_map(|&i| Square::new(i))
    }

    /// Appends a move (checked against the rules).
    pub fn push(&mut self, square: Square) -> Result<(), crate::MoveError> {
        self.board = self.board.play(square)?;
        self.moves[self.len as usize] = square.index();
        self.len += 1;
        Ok(())
    }
}

/// Where the machine is: board pose, storage columns and the parking spot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The board.
    pub pose: Pose,
    /// The storage columns.
    pub storage: Storage,
    /// Where the head waits, clear of the board.
    pub park: Point,
}

/// Who moves first and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The device moves first (and plays black).
    pub device_first: bool,
    /// The device's first square when it moves first (`None`: the table's choice).
    pub first_square: Option<Square>,
}

impl GameSetup {
    /// The device's colour.
    pub const fn device_colour(&self) -> Colour {
        if self.device_first {
            Colour::Black
        } else {
            Colour::White
        }
    }
}

/// A placement task (contest items 1 to 3): pieces of the given colours put on
/// the given squares, in order, each verified with the sensors.
///
/// ```
/// use tictable::device::controller::{Task, TaskError};
/// use tictable::device::Colour::{Black, White};
/// use tictable::Square;
/// let s = |i| Square::new(i).unwrap();
/// let t = Task::new(&[(Black, s(0)), (White, s(4)), (Black, s(8)), (White, s(2))]).unwrap();
/// assert_eq!(t.items().len(), 4);
/// assert_eq!(Task::new(&[(Black, s(4)), (White, s(4))]), Err(TaskError::SquareTwice(s(4))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    items: [(Colour, Square); 9],
    len: u8,
}

/// A task that cannot be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskError {
    /// No placement at all.
    Empty,
    /// The same square twice.
    SquareTwice(Square),
    /// More pieces of a colour than its storage column holds.
    TooManyOf(Colour),
    /// The machine is busy (a game or task is running).
    Busy,
}

impl core::fmt::Display for TaskError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TaskError::Empty => f.write_str("no placement given"),
            TaskError::SquareTwice(s) => write!(f, "square {s} given twice"),
            TaskError::TooManyOf(c) => write!(f, "more than {STORAGE_SLOTS} {c:?} pieces"),
            TaskError::Busy => f.write_str("the machine is busy"),
        }
    }
}

impl Task {
    /// No placement yet (not a valid task by itself).
    const NONE: Task = Task {
        items: [(Colour::Black, Square::CENTRE); 9],
        len: 0,
    };

    /// A task from (colour, square) pairs in placement order.
    pub fn new(items: &[(Colour, Square)]) -> Result<Task, TaskError> {
        if items.is_empty() {
            return Err(TaskError::Empty);
        }
        let mut task = Task::NONE;
        for &(colour, square) in items {
            task.push(colour, square)?;
        }
        Ok(task)
    }

    /// Appends a placement, unless its square is taken already or its colour's
    /// storage column would not hold the pieces.
    fn push(&mut self, colour: Colour, square: Square) -> Result<(), TaskError> {
        let mut count = 0;
        for &(c, s) in self.items() {
            if s == square {
                return Err(TaskError::SquareTwice(square));
            }
            count += usize::from(c == colour);
        }
        if count >= STORAGE_SLOTS {
            return Err(TaskError::TooManyOf(colour));
        }
        // Nine distinct squares at most: with `len` 9 every square is taken.
        if let Some(item) = self.items.get_mut(self.len as usize) {
            *item = (colour, square);
            self.len += 1;
        }
        Ok(())
    }

    /// The placements, in order.
    pub fn items(&self) -> &[(Colour, Square)] {
        &self.items[..self.len as usize]
    }

    /// The view once the first `done` placements are made.
    pub fn view_after(&self, done: usize) -> BoardView {
        let mut v = BoardView::EMPTY;
        for &(c, s) in self.items().iter().take(done) {
            v.set(s, super::classify::Sensed::Piece(c));
        }
        v
    }
}

/// What the controller is doing between Start presses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// Playing a game.
    Game,
    /// Running a placement task; `done` placements are verified.
    Task {
        /// The task.
        task: Task,
        /// Placements done.
        done: u8,
    },
}

/// What needs fixing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Sensors that do not answer.
    SensorFault(Squares),
    /// Squares with an ambiguous reading (a piece off-square, a hand...).
    Unclear(Squares),
    /// The board is not empty at the start of a game.
    BoardNotEmpty,
    /// The board differs from the game record in a way that is not one move.
    Mismatch,
    /// The device's piece did not arrive after every attempt (or a power cut came
    /// while it was carried): a person puts it on its square by hand.
    PlacementFailed(Square),
    /// The device has no piece left in storage.
    StorageEmpty,
    /// The mechanism failed (press Start to home again).
    Motion(MotionError),
    /// The sensors could not be initialised.
    SensorInit(Square, SensorError),
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
    /// Waiting until the board is fixed.
    Error(Problem),
    /// The game is over (the device's view: `Some(true)` won, `Some(false)` lost).
    Over(Option<bool>),
    /// A placement task is finished.
    TaskDone,
    /// A task is being entered with the buttons (see the [module docs](self)).
    TaskEntry(TaskEntry),
    /// The guided sensor calibration, at step `step` (0..=4, see
    /// [`guided`]); 5 after a failed attempt (Start begins again).
    CalibratingSensors {
        /// The step shown.
        step: u8,
    },
    /// The board pose is being calibrated by jogging (see the [module docs](self)).
    CalibratingPose(Jog),
}

/// How long Done is held (after entering task entry) to start calibrating, ms.
pub const CALIBRATE_HOLD_MS: u32 = 2000;
/// One jog press, µm.
pub const JOG_UM: i32 = 1000;
/// A jog button held this long after its press repeats, ms.
pub const JOG_REPEAT_MS: u32 = 400;

/// Pose calibration by jogging (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jog {
    /// The head position recorded over square 1, once Done was pressed there.
    pub first: Option<Point>,
    /// Jogging along Y (else X); Start switches.
    pub y_axis: bool,
    /// The last pair of points was refused (the error light), until the next press.
    pub refused: bool,
}

/// A task being entered with the buttons (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskEntry {
    /// The colour the next entry gets (Side toggles it).
    pub colour: Colour,
    /// The square selected with First square, if any.
    pub square: Option<Square>,
    /// The placements added so far (`None`: none yet).
    pub task: Option<Task>,
    /// Why the last Done or Start was refused (the error light), until the next press.
    pub rejected: Option<TaskError>,
}

impl TaskEntry {
    /// A fresh entry: black, no square, nothing added.
    pub const fn new() -> TaskEntry {
        TaskEntry {
            colour: Colour::Black,
            square: None,
            task: None,
            rejected: None,
        }
    }

    /// The placements added so far.
    pub fn items(&self) -> &[(Colour, Square)] {
        self.task.as_ref().map_or(&[], Task::items)
    }

    /// Applies the presses of one poll (Level, which cancels, is handled by the
    /// controller). Returns the task to run when Start was pressed with a valid one.
    fn update(&mut self, presses: Presses) -> Option<Task> {
        self.rejected = None;
        if presses.contains(Button::Side) {
            self.colour = self.colour.other();
        }
        if presses.contains(Button::FirstSquare) {
            self.square = match self.square {
                None => Some(Square::ALL[0]),
                Some(s) => Square::new(s.index() + 1).or(Some(Square::ALL[0])),
            };
        }
        if presses.contains(Button::Done) {
            self.add();
        }
        if presses.contains(Button::Start) {
            if self.task.is_none() {
                self.rejected = Some(TaskError::Empty);
            }
            return self.task;
        }
        None
    }

    /// Adds the selection to the task, if [`Task::new`] accepts it.
    fn add(&mut self) {
        let Some(square) = self.square else {
            self.rejected = Some(TaskError::Empty);
            return;
        };
        let mut task = self.task.unwrap_or(Task::NONE);
        match task.push(self.colour, square) {
            Ok(()) => {
                self.task = Some(task);
                self.square = None;
            }
            Err(e) => self.rejected = Some(e),
        }
    }
}

/// Whether `view` shows `board` plus one piece of `human`'s on an empty square,
/// the game not being over: a legal move when `human` is to move. (The same as
/// comparing `view` with every position after a legal move, without playing them.)
fn one_move_of(board: Board, human: Colour, view: BoardView) -> bool {
    // The human's one new piece, on a square the record has empty.
    let new = view.pieces(human).bits() & !board.pieces(human.player()).bits();
    let mut moved = BoardView::of_board(board);
    if let Some(square) = Squares::from_bits(new).first() {
        moved.set(square, super::classify::Sensed::Piece(human));
    }
    new != 0
        && at_most_one(new)
        && new & (board.x() | board.o()) == 0
        && view == moved
        && !board.is_over()
}

/// Whether at most one bit of `bits` is set (no software popcount on Cortex-M).
const fn at_most_one(bits: u16) -> bool {
    bits & bits.wrapping_sub(1) == 0
}

/// `light`'s bit if `on`.
fn lit(on: bool, light: Light) -> u8 {
    if on {
        light.bit()
    } else {
        0
    }
}

/// Shows a square number 1..=9 in binary on Lamp (1), Win (2), Draw (4) and Loss (8);
/// nothing for `None`.
fn square_lights(square: Option<Square>) -> u8 {
    const _: () = assert!(
        Light::Lamp.bit() == 1
            && Light::Win.bit() == 1 << 3
            && Light::Draw.bit() == 1 << 4
            && Light::Loss.bit() == 1 << 5
    );
    let n = square.map_or(0, |s| s.index() + 1);
    (n & 1) | ((n & 0b1110) << 2)
}

impl Default for TaskEntry {
    fn default() -> TaskEntry {
        TaskEntry::new()
    }
}

/// Runs a statistics update, only in builds with the simulator (`sim-core`): the
/// counters are for its reports and the tests, and firmware never reads them (they
/// and the motion model's prediction cost 364 B of flash on the STM32F103).
macro_rules! stat {
    ($($update:tt)*) => {{
        #[cfg(feature = "sim-core")]
        {
            $($update)*
        }
    }};
}

/// Running totals, for tests and the simulator's reports (kept only with the
/// `sim-core` feature, see [`Controller::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games finished.
    pub games: u32,
    /// Games the device won, drew, lost.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Device placements verified.
    pub placements: u32,
    /// Placement attempts that failed verification and were retried.
    pub retries: u32,
    /// Moved device pieces put back.
    pub restores: u32,
    /// Times the error light came on.
    pub errors: u32,
    /// Longest placement, from the decision to the verified piece, ms.
    pub max_placement_ms: u32,
    /// Longest placement predicted by the motion model, ms.
    pub max_model_ms: u32,
}

/// A snapshot that cannot be resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResumeError {
    /// The controller already started.
    Running,
    /// The snapshot holds impossible values (more placements done than the task
    /// has, a storage slot that does not exist).
    Corrupt,
}

/// Time between automatic retries of a failed sensor initialisation, ms.
pub const SENSOR_RETRY_MS: u32 = 1000;

/// Every storage slot full.
pub(crate) const FULL_STOCK: u8 = (1 << STORAGE_SLOTS) - 1;

/// Placement attempts before giving up and asking for help.
pub const PLACE_ATTEMPTS: u8 = 3;

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
    /// A game or task is running (survives resets through [`Snapshot`]).
    active: bool,
    /// The placement under way: colour, storage slot, square.
    pending: Option<(Colour, u8, Square)>,
    /// Bumped on every change worth saving.
    revision: u32,
    #[cfg(feature = "sim-core")]
    placement_started: u32,
    started: bool,
    now_ms: u32,
    entered_ms: u32,
    #[cfg(feature = "sim-core")]
    stats: Stats,
    /// Readings of the guided sensor calibration under way.
    calibrator: Calibrator,
    /// Run the guided sensor calibration once homed.
    calibrate_when_homed: bool,
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
            active: false,
            pending: None,
            revision: 0,
            #[cfg(feature = "sim-core")]
            placement_started: 0,
            started: false,
            now_ms: 0,
            entered_ms: 0,
            #[cfg(feature = "sim-core")]
            stats: Stats::default(),
            calibrator: Calibrator::new(),
            calibrate_when_homed: false,
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

    /// The setup for the next game.
    pub fn setup(&self) -> GameSetup {
        self.setup
    }

    /// Running totals (with the `sim-core` feature: firmware builds do not count).
    #[cfg(feature = "sim-core")]
    pub fn stats(&self) -> Stats {
        let s = self.stats;
        // Every finished game is one of the three.
        Stats {
            games: s.wins + s.draws + s.losses,
            ..s
        }
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

    /// Starts a placement task (contest items 1 to 3) from Setup, after a game or
    /// task, or from task entry; the board must be empty first.
    pub fn start_task(&mut self, task: Task) -> Result<(), TaskError> {
        if !matches!(
            self.state,
            State::Setup | State::Over(_) | State::TaskDone | State::TaskEntry(_)
        ) {
            return Err(TaskError::Busy);
        }
        self.mode = Mode::Task { task, done: 0 };
        self.new_round();
        Ok(())
    }

    fn new_round(&mut self) {
        self.active = true;
        self.pending = None;
        self.record = GameRecord::new();
        self.refill();
        self.enter(State::WaitEmpty);
    }

    /// What the board shows when nothing is being placed: the game record, or the
    /// task's placements so far.
    fn base_view(&self) -> BoardView {
        match &self.mode {
            Mode::Game => BoardView::of_board(self.record.board()),
            Mode::Task { task, done } => task.view_after(*done as usize),
        }
    }

    /// What the board should show now: the record (or the task so far), plus the
    /// piece being placed.
    pub fn expected_view(&self) -> BoardView {
        let mut v = self.base_view();
        // The placement under way (set before Placing, kept until it is verified).
        let placing = matches!(
            self.state,
            State::Placing { .. }
                | State::Verifying { .. }
                | State::Error(Problem::PlacementFailed(_))
        );
        if let (true, Some((colour, _, square))) = (placing, self.pending) {
            v.set(square, super::classify::Sensed::Piece(colour));
        }
        v
    }

    /// A counter bumped on every change worth saving: save a [`Snapshot`] when it
    /// moves.
    pub fn revision(&self) -> u32 {
        self.revision
    }

    /// The state to save so that [`Controller::resume`] can carry on after a reset.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            sequence: 0,
            calibration: *self.hw.scanner.calibration(),
            pose: self.layout.pose,
            setup: self.setup,
            record: self.record,
            mode: self.mode,
            active: self.active,
            stock: self.stock,
            suspect: self.suspect,
            pending: self.pending,
        }
    }

    /// Carries on from a saved snapshot; call once, before the first poll. After
    /// homing, a game or task in progress resumes as soon as the board matches it
    /// (a piece placed just before the reset is recognised).
    pub fn resume(&mut self, snap: &Snapshot) -> Result<(), ResumeError> {
        if self.started {
            return Err(ResumeError::Running);
        }
        let task_overdone = matches!(&snap.mode, Mode::Task { task, done } if *done > task.len);
        let bad_slot = matches!(snap.pending, Some((_, slot, _)) if slot as usize >= STORAGE_SLOTS);
        if task_overdone || bad_slot {
            return Err(ResumeError::Corrupt);
        }
        self.hw.scanner.set_calibration(snap.calibration);
        self.layout.pose = snap.pose;
        self.setup = snap.setup;
        self.record = snap.record;
        self.mode = snap.mode;
        self.active = snap.active;
        let ([s0, s1], [e0, e1]) = (snap.stock, snap.suspect);
        self.stock = [s0 & FULL_STOCK, s1 & FULL_STOCK];
        self.suspect = [e0 & FULL_STOCK, e1 & FULL_STOCK];
        self.pending = snap.pending;
        Ok(())
    }

    fn device_colour(&self) -> Colour {
        self.setup.device_colour()
    }

    /// Whether the device is to move in the game: black (X) moves first, so after an
    /// even number of moves exactly when the device plays black. (The record only
    /// grows by legal moves from the empty board: no piece counting needed.)
    fn devices_turn(&self) -> bool {
        (self.record.len % 2 == 0) == self.setup.device_first
    }

    fn lights(&mut self) {
        let turn = |human: bool| {
            if human {
                Light::HumanTurn.bit()
            } else {
                Light::DeviceTurn.bit()
            }
        };
        let on = match &self.state {
            State::Starting
            | State::WaitEmpty
            | State::Placing { .. }
            | State::Verifying { .. }
            | State::Checking
            | State::Restoring { .. }
            | State::VerifyingRestore { .. } => Light::DeviceTurn.bit(),
            State::CalibratingSensors { step } => {
                // The step's light; every step light after a failure.
                Light::Error.bit()
                    | guided::STEPS
                        .get(*step as usize)
                        .map_or(guided::STEP_LIGHT_MASK, |s| s.light.bit())
            }
            State::Setup => {
                // Who moves first, and the device's first square (none: the table's).
                if self.setup.device_first {
                    Light::DeviceTurn.bit() | square_lights(self.setup.first_square)
                } else {
                    Light::HumanTurn.bit()
                }
            }
            // In the human's turn, any piece on the board means the device moved last.
            State::HumanTurn => Light::HumanTurn.bit() | lit(self.record.len > 0, Light::Lamp),
            State::Error(_) => Light::Error.bit(),
            State::TaskDone => Light::Lamp.bit(),
            State::TaskEntry(entry) => {
                turn(entry.colour == Colour::White)
                    | square_lights(entry.square)
                    | lit(entry.rejected.is_some(), Light::Error)
            }
            // The target square in task entry's binary: 1 = Lamp, 9 = Lamp + Loss.
            State::CalibratingPose(jog) => {
                turn(jog.y_axis)
                    | Light::Lamp.bit()
                    | lit(jog.first.is_some(), Light::Loss)
                    | lit(jog.refused, Light::Error)
            }
            State::Over(Some(true)) => Light::Win.bit(),
            State::Over(Some(false)) => Light::Loss.bit(),
            State::Over(None) => Light::Draw.bit(),
        };
        // A light failure is not fatal for the game: it is retried on the next poll.
        let _ = self.hw.panel.show_mask(on);
    }

    /// The error light, for `problem`.
    #[inline(never)]
    fn fail(&mut self, problem: Problem) {
        self.enter(State::Error(problem));
    }

    fn enter(&mut self, state: State) {
        if matches!(state, State::Error(_)) && !matches!(self.state, State::Error(_)) {
            stat!(self.stats.errors += 1);
        }
        self.state = state;
        self.revision = self.revision.wrapping_add(1);
        if matches!(state, State::Over(_) | State::TaskDone) {
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
        // The motion under way (homing, a placement, a restore, parking) advances
        // first. Homing, placing and restoring wait for it; the other states go on
        // meanwhile (Error waits for parking to end), a park only being best effort.
        match self.hw.machine.poll_at(now_ms, sub_ms_us) {
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
                ) =>
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
                if presses.contains(Button::Done) {
                    // Task entry; other buttons pressed in the same poll are ignored.
                    self.enter(State::TaskEntry(TaskEntry::new()));
                    return;
                }
                if presses.contains(Button::Side) {
                    self.setup.device_first = !self.setup.device_first;
                }
                if presses.contains(Button::Level) {
                    self.chooser.next_level();
                }
                if presses.contains(Button::FirstSquare) {
                    self.setup.first_square = match self.setup.first_square {
                        None => Some(Square::ALL[0]),
                        Some(s) => Square::new(s.index() + 1),
                    };
                }
                if presses.contains(Button::Start) {
                    self.mode = Mode::Game;
                    self.new_round();
                } else if !presses.is_empty() {
                    // Setup changes show at once (the lights of a finished game or
                    // task give way to the setup's).
                    self.enter(State::Setup);
                }
            }
            State::CalibratingSensors { step } => self.calibration_step(step, presses),
            State::TaskEntry(mut entry) => {
                if entry == TaskEntry::new()
                    && self.hw.panel.is_held(Button::Done)
                    && elapsed_ms(now_ms, self.entered_ms) >= CALIBRATE_HOLD_MS
                    && !self.hw.machine.is_busy()
                {
                    self.start_calibration(false);
                    return;
                }
                if presses.is_empty() {
                    return;
                }
                if presses.contains(Button::Level) {
                    self.enter(State::Setup);
                    return;
                }
                match entry.update(presses) {
                    // From TaskEntry start_task cannot be refused as busy.
                    Some(task) if self.start_task(task).is_ok() => {}
                    _ => self.enter(State::TaskEntry(entry)),
                }
            }
            State::WaitEmpty => {
                if self.hw.machine.is_busy() {
                    return;
                }
                if let Some(view) = self.scan(now_ms) {
                    if view == BoardView::EMPTY {
                        self.next_turn(now_ms);
                    } else {
                        self.fail(Problem::BoardNotEmpty);
                    }
                }
            }
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
            } => {
                let Some(view) = self.scan(now_ms) else {
                    return;
                };
                if view == self.expected_view() {
                    self.placed(colour, slot, square, now_ms);
                } else if view == self.base_view() && attempt < PLACE_ATTEMPTS {
                    // Nothing arrived: a missed grip leaves the piece in its slot, so
                    // the same slot is tried again; after a second miss the slot is
                    // suspected empty and the next one is used.
                    stat!(self.stats.retries += 1);
                    if attempt >= 2 {
                        self.slot_emptied(colour, slot, true);
                    }
                    self.start_placement(square, colour, attempt + 1);
                } else {
                    self.fail(Problem::PlacementFailed(square));
                }
            }
            State::HumanTurn => {
                if presses.contains(Button::Done) {
                    self.enter(State::Checking);
                }
            }
            State::Checking => {
                if self.hw.machine.is_busy() {
                    return;
                }
                if let Some(view) = self.scan(now_ms) {
                    self.check_human(view, now_ms);
                }
            }
            State::Restoring { from, to, attempt } => {
                self.enter(State::VerifyingRestore { from, to, attempt })
            }
            State::VerifyingRestore { from, to, attempt } => {
                let Some(view) = self.scan(now_ms) else {
                    return;
                };
                let d = self.device_colour();
                let expected = self.record.board().pieces(d.player()).bits();
                let seen = view.pieces(d).bits();
                if seen == expected && view.untrusted().is_empty() {
                    stat!(self.stats.restores += 1);
                    self.park(now_ms);
                    // Ask for the human's move again (a move made meanwhile is read then).
                    self.enter(State::HumanTurn);
                } else if seen == (expected & !to.bit()) | from.bit() && attempt < PLACE_ATTEMPTS {
                    // The piece did not come along (a missed pick-up): try again.
                    stat!(self.stats.retries += 1);
                    self.start_restore(from, to, attempt + 1);
                } else {
                    self.fail(Problem::Mismatch);
                }
            }
            State::Error(problem) => self.poll_error(problem, presses, now_ms),
            State::CalibratingPose(jog) => self.poll_calibration(jog, presses, now_ms),
        }
    }

    /// The first poll (and every restart after a sensor or motion failure):
    /// initialises the sensors and homes.
    #[inline(never)]
    fn start(&mut self, now_ms: u32) {
        self.started = true;
        if let Err((s, e)) = self.hw.sensors.init() {
            self.fail(Problem::SensorInit(s, e));
            return;
        }
        match self.hw.machine.start_homing(now_ms) {
            Ok(()) => self.enter(State::Starting),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// Starts (or restarts) pose calibration: the head goes to square 1 as the
    /// current pose has it.
    #[inline(always)]
    fn start_calibration(&mut self, refused: bool) {
        // Unreachable (a far-off pose): the head stays and is jogged from there.
        let _ = self
            .hw
            .machine
            .start_move(self.layout.pose.square_centre(Square::ALL[0]));
        self.enter(State::CalibratingPose(Jog {
            first: None,
            y_axis: false,
            refused,
        }));
    }

    fn poll_calibration(&mut self, mut jog: Jog, presses: Presses, now_ms: u32) {
        let busy = self.hw.machine.is_busy();
        if presses.contains(Button::Level) {
            // Cancelled: nothing changes. (A move under way finishes first.)
            if !busy {
                self.park(now_ms);
            }
            self.enter(State::Setup);
            return;
        }
        if busy {
            return;
        }
        let panel = &self.hw.panel;
        let repeat = presses.is_empty() && elapsed_ms(now_ms, self.entered_ms) >= JOG_REPEAT_MS;
        let jogs = |b| presses.contains(b) || (repeat && panel.is_held(b));
        let step = if jogs(Button::FirstSquare) {
            JOG_UM
        } else if jogs(Button::Side) {
            -JOG_UM
        } else {
            0
        };
        // Positions stay within the travel (a few hundred mm): no overflow below.
        let here = self.hw.machine.position();
        if step != 0 && !presses.contains(Button::Done) {
            let mut to = here;
            let axis = if jog.y_axis { &mut to.y } else { &mut to.x };
            *axis = axis.wrapping_add(step);
            // Past the travel: the head stays.
            let _ = self.hw.machine.start_move(to);
        }
        if presses.is_empty() {
            return;
        }
        jog.refused = false;
        if presses.contains(Button::Start) {
            jog.y_axis = !jog.y_axis;
        }
        if presses.contains(Button::Done) {
            let Some(first) = jog.first else {
                jog.first = Some(here);
                // On to where square 9 lies from square 1 with the current pose.
                let pose = &self.layout.pose;
                let (p0, p8) = (
                    pose.square_centre(Square::ALL[0]),
                    pose.square_centre(Square::ALL[8]),
                );
                let guess = Point::new(
                    here.x.wrapping_add(p8.x.wrapping_sub(p0.x)),
                    here.y.wrapping_add(p8.y.wrapping_sub(p0.y)),
                );
                let _ = self.hw.machine.start_move(guess);
                self.enter(State::CalibratingPose(jog));
                return;
            };
            match Pose::from_corners(first, here) {
                Ok(pose)
                    if Square::ALL
                        .iter()
                        .all(|s| self.hw.machine.reachable(pose.square_centre(*s))) =>
                {
                    self.layout.pose = pose;
                    self.park(now_ms);
                    self.enter(State::Setup);
                }
                _ => self.start_calibration(true),
            }
            return;
        }
        self.enter(State::CalibratingPose(jog));
    }

    /// Homed and calibrated: a game or task in progress carries on once the board
    /// matches it; otherwise Setup.
    #[inline(always)]
    fn ready(&mut self) {
        let board = self.record.board();
        if self.active || (board.piece_count() > 0 && !board.is_over()) {
            self.fail(Problem::Mismatch);
        } else {
            self.enter(State::Setup);
        }
    }

    /// Runs the guided sensor calibration (see [`guided`]) once the
    /// machine is homed: call it before the first poll (the firmware does on the
    /// first power-on, or with Level held), or in Setup, after a game or after a
    /// task. The calibration in use changes only when the procedure succeeds; Level
    /// cancels it. `false` (nothing changes) while a game or task runs.
    pub fn calibrate_sensors(&mut self) -> bool {
        match self.state {
            State::Starting => self.calibrate_when_homed = true,
            State::Setup | State::Over(_) | State::TaskDone => {
                self.start_sensor_calibration();
            }
            _ => return false,
        }
        true
    }

    /// Starts the guided sensor calibration at its first step.
    #[inline(always)]
    fn start_sensor_calibration(&mut self) {
        self.calibrator = Calibrator::new();
        self.enter(State::CalibratingSensors { step: 0 });
    }

    /// One poll of the guided sensor calibration: Start reads the step shown (or
    /// begins again after a failure), Level cancels.
    fn calibration_step(&mut self, step: u8, presses: Presses) {
        if presses.contains(Button::Level) {
            self.ready();
            return;
        }
        if !presses.contains(Button::Start) {
            return;
        }
        let Some(shown) = guided::STEPS.get(step as usize) else {
            self.start_sensor_calibration();
            return;
        };
        guided::record_step(&mut self.hw.sensors, &mut self.calibrator, shown);
        if (step as usize) + 1 < guided::STEPS.len() {
            self.enter(State::CalibratingSensors { step: step + 1 });
            return;
        }
        match self
            .calibrator
            .finish(guided::MIN_SEPARATION, Margins::DEFAULT)
        {
            Ok(calibration) => {
                self.hw.scanner.set_calibration(calibration);
                self.ready();
            }
            Err(_) => self.enter(State::CalibratingSensors {
                step: guided::STEPS.len() as u8,
            }),
        }
    }

    /// Polls the scanner; `Some` with a stable view.
    fn scan(&mut self, now_ms: u32) -> Option<BoardView> {
        self.hw.scanner.poll(now_ms, &mut self.hw.sensors).ok()
    }

    fn park(&mut self, _now_ms: u32) {
        // Parking is best effort: a failure shows up on the next move.
        let _ = self.hw.machine.start_move(self.layout.park);
    }

    fn next_turn(&mut self, now_ms: u32) {
        if let Mode::Task { task, done } = &self.mode {
            match task.items().get(*done as usize) {
                Some(&(colour, square)) => {
                    stat!(self.placement_started = now_ms);
                    self.start_placement(square, colour, 1);
                }
                None => {
                    self.park(now_ms);
                    self.enter(State::TaskDone);
                }
            }
            return;
        }
        let board = self.record.board();
        if board.is_over() {
            let result = board.winner().map(|w| w == self.device_colour().player());
            match result {
                Some(true) => stat!(self.stats.wins += 1),
                Some(false) => stat!(self.stats.losses += 1),
                None => stat!(self.stats.draws += 1),
            }
            self.park(now_ms);
            self.enter(State::Over(result));
            return;
        }
        if !self.devices_turn() {
            self.enter(State::HumanTurn);
            return;
        }
        let choice = match self.setup.first_square {
            Some(s) if board.piece_count() == 0 => Some(s),
            _ => self.chooser.choose(&board),
        };
        // A chooser returning an illegal square (an occupied one: the game goes on
        // here) falls back to the table.
        let square = choice
            .filter(|s| (board.x() | board.o()) & s.bit() == 0)
            .or_else(|| crate::best_move(&board));
        match square {
            Some(square) => {
                stat!(self.placement_started = now_ms);
                let colour = self.device_colour();
                self.start_placement(square, colour, 1);
            }
            None => self.fail(Problem::Mismatch),
        }
    }

    /// Starts carrying the device piece on `from` back to `to`.
    fn start_restore(&mut self, from: Square, to: Square, attempt: u8) {
        let (a, b) = (
            self.layout.pose.square_centre(from),
            self.layout.pose.square_centre(to),
        );
        match self.hw.machine.start_transfer(a, b) {
            Ok(()) => self.enter(State::Restoring { from, to, attempt }),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// The slot to take the next piece from: the lowest believed full, else the
    /// lowest suspected empty.
    fn next_slot(&self, colour: Colour) -> Option<usize> {
        [self.stock[colour.index()], self.suspect[colour.index()]]
            .into_iter()
            .find(|m| *m != 0)
            .map(|m| m.trailing_zeros() as usize)
    }

    fn start_placement(&mut self, square: Square, colour: Colour, attempt: u8) {
        let Some(slot) = self.next_slot(colour) else {
            self.fail(Problem::StorageEmpty);
            return;
        };
        let Some(from) = self.layout.storage.slot(colour, slot) else {
            self.fail(Problem::StorageEmpty);
            return;
        };
        let to = self.layout.pose.square_centre(square);
        stat!(
            let model = self.hw.machine.transfer_ms(from, to);
            self.stats.max_model_ms = self.stats.max_model_ms.max(model);
        );
        self.pending = Some((colour, slot as u8, square));
        match self.hw.machine.start_transfer(from, to) {
            Ok(()) => self.enter(State::Placing {
                square,
                colour,
                attempt,
                slot: slot as u8,
            }),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// A verified placement: recorded in the game or the task.
    fn placement_done(&mut self, square: Square, now_ms: u32) {
        self.pending = None;
        match &mut self.mode {
            Mode::Game => {
                if self.record.push(square).is_err() {
                    self.fail(Problem::Mismatch);
                    return;
                }
            }
            Mode::Task { done, .. } => *done += 1,
        }
        stat!(
            self.stats.placements += 1;
            let took = elapsed_ms(now_ms, self.placement_started);
            self.stats.max_placement_ms = self.stats.max_placement_ms.max(took);
        );
        self.park(now_ms);
        self.next_turn(now_ms);
    }

    /// Compares the stable view after the button with the record.
    fn check_human(&mut self, view: BoardView, now_ms: u32) {
        let untrusted = view.untrusted();
        if !untrusted.is_empty() {
            let faults = view.faults();
            self.fail(if faults.is_empty() {
                Problem::Unclear(untrusted)
            } else {
                Problem::SensorFault(faults)
            });
            return;
        }
        let board = self.record.board();
        let d = self.device_colour();
        let h = d.other();
        let dev_expected = board.pieces(d.player()).bits();
        let hum_expected = board.pieces(h.player()).bits();
        let dev_seen = view.pieces(d).bits();
        let hum_seen = view.pieces(h).bits();
        let hum_new = hum_seen & !hum_expected;
        // Every human piece still there, and at most one more (the sets of a view
        // are disjoint: a new human piece is on a square the record has empty
        // whenever the device's pieces are where they belong).
        let humans_ok = hum_expected & !hum_seen == 0 && at_most_one(hum_new);
        let missing = dev_expected & !dev_seen;
        let extra = dev_seen & !dev_expected;
        if humans_ok && missing | extra == 0 {
            match Squares::from_bits(hum_new).first() {
                // Button pressed without a move: keep waiting.
                None => self.enter(State::HumanTurn),
                Some(square) if self.record.push(square).is_ok() => self.next_turn(now_ms),
                Some(_) => self.fail(Problem::Mismatch),
            }
            return;
        }
        // One device piece moved to a square no human piece is on.
        let moved = humans_ok
            && missing != 0
            && extra != 0
            && at_most_one(missing)
            && at_most_one(extra)
            && (extra & hum_expected) | (hum_new & (missing | extra)) == 0;
        if let (true, Some(from), Some(to)) = (
            moved,
            Squares::from_bits(extra).first(),
            Squares::from_bits(missing).first(),
        ) {
            self.start_restore(from, to, 1);
        } else {
            self.fail(Problem::Mismatch);
        }
    }

    /// One poll in the error state (the machine is idle: errors wait for a park to
    /// end, see [`Controller::poll_at`]).
    fn poll_error(&mut self, problem: Problem, presses: Presses, now_ms: u32) {
        let start = presses.contains(Button::Start);
        match problem {
            Problem::SensorInit(..) | Problem::Motion(_) => {
                // Start homes again (the record is kept); a sensor initialisation is
                // also retried by itself every second (a sensor may come back).
                if start
                    || (matches!(problem, Problem::SensorInit(..))
                        && elapsed_ms(now_ms, self.entered_ms) >= SENSOR_RETRY_MS)
                {
                    self.started = false;
                }
            }
            Problem::StorageEmpty => {
                if start {
                    // Storage refilled by hand.
                    self.refill();
                    self.next_turn(now_ms);
                }
            }
            _ => {
                let Some(view) = self.scan(now_ms) else {
                    return;
                };
                let base = self.base_view();
                match (problem, self.pending) {
                    (Problem::BoardNotEmpty, _) => {
                        if view == BoardView::EMPTY {
                            self.next_turn(now_ms);
                        }
                    }
                    // Fixed when a person puts the piece there by hand.
                    (Problem::PlacementFailed(square), _) => {
                        if view == self.expected_view() {
                            self.placement_done(square, now_ms);
                        }
                    }
                    // Resuming after a reset during a placement.
                    (_, Some((colour, slot, square))) if view != base => {
                        let mut placed = base;
                        placed.set(square, super::classify::Sensed::Piece(colour));
                        if view == placed {
                            self.placed(colour, slot, square, now_ms);
                        } else {
                            self.fixed_by_human(view, now_ms);
                        }
                    }
                    (_, Some((colour, slot, _))) => {
                        // It never arrived: it may still be in its slot, or have
                        // fallen where no sensor sees it. The board is as the game
                        // left it, so the turn starts again (the slot only
                        // suspected empty); a person could not know which square
                        // the piece was meant for.
                        self.slot_emptied(colour, slot, true);
                        self.next_turn(now_ms);
                    }
                    (_, None) => {
                        if view == base {
                            self.next_turn(now_ms);
                        } else {
                            self.fixed_by_human(view, now_ms);
                        }
                    }
                }
            }
        }
    }

    /// Back to the game when `view` is the record plus one move of the human's, who
    /// is to move: the human presses the button for a move made.
    fn fixed_by_human(&mut self, view: BoardView, now_ms: u32) {
        let human = self.device_colour().other();
        if self.mode == Mode::Game
            && !self.devices_turn()
            && one_move_of(self.record.board(), human, view)
        {
            self.next_turn(now_ms);
        }
    }

    /// The storage slot `slot` of `colour` no longer counts as full; `suspect`: it
    /// may still hold a piece (tried again once the others are used up).
    fn slot_emptied(&mut self, colour: Colour, slot: u8, suspect: bool) {
        let (c, bit) = (colour.index(), 1 << slot);
        self.stock[c] &= !bit;
        if suspect {
            self.suspect[c] |= bit;
        } else {
            self.suspect[c] &= !bit;
        }
    }

    /// The piece from `slot` is verified on `square`.
    #[inline(always)]
    fn placed(&mut self, colour: Colour, slot: u8, square: Square, now_ms: u32) {
        self.slot_emptied(colour, slot, false);
        self.placement_done(square, now_ms);
    }

    /// Every storage slot full again (a new round, or refilled by hand).
    fn refill(&mut self) {
        self.stock = [FULL_STOCK; 2];
        self.suspect = [0; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::classify::Sensed;

    /// Every reachable position (5478), by depth-first search from the empty board.
    fn reachable() -> std::vec::Vec<Board> {
        let (mut seen, mut stack, mut all) = (
            std::collections::HashSet::new(),
            std::vec![Board::EMPTY],
            std::vec::Vec::new(),
        );
        while let Some(b) = stack.pop() {
            if !seen.insert(b) {
                continue;
            }
            all.push(b);
            stack.extend(b.legal_moves().into_iter().filter_map(|s| b.play(s).ok()));
        }
        all
    }

    #[test]
    fn one_move_of_is_a_legal_move_of_the_side_to_move() {
        let all = reachable();
        assert_eq!(all.len(), 5478);
        let kinds = [
            Sensed::Empty,
            Sensed::Piece(Colour::Black),
            Sensed::Piece(Colour::White),
            Sensed::Unknown,
        ];
        let mut checked = 0;
        for &board in &all {
            let human = Colour::of(board.to_move());
            let children: std::vec::Vec<BoardView> = board
                .legal_moves()
                .into_iter()
                .filter_map(|s| board.play(s).ok())
                .map(BoardView::of_board)
                .collect();
            // The views that differ from the board on at most two squares.
            for a in Square::ALL {
                for b in Square::ALL {
                    for (ka, kb) in kinds
                        .iter()
                        .flat_map(|&ka| kinds.iter().map(move |&kb| (ka, kb)))
                    {
                        let mut view = BoardView::of_board(board);
                        view.set(a, ka);
                        view.set(b, kb);
                        assert_eq!(
                            one_move_of(board, human, view),
                            children.contains(&view),
                            "{board} {view:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 5478 * 81 * 16);
    }
}
