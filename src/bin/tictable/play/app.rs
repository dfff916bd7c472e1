//! The game as a pure state machine: keys become [`Action`]s, actions change the
//! [`App`]. No terminal, no clock, no files: the runners (`tui`, `plain`) do the I/O
//! and feed the results back, so everything here is unit-tested.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use tictable::game::{Game, GameResult};
use tictable::strategy::{Level, Strategy};
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
            Seat::Engine(strategy) => write!(f, "{strategy}"),
        }
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Seat, String> {
        if s.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        s.parse()
            .map(Seat::Engine)
            .map_err(|e| format!("{e}; or `human`"))
    }
}

/// The choices a seat cycles through in the menu.
const SEAT_CHOICES: [Seat; 6] = [
    Seat::Human,
    Seat::Engine(Strategy::new(Level::Random)),
    Seat::Engine(Strategy::new(Level::Easy)),
    Seat::Engine(Strategy::new(Level::Medium)),
    Seat::Engine(Strategy::new(Level::Perfect)),
    Seat::Engine(Strategy::new(Level::Trap)),
];

/// The thinking delays the menu cycles through, in milliseconds.
const DELAY_CHOICES: [u64; 6] = [0, 200, 400, 800, 1500, 3000];

/// Who plays X and O, and how long an engine "thinks" before it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The X seat (X moves first).
    pub x: Seat,
    /// The O seat.
    pub o: Seat,
    /// The visible delay before an engine's move.
    pub delay: Duration,
}

impl Settings {
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

/// Games won by each side and drawn in this session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games X won.
    pub x: u32,
    /// Games O won.
    pub o: u32,
    /// Drawn games.
    pub draws: u32,
}

/// The rows of the in-game menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuRow {
    /// Who plays X.
    X,
    /// Who plays O.
    O,
    /// The engine's thinking delay.
    Delay,
    /// Start a new game with these settings.
    NewGame,
    /// Close the menu.
    Resume,
}

impl MenuRow {
    /// Rows in display order.
    pub const ALL: [MenuRow; 5] = [
        MenuRow::X,
        MenuRow::O,
        MenuRow::Delay,
        MenuRow::NewGame,
        MenuRow::Resume,
    ];
}

/// Something the user (or the engine) asks for.
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
    /// Place a piece on this square (a keypad digit, or a typed move).
    Place(Square),
    /// The engine to move plays this square.
    EngineMove(Square),
    /// Take back the last move (back to a human's turn when an engine plays).
    Undo,
    /// Replay an undone move (up to a human's turn when an engine plays).
    Redo,
    /// Show or hide the move values on the empty squares.
    ToggleHint,
    /// Start a new game.
    NewGame,
    /// Save the game to the save file.
    Save,
    /// Load the game from the save file.
    Load,
    /// Open or close the menu.
    ToggleMenu,
    /// Select the previous / next menu row.
    MenuStep(i8),
    /// Change the selected menu row's value backwards / forwards.
    MenuChange(i8),
    /// Activate the selected menu row.
    MenuSelect,
    /// Leave the program.
    Quit,
}

/// I/O that an action needs from the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing to do.
    None,
    /// Write this text to the save file, then call [`App::saved`].
    Save(String),
    /// Read the save file, then call [`App::loaded`].
    Load,
}

/// The keypad layout: digit 7 is the top-left square ... 3 the bottom-right.
pub fn keypad_square(digit: u8) -> Option<Square> {
    let index = match digit {
        7..=9 => digit - 7,
        4..=6 => digit - 1,
        1..=3 => digit + 5,
        _ => return None,
    };
    Square::new(index)
}

/// The keypad digit of `square` (inverse of [`keypad_square`]).
pub fn keypad_digit(square: Square) -> u8 {
    let (row, column) = (square.row(), square.column());
    (2 - row) * 3 + column + 1
}

/// The whole interactive state.
#[derive(Clone, Debug)]
pub struct App {
    /// The game in progress.
    pub game: Game,
    /// Who plays, and the thinking delay.
    pub settings: Settings,
    /// The square under the cursor.
    pub cursor: Square,
    /// Whether the move values are shown.
    pub hint: bool,
    /// The running score.
    pub score: Score,
    /// Whether this game's result is already in the score.
    scored: bool,
    /// The selected menu row, when the menu is open.
    pub menu: Option<usize>,
    /// A one-line message for the status bar (errors, "saved", ...).
    pub message: Option<String>,
    /// Set by [`Action::Quit`].
    pub quit: bool,
}

impl App {
    /// A new session.
    pub fn new(settings: Settings) -> App {
        App {
            game: Game::new(),
            settings,
            cursor: Square::CENTRE,
            hint: false,
            score: Score::default(),
            scored: false,
            menu: None,
            message: None,
            quit: false,
        }
    }

    /// The action a key press asks for, if any (key releases and repeats of
    /// non-arrow keys are ignored).
    pub fn action_for(&self, key: KeyEvent) -> Option<Action> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d')) {
            return Some(Action::Quit);
        }
        if self.menu.is_some() {
            return match key.code {
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
        match key.code {
            KeyCode::Up => step(-1, 0),
            KeyCode::Down => step(1, 0),
            KeyCode::Left => step(0, -1),
            KeyCode::Right => step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::PlaceAtCursor),
            KeyCode::Char(c @ '1'..='9') => keypad_square(c as u8 - b'0').map(Action::Place),
            KeyCode::Char('u') => Some(Action::Undo),
            KeyCode::Char('r') => Some(Action::Redo),
            KeyCode::Char('h') | KeyCode::Char('?') => Some(Action::ToggleHint),
            KeyCode::Char('n') => Some(Action::NewGame),
            KeyCode::Char('s') => Some(Action::Save),
            KeyCode::Char('l') => Some(Action::Load),
            KeyCode::Char('m') | KeyCode::Esc => Some(Action::ToggleMenu),
            KeyCode::Char('q') => Some(Action::Quit),
            _ => None,
        }
    }

    /// The engine that must move now, if any (none while the menu is open or the
    /// game is over).
    pub fn engine_to_move(&self) -> Option<Strategy> {
        if self.menu.is_some() || self.game.result().is_some() {
            return None;
        }
        match self.settings.seat(self.game.to_move()) {
            Seat::Engine(strategy) => Some(strategy),
            Seat::Human => None,
        }
    }

    /// Whether the side to move plays from the keyboard.
    fn human_to_move(&self) -> bool {
        self.settings.seat(self.game.to_move()) == Seat::Human
    }

    /// Applies an action and returns the I/O it needs.
    pub fn apply(&mut self, action: Action) -> Effect {
        self.message = None;
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
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::ToggleHint => self.hint = !self.hint,
            Action::NewGame => self.new_game(),
            Action::Save => match serde_json::to_string(&self.game) {
                Ok(text) => return Effect::Save(text),
                Err(e) => self.message = Some(format!("cannot save: {e}")),
            },
            Action::Load => return Effect::Load,
            Action::ToggleMenu => {
                self.menu = match self.menu {
                    Some(_) => None,
                    None => Some(0),
                }
            }
            Action::MenuStep(delta) => {
                if let Some(row) = self.menu {
                    let n = MenuRow::ALL.len() as i8;
                    self.menu = Some((row as i8 + delta).rem_euclid(n) as usize);
                }
            }
            Action::MenuChange(delta) => self.menu_change(delta),
            Action::MenuSelect => match self.menu.map(|row| MenuRow::ALL[row]) {
                Some(MenuRow::NewGame) => {
                    self.menu = None;
                    self.new_game();
                }
                Some(MenuRow::Resume) => self.menu = None,
                Some(_) => self.menu_change(1),
                None => {}
            },
            Action::Quit => self.quit = true,
        }
        Effect::None
    }

    /// The result of writing the save file.
    pub fn saved(&mut self, result: Result<String, String>) {
        self.message = Some(match result {
            Ok(path) => format!("saved to {path}"),
            Err(e) => format!("cannot save: {e}"),
        });
    }

    /// The result of reading the save file: the game is replaced only when the file
    /// holds a valid game.
    pub fn loaded(&mut self, result: Result<String, String>) {
        let parsed = result.and_then(|text| {
            serde_json::from_str::<Game>(&text).map_err(|e| {
                // serde quotes what it rejects: at most a short excerpt of it.
                let e = e.to_string();
                match e.char_indices().nth(120) {
                    Some((end, _)) => format!("not a valid game: {}...", &e[..end]),
                    None => format!("not a valid game: {e}"),
                }
            })
        });
        match parsed {
            Ok(game) => {
                self.game = game;
                self.scored = game.result().is_some();
                self.message = Some("game loaded".to_string());
            }
            Err(e) => self.message = Some(format!("cannot load: {e}")),
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
        match self.game.play(square) {
            Ok(()) => self.record_result(),
            Err(MoveError::Occupied { .. }) => {
                self.message = Some(format!("square {} is taken", keypad_digit(square)))
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    fn record_result(&mut self) {
        if self.scored {
            return;
        }
        if let Some(result) = self.game.result() {
            self.scored = true;
            match result {
                GameResult::Win(Player::X) => self.score.x += 1,
                GameResult::Win(Player::O) => self.score.o += 1,
                GameResult::Draw => self.score.draws += 1,
            }
        }
    }

    fn undo(&mut self) {
        if self.game.undo().is_none() {
            self.message = Some("nothing to undo".to_string());
            return;
        }
        // Against an engine, go back to a position where a human is to move.
        while self.settings.has_human() && !self.human_to_move() && self.game.undo().is_some() {}
    }

    fn redo(&mut self) {
        if self.game.redo().is_none() {
            self.message = Some("nothing to redo".to_string());
            return;
        }
        while self.settings.has_human()
            && !self.human_to_move()
            && self.game.result().is_none()
            && self.game.redo().is_some()
        {}
        self.record_result();
    }

    fn new_game(&mut self) {
        self.game = Game::new();
        self.scored = false;
        self.cursor = Square::CENTRE;
    }

    fn menu_change(&mut self, delta: i8) {
        let Some(row) = self.menu else { return };
        let cycle = |i: usize, n: usize| (i as i64 + delta as i64).rem_euclid(n as i64) as usize;
        match MenuRow::ALL[row] {
            MenuRow::X | MenuRow::O => {
                let player = if MenuRow::ALL[row] == MenuRow::X {
                    Player::X
                } else {
                    Player::O
                };
                let seat = self.settings.seat_mut(player);
                let current = SEAT_CHOICES.iter().position(|s| s == seat);
                // A custom strategy (e.g. perfect:0.15 from the command line) steps to
                // its plain level.
                let index = match (current, *seat) {
                    (Some(i), _) => cycle(i, SEAT_CHOICES.len()),
                    (None, Seat::Engine(s)) => Level::ALL
                        .iter()
                        .position(|&l| l == s.level())
                        .map_or(0, |i| i + 1),
                    (None, Seat::Human) => 0,
                };
                *seat = SEAT_CHOICES[index];
            }
            MenuRow::Delay => {
                let millis = self.settings.delay.as_millis() as u64;
                let current = DELAY_CHOICES
                    .iter()
                    .position(|&d| d >= millis)
                    .unwrap_or(DELAY_CHOICES.len() - 1);
                self.settings.delay =
                    Duration::from_millis(DELAY_CHOICES[cycle(current, DELAY_CHOICES.len())]);
            }
            MenuRow::NewGame | MenuRow::Resume => {}
        }
    }

    /// The one-line status: a message, the result, or whose move it is.
    pub fn status(&self) -> String {
        if let Some(message) = &self.message {
            return message.clone();
        }
        let name = |player: Player| match self.settings.seat(player) {
            Seat::Human if self.settings.x == self.settings.o => format!("{player}"),
            Seat::Human => format!("{player} (you)"),
            Seat::Engine(s) => format!("{player} ({s})"),
        };
        match self.game.result() {
            Some(GameResult::Win(player)) => {
                format!("{} wins! n: new game", name(player))
            }
            Some(GameResult::Draw) => "Draw. n: new game".to_string(),
            None => {
                let player = self.game.to_move();
                match self.settings.seat(player) {
                    Seat::Human => format!("{} to move", name(player)),
                    Seat::Engine(_) => format!("{} is thinking…", name(player)),
                }
            }
        }
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
        Settings {
            x: x.parse().unwrap(),
            o: o.parse().unwrap(),
            delay: Duration::from_millis(400),
        }
    }

    /// Presses keys in order, applying their actions.
    fn press(app: &mut App, keys: &[KeyCode]) {
        for &k in keys {
            if let Some(action) = app.action_for(key(k)) {
                app.apply(action);
            }
        }
    }

    #[test]
    fn keypad_layout() {
        let expected = [
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
        for (digit, index) in expected {
            assert_eq!(keypad_square(digit), Some(sq(index)));
            assert_eq!(keypad_digit(sq(index)), digit);
        }
        assert_eq!(keypad_square(0), None);
        let app = App::new(settings("human", "human"));
        assert_eq!(
            app.action_for(key(KeyCode::Char('7'))),
            Some(Action::Place(sq(0)))
        );
        assert_eq!(
            app.action_for(key(KeyCode::Char('3'))),
            Some(Action::Place(sq(8)))
        );
        assert_eq!(app.action_for(key(KeyCode::Char('0'))), None);
    }

    #[test]
    fn cursor_is_clamped_at_the_edges() {
        let mut app = App::new(settings("human", "human"));
        press(
            &mut app,
            &[
                KeyCode::Up,
                KeyCode::Up,
                KeyCode::Up,
                KeyCode::Left,
                KeyCode::Left,
            ],
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
    fn a_full_game_scores_once() {
        let mut app = App::new(settings("human", "human"));
        // X: 7 8 9 = top row; O: 4 5.
        press(
            &mut app,
            &[
                KeyCode::Char('7'),
                KeyCode::Char('4'),
                KeyCode::Char('8'),
                KeyCode::Char('5'),
                KeyCode::Char('9'),
            ],
        );
        assert_eq!(app.game.result(), Some(GameResult::Win(Player::X)));
        assert_eq!(
            app.score,
            Score {
                x: 1,
                o: 0,
                draws: 0
            }
        );
        assert!(app.status().starts_with("X wins!"));
        press(&mut app, &[KeyCode::Char('1')]);
        assert_eq!(
            app.message.as_deref(),
            Some("the game is over: n for a new game")
        );
        // Undo and redo to the same end does not count twice.
        press(&mut app, &[KeyCode::Char('u'), KeyCode::Char('r')]);
        assert_eq!(app.score.x, 1);
        press(&mut app, &[KeyCode::Char('n')]);
        assert_eq!(app.game.ply(), 0);
        assert_eq!(app.score.x, 1);
    }

    #[test]
    fn the_engine_moves_only_on_its_turn() {
        let mut app = App::new(settings("human", "trap"));
        assert_eq!(app.engine_to_move(), None);
        press(&mut app, &[KeyCode::Char('5')]);
        assert_eq!(app.engine_to_move(), Some(Strategy::new(Level::Trap)));
        assert_eq!(app.status(), "O (trap) is thinking…");
        // The human cannot move for the engine.
        press(&mut app, &[KeyCode::Char('7')]);
        assert_eq!(app.game.ply(), 1);
        app.apply(Action::EngineMove(sq(0)));
        assert_eq!(app.game.ply(), 2);
        // An engine move out of turn is ignored.
        app.apply(Action::EngineMove(sq(8)));
        assert_eq!(app.game.ply(), 2);
        assert_eq!(app.status(), "X (you) to move");
    }

    #[test]
    fn undo_and_redo_skip_the_engine_moves() {
        let mut app = App::new(settings("human", "perfect"));
        press(&mut app, &[KeyCode::Char('5')]);
        app.apply(Action::EngineMove(sq(0)));
        press(&mut app, &[KeyCode::Char('9')]);
        app.apply(Action::EngineMove(sq(6)));
        assert_eq!(app.game.ply(), 4);
        press(&mut app, &[KeyCode::Char('u')]);
        assert_eq!(app.game.ply(), 2);
        press(&mut app, &[KeyCode::Char('u')]);
        assert_eq!(app.game.ply(), 0);
        press(&mut app, &[KeyCode::Char('u')]);
        assert_eq!(app.message.as_deref(), Some("nothing to undo"));
        press(&mut app, &[KeyCode::Char('r')]);
        assert_eq!(app.game.ply(), 2);
        press(&mut app, &[KeyCode::Char('r'), KeyCode::Char('r')]);
        assert_eq!(app.game.ply(), 4);
        assert_eq!(app.message.as_deref(), Some("nothing to redo"));
    }

    #[test]
    fn save_and_load_go_through_effects_and_bad_files_change_nothing() {
        let mut app = App::new(settings("human", "human"));
        press(&mut app, &[KeyCode::Char('5'), KeyCode::Char('7')]);
        let text = match app.apply(Action::Save) {
            Effect::Save(text) => text,
            other => panic!("{other:?}"),
        };
        assert_eq!(text, r#"{"moves":[4,0],"cursor":2}"#);
        app.saved(Ok("game.json".into()));
        assert_eq!(app.message.as_deref(), Some("saved to game.json"));
        let before = app.game;
        assert_eq!(app.apply(Action::Load), Effect::Load);
        app.loaded(Ok(r#"{"moves":[4,4],"cursor":2}"#.into()));
        assert_eq!(app.game, before);
        assert!(app
            .message
            .as_deref()
            .unwrap()
            .starts_with("cannot load: not a valid game"));
        app.loaded(Err("No such file or directory".into()));
        assert_eq!(app.game, before);
        app.loaded(Ok(r#"{"moves":[4,0,8],"cursor":3}"#.into()));
        assert_eq!(app.game.ply(), 3);
        assert_eq!(app.message.as_deref(), Some("game loaded"));
    }

    #[test]
    fn menu_changes_seats_and_delay_and_starts_a_new_game() {
        let mut app = App::new(settings("human", "perfect:0.15"));
        press(&mut app, &[KeyCode::Char('5')]);
        press(&mut app, &[KeyCode::Char('m')]);
        assert_eq!(app.menu, Some(0));
        // The menu pauses the engine.
        assert_eq!(app.engine_to_move(), None);
        // X: human -> random.
        press(&mut app, &[KeyCode::Right]);
        assert_eq!(app.settings.x, "random".parse().unwrap());
        press(&mut app, &[KeyCode::Left]);
        assert_eq!(app.settings.x, Seat::Human);
        // O: perfect:0.15 -> plain perfect -> trap.
        press(&mut app, &[KeyCode::Down, KeyCode::Right]);
        assert_eq!(app.settings.o, "perfect".parse().unwrap());
        press(&mut app, &[KeyCode::Right]);
        assert_eq!(app.settings.o, "trap".parse().unwrap());
        // Delay 0.4 s -> 0.8 s; wraps backwards from 0.
        press(&mut app, &[KeyCode::Down, KeyCode::Right]);
        assert_eq!(app.settings.delay, Duration::from_millis(800));
        // Up from the first row wraps to the last.
        press(&mut app, &[KeyCode::Up, KeyCode::Up, KeyCode::Up]);
        assert_eq!(app.menu, Some(MenuRow::ALL.len() - 1));
        press(&mut app, &[KeyCode::Up, KeyCode::Enter]);
        assert_eq!(app.menu, None);
        assert_eq!(app.game.ply(), 0);
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.menu, Some(0));
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.menu, None);
    }

    #[test]
    fn quit_keys() {
        let app = App::new(settings("human", "human"));
        assert_eq!(app.action_for(key(KeyCode::Char('q'))), Some(Action::Quit));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(app.action_for(ctrl_c), Some(Action::Quit));
        let mut release = key(KeyCode::Enter);
        release.kind = KeyEventKind::Release;
        assert_eq!(app.action_for(release), None);
        assert_eq!(app.action_for(key(KeyCode::Char('x'))), None);
    }

    #[test]
    fn seats_parse() {
        assert_eq!("human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!("Human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!("trap:0.1".parse::<Seat>().unwrap().to_string(), "trap:0.1");
        assert!("robot".parse::<Seat>().is_err());
    }
}
