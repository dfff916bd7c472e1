//! `tictable play --game G --plain`: any game as a line dialogue on stdin/stdout.
//! Moves are typed in the game's notation (numbered from 1); commands are single
//! letters. Engines answer at once; two engines play the game to its end, each move
//! with its value (a game to watch). n, l and q ask first when a game in progress is
//! not saved, with tic-tac-toe's words (l reads and checks the file before asking).

use super::app::Then;
use super::read_failed;
use super::session::Session;
use crate::analyse::read_line;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use tictable_games::{Game, Notation};

/// The longest line read; longer ones are not a move (and memory stays bounded).
const MAX_LINE: usize = 256;

/// The commands, with the game's move notation.
fn help<G: Game>(session: &Session<G>) -> String {
    format!(
        "Type a move ({}), or: u undo, r redo, h hints, w why a mistake, n new game, \
         s [FILE] save, l [FILE] load, q quit (n, l and q ask first when the game is \
         not saved).",
        session.game().move_syntax(Notation::People)
    )
}

fn show<G: Game>(session: &Session<G>, out: &mut impl Write) -> io::Result<()> {
    writeln!(out)?;
    let p = session.position();
    for line in session
        .look
        .draw(&session.game().write_position(&p, Notation::People))
    {
        writeln!(out, "  {line}")?;
    }
    if session.hints && !session.engine_to_move() && session.result().is_none() {
        writeln!(out, "Hints: {}", session.hints().join(", "))?;
    }
    writeln!(out, "{}", session.status())?;
    if session.seats.iter().all(Option::is_some) {
        if let Some(why) = session.why() {
            writeln!(out, "Why: {why}.")?;
        }
    }
    Ok(())
}

/// Runs the dialogue. `echo` repeats each input line after the prompt (input not
/// typed at a terminal).
pub fn run<G: Game, R: rand_core::Rng + ?Sized>(
    mut session: Session<G>,
    mut input: impl BufRead,
    mut out: impl Write,
    rng: &mut R,
    echo: bool,
) -> io::Result<()> {
    let game = session.game();
    writeln!(out, "{}: {}", game.id(), game.rules())?;
    writeln!(out, "{}", help(&session))?;
    show(&session, &mut out)?;
    let mut line = Vec::new();
    // The discard question being asked, and what a yes does (a load: the save's text).
    let mut asking: Option<Then<String>> = None;
    loop {
        while session.engines_stop().is_none() {
            let Some(said) = session.engine_step(rng) else {
                break;
            };
            writeln!(out, "{said}")?;
            show(&session, &mut out)?;
            if let Some(stop) = session.engines_stop() {
                writeln!(out, "{stop}")?;
            }
        }
        match &asking {
            Some(then) => write!(out, "{} > ", then.question())?,
            None => write!(out, "> ")?,
        }
        out.flush()?;
        let Some(length) = read_line(&mut input, &mut line, MAX_LINE).map_err(read_failed)? else {
            writeln!(out)?;
            return Ok(());
        };
        let text = String::from_utf8_lossy(&line).trim().to_string();
        if echo {
            writeln!(out, "{text}")?;
        }
        if length > MAX_LINE {
            writeln!(
                out,
                "That line is longer than {MAX_LINE} bytes: not a move."
            )?;
            continue;
        }
        if let Some(then) = asking.take() {
            match super::yes_no(&text) {
                None => {
                    writeln!(out, "Please answer y or n.")?;
                    asking = Some(then);
                    continue;
                }
                Some(false) => {
                    writeln!(out, "Nothing done.")?;
                    continue;
                }
                Some(true) => match then {
                    Then::NewGame => session.new_game(),
                    Then::Load(path, text) => {
                        if !load(&mut session, &path, &text, &mut out)? {
                            continue;
                        }
                    }
                    Then::Quit => return Ok(()),
                },
            }
            show(&session, &mut out)?;
            continue;
        }
        let (command, argument) = text
            .split_once(' ')
            .map_or((text.as_str(), ""), |(c, a)| (c, a.trim()));
        let file = || {
            if argument.is_empty() {
                session.file.clone()
            } else {
                PathBuf::from(argument)
            }
        };
        match command {
            "" => continue,
            "q" | "quit" if session.unsaved() => {
                asking = Some(Then::Quit);
                continue;
            }
            "q" | "quit" => return Ok(()),
            "?" | "help" => writeln!(out, "{}", help(&session))?,
            "u" => {
                if !session.undo() {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            "r" => {
                if !session.redo() {
                    writeln!(out, "Nothing to redo.")?;
                }
            }
            "h" => {
                session.hints = !session.hints;
                writeln!(out, "Hints {}.", if session.hints { "on" } else { "off" })?;
            }
            "n" if session.unsaved() => {
                asking = Some(Then::NewGame);
                continue;
            }
            "n" => session.new_game(),
            "w" => {
                match session.last_mistake() {
                    Some(m) => {
                        writeln!(out, "{} The refutation: {}.", m.said, m.line.join(" "))?;
                        if let Some(end) = m.positions.last() {
                            for line in session.look.draw(end) {
                                writeln!(out, "  {line}")?;
                            }
                        }
                    }
                    None => writeln!(out, "Your last move gave nothing away.")?,
                }
                continue;
            }
            "s" => {
                let path = file();
                let written = session.save_file_text().and_then(|text| {
                    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
                });
                match written {
                    Ok(()) => {
                        session.saved = Some(session.save_text());
                        writeln!(out, "Saved to {}.", path.display())?;
                    }
                    Err(e) => writeln!(out, "Not saved: {e}")?,
                }
                continue;
            }
            "l" => {
                // The file read and checked first: asked only when the load can succeed.
                let path = file();
                let checked = super::read_save(&path).and_then(|text| {
                    session
                        .check_save(&text)
                        .map(|_| text)
                        .map_err(|e| format!("{}: {e}", path.display()))
                });
                match checked {
                    Err(e) => {
                        writeln!(out, "Not loaded: {e}")?;
                        continue;
                    }
                    Ok(text) if session.unsaved() => {
                        asking = Some(Then::Load(path, text));
                        continue;
                    }
                    Ok(text) => {
                        if !load(&mut session, &path, &text, &mut out)? {
                            continue;
                        }
                    }
                }
            }
            _ => {
                if let Err(e) = session.play_text(&text) {
                    writeln!(out, "{e}")?;
                    continue;
                }
            }
        }
        show(&session, &mut out)?;
    }
}

/// Puts the save's `text` (read from `path`, checked) on the board and says so;
/// `false` (and why) when it cannot, the game kept.
fn load<G: Game>(
    session: &mut Session<G>,
    path: &std::path::Path,
    text: &str,
    out: &mut impl Write,
) -> io::Result<bool> {
    match session.load_text(text) {
        Ok(()) => {
            session.saved = Some(session.save_text());
            writeln!(out, "Loaded {}.", path.display())?;
            Ok(true)
        }
        Err(e) => {
            writeln!(out, "Not loaded: {}: {e}", path.display())?;
            Ok(false)
        }
    }
}
