//! "Why was that a mistake" in tic-tac-toe's own full-screen game (`w`): the person's
//! last move that gave away value, by the engine's table (`tictable::move_values`),
//! and its refutation, the principal line from the position after it, to step through
//! on the board. (`play --game G` has its own, over any game's table: `Session::
//! last_mistake`.) And the one wording of a mistake that every front end uses
//! ([`mistake_text`]: this game, `play --game G`, `tictable puzzle`; the page says
//! it the same way).

use tictable::game::Game;
use tictable::{move_values, MoveValue, Outcome, Player, Square};

/// A mistake and its refutation, shown on the board a ply at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The moves from the start through the mistake, then the refutation's.
    moves: Vec<Square>,
    /// How many of `moves` lead to the position after the mistake.
    start: usize,
    /// The plies of the refutation shown (0: the position after the mistake).
    pub shown: usize,
    /// What the mistake was: "2 loses in 6 is a mistake where 5 keeps the draw."
    pub said: String,
    /// The refutation's moves as the keys name them: "5 9 7 3 4".
    pub line: String,
}

impl Refutation {
    /// The plies of the refutation.
    pub fn plies(&self) -> usize {
        self.moves.len() - self.start
    }

    /// One ply on (`step` 1) or back (-1), within the line.
    pub fn step(&mut self, step: i8) {
        self.shown = match step {
            1.. => (self.shown + 1).min(self.plies()),
            _ => self.shown.saturating_sub(1),
        };
    }

    /// The game as shown: the refutation played up to the ply shown.
    pub fn game(&self) -> Option<Game> {
        Game::from_moves(&self.moves, self.start + self.shown).ok()
    }
}

/// What a move leads to for the side making it, as a verb said of one move (`one`)
/// or of several: "wins in 3" / "win in 3", "loses in 4" / "lose in 4", and for a
/// draw "keeps the draw" / "keep the draw" (`kept`: the best moves, which keep it)
/// or "draws" / "draw". The count is the remoteness, the move itself counted
/// (docs/glossary.md), as in the hints' "win in 3".
pub(crate) fn verb(outcome: Outcome, remoteness: u8, one: bool, kept: bool) -> String {
    let s = if one { "s" } else { "" };
    match (outcome, kept) {
        (Outcome::Win, _) => format!("win{s} in {remoteness}"),
        (Outcome::Draw, true) => format!("keep{s} the draw"),
        (Outcome::Draw, false) => format!("draw{s}"),
        (Outcome::Loss, _) => format!("lose{s} in {remoteness}"),
    }
}

/// The one wording of a mistake in every front end (tic-tac-toe's game, `play
/// --game G`, `tictable puzzle`'s wrong answer; the page's the same): the move played
/// and what it leads to, then the best moves and what they keep, each count the
/// remoteness with the move counted: "2 loses in 6 is a mistake where 5 keeps the
/// draw.", "7-4 loses in 4 is a mistake where 8-5 loses in 6."
pub(crate) fn mistake_text(
    played: &str,
    got: (Outcome, u8),
    best: &[String],
    kept: (Outcome, u8),
) -> String {
    format!(
        "{played} {} is a mistake where {} {}.",
        verb(got.0, got.1, true, false),
        best.join(", "),
        verb(kept.0, kept.1, best.len() == 1, true)
    )
}

/// How good a move's value is for its mover: a win sooner, a loss later is better.
fn rank(value: MoveValue) -> i32 {
    match value.outcome {
        Outcome::Win => 1000 - i32::from(value.plies),
        Outcome::Draw => 0,
        Outcome::Loss => -1000 + i32::from(value.plies),
    }
}

/// The best moves of `values` (the legal ones' values) and their value.
fn best(values: &[Option<MoveValue>; 9]) -> Option<(Vec<Square>, MoveValue)> {
    let top = values.iter().flatten().copied().max_by_key(|&v| rank(v))?;
    let squares = (0..9u8)
        .filter(|&i| values[usize::from(i)].is_some_and(|v| rank(v) == rank(top)))
        .filter_map(Square::new)
        .collect();
    Some((squares, top))
}

/// The last move of `game` that a person made (`person` says which sides are people),
/// if it gave away value (a win to a draw or a loss, a draw to a loss, a win later or a
/// loss sooner than the best), with its refutation: the best moves on both sides (the
/// lowest square among equals) to the end. `label` names a square as the keys do.
pub fn last_mistake(
    game: &Game,
    person: impl Fn(Player) -> bool,
    label: impl Fn(Square) -> u8,
) -> Option<Refutation> {
    let moves = game.moves();
    for ply in (0..moves.len()).rev() {
        let before = Game::from_moves(&moves[..ply], ply).ok()?;
        if !person(before.to_move()) {
            continue;
        }
        let values = move_values(&before.board()).ok()?;
        let played = moves[ply];
        let got = values[usize::from(played.index())]?;
        let (best_squares, top) = best(&values)?;
        if rank(got) >= rank(top) {
            return None;
        }
        let mut line = moves[..=ply].to_vec();
        let mut after = Game::from_moves(&line, ply + 1).ok()?;
        while after.result().is_none() {
            let (squares, _) = best(&move_values(&after.board()).ok()?)?;
            let square = *squares.first()?;
            after.play(square).ok()?;
            line.push(square);
        }
        let names: Vec<String> = best_squares.iter().map(|&s| label(s).to_string()).collect();
        let keys: Vec<String> = line[ply + 1..]
            .iter()
            .map(|&s| label(s).to_string())
            .collect();
        return Some(Refutation {
            line: keys.join(" "),
            moves: line,
            start: ply + 1,
            shown: 0,
            said: mistake_text(
                &label(played).to_string(),
                (got.outcome, got.plies),
                &names,
                (top.outcome, top.plies),
            ),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(squares: &[u8]) -> Game {
        let moves: Vec<Square> = squares.iter().map(|&i| Square::new(i).unwrap()).collect();
        Game::from_moves(&moves, moves.len()).unwrap()
    }

    #[test]
    fn an_edge_answer_to_a_corner_is_refuted_to_x_s_win() {
        // X 1 (index 0), O 2 (index 1): O loses (the centre, 5, was its only draw).
        let label = |s: Square| s.index() + 1;
        let r = last_mistake(&game(&[0, 1]), |p| p == Player::O, label).unwrap();
        assert_eq!(r.said, "2 loses in 6 is a mistake where 5 keeps the draw.");
        assert_eq!(r.plies(), 5);
        let mut r = r;
        for _ in 0..9 {
            r.step(1);
        }
        let end = r.game().unwrap();
        assert_eq!(
            end.result(),
            Some(tictable::game::GameResult::Win(Player::X))
        );
        // X's moves are not the person's (O's): nothing to say about them.
        assert_eq!(last_mistake(&game(&[1]), |p| p == Player::O, label), None);
        // The centre keeps O's draw: no mistake.
        assert_eq!(
            last_mistake(&game(&[0, 4]), |p| p == Player::O, label),
            None
        );
    }
}
