//! `tictable play --plain`: the game as a line dialogue on stdin/stdout. Squares are
//! typed as keys 1-9 (left to right, top to bottom, or numeric-keypad layout with
//! `--layout keypad`; the board shows them on the empty squares); bad input, also
//! bytes that are not text, gets a message and the prompt again.

use super::app::{Action, App, Effect, Prompt, Seat};
use super::{engine_move, perform, read_failed};
use crate::analyse::read_line;
use anstyle::{AnsiColor, Style};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use tictable::game::{Game, GameResult};
use tictable::{move_values, Player, Square};

/// The longest line read; longer ones are not a move (and memory stays bounded).
const MAX_LINE: usize = 256;

/// The commands this game takes: squares only when a person plays.
fn help(app: &App) -> String {
    if app.settings.has_human() {
        format!(
            "Type a square: {}, or: u undo, r redo, h hint, w why (your last mistake), \
             n new game, s [FILE] save, l [FILE] load, q quit.",
            app.settings.layout.describe()
        )
    } else {
        "Commands: n new game, h hint, s [FILE] save, l [FILE] load, q quit.".to_string()
    }
}

/// What a typed word that is not a command is: a key 1-9, a number out of that
/// range (also a negative one), or not a move at all (`+4`, `abc`).
#[derive(Debug, PartialEq, Eq)]
enum Typed {
    Key(u8),
    OutOfRange,
    NotAMove,
}

fn typed(text: &str) -> Typed {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Typed::NotAMove;
    }
    match text.parse::<u8>() {
        Ok(key @ 1..=9) => Typed::Key(key),
        _ => Typed::OutOfRange,
    }
}

/// Runs the dialogue. `echo` repeats each input line after the prompt (for input
/// that is not typed at a terminal, so the transcript reads like a session); `bell`,
/// if any, gets the terminal bell when a game ends (stderr: the transcript on stdout
/// stays clean).
pub fn run<R: rand_core::Rng + ?Sized>(
    mut app: App,
    mut input: impl BufRead,
    mut out: impl Write,
    rng: &mut R,
    echo: bool,
    mut bell: Option<&mut dyn Write>,
) -> io::Result<()> {
    writeln!(
        out,
        "tictable: X is {}, O is {}. {}",
        seat_name(app.settings.x),
        seat_name(app.settings.o),
        help(&app)
    )?;
    let mut bytes = Vec::new();
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
                "{} ({}{}) plays {}.",
                piece(player),
                Seat::Engine(strategy),
                app.estimate_text(strategy),
                app.label(square)
            )?;
        }
        if let (true, Some(bell)) = (std::mem::take(&mut app.bell), bell.as_mut()) {
            bell.write_all(b"\x07")?;
            bell.flush()?;
        }
        let drawn = shown != Some(app.game);
        if drawn {
            write!(out, "\n{}\n", board_text(&app))?;
            shown = Some(app.game);
        }
        match (&app.prompt, app.game.result()) {
            (Some(prompt), _) => write!(out, "{} > ", prompt.text())?,
            (None, Some(result)) if drawn => {
                let text = match result {
                    GameResult::Win(player) => format!("{} wins!", piece(player)),
                    GameResult::Draw => "Draw.".to_string(),
                };
                writeln!(out, "{text} Score: {}.", app.score_text())?;
                write!(out, "n new game, u undo, q quit > ")?;
            }
            (None, Some(_)) => write!(out, "n new game, u undo, q quit > ")?,
            (None, None) => {
                let player = app.game.to_move();
                write!(out, "{} to move > ", piece(player))?;
            }
        }
        out.flush()?;
        let Some(length) = read_line(&mut input, &mut bytes, MAX_LINE).map_err(read_failed)? else {
            writeln!(out)?;
            return Ok(());
        };
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) if length <= MAX_LINE => text.trim_end_matches(['\n', '\r']),
            _ => {
                if echo {
                    writeln!(out, "{}", String::from_utf8_lossy(&bytes).trim_end())?;
                }
                let why = if length > MAX_LINE {
                    format!("a line of {length} bytes")
                } else {
                    "bytes that are not text (UTF-8)".to_string()
                };
                writeln!(out, "That is not a move: {why}. {}", help(&app))?;
                continue;
            }
        };
        if echo {
            writeln!(out, "{text}")?;
        }
        let command = text.trim();
        if let Some(Prompt::Overwrite(_) | Prompt::Discard(_)) = app.prompt {
            let Some(answer) = super::yes_no(command) else {
                writeln!(out, "Please answer y or n.")?;
                continue;
            };
            let effect = app.apply(Action::Answer(answer));
            if app.quit {
                return Ok(());
            }
            settle(&mut app, effect, &mut out, &mut shown)?;
            continue;
        }
        let (word, argument) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(w, a)| (w, a.trim()));
        let word = word.to_ascii_lowercase();
        let takes_argument = matches!(word.as_str(), "s" | "save" | "l" | "load");
        if !argument.is_empty() && !takes_argument {
            writeln!(
                out,
                "One command per line: {command:?} was not played. {}",
                help(&app)
            )?;
            continue;
        }
        let action = match word.as_str() {
            "q" | "quit" | "exit" => Action::Quit,
            "u" | "undo" => Action::Undo,
            "r" | "redo" => Action::Redo,
            "n" | "new" => Action::NewGame,
            "h" | "hint" => {
                writeln!(out, "{}", hints(&app))?;
                continue;
            }
            "w" | "why" => {
                app.apply(Action::Why);
                match app.refutation.take() {
                    Some(r) => writeln!(out, "{} The refutation: {}.", r.said, r.line)?,
                    None => writeln!(out, "Your last move gave nothing away.")?,
                }
                continue;
            }
            "?" | "help" | "" => {
                writeln!(out, "{}", help(&app))?;
                continue;
            }
            "s" | "save" | "l" | "load" => {
                let path = match argument {
                    "" => app.file.clone(),
                    path => PathBuf::from(path),
                };
                let effect = if word.starts_with('s') {
                    app.save_to(path)
                } else {
                    app.load_from(path)
                };
                settle(&mut app, effect, &mut out, &mut shown)?;
                continue;
            }
            text => match typed(text) {
                Typed::Key(key) => match app.settings.layout.square(key) {
                    Some(square) => Action::Place(square),
                    None => continue,
                },
                Typed::OutOfRange => {
                    writeln!(out, "{text} is out of range: squares are 1-9.")?;
                    continue;
                }
                Typed::NotAMove => {
                    writeln!(out, "{text:?} is not a move. {}", help(&app))?;
                    continue;
                }
            },
        };
        let effect = app.apply(action);
        if app.quit {
            return Ok(());
        }
        settle(&mut app, effect, &mut out, &mut shown)?;
    }
}

/// Performs an action's file I/O and prints its message; after a load the board is
/// drawn again (`shown` forgotten), also when the file held the game on the screen.
fn settle(
    app: &mut App,
    effect: Effect,
    out: &mut impl Write,
    shown: &mut Option<Game>,
) -> io::Result<()> {
    if matches!(effect, Effect::Load(_)) {
        *shown = None;
    }
    perform(app, effect);
    report(app, out)
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
        Seat::Engine(_) => format!("the engine ({seat})"),
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

/// The board with each empty square's key.
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
                    None => format!(" {} ", app.label(square)),
                }
            })
            .collect();
        text.push_str(&cells.join("|"));
        text.push('\n');
    }
    text
}

/// The value of every empty square for the side to move, by key.
fn hints(app: &App) -> String {
    let board = app.game.board();
    let values = match move_values(&board) {
        Ok(values) if !board.is_over() => values,
        _ => return "The game is over.".to_string(),
    };
    let mut squares: Vec<Square> = board.legal_moves().iter().collect();
    squares.sort_by_key(|&s| app.label(s));
    let list: Vec<String> = squares
        .iter()
        .filter_map(|&s| values[s.index() as usize].map(|v| format!("{} {v}", app.label(s))))
        .collect();
    format!("Hint for {}: {}.", board.to_move(), list.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_are_keys_out_of_range_or_not_moves() {
        assert_eq!(typed("4"), Typed::Key(4));
        assert_eq!(typed("09"), Typed::Key(9));
        for out in ["0", "10", "-1", "-0", "300", "99999999999999999999"] {
            assert_eq!(typed(out), Typed::OutOfRange, "{out}");
        }
        for not in ["+4", "-", "", "4a", "four", "--1", "4.0"] {
            assert_eq!(typed(not), Typed::NotAMove, "{not}");
        }
    }
}
