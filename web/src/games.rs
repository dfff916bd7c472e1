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
use tictable_games::{catalog, dispatch, solve, Game, Notation, Outcome, Record, Solution};

/// A solved game as the page uses it, whatever its position and move types.
trait Solved {
    /// The JSON view of the position after `moves` (indices into move lists).
    fn view(&self, moves: &[u32]) -> String;
    /// The JSON summary: id, rules, positions, start value, table bytes.
    fn summary(&self) -> String;
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

impl<G: Game> Solved for Solution<G> {
    fn view(&self, moves: &[u32]) -> String {
        let game = self.game();
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
        let Some(record) = self.get(&p) else {
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
        let best = self.best_moves(&p);
        s.push_str(",\"terminal\":false,\"moves\":[");
        for (i, &mv) in list.iter().enumerate() {
            let child = game.play(&p, mv);
            let value = self.get(&child).map_or("null".to_string(), move_value);
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
        let game = self.game();
        let sum = Solution::summary(self);
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
            dispatch!(any, g => solve(g).map(|s| Box::new(s) as Box<dyn Solved>).map_err(|e| e.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OUT;

    fn call(input: &[u8], export: extern "C" fn() -> usize) -> String {
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
        let summary = call(b"hexapawn", game_select);
        assert!(
            summary.contains("\"positions\":135,\"start\":\"loss\",\"start_remoteness\":6"),
            "{summary}"
        );
        let start = call(&[], game_view);
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
        let unknown = call(b"chess", game_select);
        assert!(unknown.starts_with("{\"error\":"), "{unknown}");
        call(b"tictactoe", game_select);
        let bad = call(&[9], game_view);
        assert!(bad.contains("not a legal move's index"), "{bad}");
        // Moves past the end of a game are refused too.
        let mut past = vec![0u8; 9];
        past.push(0);
        assert!(call(&past, game_view).contains("error"));
    }

    #[test]
    fn a_finished_game_names_its_winner() {
        call(b"tictactoe", game_select);
        // X 1, O 4, X 2, O 5, X 3: X's row. Moves are indices into each list of empty squares.
        let end = call(&[0, 2, 0, 1, 0], game_view);
        assert!(
            end.contains("\"position\":\"XXX/OO./...\"")
                && end.contains("\"terminal\":true,\"winner\":\"X\""),
            "{end}"
        );
    }
}
