//! Drawing the [`App`] with ratatui: pure, from state to frame (tested on a
//! `TestBackend`).

use super::app::{keypad_digit, App, MenuRow, Seat};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tictable::{move_values, MoveValue, Outcome, Player, Square};

/// Cell size inside the grid.
const CELL_WIDTH: usize = 9;
const CELL_HEIGHT: usize = 3;
/// The grid with its borders.
const BOARD_WIDTH: u16 = 3 * CELL_WIDTH as u16 + 4;
const BOARD_HEIGHT: u16 = 3 * CELL_HEIGHT as u16 + 4;
/// The smallest terminal the full layout fits in.
pub const MIN_WIDTH: u16 = 40;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 23;

/// Colours on or off (off when `NO_COLOR` is set): without colour, emphasis uses
/// bold, underline and reverse video only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether to use colours.
    pub color: bool,
}

impl Theme {
    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    fn piece(self, player: Player) -> Style {
        self.fg(match player {
            Player::X => Color::Cyan,
            Player::O => Color::LightMagenta,
        })
        .add_modifier(Modifier::BOLD)
    }

    fn hint(self, value: MoveValue) -> Style {
        self.fg(match value.outcome {
            Outcome::Win => Color::Green,
            Outcome::Draw => Color::Yellow,
            Outcome::Loss => Color::Red,
        })
    }

    fn winning(self) -> Style {
        if self.color {
            Style::new()
                .bg(Color::Green)
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        }
    }

    fn cursor(self) -> Style {
        if self.color {
            Style::new().bg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    fn dim(self) -> Style {
        self.fg(Color::DarkGray)
    }
}

/// Draws the whole screen.
pub fn render(frame: &mut Frame, app: &App, theme: Theme) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "Terminal too small ({}x{}): resize to at least {MIN_WIDTH}x{MIN_HEIGHT}, or q to quit.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [title, _, board, _, players, score, status, _, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(BOARD_HEIGHT),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(2),
    ])
    .areas(area);
    let centred = |lines: Line<'static>, rect: Rect, f: &mut Frame| {
        f.render_widget(Paragraph::new(lines).alignment(Alignment::Center), rect);
    };
    centred(
        Line::styled(
            "tictable — perfect tic-tac-toe",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        title,
        frame,
    );
    let board_area = board.centered_horizontally(Constraint::Length(BOARD_WIDTH));
    frame.render_widget(Paragraph::new(board_lines(app, theme)), board_area);
    let seat = |player: Player| match app.settings.seat(player) {
        Seat::Human => "human".to_string(),
        Seat::Engine(s) => s.to_string(),
    };
    centred(
        Line::from(vec![
            Span::styled("X", theme.piece(Player::X)),
            Span::raw(format!(": {}   ", seat(Player::X))),
            Span::styled("O", theme.piece(Player::O)),
            Span::raw(format!(": {}", seat(Player::O))),
        ]),
        players,
        frame,
    );
    let s = app.score;
    centred(
        Line::raw(format!("Score  X {} · O {} · draws {}", s.x, s.o, s.draws)),
        score,
        frame,
    );
    let status_style = match app.game.result() {
        Some(_) => Style::new().add_modifier(Modifier::BOLD),
        None if app.message.is_some() => theme.fg(Color::Yellow),
        None => Style::new(),
    };
    centred(Line::styled(app.status(), status_style), status, frame);
    let keys = "←↑→↓ move · Enter/Space place · 1-9 keypad · u undo · r redo · \
                h hint · n new · s save · l load · m menu · q quit";
    frame.render_widget(
        Paragraph::new(Line::styled(keys, theme.dim()))
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        help,
    );
    if let Some(selected) = app.menu {
        render_menu(frame, app, selected, theme);
    }
}

/// The grid: borders, pieces, cursor, last move, winning line, hints.
fn board_lines(app: &App, theme: Theme) -> Vec<Line<'static>> {
    let board = app.game.board();
    let winning = app.game.winning_line();
    let values = if app.hint {
        move_values(&board).unwrap_or([None; 9])
    } else {
        [None; 9]
    };
    let border = |left: &str, middle: &str, right: &str| {
        let bar = "─".repeat(CELL_WIDTH);
        Line::styled(
            format!("{left}{bar}{middle}{bar}{middle}{bar}{right}"),
            theme.dim(),
        )
    };
    let mut lines = vec![border("┌", "┬", "┐")];
    for row in 0..3u8 {
        for inner in 0..CELL_HEIGHT {
            let mut spans = vec![Span::styled("│", theme.dim())];
            for column in 0..3u8 {
                let square = Square::new(row * 3 + column).unwrap_or(Square::CENTRE);
                let (text, mut style) = cell_text(app, square, inner, values, theme);
                if winning.contains(square) {
                    style = style.patch(theme.winning());
                } else if square == app.cursor {
                    style = style.patch(theme.cursor());
                }
                spans.push(Span::styled(text, style));
                spans.push(Span::styled("│", theme.dim()));
            }
            lines.push(Line::from(spans));
        }
        lines.push(if row < 2 {
            border("├", "┼", "┤")
        } else {
            border("└", "┴", "┘")
        });
    }
    lines
}

/// One text row (`inner` = 0..3) of a cell and its style.
fn cell_text(
    app: &App,
    square: Square,
    inner: usize,
    values: [Option<MoveValue>; 9],
    theme: Theme,
) -> (String, Style) {
    let centre = |text: &str| format!("{text:^CELL_WIDTH$}");
    match (app.game.board().get(square), inner) {
        (Some(player), 1) => {
            let mut style = theme.piece(player);
            if app.game.last_move() == Some(square) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            (centre(&player.to_string()), style)
        }
        (Some(_), _) => (centre(""), Style::new()),
        (None, 0) => (
            format!("{:<CELL_WIDTH$}", keypad_digit(square)),
            theme.dim(),
        ),
        (None, 1) => match values[square.index() as usize] {
            Some(value) => (centre(&value.to_string()), theme.hint(value)),
            None => (centre(""), Style::new()),
        },
        (None, _) => (centre(""), Style::new()),
    }
}

/// The in-game menu as a centred popup.
fn render_menu(frame: &mut Frame, app: &App, selected: usize, theme: Theme) {
    let area = frame
        .area()
        .centered(Constraint::Length(38), Constraint::Length(9));
    let value = |row: MenuRow| match row {
        MenuRow::X => format!("X       ‹ {:<9} ›", app.settings.x.to_string()),
        MenuRow::O => format!("O       ‹ {:<9} ›", app.settings.o.to_string()),
        MenuRow::Delay => format!(
            "Delay   ‹ {:<9} ›",
            format!("{:.1} s", app.settings.delay.as_secs_f64())
        ),
        MenuRow::NewGame => "Start a new game".to_string(),
        MenuRow::Resume => "Resume".to_string(),
    };
    let mut lines: Vec<Line> = MenuRow::ALL
        .iter()
        .enumerate()
        .map(|(i, &row)| {
            let style = if i == selected {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            Line::styled(format!(" {} ", value(row)), style)
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "↑↓ select · ←→ change · Esc close",
        theme.dim(),
    ));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Menu ")),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::super::app::{Action, Settings};
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::Terminal;
    use std::time::Duration;

    fn app(x: &str, o: &str) -> App {
        App::new(Settings {
            x: x.parse().unwrap(),
            o: o.parse().unwrap(),
            delay: Duration::ZERO,
        })
    }

    fn draw(app: &App, width: u16, height: u16, theme: Theme) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|f| render(f, app, theme)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn text(buffer: &Buffer) -> Vec<String> {
        let area = buffer.area;
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    fn sq(i: u8) -> Square {
        Square::new(i).unwrap()
    }

    const COLOR: Theme = Theme { color: true };
    /// The board's left edge in a 60-column terminal.
    const LEFT: u16 = 15;

    #[test]
    fn renders_the_board_pieces_and_status() {
        let mut a = app("human", "human");
        a.apply(Action::Place(sq(4)));
        a.apply(Action::Place(sq(0)));
        let lines = text(&draw(&a, 60, 24, COLOR));
        let screen = lines.join("\n");
        assert!(lines[0].contains("tictable — perfect tic-tac-toe"));
        // Board: 31 wide, centred in 60 columns -> starts at column 15.
        assert_eq!(&lines[2][15..], "┌─────────┬─────────┬─────────┐");
        assert_eq!(lines[4].trim(), "│    O    │         │         │");
        assert_eq!(lines[8].trim(), "│         │    X    │         │");
        assert!(lines[3].contains("│         │8        │9        │"));
        assert!(screen.contains("X: human   O: human"), "{screen}");
        assert!(screen.contains("Score  X 0 · O 0 · draws 0"));
        assert!(screen.contains("X to move"));
        assert!(screen.contains("q quit"));
    }

    #[test]
    fn highlights_cursor_last_move_and_winning_line() {
        let mut a = app("human", "human");
        for i in [0, 3, 1, 4] {
            a.apply(Action::Place(sq(i)));
        }
        a.apply(Action::MoveCursor {
            rows: 1,
            columns: 1,
        }); // cursor from 4 to 8
        let buffer = draw(&a, 60, 24, COLOR);
        // Square 8's cell (row 2, column 2) has the cursor background.
        let (x8, y8) = (LEFT + 1 + 2 * 10, 2 + 1 + 2 * 4);
        assert_eq!(buffer[(x8 + 2, y8 + 1)].bg, Color::DarkGray);
        // The last move (O on 4) is underlined.
        let (x4, y4) = (LEFT + 1 + 10 + 4, 2 + 1 + 4 + 1);
        assert_eq!(buffer[(x4, y4)].symbol(), "O");
        assert!(buffer[(x4, y4)].modifier.contains(Modifier::UNDERLINED));
        a.apply(Action::Place(sq(2)));
        let buffer = draw(&a, 60, 24, COLOR);
        for column in 0..3u16 {
            assert_eq!(buffer[(LEFT + 1 + column * 10 + 4, 4)].bg, Color::Green);
        }
        assert_eq!(buffer[(LEFT + 1 + 4, 8)].bg, Color::Reset);
        let screen = text(&buffer).join("\n");
        assert!(screen.contains("X wins! n: new game"), "{screen}");
        assert!(screen.contains("Score  X 1 · O 0 · draws 0"));
    }

    #[test]
    fn hint_overlay_labels_and_colours_every_empty_square() {
        let mut a = app("human", "human");
        for i in [0, 3, 1, 4] {
            a.apply(Action::Place(sq(i)));
        }
        a.apply(Action::ToggleHint);
        let buffer = draw(&a, 60, 24, COLOR);
        let lines = text(&buffer);
        // X to move: 2 wins at once, 5 blocks (then X still wins), the rest lose or win later.
        assert!(lines[4].contains("win in 1"), "{}", lines[4]);
        let x = lines[4].find("win in 1").unwrap() as u16;
        assert_eq!(buffer[(x, 4)].fg, Color::Green);
        let values = move_values(&a.game.board()).unwrap();
        for s in a.game.board().empty_squares() {
            let label = values[s.index() as usize].unwrap().to_string();
            let y = 2 + 1 + s.row() as usize * 4 + 1;
            assert!(lines[y].contains(&label), "{label} missing in {}", lines[y]);
        }
    }

    #[test]
    fn without_colour_only_modifiers_are_used() {
        let mut a = app("human", "human");
        for i in [0, 3, 1, 4, 2] {
            a.apply(Action::Place(sq(i)));
        }
        a.apply(Action::ToggleHint);
        let buffer = draw(&a, 60, 24, Theme { color: false });
        for cell in buffer.content() {
            assert_eq!(cell.fg, Color::Reset);
            assert_eq!(cell.bg, Color::Reset);
        }
        assert!(buffer[(LEFT + 1 + 4, 4)]
            .modifier
            .contains(Modifier::REVERSED));
    }

    #[test]
    fn menu_popup_and_small_terminals() {
        let mut a = app("human", "trap");
        a.apply(Action::ToggleMenu);
        let screen = text(&draw(&a, 60, 24, COLOR)).join("\n");
        assert!(screen.contains("Menu"));
        assert!(screen.contains("X       ‹ human     ›"), "{screen}");
        assert!(screen.contains("O       ‹ trap      ›"));
        assert!(screen.contains("Delay   ‹ 0.0 s     ›"));
        assert!(screen.contains("Start a new game"));
        let small = text(&draw(&a, 30, 10, COLOR)).join(" ");
        assert!(small.contains("Terminal too small (30x10)"), "{small}");
        // Resizing back renders the full screen again.
        let mut terminal = Terminal::new(TestBackend::new(30, 10)).unwrap();
        terminal.draw(|f| render(f, &a, COLOR)).unwrap();
        terminal.backend_mut().resize(70, 30);
        terminal.autoresize().unwrap();
        terminal.draw(|f| render(f, &a, COLOR)).unwrap();
        let screen = text(terminal.backend().buffer()).join("\n");
        assert!(screen.contains("┌─────────┬"), "{screen}");
    }
}
