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
use super::controller::Rules;
#[cfg(feature = "games")]
use super::controller::{Move, Position};
use super::motion::{Point, Pose, Storage, STORAGE_SLOTS};
use super::scanner::BoardView;
use super::Colour;
use tictable::{Board, Square};

/// Every storage slot full (one bit per slot).
pub(crate) const FULL_STOCK: u8 = (1 << STORAGE_SLOTS) - 1;

/// Plies a [`GameRecord`] holds: 9 in the default (tic-tac-toe) build, whose
/// snapshot layout stays that of the first format; 64 with the `games` feature,
/// whose games slide and repeat (a game reaching it is a draw by length).
#[cfg(not(feature = "games"))]
pub const RECORD_CAPACITY: usize = 9;

/// Plies a [`GameRecord`] holds: 9 in the default (tic-tac-toe) build, whose
/// snapshot layout stays that of the first format; 64 with the `games` feature,
/// whose games slide and repeat (a game reaching it is a draw by length).
#[cfg(feature = "games")]
pub const RECORD_CAPACITY: usize = 64;

/// The moves of one game, in order: only verified moves are ever added. Each
/// ply is one byte ([`Move::byte`](super::controller::Move::byte)); with the
/// `games` feature the record also knows its game and position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    moves: [u8; RECORD_CAPACITY],
    pub(super) len: u8,
    board: Board,
    /// The game (`games` feature; tic-tac-toe otherwise).
    #[cfg(feature = "games")]
    game: Rules,
    /// The position reached (`games` feature).
    #[cfg(feature = "games")]
    position: Position,
    /// The game byte of a save whose game this record replaced, unknown to this
    /// build.
    #[cfg(feature = "games")]
    refused: Option<u8>,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new()
    }
}

impl GameRecord {
    /// An empty record (of tic-tac-toe).
    pub const fn new() -> GameRecord {
        GameRecord {
            moves: [0; RECORD_CAPACITY],
            len: 0,
            board: Board::EMPTY,
            #[cfg(feature = "games")]
            game: Rules::TicTacToe,
            #[cfg(feature = "games")]
            position: Position {
                x: 0,
                o: 0,
                to_move: tictable::Player::X,
            },
            #[cfg(feature = "games")]
            refused: None,
        }
    }

    /// The position reached, as a tic-tac-toe board (the placing games'; in the
    /// other games of the `games` feature see `position`).
    pub const fn board(&self) -> Board {
        self.board
    }

    /// The plies' bytes in order, 0 past the last (the record only grows through
    /// [`GameRecord::push`]): the snapshot's bytes.
    pub(super) const fn move_indices(&self) -> &[u8; RECORD_CAPACITY] {
        &self.moves
    }

    /// The placements played, in order (a placing game's moves).
    pub fn moves(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves[..self.len as usize]
            .iter()
            .filter_map(|&i| Square::new(i))
    }

    /// Appends a placement (checked against the rules).
    #[cfg(not(feature = "games"))]
    pub fn push(&mut self, square: Square) -> Result<(), tictable::MoveError> {
        self.board = self.board.play(square)?;
        // A legal move finds a free slot: a board with nine moves is over.
        if let Some(m) = self.moves.get_mut(self.len as usize) {
            *m = square.index();
            self.len += 1;
        }
        Ok(())
    }

    /// The game (tic-tac-toe: the only one of this build's records).
    #[cfg(not(feature = "games"))]
    pub const fn game(&self) -> Rules {
        Rules::TicTacToe
    }

    /// An empty record of `rules`' game (this build's records are tic-tac-toe's).
    #[cfg(not(feature = "games"))]
    pub const fn of_game(_rules: Rules) -> GameRecord {
        GameRecord::new()
    }

    /// The game byte of a save this record replaced because no game of this build
    /// has that number (never, in this build: its snapshots hold no game byte).
    #[cfg(not(feature = "games"))]
    pub const fn refused_game(&self) -> Option<u8> {
        None
    }
}

/// Why a move was not added to a [`GameRecord`] (`games` feature).
#[cfg(feature = "games")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Not a legal move of the game in the position reached (or the game is over).
    Illegal(Move),
    /// The record holds [`RECORD_CAPACITY`] plies: the game is a draw by length.
    Full,
}

#[cfg(feature = "games")]
impl core::fmt::Display for RecordError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecordError::Illegal(mv) => write!(f, "not a legal move here: {mv:?}"),
            RecordError::Full => write!(f, "the record is full ({RECORD_CAPACITY} plies)"),
        }
    }
}

#[cfg(feature = "games")]
impl core::error::Error for RecordError {}

/// How a game of the `games` feature ended ([`GameRecord::outcome`]).
#[cfg(feature = "games")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The game's rules ended it: `Some` of the winner, `None` a draw (a full
    /// tic-tac-toe board).
    Rules(Option<tictable::Player>),
    /// The position (pieces and side to move) occurred the third time.
    Repetition,
    /// The record reached [`RECORD_CAPACITY`] plies.
    Length,
}

#[cfg(feature = "games")]
impl Ending {
    /// The winner (`None`: a draw of any kind).
    pub const fn winner(self) -> Option<tictable::Player> {
        match self {
            Ending::Rules(w) => w,
            Ending::Repetition | Ending::Length => None,
        }
    }
}

#[cfg(feature = "games")]
impl GameRecord {
    /// An empty record of `rules`' game, at its start (hexapawn's pawns on their
    /// home rows).
    ///
    /// ```
    /// use tictable_machine::controller::{GameRecord, Move, Rules, Ending};
    /// use tictable::{Player, Square};
    /// let s = |i| Square::new(i).unwrap();
    /// let mut r = GameRecord::of_game(Rules::Hexapawn);
    /// r.push_move(Move::Pawn { from: s(7), to: s(4) }).unwrap();
    /// // Black's pawn on 1 takes White's on 5.
    /// r.push_move(Move::Pawn { from: s(0), to: s(4) }).unwrap();
    /// assert_eq!(r.position().x.count_ones(), 2);
    /// assert!(r.push_move(Move::Pawn { from: s(6), to: s(6) }).is_err());
    /// assert_eq!(r.outcome(), None);
    /// ```
    pub fn of_game(rules: Rules) -> GameRecord {
        GameRecord {
            game: rules,
            position: rules.start(),
            ..GameRecord::new()
        }
    }

    /// A fresh tic-tac-toe record standing for a save whose game byte `code` no
    /// game of this build has (see [`GameRecord::refused_game`]).
    pub fn refused(code: u8) -> GameRecord {
        GameRecord {
            refused: Some(code),
            ..GameRecord::new()
        }
    }

    /// The game byte of the save this record replaced because no game of this
    /// build has that number (the machine then starts a fresh tic-tac-toe game
    /// and says so with its lights).
    pub const fn refused_game(&self) -> Option<u8> {
        self.refused
    }

    /// The game.
    pub const fn game(&self) -> Rules {
        self.game
    }

    /// The position reached.
    pub const fn position(&self) -> Position {
        self.position
    }

    /// Plies played.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// No ply yet.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves played, in order, of any game.
    pub fn plies(&self) -> impl Iterator<Item = Move> + '_ {
        let game = self.game;
        self.moves[..self.len as usize]
            .iter()
            .filter_map(move |&b| Move::from_byte(b, game))
    }

    /// Appends a placement (checked against the rules).
    pub fn push(&mut self, square: Square) -> Result<(), tictable::MoveError> {
        if self.game.places_only() {
            // The same check as the default build's, the same error.
            self.board.play(square)?;
        }
        self.push_move(Move::Place(square))
            .map_err(|_| tictable::MoveError::GameOver)
    }

    /// Appends a move, checked against the game's rules from the position
    /// reached: refused when illegal, when the game is over (by its rules or a
    /// threefold repetition), or when the record is full.
    pub fn push_move(&mut self, mv: Move) -> Result<(), RecordError> {
        if self.outcome().is_some() {
            return Err(if self.len as usize == RECORD_CAPACITY {
                RecordError::Full
            } else {
                RecordError::Illegal(mv)
            });
        }
        let next = self
            .game
            .play(&self.position, mv)
            .ok_or(RecordError::Illegal(mv))?;
        let slot = self
            .moves
            .get_mut(self.len as usize)
            .ok_or(RecordError::Full)?;
        *slot = mv.byte();
        self.len += 1;
        self.position = next;
        if self.game.places_only() {
            self.board = next.board();
        }
        Ok(())
    }

    /// How often the position reached has occurred in the game, itself counted
    /// (found by replaying the record: no extra storage).
    pub fn occurrences(&self) -> usize {
        let mut p = self.game.start();
        let mut seen = usize::from(p == self.position);
        for mv in self.plies() {
            let Some(next) = self.game.play(&p, mv) else {
                break;
            };
            p = next;
            seen += usize::from(p == self.position);
        }
        seen
    }

    /// `None` while the game goes on; else how it ended: by its rules, by the
    /// position occurring the third time, or by the record's length.
    pub fn outcome(&self) -> Option<Ending> {
        if let Some(w) = self.game.result_of(&self.position) {
            return Some(Ending::Rules(w));
        }
        if self.game.places_only() {
            return None;
        }
        if self.occurrences() >= 3 {
            return Some(Ending::Repetition);
        }
        (self.len as usize >= RECORD_CAPACITY).then_some(Ending::Length)
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

    /// The device's colour in `rules`' game (`games` feature): black when it moves
    /// first, except in hexapawn, whose first player is White.
    ///
    /// ```
    /// use tictable_machine::controller::{GameSetup, Rules};
    /// use tictable_machine::Colour;
    /// let first = GameSetup { device_first: true, first_square: None };
    /// assert_eq!(first.colour_in(Rules::Tapatan), Colour::Black);
    /// assert_eq!(first.colour_in(Rules::Hexapawn), Colour::White);
    /// ```
    #[cfg(feature = "games")]
    pub const fn colour_in(&self, rules: Rules) -> Colour {
        let player = if self.device_first {
            tictable::Player::X
        } else {
            tictable::Player::O
        };
        rules.colour(player)
    }
}

/// The places beside each storage column where the machine puts the pieces it
/// captures (hexapawn): [`capture_slot`] 0, 1, 2 continue the column past its
/// last slot, one step apart. A hexapawn side has three pawns, so three places
/// hold every capture of a game; what lies there is out of the game, as in
/// storage. (With the `games` feature or the simulator's core.)
#[cfg(any(feature = "games", feature = "sim-core"))]
pub const CAPTURE_SLOTS: usize = 3;

/// Where the machine puts its `k`-th capture of a `colour` piece (`k` from 0):
/// `storage`'s `colour` column continued past its last slot; `None` from
/// [`CAPTURE_SLOTS`] on.
///
/// ```
/// use tictable_machine::model::capture_slot;
/// use tictable_machine::motion::{Point, Storage};
/// use tictable_machine::Colour;
/// let s = Storage { first: [Point::mm(20, 70), Point::mm(300, 70)], step: Point::mm(0, 30) };
/// // The white column's slots are at y = 70..=190 mm: the captures below them.
/// assert_eq!(capture_slot(&s, Colour::White, 0), Some(Point::mm(300, 220)));
/// assert_eq!(capture_slot(&s, Colour::White, 3), None);
/// ```
#[cfg(any(feature = "games", feature = "sim-core"))]
pub fn capture_slot(storage: &Storage, colour: Colour, k: usize) -> Option<Point> {
    let last = storage.slot(colour, STORAGE_SLOTS - 1)?;
    let n = i32::try_from(k + 1).ok().filter(|_| k < CAPTURE_SLOTS)?;
    Some(Point::new(
        last.x.saturating_add(storage.step.x.saturating_mul(n)),
        last.y.saturating_add(storage.step.y.saturating_mul(n)),
    ))
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
