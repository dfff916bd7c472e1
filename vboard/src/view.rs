//! Watching the image play, in a terminal: the board as a person sees it (pieces
//! on squares 1-9 as X and O, pieces lying off the squares with where they lie),
//! the head's position, lift and magnet, the lights, the buttons pressed, the
//! session's log and the virtual time, redrawn with plain ANSI escapes; paced at
//! real time or `speed` times faster (0: as fast as it runs). When the output is
//! not a terminal, it prints a line each time what a person sees changes (the
//! head's position aside) and the log's lines as they come.

use crate::session::{Observer, Session};
use std::io::{self, Write};
use std::time::{Duration, Instant};
use tictable::Square;
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::world::World;
use tictable_machine::Colour;

/// The log lines a frame shows.
const LOG_LINES: usize = 10;
/// The shortest time between two frames on a terminal.
const FRAME_EVERY: Duration = Duration::from_millis(50);

/// What a person at the table sees at a moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The virtual time, ms.
    pub ms: u32,
    /// The piece on each square (index 0-8), as a person sees it.
    pub squares: [Option<Colour>; 9],
    /// Pieces on neither a square nor a storage slot, nor on the magnet, and
    /// where they lie (mm).
    pub off: Vec<(Colour, f64, f64)>,
    /// The head, mm.
    pub head_mm: (f64, f64),
    /// The lift lowered.
    pub lowered: bool,
    /// The magnet on.
    pub magnet: bool,
    /// The piece on the magnet.
    pub held: Option<Colour>,
    /// The lights.
    pub lights: [bool; 7],
    /// The buttons pressed, in `Button::ALL` order.
    pub buttons: [bool; 5],
}

/// A piece's letter: X for black (the first player), O for white.
fn letter(c: Colour) -> char {
    match c {
        Colour::Black => 'X',
        Colour::White => 'O',
    }
}

impl Snapshot {
    /// What a person sees of `w` at `ms`.
    pub fn of(w: &World, ms: u32) -> Snapshot {
        let squares = Square::ALL.map(|s| w.piece_seen_on(s).map(|i| w.pieces[i].colour));
        let off = (0..w.pieces.len())
            .filter(|&i| w.head.held != Some(i))
            .filter(|&i| !w.in_storage(&w.pieces[i]))
            .filter(|&i| !Square::ALL.iter().any(|&s| w.piece_seen_on(s) == Some(i)))
            .map(|i| {
                let p = w.pieces[i];
                (p.colour, mm(p.at.x), mm(p.at.y))
            })
            .collect();
        let head = w.head_um();
        Snapshot {
            ms,
            squares,
            off,
            head_mm: (mm(head.x), mm(head.y)),
            lowered: w.head.lowered,
            magnet: w.head.magnet,
            held: w.head.held.map(|i| w.pieces[i].colour),
            lights: w.lights,
            buttons: w.buttons,
        }
    }

    /// The board's three rows, squares numbered 1-9 where empty.
    fn rows(&self) -> [String; 3] {
        core::array::from_fn(|r| {
            (0..3)
                .map(|c| {
                    let i = r * 3 + c;
                    match self.squares[i] {
                        Some(col) => format!(" {} ", letter(col)),
                        None => format!(" {} ", i + 1),
                    }
                })
                .collect::<Vec<_>>()
                .join("|")
        })
    }

    fn head(&self) -> String {
        format!(
            "head ({:.1}, {:.1}) mm, lift {}, magnet {}{}",
            self.head_mm.0,
            self.head_mm.1,
            if self.lowered { "down" } else { "up" },
            if self.magnet { "on" } else { "off" },
            self.held
                .map(|c| format!(", holding {}", letter(c)))
                .unwrap_or_default()
        )
    }

    fn lights_text(&self) -> String {
        Light::ALL
            .iter()
            .map(|&l| {
                let on = if self.lights[l.index()] { '#' } else { ' ' };
                format!("[{on}] {l:?}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn buttons_text(&self) -> String {
        let down: Vec<_> = Button::ALL
            .iter()
            .filter(|b| self.buttons[b.index()])
            .map(|b| format!("{b:?}"))
            .collect();
        if down.is_empty() {
            "none".into()
        } else {
            down.join(", ")
        }
    }

    fn off_text(&self) -> String {
        if self.off.is_empty() {
            return "none".into();
        }
        self.off
            .iter()
            .map(|&(c, x, y)| format!("{} at ({x:.1}, {y:.1}) mm", letter(c)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A frame: a title, the time, the board beside the head, lights and buttons,
    /// the pieces off the squares, then `log`'s last lines.
    pub fn frame(&self, title: &str, log: &[String]) -> String {
        let rows = self.rows();
        let sep = "---+---+---".to_string();
        let left = [&rows[0], &sep, &rows[1], &sep, &rows[2]];
        let right = [
            self.head(),
            format!("lights  {}", self.lights_text()),
            format!("buttons {}", self.buttons_text()),
            format!("off the squares: {}", self.off_text()),
            String::new(),
        ];
        let mut out = format!("{title}   t = {:.3} s (virtual)\n\n", secs(self.ms));
        for (l, r) in left.iter().zip(&right) {
            out += format!("  {l}   {r}").trim_end();
            out.push('\n');
        }
        out += "\nlog:\n";
        for l in &log[log.len().saturating_sub(LOG_LINES)..] {
            out += &format!("  {}\n", l.trim_start());
        }
        out
    }

    /// One line: time, the board (rows left to right, top to bottom, `.`
    /// empty), head, lights lit, buttons pressed, pieces off the squares.
    pub fn line(&self) -> String {
        let board: String = self.squares.iter().map(|s| s.map_or('.', letter)).collect();
        let lit: Vec<_> = Light::ALL
            .iter()
            .filter(|l| self.lights[l.index()])
            .map(|l| format!("{l:?}"))
            .collect();
        format!(
            "{:10.3} s  {} {} {}  {}  lights: {}  buttons: {}  off: {}",
            secs(self.ms),
            &board[0..3],
            &board[3..6],
            &board[6..9],
            self.head(),
            if lit.is_empty() {
                "none".into()
            } else {
                lit.join(", ")
            },
            self.buttons_text(),
            self.off_text()
        )
    }

    /// What a line is printed for: the snapshot without the time and the
    /// head's position (the lift, the magnet and what it holds count).
    fn seen(&self) -> Snapshot {
        Snapshot {
            ms: 0,
            head_mm: (0.0, 0.0),
            off: self
                .off
                .iter()
                .map(|&(c, x, y)| (c, x.round(), y.round()))
                .collect(),
            ..self.clone()
        }
    }
}

fn mm(um: i32) -> f64 {
    f64::from(um) / 1000.0
}

fn secs(ms: u32) -> f64 {
    f64::from(ms) / 1000.0
}

/// How the view draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Redraws a frame in place (a terminal).
    Frames,
    /// Prints a line at each change (a pipe, a file).
    Lines,
}

/// The terminal view: an [`Observer`].
pub struct View<W: Write> {
    out: W,
    mode: Mode,
    speed: f64,
    title: String,
    start: Option<(Instant, u32)>,
    last_frame: Option<Instant>,
    log_seen: usize,
    seen: Option<Snapshot>,
    /// The first write error (the view stops drawing there).
    pub error: Option<io::Error>,
}

impl<W: Write> View<W> {
    /// A view of the scenario `title` into `out`, drawn as `mode` says, at
    /// `speed` times real time (0: as fast as it runs).
    pub fn new(out: W, mode: Mode, speed: f64, title: &str) -> View<W> {
        View {
            out,
            mode,
            speed,
            title: title.into(),
            start: None,
            last_frame: None,
            log_seen: 0,
            seen: None,
            error: None,
        }
    }

    fn pace(&mut self, ms: u32) {
        let (t0, ms0) = *self.start.get_or_insert((Instant::now(), ms));
        if self.speed <= 0.0 {
            return;
        }
        let due = Duration::from_secs_f64(f64::from(ms.saturating_sub(ms0)) / 1000.0 / self.speed);
        let ahead = due.saturating_sub(t0.elapsed());
        if ahead >= Duration::from_millis(10) {
            std::thread::sleep(ahead);
        }
    }

    fn draw(&mut self, snap: &Snapshot, log: &[String]) -> io::Result<()> {
        let seen = snap.seen();
        let changed = self.seen.as_ref() != Some(&seen) || self.log_seen != log.len();
        match self.mode {
            Mode::Frames => {
                // What a person sees at once; the head's travel at most every
                // FRAME_EVERY.
                let due = self.last_frame.is_none_or(|t| t.elapsed() >= FRAME_EVERY);
                if !(changed || due) {
                    return Ok(());
                }
                self.last_frame = Some(Instant::now());
                let text = snap.frame(&self.title, log);
                let mut screen = String::from("\x1b[H");
                for l in text.lines() {
                    screen += l;
                    screen += "\x1b[K\n";
                }
                screen += "\x1b[J";
                self.out.write_all(screen.as_bytes())?;
            }
            Mode::Lines => {
                for l in &log[self.log_seen.min(log.len())..] {
                    writeln!(self.out, "log {}", l.trim_start())?;
                }
                if self.seen.as_ref() != Some(&seen) {
                    writeln!(self.out, "{}", snap.line())?;
                }
            }
        }
        self.seen = Some(seen);
        self.log_seen = log.len();
        self.out.flush()
    }
}

impl<W: Write> Observer for View<W> {
    fn start(&mut self, _s: &mut Session<'_>) {
        if self.mode == Mode::Frames {
            self.error = self.out.write_all(b"\x1b[2J").err();
        }
    }

    fn tick(&mut self, s: &mut Session<'_>) {
        if self.error.is_some() {
            return;
        }
        let ms = s.ms;
        self.pace(ms);
        let snap = Snapshot::of(&s.mcu().world, ms);
        if let Err(e) = self.draw(&snap, &s.log) {
            self.error = Some(e);
        }
    }
}
