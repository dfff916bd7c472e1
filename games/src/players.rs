//! The players of every game without repeated positions, over its solved table:
//! `perfect`, `sharp`, `gentle:F`, `adaptive`, `random` and `epsilon:E`, as the engine's
//! tic-tac-toe levels define them ([`tictable::strategy`]), for any [`Game`].
//!
//! **Value-keeping moves** ([`perfect_moves`]): in a won position the moves into a
//! position lost for the opponent, in a drawn one those into a drawn one, in a lost one
//! every move. `sharp`, `gentle` and `adaptive` play only those, so they never give away
//! value: in a game one side wins with perfect play they keep the win, and from a lost
//! position they play for the opponent's mistakes the same way.
//!
//! **The ε-random opponent**: with probability ε a uniformly random legal move, otherwise
//! a uniformly chosen value-keeping move (ε = 1: uniformly random). [`expectimax`] gives
//! each move's exact value against it when the mover then keeps choosing, among its
//! value-keeping moves, the highest ([`Aim::Most`]) or the lowest ([`Aim::Least`]) value;
//! the value is the win probability ([`Objective::Win`]) or the expected score, win 1,
//! draw 0, loss −1 ([`Objective::Score`]). Values are exact rationals ([`Exact`], big
//! integers: no rounding, no overflow).
//!
//! | level | its moves |
//! |---|---|
//! | `perfect` | uniform over the table's best moves ([`Solution::best_moves`]) |
//! | `sharp` | the value-keeping moves of the highest win probability against a uniformly random opponent; ties go to the table's best moves, then uniform |
//! | `gentle:F` | with probability F a `sharp` move, else a value-keeping move of the lowest such win probability |
//! | `adaptive` | the value-keeping moves of the highest expected score against the ε-random opponent of its posterior mean ε ([`Player::observe`]) |
//! | `random` | uniform over the legal moves |
//! | `epsilon:E` | the ε-random opponent itself, ε = E |
//!
//! The levels are read by the engine's one level parser ([`Strategy`]'s `FromStr`):
//! `"gentle:0.5".parse::<Player>()`. The tic-tac-toe-only levels (`easy`, `medium`,
//! `trap`, a mistake rate, a forced first move) are refused here.
//!
//! ```
//! use rand_core::SeedableRng;
//! use tictable_games::players::{outcome_probabilities, Player};
//! use tictable_games::{solve, Game, Hexapawn};
//! let solution = solve(Hexapawn).unwrap();
//! let sharp: Player = "sharp".parse().unwrap();
//! let mut rng = rand_pcg::Pcg32::seed_from_u64(1);
//! let mv = sharp.choose(&solution, &solution.game().start(), &mut rng).unwrap();
//! // Hexapawn is lost for White; White's first move cannot lower that.
//! assert!(tictable_games::strategy::perfect_moves(&solution, &solution.game().start()).contains(&mv));
//! // Exact outcome probabilities of sharp (White) against a uniformly random Black.
//! let random: Player = "random".parse().unwrap();
//! let [white, draw, black] = outcome_probabilities(&solution, &sharp, &random).unwrap();
//! // Hexapawn has no draws.
//! assert_eq!(draw.to_string(), "0");
//! assert_eq!((white + black).to_string(), "1");
//! ```

use crate::game::{Game, Outcome, Player as Side};
use crate::solver::{class_key, Solution};
use crate::strategy::perfect_moves;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;
use core::str::FromStr;
use num_bigint::BigInt;
use num_rational::BigRational;
pub use tictable::opponent::{Aim, Objective, Posterior};
use tictable::strategy::{below, Level, MistakeRate, ParseStrategyError, Strategy};

/// An exact rational value (a probability or an expected score).
pub type Exact = BigRational;

/// Why a player cannot move or be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The level text is not one of the levels (the engine's parser's error).
    Parse(ParseStrategyError),
    /// A tic-tac-toe-only level or option (`easy`, `medium`, `trap`, a mistake rate, a
    /// forced first move).
    TicTacToeOnly(Strategy),
    /// The position is finished or not in the table.
    NoMove,
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Parse(e) => e.fmt(f),
            PlayerError::TicTacToeOnly(s) => write!(
                f,
                "`{s}` plays tic-tac-toe only; every game has perfect, sharp, gentle:F, adaptive, random and epsilon:E"
            ),
            PlayerError::NoMove => f.write_str("the game is over or the position is not reachable"),
        }
    }
}

impl core::error::Error for PlayerError {}

/// One expectimax model: the mover, ε, its aim and objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Model {
    me: u8,
    epsilon: u16,
    aim: u8,
    objective: u8,
}

/// A choice as a mixture: each part a weight in units of 1/10 000 and a set of moves
/// chosen uniformly.
pub type Parts<G> = Vec<(u16, Vec<<G as Game>::Move>)>;

/// Memoised expectimax values, one table per model, keyed by class key.
type Cache = BTreeMap<Model, BTreeMap<u64, Exact>>;

/// A player of any game without repeats; see the [module docs](self).
///
/// Not `Send`: its clones share one cache of exact values through `Rc<RefCell<_>>`
/// (the crate is `no_std`, and `core` has no lock to put behind an `Arc`; every
/// user runs players on one thread). Another thread builds its own player from the
/// same level text (`"gentle:0.5".parse()`), whose cache fills again there.
#[derive(Clone, Debug)]
pub struct Player {
    strategy: Strategy,
    /// Shared by the clones: the values are the same for every clone.
    cache: Rc<RefCell<Cache>>,
}

impl FromStr for Player {
    type Err = PlayerError;

    /// The engine's level text (`sharp`, `gentle:0.3`, `epsilon:0.1`, ...).
    fn from_str(s: &str) -> Result<Player, PlayerError> {
        let strategy: Strategy = s.parse().map_err(PlayerError::Parse)?;
        Player::new(strategy)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.strategy.fmt(f)
    }
}

impl Player {
    /// The player of an engine [`Strategy`]: refused for the tic-tac-toe-only levels.
    pub fn new(strategy: Strategy) -> Result<Player, PlayerError> {
        let supported = matches!(
            strategy.level(),
            Level::Random
                | Level::Perfect
                | Level::Sharp
                | Level::Gentle
                | Level::Adaptive
                | Level::Epsilon
        ) && strategy.first_move().is_none()
            && (strategy.level() != Level::Perfect || strategy.mistake_rate() == MistakeRate::ZERO);
        if !supported {
            return Err(PlayerError::TicTacToeOnly(strategy));
        }
        Ok(Player {
            strategy,
            cache: Rc::new(RefCell::new(BTreeMap::new())),
        })
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.strategy.level()
    }

    /// The level's rate: `epsilon:E`'s ε, `gentle:F`'s F (zero for the levels
    /// without one).
    pub fn rate(&self) -> MistakeRate {
        self.strategy.mistake_rate()
    }

    /// Whether the player's moves depend on more than the position (`adaptive`).
    pub fn has_memory(&self) -> bool {
        self.strategy.has_memory()
    }

    /// `adaptive`'s estimate of the opponent's ε (its posterior mean); `None` for the
    /// other levels.
    pub fn estimate(&self) -> Option<MistakeRate> {
        self.strategy.estimate()
    }

    /// `adaptive`'s posterior (the uniform prior for the other levels).
    pub fn posterior(&self) -> &Posterior {
        self.strategy.posterior()
    }

    /// Reports the opponent's move `mv` made in `position` (before it): `adaptive`
    /// updates its posterior over the opponent's ε by Bayes' rule
    /// ([`Posterior::update`]); the other levels ignore it.
    pub fn observe<G: Game>(
        &mut self,
        solution: &Solution<G>,
        position: &G::Position,
        mv: G::Move,
    ) {
        if self.level() != Level::Adaptive {
            return;
        }
        let game = solution.game();
        if game.primitive(position).is_some() {
            return;
        }
        let mut legal = Vec::new();
        game.moves(position, &mut legal);
        if !legal.contains(&mv) {
            return;
        }
        let safe = perfect_moves(solution, position);
        let mut posterior = *self.strategy.posterior();
        posterior.update(legal.len(), safe.len(), safe.contains(&mv));
        self.strategy = self.strategy.with_posterior(posterior);
    }

    /// The player's choice in `position` as a mixture: each part a weight in units of
    /// 1/10 000 (summing to 10 000) and a nonempty set of moves chosen uniformly.
    pub fn parts<G: Game>(
        &self,
        solution: &Solution<G>,
        position: &G::Position,
    ) -> Result<Parts<G>, PlayerError> {
        let game = solution.game();
        if game.primitive(position).is_some() || solution.get(position).is_none() {
            return Err(PlayerError::NoMove);
        }
        let mut legal = Vec::new();
        game.moves(position, &mut legal);
        let full = MistakeRate::SCALE;
        let parameter = self.strategy.mistake_rate().parts_per_10000();
        let parts = match self.level() {
            Level::Random => Vec::from([(full, legal)]),
            Level::Perfect => Vec::from([(full, solution.best_moves(position))]),
            Level::Sharp => Vec::from([(
                full,
                self.chosen(
                    solution,
                    position,
                    MistakeRate::ONE,
                    Aim::Most,
                    Objective::Win,
                )?,
            )]),
            Level::Gentle => {
                let mut parts = Vec::new();
                if parameter > 0 {
                    let sharp = self.chosen(
                        solution,
                        position,
                        MistakeRate::ONE,
                        Aim::Most,
                        Objective::Win,
                    )?;
                    parts.push((parameter, sharp));
                }
                if parameter < full {
                    let least = self.chosen(
                        solution,
                        position,
                        MistakeRate::ONE,
                        Aim::Least,
                        Objective::Win,
                    )?;
                    parts.push((full - parameter, least));
                }
                parts
            }
            Level::Adaptive => {
                let epsilon = self.strategy.posterior().mean();
                Vec::from([(
                    full,
                    self.chosen(solution, position, epsilon, Aim::Most, Objective::Score)?,
                )])
            }
            Level::Epsilon => {
                let mut parts = Vec::new();
                if parameter > 0 {
                    parts.push((parameter, legal));
                }
                if parameter < full {
                    parts.push((full - parameter, perfect_moves(solution, position)));
                }
                parts
            }
            _ => return Err(PlayerError::TicTacToeOnly(self.strategy)),
        };
        if parts.iter().any(|(_, moves)| moves.is_empty()) {
            return Err(PlayerError::NoMove);
        }
        Ok(parts)
    }

    /// The exact probability of each move the player may make in `position` (moves of
    /// probability zero left out), in the order first met.
    pub fn distribution<G: Game>(
        &self,
        solution: &Solution<G>,
        position: &G::Position,
    ) -> Result<Vec<(G::Move, Exact)>, PlayerError> {
        let mut out: Vec<(G::Move, Exact)> = Vec::new();
        for (weight, moves) in self.parts(solution, position)? {
            let share = Exact::new(
                BigInt::from(weight),
                BigInt::from(MistakeRate::SCALE) * BigInt::from(moves.len()),
            );
            for mv in moves {
                match out.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, p)) => *p += &share,
                    None => out.push((mv, share.clone())),
                }
            }
        }
        Ok(out)
    }

    /// One move drawn from [`distribution`](Player::distribution) with `rng` (exactly:
    /// the part by a uniform integer below 10 000, then a uniform move of its set).
    pub fn choose<G: Game, R: rand_core::Rng + ?Sized>(
        &self,
        solution: &Solution<G>,
        position: &G::Position,
        rng: &mut R,
    ) -> Result<G::Move, PlayerError> {
        let parts = self.parts(solution, position)?;
        let mut draw = below(rng, u32::from(MistakeRate::SCALE));
        for (weight, moves) in &parts {
            if draw < u32::from(*weight) {
                return Ok(moves[below(rng, moves.len() as u32) as usize]);
            }
            draw -= u32::from(*weight);
        }
        Err(PlayerError::NoMove)
    }

    /// The value-keeping moves of the best (`Most`) or worst (`Least`) [`expectimax`]
    /// value; with `Most`, the table's best moves among them when there are some.
    fn chosen<G: Game>(
        &self,
        solution: &Solution<G>,
        position: &G::Position,
        epsilon: MistakeRate,
        aim: Aim,
        objective: Objective,
    ) -> Result<Vec<G::Move>, PlayerError> {
        let mut cache = self.cache.borrow_mut();
        let values = expectimax_cached(solution, position, epsilon, aim, objective, &mut cache)?;
        let target = match aim {
            Aim::Most => values.iter().map(|(_, v)| v).max(),
            Aim::Least => values.iter().map(|(_, v)| v).min(),
        }
        .cloned()
        .ok_or(PlayerError::NoMove)?;
        let tied: Vec<G::Move> = values
            .into_iter()
            .filter(|(_, v)| *v == target)
            .map(|(mv, _)| mv)
            .collect();
        if aim == Aim::Most {
            let best = solution.best_moves(position);
            let tied_best: Vec<G::Move> =
                tied.iter().copied().filter(|m| best.contains(m)).collect();
            if !tied_best.is_empty() {
                return Ok(tied_best);
            }
        }
        Ok(tied)
    }
}

/// The exact value of each value-keeping move of the side to move in `position`
/// against the ε-random opponent, the mover then keeping to the value-keeping moves of
/// the highest (`Most`) or lowest (`Least`) value (see the [module docs](self)). Errors
/// for a finished or unreachable position.
///
/// ```
/// use tictable_games::players::{expectimax, Aim, Objective};
/// use tictable_games::{solve, Game, TicTacToe};
/// use tictable::strategy::MistakeRate;
/// let solution = solve(TicTacToe::normal()).unwrap();
/// let values = expectimax(&solution, &solution.game().start(), MistakeRate::ONE, Aim::Most, Objective::Win).unwrap();
/// // sharp's 191/192 as X against a random O: the best opening's value.
/// let best = values.iter().map(|(_, v)| v).max().unwrap();
/// assert_eq!(best.to_string(), "191/192");
/// ```
pub fn expectimax<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    epsilon: MistakeRate,
    aim: Aim,
    objective: Objective,
) -> Result<Vec<(G::Move, Exact)>, PlayerError> {
    expectimax_cached(
        solution,
        position,
        epsilon,
        aim,
        objective,
        &mut BTreeMap::new(),
    )
}

fn expectimax_cached<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    epsilon: MistakeRate,
    aim: Aim,
    objective: Objective,
    cache: &mut Cache,
) -> Result<Vec<(G::Move, Exact)>, PlayerError> {
    let game = solution.game();
    if game.primitive(position).is_some() || solution.get(position).is_none() {
        return Err(PlayerError::NoMove);
    }
    let me = game.to_move(position);
    let model = Model {
        me: me as u8,
        epsilon: epsilon.parts_per_10000(),
        aim: aim as u8,
        objective: objective as u8,
    };
    let memo = cache.entry(model).or_default();
    let search = Search {
        solution,
        me,
        epsilon: epsilon.parts_per_10000(),
        aim,
        objective,
    };
    perfect_moves(solution, position)
        .into_iter()
        .map(|mv| Ok((mv, search.value(&game.play(position, mv), memo)?)))
        .collect()
}

struct Search<'a, G: Game> {
    solution: &'a Solution<G>,
    me: Side,
    epsilon: u16,
    aim: Aim,
    objective: Objective,
}

impl<G: Game> Search<'_, G> {
    /// The value of `position` for the mover.
    fn value(
        &self,
        position: &G::Position,
        memo: &mut BTreeMap<u64, Exact>,
    ) -> Result<Exact, PlayerError> {
        let game = self.solution.game();
        if let Some(outcome) = game.primitive(position) {
            let mine = if game.to_move(position) == self.me {
                outcome
            } else {
                outcome.flip()
            };
            return Ok(Exact::from_integer(BigInt::from(
                match (mine, self.objective) {
                    (Outcome::Win, _) => 1,
                    (Outcome::Loss, Objective::Score) => -1,
                    _ => 0,
                },
            )));
        }
        let key = class_key(game, position);
        if let Some(v) = memo.get(&key) {
            return Ok(v.clone());
        }
        let safe = perfect_moves(self.solution, position);
        if safe.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let value = if game.to_move(position) == self.me {
            let mut chosen: Option<Exact> = None;
            for mv in safe {
                let v = self.value(&game.play(position, mv), memo)?;
                chosen = Some(match chosen {
                    None => v,
                    Some(c) => match self.aim {
                        Aim::Most => c.max(v),
                        Aim::Least => c.min(v),
                    },
                });
            }
            chosen.ok_or(PlayerError::NoMove)?
        } else {
            // ε / legal on every move, (1 − ε) / safe more on the value-keeping ones:
            // over 10 000 · legal · safe, ε · safe + (10 000 − ε) · legal · kept.
            let mut legal = Vec::new();
            game.moves(position, &mut legal);
            let (n_legal, n_safe) = (legal.len() as u64, safe.len() as u64);
            let e = u64::from(self.epsilon);
            let full = u64::from(MistakeRate::SCALE);
            let mut sum = Exact::from_integer(BigInt::from(0));
            for mv in legal {
                let kept = safe.contains(&mv) as u64;
                let weight = e * n_safe + (full - e) * n_legal * kept;
                if weight != 0 {
                    sum += self.value(&game.play(position, mv), memo)? * BigInt::from(weight);
                }
            }
            sum / BigInt::from(full * n_legal * n_safe)
        };
        memo.insert(key, value.clone());
        Ok(value)
    }
}

/// The exact probabilities that X wins, that the game is drawn and that O wins, when
/// `x` plays X and `o` plays O from the start. Players without memory are walked once
/// per symmetry class; with `adaptive` every line is followed (it learns along it), which
/// only small games allow.
pub fn outcome_probabilities<G: Game>(
    solution: &Solution<G>,
    x: &Player,
    o: &Player,
) -> Result<[Exact; 3], PlayerError> {
    let start = solution.game().start();
    let mut memo = BTreeMap::new();
    let (x, o) = (x.clone(), o.clone());
    walk(solution, &start, [x, o], &mut memo)
}

fn walk<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    players: [Player; 2],
    memo: &mut BTreeMap<u64, [Exact; 3]>,
) -> Result<[Exact; 3], PlayerError> {
    let game = solution.game();
    let zero = || Exact::from_integer(BigInt::from(0));
    let one = || Exact::from_integer(BigInt::from(1));
    let mover = game.to_move(position);
    if let Some(outcome) = game.primitive(position) {
        let x_outcome = if mover == Side::X {
            outcome
        } else {
            outcome.flip()
        };
        return Ok(match x_outcome {
            Outcome::Win => [one(), zero(), zero()],
            Outcome::Draw => [zero(), one(), zero()],
            Outcome::Loss => [zero(), zero(), one()],
        });
    }
    let memoryless = !players[0].has_memory() && !players[1].has_memory();
    let key = class_key(game, position);
    if memoryless {
        if let Some(v) = memo.get(&key) {
            return Ok(v.clone());
        }
    }
    let index = usize::from(mover == Side::O);
    let mut total = [zero(), zero(), zero()];
    for (mv, p) in players[index].distribution(solution, position)? {
        let mut next = players.clone();
        next[1 - index].observe(solution, position, mv);
        let child = walk(solution, &game.play(position, mv), next, memo)?;
        for (t, c) in total.iter_mut().zip(child) {
            *t += c * &p;
        }
    }
    if memoryless {
        memo.insert(key, total.clone());
    }
    Ok(total)
}
