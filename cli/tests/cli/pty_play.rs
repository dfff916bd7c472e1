//! The full-screen game driven in a pseudo-terminal, as a person sees it (issue 39,
//! "Checks"): the program runs on the slave side of a pty of 40x24 or 80x24 cells
//! (`setsid -c` makes it the program's controlling terminal), keys are written to the
//! master side, and the `vt100` crate, a terminal emulator, turns what the program
//! writes into the screen's cells, which the checks read as text.

use rustix::fs::{Mode, OFlags};
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{tcsetwinsize, Winsize};
use std::fs::File;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A program on a pseudo-terminal and the screen it draws.
struct Pty {
    child: Child,
    master: File,
    screen: Arc<Mutex<vt100::Parser>>,
}

impl Pty {
    /// `tictable ARGS` on a `columns` x `rows` terminal, in `dir`, without colours
    /// (`NO_COLOR=1`).
    fn spawn(args: &[&str], columns: u16, rows: u16, dir: &std::path::Path) -> Pty {
        Pty::start(args, columns, rows, dir, false)
    }

    /// As [`Pty::spawn`], in colour when `color` (no `NO_COLOR`).
    fn start(args: &[&str], columns: u16, rows: u16, dir: &std::path::Path, color: bool) -> Pty {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let slave = rustix::fs::open(
            name.as_c_str(),
            OFlags::RDWR | OFlags::NOCTTY,
            Mode::empty(),
        )
        .unwrap();
        tcsetwinsize(
            &slave,
            Winsize {
                ws_row: rows,
                ws_col: columns,
                ws_xpixel: 0,
                ws_ypixel: 0,
            },
        )
        .unwrap();
        let mut command = Command::new("setsid");
        command.env_remove("NO_COLOR");
        if !color {
            command.env("NO_COLOR", "1");
        }
        let child = command
            .arg("-c")
            .arg(assert_cmd::cargo::cargo_bin("tictable"))
            .args(args)
            .current_dir(dir)
            .env("TERM", "xterm-256color")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave))
            .spawn()
            .unwrap();
        let master = File::from(master);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, columns, 0)));
        let mut reader = master.try_clone().unwrap();
        let parser = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends when the program has exited and the slave side is closed (EIO).
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                parser.lock().unwrap().process(&buf[..n]);
            }
        });
        Pty {
            child,
            master,
            screen,
        }
    }

    /// The screen's text, row by row.
    fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// The screen's cells, row by row: each cell's text (a space when empty) and its
    /// foreground colour; a blank after each row.
    fn cells(&self) -> Vec<(String, vt100::Color)> {
        let parser = self.screen.lock().unwrap();
        let screen = parser.screen();
        let (rows, columns) = screen.size();
        let mut cells = Vec::new();
        for row in 0..rows {
            for column in 0..columns {
                let cell = screen.cell(row, column).unwrap();
                let text = match cell.contents() {
                    "" => " ".to_string(),
                    text => text.to_string(),
                };
                cells.push((text, cell.fgcolor()));
            }
            // The row's end, as a blank.
            cells.push((" ".to_string(), vt100::Color::Default));
        }
        cells
    }

    /// Types `keys` (bytes as a terminal sends them).
    fn keys(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).unwrap();
        self.master.flush().unwrap();
    }

    /// Waits (at most 20 s) until the screen shows what `done` accepts; the screen.
    fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let text = self.text();
            if done(&text) {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited 20 s for {what}; the screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen contains `text`.
    fn wait_for(&self, text: &str) -> String {
        self.wait(text, |screen| screen.contains(text))
    }

    /// Waits until the screen's words (wrapped lines read as one, [`flat`]) contain
    /// `text`.
    fn said(&self, text: &str) -> String {
        self.wait(text, |screen| flat(screen).contains(text))
    }

    /// Types q and waits for the program to end successfully.
    fn quit(self) {
        self.quit_with("q");
    }

    /// Types `keys` and waits for the program to end successfully.
    fn quit_with(mut self, keys: &str) {
        self.keys(keys);
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}; the screen:\n{}", self.text());
                return;
            }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = self.child.kill();
                panic!("did not quit; the screen:\n{}", self.text());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The screen's words joined by single spaces (a message wrapped over lines reads
/// as one).
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The number of moves on the screen's `Played:` line (of its flat text).
fn played(flat: &str) -> usize {
    flat.split("Played: ").nth(1).map_or(0, |rest| {
        rest.split(' ')
            .take_while(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '-'))
            .count()
    })
}

/// `tictable ARGS` (two engines watched) on a `columns` x `rows` screen: the start
/// shown with why, and nothing played until a key; `what` names the run in a failure.
fn watch(args: &[&str], (columns, rows): (u16, u16), what: &str) -> Pty {
    let pty = Pty::spawn(args, columns, rows, &std::env::temp_dir());
    let screen = pty.wait_for("X (perfect) to move");
    assert!(flat(&screen).contains("Why: "), "{what}:\n{screen}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(played(&flat(&pty.text())), 0, "{what}:\n{}", pty.text());
    pty
}

/// Space in a watched game: waits for its `ply`th move; the screen's words
/// ([`flat`]) and what follows "(perfect) plays" (the move and its value).
fn step(pty: &mut Pty, ply: usize, what: &str) -> (String, String) {
    pty.keys(" ");
    let screen = pty.wait(&format!("{what} ply {ply}"), |s| played(&flat(s)) == ply);
    let text = flat(&screen);
    let said = text
        .split(" (perfect) plays ")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (text, said)
}

/// The arrow keys and Esc as a terminal sends them.
const DOWN: &str = "\x1b[B";
const RIGHT: &str = "\x1b[C";
const ESC: &str = "\x1b";

/// In the open menu, with the cursor on `side`'s row, presses → until the row shows
/// `level`.
fn set_seat(pty: &mut Pty, side: &str, level: &str) {
    let row = format!("│ {side} ");
    let shows = |screen: &str| {
        screen
            .lines()
            .any(|line| line.contains(&row) && line.contains(&format!("‹ {level} ")))
    };
    for _ in 0..20 {
        if shows(&pty.text()) {
            return;
        }
        let before = pty.text();
        pty.keys(RIGHT);
        pty.wait("the menu to change", |screen| screen != before);
    }
    panic!("{side} never became {level}:\n{}", pty.text());
}

const SIZES: [(u16, u16); 2] = [(40, 24), (80, 24)];

#[test]
fn the_menu_changed_mid_game_keeps_the_score_and_the_announcement() {
    for (columns, rows) in SIZES {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &[
                "play", "--x", "human", "--o", "human", "--delay", "0", "--seed", "1",
            ],
            columns,
            rows,
            &dir,
        );
        pty.wait_for("X to move");
        // X 1, O 2, X 5, O 9, X 7: O to move, and X threatens 3 and 4.
        for key in ["1", "2", "5", "9", "7"] {
            pty.keys(key);
        }
        pty.wait_for("O to move");
        // The menu, mid-game: O becomes trap (→ on its row until it reads trap),
        // which blocks at 3 as the menu closes.
        pty.keys("m");
        pty.wait_for("Resume");
        pty.keys(DOWN);
        pty.keys(DOWN);
        set_seat(&mut pty, "O", "trap");
        pty.keys(ESC);
        let screen = pty.wait_for("X (you) to move");
        assert!(screen.contains("O: trap"), "{screen}");
        pty.keys("4");
        let screen = pty.wait_for("X (you) wins!");
        assert!(screen.contains("You 1 · engine 0 · draws 0"), "{screen}");
        // O handed back to a person after the end: the game stays the one X (you)
        // won against trap (issue 39 item 9), the score unchanged.
        pty.keys("m");
        pty.wait_for("Resume");
        pty.keys(DOWN);
        pty.keys(DOWN);
        set_seat(&mut pty, "O", "human");
        pty.keys(ESC);
        // (The whole screen redrawn: the status line is written after the seats.)
        let screen = pty.wait("the menu closed", |s| {
            !s.contains("Resume") && s.contains("O: human") && s.contains(" wins!")
        });
        assert!(screen.contains("X (you) wins!"), "{screen}");
        assert!(screen.contains("You 1 · engine 0 · draws 0"), "{screen}");
        // A file that does not exist: said at once, nothing asked, the game kept.
        pty.keys("l");
        pty.wait_for(".json");
        pty.keys("no-such-save.json\r");
        let screen = pty.wait_for("(os error 2)");
        assert!(
            flat(&screen).contains("cannot load: no-such-save.json: No such file or directory"),
            "{screen}"
        );
        assert!(!screen.contains("discard"), "{screen}");
        assert!(screen.contains("You 1 · engine 0 · draws 0"), "{screen}");
        pty.quit();
    }
}

#[test]
fn hexapawn_is_played_to_the_end_with_two_key_pawn_moves() {
    for (columns, rows) in SIZES {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &[
                "play", "--game", "hexapawn", "--o", "perfect", "--delay", "0", "--seed", "3",
            ],
            columns,
            rows,
            &dir,
        );
        let screen = pty.wait_for("White (you) to move");
        assert!(screen.contains("W W W   7 8 9"), "{screen}");
        pty.keys("h");
        let mut moves = 0;
        loop {
            let screen = pty.wait("White to move or the end", |s| {
                flat(s).contains("Game over")
                    || (s.contains("White (you) to move") && s.contains("Moves: "))
            });
            let text = flat(&screen);
            if text.contains("Game over") {
                // Gardner: Black wins hexapawn; perfect Black beats any White.
                assert!(
                    text.contains("Game over: Black (perfect) wins."),
                    "{screen}"
                );
                break;
            }
            // The best move by the hints, typed as two keys: from, then to (the `-`
            // comes by itself).
            let best = text
                .split("Moves: ")
                .nth(1)
                .and_then(|m| m.split(' ').next())
                .unwrap();
            let (from, to) = best.split_once('-').unwrap();
            pty.keys(from);
            pty.wait_for(&format!("Move: {from}-_"));
            let before = pty.text();
            pty.keys(to);
            pty.wait("the move played", |s| s != before && !s.contains("Move: "));
            moves += 1;
            assert!(moves < 10, "{screen}");
        }
        pty.quit();
    }
}

#[test]
fn watch_steps_through_perfect_play_a_move_per_key() {
    for (columns, rows) in SIZES {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &[
                "play", "--game", "hexapawn", "--x", "perfect", "--o", "perfect", "--delay", "0",
                "--seed", "5",
            ],
            columns,
            rows,
            &dir,
        );
        // Nothing moves until a key: the start, with every move's value and why.
        let screen = pty.wait_for("White (perfect) to move");
        assert!(
            flat(&screen).contains("Why: 8-5 loses in 6; 7-4, 9-6 lose in 4."),
            "{screen}"
        );
        std::thread::sleep(Duration::from_millis(300));
        assert!(pty.text().contains("W W W"), "{}", pty.text());
        // Perfect play: White delays 6 plies, each step one move, its value said.
        pty.keys(" ");
        let screen = pty.wait_for("White (perfect) plays 8-5: loss in 6");
        assert!(screen.contains("Black (perfect) to move"), "{screen}");
        // u takes it back; then the whole game, a key a move.
        pty.keys("u");
        pty.wait_for("White (perfect) to move");
        for ply in 1..=6 {
            let before = pty.text();
            pty.keys(" ");
            pty.wait(&format!("ply {ply}"), |s| s != before);
        }
        let screen = pty.wait_for("Game over");
        assert!(
            flat(&screen).contains("Game over: Black (perfect) wins."),
            "{screen}"
        );
        pty.quit();
    }
}

#[test]
fn watch_steps_through_the_large_boards_from_the_live_search() {
    // Connect Four 6x4 (lost for X in 24, Tromp) and 5x5 (a draw) searched live: nothing
    // moves until a key, then a move per key, each said with its value and why.
    for (game, first, columns) in [
        ("connect4:6x4", "loss in 24", 80),
        ("connect4:5x5", "draw", 40),
    ] {
        let mut pty = watch(
            &[
                "play", "--game", game, "--x", "perfect", "--o", "perfect", "--delay", "0",
                "--seed", "4",
            ],
            (columns, 24),
            game,
        );
        for ply in 1..=6 {
            let (text, said) = step(&mut pty, ply, game);
            if ply == 1 {
                assert!(said.contains(&format!(": {first}")), "{game}:\n{text}");
            }
            assert!(text.contains("Why: "), "{game} ply {ply}:\n{text}");
        }
        // u takes a move back.
        pty.keys("u");
        pty.wait(&format!("{game} back"), |s| played(&flat(s)) == 5);
        // A game in progress, not saved: q asks, q again quits.
        pty.quit_with("qq");
    }
}

#[test]
fn watch_steps_through_perfect_tic_tac_toe_a_move_per_key() {
    for (columns, rows) in SIZES {
        // Watched as every game is: nothing moves until a key, then a move per key,
        // each keeping the draw (tic-tac-toe's value), said with why.
        let mut pty = watch(
            &[
                "play",
                "--game",
                "tictactoe",
                "--x",
                "perfect",
                "--o",
                "perfect",
                "--delay",
                "0",
                "--seed",
                "2",
            ],
            (columns, rows),
            "tictactoe",
        );
        for ply in 1..=9 {
            let (text, said) = step(&mut pty, ply, "tictactoe");
            assert!(said.contains(": draw"), "ply {ply}:\n{text}");
        }
        let screen = pty.wait_for("Game over");
        assert!(flat(&screen).contains("Game over: a draw."), "{screen}");
        pty.quit();
    }
}

/// The runs of cells in one of the value colours (ANSI red 1, green 2, yellow 3),
/// each with its text (spaces and row ends inside a run kept as one space) and colour:
/// a run ends at a cell of another colour that is not blank.
fn value_runs(cells: &[(String, vt100::Color)]) -> Vec<(String, u8)> {
    let mut runs: Vec<(String, u8)> = Vec::new();
    let mut open = false;
    for (text, color) in cells {
        match color {
            vt100::Color::Idx(c @ 1..=3) => {
                match runs.last_mut() {
                    Some((run, last)) if open && last == c => run.push_str(text),
                    _ => runs.push((text.clone(), *c)),
                }
                open = true;
            }
            _ if text.trim().is_empty() => {
                if let (true, Some((run, _))) = (open, runs.last_mut()) {
                    run.push(' ');
                }
            }
            _ => open = false,
        }
    }
    runs.into_iter().map(|(text, c)| (flat(&text), c)).collect()
}

#[test]
fn every_games_hints_are_coloured_by_value_and_say_it() {
    let dir = std::env::temp_dir();
    let mut seen = [false; 3];
    for game in [
        "misere",
        "mnk:4,3,3",
        "connect4:4x4",
        "connect4:6x4",
        "hexapawn",
        "three-mens-morris",
        "tapatan",
        "achi",
    ] {
        for (columns, rows) in SIZES {
            let at = format!("{game} at {columns}x{rows}");
            for color in [true, false] {
                let mut pty = Pty::start(
                    &["play", "--game", game, "--delay", "0", "--seed", "2"],
                    columns,
                    rows,
                    &dir,
                    color,
                );
                pty.wait_for("to move");
                pty.keys("h");
                pty.wait(&format!("{at}: hints"), |s| flat(s).contains("Moves: "));
                // The whole frame drawn: the screen unchanged for 200 ms.
                let mut screen = pty.text();
                loop {
                    std::thread::sleep(Duration::from_millis(200));
                    let now = pty.text();
                    if now == screen {
                        break;
                    }
                    screen = now;
                }
                // The hints: from `Moves: ` to the legend (`u undo · ...`).
                let text = flat(&screen);
                let hints: Vec<String> = text
                    .split("Moves: ")
                    .nth(1)
                    .and_then(|rest| rest.split(" u undo ·").next())
                    .unwrap()
                    .split(", ")
                    .map(String::from)
                    .collect();
                let runs = value_runs(&pty.cells());
                if !color {
                    assert!(runs.is_empty(), "{at} NO_COLOR: {runs:?}\n{screen}");
                    pty.quit();
                    continue;
                }
                let said: Vec<String> = runs.iter().map(|(text, _)| text.clone()).collect();
                assert_eq!(said, hints, "{at}: each hint in one colour\n{screen}");
                for (text, c) in &runs {
                    // The text says the value; the colour is the value's.
                    let value = text.split(' ').nth(1).unwrap();
                    let expected = match value {
                        "loss" => 1,
                        "win" => 2,
                        "draw" => 3,
                        _ => panic!("{at}: {text}"),
                    };
                    assert_eq!(*c, expected, "{at}: {text}\n{screen}");
                    seen[usize::from(expected - 1)] = true;
                }
                pty.quit();
            }
        }
    }
    assert_eq!(seen, [true; 3], "loss, win and draw each seen");
}

#[test]
fn every_game_fits_40x24_move_after_move() {
    for game in [
        "misere",
        "mnk:4,3,3",
        "connect4:4x4",
        // Searched live (hints, values and the engine from the search).
        "connect4:6x4",
        "connect4:5x5",
        "three-mens-morris",
        "tapatan",
        "achi",
    ] {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &["play", "--game", game, "--delay", "0", "--seed", "2"],
            40,
            24,
            &dir,
        );
        pty.wait_for("X (you) to move");
        pty.keys("h");
        // Up to 8 of the person's moves (the morris games, drawn, go on forever): the
        // best by the hints, typed key by key (Enter when a longer move starts the
        // same); the legend and the notation stay on the screen.
        for _ in 0..8 {
            let screen = pty.wait("X to move or the end", |s| {
                flat(s).contains("Game over")
                    || (s.contains("X (you) to move") && s.contains("Moves: "))
            });
            for must in ["q quit", "Moves are"] {
                assert!(screen.contains(must), "{game}: {must}:\n{screen}");
            }
            let text = flat(&screen);
            if text.contains("Game over") {
                break;
            }
            let best = text
                .split("Moves: ")
                .nth(1)
                .and_then(|m| m.split(' ').next())
                .unwrap();
            let so_far = played(&text);
            let before = pty.text();
            for key in best.chars().filter(|&c| c != '-') {
                pty.keys(&key.to_string());
            }
            pty.wait(&format!("{game}: {best} typed"), |s| s != before);
            std::thread::sleep(Duration::from_millis(50));
            if pty.text().contains("Move: ") {
                pty.keys("\r");
            }
            // The person's move and the engine's answer, or the end.
            pty.wait(&format!("{game}: {best} played"), |s| {
                let s = flat(s);
                s.contains("Game over") || played(&s) == so_far + 2
            });
        }
        if std::env::var_os("SHOW_SCREEN").is_some() {
            println!("{}", pty.text());
        }
        // A game still in progress (a large board after 8 moves) asks a second q.
        let over = flat(&pty.text()).contains("Game over");
        pty.quit_with(if over { "q" } else { "qq" });
    }
}

#[test]
fn a_mistake_is_refuted_on_the_board_then_the_game_returns() {
    for (columns, rows) in SIZES {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &[
                "play",
                "--game",
                "hexapawn",
                "--delay",
                "0",
                "--seed",
                "1",
                "--file",
                "no-such-save.json",
            ],
            columns,
            rows,
            &dir,
        );
        pty.wait_for("White (you) to move");
        // A file that does not exist: said whole, the game kept.
        pty.keys("l");
        let screen = pty.wait_for("(os error 2)");
        assert!(
            flat(&screen)
                .contains("Not loaded: no-such-save.json: No such file or directory (os error 2)")
                && screen.contains("White (you) to move"),
            "{columns}x{rows}:\n{screen}"
        );
        // 7-4 loses in 4 where 8-5 holds out for 6.
        pty.keys("74");
        pty.wait_for("Black (perfect) plays");
        pty.keys("w");
        let screen = pty.wait_for("refutation 0/3");
        assert!(
            flat(&screen).contains("7-4 loses in 4 is a mistake where 8-5 loses in 6."),
            "{screen}"
        );
        // The board after the mistake, then a ply per key to Black's win.
        assert!(screen.contains("W 5 6   4 5 6"), "{screen}");
        for ply in 1..=3 {
            pty.keys(" ");
            pty.wait_for(&format!("refutation {ply}/3"));
        }
        let screen = pty.text();
        assert!(screen.contains("B 8 W   7 8 9"), "{screen}");
        // Any other key: the game as it was, White to move.
        pty.keys("x");
        let screen = pty.wait_for("Back to the game.");
        assert!(
            screen.contains("White (you) to move") && !screen.contains("refutation"),
            "{screen}"
        );
        // q mid-game, not saved: asked first; the second q quits.
        pty.keys("q");
        let screen = pty.wait_for("q again quits");
        assert!(pty.child.try_wait().unwrap().is_none(), "{screen}");
        pty.quit();
    }
}

/// `tictable puzzle ARGS --json`: the puzzle's position and answer (the same seed
/// serves the same puzzle full-screen).
fn puzzle_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(assert_cmd::cargo::cargo_bin("tictable"))
        .arg("puzzle")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The top row of a grid game's board as the full-screen game draws it (`look.rs`):
/// each cell its piece or, empty, its number from 1, right-aligned to the widest.
fn grid_top_row(position: &str, cells: usize) -> String {
    let width = cells.to_string().len();
    let top = position.split('/').next().unwrap();
    let row: Vec<String> = top
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            'X' | 'O' => format!(" {c:>width$} "),
            _ => format!(" {:>width$} ", i + 1),
        })
        .collect();
    row.join("│").trim_end().to_string()
}

/// Types `mv` (people's notation) key by key in the full-screen puzzle, Enter when a
/// longer move starts the same.
fn type_move(pty: &mut Pty, mv: &str) {
    let before = pty.text();
    for key in mv.chars().filter(|&c| c != '-') {
        pty.keys(&key.to_string());
    }
    pty.wait(&format!("{mv} typed"), |s| s != before);
    std::thread::sleep(Duration::from_millis(50));
    if pty.text().contains("Move: ") {
        pty.keys("\r");
    }
}

/// The full-screen puzzle of `id` (`args`: the game, remoteness and seed) at 40x24 and
/// 80x24: the board drawn, "win in N", the hint naming the answer, a wrong move failed
/// as the table judges it (a drawing one when there is one), then, started again on
/// the same puzzle, the answer solved; every message whole on the screen.
fn a_puzzle_full_screen<G: tictable_games::Game>(
    solution: &tictable_games::Solution<G>,
    args: &[&str],
) {
    use tictable_games::{Notation, Outcome};
    let game = solution.game();
    let json = puzzle_json(args);
    let id = json["game"].as_str().unwrap();
    let (position, answer) = super::cli_puzzle::position_and_answer(game, &json);
    let people = game.write_move(answer, Notation::People);
    let remoteness = json["remoteness"].as_u64().unwrap();
    let mover = game.to_move(&position).char();
    // The table's own judgement of a wrong move: the first that draws, else the first.
    let mut moves = Vec::new();
    game.moves(&position, &mut moves);
    let wrong_moves: Vec<_> = moves.iter().copied().filter(|&m| m != answer).collect();
    let outcome = |m: G::Move| solution.get(&game.play(&position, m)).unwrap();
    let wrong = wrong_moves
        .iter()
        .copied()
        .find(|&m| outcome(m).outcome == Outcome::Draw)
        .unwrap_or(wrong_moves[0]);
    let child = outcome(wrong);
    // What it leads to for the mover, the move counted (the one wording of a mistake).
    let expected = match child.outcome {
        Outcome::Draw => "draws".to_string(),
        Outcome::Win => format!("loses in {}", child.remoteness + 1),
        Outcome::Loss => format!("wins in {}", child.remoteness + 1),
    };
    let wrong = game.write_move(wrong, Notation::People);
    let board = game.write_position(&position, Notation::People);
    let cells = board.split(' ').next().unwrap().replace('/', "").len();
    let top = grid_top_row(&board, cells);
    let mut full = vec!["puzzle"];
    full.extend(args);
    let dir = std::env::temp_dir();
    for (columns, rows) in SIZES {
        let mut pty = Pty::spawn(&full, columns, rows, &dir);
        let screen = pty.wait_for(&format!("{id} · puzzle 1"));
        let text = flat(&screen);
        assert!(
            screen.contains(&top),
            "{top:?} at {columns}x{rows}:\n{screen}"
        );
        assert!(
            text.contains(&format!(
                "{mover} to move: win in {remoteness} ({remoteness} plies"
            )),
            "{screen}"
        );
        // The hint: half the moves, the answer among them.
        pty.keys("h");
        let screen = pty.wait_for("Hint: the move is one of");
        let hint = flat(&screen);
        let hint = hint
            .split("Hint: the move is one of ")
            .nth(1)
            .and_then(|h| h.split('.').next())
            .unwrap();
        assert!(
            hint.split(", ").any(|m| m == people),
            "{people} not in the hint {hint}:\n{screen}"
        );
        type_move(&mut pty, &wrong);
        let screen = pty.wait_for("failed 1");
        let said =
            format!("Not it: {wrong} {expected} is a mistake where {people} wins in {remoteness}.");
        for must in [said.as_str(), "Solved 0 · failed 1", "q quit", "Moves are"] {
            assert!(
                flat(&screen).contains(must),
                "{must} at {columns}x{rows}:\n{screen}"
            );
        }
        // The same puzzle again: the answer solves it; n serves the next.
        drop(pty);
        let mut pty = Pty::spawn(&full, columns, rows, &dir);
        pty.wait_for(&format!("{id} · puzzle 1"));
        type_move(&mut pty, &people);
        let screen = pty.wait_for("Solved 1 · failed 0");
        let said = format!(
            "Solved: {people} keeps the win; {mover} wins in {remoteness} plies with best play."
        );
        assert!(flat(&screen).contains(&said), "{said}:\n{screen}");
        pty.keys("n");
        let screen = pty.wait_for(&format!("{id} · puzzle 2"));
        assert!(
            flat(&screen).contains(&format!("to move: win in {remoteness} (")),
            "{screen}"
        );
        if std::env::var_os("SHOW_SCREEN").is_some() {
            println!("{screen}");
        }
        pty.quit();
    }
}

#[test]
fn a_puzzle_solved_failed_and_hinted_full_screen() {
    let tictactoe = tictable_games::solve(tictable_games::TicTacToe::normal()).unwrap();
    a_puzzle_full_screen(&tictactoe, &["--remoteness", "3", "--seed", "7"]);
    let tictable_games::catalog::AnyGame::Mnk(mnk) =
        tictable_games::catalog::parse("mnk:4,3,3").unwrap()
    else {
        unreachable!()
    };
    let mnk = tictable_games::solve(mnk).unwrap();
    a_puzzle_full_screen(
        &mnk,
        &["--game", "mnk:4,3,3", "--remoteness", "5", "--seed", "4"],
    );
    // --plain in a terminal keeps the line dialogue.
    let mut pty = Pty::spawn(&["puzzle", "--plain"], 80, 24, &std::env::temp_dir());
    pty.wait_for("`hint` or `answer`:");
    pty.keys("answer\n");
    let start = Instant::now();
    while pty.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "{}", pty.text());
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert!(pty.text().contains("The move was "), "{}", pty.text());
}

/// The estimate of the person's ε that the screen shows ("you play like ε ≈ E").
fn estimate(screen: &str) -> Option<String> {
    let text = flat(screen);
    let (_, rest) = text.split_once("you play like ε ≈ ")?;
    Some(
        rest.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect(),
    )
}

/// `tictable ARGS` at `columns` x `rows`: the estimate shown on the person's turn
/// (`turn`), the prior's 0.5 at first, then after the person's move `key` (the
/// program and the new estimate).
fn estimate_after(args: &[&str], (columns, rows): (u16, u16), turn: &str, key: &str) -> (Pty, f64) {
    let mut pty = Pty::spawn(args, columns, rows, &std::env::temp_dir());
    let screen = pty.wait_for(turn);
    assert_eq!(
        estimate(&screen).as_deref(),
        Some("0.5"),
        "{columns}x{rows}:\n{screen}"
    );
    pty.keys(key);
    let screen = pty.wait("the estimate after the move", |s| {
        s.contains(turn) && estimate(s).is_some_and(|e| e != "0.5")
    });
    let e = estimate(&screen).unwrap().parse().unwrap();
    (pty, e)
}

#[test]
fn adaptive_shows_its_estimate_of_the_person_full_screen() {
    for size in SIZES {
        // Tic-tac-toe's own full-screen game: adaptive X opens in a corner (seed 1),
        // where the centre is O's only move that does not lose; playing it lowers the
        // estimate from the prior's 0.5.
        let args = [
            "play", "--x", "adaptive", "--o", "human", "--delay", "0", "--seed", "1",
        ];
        let (mut pty, e) = estimate_after(&args, size, "O (you) to move", "5");
        assert!(e < 0.5, "{size:?}: {e}\n{}", pty.text());
        pty.keys("q");
        pty.wait_for("(y/n)");
        pty.quit_with("y");
        // Another game (`--game`): a mistake raises it (in mnk:4,3,3 the first move
        // 5 gives X's win away).
        let args = [
            "play",
            "--game",
            "mnk:4,3,3",
            "--o",
            "adaptive",
            "--delay",
            "0",
            "--seed",
            "1",
        ];
        let (mut pty, e) = estimate_after(&args, size, "X (you) to move", "5");
        assert!(e > 0.5, "{size:?}: {e}\n{}", pty.text());
        pty.keys("q");
        pty.wait_for("q again quits");
        pty.quit();
    }
}

#[test]
fn a_tic_tac_toe_mistake_is_refuted_on_the_board_then_the_game_returns() {
    for (columns, rows) in SIZES {
        let dir = std::env::temp_dir();
        let mut pty = Pty::spawn(
            &["play", "--x", "human", "--o", "human", "--delay", "0"],
            columns,
            rows,
            &dir,
        );
        pty.wait_for("X to move");
        // X 1, O 2: an edge against a corner loses; the centre was O's only draw.
        pty.keys("1");
        pty.wait_for("O to move");
        pty.keys("2");
        pty.wait_for("X to move");
        pty.keys("w");
        let screen = pty.wait_for("Refutation 0/5");
        assert!(
            flat(&screen).contains("2 loses in 6 is a mistake where 5 keeps the draw."),
            "{columns}x{rows}:\n{screen}"
        );
        for ply in 1..=5 {
            pty.keys(" ");
            pty.wait_for(&format!("Refutation {ply}/5"));
        }
        // The line's end on the board: X's row of three (the middle row, the best
        // moves taken lowest square first).
        let screen = pty.text();
        assert!(
            screen
                .lines()
                .any(|l| l.contains('│') && l.matches('X').count() == 3),
            "{columns}x{rows}:\n{screen}"
        );
        pty.keys("x");
        let screen = pty.wait_for("Back to the game.");
        // The game as it was: X 1, O 2, nothing else on the board.
        assert!(!screen.contains("Refutation"), "{screen}");
        let pieces: usize = screen
            .lines()
            .filter(|l| l.contains('│'))
            .map(|l| l.matches(['X', 'O']).count())
            .sum();
        assert_eq!(pieces, 2, "{columns}x{rows}:\n{screen}");
        pty.keys("q");
        pty.wait_for("(y/n)");
        pty.quit_with("y");
    }
}

/// Issue 39 item 11 on the other games: `l` reads and checks the file before it asks
/// (a missing file or another game's save is said at once, the game kept), asks only
/// when the load can succeed, and `n` asks too while a game in progress is not saved.
#[test]
fn load_and_new_game_check_first_then_ask_on_every_game() {
    for (game, first, save, other) in [
        (
            "misere",
            "5",
            r#"{"game":"misere","moves":["0"],"cursor":1}"#,
            "tictactoe",
        ),
        (
            "connect4:6x4",
            "3",
            r#"{"game":"connect4:6x4","moves":["0"],"cursor":1}"#,
            "connect4:4x4",
        ),
    ] {
        for (columns, rows) in SIZES {
            let at = format!("{game} at {columns}x{rows}");
            let dir = std::env::temp_dir().join(format!(
                "tictable-pty-load-{}-{columns}",
                game.replace(':', "-")
            ));
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join("g.json");
            let _ = std::fs::remove_file(&file);
            let mut pty = Pty::spawn(
                &["play", "--game", game, "--delay", "0", "--file", "g.json"],
                columns,
                rows,
                &dir,
            );
            pty.wait_for("X (you) to move");
            pty.keys(first);
            pty.wait(&format!("{at}: 2 played"), |s| played(&flat(s)) == 2);
            // A missing file: said whole at once, nothing asked, the game kept.
            pty.keys("l");
            let screen = pty.said("(os error 2)");
            let text = flat(&screen);
            assert!(
                text.contains("Not loaded: g.json: No such file or directory (os error 2)")
                    && !text.contains("not saved")
                    && played(&text) == 2,
                "{at}:\n{screen}"
            );
            // Another game's save: refused at once, the game kept.
            let saved_other = format!(r#"{{"game":"{other}","moves":[],"cursor":0}}"#);
            std::fs::write(&file, saved_other).unwrap();
            pty.keys("l");
            let screen = pty.said(&format!("a saved game of {other}"));
            let text = flat(&screen);
            assert!(
                !text.contains("not saved") && played(&text) == 2,
                "{at}:\n{screen}"
            );
            // A save of this game: asked first (the game kept), loaded on a second l.
            std::fs::write(&file, save).unwrap();
            pty.keys("l");
            let screen = pty.said("l again loads g.json");
            assert_eq!(played(&flat(&screen)), 2, "{at}:\n{screen}");
            pty.keys("l");
            // One move loaded ("Loaded g.json.", then the engine's answer says its move).
            let screen = pty.wait(&format!("{at}: the engine after the load"), |s| {
                flat(s).contains("Played: 1 ") && played(&flat(s)) == 2
            });
            assert!(flat(&screen).contains("Played: 1 "), "{at}:\n{screen}");
            // n on a game in progress not saved: asked first, then a new game.
            pty.keys("n");
            let screen = pty.said("n again starts a new game");
            assert_eq!(played(&flat(&screen)), 2, "{at}:\n{screen}");
            pty.keys("n");
            pty.wait(&format!("{at}: new game"), |s| {
                !s.contains("Played: ") && s.contains("X (you) to move")
            });
            // A new game not played yet is left at once.
            pty.quit();
        }
    }
}

/// Issue 39 items 13-15 on the other games: a long `--file` whose save fails is said
/// whole with the legend kept (40x24 and 80x24); two engines played on by `a` go to
/// the end of the game and stop there, announced; a finished game quits at once.
#[test]
fn a_long_file_name_and_the_watched_game_end_on_every_game() {
    let dir = std::env::temp_dir();
    let long = format!("no-such-dir-{}/g.json", "a".repeat(170));
    for (game, first) in [("misere", "5"), ("connect4:6x4", "3")] {
        for (columns, rows) in SIZES {
            let at = format!("{game} at {columns}x{rows}");
            let mut pty = Pty::spawn(
                &["play", "--game", game, "--delay", "0", "--file", &long],
                columns,
                rows,
                &dir,
            );
            pty.wait_for("X (you) to move");
            pty.keys(first);
            pty.wait(&format!("{at}: 2 played"), |s| played(&flat(s)) == 2);
            pty.keys("s");
            let whole = format!("Not saved: {long}: No such file or directory (os error 2)");
            let bare = |s: &str| s.split_whitespace().collect::<String>();
            let screen = pty.wait(&format!("{at}: the error whole"), |s| {
                bare(s).contains(&bare(&whole))
            });
            for must in ["q quit", "Moves are"] {
                assert!(screen.contains(must), "{at}: {must}:\n{screen}");
            }
            pty.quit_with("qq");
            // Two engines, played on by a: to the end, announced, then stopped.
            let mut pty = Pty::spawn(
                &[
                    "play", "--game", game, "--x", "perfect", "--o", "perfect", "--delay", "0",
                ],
                columns,
                rows,
                &dir,
            );
            pty.wait_for("Space next");
            pty.keys("a");
            let screen = pty.said("Game over: ");
            let moves = played(&flat(&screen));
            std::thread::sleep(Duration::from_millis(300));
            let screen = pty.text();
            assert_eq!(played(&flat(&screen)), moves, "{at}:\n{screen}");
            assert!(flat(&screen).contains("Game over: "), "{at}:\n{screen}");
            // Finished: q leaves at once.
            pty.quit();
        }
    }
}
