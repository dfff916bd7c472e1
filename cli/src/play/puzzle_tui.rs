//! `tictable puzzle` full-screen: a position where the side to move wins and exactly
//! one move keeps the win, its board drawn as `tictable play --game G` draws it
//! ([`super::look`]), the task ("win in N"), the move typed in the game's notation
//! (squares and columns from 1; a slide or a pawn move as two keys, from and to),
//! judged by the table at once; h hint, a answer (gives up), n next puzzle (of the
//! same remoteness), q quit. The texts are the line dialogue's (`crate::puzzle`); the
//! puzzles come from the table or, on the boards too large to solve, the live search
//! (`crate::puzzle::Source`).

use super::game_tui::{before_keys, board_lines, draw_with_legend, typed_and_message, Flow};
use super::look::Look;
use super::session::type_key_at;
use crate::puzzle::{answer_text, hint_text, task_text, verdict_text, Source};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::{DefaultTerminal, Frame};
use std::io;
use tictable_games::puzzle::{Puzzle, Verdict};
use tictable_games::{Game, Notation};

/// The keys, as the legend lists them.
const KEYS: [&str; 2] = ["h hint · a answer", "n next puzzle · q quit"];

/// The full-screen puzzle: the puzzle shown, what is typed, what was said.
pub struct Screen<G: Game, S: Source<G>> {
    /// Where the puzzles come from and what judges them.
    source: S,
    look: Look,
    /// The remoteness the next puzzles are drawn from (`None`: any).
    remoteness: Option<u8>,
    /// The puzzle shown.
    puzzle: Puzzle<G>,
    /// Its number in this run, from 1.
    number: u32,
    /// What is typed of the answer.
    typed: String,
    /// What the last key said (an error, the hint).
    message: String,
    /// The move answered and the table's verdict on it, once answered (`None` for a
    /// move: given up).
    answered: Option<(Option<G::Move>, String)>,
    /// Puzzles solved and failed (given up counts as failed).
    solved: u32,
    failed: u32,
}

impl<G: Game, S: Source<G>> Screen<G, S> {
    /// The screen showing `first`; the next puzzles are of `remoteness`.
    pub fn new(source: S, first: Puzzle<G>, remoteness: Option<u8>) -> Self {
        Screen {
            look: Look::of(&source.game().id()),
            source,
            remoteness,
            puzzle: first,
            number: 1,
            typed: String::new(),
            message: String::new(),
            answered: None,
            solved: 0,
            failed: 0,
        }
    }

    /// The side to move, as the board calls it (X and O, White and Black).
    fn mover(&self) -> &'static str {
        let game = self.source.game();
        self.look.side(game.to_move(&self.puzzle.position))
    }

    /// Judges `mv` by the table and says so.
    fn answer(&mut self, mv: G::Move) {
        let verdict = self.source.judge(&self.puzzle.position, mv);
        if verdict == Some(Verdict::Solved) {
            self.solved += 1;
        } else {
            self.failed += 1;
        }
        let said = verdict_text(self.source.game(), &self.puzzle, self.mover(), mv, verdict);
        self.answered = Some((Some(mv), said));
    }

    /// Applies `key`.
    pub fn key<R: rand_core::Rng + ?Sized>(&mut self, key: KeyEvent, rng: &mut R) -> Flow {
        if let Some(flow) = before_keys(key) {
            return flow;
        }
        self.message.clear();
        if key.code == KeyCode::Char('n') {
            // The first puzzle was drawn from the same remoteness: the table has one;
            // the live search may find none within its tries (said).
            match self.source.pick(self.remoteness, rng) {
                Ok(next) => {
                    self.puzzle = next;
                    self.number += 1;
                    self.typed.clear();
                    self.answered = None;
                }
                Err(e) => self.message = e,
            }
            return Flow::Go;
        }
        let game = self.source.game();
        match key.code {
            KeyCode::Char('q') => return Flow::Quit,
            _ if self.answered.is_some() => {
                self.message = "Answered: n for the next puzzle, q to quit.".into();
            }
            KeyCode::Char('h') => self.message = hint_text(game, &self.puzzle),
            KeyCode::Char('a') => {
                self.failed += 1;
                self.answered = Some((None, answer_text(game, &self.puzzle)));
            }
            KeyCode::Char(c @ ('0'..='9' | '-')) => {
                match type_key_at(game, &self.puzzle.position, &mut self.typed, c) {
                    Ok(Some(mv)) => self.answer(mv),
                    Ok(None) => {}
                    Err(e) => self.message = e,
                }
            }
            KeyCode::Enter if !self.typed.is_empty() => {
                let typed = std::mem::take(&mut self.typed);
                match game.parse_move(&self.puzzle.position, &typed, Notation::People) {
                    Ok(mv) => self.answer(mv),
                    Err(e) => self.message = e.to_string(),
                }
            }
            KeyCode::Backspace | KeyCode::Esc => self.typed.clear(),
            _ => {}
        }
        Flow::Go
    }

    /// The screen: the game and the puzzle's number, the board (after the answer once
    /// answered), the task, what is typed, the message, the verdict, the tally and the
    /// keys.
    pub fn render(&self, frame: &mut Frame, color: bool) {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let game = self.source.game();
        let p = &self.puzzle;
        let shown = match self.answered {
            Some((Some(mv), _)) => game.play(&p.position, mv),
            _ => p.position,
        };
        let mut lines = vec![
            Line::styled(
                format!("tictable · {} · puzzle {}", game.id(), self.number),
                bold,
            ),
            Line::raw(""),
        ];
        lines.extend(board_lines(
            self.look,
            &game.write_position(&shown, Notation::People),
            color,
        ));
        lines.push(Line::raw(""));
        lines.push(Line::styled(task_text(self.mover(), p.remoteness), bold));
        typed_and_message(&mut lines, &self.typed, &self.message);
        if let Some((_, said)) = &self.answered {
            lines.push(Line::styled(said.clone(), bold));
        }
        lines.push(Line::raw(format!(
            "Solved {} · failed {}",
            self.solved, self.failed
        )));
        let notation = format!("Moves are {}.", game.move_syntax(Notation::People));
        draw_with_legend(frame, lines, &KEYS, notation, color);
    }
}

/// Runs the full-screen puzzle, starting with `first`, until q.
pub fn run<G: Game, S: Source<G>, R: rand_core::Rng + ?Sized>(
    source: S,
    first: Puzzle<G>,
    remoteness: Option<u8>,
    rng: &mut R,
    color: bool,
) -> io::Result<()> {
    let mut screen = Screen::new(source, first, remoteness);
    let mut terminal: DefaultTerminal = ratatui::try_init()?;
    let result = (|| -> io::Result<()> {
        loop {
            terminal.draw(|frame| screen.render(frame, color))?;
            match event::read()? {
                Event::Key(k) if screen.key(k, rng) == Flow::Quit => return Ok(()),
                Event::Resize(..) => terminal.autoresize()?,
                _ => {}
            }
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Live;
    use ratatui::crossterm::event::KeyModifiers;
    use tictable_games::search::Searcher;
    use tictable_games::{catalog, solve, Hexapawn, Solution};

    fn press<G: Game, S: Source<G>>(screen: &mut Screen<G, S>, c: char) {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        screen.key(key, &mut rand_pcg::Pcg64Mcg::new(1));
    }

    /// Types the answer of the puzzle shown key by key (the `-` of a pawn move comes
    /// by itself) and Enter; the tally says whether it was solved.
    fn answer_typed<G: Game, S: Source<G>>(mut source: S) {
        let mut rng = rand_pcg::Pcg64Mcg::new(3);
        let first = source.pick(None, &mut rng).unwrap();
        let answer = source.game().write_move(first.answer, Notation::People);
        let mut screen = Screen::new(source, first, None);
        for c in answer.chars().filter(|&c| c != '-') {
            press(&mut screen, c);
        }
        if screen.answered.is_none() {
            let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
            screen.key(enter, &mut rng);
        }
        assert_eq!((screen.solved, screen.failed), (1, 0), "{answer}");
        // n serves the next puzzle, unanswered.
        press(&mut screen, 'n');
        assert_eq!((screen.number, screen.answered.is_none()), (2, true));
    }

    #[test]
    fn pawn_moves_and_columns_are_typed_as_in_the_game() {
        answer_typed(&solve(Hexapawn).unwrap());
        let catalog::AnyGame::ConnectFour(c4) = catalog::parse("connect4:4x4").unwrap() else {
            unreachable!()
        };
        let solution: Solution<_> = solve(c4).unwrap();
        answer_typed(&solution);
        // The board too large to solve: its puzzles found and judged by the live search.
        let catalog::AnyGame::ConnectFour(large) = catalog::parse("connect4:4x6").unwrap() else {
            unreachable!()
        };
        answer_typed(Live(Searcher::new(large, 1 << 22).unwrap()));
    }
}
