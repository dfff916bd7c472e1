//! The full-screen runner: terminal setup and restore (also on panic, through
//! ratatui's panic hook), the event loop, and the engine's visible thinking delay.

use super::app::App;
use super::{engine_move, perform, ui};
use ratatui::crossterm::event::{self, Event};
use ratatui::DefaultTerminal;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};
use tictable::Board;

pub fn run<R: rand_core::Rng + ?Sized>(
    app: App,
    rng: &mut R,
    file: &Path,
    theme: ui::Theme,
) -> io::Result<()> {
    // Raw mode and the alternate screen; a panic restores the terminal first.
    let mut terminal = ratatui::try_init()?;
    let result = event_loop(&mut terminal, app, rng, file, theme);
    ratatui::restore();
    result
}

fn event_loop<R: rand_core::Rng + ?Sized>(
    terminal: &mut DefaultTerminal,
    mut app: App,
    rng: &mut R,
    file: &Path,
    theme: ui::Theme,
) -> io::Result<()> {
    // When the engine started thinking, and on which position.
    let mut thinking: Option<(Instant, Board)> = None;
    loop {
        terminal.draw(|frame| ui::render(frame, &app, theme))?;
        if app.quit {
            return Ok(());
        }
        let timeout = match app.engine_to_move() {
            Some(_) => {
                let board = app.game.board();
                let since = match thinking {
                    Some((since, b)) if b == board => since,
                    _ => {
                        let now = Instant::now();
                        thinking = Some((now, board));
                        now
                    }
                };
                (since + app.settings.delay).saturating_duration_since(Instant::now())
            }
            None => {
                thinking = None;
                Duration::from_secs(60)
            }
        };
        if event::poll(timeout)? {
            match event::read()? {
                Event::Key(key) => {
                    if let Some(action) = app.action_for(key) {
                        let effect = app.apply(action);
                        perform(&mut app, effect, file);
                    }
                }
                // The next draw lays the screen out for the new size.
                Event::Resize(..) => terminal.autoresize()?,
                _ => {}
            }
        } else if thinking.is_some_and(|(since, _)| since.elapsed() >= app.settings.delay) {
            engine_move(&mut app, rng);
            thinking = None;
        }
    }
}
