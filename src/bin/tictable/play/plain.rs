//! `tictable play --plain`: the game as a line dialogue on stdin/stdout. Squares are
//! typed as numeric-keypad digits (shown on the empty squares); bad input gets a
//! message and the prompt again.

use super::app::{keypad_digit, keypad_square, Action, App, Seat};
use super::{engine_move, perform};
use anstyle::{AnsiColor, Style};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use tictable::game::GameResult;
use tictable::{move_values, Player, Square};

const HELP: &str = "Type a square 1-9 (numeric keypad layout: 7 8 9 is the top row), \
or: u undo, r redo, h hint, n new game, s [FILE] save, l [FILE] load, q quit.";

/// Runs the dialogue. `echo` repeats each input line after the prompt (for input
/// that is not typed at a terminal, so the transcript reads like a session).
pub fn run<R: rand_core::Rng + ?Sized>(
    mut app: App,
    mut input: impl BufRead,
    mut out: impl Write,
    rng: &mut R,
    file: &Path,
    echo: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "tictable: X is {}, O is {}. {HELP}",
        seat_name(app.settings.x),
        seat_name(app.settings.o)
    )?;
    let mut line = String::new();
    // The game last drawn: the board is drawn again only when it changed.
    let mut shown = None;
    loop {
        while let Some(strategy) = app.engine_to_move() {
            let player = app.game.to_move();
            if !engine_move(&mut app, rng) {
                break;
            }
            let square = app.game.last_move().unwrap_or(Square::CENTRE);
            writeln!(
                out,
                "{} ({strategy}) plays {}.",
                piece(player),
                keypad_digit(square)
            )?;
        }
        let drawn = shown != Some(app.game);
        if drawn {
            write!(out, "\n{}\n", board_text(&app))?;
            shown = Some(app.game);
        }
        match app.game.result() {
            Some(result) if drawn => {
                let s = app.score;
                let text = match result {
                    GameResult::Win(player) => format!("{} wins!", piece(player)),
                    GameResult::Draw => "Draw.".to_string(),
                };
                writeln!(
                    out,
                    "{text} Score: X {} · O {} · draws {}.",
                    s.x, s.o, s.draws
                )?;
                write!(out, "n new game, u undo, q quit > ")?;
            }
            Some(_) => write!(out, "n new game, u undo, q quit > ")?,
            None => {
                let player = app.game.to_move();
                write!(out, "{} to move > ", piece(player))?;
            }
        }
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        let command = line.trim();
        let (word, argument) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(w, a)| (w, a.trim()));
        let word = word.to_ascii_lowercase();
        let takes_argument = matches!(word.as_str(), "s" | "save" | "l" | "load");
        if !argument.is_empty() && !takes_argument {
            writeln!(
                out,
                "One command per line: {command:?} was not played. {HELP}"
            )?;
            continue;
        }
        let action = match word.as_str() {
            "q" | "quit" | "exit" => return Ok(()),
            "u" | "undo" => Action::Undo,
            "r" | "redo" => Action::Redo,
            "n" | "new" => Action::NewGame,
            "h" | "hint" => {
                writeln!(out, "{}", hints(&app))?;
                continue;
            }
            "?" | "help" => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            "s" | "save" | "l" | "load" => {
                let path = match argument {
                    "" => file.to_path_buf(),
                    path => PathBuf::from(path),
                };
                let action = if word.starts_with('s') {
                    Action::Save
                } else {
                    Action::Load
                };
                let effect = app.apply(action);
                perform(&mut app, effect, &path);
                report(&mut app, &mut out)?;
                continue;
            }
            "" => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            text => match text.parse::<u32>() {
                Ok(digit @ 1..=9) => match keypad_square(digit as u8) {
                    Some(square) => Action::Place(square),
                    None => continue,
                },
                Ok(_) => {
                    writeln!(out, "{text} is out of range: squares are 1-9.")?;
                    continue;
                }
                Err(_) => {
                    writeln!(out, "{text:?} is not a move. {HELP}")?;
                    continue;
                }
            },
        };
        app.apply(action);
        report(&mut app, &mut out)?;
    }
}

/// Prints and clears the app's message, if any.
fn report(app: &mut App, out: &mut impl Write) -> io::Result<()> {
    if let Some(message) = app.message.take() {
        writeln!(out, "{message}.")?;
    }
    Ok(())
}

fn seat_name(seat: Seat) -> String {
    match seat {
        Seat::Human => "human".to_string(),
        Seat::Engine(s) => format!("the engine ({s})"),
    }
}

fn style(player: Player) -> Style {
    let color = match player {
        Player::X => AnsiColor::Cyan,
        Player::O => AnsiColor::Magenta,
    };
    Style::new().fg_color(Some(color.into())).bold()
}

fn piece(player: Player) -> String {
    let s = style(player);
    format!("{s}{player}{s:#}")
}

/// The board with keypad digits on the empty squares.
fn board_text(app: &App) -> String {
    let board = app.game.board();
    let mut text = String::new();
    for row in 0..3u8 {
        if row > 0 {
            text.push_str("---+---+---\n");
        }
        let cells: Vec<String> = (0..3u8)
            .map(|column| {
                let square = Square::new(row * 3 + column).unwrap_or(Square::CENTRE);
                match board.get(square) {
                    Some(player) => format!(" {} ", piece(player)),
                    None => format!(" {} ", keypad_digit(square)),
                }
            })
            .collect();
        text.push_str(&cells.join("|"));
        text.push('\n');
    }
    text
}

/// The value of every empty square for the side to move.
fn hints(app: &App) -> String {
    let board = app.game.board();
    let values = match move_values(&board) {
        Ok(values) if !board.is_over() => values,
        _ => return "The game is over.".to_string(),
    };
    let mut squares: Vec<Square> = board.legal_moves().iter().collect();
    squares.sort_by_key(|&s| keypad_digit(s));
    let list: Vec<String> = squares
        .iter()
        .filter_map(|&s| values[s.index() as usize].map(|v| format!("{} {v}", keypad_digit(s))))
        .collect();
    format!("Hint for {}: {}.", board.to_move(), list.join(" · "))
}
