//! The engine levels of every game (`--game G`), and the one function that picks an
//! engine's move: [`engine_move`]. Tic-tac-toe keeps its own levels (`tictable::strategy`).
//!
//! A level's choice is uniform over [`choices`]: `selfplay --exact` weighs each of them
//! equally, so the exact probabilities are those of the games `play` and sampled
//! self-play produce.

use super::app::Seat;
use tictable::strategy::Level;
use tictable_games::{Game, Solution};

/// An engine level for any game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLevel {
    /// Keeps the value; among the moves that do, the best remoteness (a winner
    /// hurries, a loser delays): one of [`Solution::best_moves`].
    Perfect,
    /// Any legal move.
    Random,
}

impl GameLevel {
    /// The level's name as `--x` takes it.
    pub fn name(self) -> &'static str {
        match self {
            GameLevel::Perfect => "perfect",
            GameLevel::Random => "random",
        }
    }

    /// The level of a seat read by `--x`/`--o` (`None`: a person), or why that level
    /// is for tic-tac-toe only.
    pub fn of_seat(seat: Seat) -> Result<Option<GameLevel>, String> {
        match seat {
            Seat::Human => Ok(None),
            Seat::Engine(s)
                if s.first_move().is_none() && s.mistake_rate().parts_per_10000() == 0 =>
            {
                match s.level() {
                    Level::Perfect => Ok(Some(GameLevel::Perfect)),
                    Level::Random => Ok(Some(GameLevel::Random)),
                    _ => Err(Self::only_these(seat)),
                }
            }
            _ => Err(Self::only_these(seat)),
        }
    }

    fn only_these(seat: Seat) -> String {
        format!(
            "`{seat}` plays tic-tac-toe only: with --game, a player is human, perfect (or \
             hard) or random, without a mistake rate or a first move"
        )
    }
}

/// The moves `level` chooses among, uniformly, in `position` (empty when the game is
/// over or the position is not in the table).
pub fn choices<G: Game>(
    level: GameLevel,
    solution: &Solution<G>,
    position: &G::Position,
) -> Vec<G::Move> {
    let game = solution.game();
    match level {
        GameLevel::Perfect => solution.best_moves(position),
        GameLevel::Random => {
            let mut moves = Vec::new();
            if game.primitive(position).is_none() {
                game.moves(position, &mut moves);
            }
            moves
        }
    }
}

/// The move the engine of `level` plays in `position`, drawn uniformly from
/// [`choices`] with `rng`; `None` when the game is over. Every engine move of every
/// game (other than tic-tac-toe's own levels) comes from here.
pub fn engine_move<G: Game, R: rand_core::Rng + ?Sized>(
    level: GameLevel,
    solution: &Solution<G>,
    position: &G::Position,
    rng: &mut R,
) -> Option<G::Move> {
    let moves = choices(level, solution, position);
    if moves.is_empty() {
        return None;
    }
    // Lemire's multiply-shift: below n without a modulo's bias worth noticing here
    // (n is at most a few dozen).
    let i = ((u64::from(rng.next_u32()) * moves.len() as u64) >> 32) as usize;
    moves.get(i).copied()
}
