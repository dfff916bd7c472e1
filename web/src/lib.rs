//! tictable in the browser: the exports the page (`web/page/index.html`) calls.
//!
//! Hand-written bindings: every export takes and returns integers; answers longer
//! than a number are JSON text in one shared output buffer, whose address is
//! [`out_ptr`] and whose length the export returns. Boards travel as two 9-bit
//! masks (`x`, `o`; bit `i` is square `i`, 0..=8 row-major, shown as 1-9).
//!
//! Play and analyse use the table only; with the `machine` feature the page also
//! drives the real controller (`tictable-machine`) against the simulator's world
//! (`sim-core`): [`machine`] has the exports, [`advice`] what a person does for
//! each thing the machine shows, [`hands`] the person's hands on the simulated
//! table, [`lamps`] the panel's lights in words, [`panel_chooser`] the machine's
//! moves in the six games it plays.

use std::cell::RefCell;
use std::fmt::Write as _;
use tictable::strategy::{Level, MistakeRate, Strategy};
use tictable::{analyse, move_values, Analysis, Board, Squares};

#[cfg(feature = "machine")]
pub mod advice;
#[cfg(feature = "games")]
pub mod games;
#[cfg(feature = "machine")]
pub mod hands;
#[cfg(feature = "machine")]
pub mod lamps;
#[cfg(feature = "machine")]
pub mod machine;
#[cfg(feature = "machine")]
pub mod panel_chooser;

thread_local! {
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
    static RNG: RefCell<Rng> = RefCell::new(Rng::new(0x5EED, 0));
    /// The page's `adaptive` engine: its estimate of the person lasts the session
    /// (the page's lifetime), across games.
    static ADAPTIVE: RefCell<Strategy> = const { RefCell::new(Strategy::new(Level::Adaptive)) };
}

/// Puts `text` in the output buffer; returns its length in bytes.
pub(crate) fn answer(text: String) -> usize {
    OUT.with(|o| {
        *o.borrow_mut() = text;
        o.borrow().len()
    })
}

/// The address of the output buffer (valid until the next export that answers).
#[no_mangle]
pub extern "C" fn out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// The page's randomness (seeded by [`seed`]).
pub type Rng = rand_pcg::Pcg32;

/// Seeds the page's randomness.
#[no_mangle]
pub extern "C" fn seed(s: u32) {
    RNG.with(|r| *r.borrow_mut() = Rng::new(u64::from(s), 0));
}

/// The squares of a set as a JSON array of 0..=8.
fn list(set: Squares) -> String {
    let items: Vec<String> = set.iter().map(|s| s.index().to_string()).collect();
    format!("[{}]", items.join(","))
}

/// The 9-character text of the masks (`X`, `O`, `.`), the CLI's input form; a
/// square in both masks reads `X` (the page never sends one).
fn text(x: u32, o: u32) -> String {
    (0..9)
        .map(|i| match (x >> i & 1, o >> i & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '.',
        })
        .collect()
}

/// The JSON analysis of one position (the fields of `tictable analyse --json`,
/// plus each empty square's value, the principal line and the winning line).
fn analysis_json(board: Board, a: &Analysis) -> String {
    let mut s = format!("{{\"position\":\"{board}\"");
    if a.is_terminal() {
        let winner = a
            .winner()
            .map_or("null".to_string(), |p| format!("\"{p}\""));
        let _ = write!(
            s,
            ",\"terminal\":true,\"winner\":{winner},\"line_squares\":{}",
            list(Squares::from_bits(board.winning_lines().bits()))
        );
    } else {
        let _ = write!(
            s,
            ",\"to_move\":\"{}\",\"outcome\":\"{}\",\"plies\":{},\"best\":{},\"safe\":{}",
            a.to_move(),
            a.outcome(),
            a.plies(),
            list(a.best()),
            list(a.safe())
        );
        let values = move_values(&board).unwrap_or([None; 9]);
        let texts: Vec<String> = values
            .iter()
            .map(|v| v.map_or("null".to_string(), |v| format!("\"{v}\"")))
            .collect();
        let _ = write!(s, ",\"values\":[{}]", texts.join(","));
        // The principal line: the best (lowest-numbered) move again and again, to
        // the end: the winner's fastest win, the loser's slowest loss.
        let mut line = Vec::new();
        let mut b = board;
        while let Some(m) = tictable::best_move(&b) {
            line.push(m.index().to_string());
            match b.play(m) {
                Ok(next) => b = next,
                Err(_) => break,
            }
        }
        let _ = write!(s, ",\"line\":[{}]", line.join(","));
    }
    s.push('}');
    s
}

/// Analyses the position of the masks: JSON in the output buffer, its length
/// returned. An unreachable position is `{"position":..,"error":..}` with the
/// CLI's words (the same `PositionError`).
#[no_mangle]
pub extern "C" fn analyse_position(x: u32, o: u32) -> usize {
    let input = text(x, o);
    let json = match input.parse::<Board>() {
        Err(e) => format!("{{\"position\":\"{input}\",\"error\":\"{e}\"}}"),
        Ok(board) => match analyse(&board) {
            Ok(a) => analysis_json(board, &a),
            Err(e) => format!("{{\"position\":\"{input}\",\"error\":\"{e}\"}}"),
        },
    };
    answer(json)
}

/// The strategy of level `level` (0 random, 1 easy, 2 medium, 3 perfect, 4 trap,
/// 5 sharp, 6 gentle, 7 adaptive, 8 epsilon: [`Level::ALL`]'s order) with a mistake
/// rate of `rate` / 10 000 (perfect and trap; F for gentle, ε for epsilon).
/// `adaptive` is the page's one adaptive engine, with what it has seen so far.
fn strategy(level: u32, rate: u32) -> Option<Strategy> {
    let level = *Level::ALL.get(level as usize)?;
    if level == Level::Adaptive {
        return Some(ADAPTIVE.with(|a| *a.borrow()));
    }
    let rate = MistakeRate::new(u16::try_from(rate).ok()?)?;
    let plain = Strategy::new(level);
    Some(plain.with_mistake_rate(rate).unwrap_or(plain))
}

/// The engine's move (0..=8) at `level` with mistake rate `rate` / 10 000 in the
/// position of the masks; -1 when the game is over, the position is unreachable
/// or the level unknown.
#[no_mangle]
pub extern "C" fn choose(x: u32, o: u32, level: u32, rate: u32) -> i32 {
    let Ok(board) = text(x, o).parse::<Board>() else {
        return -1;
    };
    let Some(strategy) = strategy(level, rate) else {
        return -1;
    };
    RNG.with(|r| strategy.choose(&board, &mut *r.borrow_mut()))
        .map_or(-1, |s| i32::from(s.index()))
}

/// Reports the person's move `square` (0..=8) in the position of the masks (before
/// the move) to the page's `adaptive` engine; returns its estimate of the person's
/// mistake rate ε afterwards in units of 1/10 000 (see [`estimate`]).
#[no_mangle]
pub extern "C" fn observe(x: u32, o: u32, square: u32) -> i32 {
    if let (Ok(board), Some(square)) = (
        text(x, o).parse::<Board>(),
        u8::try_from(square).ok().and_then(tictable::Square::new),
    ) {
        ADAPTIVE.with(|a| a.borrow_mut().observe(&board, square));
    }
    estimate()
}

/// The page's `adaptive` engine's estimate of the person's mistake rate ε (the
/// posterior mean, to 0.01) in units of 1/10 000.
#[no_mangle]
pub extern "C" fn estimate() -> i32 {
    ADAPTIVE.with(|a| {
        a.borrow()
            .estimate()
            .map_or(-1, |e| e.parts_per_10000().into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(x: u32, o: u32) -> String {
        analyse_position(x, o);
        OUT.with(|o| o.borrow().clone())
    }

    #[test]
    fn analysis_answers_like_the_cli() {
        // XX./OO./... : X wins at 2 in 1 ply.
        let j = json(0b11, 0b11000);
        assert!(
            j.contains("\"outcome\":\"win\",\"plies\":1,\"best\":[2]"),
            "{j}"
        );
        assert!(j.contains("\"values\":[null,null,\"win in 1\""), "{j}");
        assert!(j.contains("\"line\":[2]"), "{j}");
        let bad = json(0b111, 0);
        assert!(
            bad.contains("\"error\":\"impossible counts: 3 X and 0 O"),
            "{bad}"
        );
    }

    #[test]
    fn perfect_plays_a_best_move() {
        for _ in 0..20 {
            assert_eq!(choose(0b11, 0b11000, 3, 0), 2);
        }
        assert_eq!(choose(0b111, 0b11000, 3, 0), -1);
        assert_eq!(choose(0, 0, 9, 0), -1);
    }

    #[test]
    fn adaptive_learns_from_the_persons_moves() {
        // The uniform prior's mean.
        assert_eq!(estimate(), 5000);
        // XX./OO./X.. : O wins at 5 and plays 8, a careless move.
        let careless = observe(0b1000011, 0b11000, 8);
        assert!(careless > 5000, "{careless}");
        // Its moves keep the value: sharp, gentle and adaptive never lose.
        for level in [5, 6, 7] {
            for _ in 0..20 {
                assert_eq!(choose(0b11, 0b11000, level, 0), 2);
            }
        }
    }
}
