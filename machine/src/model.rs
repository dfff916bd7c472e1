//! What the machine saves and restores: the value types of a game or task in
//! progress and their [`Snapshot`]. They hold only checked values: a
//! [`GameRecord`] is a legal game (it grows only through [`GameRecord::push`]), a
//! [`Task`] passed [`Task::new`]'s checks (distinct squares, at most
//! [`STORAGE_SLOTS`] pieces of a colour).
//!
//! This module sits below both the [`controller`](super::controller), which plays
//! and fills a snapshot, and [`persist`](super::persist), which encodes it: neither
//! of those imports the other's types through the other.

use super::classify::{Calibration, Sensed};
use super::motion::{Point, Pose, Storage, STORAGE_SLOTS};
use super::scanner::BoardView;
use super::Colour;
use tictable::{Board, Square};

/// Every storage slot full (one bit per slot).
pub(crate) const FULL_STOCK: u8 = (1 << STORAGE_SLOTS) - 1;

/// The moves of one game, in order: only verified moves are ever added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameRecord {
    moves: [u8; 9],
    pub(super) len: u8,
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

    /// The moves as square indices in order, 0 past the last (the record only
    /// grows through [`GameRecord::push`]): the snapshot's bytes.
    pub(super) const fn move_indices(&self) -> &[u8; 9] {
        &self.moves
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves[..self.len as usize]
            .iter()
            .filter_map(|&i| Square::new(i))
    }

    /// Appends a move (checked against the rules).
    pub fn push(&mut self, square: Square) -> Result<(), tictable::MoveError> {
        self.board = self.board.play(square)?;
        // A legal move finds a free slot: a board with nine moves is over.
        if let Some(m) = self.moves.get_mut(self.len as usize) {
            *m = square.index();
            self.len += 1;
        }
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
/// use tictable_machine::controller::{Task, TaskError};
/// use tictable_machine::Colour::{Black, White};
/// use tictable::Square;
/// let s = |i| Square::new(i).unwrap();
/// let t = Task::new(&[(Black, s(0)), (White, s(4)), (Black, s(8)), (White, s(2))]).unwrap();
/// assert_eq!(t.items().len(), 4);
/// assert_eq!(Task::new(&[(Black, s(4)), (White, s(4))]), Err(TaskError::SquareTwice(s(4))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    items: [(Colour, Square); 9],
    pub(super) len: u8,
}

/// A task that cannot be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
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
            TaskError::SquareTwice(s) => write!(f, "square {} given twice", s.index() + 1),
            TaskError::TooManyOf(c) => write!(f, "more than {STORAGE_SLOTS} {c:?} pieces"),
            TaskError::Busy => f.write_str("the machine is busy"),
        }
    }
}

impl core::error::Error for TaskError {}

impl Task {
    /// No placement yet (not a valid task by itself). The unused items are (black,
    /// square 0): the snapshot's bytes for them are 0.
    pub(super) const NONE: Task = Task {
        items: [(Colour::Black, Square::ALL[0]); 9],
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
    pub(super) fn push(&mut self, colour: Colour, square: Square) -> Result<(), TaskError> {
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

    /// All nine items, the placements first, then unused ones (black, square 0):
    /// the snapshot's bytes.
    pub(super) const fn all_items(&self) -> &[(Colour, Square); 9] {
        &self.items
    }

    /// The placements, in order.
    pub fn items(&self) -> &[(Colour, Square)] {
        // (`len` is at most 9: the bound only spares a panic path.)
        &self.items[..usize::from(self.len).min(9)]
    }

    /// The view once the first `done` placements are made.
    pub fn view_after(&self, done: usize) -> BoardView {
        let mut v = BoardView::EMPTY;
        for &(c, s) in self.items().iter().take(done) {
            v.set(s, Sensed::Piece(c));
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

/// Why the board last reset, as the board reads it from its chip (the firmware: the
/// STM32F103's RCC_CSR flags); the device logic only keeps it in the [`Snapshot`],
/// so the cause of the latest reset stays on flash next to the game. The
/// discriminant is its code in flash and the number of Error-light blinks at boot.
///
/// ```
/// use tictable_machine::model::ResetCause;
/// assert_eq!(ResetCause::from_code(4), Some(ResetCause::Watchdog));
/// assert_eq!(ResetCause::from_code(ResetCause::PowerOn as u8), Some(ResetCause::PowerOn));
/// assert_eq!(ResetCause::from_code(0), None);
/// assert_eq!(ResetCause::default(), ResetCause::Unknown);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum ResetCause {
    /// The reset button (NRST pulled low from outside).
    Pin = 1,
    /// Power-on or brown-out (the STM32F1 has one flag for both).
    PowerOn = 2,
    /// A software reset: after a panic or a fault, or a debugger's.
    Software = 3,
    /// The independent watchdog: the main loop stalled, or a fatal fault.
    Watchdog = 4,
    /// The window watchdog.
    WindowWatchdog = 5,
    /// A low-power reset (Standby or Stop entered with the option bits so).
    LowPower = 6,
    /// Not known: no flag set, or a snapshot made without a board (the simulator).
    #[default]
    Unknown = 7,
}

impl ResetCause {
    /// Every cause, in code order (codes 1 to 7).
    pub const ALL: [ResetCause; 7] = [
        ResetCause::Pin,
        ResetCause::PowerOn,
        ResetCause::Software,
        ResetCause::Watchdog,
        ResetCause::WindowWatchdog,
        ResetCause::LowPower,
        ResetCause::Unknown,
    ];

    /// The cause with code `code` (its discriminant), if there is one.
    pub const fn from_code(code: u8) -> Option<ResetCause> {
        Some(match code {
            1 => ResetCause::Pin,
            2 => ResetCause::PowerOn,
            3 => ResetCause::Software,
            4 => ResetCause::Watchdog,
            5 => ResetCause::WindowWatchdog,
            6 => ResetCause::LowPower,
            7 => ResetCause::Unknown,
            _ => return None,
        })
    }
}

/// Everything needed to carry on after a reset: what
/// [`Controller::snapshot`](super::controller::Controller::snapshot) gives and
/// [`Controller::resume`](super::controller::Controller::resume) takes; its byte
/// layout is [`Snapshot::encode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Increases with every save; the newest valid slot wins
    /// ([`Store::save`](super::persist::Store::save) sets it).
    pub sequence: u32,
    /// The sensor calibration.
    pub calibration: Calibration,
    /// The board pose (calibrated by jogging, or the configured one).
    pub pose: Pose,
    /// Why the board last reset before this save: set by the board (the firmware),
    /// [`ResetCause::Unknown`] in [`Controller::snapshot`](super::controller::Controller::snapshot)'s.
    pub reset_cause: ResetCause,
    /// Side and first square for the next game.
    pub setup: GameSetup,
    /// The game's verified moves.
    pub record: GameRecord,
    /// A game, or a placement task with the placements done so far.
    pub mode: Mode,
    /// A game or task is running.
    pub active: bool,
    /// Storage slots believed full, per colour (bit `i` = slot `i`).
    pub stock: [u8; 2],
    /// Storage slots suspected empty, per colour.
    pub suspect: [u8; 2],
    /// A placement under way at the time of the save: colour, storage slot, square.
    pub pending: Option<(Colour, u8, Square)>,
}
