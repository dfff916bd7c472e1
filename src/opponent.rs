//! Models of a fallible opponent, and what the `sharp`, `gentle` and `adaptive`
//! players compute from them.
//!
//! **The ε-random opponent.** At each of its moves it plays, with probability ε, a
//! uniformly random legal move and otherwise a uniformly chosen *value-keeping* move
//! ([`Analysis::safe`](crate::Analysis::safe): a move that keeps the position's
//! outcome under perfect play). ε = 1 is the uniformly random opponent, ε = 0 a
//! perfect one that picks at random among its good moves. ε is a [`MistakeRate`]
//! (a multiple of 1/10 000).
//!
//! **Expectimax.** [`expectimax`] gives, for each legal move of the side to move, the
//! exact value of the game against that opponent when the mover then keeps choosing,
//! among the value-keeping moves, the one with the highest ([`Aim::Most`]) or the
//! lowest ([`Aim::Least`]) value. The value is the win probability
//! ([`Objective::Win`]) or the expected score, win 1, draw 0, loss −1
//! ([`Objective::Score`]), as an exact integer over [`SCALE`].
//!
//! **The posterior.** [`Posterior`] is a distribution over ε on the grid 0, 0.1, …, 1
//! (uniform prior), updated by Bayes' rule from each opponent move seen.
//!
//! ```
//! use tictable::opponent::{expectimax, Aim, Objective, SCALE};
//! use tictable::strategy::MistakeRate;
//! use tictable::Board;
//! // X to move can win at once on square 2: probability 1 against anyone.
//! let b: Board = "XX./OO./...".parse()?;
//! let v = expectimax(&b, MistakeRate::ONE, Aim::Most, Objective::Win)?;
//! assert_eq!(v[2], Some(SCALE));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::{Board, Player, Square, Squares};
use crate::strategy::MistakeRate;
use crate::table::{analyse, LookupError};

/// The weights of one opponent decision are integers over this base: 10 000 (the
/// units of ε) × 840 (lcm of 1..=8: the opponent has at most 8 moves, and at most 8
/// value-keeping ones).
const DECISION: i128 = MistakeRate::SCALE as i128 * 840;

/// The scale of [`expectimax`]'s values: probability 1 (a certain win) is `SCALE`.
/// Below a move of the mover the opponent decides at most four times and each
/// decision divides exactly by 8 400 000, so every value is an exact integer:
/// `SCALE` = 8 400 000⁴.
pub const SCALE: i128 = DECISION * DECISION * DECISION * DECISION;

/// Which value-keeping move the mover keeps choosing below the scored move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aim {
    /// The highest value (`sharp`, `adaptive`).
    Most,
    /// The lowest value (`gentle:0`).
    Least,
}

/// What a finished game is worth to the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// 1 for a win, 0 otherwise: the value is the win probability.
    Win,
    /// 1 for a win, 0 for a draw, −1 for a loss: the value is the expected score.
    Score,
}

/// The value, times [`SCALE`], of each legal move of the side to move (`None` for the
/// other squares) against the ε-random opponent (see the [module docs](self)), when
/// the mover keeps choosing among its value-keeping moves as `aim` says.
///
/// Errors only for a position no game reaches.
///
/// ```
/// use tictable::opponent::{expectimax, Aim, Objective, SCALE};
/// use tictable::strategy::MistakeRate;
/// use tictable::Board;
/// let v = expectimax(&Board::EMPTY, MistakeRate::ONE, Aim::Most, Objective::Win)?;
/// // Every value is a probability: an integer from 0 to SCALE.
/// assert!(v.iter().flatten().all(|&p| (0..=SCALE).contains(&p)));
/// # Ok::<(), tictable::LookupError>(())
/// ```
pub fn expectimax(
    board: &Board,
    epsilon: MistakeRate,
    aim: Aim,
    objective: Objective,
) -> Result<[Option<i128>; 9], LookupError> {
    board.validate()?;
    let me = board.to_move();
    let mut values = [None; 9];
    for square in board.legal_moves() {
        let child = board.play_unchecked(square.bit());
        let model = Model {
            me,
            epsilon: epsilon.parts_per_10000() as i128,
            aim,
            objective,
        };
        values[square.index() as usize] = Some(model.value(child)?);
    }
    Ok(values)
}

/// The value-keeping moves of the side to move whose [`expectimax`] value is the
/// highest (`Aim::Most`) or the lowest (`Aim::Least`). With `Aim::Most`, when some
/// of the tied moves are among the table's best moves
/// ([`Analysis::best`](crate::Analysis::best): the fastest win) only those are kept.
/// Empty only when the game is over.
///
/// ```
/// use tictable::opponent::{chosen_moves, Aim, Objective};
/// use tictable::strategy::MistakeRate;
/// use tictable::{analyse, Board};
/// let b: Board = "X...O....".parse()?;
/// let sharp = chosen_moves(&b, MistakeRate::ONE, Aim::Most, Objective::Win)?;
/// assert!(!sharp.is_empty() && sharp.is_subset(analyse(&b)?.safe()));
/// # Ok::<(), tictable::LookupError>(())
/// ```
pub fn chosen_moves(
    board: &Board,
    epsilon: MistakeRate,
    aim: Aim,
    objective: Objective,
) -> Result<Squares, LookupError> {
    let analysis = analyse(board)?;
    let values = expectimax(board, epsilon, aim, objective)?;
    let safe = analysis.safe();
    let of = |s: Square| values[s.index() as usize];
    let target = match aim {
        Aim::Most => safe.iter().filter_map(of).max(),
        Aim::Least => safe.iter().filter_map(of).min(),
    };
    let tied: Squares = safe.iter().filter(|&s| of(s) == target).collect();
    let tied_best = Squares::from_bits(tied.bits() & analysis.best().bits());
    Ok(if aim == Aim::Most && !tied_best.is_empty() {
        tied_best
    } else {
        tied
    })
}

/// One expectimax: the mover's side, ε in units of 1/10 000, its aim and objective.
struct Model {
    me: Player,
    epsilon: i128,
    aim: Aim,
    objective: Objective,
}

impl Model {
    /// The value of `board` for the mover, times [`SCALE`].
    fn value(&self, board: Board) -> Result<i128, LookupError> {
        if let Some(winner) = board.winner() {
            return Ok(match (winner == self.me, self.objective) {
                (true, _) => SCALE,
                (false, Objective::Win) => 0,
                (false, Objective::Score) => -SCALE,
            });
        }
        if board.is_full() {
            return Ok(0);
        }
        let legal = board.legal_moves();
        if board.to_move() == self.me {
            let mut chosen: Option<i128> = None;
            for square in analyse(&board)?.safe() {
                let v = self.value(board.play_unchecked(square.bit()))?;
                chosen = Some(match (chosen, self.aim) {
                    (None, _) => v,
                    (Some(c), Aim::Most) => c.max(v),
                    (Some(c), Aim::Least) => c.min(v),
                });
            }
            // `safe` is never empty in a game that goes on.
            return Ok(chosen.unwrap_or(0));
        }
        // The opponent: ε / legal on every move, (1 − ε) / safe more on the safe ones.
        let careless = self.epsilon * (840 / legal.len() as i128);
        let safe = if self.epsilon == MistakeRate::SCALE as i128 {
            Squares::EMPTY
        } else {
            analyse(&board)?.safe()
        };
        let careful = match safe.len() {
            0 => 0,
            n => (MistakeRate::SCALE as i128 - self.epsilon) * (840 / n as i128),
        };
        let mut sum = 0i128;
        for square in legal {
            let weight = careless + if safe.contains(square) { careful } else { 0 };
            if weight != 0 {
                sum += weight * self.value(board.play_unchecked(square.bit()))?;
            }
        }
        Ok(sum / DECISION)
    }
}

/// The grid of ε the posterior is over: 0, 0.1, …, 1 (in tenths).
pub const GRID: usize = 11;

/// A posterior over the mistake rate ε of an ε-random opponent (see the
/// [module docs](self)) on the grid 0, 0.1, …, 1, starting uniform.
///
/// Each [`observe`](Posterior::observe)d move multiplies the weight of each ε by the
/// probability that an ε-random player makes that move in that position
/// (ε / legal moves, plus (1 − ε) / value-keeping moves when the move keeps the
/// value). The weights are integers rescaled after each move so that the largest is
/// 2³²: a weight below 2⁻³² of the largest is dropped to zero, nothing else is lost.
///
/// ```
/// use tictable::opponent::Posterior;
/// use tictable::{Board, Square};
/// let mut p = Posterior::UNIFORM;
/// assert_eq!(p.mean().parts_per_10000(), 5000);
/// // O to move wins at once on square 5 and plays 8 instead: only a careless player
/// // does that (ε = 0 cannot, so its weight drops to zero).
/// let b: Board = "XX./OO./X..".parse()?;
/// p.observe(&b, Square::new(8).unwrap());
/// assert_eq!(p.probability(0).0, 0);
/// assert!(p.mean().parts_per_10000() > 5000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Posterior {
    weights: [u64; GRID],
}

/// The largest weight after each rescaling.
const TOP: u64 = 1 << 32;

impl Posterior {
    /// The uniform prior.
    pub const UNIFORM: Posterior = Posterior {
        weights: [TOP; GRID],
    };

    /// Updates the posterior with the opponent's move `square` in `board` (the
    /// position before the move). Ignores a position no game reaches or an illegal
    /// move; a move that every ε explains equally (all moves keep the value) changes
    /// nothing.
    pub fn observe(&mut self, board: &Board, square: Square) {
        let legal = board.legal_moves();
        if !legal.contains(square) {
            return;
        }
        let Ok(analysis) = analyse(board) else {
            return;
        };
        let safe = analysis.safe();
        self.update(
            legal.len() as usize,
            safe.len() as usize,
            safe.contains(square),
        );
    }

    /// Updates the posterior with one opponent move of any game: made where it had
    /// `legal` legal moves of which `safe` keep the value, `kept` when the move made is
    /// one of them. [`observe`](Posterior::observe) calls it for tic-tac-toe; the games
    /// crate's players for the other games. Ignored when the counts are impossible
    /// (no legal move, more value-keeping than legal moves, or a kept move when none
    /// keeps the value).
    ///
    /// ```
    /// use tictable::opponent::Posterior;
    /// let mut p = Posterior::UNIFORM;
    /// p.update(4, 1, false); // a move that gave away value: ε = 0 cannot make it
    /// assert_eq!(p.probability(0).0, 0);
    /// ```
    pub fn update(&mut self, legal: usize, safe: usize, kept: bool) {
        if legal == 0 || safe > legal || (kept && safe == 0) {
            return;
        }
        let kept = kept as u64;
        let (n_legal, n_safe) = (legal as u64, safe as u64);
        let mut updated = self.weights;
        for (k, w) in updated.iter_mut().enumerate() {
            // 10 · legal · safe × (k/10 / legal + (10 − k)/10 · kept / safe).
            let k = k as u64;
            *w *= k * n_safe + (10 - k) * n_legal * kept;
        }
        let top = updated.iter().copied().max().unwrap_or(0);
        if top == 0 {
            return; // impossible: ε = 1 explains every legal move
        }
        for w in updated.iter_mut() {
            *w = (*w as u128 * TOP as u128 / top as u128) as u64;
        }
        self.weights = updated;
    }

    /// The posterior probability of ε = `tenths` / 10, as `(numerator, denominator)`.
    pub fn probability(&self, tenths: usize) -> (u64, u64) {
        let total: u64 = self.weights.iter().sum();
        (self.weights.get(tenths).copied().unwrap_or(0), total)
    }

    /// The posterior mean of ε, rounded to the nearest 1/100 (what `adaptive` plays
    /// against and shows).
    pub fn mean(&self) -> MistakeRate {
        let total: u128 = self.weights.iter().map(|&w| w as u128).sum();
        let weighted: u128 = self
            .weights
            .iter()
            .enumerate()
            .map(|(k, &w)| w as u128 * k as u128 * 10)
            .sum();
        let hundredths = (weighted + total / 2) / total.max(1);
        MistakeRate::new(hundredths as u16 * 100).unwrap_or(MistakeRate::ONE)
    }
}

impl Default for Posterior {
    fn default() -> Posterior {
        Posterior::UNIFORM
    }
}
