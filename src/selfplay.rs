//! Self-play statistics (feature `stats`): two [`Strategy`]s play each other, either
//! sampled game by game with a seeded RNG ([`Sampler`]) or exactly ([`exact`]): the
//! game tree is walked once per position, weighted by both players' distributions,
//! in arbitrary-precision rational arithmetic (no rounding, no overflow).
//!
//! ```
//! use tictable::selfplay::exact;
//! use tictable::strategy::{Level, Strategy};
//! let random = Strategy::new(Level::Random);
//! let p = exact(&random, &random).unwrap();
//! assert_eq!(p.x_win.to_string(), "737/1260");
//! assert_eq!(p.o_win.to_string(), "121/420");
//! assert_eq!(p.draw.to_string(), "8/63");
//! ```

use crate::board::{Board, Player};
use crate::game::GameResult;
use crate::strategy::{ChooseError, Distribution, MistakeRate, Strategy};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::HashMap;

/// Exact probabilities of the three results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// X wins.
    pub x_win: BigRational,
    /// O wins.
    pub o_win: BigRational,
    /// Nobody wins.
    pub draw: BigRational,
}

/// The exact result probabilities when `x` plays X and `o` plays O from the empty
/// board. Errors only if a strategy cannot move where it must (which the strategies
/// of this crate never do).
pub fn exact(x: &Strategy, o: &Strategy) -> Result<Exact, ChooseError> {
    exact_from(&Board::EMPTY, x, o)
}

/// Like [`exact`] from any reachable position.
pub fn exact_from(board: &Board, x: &Strategy, o: &Strategy) -> Result<Exact, ChooseError> {
    board.validate()?;
    let mut memo = HashMap::new();
    walk(*board, *x, *o, &mut memo)
}

/// Probabilities from `board`, memoised by position and the players' states (a
/// strategy with a memory, `adaptive`, observes each move of its opponent, so its
/// state depends on the game so far; the others' never changes).
fn walk(
    board: Board,
    x: Strategy,
    o: Strategy,
    memo: &mut HashMap<(Board, Strategy, Strategy), Exact>,
) -> Result<Exact, ChooseError> {
    if let Some(known) = memo.get(&(board, x, o)) {
        return Ok(known.clone());
    }
    let one = || BigRational::from_integer(BigInt::from(1));
    let zero = BigRational::zero;
    let result = match board.winner() {
        Some(Player::X) => Exact {
            x_win: one(),
            o_win: zero(),
            draw: zero(),
        },
        Some(Player::O) => Exact {
            x_win: zero(),
            o_win: one(),
            draw: zero(),
        },
        None if board.is_full() => Exact {
            x_win: zero(),
            o_win: zero(),
            draw: one(),
        },
        None => {
            let strategy = match board.to_move() {
                Player::X => &x,
                Player::O => &o,
            };
            let distribution = strategy.distribution(&board)?;
            let mut total = Exact {
                x_win: zero(),
                o_win: zero(),
                draw: zero(),
            };
            for square in distribution.support() {
                let p = BigRational::new(
                    BigInt::from(distribution.weight(square)),
                    BigInt::from(Distribution::DENOMINATOR),
                );
                // The support holds only legal moves.
                let child = board.play(square).map_err(|_| ChooseError::GameOver)?;
                let (mut x, mut o) = (x, o);
                match board.to_move() {
                    Player::X => o.observe(&board, square),
                    Player::O => x.observe(&board, square),
                }
                let below = walk(child, x, o, memo)?;
                total.x_win += &p * below.x_win;
                total.o_win += &p * below.o_win;
                total.draw += p * below.draw;
            }
            total
        }
    };
    memo.insert((board, x, o), result.clone());
    Ok(result)
}

/// Tallies of sampled games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games X won.
    pub x_win: u64,
    /// Games O won.
    pub o_win: u64,
    /// Drawn games.
    pub draw: u64,
}

impl Counts {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.x_win + self.o_win + self.draw
    }

    /// Adds one result.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win(Player::X) => self.x_win += 1,
            GameResult::Win(Player::O) => self.o_win += 1,
            GameResult::Draw => self.draw += 1,
        }
    }
}

/// Plays sampled games between two strategies, caching each position's distribution
/// (a strategy's distribution depends only on the position and, for `adaptive`, its
/// [estimate](Strategy::estimate), so this changes nothing but the speed). A strategy with a memory (`adaptive`)
/// observes every move of its opponent, across the games of one sampler (a session).
///
/// ```
/// use rand_core::SeedableRng;
/// use tictable::selfplay::Sampler;
/// use tictable::strategy::{Level, Strategy};
/// let mut sampler = Sampler::new(Strategy::new(Level::Perfect), Strategy::new(Level::Random));
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let counts = sampler.run(1000, &mut rng, |_| {}).unwrap();
/// assert_eq!(counts.games(), 1000);
/// assert_eq!(counts.o_win, 0); // perfect play never loses
/// ```
#[derive(Clone, Debug)]
pub struct Sampler {
    x: Strategy,
    o: Strategy,
    cache: HashMap<(Board, Option<MistakeRate>), Distribution>,
}

impl Sampler {
    /// A sampler for `x` (playing X) against `o`.
    pub fn new(x: Strategy, o: Strategy) -> Sampler {
        Sampler {
            x,
            o,
            cache: HashMap::new(),
        }
    }

    /// One game from the empty board.
    pub fn game<R: rand_core::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Result<GameResult, ChooseError> {
        let mut board = Board::EMPTY;
        loop {
            if let Some(winner) = board.winner() {
                return Ok(GameResult::Win(winner));
            }
            if board.is_full() {
                return Ok(GameResult::Draw);
            }
            let (mover, other) = match board.to_move() {
                Player::X => (&self.x, &mut self.o),
                Player::O => (&self.o, &mut self.x),
            };
            // Adaptive's distribution depends on the position and its estimate only.
            let key = (board, mover.estimate());
            let distribution = match self.cache.get(&key) {
                Some(d) => *d,
                None => {
                    let d = mover.distribution(&board)?;
                    self.cache.insert(key, d);
                    d
                }
            };
            let square = distribution.sample(rng);
            other.observe(&board, square);
            board = board.play(square).map_err(|_| ChooseError::GameOver)?;
        }
    }

    /// The two players as they are now (`adaptive`'s posterior after the games so far).
    pub fn players(&self) -> (&Strategy, &Strategy) {
        (&self.x, &self.o)
    }

    /// Plays `games` games; `progress` is called with the number played so far after
    /// every 1024 games and at the end.
    pub fn run<R: rand_core::Rng + ?Sized>(
        &mut self,
        games: u64,
        rng: &mut R,
        mut progress: impl FnMut(u64),
    ) -> Result<Counts, ChooseError> {
        let mut counts = Counts::default();
        for played in 1..=games {
            counts.add(self.game(rng)?);
            if played % 1024 == 0 {
                progress(played);
            }
        }
        progress(games);
        Ok(counts)
    }
}
