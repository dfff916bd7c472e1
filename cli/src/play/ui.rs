//! Drawing the [`App`] with ratatui: pure, from state to frame (tested on a
//! `TestBackend`). The board grows with the terminal and is centred in it; the
//! same geometry maps mouse clicks back to squares ([`square_at`]).

use super::app::{App, KeyLayout, MenuRow, Prompt, Seat};
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tictable::{move_values, MoveValue, Outcome, Player, Square};

/// The smallest cell, inside the grid: wide enough for "loss in 5".
const CELL_WIDTH: u16 = 9;
const CELL_HEIGHT: u16 = 3;
/// How many times a cell can grow (by 4 columns and 2 rows each).
const MAX_GROWTH: u16 = 3;
/// The one-row lines around the board: title, players, score.
const TEXT_ROWS: u16 = 3;
/// The status line's rows: long messages wrap into them.
const STATUS_ROWS: u16 = 3;
/// Blank rows when there is room for them: after the board, before the key lines,
/// after the title (dropped in the reverse order on a small screen).
const GAPS: u16 = 3;
/// The smallest terminal the full layout fits in.
pub const MIN_WIDTH: u16 = 40;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 24;

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

    /// A hint in its value's colour ([`value_color`]).
    fn hint(self, value: MoveValue) -> Style {
        self.value(value.outcome)
    }

    /// Text in the colour of `outcome` ([`value_color`]); plain without colours.
    pub fn value(self, outcome: Outcome) -> Style {
        self.fg(value_color(outcome))
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

    /// A square's key: dim, but bright on the cursor's dark background.
    fn label(self, on_cursor: bool) -> Style {
        if on_cursor {
            self.fg(Color::White)
        } else {
            self.dim()
        }
    }

    /// The hint key while hints are on: bold and reversed (and green in colour).
    fn hints_on(self) -> Style {
        let on = Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED);
        if self.color {
            on.fg(Color::Green)
        } else {
            on
        }
    }

    fn dim(self) -> Style {
        self.fg(Color::DarkGray)
    }
}

/// A move's value colour, as every full-screen game shows its hints: green for a win,
/// yellow for a draw, red for a loss (the hint's text says the value too).
pub fn value_color(outcome: Outcome) -> Color {
    match outcome {
        Outcome::Win => Color::Green,
        Outcome::Draw => Color::Yellow,
        Outcome::Loss => Color::Red,
    }
}

/// Whether the full layout fits in `area` (else only "too small" is drawn).
pub fn fits(area: Rect) -> bool {
    Geometry::new(area, KeyLayout::Rows).is_some()
}

/// The hint key in the legend while hints are off, and while they are on.
const HINT_OFF: &str = "h hint off";
/// See [`HINT_OFF`].
const HINT_ON: &str = "h hint ON";

/// `text` in at most `width` columns: its end, after an ellipsis, when it is longer
/// (a file name's end is where the typing happens and the name itself is).
fn keep_end(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let tail: String = text.chars().skip(n + 1 - width).collect();
    format!("…{tail}")
}

/// `text` in at most `rows` lines of at most `width` columns: wrapped at spaces,
/// a word longer than a line broken inside it, and, when that still takes more
/// rows, shortened in the middle (after its first third, with an ellipsis), so that
/// both its start (what happened) and its end (why: "(os error 2)") stay visible.
fn fit_lines(text: &str, width: usize, rows: usize) -> Vec<String> {
    let wrap = |text: &str| -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for word in text.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            if let Some(line) = lines.last_mut() {
                if line.chars().count() + 1 + word.len() <= width {
                    line.push(' ');
                    line.extend(&word);
                    continue;
                }
            }
            while word.len() > width {
                lines.push(word.drain(..width).collect());
            }
            lines.push(word.into_iter().collect());
        }
        lines
    };
    let chars: Vec<char> = text.chars().collect();
    let width = width.max(2);
    let mut budget = chars.len();
    loop {
        let shown: String = if budget >= chars.len() {
            text.to_string()
        } else {
            let head = budget / 3;
            let tail = budget - head;
            let start: String = chars[..head].iter().collect();
            let end: String = chars[chars.len() - tail..].iter().collect();
            format!("{start}…{end}")
        };
        let lines = wrap(&shown);
        if lines.len() <= rows || budget == 0 {
            return lines;
        }
        budget = budget.saturating_sub(width / 2).min(width * rows);
    }
}

/// The key legend in lines of at most `width` columns, an item never split across
/// two lines (both layouts give lines of the same lengths).
fn key_lines(layout: KeyLayout, width: u16) -> Vec<String> {
    let squares = format!("{} or click", layout.short());
    let items = [
        squares.as_str(),
        "←↑→↓ Enter",
        "u undo",
        "r redo",
        HINT_OFF,
        "n new",
        "s save",
        "l load",
        "m menu",
        "w why",
        "q quit",
    ];
    let mut lines: Vec<String> = Vec::new();
    for item in items {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + item.chars().count() <= width.into() => {
                line.push_str(" · ");
                line.push_str(item);
            }
            _ => lines.push(item.to_string()),
        }
    }
    lines
}

/// Where everything goes: the board's cells and the rows around it.
struct Geometry {
    cell_width: u16,
    cell_height: u16,
    title: Rect,
    board: Rect,
    players: Rect,
    score: Rect,
    status: Rect,
    keys: Rect,
    key_lines: Vec<String>,
}

impl Geometry {
    /// The largest board that fits with every gap, or the smallest with the gaps
    /// that fit; the whole block centred. `None` when the screen is too small.
    fn new(area: Rect, layout: KeyLayout) -> Option<Geometry> {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        let key_lines = key_lines(layout, area.width);
        let text = TEXT_ROWS + STATUS_ROWS + key_lines.len() as u16;
        let board_size = |growth: u16| {
            let (w, h) = (CELL_WIDTH + 4 * growth, CELL_HEIGHT + 2 * growth);
            (w, h, 3 * w + 4, 3 * h + 4)
        };
        let growth = (0..=MAX_GROWTH)
            .rev()
            .find(|&g| {
                let (_, _, width, height) = board_size(g);
                width <= area.width && height + text + GAPS <= area.height
            })
            .unwrap_or(0);
        let (cell_width, cell_height, width, height) = board_size(growth);
        let gaps = area.height.checked_sub(height + text)?.min(GAPS);
        // Gaps in order of need: after the board, before the keys, after the title.
        let gap = |n: u16| u16::from(gaps >= n);
        let total = height + text + gaps;
        let mut y = area.y + (area.height - total) / 2;
        let mut row = |rows: u16, gap_after: u16| {
            let rect = Rect::new(area.x, y, area.width, rows);
            y += rows + gap_after;
            rect
        };
        let title = row(1, gap(3));
        let board_row = row(height, gap(1));
        let players = row(1, 0);
        let score = row(1, 0);
        let status = row(STATUS_ROWS, gap(2));
        let keys = row(key_lines.len() as u16, 0);
        let left = area.x + (area.width - width) / 2;
        Some(Geometry {
            cell_width,
            cell_height,
            title,
            board: Rect::new(left, board_row.y, width, height),
            players,
            score,
            status,
            keys,
            key_lines,
        })
    }
}

/// The square under the terminal cell (`column`, `row`), for mouse clicks: `None`
/// on the grid lines, beside the board, or when the screen is too small.
pub fn square_at(area: Rect, layout: KeyLayout, column: u16, row: u16) -> Option<Square> {
    let g = Geometry::new(area, layout)?;
    let inside = |value: u16, start: u16, cell: u16| -> Option<u8> {
        let offset = value.checked_sub(start)?;
        let (index, within) = (offset / (cell + 1), offset % (cell + 1));
        (within != 0 && index < 3).then_some(index as u8)
    };
    let c = inside(column, g.board.x, g.cell_width)?;
    let r = inside(row, g.board.y, g.cell_height)?;
    Square::new(r * 3 + c)
}

/// Draws the whole screen.
pub fn render(frame: &mut Frame, app: &App, theme: Theme) {
    let area = frame.area();
    let Some(g) = Geometry::new(area, app.settings.layout) else {
        let text = format!(
            "Terminal too small ({}x{}): resize to at least {MIN_WIDTH}x{MIN_HEIGHT}, or q to quit.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    let centred = |lines: Line<'static>, rect: Rect, f: &mut Frame| {
        f.render_widget(
            Paragraph::new(lines)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            rect,
        );
    };
    centred(
        Line::styled(
            "tictable — perfect tic-tac-toe",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        g.title,
        frame,
    );
    frame.render_widget(Paragraph::new(board_lines(app, theme, &g)), g.board);
    centred(
        Line::from(vec![
            Span::styled("X", theme.piece(Player::X)),
            Span::raw(format!(": {}   ", app.settings.x)),
            Span::styled("O", theme.piece(Player::O)),
            Span::raw(format!(": {}", app.settings.o)),
        ]),
        g.players,
        frame,
    );
    centred(
        Line::raw(format!("Score  {}", app.score_text())),
        g.score,
        frame,
    );
    let status_style = match app.game.result() {
        _ if app.prompt.is_some() => Style::new().add_modifier(Modifier::BOLD),
        Some(_) => Style::new().add_modifier(Modifier::BOLD),
        None if app.message.is_some() => theme.fg(Color::Yellow),
        None => Style::new(),
    };
    let width = usize::from(area.width);
    // A pre-filled file name is selected (typing replaces it): shown reversed.
    let name_style = match &app.prompt {
        Some(Prompt::Path { selected: true, .. }) => status_style.add_modifier(Modifier::REVERSED),
        _ => status_style,
    };
    let lines: Vec<Line> = match &app.prompt {
        // A question on one line when it fits, with its name styled.
        Some(prompt) if prompt.text().chars().count() <= width => {
            let (ask, name, keys) = prompt.parts();
            match name {
                Some(name) if matches!(prompt, Prompt::Path { .. }) => {
                    let (name, cursor) = name.split_at(name.len() - '▏'.len_utf8());
                    vec![Line::from(vec![
                        Span::styled(format!("{ask} "), status_style),
                        Span::styled(name.to_string(), name_style),
                        Span::styled(format!("{cursor} {keys}"), status_style),
                    ])]
                }
                _ => vec![Line::styled(prompt.text(), status_style)],
            }
        }
        // A question too long for one line: one line per part, the file name
        // shortened so that the keys that answer it stay on screen.
        Some(prompt) => {
            let (ask, name, keys) = prompt.parts();
            let name = name.map(|n| Line::styled(keep_end(&n, width), name_style));
            let line = |text: String| {
                (!text.is_empty()).then(|| Line::styled(keep_end(&text, width), status_style))
            };
            [line(ask), name, line(keys)]
                .into_iter()
                .flatten()
                .collect()
        }
        // Messages and the status: wrapped, and shortened in the middle when they
        // would take more than the status rows, so they never leave the screen.
        None => fit_lines(&app.status(), width, usize::from(STATUS_ROWS))
            .into_iter()
            .map(|l| Line::styled(l, status_style))
            .collect(),
    };
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), g.status);
    // The hint key says whether hints are on (the lines were broken with the
    // longer "off", so turning hints on never moves anything).
    let keys: Vec<Line> = g
        .key_lines
        .iter()
        .map(|line| match line.split_once(HINT_OFF) {
            Some((before, after)) if app.hint => Line::from(vec![
                Span::styled(before.to_string(), theme.dim()),
                Span::styled(HINT_ON, theme.hints_on()),
                Span::styled(after.to_string(), theme.dim()),
            ]),
            _ => Line::styled(line.clone(), theme.dim()),
        })
        .collect();
    frame.render_widget(Paragraph::new(keys).alignment(Alignment::Center), g.keys);
    if let Some(selected) = app.menu {
        render_menu(frame, app, selected, theme);
    }
}

/// The grid: borders, pieces, cursor, last move, winning line, hints.
fn board_lines(app: &App, theme: Theme, g: &Geometry) -> Vec<Line<'static>> {
    // The refutation of a mistake while it is shown (`w`), else the game.
    let game = app.shown_game();
    let board = game.board();
    let winning = game.winning_line();
    let values = if app.hint {
        move_values(&board).unwrap_or([None; 9])
    } else {
        [None; 9]
    };
    let border = |left: &str, middle: &str, right: &str| {
        let bar = "─".repeat(g.cell_width as usize);
        Line::styled(
            format!("{left}{bar}{middle}{bar}{middle}{bar}{right}"),
            theme.dim(),
        )
    };
    let mut lines = vec![border("┌", "┬", "┐")];
    for row in 0..3u8 {
        for inner in 0..g.cell_height {
            let mut spans = vec![Span::styled("│", theme.dim())];
            for column in 0..3u8 {
                let square = Square::new(row * 3 + column).unwrap_or(Square::CENTRE);
                let (text, mut style) = cell_text(app, &game, square, inner, values, theme, g);
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

/// One text row (`inner` from the top) of a cell and its style: the key of an
/// empty square in its top-left corner, the piece or the hint in the middle row.
fn cell_text(
    app: &App,
    game: &tictable::game::Game,
    square: Square,
    inner: u16,
    values: [Option<MoveValue>; 9],
    theme: Theme,
    g: &Geometry,
) -> (String, Style) {
    let width = g.cell_width as usize;
    let centre = |text: &str| format!("{text:^width$}");
    let middle = inner == g.cell_height / 2;
    match (game.board().get(square), inner) {
        (Some(player), _) if middle => {
            let mut style = theme.piece(player);
            if game.last_move() == Some(square) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            (centre(&player.to_string()), style)
        }
        (Some(_), _) => (centre(""), Style::new()),
        (None, 0) => (
            format!("{:<width$}", app.label(square)),
            theme.label(square == app.cursor),
        ),
        (None, _) if middle => match values[square.index() as usize] {
            Some(value) => (centre(&value.to_string()), theme.hint(value)),
            None => (centre(""), Style::new()),
        },
        (None, _) => (centre(""), Style::new()),
    }
}

/// The in-game menu as a centred popup.
fn render_menu(frame: &mut Frame, app: &App, selected: usize, theme: Theme) {
    let forced = [app.settings.x, app.settings.o]
        .iter()
        .any(|seat| matches!(seat, Seat::Engine(s) if s.first_move().is_some()));
    let height = MenuRow::ALL.len() as u16 + 4 + u16::from(forced);
    let area = frame
        .area()
        .centered(Constraint::Length(40), Constraint::Length(height));
    let choice = |name: &str, value: String| format!("{name:<10} ‹ {value:<14} ›");
    let seat = |seat: Seat| seat.to_string();
    let value = |row: MenuRow| match row {
        MenuRow::X => choice("X", seat(app.settings.x)),
        MenuRow::XMistakes => choice("  mistakes", app.rate_text(Player::X)),
        MenuRow::O => choice("O", seat(app.settings.o)),
        MenuRow::OMistakes => choice("  mistakes", app.rate_text(Player::O)),
        MenuRow::Delay => choice(
            "Delay",
            format!("{:.1} s", app.settings.delay.as_secs_f64()),
        ),
        MenuRow::Clock => choice(
            "Clock",
            app.settings
                .clock
                .map_or("off".to_string(), |c| format!("{} s", c.as_secs())),
        ),
        MenuRow::Keys => choice(
            "Keys",
            match app.settings.layout {
                KeyLayout::Rows => "1 = top-left".to_string(),
                KeyLayout::Keypad => "keypad 7 8 9".to_string(),
            },
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
    if forced {
        // Perfect and trap never lose, but not from a forced first square.
        lines.push(Line::raw(" A forced first move (@N) can lose"));
    }
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
        let mut settings = Settings::new(x.parse().unwrap(), o.parse().unwrap());
        settings.delay = Duration::ZERO;
        App::new(settings)
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
    /// The board's left edge in a 60x24 terminal (31 wide, centred).
    const LEFT: u16 = 14;
    /// The board's top edge in a 60x24 terminal (24 rows of content: the title, the
    /// board, then the rows below it and three lines of keys; no gap after the title).
    const TOP: u16 = 1;

    /// The terminal cell in the middle row of `square`'s cell, `dx` into it.
    fn middle(square: u8, dx: u16) -> (u16, u16) {
        let s = sq(square);
        (
            LEFT + 1 + u16::from(s.column()) * 10 + dx,
            TOP + 1 + u16::from(s.row()) * 4 + 1,
        )
    }

    #[test]
    fn renders_the_board_pieces_keys_and_status() {
        let mut a = app("human", "human");
        a.apply(Action::Place(sq(4)));
        a.apply(Action::Place(sq(0)));
        let lines = text(&draw(&a, 60, 24, COLOR));
        let screen = lines.join("\n");
        assert!(lines[0].contains("tictable — perfect tic-tac-toe"));
        let top = TOP as usize;
        assert_eq!(
            &lines[top][LEFT as usize..],
            "┌─────────┬─────────┬─────────┐"
        );
        assert_eq!(lines[top + 2].trim(), "│    O    │         │         │");
        assert_eq!(lines[top + 6].trim(), "│         │    X    │         │");
        // Keys 1-9 left to right, top to bottom on the empty squares.
        assert!(lines[top + 1].contains("│         │2        │3        │"));
        assert!(lines[top + 9].contains("│7        │8        │9        │"));
        assert!(screen.contains("X: human   O: human"), "{screen}");
        assert!(screen.contains("Score  X 0 · O 0 · draws 0"));
        assert!(screen.contains("X to move"));
        assert!(screen.contains("1-9 (1 = top-left) or click"), "{screen}");
        assert!(screen.contains("q quit"));
        // The keypad layout shows its own keys, and says so.
        a.settings.layout = KeyLayout::Keypad;
        let lines = text(&draw(&a, 60, 24, COLOR));
        assert!(lines[top + 1].contains("│         │8        │9        │"));
        assert!(lines.join("\n").contains("1-9 (7 = top-left) or click"));
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
        let (x8, y8) = middle(8, 2);
        assert_eq!(buffer[(x8, y8)].bg, Color::DarkGray);
        // The cursor square's key is readable: not dark grey on dark grey.
        let key = (x8 - 2, y8 - 1);
        assert_eq!(buffer[key].symbol(), "9");
        assert_eq!(buffer[key].bg, Color::DarkGray);
        assert_ne!(buffer[key].fg, buffer[key].bg);
        // The last move (O on 4) is underlined.
        let (x4, y4) = middle(4, 4);
        assert_eq!(buffer[(x4, y4)].symbol(), "O");
        assert!(buffer[(x4, y4)].modifier.contains(Modifier::UNDERLINED));
        a.apply(Action::Place(sq(2)));
        let buffer = draw(&a, 60, 24, COLOR);
        for column in 0..3 {
            assert_eq!(buffer[middle(column, 4)].bg, Color::Green);
        }
        assert_eq!(buffer[middle(3, 4)].bg, Color::Reset);
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
        let row0 = (TOP + 2) as usize;
        assert!(lines[row0].contains("win in 1"), "{}", lines[row0]);
        let x = lines[row0].find("win in 1").unwrap() as u16;
        assert_eq!(buffer[(x, row0 as u16)].fg, Color::Green);
        let values = move_values(&a.game.board()).unwrap();
        for s in a.game.board().empty_squares() {
            let label = values[s.index() as usize].unwrap().to_string();
            let y = middle(s.index(), 0).1 as usize;
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
        assert!(buffer[middle(0, 4)].modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn long_messages_wrap_instead_of_being_cut() {
        let mut a = app("human", "human");
        let message = "cannot load: /nonexistent/dir/g.json: No such file or directory \
                       (os error 2)";
        a.loaded_from(
            "g.json".into(),
            Err("/nonexistent/dir/g.json: No such file or directory (os error 2)".into()),
        );
        assert_eq!(a.message.as_deref(), Some(message));
        for (width, height) in [(40, 24), (60, 24), (45, 30)] {
            let screen = text(&draw(&a, width, height, COLOR)).join(" ");
            let words: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(words.contains(message), "{width}x{height}: {screen}");
        }
    }

    #[test]
    fn the_board_grows_and_centres_and_clicks_find_their_square() {
        let a = app("human", "human");
        for (width, height, cell) in [(40, 24, 9), (60, 24, 9), (80, 32, 13), (200, 60, 21)] {
            let area = Rect::new(0, 0, width, height);
            let g = Geometry::new(area, KeyLayout::Rows).unwrap();
            assert_eq!(g.cell_width, cell, "{width}x{height}");
            // Centred: the margins differ by at most one column.
            let right = width - g.board.right();
            assert!(g.board.x.abs_diff(right) <= 1, "{width}x{height}");
            let buffer = draw(&a, width, height, COLOR);
            assert_eq!(buffer[(g.board.x, g.board.y)].symbol(), "┌");
            // A click anywhere inside a cell picks its square; grid lines pick none.
            for s in 0..9u8 {
                let (row, column) = (u16::from(s / 3), u16::from(s % 3));
                let x = g.board.x + 1 + column * (g.cell_width + 1);
                let y = g.board.y + 1 + row * (g.cell_height + 1);
                for (dx, dy) in [(0, 0), (g.cell_width - 1, g.cell_height - 1)] {
                    assert_eq!(
                        square_at(area, KeyLayout::Rows, x + dx, y + dy),
                        Some(sq(s))
                    );
                }
            }
            assert_eq!(
                square_at(area, KeyLayout::Rows, g.board.x, g.board.y + 1),
                None
            );
            assert_eq!(
                square_at(
                    area,
                    KeyLayout::Rows,
                    g.board.x + 1 + g.cell_width,
                    g.board.y + 1
                ),
                None
            );
            assert_eq!(square_at(area, KeyLayout::Rows, 0, 0), None);
        }
        assert!(square_at(Rect::new(0, 0, 30, 10), KeyLayout::Rows, 15, 5).is_none());
    }

    #[test]
    fn menu_popup_and_small_terminals() {
        let mut a = app("human", "perfect:0.15");
        a.apply(Action::ToggleMenu);
        let screen = text(&draw(&a, 60, 24, COLOR)).join("\n");
        assert!(screen.contains("Menu"));
        assert!(screen.contains("X          ‹ human          ›"), "{screen}");
        assert!(screen.contains("O          ‹ perfect:0.15   ›"), "{screen}");
        // Issue 28: "mistakes‹" had no space before the arrow.
        assert!(screen.contains("  mistakes ‹ 15 %"), "{screen}");
        assert!(!screen.contains("mistakes‹"), "{screen}");
        assert!(screen.contains("Delay      ‹ 0.0 s          ›"));
        assert!(screen.contains("Clock      ‹ off            ›"));
        assert!(screen.contains("Keys       ‹ 1 = top-left   ›"));
        assert!(screen.contains("Start a new game"));
        let small = text(&draw(&a, 30, 10, COLOR)).join(" ");
        assert!(small.contains("Terminal too small (30x10)"), "{small}");
        assert!(!fits(Rect::new(0, 0, 30, 10)));
        // Resizing back renders the full screen again.
        let mut terminal = Terminal::new(TestBackend::new(30, 10)).unwrap();
        terminal.draw(|f| render(f, &a, COLOR)).unwrap();
        terminal.backend_mut().resize(70, 30);
        terminal.autoresize().unwrap();
        terminal.draw(|f| render(f, &a, COLOR)).unwrap();
        let screen = text(terminal.backend().buffer()).join("\n");
        assert!(screen.contains("┌─────────"), "{screen}");
    }

    #[test]
    fn prompts_and_the_clock_show_on_the_status_line() {
        let mut a = app("human", "trap");
        a.apply(Action::Save);
        let screen = text(&draw(&a, 80, 30, COLOR)).join("\n");
        assert!(
            screen.contains("Save to file: tictable-game.json▏ (Enter: save · Esc: cancel)"),
            "{screen}"
        );
        a.apply(Action::PromptCancel);
        a.settings.clock = Some(Duration::from_secs(10));
        a.clock_left = Some(Duration::from_secs(4));
        let screen = text(&draw(&a, 80, 30, COLOR)).join("\n");
        assert!(screen.contains("X (you) to move · 4 s left"), "{screen}");
    }

    #[test]
    fn every_key_shows_at_the_smallest_size() {
        // Issue 28: at 40x24 the key line was cut after "n": save, load, menu and
        // quit were not shown.
        let a = app("human", "trap");
        for (width, height) in [(MIN_WIDTH, MIN_HEIGHT), (50, 24), (60, 24), (80, 30)] {
            // Both layouts take the same rows (`fits` asks with one of them).
            let widths = |layout| {
                key_lines(layout, width)
                    .iter()
                    .map(|l| l.chars().count())
                    .collect::<Vec<_>>()
            };
            assert_eq!(widths(KeyLayout::Rows), widths(KeyLayout::Keypad));
            let lines = text(&draw(&a, width, height, COLOR));
            let screen = lines.join("\n");
            for key in [
                "u undo", "r redo", "h hint", "n new", "s save", "l load", "m menu", "q quit",
            ] {
                // Each on one line, never split by the wrapping.
                assert!(
                    lines.iter().any(|l| l.contains(key)),
                    "{width}x{height}: {key} missing:\n{screen}"
                );
            }
            assert!(screen.contains("1-9"), "{width}x{height}:\n{screen}");
            // The board is still whole.
            assert!(
                screen.contains("└─") && screen.contains("─┘"),
                "{width}x{height}:\n{screen}"
            );
        }
    }

    #[test]
    fn a_forced_first_move_is_said_to_lose_in_the_menu() {
        // Issue 28: trap@2 gives up the never-lose guarantee; the menu said nothing.
        let mut a = app("human", "trap@2");
        a.apply(Action::ToggleMenu);
        let screen = text(&draw(&a, 60, 24, COLOR)).join("\n");
        assert!(screen.contains("O          ‹ trap@2"), "{screen}");
        assert!(screen.contains("forced first move"), "{screen}");
        assert!(screen.contains("can lose"), "{screen}");
        let mut a = app("human", "trap");
        a.apply(Action::ToggleMenu);
        let screen = text(&draw(&a, 60, 24, COLOR)).join("\n");
        assert!(!screen.contains("forced first move"), "{screen}");
    }

    #[test]
    fn the_hint_key_says_when_hints_are_on_without_moving_anything() {
        // Issue 34 item 14: `h` toggled the hints with no indicator.
        let mut a = app("human", "trap");
        for (width, height) in [(MIN_WIDTH, MIN_HEIGHT), (60, 24)] {
            a.hint = false;
            let off = text(&draw(&a, width, height, Theme { color: false }));
            assert!(off.iter().any(|l| l.contains("h hint off")), "{off:?}");
            a.apply(Action::ToggleHint);
            let buffer = draw(&a, width, height, Theme { color: false });
            let on = text(&buffer);
            let row = on
                .iter()
                .position(|l| l.contains("h hint ON"))
                .unwrap_or_else(|| panic!("{width}x{height}: no \"h hint ON\" in {on:#?}"));
            assert!(!on.join("\n").contains("h hint off"));
            let x = on[row].find("h hint ON").unwrap() as u16;
            assert!(buffer[(x, row as u16)]
                .modifier
                .contains(Modifier::REVERSED));
            // Every other row as it was: the legend does not reflow.
            for (y, (before, after)) in off.iter().zip(&on).enumerate() {
                if y != row && !(TOP as usize..TOP as usize + 13).contains(&y) {
                    assert_eq!(before, after, "{width}x{height} row {y}");
                }
            }
        }
    }

    #[test]
    fn long_names_and_errors_never_leave_the_screen_at_40x24_and_80x24() {
        // Issue 39 item 14: with a long name, the end of an error ("No such file or
        // directory (os error" cut off), the keys and the cursor left the screen.
        let long = format!("/no/such/dir/{}/game.json", "a-very-long-name".repeat(12));
        assert!(long.chars().count() > 160);
        for (width, height) in [(40, 24), (80, 24)] {
            let mut a = app("human", "trap");
            a.saved(Err(format!(
                "{long}: No such file or directory (os error 2)"
            )));
            let lines = text(&draw(&a, width, height, COLOR));
            let screen = lines.join("\n");
            assert!(screen.contains("cannot save:"), "{screen}");
            assert!(screen.contains("/no/such/dir/"), "{screen}");
            assert!(screen.contains("(os error 2)"), "{screen}");
            assert!(screen.contains('…'), "{screen}");
            for key in ["h hint off", "s save", "q quit", "1-9"] {
                assert!(screen.contains(key), "{key}:\n{screen}");
            }
            // The prompt with that name: the name's end, the cursor and the keys.
            a.file = long.clone().into();
            a.apply(Action::Save);
            let lines = text(&draw(&a, width, height, COLOR));
            let screen = lines.join("\n");
            assert!(screen.contains("game.json▏"), "{screen}");
            assert!(screen.contains("(Enter: save · Esc: cancel)"), "{screen}");
            assert!(screen.contains("q quit"), "{screen}");
        }
        // The selected pre-filled name is shown reversed; once typing replaced it, not.
        let mut a = app("human", "trap");
        a.apply(Action::Save);
        let buffer = draw(&a, 80, 24, COLOR);
        let lines = text(&buffer);
        let y = lines
            .iter()
            .position(|l| l.contains("Save to file:"))
            .unwrap();
        let x = lines[y].find("tictable-game.json").unwrap() as u16;
        assert!(buffer[(x, y as u16)].modifier.contains(Modifier::REVERSED));
        a.apply(Action::PromptChar('g'));
        let buffer = draw(&a, 80, 24, COLOR);
        assert!(text(&buffer)[y].contains("Save to file: g▏"));
        assert!(!buffer[(x, y as u16)].modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn a_long_file_name_is_shortened_and_the_keys_stay_at_40x24() {
        // Issue 34 item 14: a long save file name pushed "(Enter: save · Esc:
        // cancel)" off the status rows at 40x24.
        let mut a = app("human", "trap");
        let name = "a-very-long-directory-name/another-long-directory/and-a-long-save-name.json";
        a.file = name.into();
        for (action, keys) in [
            (Action::Save, "(Enter: save · Esc: cancel)"),
            (Action::Load, "(Enter: load · Esc: cancel)"),
        ] {
            a.prompt = None;
            a.apply(action);
            let lines = text(&draw(&a, MIN_WIDTH, MIN_HEIGHT, COLOR));
            let screen = lines.join("\n");
            assert!(lines.iter().any(|l| l.trim() == keys), "{screen}");
            // The name's end, after an ellipsis, on one line of the width.
            let shown = lines.iter().find(|l| l.starts_with('…')).expect(&screen);
            assert_eq!(shown.chars().count(), usize::from(MIN_WIDTH), "{screen}");
            assert!(shown.ends_with("and-a-long-save-name.json▏"), "{screen}");
            for key in ["h hint off", "s save", "q quit", "1-9"] {
                assert!(screen.contains(key), "{key}:\n{screen}");
            }
        }
        // The overwrite question keeps its (y/n).
        a.prompt = None;
        a.ask_overwrite(name.into());
        let screen = text(&draw(&a, MIN_WIDTH, MIN_HEIGHT, COLOR)).join("\n");
        assert!(screen.contains("overwrite it? (y/n)"), "{screen}");
        assert!(screen.contains("…"), "{screen}");
        // A short name stays on one line as before.
        a.prompt = None;
        a.file = "g.json".into();
        a.apply(Action::Save);
        let screen = text(&draw(&a, 80, 30, COLOR)).join("\n");
        assert!(
            screen.contains("Save to file: g.json▏ (Enter: save · Esc: cancel)"),
            "{screen}"
        );
    }
}
