//! The full-screen runner: terminal setup and restore (also on panic, through
//! ratatui's panic hook), mouse clicks, the event loop, the engine's visible
//! thinking delay, the person's move clock, the engines' series, and the bell.

use super::app::{Action, App, MoveClock};
use super::{engine_move, perform, ui};
use ratatui::crossterm::event::{self, Event, MouseButton, MouseEventKind};
use ratatui::crossterm::execute;
use ratatui::layout::Rect;
use ratatui::DefaultTerminal;
use std::io::{self, Write};
use std::time::{Duration, Instant};
use tictable::strategy::{Level, Strategy};
use tictable::Board;

/// The pause between two games of the engines' series.
const SERIES_PAUSE: Duration = Duration::from_millis(1500);

pub fn run<R: rand_core::Rng + ?Sized>(
    app: App,
    rng: &mut R,
    theme: ui::Theme,
    bell: bool,
) -> io::Result<()> {
    // Raw mode and the alternate screen; a panic restores the terminal first.
    let mut terminal = ratatui::try_init()?;
    let result = execute!(io::stdout(), event::EnableMouseCapture)
        .and_then(|()| event_loop(&mut terminal, app, rng, theme, bell));
    let _ = execute!(io::stdout(), event::DisableMouseCapture);
    ratatui::restore();
    result
}

/// Since when the current wait (engine thinking, person's clock, pause between
/// games) runs, and on which position it started.
struct Timer(Option<(Instant, Board, bool)>);

impl Timer {
    /// The start of the wait on `board` (`over`: the game ended), begun now if the
    /// position changed.
    fn since(&mut self, board: Board, over: bool) -> Instant {
        match self.0 {
            Some((since, b, o)) if b == board && o == over => since,
            _ => {
                let now = Instant::now();
                self.0 = Some((now, board, over));
                now
            }
        }
    }
}

fn event_loop<R: rand_core::Rng + ?Sized>(
    terminal: &mut DefaultTerminal,
    mut app: App,
    rng: &mut R,
    theme: ui::Theme,
    bell: bool,
) -> io::Result<()> {
    let mut timer = Timer(None);
    let mut clock = MoveClock::default();
    loop {
        let size = terminal.size()?;
        let area = Rect::new(0, 0, size.width, size.height);
        app.too_small = !ui::fits(area);
        // What the loop waits for, and how long.
        let board = app.game.board();
        let over = app.game.result().is_some();
        // The clock is brought up to date on every pass, so that the time spent in
        // the menu or a question is not counted and does not refill it.
        let clock_end = app
            .settings
            .clock
            .and_then(|full| clock.tick(app.clock_running(), app.game, full, Instant::now()));
        let due = if app.engine_to_move().is_some() {
            Some(timer.since(board, over) + app.settings.delay)
        } else if let Some(end) = clock_end {
            app.clock_left = Some(end.saturating_duration_since(Instant::now()));
            Some(end)
        } else if app.next_game_due() {
            Some(timer.since(board, over) + SERIES_PAUSE)
        } else {
            timer.0 = None;
            None
        };
        terminal.draw(|frame| ui::render(frame, &app, theme))?;
        if std::mem::take(&mut app.bell) && bell {
            let mut out = io::stdout();
            out.write_all(b"\x07")?;
            out.flush()?;
        }
        if app.quit {
            return Ok(());
        }
        let now = Instant::now();
        let timeout = match due {
            // The clock's display counts whole seconds: redraw at least each 0.25 s.
            Some(due) if app.clock_running() => due
                .saturating_duration_since(now)
                .min(Duration::from_millis(250)),
            Some(due) => due.saturating_duration_since(now),
            None => Duration::from_secs(60),
        };
        if event::poll(timeout)? {
            let action = match event::read()? {
                Event::Key(key) => app.action_for(key),
                Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => app
                    .action_for_click(ui::square_at(
                        area,
                        app.settings.layout,
                        mouse.column,
                        mouse.row,
                    )),
                // The next draw lays the screen out for the new size.
                Event::Resize(..) => {
                    terminal.autoresize()?;
                    None
                }
                _ => None,
            };
            if let Some(action) = action {
                let effect = app.apply(action);
                perform(&mut app, effect);
            }
        } else if due.is_some_and(|due| Instant::now() >= due) {
            if app.engine_to_move().is_some() {
                engine_move(&mut app, rng);
            } else if app.clock_running() {
                let random = Strategy::new(Level::Random);
                if let Ok(square) = random.choose(&app.game.board(), rng) {
                    app.apply(Action::TimeUp(square));
                }
            } else if app.next_game_due() {
                app.apply(Action::NewGame);
            }
            timer.0 = None;
        }
    }
}
