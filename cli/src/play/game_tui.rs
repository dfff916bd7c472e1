//! `tictable play --game G` full-screen: the board drawn as the game's own
//! ([`super::look`]), moves typed as keys (a slide or a pawn move as two keys, from and
//! to; cells above 9 as two digits or one and Enter), u undo, r redo, h hints (every
//! move's value and remoteness), w why the person's last move was a mistake (its
//! refutation played on the board, a ply per key), n new game, s save and l load
//! (the `--file`, read and checked before anything is asked), q quit (n, l and q ask
//! again first when a game in progress is not saved),
//! Ctrl-C quit at once. With two engines the game is watched: Space or Enter plays the next
//! move, u takes it back, a plays on by itself (every `--delay`), and every move of
//! the position is shown with its value, with why the others are worse in words.

use super::look::Look;
use super::session::Session;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use std::io;
use std::time::{Duration, Instant};
use tictable_games::{Game, Notation, Player};

/// What a key did.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Go,
    /// Quit.
    Quit,
}

/// What q says first when the game in progress is not saved.
const QUIT_ASKS: &str = "This game is not saved: q again quits, s saves it first.";

/// What n says first when the game in progress is not saved.
const NEW_ASKS: &str = "This game is not saved: n again starts a new game, s saves it first.";

/// What l says first when the game in progress is not saved and `file` can be loaded.
fn load_asks(file: &std::path::Path) -> String {
    format!(
        "This game is not saved: l again loads {}, s saves it first.",
        file.display()
    )
}

/// Whether both sides are engines (the game is watched, a move per key).
fn watched<G: Game>(session: &Session<G>) -> bool {
    session.seats.iter().all(Option::is_some)
}

/// What a key does before the screen's own keys: a release nothing, Ctrl-C and Ctrl-D
/// quit, another Ctrl key nothing; `None` for the screen's keys.
pub fn before_keys(key: KeyEvent) -> Option<Flow> {
    if key.kind == KeyEventKind::Release {
        return Some(Flow::Go);
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return Some(match key.code {
            KeyCode::Char('c' | 'd') => Flow::Quit,
            _ => Flow::Go,
        });
    }
    None
}

/// Adds the move typed so far (when any) and the last message (when any) to `lines`.
pub fn typed_and_message(lines: &mut Vec<Line>, typed: &str, message: &str) {
    if !typed.is_empty() {
        lines.push(Line::raw(format!(
            "Move: {typed}_ (Enter plays, Esc clears)"
        )));
    }
    if !message.is_empty() {
        lines.push(Line::raw(message.to_string()));
    }
}

/// Applies `key` to the session (file I/O included: s and l use `session.file`).
pub fn key<G: Game, R: rand_core::Rng + ?Sized>(
    session: &mut Session<G>,
    key: KeyEvent,
    rng: &mut R,
) -> Flow {
    if let Some(flow) = before_keys(key) {
        return flow;
    }
    if let Some((positions, shown)) = &mut session.showing {
        // The refutation on the board: → or Space a ply on, ← a ply back, any other
        // key back to the game.
        match key.code {
            KeyCode::Char(' ') | KeyCode::Right => *shown = (*shown + 1).min(positions.len() - 1),
            KeyCode::Left => *shown = shown.saturating_sub(1),
            _ => {
                session.showing = None;
                session.message = "Back to the game.".into();
            }
        }
        return Flow::Go;
    }
    let said = std::mem::take(&mut session.message);
    let asked = said == QUIT_ASKS;
    match key.code {
        KeyCode::Char('w') => match session.last_mistake() {
            Some(m) => {
                session.message = format!(
                    "{} The refutation: {}. Space steps, ← back, any other key returns.",
                    m.said,
                    m.line.join(" ")
                );
                session.showing = Some((m.positions, 0));
            }
            None => session.message = "Your last move gave nothing away.".into(),
        },
        KeyCode::Char('q') if asked || !session.unsaved() => return Flow::Quit,
        KeyCode::Char('q') => session.message = QUIT_ASKS.into(),
        KeyCode::Char(' ') | KeyCode::Enter | KeyCode::Right if watched(session) => {
            if let Some(said) = session.engine_step(rng) {
                session.message = said;
            }
        }
        KeyCode::Char(c @ ('0'..='9' | '-')) => {
            if session.engine_to_move() || session.result().is_some() {
                session.message = "Not your turn.".into();
            } else if let Err(e) = session.type_key(c) {
                session.message = e;
            }
        }
        KeyCode::Enter => {
            if let Err(e) = session.enter() {
                session.message = e;
            }
        }
        KeyCode::Backspace | KeyCode::Esc => session.typed.clear(),
        KeyCode::Char('u') | KeyCode::Left => {
            let undone = session.undo();
            if !undone {
                session.message = "Nothing to undo.".into();
            }
        }
        KeyCode::Char('r') => {
            let redone = session.redo();
            if !redone {
                session.message = "Nothing to redo.".into();
            }
        }
        KeyCode::Char('h') => session.hints = !session.hints,
        KeyCode::Char('a') if watched(session) => session.auto = !session.auto,
        KeyCode::Char('n') if said != NEW_ASKS && session.unsaved() => {
            session.message = NEW_ASKS.into();
        }
        KeyCode::Char('n') => session.new_game(),
        KeyCode::Char('s') => {
            let path = session.file.clone();
            let written = session.save_file_text().and_then(|text| {
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
            });
            session.message = match written {
                Ok(()) => {
                    session.saved = Some(session.save_text());
                    format!("Saved to {}.", path.display())
                }
                Err(e) => format!("Not saved: {e}"),
            };
        }
        KeyCode::Char('l') => {
            // The file read and checked first; asked only when the load can succeed.
            let path = session.file.clone();
            let checked = super::read_save(&path).and_then(|text| {
                session
                    .check_save(&text)
                    .map(|_| text)
                    .map_err(|e| format!("{}: {e}", path.display()))
            });
            let asks = load_asks(&path);
            session.message = match checked {
                Ok(_) if said != asks && session.unsaved() => asks,
                Ok(text) => match session.load_text(&text) {
                    Ok(()) => {
                        session.saved = Some(session.save_text());
                        format!("Loaded {}.", path.display())
                    }
                    Err(e) => format!("Not loaded: {}: {e}", path.display()),
                },
                Err(e) => format!("Not loaded: {e}"),
            };
        }
        _ => {}
    }
    Flow::Go
}

/// The screen: the game and its rules' id, the board, the status, what is typed, the
/// last message, the hints and the keys.
pub fn render<G: Game>(frame: &mut Frame, session: &Session<G>, color: bool) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let game = session.game();
    let p = session.position();
    let (title, board) = match &session.showing {
        Some((positions, shown)) => (
            format!(
                "tictable · {} · refutation {shown}/{}",
                game.id(),
                positions.len() - 1
            ),
            positions[*shown].clone(),
        ),
        None => (
            format!("tictable · {}", game.id()),
            game.write_position(&p, Notation::People),
        ),
    };
    let mut lines = vec![Line::styled(title, bold), Line::raw("")];
    lines.extend(board_lines(session.look, &board, color));
    lines.push(Line::raw(""));
    let played = session.played();
    if !played.is_empty() {
        lines.push(Line::raw(format!("Played: {}", played.join(" "))));
    }
    let status = match session.result() {
        Some(result) => format!("Game over: {result}."),
        None => format!(
            "{} to move{}",
            session.player_name(session.to_move()),
            session.value().map_or(String::new(), |v| format!(" ({v})"))
        ),
    };
    lines.push(Line::styled(status, bold));
    // adaptive's estimate of its opponent, on the person's turn too.
    if session.seats.iter().flatten().any(|e| e.has_memory()) {
        lines.push(Line::raw(format!(
            "{} · {}",
            session.player_name(Player::X),
            session.player_name(Player::O)
        )));
    }
    typed_and_message(&mut lines, &session.typed, &session.message);
    if (session.hints || watched(session)) && session.result().is_none() {
        lines.push(hint_line(session, color));
    }
    if watched(session) {
        if let Some(why) = session.why() {
            lines.push(Line::raw(format!("Why: {why}.")));
        }
    }
    let keys = if watched(session) {
        [
            "Space next · u back · a auto",
            "n new · s save · l load · q quit",
        ]
    } else {
        [
            "u undo · r redo · h hints · w why",
            "n new · s save · l load · q quit",
        ]
    };
    let notation = format!("Moves are {}.", game.move_syntax(Notation::People));
    draw_with_legend(frame, lines, &keys, notation, color);
}

/// `Moves: ` and every legal move with its value, best first, each in its value's
/// colour ([`value_color`](super::ui::value_color)); the text says the value too.
fn hint_line<G: Game>(session: &Session<G>, color: bool) -> Line<'static> {
    let theme = super::ui::Theme { color };
    let mut spans = vec![Span::raw("Moves: ")];
    for (i, (outcome, text)) in session.rated_hints().into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(", "));
        }
        spans.push(Span::styled(text, theme.value(outcome)));
    }
    Line::from(spans)
}

/// The board of the position written `text` (people's notation) as `look` draws it,
/// indented, the sides' pieces in their colours: the full-screen game's and the
/// full-screen puzzle's board.
pub fn board_lines(look: Look, text: &str, color: bool) -> Vec<Line<'static>> {
    let style = |c: Color| {
        if color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    };
    look.draw(text)
        .into_iter()
        .map(|row| {
            let mut line = vec![Span::raw("  ")];
            line.extend(row.chars().map(|c| match c {
                'X' | 'W' => Span::styled(
                    c.to_string(),
                    style(Color::Cyan).add_modifier(Modifier::BOLD),
                ),
                'O' | 'B' => Span::styled(
                    c.to_string(),
                    style(Color::Magenta).add_modifier(Modifier::BOLD),
                ),
                _ => Span::raw(c.to_string()),
            }));
            Line::from(line)
        })
        .collect()
}

/// Draws `lines` wrapped at the top of the screen and the legend (`keys`, on one line
/// when it fits, else a line each, then `notation`) dimmed at the bottom; the legend
/// keeps the bottom rows, and the lines above give up their last rows first when the
/// screen is short.
pub fn draw_with_legend(
    frame: &mut Frame,
    lines: Vec<Line>,
    keys: &[&str],
    notation: String,
    color: bool,
) {
    let area = frame.area();
    let dim = if color {
        Style::new().fg(Color::DarkGray)
    } else {
        Style::new()
    };
    let width = usize::from(area.width.max(1));
    let keys: Vec<String> = if keys.join(" · ").chars().count() <= width {
        vec![keys.join(" · ")]
    } else {
        keys.iter().map(|k| k.to_string()).collect()
    };
    let legend_rows: usize = keys
        .iter()
        .chain([&notation])
        .map(|line| wrapped_rows(line, width))
        .sum();
    let legend: Vec<Line> = keys
        .into_iter()
        .chain([notation])
        .map(|line| Line::styled(line, dim))
        .collect();
    let legend_rows = u16::try_from(legend_rows)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let main = Rect::new(area.x, area.y, area.width, area.height - legend_rows);
    let bottom = Rect::new(area.x, area.y + main.height, area.width, legend_rows);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), main);
    frame.render_widget(Paragraph::new(legend).wrap(Wrap { trim: false }), bottom);
}

/// The rows `text` takes wrapped at spaces in `width` columns (a word longer than a
/// row is broken), as the paragraph wraps it.
fn wrapped_rows(text: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if used > 0 && used + 1 + n > width {
            rows += 1;
            used = 0;
        }
        if used > 0 {
            used += 1;
        }
        used += n;
        while used > width {
            rows += 1;
            used -= width;
        }
    }
    rows
}

/// Runs the full-screen game until q; an engine against a person moves after `delay`.
pub fn run<G: Game, R: rand_core::Rng + ?Sized>(
    mut session: Session<G>,
    rng: &mut R,
    delay: Duration,
    color: bool,
) -> io::Result<()> {
    let mut terminal: DefaultTerminal = ratatui::try_init()?;
    let result = (|| -> io::Result<()> {
        let mut since: Option<Instant> = None;
        loop {
            terminal.draw(|frame| render(frame, &session, color))?;
            let engine = session.engine_to_move() && (!watched(&session) || session.auto);
            let timeout = if engine {
                let start = *since.get_or_insert_with(Instant::now);
                (start + delay).saturating_duration_since(Instant::now())
            } else {
                since = None;
                Duration::from_secs(60)
            };
            if event::poll(timeout)? {
                match event::read()? {
                    Event::Key(k) => {
                        let flow = key(&mut session, k, rng);
                        if flow == Flow::Quit {
                            return Ok(());
                        }
                    }
                    Event::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
            } else if engine {
                if let Some(said) = session.engine_step(rng) {
                    session.message = said;
                }
                if let Some(stop) = session.engines_stop() {
                    session.auto = false;
                    session.message = stop;
                }
                since = None;
            }
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// The screen's rows, as text.
    fn screen<G: Game>(session: &Session<G>) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(70, 24)).unwrap();
        terminal.draw(|f| render(f, session, false)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn adaptive_shows_its_estimate_on_the_full_screen() {
        let solution = tictable_games::solve(tictable_games::TicTacToe::misere()).unwrap();
        let seats = [None, Some("adaptive".parse().unwrap())];
        let mut session = Session::new(Box::new(solution), seats, "g.json".into());
        let said = |s: &Session<_>| {
            screen(s)
                .into_iter()
                .find_map(|row| {
                    let (_, rest) = row.split_once("you play like ε ≈ ")?;
                    rest.split(')').next().map(str::to_string)
                })
                .unwrap_or_else(|| panic!("no estimate on {:#?}", screen(s)))
        };
        assert_eq!(
            said(&session),
            "0.5",
            "the prior's mean, on the person's turn"
        );
        // In misère the centre is X's only move that does not lose: a corner gives
        // the value away, and the estimate moves.
        session.play_text("1").unwrap();
        assert_ne!(said(&session), "0.5");
    }

    #[test]
    fn rows_count_wrapping_at_spaces() {
        assert_eq!(wrapped_rows("n new · s save · l load · q quit", 40), 1);
        assert_eq!(wrapped_rows("aaaa bbbb", 4), 2);
        assert_eq!(wrapped_rows("aaaa bbbb", 9), 1);
        assert_eq!(wrapped_rows("aaaaaaaaa", 4), 3);
        assert_eq!(
            wrapped_rows(
                "Moves are a point 1-9 to place a piece, or from-to (`1-2`) to slide one.",
                40
            ),
            2
        );
    }
}
