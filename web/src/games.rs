//! Every game of `tictable-games` on the page: a game chosen by its id is solved in
//! the browser (every reachable position's value and remoteness, the crate's one
//! solver) and then answered from that table.
//!
//! The page keeps the moves played as indices into each position's move list (in
//! the order of [`Game::moves`]); [`game_view`] replays them from the start and
//! answers the last position as JSON. Positions are written in the crate's own
//! notation with 0-based numbers (`Notation::Api`: rows of `X`, `O`, `.` joined by
//! `/`, top row first, then the side to move where the game needs it); the page
//! draws the board from that text and finds a move's squares by comparing the
//! position with the child the move leads to, so it needs no per-game move code.

use crate::answer;
use std::cell::RefCell;
use std::fmt::Write as _;
use tictable_games::puzzle::{self, Puzzle, Verdict};
use tictable_games::{catalog, dispatch, solve, Game, Notation, Outcome, Record, Solution};

/// A solved game as the page uses it, whatever its position and move types.
trait Solved {
    /// The JSON view of the position after `moves` (indices into move lists).
    fn view(&self, moves: &[u32]) -> String;
    /// The JSON summary: id, rules, positions, start value, table bytes.
    fn summary(&self) -> String;
    /// The puzzles per remoteness, counted exactly (`puzzle::counts`), as JSON.
    fn puzzle_counts(&self) -> String;
    /// Serves a new puzzle of `remoteness` (any when `None`) and keeps it; JSON.
    fn puzzle_new(&self, remoteness: Option<u8>) -> String;
    /// Judges the move of index `index` (in the puzzle position's move list) as the
    /// table does (`puzzle::judge`); JSON.
    fn puzzle_judge(&self, index: u32) -> String;
    /// The hint of the puzzle served (`puzzle::hint`), as JSON.
    fn puzzle_hint(&self) -> String;
}

/// A solved game and the puzzle served from it, if any.
struct Held<G: Game> {
    solution: Solution<G>,
    puzzle: RefCell<Option<Puzzle<G>>>,
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static GAME: RefCell<Option<Box<dyn Solved>>> = const { RefCell::new(None) };
}

/// A buffer of `len` bytes the page writes its input into (a game id, or the moves
/// as one byte each) before calling [`game_select`] or [`game_view`].
#[no_mangle]
pub extern "C" fn in_ptr(len: usize) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// A move's value for the side making it, in the hints' words: the child's value
/// for its side to move, flipped, the remoteness counting this move ("win in 1" for
/// a move that ends the game won).
fn move_value(child: Record) -> String {
    match child.outcome {
        Outcome::Draw => "draw".to_string(),
        Outcome::Loss => format!("win in {}", u32::from(child.remoteness) + 1),
        Outcome::Win => format!("loss in {}", u32::from(child.remoteness) + 1),
    }
}

fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

impl<G: Game> Solved for Held<G> {
    fn view(&self, moves: &[u32]) -> String {
        let this = &self.solution;
        let game = this.game();
        let mut p = game.start();
        let mut list = Vec::new();
        for (ply, &m) in moves.iter().enumerate() {
            list.clear();
            if game.primitive(&p).is_none() {
                game.moves(&p, &mut list);
            }
            let Some(&mv) = list.get(m as usize) else {
                return format!(
                    "{{\"error\":\"move {m} at ply {ply} is not a legal move's index\"}}"
                );
            };
            p = game.play(&p, mv);
        }
        let to_move = game.to_move(&p);
        let Some(record) = this.get(&p) else {
            return "{\"error\":\"a position not in the table\"}".to_string();
        };
        let mut s = format!(
            "{{\"position\":\"{}\",\"to_move\":\"{}\",\"outcome\":\"{}\",\"remoteness\":{}",
            game.write_position(&p, Notation::Api),
            to_move.char(),
            outcome_word(record.outcome),
            record.remoteness
        );
        if let Some(end) = game.primitive(&p) {
            let winner = match end {
                Outcome::Win => format!("\"{}\"", to_move.char()),
                Outcome::Loss => format!("\"{}\"", to_move.other().char()),
                Outcome::Draw => "null".to_string(),
            };
            let _ = write!(s, ",\"terminal\":true,\"winner\":{winner}}}");
            return s;
        }
        list.clear();
        game.moves(&p, &mut list);
        let best = this.best_moves(&p);
        s.push_str(",\"terminal\":false,\"moves\":[");
        for (i, &mv) in list.iter().enumerate() {
            let child = game.play(&p, mv);
            let value = this.get(&child).map_or("null".to_string(), move_value);
            let _ = write!(
                s,
                "{}{{\"m\":\"{}\",\"child\":\"{}\",\"value\":\"{value}\",\"best\":{}}}",
                if i > 0 { "," } else { "" },
                game.write_move(mv, Notation::People),
                game.write_position(&child, Notation::Api),
                best.contains(&mv)
            );
        }
        s.push_str("]}");
        s
    }

    fn summary(&self) -> String {
        let game = self.solution.game();
        let sum = self.solution.summary();
        format!(
            "{{\"id\":\"{}\",\"rules\":\"{}\",\"positions\":{},\"start\":\"{}\",\"start_remoteness\":{},\"max_remoteness\":{},\"table_bytes\":{},\"repeats\":{}}}",
            game.id(),
            game.rules().replace('"', "'"),
            sum.positions,
            outcome_word(sum.start.outcome),
            sum.start.remoteness,
            sum.max_remoteness,
            sum.table_bytes,
            game.repeats()
        )
    }

    fn puzzle_counts(&self) -> String {
        let counts: Vec<String> = puzzle::counts(&self.solution)
            .iter()
            .map(|(r, c)| {
                format!(
                    "{{\"remoteness\":{r},\"classes\":{},\"positions\":{}}}",
                    c.classes, c.positions
                )
            })
            .collect();
        format!("{{\"counts\":[{}]}}", counts.join(","))
    }

    fn puzzle_new(&self, remoteness: Option<u8>) -> String {
        let game = self.solution.game();
        let Some(p) =
            crate::RNG.with(|r| puzzle::pick(&self.solution, remoteness, &mut *r.borrow_mut()))
        else {
            return "{\"error\":\"no puzzle of that remoteness in this game\"}".to_string();
        };
        let mut list = Vec::new();
        game.moves(&p.position, &mut list);
        let moves: Vec<String> = list
            .iter()
            .map(|&mv| {
                format!(
                    "{{\"m\":\"{}\",\"child\":\"{}\"}}",
                    game.write_move(mv, Notation::People),
                    game.write_position(&game.play(&p.position, mv), Notation::Api)
                )
            })
            .collect();
        let s = format!(
            "{{\"position\":\"{}\",\"to_move\":\"{}\",\"remoteness\":{},\"moves\":[{}]}}",
            game.write_position(&p.position, Notation::Api),
            game.to_move(&p.position).char(),
            p.remoteness,
            moves.join(",")
        );
        *self.puzzle.borrow_mut() = Some(p);
        s
    }

    fn puzzle_judge(&self, index: u32) -> String {
        let game = self.solution.game();
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        let mut list = Vec::new();
        game.moves(&p.position, &mut list);
        let Some(&mv) = list.get(index as usize) else {
            return format!("{{\"error\":\"move {index} is not a legal move's index\"}}");
        };
        let people = |m| game.write_move(m, Notation::People);
        let verdict = match puzzle::judge(&self.solution, &p.position, mv) {
            Some(Verdict::Solved) => "\"verdict\":\"solved\"".to_string(),
            // The record is the mover's after the move: its value in the hints' words.
            Some(Verdict::Failed(record)) => format!(
                "\"verdict\":\"failed\",\"value\":\"{}\"",
                match record.outcome {
                    Outcome::Draw => "draw".to_string(),
                    o => format!("{} in {}", outcome_word(o), record.remoteness),
                }
            ),
            None => return "{\"error\":\"a position not in the table\"}".to_string(),
        };
        format!(
            "{{{verdict},\"move\":\"{}\",\"answer\":\"{}\",\"remoteness\":{}}}",
            people(mv),
            people(p.answer),
            p.remoteness
        )
    }

    fn puzzle_hint(&self) -> String {
        let game = self.solution.game();
        let held = self.puzzle.borrow();
        let Some(p) = held.as_ref() else {
            return "{\"error\":\"no puzzle served\"}".to_string();
        };
        let hint: Vec<String> = puzzle::hint(&self.solution, p)
            .into_iter()
            .map(|m| format!("\"{}\"", game.write_move(m, Notation::People)))
            .collect();
        format!("{{\"hint\":[{}]}}", hint.join(","))
    }
}

/// Solves the game whose id (`tapatan`, `connect4:4x4`, ...) the page wrote into
/// the input buffer and keeps it as the page's game; answers its summary (JSON) or
/// `{"error":..}` with the catalogue's or the solver's words.
#[no_mangle]
pub extern "C" fn game_select() -> usize {
    let id = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    let solved: Result<Box<dyn Solved>, String> = match catalog::parse(&id) {
        Err(e) => Err(e.to_string()),
        Ok(any) => {
            dispatch!(any, g => solve(g).map(|solution| Box::new(Held { solution, puzzle: RefCell::new(None) }) as Box<dyn Solved>).map_err(|e| e.to_string()))
        }
    };
    match solved {
        Ok(s) => {
            let summary = s.summary();
            GAME.with(|g| *g.borrow_mut() = Some(s));
            answer(summary)
        }
        Err(e) => answer(format!("{{\"error\":\"{}\"}}", e.replace('"', "'"))),
    }
}

/// The position after the moves in the input buffer (one byte each: the index of
/// the move played in its position's move list), as JSON: `position`, `to_move`,
/// `outcome` and `remoteness` for the side to move, `terminal`, and either `winner`
/// or `moves` (each with its notation `m` as people write it, the `child` position,
/// its `value` for the mover and whether it is `best`).
#[no_mangle]
pub extern "C" fn game_view() -> usize {
    let moves: Vec<u32> = INPUT.with(|i| i.borrow().iter().map(|&b| u32::from(b)).collect());
    let json = GAME.with(|g| {
        g.borrow()
            .as_ref()
            .map_or("{\"error\":\"no game chosen\"}".to_string(), |s| {
                s.view(&moves)
            })
    });
    answer(json)
}

/// Runs `f` on the page's game, or answers that none is chosen.
fn with_game(f: impl FnOnce(&dyn Solved) -> String) -> usize {
    let json = GAME.with(|g| {
        g.borrow()
            .as_deref()
            .map_or("{\"error\":\"no game chosen\"}".to_string(), f)
    });
    answer(json)
}

/// The page's game's puzzles per remoteness (`tictable_games::puzzle::counts`, as
/// `tictable puzzle` counts them): `{"counts":[{"remoteness","classes","positions"}]}`.
#[no_mangle]
pub extern "C" fn puzzle_counts() -> usize {
    with_game(|s| s.puzzle_counts())
}

/// Serves a puzzle of the page's game at random (`puzzle::pick`) of `remoteness`
/// plies (any when negative) and keeps it for [`puzzle_judge`] and [`puzzle_hint`]:
/// `position`, `to_move`, `remoteness` and `moves` (each `m` as people write it and
/// its `child`), or `{"error":..}`.
#[no_mangle]
pub extern "C" fn puzzle_new(remoteness: i32) -> usize {
    let remoteness = u8::try_from(remoteness).ok();
    with_game(|s| s.puzzle_new(remoteness))
}

/// Judges the answer of index `index` in the served puzzle's move list as the table
/// does: `{"verdict":"solved"}` or `{"verdict":"failed","value":..}` (what the move
/// leaves the mover: "draw", "loss in N"), with the `move`, the `answer` and the
/// puzzle's `remoteness`; `{"error":..}` for a bad index or no puzzle.
#[no_mangle]
pub extern "C" fn puzzle_judge(index: u32) -> usize {
    with_game(|s| s.puzzle_judge(index))
}

/// The served puzzle's hint: `{"hint":[moves as people write them]}`, the answer
/// among them.
#[no_mangle]
pub extern "C" fn puzzle_hint() -> usize {
    with_game(|s| s.puzzle_hint())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OUT;

    fn call(input: &[u8], export: impl FnOnce() -> usize) -> String {
        let len = input.len();
        INPUT.with(|i| {
            let mut i = i.borrow_mut();
            i.clear();
            i.extend_from_slice(input);
        });
        let n = export();
        let text = OUT.with(|o| o.borrow().clone());
        assert_eq!(n, text.len(), "{len}");
        text
    }

    #[test]
    fn hexapawn_is_gardners_loss_for_white() {
        // Gardner (Scientific American, March 1962): the second player wins hexapawn.
        let summary = call(b"hexapawn", || game_select());
        assert!(
            summary.contains("\"positions\":135,\"start\":\"loss\",\"start_remoteness\":6"),
            "{summary}"
        );
        let start = call(&[], || game_view());
        assert!(
            start.starts_with("{\"position\":\"OOO/.../XXX X\",\"to_move\":\"X\",\"outcome\":\"loss\",\"remoteness\":6,\"terminal\":false,\"moves\":["),
            "{start}"
        );
        // Every first move loses; the slowest (8-5, the centre pawn) in 6.
        assert!(
            start.contains(
                "{\"m\":\"8-5\",\"child\":\"OOO/.X./X.X O\",\"value\":\"loss in 6\",\"best\":true}"
            ),
            "{start}"
        );
        assert!(
            start.contains("\"value\":\"loss in 4\",\"best\":false"),
            "{start}"
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let unknown = call(b"chess", || game_select());
        assert!(unknown.starts_with("{\"error\":"), "{unknown}");
        call(b"tictactoe", || game_select());
        let bad = call(&[9], || game_view());
        assert!(bad.contains("not a legal move's index"), "{bad}");
        // Moves past the end of a game are refused too.
        let mut past = vec![0u8; 9];
        past.push(0);
        assert!(call(&past, || game_view()).contains("error"));
    }

    #[test]
    fn a_finished_game_names_its_winner() {
        call(b"tictactoe", || game_select());
        // X 1, O 4, X 2, O 5, X 3: X's row. Moves are indices into each list of empty squares.
        let end = call(&[0, 2, 0, 1, 0], || game_view());
        assert!(
            end.contains("\"position\":\"XXX/OO./...\"")
                && end.contains("\"terminal\":true,\"winner\":\"X\""),
            "{end}"
        );
    }

    #[test]
    fn puzzles_are_judged_as_the_table_judges() {
        call(b"tictactoe", || game_select());
        // Tic-tac-toe's exact counts (docs/puzzles.md): 1,330 / 288 / 68 positions.
        let counts = call(&[], || puzzle_counts());
        assert!(
            counts.contains("{\"remoteness\":1,\"classes\":"),
            "{counts}"
        );
        assert!(counts.contains("\"positions\":1330}"), "{counts}");
        assert!(
            counts.contains("\"positions\":288}") && counts.contains("\"positions\":68}"),
            "{counts}"
        );
        assert!(call(&[], || puzzle_hint()).contains("error"));
        let served = call(&[], || puzzle_new(3));
        assert!(served.contains("\"remoteness\":3"), "{served}");
        let n = served.matches("\"m\":").count() as u32;
        let verdicts: Vec<String> = (0..n).map(|i| call(&[], || puzzle_judge(i))).collect();
        // Exactly one move keeps the win; every other is what the table says it is.
        assert_eq!(
            verdicts.iter().filter(|v| v.contains("solved")).count(),
            1,
            "{verdicts:?}"
        );
        assert!(
            verdicts.iter().all(|v| v.contains("solved")
                || v.contains("\"value\":\"draw\"")
                || v.contains("\"value\":\"loss in ")),
            "{verdicts:?}"
        );
        assert!(call(&[], || puzzle_judge(n)).contains("error"));
        assert!(call(&[], || puzzle_hint()).starts_with("{\"hint\":[\""));
        assert!(call(&[], || puzzle_new(2)).contains("error"));
    }
}
