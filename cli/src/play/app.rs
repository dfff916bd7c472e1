//! The game as a pure state machine: keys and clicks become [`Action`]s, actions
//! change the [`App`]. No terminal, no clock, no files: the runners (`tui`, `plain`)
//! do the I/O and feed the results back, so everything here is unit-tested.
//!
//! Squares are shown to people and typed by them as keys 1-9: by default left to
//! right, top to bottom (1 = top-left, as the machine and the contest number them),
//! or in numeric-keypad layout (7 = top-left) when [`KeyLayout::Keypad`] is chosen.
//! Only the save file (JSON) numbers them 0-8.

use super::refute::{last_mistake, Refutation};
use crate::player::{self, Named};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};
use tictable::game::{Game, GameError, GameResult};
use tictable::strategy::{Level, MistakeRate, Strategy};
use tictable::{MoveError, Player, Square};

/// Who sits on one side: a person at the keyboard or an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Moves come from the keyboard.
    Human,
    /// Moves come from this strategy.
    Engine(Strategy),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Engine(strategy) => write!(f, "{}", Named(*strategy)),
        }
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Seat, String> {
        if s.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        player::parse(s)
            .map(Seat::Engine)
            .map_err(|e| format!("{e}; or `human`"))
    }
}

/// Which key picks which square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum KeyLayout {
    /// 1 2 3 on the top row, 7 8 9 on the bottom row (left to right, top to bottom).
    #[default]
    Rows,
    /// Numeric-keypad layout: 7 8 9 on the top row, 1 2 3 on the bottom row.
    Keypad,
}

impl KeyLayout {
    /// The square key `digit` (1-9) picks.
    pub fn square(self, digit: u8) -> Option<Square> {
        let index = match (self, digit) {
            (_, 0) | (_, 10..) => return None,
            (KeyLayout::Rows, d) => d - 1,
            (KeyLayout::Keypad, d) => (2 - (d - 1) / 3) * 3 + (d - 1) % 3,
        };
        Square::new(index)
    }

    /// The key (1-9) that picks `square` (inverse of [`KeyLayout::square`]).
    pub fn digit(self, square: Square) -> u8 {
        match self {
            KeyLayout::Rows => square.index() + 1,
            KeyLayout::Keypad => (2 - square.row()) * 3 + square.column() + 1,
        }
    }

    /// A short description for the help line and the menu.
    pub fn describe(self) -> &'static str {
        match self {
            KeyLayout::Rows => "1-9 rows (1 = top-left)",
            KeyLayout::Keypad => "1-9 keypad (7 = top-left)",
        }
    }

    /// The shortest description, for the key line under the board.
    pub fn short(self) -> &'static str {
        match self {
            KeyLayout::Rows => "1-9 (1 = top-left)",
            KeyLayout::Keypad => "1-9 (7 = top-left)",
        }
    }

    fn other(self) -> KeyLayout {
        match self {
            KeyLayout::Rows => KeyLayout::Keypad,
            KeyLayout::Keypad => KeyLayout::Rows,
        }
    }
}

/// The levels a seat cycles through in the menu after `human`.
const LEVEL_CHOICES: [Level; Level::ALL.len()] = Level::ALL;

/// The thinking delays the menu cycles through, in milliseconds.
const DELAY_CHOICES: [u64; 6] = [0, 200, 400, 800, 1500, 3000];

/// The mistake rates the menu cycles through, in parts per 10 000.
const RATE_CHOICES: [u64; 7] = [0, 500, 1000, 1500, 2000, 3000, 5000];

/// The move clocks the menu cycles through, in seconds (0 = no clock).
const CLOCK_CHOICES: [u64; 5] = [0, 5, 10, 20, 30];

/// The next value of `choices` (ascending) after `current` in direction `delta`,
/// wrapping around. A `current` between two choices steps to the neighbour in that
/// direction (0.5 s steps up to 0.8 s and down to 0.4 s), never past it.
pub fn step_choice(choices: &[u64], current: u64, delta: i8) -> u64 {
    let (first, last) = match (choices.first(), choices.last()) {
        (Some(&first), Some(&last)) => (first, last),
        _ => return current,
    };
    if delta >= 0 {
        choices
            .iter()
            .copied()
            .find(|&c| c > current)
            .unwrap_or(first)
    } else {
        choices
            .iter()
            .rev()
            .copied()
            .find(|&c| c < current)
            .unwrap_or(last)
    }
}

/// Who plays X and O, how long an engine "thinks", the keys, and the move clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The X seat (X moves first).
    pub x: Seat,
    /// The O seat.
    pub o: Seat,
    /// The visible delay before an engine's move.
    pub delay: Duration,
    /// Which key picks which square.
    pub layout: KeyLayout,
    /// The time a person has for a move (the full-screen game only), if any.
    pub clock: Option<Duration>,
}

impl Settings {
    /// Settings with the default delay (0.4 s), key layout and no clock.
    pub fn new(x: Seat, o: Seat) -> Settings {
        Settings {
            x,
            o,
            delay: Duration::from_millis(400),
            layout: KeyLayout::Rows,
            clock: None,
        }
    }

    /// The seat of `player`.
    pub fn seat(&self, player: Player) -> Seat {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    fn seat_mut(&mut self, player: Player) -> &mut Seat {
        match player {
            Player::X => &mut self.x,
            Player::O => &mut self.o,
        }
    }

    /// Whether at least one side is played from the keyboard.
    pub fn has_human(&self) -> bool {
        self.x == Seat::Human || self.o == Seat::Human
    }
}

/// Who played a game, as the score counts it: each game is counted once, under
/// its pairing, and each pairing has its own tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// One person against an engine (whichever mark each played).
    PersonEngine,
    /// Two people at the keyboard.
    People,
    /// Two engines.
    Engines,
}

impl Pairing {
    /// The pairing of these two seats.
    pub fn of(x: Seat, o: Seat) -> Pairing {
        match (x, o) {
            (Seat::Human, Seat::Human) => Pairing::People,
            (Seat::Engine(_), Seat::Engine(_)) => Pairing::Engines,
            _ => Pairing::PersonEngine,
        }
    }
}

/// Where a finished game's result is counted: its pairing, and which count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Who played the game.
    pub pairing: Pairing,
    /// 0: the person won (against an engine) or X won; 1: the engine or O won;
    /// 2: a draw.
    pub column: usize,
}

/// One pairing's games: the first side's wins, the second side's wins, draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The person's wins (against an engine), or X's.
    pub first: u32,
    /// The engine's wins (against the person), or O's.
    pub second: u32,
    /// Drawn games.
    pub draws: u32,
}

/// Games won and drawn in this session, each game counted once under the pairing
/// that played it: a person against an engine counts the person's and the engine's
/// wins (so changing sides in the menu keeps each one's wins), two people and two
/// engines count X's and O's, each in its own tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// A person against an engine.
    pub person: Record,
    /// Two people.
    pub people: Record,
    /// Two engines.
    pub engines: Record,
}

impl Score {
    fn count(&mut self, tally: Tally) -> &mut u32 {
        let record = match tally.pairing {
            Pairing::PersonEngine => &mut self.person,
            Pairing::People => &mut self.people,
            Pairing::Engines => &mut self.engines,
        };
        match tally.column {
            0 => &mut record.first,
            1 => &mut record.second,
            _ => &mut record.draws,
        }
    }

    /// The tally of `pairing` as people read it.
    pub fn describe(&self, pairing: Pairing) -> String {
        match pairing {
            Pairing::PersonEngine => format!(
                "You {} · engine {} · draws {}",
                self.person.first, self.person.second, self.person.draws
            ),
            Pairing::People => format!(
                "X {} · O {} · draws {}",
                self.people.first, self.people.second, self.people.draws
            ),
            Pairing::Engines => format!(
                "X {} · O {} · draws {}",
                self.engines.first, self.engines.second, self.engines.draws
            ),
        }
    }
}

/// The person's move clock: full at the start of each of their turns, counting
/// down only while it runs, paused (not refilled) while the menu, a question or a
/// too small screen holds the game. Pure: the runner passes the time.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveClock {
    /// The position and the clock setting the time left belongs to.
    turn: Option<(Game, Duration)>,
    /// The time left when the clock last stopped (or started).
    left: Duration,
    /// Since when it runs, if it does.
    since: Option<Instant>,
}

impl MoveClock {
    /// Brings the clock to `now` on `game` with a clock of `full`, running or not;
    /// returns when time is up, if it runs. A new position (or setting) refills it.
    pub fn tick(
        &mut self,
        running: bool,
        game: Game,
        full: Duration,
        now: Instant,
    ) -> Option<Instant> {
        if self.turn != Some((game, full)) {
            *self = MoveClock {
                turn: Some((game, full)),
                left: full,
                since: None,
            };
        }
        if running {
            Some(*self.since.get_or_insert(now) + self.left)
        } else {
            if let Some(since) = self.since.take() {
                self.left = self
                    .left
                    .saturating_sub(now.saturating_duration_since(since));
            }
            None
        }
    }
}

/// The rows of the in-game menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuRow {
    /// Who plays X.
    X,
    /// X's mistake rate (perfect and trap).
    XMistakes,
    /// Who plays O.
    O,
    /// O's mistake rate (perfect and trap).
    OMistakes,
    /// The engine's thinking delay.
    Delay,
    /// The person's move clock.
    Clock,
    /// Which key picks which square.
    Keys,
    /// Start a new game with these settings.
    NewGame,
    /// Close the menu.
    Resume,
}

impl MenuRow {
    /// Rows in display order.
    pub const ALL: [MenuRow; 9] = [
        MenuRow::X,
        MenuRow::XMistakes,
        MenuRow::O,
        MenuRow::OMistakes,
        MenuRow::Delay,
        MenuRow::Clock,
        MenuRow::Keys,
        MenuRow::NewGame,
        MenuRow::Resume,
    ];
}

/// What a file prompt is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Save the game to the file.
    Save,
    /// Load the game from the file.
    Load,
}

/// What happens after "yes" to a discard question; `L` is what a load puts on the
/// board (tic-tac-toe's [`Game`] here; `play --game G --plain` keeps the save's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then<L = Game> {
    /// Start a new game.
    NewGame,
    /// Put this game, read and checked from this file, on the board.
    Load(PathBuf, L),
    /// Leave the program.
    Quit,
}

impl<L> Then<L> {
    /// The question asked before the unsaved game in progress is discarded for
    /// this: the same words in every front end.
    pub fn question(&self) -> String {
        format!(
            "This game is not saved: discard it and {}? (y/n)",
            match self {
                Then::NewGame => "start a new one".to_string(),
                Then::Load(path, _) => format!("load {}", path.display()),
                Then::Quit => "quit".to_string(),
            }
        )
    }
}

/// A question on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// A file name being typed (Enter: go on, Esc: cancel).
    Path {
        /// Save or load.
        purpose: FileAction,
        /// The text typed so far (starts as the `--file` default).
        text: String,
        /// The pre-filled name is selected: typing replaces it, Backspace clears
        /// it, → or End keeps it to edit its end.
        selected: bool,
    },
    /// The file exists: overwrite it? (y/n)
    Overwrite(PathBuf),
    /// The game in progress is not saved: discard it? (y/n)
    Discard(Then),
}

impl Prompt {
    /// The question in three parts for a narrow screen, one line each: what is
    /// asked, the file name (the part that can be long, shortened from its start),
    /// and the keys that answer (never cut).
    pub fn parts(&self) -> (String, Option<String>, String) {
        match self {
            Prompt::Path { purpose, text, .. } => (
                match purpose {
                    FileAction::Save => "Save to file:",
                    FileAction::Load => "Load from file:",
                }
                .to_string(),
                Some(format!("{text}▏")),
                format!(
                    "(Enter: {} · Esc: cancel)",
                    match purpose {
                        FileAction::Save => "save",
                        FileAction::Load => "load",
                    }
                ),
            ),
            Prompt::Overwrite(path) => (
                "This file exists:".to_string(),
                Some(path.display().to_string()),
                "overwrite it? (y/n)".to_string(),
            ),
            Prompt::Discard(Then::Load(path, _)) => (
                "This game is not saved: discard it".to_string(),
                Some(format!("and load {}?", path.display())),
                "(y/n)".to_string(),
            ),
            Prompt::Discard(_) => (self.text(), None, String::new()),
        }
    }

    /// The question as shown to the person.
    pub fn text(&self) -> String {
        match self {
            Prompt::Path { purpose, text, .. } => format!(
                "{} file: {text}▏ (Enter: {} · Esc: cancel)",
                match purpose {
                    FileAction::Save => "Save to",
                    FileAction::Load => "Load from",
                },
                match purpose {
                    FileAction::Save => "save",
                    FileAction::Load => "load",
                },
            ),
            Prompt::Overwrite(path) => {
                format!("{} exists: overwrite it? (y/n)", path.display())
            }
            Prompt::Discard(then) => then.question(),
        }
    }
}

/// Something the person (or the engine, or the clock) asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor by rows and columns, clamped to the board.
    MoveCursor {
        /// Rows down (negative: up).
        rows: i8,
        /// Columns right (negative: left).
        columns: i8,
    },
    /// Place a piece under the cursor.
    PlaceAtCursor,
    /// Place a piece on this square (a digit key, a click, or a typed move).
    Place(Square),
    /// The engine to move plays this square.
    EngineMove(Square),
    /// The person's clock ran out: this (random) square is played for them.
    TimeUp(Square),
    /// Take back the last move (back to a person's turn when an engine plays).
    Undo,
    /// Replay an undone move (up to a person's turn when an engine plays).
    Redo,
    /// Show or hide the move values on the empty squares.
    ToggleHint,
    /// Start a new game (asks first when the game in progress is not saved).
    NewGame,
    /// Ask for a file name to save to.
    Save,
    /// Ask for a file name to load from.
    Load,
    /// Show the refutation of the person's last mistake on the board (`w`).
    Why,
    /// One ply on (1) or back (-1) along the refutation shown.
    RefutationStep(i8),
    /// Back to the game from the refutation.
    RefutationEnd,
    /// Open or close the menu.
    ToggleMenu,
    /// Select the previous / next menu row.
    MenuStep(i8),
    /// Change the selected menu row's value backwards / forwards.
    MenuChange(i8),
    /// Activate the selected menu row.
    MenuSelect,
    /// Type a character into the file prompt.
    PromptChar(char),
    /// Delete the last character of the file prompt (all of a selected name).
    PromptBackspace,
    /// Keep the selected pre-filled name, to type after it.
    PromptKeep,
    /// Enter in the file prompt.
    PromptSubmit,
    /// Esc in the file prompt.
    PromptCancel,
    /// The answer to a yes/no question.
    Answer(bool),
    /// Stop the engines' series of games (any key while two engines play on).
    StopSeries,
    /// Leave the program (asks first when the game in progress is not saved).
    Quit,
    /// Leave the program without asking (Ctrl-C).
    QuitNow,
}

/// I/O that an action needs from the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing to do.
    None,
    /// Write `text` to `path`, then call [`App::saved`]; when `overwrite` is false
    /// and the file exists, call [`App::ask_overwrite`] instead.
    Save {
        /// The file.
        path: PathBuf,
        /// The saved game (JSON).
        text: String,
        /// Whether the person agreed to replace an existing file.
        overwrite: bool,
    },
    /// Read this file, then call [`App::loaded_from`].
    Load(PathBuf),
}

/// The whole interactive state.
#[derive(Clone, Debug)]
pub struct App {
    /// The game in progress.
    pub game: Game,
    /// Who plays, the thinking delay, the keys, the clock.
    pub settings: Settings,
    /// The square under the cursor.
    pub cursor: Square,
    /// Whether the move values are shown.
    pub hint: bool,
    /// The running score.
    pub score: Score,
    /// This game's result as counted in the score (`None` inside: shown but not
    /// counted, as for a loaded finished game).
    counted: Option<(GameResult, Option<Tally>)>,
    /// The seats (X, O) that made the last move of this game.
    played_by: (Seat, Seat),
    /// The game as last saved, loaded or started: leaving it unsaved asks first.
    unchanged: Game,
    /// The mistake rate each side's perfect or trap engine gets in the menu.
    rates: [MistakeRate; 2],
    /// The selected menu row, when the menu is open.
    pub menu: Option<usize>,
    /// The question on the status line, if any.
    pub prompt: Option<Prompt>,
    /// The file the save and load prompts start with.
    pub file: PathBuf,
    /// A message for the status line (errors, "saved", ...).
    pub message: Option<String>,
    /// Set when a game ends (the runner rings the bell and clears it).
    pub bell: bool,
    /// Two engines play game after game until a key is pressed.
    pub series: bool,
    /// The screen is too small to show the game: only quitting works.
    pub too_small: bool,
    /// The time left on the person's clock, for the display (set by the runner).
    pub clock_left: Option<Duration>,
    /// Set by [`Action::Quit`] (once confirmed) and [`Action::QuitNow`].
    pub quit: bool,
    /// "time is up: ..." after [`Action::TimeUp`]: shown beside the status (the
    /// countdown, the result) until the person's next key.
    time_note: Option<String>,
    /// The refutation of the person's last mistake, while it is shown (`w`): the game
    /// waits (no engine move, the clock paused).
    pub refutation: Option<Refutation>,
}

impl App {
    /// A new session; two engines play on game after game until a key is pressed.
    pub fn new(settings: Settings) -> App {
        let rate = |seat: Seat| match seat {
            Seat::Engine(s) => s.mistake_rate(),
            Seat::Human => MistakeRate::ZERO,
        };
        App {
            game: Game::new(),
            settings,
            cursor: Square::CENTRE,
            hint: false,
            score: Score::default(),
            counted: None,
            played_by: (settings.x, settings.o),
            unchanged: Game::new(),
            rates: [rate(settings.x), rate(settings.o)],
            menu: None,
            prompt: None,
            file: PathBuf::from("tictable-game.json"),
            message: None,
            bell: false,
            series: !settings.has_human(),
            too_small: false,
            clock_left: None,
            quit: false,
            time_note: None,
            refutation: None,
        }
    }

    /// The key a person presses for `square` (and sees on it).
    pub fn label(&self, square: Square) -> u8 {
        self.settings.layout.digit(square)
    }

    /// The action a key press asks for, if any (key releases are ignored). Letters
    /// work with Caps Lock on.
    pub fn action_for(&self, key: KeyEvent) -> Option<Action> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c' | 'C' | 'd' | 'D')) {
            return Some(Action::QuitNow);
        }
        if self.too_small {
            let q = matches!(key.code, KeyCode::Char('q' | 'Q'));
            return q.then_some(Action::QuitNow);
        }
        if let Some(prompt) = &self.prompt {
            return match (prompt, key.code) {
                (Prompt::Path { .. }, KeyCode::Enter) => Some(Action::PromptSubmit),
                (Prompt::Path { .. }, KeyCode::Esc) => Some(Action::PromptCancel),
                (Prompt::Path { .. }, KeyCode::Backspace) => Some(Action::PromptBackspace),
                (Prompt::Path { .. }, KeyCode::Right | KeyCode::End) => Some(Action::PromptKeep),
                (Prompt::Path { .. }, KeyCode::Char(c)) if !ctrl => Some(Action::PromptChar(c)),
                (Prompt::Path { .. }, _) => None,
                (_, KeyCode::Char('y' | 'Y')) => Some(Action::Answer(true)),
                (_, KeyCode::Char('n' | 'N') | KeyCode::Esc) => Some(Action::Answer(false)),
                _ => None,
            };
        }
        let code = match key.code {
            KeyCode::Char(c) => KeyCode::Char(c.to_ascii_lowercase()),
            code => code,
        };
        if self.refutation.is_some() {
            // The refutation on the board: → or Space a ply on, ← a ply back, any
            // other key back to the game.
            return Some(match code {
                KeyCode::Right | KeyCode::Char(' ') => Action::RefutationStep(1),
                KeyCode::Left => Action::RefutationStep(-1),
                _ => Action::RefutationEnd,
            });
        }
        if self.series && self.menu.is_none() && code != KeyCode::Char('q') {
            return Some(Action::StopSeries);
        }
        if self.menu.is_some() {
            return match code {
                KeyCode::Up | KeyCode::Char('k') => Some(Action::MenuStep(-1)),
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => Some(Action::MenuStep(1)),
                KeyCode::Left | KeyCode::Char('h') => Some(Action::MenuChange(-1)),
                KeyCode::Right | KeyCode::Char('l') => Some(Action::MenuChange(1)),
                KeyCode::Enter | KeyCode::Char(' ') => Some(Action::MenuSelect),
                KeyCode::Esc | KeyCode::Char('m') => Some(Action::ToggleMenu),
                KeyCode::Char('q') => Some(Action::Quit),
                _ => None,
            };
        }
        let step = |rows, columns| Some(Action::MoveCursor { rows, columns });
        match code {
            KeyCode::Up => step(-1, 0),
            KeyCode::Down => step(1, 0),
            KeyCode::Left => step(0, -1),
            KeyCode::Right => step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::PlaceAtCursor),
            KeyCode::Char(c @ '1'..='9') => self
                .settings
                .layout
                .square(c as u8 - b'0')
                .map(Action::Place),
            KeyCode::Char('u') => Some(Action::Undo),
            KeyCode::Char('r') => Some(Action::Redo),
            KeyCode::Char('h' | '?') => Some(Action::ToggleHint),
            KeyCode::Char('w') => Some(Action::Why),
            KeyCode::Char('n') => Some(Action::NewGame),
            KeyCode::Char('s') => Some(Action::Save),
            KeyCode::Char('l') => Some(Action::Load),
            KeyCode::Char('m') => Some(Action::ToggleMenu),
            KeyCode::Char('q') => Some(Action::Quit),
            _ => None,
        }
    }

    /// The action a left click on `square` (or beside the board: `None`) asks for.
    pub fn action_for_click(&self, square: Option<Square>) -> Option<Action> {
        if self.too_small || self.menu.is_some() || self.prompt.is_some() {
            return None;
        }
        // A click on the refutation's board goes back to the game, placing nothing.
        if self.refutation.is_some() {
            return Some(Action::RefutationEnd);
        }
        if self.series {
            return Some(Action::StopSeries);
        }
        square.map(Action::Place)
    }

    /// The engine that must move now, if any (none while the menu or a question is
    /// open, the screen is too small, or the game is over).
    pub fn engine_to_move(&self) -> Option<Strategy> {
        if self.paused() || self.game.result().is_some() {
            return None;
        }
        match self.settings.seat(self.game.to_move()) {
            Seat::Engine(strategy) => Some(strategy),
            Seat::Human => None,
        }
    }

    /// Whether the menu, a question or a too small screen holds the game.
    fn paused(&self) -> bool {
        self.menu.is_some() || self.prompt.is_some() || self.too_small || self.refutation.is_some()
    }

    /// Whether a person is to move now with the move clock running.
    pub fn clock_running(&self) -> bool {
        self.settings.clock.is_some()
            && !self.paused()
            && self.game.result().is_none()
            && self.human_to_move()
    }

    /// Whether the next game of the engines' series is due (the runner waits a
    /// moment after the end first).
    pub fn next_game_due(&self) -> bool {
        self.series && !self.paused() && !self.settings.has_human() && self.game.result().is_some()
    }

    /// Whether the side to move plays from the keyboard.
    fn human_to_move(&self) -> bool {
        self.settings.seat(self.game.to_move()) == Seat::Human
    }

    /// Whether leaving this game loses moves a person made and did not save.
    pub fn unsaved(&self) -> bool {
        self.settings.has_human()
            && self.game.result().is_none()
            && self.game.ply() > 0
            && self.game != self.unchanged
    }

    /// Applies an action and returns the I/O it needs.
    pub fn apply(&mut self, action: Action) -> Effect {
        // Messages go with the next action; "time is up" stays through the
        // engine's reply and the next time-up, until the person's next key.
        self.message = None;
        if !matches!(action, Action::EngineMove(_) | Action::TimeUp(_)) {
            self.time_note = None;
        }
        match action {
            Action::MoveCursor { rows, columns } => {
                let clamp = |v: u8, d: i8| (v as i8 + d).clamp(0, 2) as u8;
                let (row, column) = (
                    clamp(self.cursor.row(), rows),
                    clamp(self.cursor.column(), columns),
                );
                self.cursor = Square::new(row * 3 + column).unwrap_or(self.cursor);
            }
            Action::PlaceAtCursor => self.place_human(self.cursor),
            Action::Place(square) => {
                self.cursor = square;
                self.place_human(square);
            }
            Action::EngineMove(square) => {
                if self.engine_to_move().is_some() {
                    self.place(square);
                }
            }
            Action::TimeUp(square) => {
                if self.clock_running() {
                    self.place(square);
                    self.time_note = Some(format!(
                        "time is up: a random move was played on square {}",
                        self.label(square)
                    ));
                }
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::ToggleHint => self.hint = !self.hint,
            Action::Why => {
                let (x, o) = self.seats();
                let person = |p: Player| match p {
                    Player::X => x == Seat::Human,
                    Player::O => o == Seat::Human,
                };
                self.refutation = last_mistake(&self.game, person, |s| self.label(s));
                if self.refutation.is_none() {
                    self.message = Some("Your last move gave nothing away.".into());
                }
            }
            Action::RefutationStep(step) => {
                if let Some(r) = &mut self.refutation {
                    r.step(step);
                }
            }
            Action::RefutationEnd => {
                self.refutation = None;
                self.message = Some("Back to the game.".into());
            }
            Action::NewGame => self.leave(Then::NewGame),
            Action::Save | Action::Load => {
                self.prompt = Some(Prompt::Path {
                    purpose: if action == Action::Save {
                        FileAction::Save
                    } else {
                        FileAction::Load
                    },
                    text: self.file.display().to_string(),
                    selected: true,
                })
            }
            Action::ToggleMenu => match self.menu {
                Some(_) => self.close_menu(),
                None => self.menu = Some(0),
            },
            Action::MenuStep(delta) => {
                if let Some(row) = self.menu {
                    let n = MenuRow::ALL.len() as i8;
                    self.menu = Some((row as i8 + delta).rem_euclid(n) as usize);
                }
            }
            Action::MenuChange(delta) => self.menu_change(delta),
            Action::MenuSelect => match self.menu.map(|row| MenuRow::ALL[row]) {
                Some(MenuRow::NewGame) => {
                    self.close_menu();
                    self.leave(Then::NewGame);
                }
                Some(MenuRow::Resume) => self.close_menu(),
                Some(_) => self.menu_change(1),
                None => {}
            },
            Action::PromptChar(c) => {
                if let Some(Prompt::Path { text, selected, .. }) = &mut self.prompt {
                    if std::mem::take(selected) {
                        text.clear();
                    }
                    text.push(c);
                }
            }
            Action::PromptBackspace => {
                if let Some(Prompt::Path { text, selected, .. }) = &mut self.prompt {
                    if std::mem::take(selected) {
                        text.clear();
                    }
                    text.pop();
                }
            }
            Action::PromptKeep => {
                if let Some(Prompt::Path { selected, .. }) = &mut self.prompt {
                    *selected = false;
                }
            }
            Action::PromptSubmit => {
                if let Some(Prompt::Path { purpose, text, .. }) = self.prompt.take() {
                    let path = PathBuf::from(text.trim());
                    if path.as_os_str().is_empty() {
                        self.message = Some("no file name: nothing done".to_string());
                        return Effect::None;
                    }
                    return match purpose {
                        FileAction::Save => self.save_to(path),
                        FileAction::Load => self.load_from(path),
                    };
                }
            }
            Action::PromptCancel => self.prompt = None,
            Action::Answer(yes) => return self.answer(yes),
            Action::StopSeries => {
                self.series = false;
                // On a finished board the result stays (with "n: new game").
                if self.game.result().is_none() {
                    self.message = Some("the engines stop after this game".to_string());
                }
            }
            Action::Quit => self.leave(Then::Quit),
            Action::QuitNow => self.quit = true,
        }
        Effect::None
    }

    /// Saving to `path`: the runner writes the file, or asks before replacing one.
    pub fn save_to(&mut self, path: PathBuf) -> Effect {
        match serde_json::to_string(&self.game) {
            Ok(text) => Effect::Save {
                path,
                text,
                overwrite: false,
            },
            Err(e) => {
                self.message = Some(format!("cannot save: {e}"));
                Effect::None
            }
        }
    }

    /// Loading from `path`: the runner reads the file first and gives it to
    /// [`App::loaded_from`], which asks before discarding an unsaved game only when
    /// the file holds a valid game (the question is never asked for a load that
    /// would fail).
    pub fn load_from(&mut self, path: PathBuf) -> Effect {
        Effect::Load(path)
    }

    /// Starts a new game or quits, asking first when the game is not saved.
    fn leave(&mut self, then: Then) {
        if self.unsaved() {
            self.prompt = Some(Prompt::Discard(then));
        } else {
            // `leave` is only called with these two.
            match then {
                Then::Quit => self.quit = true,
                _ => self.new_game(),
            }
        }
    }

    fn answer(&mut self, yes: bool) -> Effect {
        let Some(prompt) = self.prompt.take() else {
            return Effect::None;
        };
        if !yes {
            self.message = Some("nothing done".to_string());
            return Effect::None;
        }
        match prompt {
            Prompt::Overwrite(path) => match self.save_to(path) {
                Effect::Save { path, text, .. } => {
                    return Effect::Save {
                        path,
                        text,
                        overwrite: true,
                    }
                }
                other => return other,
            },
            Prompt::Discard(Then::NewGame) => self.new_game(),
            Prompt::Discard(Then::Load(_, game)) => self.put(game),
            Prompt::Discard(Then::Quit) => self.quit = true,
            Prompt::Path { .. } => {}
        }
        Effect::None
    }

    /// The save file exists: ask before replacing it.
    pub fn ask_overwrite(&mut self, path: PathBuf) {
        self.prompt = Some(Prompt::Overwrite(path));
    }

    /// The result of writing the save file (`Ok` holds the path written).
    pub fn saved(&mut self, result: Result<String, String>) {
        self.message = Some(match result {
            Ok(path) => {
                self.unchanged = self.game;
                format!("saved to {path}")
            }
            Err(e) => format!("cannot save: {e}"),
        });
    }

    /// The result of reading the save file `path` for `l`: a valid game replaces
    /// the one in progress at once when that one is saved, else after "discard it?"
    /// (y); a file that cannot be read or is not a game only says why, without
    /// asking anything. Errors name squares as people do.
    pub fn loaded_from(&mut self, path: PathBuf, result: Result<String, String>) {
        match self.parse_save(result) {
            Ok(game) if self.unsaved() => {
                self.prompt = Some(Prompt::Discard(Then::Load(path, game)));
            }
            Ok(game) => self.put(game),
            Err(e) => self.message = Some(e),
        }
    }

    /// The game a save file's text holds, or the message saying why not.
    fn parse_save(&self, result: Result<String, String>) -> Result<Game, String> {
        result
            .and_then(|text| {
                serde_json::from_str::<Game>(&text).map_err(|e| self.load_error(&text, e))
            })
            .map_err(|e| format!("cannot load: {e}"))
    }

    /// A loaded game on the board: not counted in the score (it was not played here).
    fn put(&mut self, game: Game) {
        self.game = game;
        self.unchanged = game;
        self.counted = game.result().map(|r| (r, None));
        self.played_by = (self.settings.x, self.settings.o);
        self.message = Some("game loaded".to_string());
    }

    /// Why a save file is not a game: an illegal move names its square as people
    /// do and as the file holds it (0-8); other errors quote serde briefly.
    fn load_error(&self, text: &str, error: serde_json::Error) -> String {
        #[derive(serde::Deserialize)]
        struct Saved {
            moves: Vec<Square>,
            cursor: usize,
        }
        let game_error = serde_json::from_str::<Saved>(text)
            .ok()
            .and_then(|s| Game::from_moves(&s.moves, s.cursor).err());
        match game_error {
            Some(GameError::IllegalMove { ply, square, error }) => format!(
                "not a valid game: move {} (square {}, written {} in the file) is illegal: {}",
                ply + 1,
                self.label(square),
                square.index(),
                match error {
                    MoveError::Occupied { .. } => "the square is taken",
                    MoveError::GameOver => "the game was over",
                }
            ),
            _ => {
                // serde quotes what it rejects: at most a short excerpt of it.
                let e = error.to_string();
                match e.char_indices().nth(120) {
                    Some((end, _)) => format!("not a valid game: {}...", &e[..end]),
                    None => format!("not a valid game: {e}"),
                }
            }
        }
    }

    fn place_human(&mut self, square: Square) {
        if self.game.result().is_some() {
            self.message = Some("the game is over: n for a new game".to_string());
        } else if !self.human_to_move() {
            self.message = Some("wait: it is the engine's move".to_string());
        } else {
            self.place(square);
        }
    }

    fn place(&mut self, square: Square) {
        let before = self.game.board();
        if self.game.result().is_none() {
            self.played_by = (self.settings.x, self.settings.o);
        }
        match self.game.play(square) {
            Ok(()) => {
                // The engine on the other side sees the move (adaptive learns from it;
                // an undo does not unlearn it).
                if let Seat::Engine(s) = self.settings.seat_mut(before.to_move().other()) {
                    s.observe(&before, square);
                }
                self.sync_score()
            }
            Err(MoveError::Occupied { .. }) => {
                self.message = Some(format!("square {} is taken", self.label(square)))
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Keeps the score equal to the results of the games as they stand: a result
    /// taken back by undo leaves the score, a new one enters it (and rings).
    fn sync_score(&mut self) {
        let result = self.game.result();
        if result == self.counted.map(|(r, _)| r) {
            return;
        }
        if let Some((_, Some(tally))) = self.counted {
            let n = self.score.count(tally);
            *n = n.saturating_sub(1);
        }
        self.counted = result.map(|r| {
            let tally = self.tally(r);
            *self.score.count(tally) += 1;
            self.bell = true;
            (r, Some(tally))
        });
    }

    /// Where `result` counts: under the players who played the game.
    fn tally(&self, result: GameResult) -> Tally {
        let (x, o) = self.played_by;
        let pairing = Pairing::of(x, o);
        let column = match result {
            GameResult::Draw => 2,
            GameResult::Win(winner) if pairing == Pairing::PersonEngine => usize::from(
                Settings {
                    x,
                    o,
                    ..self.settings
                }
                .seat(winner)
                    != Seat::Human,
            ),
            GameResult::Win(Player::X) => 0,
            GameResult::Win(Player::O) => 1,
        };
        Tally { pairing, column }
    }

    /// The pairing whose tally goes with the game on screen: the players who
    /// finished it, or who play it on.
    pub fn pairing(&self) -> Pairing {
        let (x, o) = self.seats();
        Pairing::of(x, o)
    }

    /// The seats of the game on screen: a finished game belongs to the players who
    /// played it (a menu change afterwards does not relabel it); a game in progress
    /// to the players seated now.
    pub fn seats(&self) -> (Seat, Seat) {
        if self.game.result().is_some() {
            self.played_by
        } else {
            (self.settings.x, self.settings.o)
        }
    }

    /// The score line: the tally of the game's pairing.
    pub fn score_text(&self) -> String {
        self.score.describe(self.pairing())
    }

    /// Takes back moves up to the person's previous turn; against an engine that
    /// opened, nothing is taken back before the person's first move (the engine's
    /// opening is not played again).
    fn undo(&mut self) {
        let mut game = self.game;
        if game.undo().is_none() {
            self.message = Some("nothing to undo".to_string());
            return;
        }
        if self.settings.has_human() {
            let human = |g: &Game| self.settings.seat(g.to_move()) == Seat::Human;
            while !human(&game) && game.undo().is_some() {}
            if !human(&game) {
                self.message = Some("nothing to undo: you have not moved yet".to_string());
                return;
            }
        }
        self.game = game;
        self.sync_score();
    }

    fn redo(&mut self) {
        if self.game.redo().is_none() {
            self.message = Some("nothing to redo".to_string());
            return;
        }
        self.played_by = (self.settings.x, self.settings.o);
        while self.settings.has_human()
            && !self.human_to_move()
            && self.game.result().is_none()
            && self.game.redo().is_some()
        {}
        self.sync_score();
    }

    fn new_game(&mut self) {
        self.game = Game::new();
        self.unchanged = self.game;
        self.counted = None;
        self.played_by = (self.settings.x, self.settings.o);
        self.cursor = Square::CENTRE;
    }

    /// Closes the menu. With two engines seated they play game after game (until
    /// a key), as when the program starts with two engines; an engine now on move
    /// moves as the menu closes.
    fn close_menu(&mut self) {
        self.menu = None;
        self.series = !self.settings.has_human();
    }

    fn menu_change(&mut self, delta: i8) {
        let Some(row) = self.menu else { return };
        let player = match MenuRow::ALL[row] {
            MenuRow::X | MenuRow::XMistakes => Player::X,
            _ => Player::O,
        };
        let side = player as usize;
        match MenuRow::ALL[row] {
            MenuRow::X | MenuRow::O => {
                let rate = self.rates[side];
                let seat = self.settings.seat_mut(player);
                let (index, first_move) = match *seat {
                    Seat::Human => (0, None),
                    Seat::Engine(s) => (
                        LEVEL_CHOICES
                            .iter()
                            .position(|&l| l == s.level())
                            .map_or(0, |i| i + 1),
                        s.first_move(),
                    ),
                };
                let n = LEVEL_CHOICES.len() as i64 + 1;
                let next = (index as i64 + delta as i64).rem_euclid(n) as usize;
                *seat = match next.checked_sub(1).map(|i| LEVEL_CHOICES[i]) {
                    None => Seat::Human,
                    Some(level) => Seat::Engine(with_rate(
                        Strategy::new(level).with_first_move(first_move),
                        rate,
                    )),
                };
            }
            MenuRow::XMistakes | MenuRow::OMistakes => {
                let current = u64::from(self.rates[side].parts_per_10000());
                let next = step_choice(&RATE_CHOICES, current, delta);
                let rate = u16::try_from(next)
                    .ok()
                    .and_then(MistakeRate::new)
                    .unwrap_or(MistakeRate::ZERO);
                self.rates[side] = rate;
                let seat = self.settings.seat_mut(player);
                if let Seat::Engine(s) = *seat {
                    *seat = Seat::Engine(with_rate(s, rate));
                }
            }
            MenuRow::Delay => {
                let millis = self.settings.delay.as_millis() as u64;
                self.settings.delay =
                    Duration::from_millis(step_choice(&DELAY_CHOICES, millis, delta));
            }
            MenuRow::Clock => {
                let seconds = self.settings.clock.map_or(0, |c| c.as_secs());
                let next = step_choice(&CLOCK_CHOICES, seconds, delta);
                self.settings.clock = (next > 0).then(|| Duration::from_secs(next));
            }
            MenuRow::Keys => self.settings.layout = self.settings.layout.other(),
            MenuRow::NewGame | MenuRow::Resume => {}
        }
    }

    /// The mistake rate the menu shows for `player`: the engine's, or `—` when its
    /// level takes none.
    pub fn rate_text(&self, player: Player) -> String {
        match self.settings.seat(player) {
            Seat::Engine(s) if s.level().takes_mistake_rate() => {
                let rate = s.mistake_rate().parts_per_10000();
                format!("{} %", f64::from(rate) / 100.0)
            }
            _ => "—".to_string(),
        }
    }

    /// `, you play like ε ≈ 0.2` for an adaptive engine (`the opponent plays like` when
    /// no person plays it), empty for the other levels.
    pub fn estimate_text(&self, engine: Strategy) -> String {
        match engine.estimate() {
            Some(e) if self.settings.has_human() => format!(", you play like ε ≈ {e}"),
            Some(e) => format!(", the opponent plays like ε ≈ {e}"),
            None => String::new(),
        }
    }

    /// The game the board shows: the refutation's while it is shown, else the game.
    pub fn shown_game(&self) -> Game {
        self.refutation
            .as_ref()
            .and_then(Refutation::game)
            .unwrap_or(self.game)
    }

    /// The one-line status: a question, a message, the result, or whose move it is.
    pub fn status(&self) -> String {
        if let Some(prompt) = &self.prompt {
            return prompt.text();
        }
        if let Some(r) = &self.refutation {
            return format!(
                "{} Refutation {}/{}: Space on, ← back, other keys: the game.",
                r.said,
                r.shown,
                r.plies()
            );
        }
        if let Some(message) = &self.message {
            return message.clone();
        }
        let status = self.game_status();
        match &self.time_note {
            Some(note) if self.game.result().is_some() => format!("{status} ({note})"),
            Some(note) => format!("{note} · {status}"),
            None => status,
        }
    }

    /// Whose move it is (with the clock), or the result.
    fn game_status(&self) -> String {
        let (x, o) = self.seats();
        let seats = Settings {
            x,
            o,
            ..self.settings
        };
        let name = |player: Player| match seats.seat(player) {
            Seat::Human if x == o => format!("{player}"),
            Seat::Human => format!("{player} (you)"),
            Seat::Engine(s) => format!("{player} ({}{})", Named(s), self.estimate_text(s)),
        };
        match self.game.result() {
            Some(_) if self.series && !self.settings.has_human() => {
                let result = match self.game.result() {
                    Some(GameResult::Win(player)) => format!("{} wins.", name(player)),
                    _ => "Draw.".to_string(),
                };
                format!("{result} The next game follows: any key stops the engines.")
            }
            Some(GameResult::Win(player)) => {
                format!("{} wins! n: new game", name(player))
            }
            Some(GameResult::Draw) => "Draw. n: new game".to_string(),
            None => {
                let player = self.game.to_move();
                match self.settings.seat(player) {
                    Seat::Human => {
                        let turn = match self.clock_left {
                            Some(left) if self.clock_running() => format!(
                                "{} to move · {} s left",
                                name(player),
                                left.as_secs_f64().ceil() as u64
                            ),
                            _ => format!("{} to move", name(player)),
                        };
                        // adaptive's estimate of the person, on the person's turn too.
                        match seats.seat(player.other()) {
                            Seat::Engine(s) if s.estimate().is_some() => {
                                format!("{turn} · {}", name(player.other()))
                            }
                            _ => turn,
                        }
                    }
                    Seat::Engine(_) => format!("{} is thinking…", name(player)),
                }
            }
        }
    }
}

/// `strategy` with `rate` when its level takes one (perfect, trap), else unchanged.
fn with_rate(strategy: Strategy, rate: MistakeRate) -> Strategy {
    if strategy.level().takes_mistake_rate() {
        strategy.with_mistake_rate(rate).unwrap_or(strategy)
    } else {
        strategy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn sq(i: u8) -> Square {
        Square::new(i).unwrap()
    }

    fn settings(x: &str, o: &str) -> Settings {
        Settings::new(x.parse().unwrap(), o.parse().unwrap())
    }

    /// Presses keys in order, applying their actions (effects are dropped).
    fn press(app: &mut App, keys: &[KeyCode]) {
        for &k in keys {
            if let Some(action) = app.action_for(key(k)) {
                app.apply(action);
            }
        }
    }

    /// Types a string of characters as key presses.
    fn typing(app: &mut App, text: &str) {
        let keys: Vec<KeyCode> = text.chars().map(KeyCode::Char).collect();
        press(app, &keys);
    }

    #[test]
    fn the_refutation_shown_holds_the_engine_and_any_other_key_returns() {
        // X (engine) 1, O (you) 2: a mistake; w shows its refutation, X waits.
        let mut app = App::new(settings("perfect", "human"));
        app.apply(Action::EngineMove(sq(0)));
        app.apply(Action::Place(sq(1)));
        assert!(app.engine_to_move().is_some());
        typing(&mut app, "w");
        let r = app.refutation.clone().expect("a refutation");
        assert_eq!(r.said, "2 loses in 6 is a mistake where 5 keeps the draw.");
        assert_eq!(app.engine_to_move(), None, "the engine waits");
        press(
            &mut app,
            &[KeyCode::Char(' '), KeyCode::Char(' '), KeyCode::Left],
        );
        assert_eq!(app.refutation.as_ref().map(|r| r.shown), Some(1));
        assert_eq!(app.shown_game().ply(), 3);
        // A click returns to the game, placing nothing; so does q (it does not quit).
        let click = app.action_for_click(Some(sq(8)));
        assert_eq!(click, Some(Action::RefutationEnd));
        app.apply(Action::RefutationEnd);
        assert_eq!(app.refutation, None);
        typing(&mut app, "w");
        assert!(app.refutation.is_some());
        typing(&mut app, "q");
        assert_eq!(app.refutation, None);
        assert!(!app.quit);
        assert_eq!(app.shown_game(), app.game);
        assert!(app.engine_to_move().is_some());
    }

    #[test]
    fn digits_count_left_to_right_top_to_bottom_unless_keypad_is_chosen() {
        for (digit, index) in (1..=9).zip(0..9) {
            assert_eq!(KeyLayout::Rows.square(digit), Some(sq(index)));
            assert_eq!(KeyLayout::Rows.digit(sq(index)), digit);
        }
        let keypad = [
            (7, 0),
            (8, 1),
            (9, 2),
            (4, 3),
            (5, 4),
            (6, 5),
            (1, 6),
            (2, 7),
            (3, 8),
        ];
        for (digit, index) in keypad {
            assert_eq!(KeyLayout::Keypad.square(digit), Some(sq(index)));
            assert_eq!(KeyLayout::Keypad.digit(sq(index)), digit);
        }
        for layout in [KeyLayout::Rows, KeyLayout::Keypad] {
            assert_eq!(layout.square(0), None);
            assert_eq!(layout.square(10), None);
        }
        let mut app = App::new(settings("human", "human"));
        assert_eq!(
            app.action_for(key(KeyCode::Char('1'))),
            Some(Action::Place(sq(0)))
        );
        assert_eq!(app.action_for(key(KeyCode::Char('0'))), None);
        // The menu switches to the keypad layout.
        press(&mut app, &[KeyCode::Char('m')]);
        let keys = MenuRow::ALL
            .iter()
            .position(|&r| r == MenuRow::Keys)
            .unwrap();
        press(&mut app, &vec![KeyCode::Down; keys]);
        press(&mut app, &[KeyCode::Right, KeyCode::Char('m')]);
        assert_eq!(app.settings.layout, KeyLayout::Keypad);
        assert_eq!(
            app.action_for(key(KeyCode::Char('1'))),
            Some(Action::Place(sq(6)))
        );
        // Messages name squares by their key in the layout in use.
        typing(&mut app, "77");
        assert_eq!(app.message.as_deref(), Some("square 7 is taken"));
    }

    #[test]
    fn cursor_is_clamped_at_the_edges() {
        let mut app = App::new(settings("human", "human"));
        press(
            &mut app,
            &[KeyCode::Up, KeyCode::Up, KeyCode::Left, KeyCode::Left],
        );
        assert_eq!(app.cursor, sq(0));
        press(&mut app, &[KeyCode::Right; 5]);
        assert_eq!(app.cursor, sq(2));
        press(&mut app, &[KeyCode::Down; 5]);
        assert_eq!(app.cursor, sq(8));
        press(&mut app, &[KeyCode::Left]);
        assert_eq!(app.cursor, sq(7));
    }

    #[test]
    fn enter_and_space_place_and_occupied_squares_are_refused() {
        let mut app = App::new(settings("human", "human"));
        press(&mut app, &[KeyCode::Enter]);
        assert_eq!(app.game.moves(), &[sq(4)]);
        press(&mut app, &[KeyCode::Char(' ')]);
        assert_eq!(app.game.ply(), 1);
        assert_eq!(app.message.as_deref(), Some("square 5 is taken"));
        press(&mut app, &[KeyCode::Up, KeyCode::Char(' ')]);
        assert_eq!(app.game.moves(), &[sq(4), sq(1)]);
        assert_eq!(app.status(), "X to move");
    }

    #[test]
    fn a_full_game_scores_once_and_rings() {
        let mut app = App::new(settings("human", "human"));
        // X: 1 2 3 = top row; O: 4 5.
        typing(&mut app, "14253");
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::X)));
        assert_eq!(app.score.people.first, 1);
        assert!(app.bell);
        assert!(app.status().starts_with("X wins!"));
        typing(&mut app, "9");
        assert_eq!(
            app.message.as_deref(),
            Some("the game is over: n for a new game")
        );
        // Undo and redo to the same end does not count twice.
        typing(&mut app, "ur");
        assert_eq!(app.score.people.first, 1);
        typing(&mut app, "n");
        assert_eq!(app.game.ply(), 0);
        assert_eq!(app.score.people.first, 1);
        assert_eq!(app.score_text(), "X 1 · O 0 · draws 0");
    }

    #[test]
    fn a_result_taken_back_leaves_the_score_and_the_new_one_counts() {
        // Issue item 4: X wins, undo, O wins instead: the score says O 1, X 0.
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "14253");
        assert_eq!(app.score.people.first, 1);
        typing(&mut app, "u");
        assert_eq!(app.score.people.first, 0);
        typing(&mut app, "76");
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::O)));
        assert_eq!(
            app.score,
            Score {
                people: Record {
                    second: 1,
                    ..Record::default()
                },
                ..Score::default()
            }
        );
    }

    #[test]
    fn against_an_engine_the_score_follows_the_person_across_sides() {
        let mut app = App::new(settings("human", "perfect"));
        // The person (X) wins a game against a careless engine.
        typing(&mut app, "1");
        app.apply(Action::EngineMove(sq(3)));
        typing(&mut app, "2");
        app.apply(Action::EngineMove(sq(4)));
        typing(&mut app, "3");
        assert_eq!(app.score_text(), "You 1 · engine 0 · draws 0");
        // Sides swapped in the menu: the person plays O now; the engine wins as X.
        app.settings.x = "perfect".parse().unwrap();
        app.settings.o = Seat::Human;
        typing(&mut app, "n");
        app.apply(Action::EngineMove(sq(0)));
        typing(&mut app, "4");
        app.apply(Action::EngineMove(sq(1)));
        typing(&mut app, "5");
        app.apply(Action::EngineMove(sq(2)));
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::X)));
        assert_eq!(app.score_text(), "You 1 · engine 1 · draws 0");
    }

    #[test]
    fn a_finished_game_belongs_to_its_players_and_counts_once_under_them() {
        // Issue 39 items 9 and 10, as reported: two people, 1 2 5 9 7, then O to
        // trap in the menu (it plays 3), then 4: X (you) wins.
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "12597");
        app.settings.o = "trap".parse().unwrap();
        app.apply(Action::EngineMove(sq(2)));
        typing(&mut app, "4");
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::X)));
        assert_eq!(app.status(), "X (you) wins! n: new game");
        assert_eq!(app.score_text(), "You 1 · engine 0 · draws 0");
        // X to trap in the menu: the finished game is not relabelled.
        app.settings.x = "trap".parse().unwrap();
        assert_eq!(app.status(), "X (you) wins! n: new game");
        assert_eq!(app.score_text(), "You 1 · engine 0 · draws 0");
        // O back to human: still the same game and its tally.
        app.settings.o = Seat::Human;
        assert_eq!(app.status(), "X (you) wins! n: new game");
        assert_eq!(app.score_text(), "You 1 · engine 0 · draws 0");
        // A game of two engines counts in the engines' tally, not the people's.
        app.settings = settings("perfect", "trap");
        typing(&mut app, "n");
        assert_eq!(app.score_text(), "X 0 · O 0 · draws 0");
        for square in [4, 0, 8, 2, 1, 7, 6, 3, 5] {
            app.apply(Action::EngineMove(sq(square)));
        }
        assert_eq!(app.score_text(), "X 0 · O 0 · draws 1");
        // Two people: their own tally, where the engines' draw is not.
        app.settings = settings("human", "human");
        typing(&mut app, "n");
        assert_eq!(app.score_text(), "X 0 · O 0 · draws 0");
        typing(&mut app, "14253");
        assert_eq!(app.score_text(), "X 1 · O 0 · draws 0");
        assert_eq!(app.score.person.first, 1);
        assert_eq!(app.score.engines.draws, 1);
        assert_eq!(app.score.people.first, 1);
    }

    #[test]
    fn the_engine_moves_only_on_its_turn() {
        let mut app = App::new(settings("human", "trap"));
        assert_eq!(app.engine_to_move(), None);
        typing(&mut app, "5");
        assert_eq!(app.engine_to_move(), Some(Strategy::new(Level::Trap)));
        assert_eq!(app.status(), "O (trap) is thinking…");
        typing(&mut app, "1");
        assert_eq!(app.game.ply(), 1);
        app.apply(Action::EngineMove(sq(0)));
        assert_eq!(app.game.ply(), 2);
        app.apply(Action::EngineMove(sq(8)));
        assert_eq!(app.game.ply(), 2);
        assert_eq!(app.status(), "X (you) to move");
    }

    #[test]
    fn undo_and_redo_skip_the_engine_moves() {
        let mut app = App::new(settings("human", "perfect"));
        typing(&mut app, "5");
        app.apply(Action::EngineMove(sq(0)));
        typing(&mut app, "9");
        app.apply(Action::EngineMove(sq(6)));
        assert_eq!(app.game.ply(), 4);
        typing(&mut app, "u");
        assert_eq!(app.game.ply(), 2);
        typing(&mut app, "u");
        assert_eq!(app.game.ply(), 0);
        typing(&mut app, "u");
        assert_eq!(app.message.as_deref(), Some("nothing to undo"));
        typing(&mut app, "r");
        assert_eq!(app.game.ply(), 2);
        typing(&mut app, "rr");
        assert_eq!(app.game.ply(), 4);
        assert_eq!(app.message.as_deref(), Some("nothing to redo"));
    }

    #[test]
    fn undo_before_the_person_moved_keeps_the_engines_opening() {
        // Issue item 9: the engine opened as X; u must not re-roll its move.
        let mut app = App::new(settings("trap", "human"));
        app.apply(Action::EngineMove(sq(0)));
        typing(&mut app, "u");
        assert_eq!(app.game.moves(), &[sq(0)]);
        assert_eq!(app.engine_to_move(), None);
        assert_eq!(
            app.message.as_deref(),
            Some("nothing to undo: you have not moved yet")
        );
        // After the person's move, undo takes back both.
        typing(&mut app, "5");
        app.apply(Action::EngineMove(sq(8)));
        typing(&mut app, "u");
        assert_eq!(app.game.moves(), &[sq(0)]);
    }

    #[test]
    fn save_asks_for_a_file_and_before_overwriting_one() {
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "51");
        typing(&mut app, "s");
        assert_eq!(
            app.prompt,
            Some(Prompt::Path {
                purpose: FileAction::Save,
                text: "tictable-game.json".into(),
                selected: true,
            })
        );
        assert!(app.status().starts_with("Save to file: tictable-game.json"));
        // The typed text is the file name: letters stay as typed (no commands), and
        // replace the selected pre-filled name (issue 39 item 14).
        typing(&mut app, "Game.json");
        let effect = app.apply(app.action_for(key(KeyCode::Enter)).unwrap());
        assert_eq!(
            effect,
            Effect::Save {
                path: "Game.json".into(),
                text: r#"{"moves":[4,0],"cursor":2}"#.into(),
                overwrite: false
            }
        );
        // The runner found the file: it asks; n keeps the file, y overwrites.
        app.ask_overwrite("Game.json".into());
        assert_eq!(app.status(), "Game.json exists: overwrite it? (y/n)");
        typing(&mut app, "n");
        assert_eq!(app.prompt, None);
        assert_eq!(app.message.as_deref(), Some("nothing done"));
        app.ask_overwrite("Game.json".into());
        let effect = app.apply(app.action_for(key(KeyCode::Char('Y'))).unwrap());
        assert!(matches!(
            effect,
            Effect::Save {
                overwrite: true,
                ..
            }
        ));
        app.saved(Ok("Game.json".into()));
        assert_eq!(app.message.as_deref(), Some("saved to Game.json"));
        // Saved: n starts a new game without asking.
        typing(&mut app, "n");
        assert_eq!(app.game.ply(), 0);
        // Esc cancels a prompt.
        typing(&mut app, "l");
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.prompt, None);
        // Backspace clears a selected name; → keeps it to type after it.
        let typed = |app: &App| match &app.prompt {
            Some(Prompt::Path { text, .. }) => text.clone(),
            other => panic!("{other:?}"),
        };
        typing(&mut app, "s");
        press(&mut app, &[KeyCode::Backspace]);
        assert_eq!(typed(&app), "");
        typing(&mut app, "g");
        assert_eq!(typed(&app), "g");
        press(&mut app, &[KeyCode::Esc]);
        typing(&mut app, "s");
        press(&mut app, &[KeyCode::Right]);
        typing(&mut app, ".bak");
        assert_eq!(typed(&app), "tictable-game.json.bak");
        press(&mut app, &[KeyCode::Backspace]);
        assert_eq!(typed(&app), "tictable-game.json.ba");
    }

    #[test]
    fn leaving_an_unsaved_game_asks_first() {
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "5");
        for (keys, then) in [("n", Then::NewGame), ("q", Then::Quit)] {
            typing(&mut app, keys);
            assert_eq!(app.prompt, Some(Prompt::Discard(then)));
            typing(&mut app, "n");
            assert_eq!(app.game.ply(), 1);
            assert!(!app.quit);
        }
        typing(&mut app, "l");
        let effect = app.apply(Action::PromptSubmit);
        assert_eq!(effect, Effect::Load("tictable-game.json".into()));
        // The file holds a game: only now is the person asked; y puts it on the board.
        let saved = Game::from_moves(&[sq(0), sq(4)], 2).unwrap();
        app.loaded_from(
            "tictable-game.json".into(),
            Ok(r#"{"moves":[0,4],"cursor":2}"#.into()),
        );
        assert_eq!(
            app.prompt,
            Some(Prompt::Discard(Then::Load(
                "tictable-game.json".into(),
                saved
            )))
        );
        assert_eq!(app.apply(Action::Answer(true)), Effect::None);
        assert_eq!(app.game, saved);
        assert_eq!(app.message.as_deref(), Some("game loaded"));
        typing(&mut app, "n");
        assert_eq!(app.game.ply(), 0);
        // Ctrl-C quits at once.
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        typing(&mut app, "5");
        app.apply(app.action_for(ctrl_c).unwrap());
        assert!(app.quit);
    }

    #[test]
    fn load_checks_the_file_before_asking_to_discard_the_game() {
        // Issue 39 item 11: `l` asked "discard it and load F?" before checking F.
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "5");
        for (result, why) in [
            (
                Err("missing.json: No such file or directory (os error 2)".to_string()),
                "cannot load: missing.json: No such file or directory (os error 2)",
            ),
            (
                Ok("not a game".to_string()),
                "cannot load: not a valid game: expected ident at line 1 column 2",
            ),
        ] {
            typing(&mut app, "l");
            let effect = app.apply(Action::PromptSubmit);
            let Effect::Load(path) = effect else {
                panic!("{effect:?}")
            };
            app.loaded_from(path, result);
            assert_eq!(app.prompt, None, "no question for a load that fails");
            assert_eq!(app.message.as_deref(), Some(why));
            assert_eq!(app.game.moves(), &[sq(4)]);
        }
        // A saved game is replaced without a question.
        app.saved(Ok("g.json".into()));
        app.loaded_from("g.json".into(), Ok(r#"{"moves":[0],"cursor":1}"#.into()));
        assert_eq!(app.prompt, None);
        assert_eq!(app.game.moves(), &[sq(0)]);
    }

    #[test]
    fn q_asks_only_for_a_game_in_progress_as_the_help_says() {
        // Issue 39 item 15: `q` after a finished unsaved game quit without asking
        // while the help said it asks when the game is not saved.
        // The help's side is checked in cli_play.rs (q_and_the_help_agree).
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "14253");
        assert!(app.game.result().is_some());
        typing(&mut app, "q");
        assert_eq!(app.prompt, None);
        assert!(app.quit);
    }

    #[test]
    fn bad_save_files_change_nothing_and_name_squares_as_people_do() {
        let mut app = App::new(settings("human", "human"));
        typing(&mut app, "51");
        let before = app.game;
        app.loaded_from("g.json".into(), Ok(r#"{"moves":[4,4],"cursor":2}"#.into()));
        assert_eq!(app.game, before);
        assert_eq!(
            app.message.as_deref(),
            Some(
                "cannot load: not a valid game: move 2 (square 5, written 4 in the file) is \
                 illegal: the square is taken"
            )
        );
        // The file's square too (0-8), so the person finds it in the file.
        app.loaded_from("g.json".into(), Ok(r#"{"moves":[0,0],"cursor":2}"#.into()));
        assert_eq!(
            app.message.as_deref(),
            Some(
                "cannot load: not a valid game: move 2 (square 1, written 0 in the file) is \
                 illegal: the square is taken"
            )
        );
        app.loaded_from("g.json".into(), Ok(r#"{"moves":[4,9],"cursor":2}"#.into()));
        assert!(app.message.as_deref().unwrap().contains("0..=8"));
        app.loaded_from("g.json".into(), Err("No such file or directory".into()));
        assert_eq!(app.game, before);
        app.loaded_from(
            "g.json".into(),
            Ok(r#"{"moves":[0,3,1,4,2],"cursor":5}"#.into()),
        );
        typing(&mut app, "y");
        assert_eq!(app.game.ply(), 5);
        assert_eq!(app.message.as_deref(), Some("game loaded"));
        // A loaded finished game is not counted; undoing it changes no score.
        typing(&mut app, "u");
        assert_eq!(app.score, Score::default());
    }

    #[test]
    fn menu_keeps_mistake_rates_and_steps_every_delay() {
        let mut app = App::new(settings("human", "hard:0.15"));
        assert_eq!(app.settings.o.to_string(), "perfect:0.15");
        typing(&mut app, "5m");
        assert_eq!(app.menu, Some(0));
        assert_eq!(app.engine_to_move(), None);
        // X: human -> random -> human.
        press(&mut app, &[KeyCode::Right]);
        assert_eq!(app.settings.x, "random".parse().unwrap());
        press(&mut app, &[KeyCode::Left]);
        assert_eq!(app.settings.x, Seat::Human);
        // O: perfect:0.15 -> trap:0.15 -> sharp -> gentle:0.5 -> adaptive ->
        // epsilon:0.1 -> human -> random ... -> perfect:0.15.
        press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Right]);
        assert_eq!(app.settings.o.to_string(), "trap:0.15");
        press(&mut app, &[KeyCode::Right; 3]);
        assert_eq!(app.settings.o.to_string(), "adaptive");
        press(&mut app, &[KeyCode::Right; 5]);
        assert_eq!(app.settings.o.to_string(), "medium");
        press(&mut app, &[KeyCode::Right]);
        assert_eq!(app.settings.o.to_string(), "perfect:0.15");
        // O's mistakes: 15 % -> 20 %.
        press(&mut app, &[KeyCode::Down, KeyCode::Right]);
        assert_eq!(app.settings.o.to_string(), "perfect:0.2");
        assert_eq!(app.rate_text(Player::O), "20 %");
        assert_eq!(app.rate_text(Player::X), "—");
        // Delay: 0.5 s (not a menu value) -> 0.8 s; 0.5 s -> 0.4 s the other way.
        press(&mut app, &[KeyCode::Down]);
        app.settings.delay = Duration::from_millis(500);
        press(&mut app, &[KeyCode::Right]);
        assert_eq!(app.settings.delay, Duration::from_millis(800));
        app.settings.delay = Duration::from_millis(500);
        press(&mut app, &[KeyCode::Left]);
        assert_eq!(app.settings.delay, Duration::from_millis(400));
        // Every value is reached in turn, and it wraps.
        let mut seen = vec![];
        for _ in 0..DELAY_CHOICES.len() {
            press(&mut app, &[KeyCode::Right]);
            seen.push(app.settings.delay.as_millis() as u64);
        }
        seen.sort();
        assert_eq!(seen, DELAY_CHOICES);
        // Clock: none -> 5 s.
        press(&mut app, &[KeyCode::Down, KeyCode::Right]);
        assert_eq!(app.settings.clock, Some(Duration::from_secs(5)));
        // Up from the first row wraps to the last.
        app.menu = Some(0);
        press(&mut app, &[KeyCode::Up]);
        assert_eq!(app.menu, Some(MenuRow::ALL.len() - 1));
        // Start a new game (the one in progress asks first), then the menu closes.
        press(&mut app, &[KeyCode::Up, KeyCode::Enter]);
        assert_eq!(app.menu, None);
        typing(&mut app, "y");
        assert_eq!(app.game.ply(), 0);
        // Esc does not open the menu (m does); it closes it.
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.menu, None);
        typing(&mut app, "m");
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.menu, None);
    }

    #[test]
    fn caps_lock_letters_work_and_quit_keys() {
        let app = App::new(settings("human", "human"));
        for (c, action) in [
            ('Q', Action::Quit),
            ('H', Action::ToggleHint),
            ('U', Action::Undo),
        ] {
            assert_eq!(app.action_for(key(KeyCode::Char(c))), Some(action));
        }
        assert_eq!(app.action_for(key(KeyCode::Char('q'))), Some(Action::Quit));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(app.action_for(ctrl_c), Some(Action::QuitNow));
        let mut release = key(KeyCode::Enter);
        release.kind = KeyEventKind::Release;
        assert_eq!(app.action_for(release), None);
        assert_eq!(app.action_for(key(KeyCode::Char('x'))), None);
        assert_eq!(app.action_for(key(KeyCode::Esc)), None);
    }

    #[test]
    fn a_too_small_screen_takes_only_quit() {
        // Issue item 7: at 30x10, `5 n 7` did things unseen.
        let mut app = App::new(settings("human", "trap"));
        app.too_small = true;
        typing(&mut app, "5n7");
        press(&mut app, &[KeyCode::Enter, KeyCode::Char('m')]);
        assert_eq!(app.game.ply(), 0);
        assert_eq!(app.menu, None);
        assert_eq!(app.action_for_click(Some(sq(0))), None);
        app.too_small = false;
        typing(&mut app, "5");
        app.too_small = true;
        assert_eq!(app.engine_to_move(), None, "the engine waits too");
        assert_eq!(
            app.action_for(key(KeyCode::Char('q'))),
            Some(Action::QuitNow)
        );
        // A question open when the screen shrank waits too: y is not taken unseen.
        app.too_small = false;
        typing(&mut app, "n");
        assert!(app.prompt.is_some());
        app.too_small = true;
        typing(&mut app, "y");
        assert!(app.prompt.is_some());
        assert_eq!(app.game.ply(), 1);
    }

    #[test]
    fn clicks_place_and_the_clock_plays_for_the_person() {
        let mut app = App::new(settings("human", "human"));
        let click = app.action_for_click(Some(sq(2))).unwrap();
        app.apply(click);
        assert_eq!(app.game.moves(), &[sq(2)]);
        assert_eq!(app.action_for_click(None), None);
        // Without a clock, TimeUp does nothing.
        app.apply(Action::TimeUp(sq(0)));
        assert_eq!(app.game.ply(), 1);
        app.settings.clock = Some(Duration::from_secs(10));
        app.clock_left = Some(Duration::from_millis(6200));
        assert!(app.clock_running());
        assert_eq!(app.status(), "O to move · 7 s left");
        app.apply(Action::TimeUp(sq(0)));
        assert_eq!(app.game.moves(), &[sq(2), sq(0)]);
        let up = "time is up: a random move was played on square 1";
        // Issue 39 item 12: the next turn shows its countdown beside the note.
        assert_eq!(app.status(), format!("{up} · X to move · 7 s left"));
        // The note stays up through an engine's reply.
        app.settings.x = "trap".parse().unwrap();
        app.apply(Action::EngineMove(sq(8)));
        assert_eq!(app.game.ply(), 3);
        assert_eq!(app.status(), format!("{up} · O (you) to move · 7 s left"));
        // The clock stops while the menu is open.
        app.apply(Action::ToggleMenu);
        assert!(!app.clock_running());
    }

    #[test]
    fn a_game_that_ends_after_time_is_up_is_announced() {
        // Issue 39 item 12: the status kept "time is up" over the finished game.
        let mut app = App::new(settings("human", "human"));
        app.settings.clock = Some(Duration::from_secs(3));
        typing(&mut app, "1425");
        app.apply(Action::TimeUp(sq(8)));
        assert_eq!(app.game.result(), None);
        app.apply(Action::TimeUp(sq(5)));
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::O)));
        assert_eq!(
            app.status(),
            "O wins! n: new game (time is up: a random move was played on square 6)"
        );
        // The person's next key clears the note.
        typing(&mut app, "h");
        assert_eq!(app.status(), "O wins! n: new game");
    }

    #[test]
    fn the_clock_pauses_in_the_menu_and_prompts_and_refills_on_a_new_turn() {
        // Issue 39 item 12: opening the menu, save or quit prompt refilled it.
        let full = Duration::from_secs(3);
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut clock = MoveClock::default();
        let game = Game::new();
        assert_eq!(clock.tick(true, game, full, at(0)), Some(at(3000)));
        // 1 s gone; paused for 5 s (menu): the 2 s left wait.
        assert_eq!(clock.tick(false, game, full, at(1000)), None);
        assert_eq!(clock.tick(false, game, full, at(6000)), None);
        assert_eq!(clock.tick(true, game, full, at(6000)), Some(at(8000)));
        assert_eq!(clock.tick(true, game, full, at(7000)), Some(at(8000)));
        // A new position is a new turn: full again.
        let mut next = game;
        next.play(sq(4)).unwrap();
        assert_eq!(clock.tick(true, next, full, at(7500)), Some(at(10500)));
        // So is a new clock setting.
        let five = Duration::from_secs(5);
        assert_eq!(clock.tick(true, next, five, at(8000)), Some(at(13000)));
        // The app says when it runs: not while the menu or a question is open.
        let mut app = App::new(settings("human", "trap"));
        app.settings.clock = Some(full);
        assert!(app.clock_running());
        for keys in ["m", "s"] {
            typing(&mut app, keys);
            assert!(!app.clock_running(), "{keys}");
            press(&mut app, &[KeyCode::Esc]);
            assert!(app.clock_running(), "{keys}");
        }
    }

    #[test]
    fn two_engines_play_on_until_a_key_is_pressed() {
        let mut app = App::new(settings("perfect", "trap"));
        assert!(app.series);
        for square in [4, 0, 8, 2, 1, 7, 6, 3, 5] {
            app.apply(Action::EngineMove(sq(square)));
        }
        assert_eq!(app.game.result(), Some(GameResult::Draw));
        assert!(app.next_game_due());
        assert!(app.status().contains("any key stops"), "{}", app.status());
        app.apply(Action::NewGame);
        assert_eq!(app.game.ply(), 0);
        assert_eq!(app.score.engines.draws, 1);
        let stop = app.action_for(key(KeyCode::Char('x'))).unwrap();
        assert_eq!(stop, Action::StopSeries);
        app.apply(stop);
        assert!(!app.next_game_due());
        // Stopped mid-game: said until the game ends, then the result shows.
        assert_eq!(app.status(), "the engines stop after this game");
        for square in [4, 0, 8, 2, 1, 7, 6, 3, 5] {
            app.apply(Action::EngineMove(sq(square)));
        }
        assert_eq!(app.status(), "Draw. n: new game");
        // Issue 39 item 13: stopped on a finished board, no stale "after this game".
        app.series = true;
        app.apply(Action::StopSeries);
        assert_eq!(app.status(), "Draw. n: new game");
        // Two engines chosen in the menu play on too, game after game.
        let mut app = App::new(settings("human", "trap"));
        assert!(!app.series);
        typing(&mut app, "m");
        press(&mut app, &[KeyCode::Right, KeyCode::Esc]);
        assert_eq!(app.settings.x, "random".parse().unwrap());
        assert!(app.series);
        for square in [4, 0, 8, 2, 1, 7, 6, 3, 5] {
            app.apply(Action::EngineMove(sq(square)));
        }
        assert!(app.next_game_due());
        app.apply(Action::NewGame);
        assert_eq!(app.game.ply(), 0);
        assert!(app.engine_to_move().is_some());
        // With a person playing there is no series.
        assert!(!App::new(settings("human", "trap")).series);
    }

    #[test]
    fn seats_parse() {
        assert_eq!("human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!("Human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!("trap:0.1".parse::<Seat>().unwrap().to_string(), "trap:0.1");
        assert_eq!("hard@5".parse::<Seat>().unwrap().to_string(), "perfect@5");
        assert!("robot".parse::<Seat>().is_err());
        assert_eq!(step_choice(&[], 3, 1), 3);
    }
}
