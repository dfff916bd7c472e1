//! Players: every [`Strategy`] is a probability [`Distribution`] over the legal moves
//! of a position, with exact rational weights, sampled with a caller-supplied RNG.
//!
//! Because a player is a distribution rather than a procedure, games are reproducible
//! (seed the RNG) and exact statistics are possible (weight the game tree by both
//! players' distributions; see `tictable::selfplay` with the `stats` feature).
//!
//! Levels ([`Level`]):
//!
//! | level     | distribution                                                          |
//! |-----------|-----------------------------------------------------------------------|
//! | `random`  | uniform over the legal moves                                          |
//! | `easy`    | 30% `random`, 70% `medium`                                            |
//! | `medium`  | 20% `random`, 80% the rule move: win, else block, else centre, else a corner, else a side (uniform among ties) |
//! | `perfect` | uniform over [`Analysis::best`](crate::Analysis::best)                 |
//! | `trap`    | outcome-optimal moves that give a fallible opponent the most chances to go wrong (see [`trap_scores`]) |
//! | `sharp`   | the value-keeping moves with the highest exact win probability against a uniformly random opponent (expectimax, [`opponent`](crate::opponent)) |
//! | `gentle:F`| per decision, with probability F a `sharp` move, otherwise a value-keeping move with the *lowest* such win probability (F from 0 to 1) |
//! | `adaptive`| the value-keeping moves with the highest expected score against an ε-random opponent, ε the posterior mean of the opponent's moves seen ([`Strategy::observe`]) |
//! | `epsilon:E` | the ε-random opponent model: E uniform over the legal moves, 1 − E uniform over the value-keeping moves |
//!
//! `sharp`, `gentle` and `adaptive` never lose: they only play value-keeping moves
//! ([`Analysis::safe`](crate::Analysis::safe)). Only `adaptive` has a memory: the
//! caller reports the opponent's moves to it ([`Strategy::observe`]), across the
//! games of a session too.
//!
//! `perfect` and `trap` take a mistake rate ([`MistakeRate`], written `perfect:0.15`):
//! with that probability the player picks uniformly among the moves of the
//! second-best outcome class (see [`mistake_moves`]). Any strategy can force its first
//! move (written `perfect@4`, squares 0..=8 row-major from the top-left).
//!
//! ```
//! use rand_core::SeedableRng;
//! use tictable::strategy::{Distribution, Strategy};
//! use tictable::{Board, Square};
//!
//! let board: Board = "XX./OO./...".parse()?;
//! let perfect: Strategy = "perfect".parse()?;
//! let d = perfect.distribution(&board)?;
//! assert_eq!(d.weight(Square::new(2).unwrap()), Distribution::DENOMINATOR); // win at once
//!
//! let medium: Strategy = "medium".parse()?;
//! let d = medium.distribution(&board)?;
//! // 80% the rule move (win at 2) plus 20% spread uniformly over the 5 empty squares.
//! assert_eq!(d.probability(Square::new(2).unwrap()), (21_168_000, 25_200_000));
//!
//! let mut rng = rand_pcg::Pcg32::seed_from_u64(7);
//! assert!(board.legal_moves().contains(d.sample(&mut rng)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::analysis::Outcome;
use crate::board::{Board, Player, PositionError, Square, Squares};
use crate::opponent::{chosen_moves, Aim, Objective, Posterior};
use crate::table::LookupError;
use crate::table::{analyse, move_values};
use core::fmt;
use core::str::FromStr;

/// The least common multiple of 1..=9: a uniform choice among up to nine squares has
/// integer weights over it.
const UNIFORM: u32 = 2520;

/// A probability distribution over the nine squares with exact rational weights: the
/// probability of square `s` is `weight(s) / DENOMINATOR`, and the weights sum to
/// exactly [`Distribution::DENOMINATOR`].
///
/// Every distribution a [`Strategy`] returns is a mixture of uniform choices over sets
/// of squares with coefficients in units of 1/10 000, so one fixed denominator
/// (2520 × 10 000) represents all of them exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Distribution {
    weights: [u32; 9],
}

impl Distribution {
    /// The common denominator of every weight: 2520 (lcm of 1..=9) × 10 000.
    pub const DENOMINATOR: u32 = UNIFORM * MistakeRate::SCALE as u32;

    /// All the mass on one square.
    ///
    /// ```
    /// use tictable::{strategy::Distribution, Square};
    /// let d = Distribution::point(Square::CENTRE);
    /// assert_eq!(d.support().bits(), 1 << 4);
    /// ```
    pub const fn point(square: Square) -> Distribution {
        let mut weights = [0; 9];
        weights[square.index() as usize] = Distribution::DENOMINATOR;
        Distribution { weights }
    }

    /// The uniform distribution over `set`, or `None` for the empty set.
    ///
    /// ```
    /// use tictable::{strategy::Distribution, Square, Squares};
    /// let d = Distribution::uniform(Squares::from_bits(0b111)).unwrap();
    /// assert_eq!(d.probability(Square::new(1).unwrap()), (8_400_000, 25_200_000));
    /// assert!(Distribution::uniform(Squares::EMPTY).is_none());
    /// ```
    pub fn uniform(set: Squares) -> Option<Distribution> {
        Distribution::mixture(&[(MistakeRate::SCALE, set)])
    }

    /// `Σ cᵢ/10 000 · uniform(setᵢ)`; `None` unless the coefficients of the nonempty
    /// sets sum to 10 000 (an empty set must have coefficient 0).
    fn mixture(parts: &[(u16, Squares)]) -> Option<Distribution> {
        let mut weights = [0u32; 9];
        let mut total = 0u32;
        for &(coefficient, set) in parts {
            if coefficient == 0 {
                continue;
            }
            if set.is_empty() {
                return None;
            }
            total += coefficient as u32;
            let each = coefficient as u32 * (UNIFORM / set.len());
            for square in set {
                weights[square.index() as usize] += each;
            }
        }
        (total == MistakeRate::SCALE as u32).then_some(Distribution { weights })
    }

    /// The weight of `square` (its probability times [`Distribution::DENOMINATOR`]).
    #[inline]
    pub const fn weight(&self, square: Square) -> u32 {
        self.weights[square.index() as usize]
    }

    /// The weights of squares 0..=8.
    #[inline]
    pub const fn weights(&self) -> [u32; 9] {
        self.weights
    }

    /// The probability of `square` as `(numerator, denominator)`, not reduced.
    #[inline]
    pub const fn probability(&self, square: Square) -> (u32, u32) {
        (self.weight(square), Distribution::DENOMINATOR)
    }

    /// The squares with a nonzero probability.
    pub fn support(&self) -> Squares {
        Square::ALL
            .into_iter()
            .filter(|&s| self.weight(s) > 0)
            .collect()
    }

    /// Draws a square with exactly these probabilities (an unbiased integer below
    /// [`Distribution::DENOMINATOR`] by Lemire's multiply-and-reject method).
    ///
    /// ```
    /// use rand_core::SeedableRng;
    /// use tictable::{strategy::Distribution, Square, Squares};
    /// let d = Distribution::uniform(Squares::from_bits(0b101)).unwrap();
    /// let mut rng = rand_pcg::Pcg32::seed_from_u64(1);
    /// for _ in 0..100 {
    ///     assert!(d.support().contains(d.sample(&mut rng)));
    /// }
    /// ```
    pub fn sample<R: rand_core::Rng + ?Sized>(&self, rng: &mut R) -> Square {
        let mut draw = below(rng, Distribution::DENOMINATOR);
        let mut last = Square::CENTRE;
        for square in Square::ALL {
            let weight = self.weight(square);
            if weight == 0 {
                continue;
            }
            if draw < weight {
                return square;
            }
            draw -= weight;
            last = square;
        }
        // Unreachable while the weights sum to DENOMINATOR (an invariant of every
        // constructor); the last square of the support is the safe answer.
        last
    }
}

/// A uniform integer below `n` (n > 0; 0 for n = 0), exactly: Lemire's nearly
/// divisionless method. [`Distribution::sample`] draws with it, and the games crate's
/// players too.
///
/// ```
/// use rand_core::SeedableRng;
/// let mut rng = rand_pcg::Pcg32::seed_from_u64(5);
/// assert!((0..100).all(|_| tictable::strategy::below(&mut rng, 7) < 7));
/// ```
pub fn below<R: rand_core::Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// A probability in units of 1/10 000, from 0 to 1: the mistake-rate knob.
///
/// ```
/// use tictable::strategy::MistakeRate;
/// let r: MistakeRate = "0.15".parse().unwrap();
/// assert_eq!(r.parts_per_10000(), 1500);
/// assert_eq!(r.to_string(), "0.15");
/// assert!("1.5".parse::<MistakeRate>().is_err());
/// assert!("0.00001".parse::<MistakeRate>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MistakeRate(u16);

impl MistakeRate {
    /// Units per 1: rates are multiples of 1/10 000.
    pub const SCALE: u16 = 10_000;
    /// Never a mistake.
    pub const ZERO: MistakeRate = MistakeRate(0);
    /// Probability 1.
    pub const ONE: MistakeRate = MistakeRate(MistakeRate::SCALE);

    /// The rate `parts / 10 000`, or `None` above 1.
    pub const fn new(parts_per_10000: u16) -> Option<MistakeRate> {
        if parts_per_10000 <= MistakeRate::SCALE {
            Some(MistakeRate(parts_per_10000))
        } else {
            None
        }
    }

    /// The rate in units of 1/10 000.
    pub const fn parts_per_10000(self) -> u16 {
        self.0
    }
}

impl fmt::Display for MistakeRate {
    /// The shortest decimal: `0`, `0.15`, `1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, mut fraction) = (self.0 / MistakeRate::SCALE, self.0 % MistakeRate::SCALE);
        write!(f, "{whole}")?;
        if fraction != 0 {
            let mut digits = 4;
            while fraction % 10 == 0 {
                fraction /= 10;
                digits -= 1;
            }
            write!(f, ".{fraction:0digits$}")?;
        }
        Ok(())
    }
}

impl FromStr for MistakeRate {
    type Err = ParseStrategyError;

    /// A decimal from 0 to 1 with at most four digits after the point (`0.15`, `.5`, `1`).
    fn from_str(s: &str) -> Result<MistakeRate, ParseStrategyError> {
        let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty())
            || !digits(whole)
            || !digits(fraction)
            || fraction.len() > 4
            || whole.len() > 1
        {
            return Err(ParseStrategyError::BadRate);
        }
        let mut parts = whole.bytes().fold(0u32, |n, b| n * 10 + (b - b'0') as u32);
        for b in fraction.bytes().chain(core::iter::repeat(b'0')).take(4) {
            parts = parts * 10 + (b - b'0') as u32;
        }
        u16::try_from(parts)
            .ok()
            .and_then(MistakeRate::new)
            .ok_or(ParseStrategyError::BadRate)
    }
}

/// The playing levels; see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Uniform over the legal moves.
    Random,
    /// 30% random, otherwise medium.
    Easy,
    /// 20% random, otherwise win, block, centre, corner, side.
    Medium,
    /// Uniform over the table's best moves.
    Perfect,
    /// Outcome-optimal moves that maximise a fallible opponent's chances to err: the
    /// highest expected score against the opponent of [`TRAP_EPSILON`] (see
    /// [`trap_scores`]). Never worse than `Perfect` by outcome.
    Trap,
    /// Value-keeping moves with the highest exact win probability against a
    /// uniformly random opponent.
    Sharp,
    /// Per decision, with probability F (the parameter) a `Sharp` move, otherwise a
    /// value-keeping move with the lowest win probability against a random opponent.
    Gentle,
    /// Value-keeping moves with the highest expected score against the ε-random
    /// opponent of its posterior mean ε ([`Strategy::observe`]).
    Adaptive,
    /// The ε-random opponent (ε the parameter): a uniformly random legal move with
    /// probability ε, otherwise a uniformly chosen value-keeping move.
    Epsilon,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 9] = [
        Level::Random,
        Level::Easy,
        Level::Medium,
        Level::Perfect,
        Level::Trap,
        Level::Sharp,
        Level::Gentle,
        Level::Adaptive,
        Level::Epsilon,
    ];

    /// The name used on the command line: `random`, `easy`, `medium`, `perfect`,
    /// `trap`, `sharp`, `gentle`, `adaptive`, `epsilon`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Perfect => "perfect",
            Level::Trap => "trap",
            Level::Sharp => "sharp",
            Level::Gentle => "gentle",
            Level::Adaptive => "adaptive",
            Level::Epsilon => "epsilon",
        }
    }

    /// Whether the level takes a mistake rate (`perfect` and `trap`).
    pub const fn takes_mistake_rate(self) -> bool {
        matches!(self, Level::Perfect | Level::Trap)
    }

    /// Whether the level takes a number from 0 to 1 after a colon: the mistake rate
    /// of `perfect` and `trap`, F of `gentle`, ε of `epsilon`.
    pub const fn takes_parameter(self) -> bool {
        matches!(
            self,
            Level::Perfect | Level::Trap | Level::Gentle | Level::Epsilon
        )
    }

    /// The parameter a level has when none is written: 0.5 for `gentle`, 0.1 for
    /// `epsilon`, 0 (no mistakes) for the others.
    pub const fn default_parameter(self) -> MistakeRate {
        match self {
            Level::Gentle => MistakeRate(5_000),
            Level::Epsilon => MistakeRate(1_000),
            _ => MistakeRate::ZERO,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = ParseStrategyError;
    fn from_str(s: &str) -> Result<Level, ParseStrategyError> {
        Level::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(s))
            .ok_or(ParseStrategyError::UnknownLevel)
    }
}

/// Why a strategy string does not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseStrategyError {
    /// Not one of the names of [`Level::ALL`].
    UnknownLevel,
    /// The mistake rate is not a decimal from 0 to 1 with at most four decimals.
    BadRate,
    /// The parameter of `gentle` (F) or `epsilon` (ε) is not a decimal from 0 to 1
    /// with at most four decimals.
    BadParameter(Level),
    /// Only `perfect`, `trap`, `gentle` and `epsilon` take a number.
    RateNotAllowed,
    /// The forced first move is not a square 0..=8.
    BadSquare,
}

impl fmt::Display for ParseStrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseStrategyError::UnknownLevel => {
                "unknown level (expected random, easy, medium, perfect, trap, sharp, gentle, adaptive or epsilon)"
            }
            ParseStrategyError::BadParameter(Level::Epsilon) => {
                "bad epsilon (expected ε from 0 to 1, at most 4 decimals, e.g. epsilon:0.1)"
            }
            ParseStrategyError::BadParameter(_) => {
                "bad gentle (expected F from 0 to 1, at most 4 decimals, e.g. gentle:0.5; 0 lets the opponent draw most, 1 plays like sharp)"
            }
            ParseStrategyError::BadRate => {
                "bad mistake rate (expected a decimal from 0 to 1, at most 4 decimals, e.g. perfect:0.15)"
            }
            ParseStrategyError::RateNotAllowed => {
                "only perfect and trap take a mistake rate (e.g. perfect:0.15), gentle an F (gentle:0.5) and epsilon an ε (epsilon:0.1)"
            }
            ParseStrategyError::BadSquare => {
                "bad first move (expected a square 0..=8 row-major from the top-left, e.g. perfect@4)"
            }
        })
    }
}

impl core::error::Error for ParseStrategyError {}

/// Why a strategy cannot choose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChooseError {
    /// No game reaches the position.
    Position(PositionError),
    /// The game is over: there is no legal move.
    GameOver,
    /// The compiled table could not answer (a missing or malformed entry).
    Table(LookupError),
}

impl fmt::Display for ChooseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChooseError::Position(e) => write!(f, "invalid position: {e}"),
            ChooseError::GameOver => f.write_str("the game is over"),
            ChooseError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for ChooseError {}

impl From<PositionError> for ChooseError {
    fn from(e: PositionError) -> ChooseError {
        ChooseError::Position(e)
    }
}

impl From<LookupError> for ChooseError {
    fn from(e: LookupError) -> ChooseError {
        match e {
            LookupError::Position(e) => ChooseError::Position(e),
            e => ChooseError::Table(e),
        }
    }
}

/// A player: a [`Level`], a [`MistakeRate`] (only for `perfect` and `trap`) and an
/// optional forced first move.
///
/// Text form (parsed by [`FromStr`], printed by [`Display`](fmt::Display)):
/// `LEVEL[:RATE][@SQUARE]`, e.g. `random`, `perfect:0.15`, `trap@0`, `perfect:0.1@4`.
///
/// The forced first move applies while the player has no piece on the board and the
/// square is empty; if the opponent already took it, the level chooses instead.
///
/// ```
/// use tictable::strategy::{Level, Strategy};
/// use tictable::{Board, Square};
/// let s: Strategy = "perfect:0.15@0".parse().unwrap();
/// assert_eq!(s.level(), Level::Perfect);
/// assert_eq!(s.to_string(), "perfect:0.15@0");
/// let d = s.distribution(&Board::EMPTY).unwrap();
/// assert_eq!(d.support().bits(), 1); // opens on square 0
/// assert!("easy:0.1".parse::<Strategy>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strategy {
    level: Level,
    mistake_rate: MistakeRate,
    first_move: Option<Square>,
    /// `adaptive`'s estimate of its opponent; the uniform prior for other levels.
    posterior: Posterior,
}

impl From<Level> for Strategy {
    fn from(level: Level) -> Strategy {
        Strategy::new(level)
    }
}

impl Strategy {
    /// The level with its [default parameter](Level::default_parameter) (no
    /// mistakes), no forced first move and, for `adaptive`, the uniform prior.
    pub const fn new(level: Level) -> Strategy {
        Strategy {
            level,
            mistake_rate: level.default_parameter(),
            first_move: None,
            posterior: Posterior::UNIFORM,
        }
    }

    /// The same strategy with a mistake rate (or F for `gentle`, ε for `epsilon`);
    /// `Err` unless the level [takes one](Level::takes_parameter) (or the rate is
    /// zero).
    pub const fn with_mistake_rate(
        self,
        rate: MistakeRate,
    ) -> Result<Strategy, ParseStrategyError> {
        if rate.0 != 0 && !self.level.takes_parameter() {
            return Err(ParseStrategyError::RateNotAllowed);
        }
        Ok(Strategy {
            mistake_rate: rate,
            ..self
        })
    }

    /// The same strategy with a forced first move (or none).
    pub const fn with_first_move(self, first_move: Option<Square>) -> Strategy {
        Strategy { first_move, ..self }
    }

    /// The level.
    pub const fn level(&self) -> Level {
        self.level
    }

    /// The mistake rate (F for `gentle`, ε for `epsilon`).
    pub const fn mistake_rate(&self) -> MistakeRate {
        self.mistake_rate
    }

    /// Reports a move of the opponent: `square` played in `board` (the position before
    /// it). `adaptive` updates its posterior over the opponent's ε (see
    /// [`Posterior::observe`]); the other levels have no memory and ignore it.
    ///
    /// ```
    /// use tictable::strategy::{Level, Strategy};
    /// use tictable::{Board, Square};
    /// let mut s = Strategy::new(Level::Adaptive);
    /// assert_eq!(s.estimate().unwrap().to_string(), "0.5"); // the prior's mean
    /// let b: Board = "XX./OO./X..".parse()?; // O wins at 5 ...
    /// s.observe(&b, Square::new(8).unwrap()); // ... and plays 8: a careless player
    /// assert!(s.estimate().unwrap().parts_per_10000() > 5000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn observe(&mut self, board: &Board, square: Square) {
        if self.level == Level::Adaptive {
            self.posterior.observe(board, square);
        }
    }

    /// `adaptive`'s estimate of the opponent's mistake rate ε (the posterior mean);
    /// `None` for the other levels.
    pub fn estimate(&self) -> Option<MistakeRate> {
        (self.level == Level::Adaptive).then(|| self.posterior.mean())
    }

    /// The same strategy with `posterior` as `adaptive`'s estimate of its opponent
    /// (the games crate's players update it from the moves of any game).
    pub const fn with_posterior(self, posterior: Posterior) -> Strategy {
        Strategy { posterior, ..self }
    }

    /// `adaptive`'s posterior; the uniform prior for the other levels.
    pub const fn posterior(&self) -> &Posterior {
        &self.posterior
    }

    /// Whether the distribution depends on more than the position (`adaptive`, whose
    /// posterior changes with the moves it [observes](Strategy::observe)).
    pub const fn has_memory(&self) -> bool {
        matches!(self.level, Level::Adaptive)
    }

    /// The forced first move.
    pub const fn first_move(&self) -> Option<Square> {
        self.first_move
    }

    /// The probability of each move of the side to move in `board`.
    ///
    /// Errors for a board no game reaches and for a finished game. The support is
    /// always a nonempty subset of the legal moves; for `perfect` and `trap` without
    /// mistakes it lies within [`Analysis::safe`](crate::Analysis::safe).
    pub fn distribution(&self, board: &Board) -> Result<Distribution, ChooseError> {
        board.validate()?;
        if board.is_over() {
            return Err(ChooseError::GameOver);
        }
        let legal = board.legal_moves();
        if let Some(square) = self.first_move {
            if board.pieces(board.to_move()).is_empty() && legal.contains(square) {
                return Ok(Distribution::point(square));
            }
        }
        let parts: [(u16, Squares); 2] = match self.level {
            Level::Random => [(10_000, legal), (0, Squares::EMPTY)],
            // 0.3 random + 0.7 (0.2 random + 0.8 rule) = 0.44 random + 0.56 rule.
            Level::Easy => [(4_400, legal), (5_600, rule_moves(board))],
            Level::Medium => [(2_000, legal), (8_000, rule_moves(board))],
            Level::Sharp => [(10_000, sharp_moves(board)?), (0, Squares::EMPTY)],
            Level::Gentle => {
                let f = self.mistake_rate.0;
                let sharp = if f == 0 {
                    Squares::EMPTY
                } else {
                    sharp_moves(board)?
                };
                let least = if f == MistakeRate::SCALE {
                    Squares::EMPTY
                } else {
                    chosen_moves(board, MistakeRate::ONE, Aim::Least, Objective::Win)?
                };
                [(f, sharp), (MistakeRate::SCALE - f, least)]
            }
            Level::Adaptive => {
                let moves =
                    chosen_moves(board, self.posterior.mean(), Aim::Most, Objective::Score)?;
                [(10_000, moves), (0, Squares::EMPTY)]
            }
            Level::Epsilon => {
                let e = self.mistake_rate.0;
                let safe = if e == MistakeRate::SCALE {
                    Squares::EMPTY
                } else {
                    analyse(board)?.safe()
                };
                [(e, legal), (MistakeRate::SCALE - e, safe)]
            }
            Level::Perfect | Level::Trap => {
                let chosen = match self.level {
                    Level::Trap => trap_moves(board)?,
                    _ => analyse(board)?.best(),
                };
                let rate = self.mistake_rate.0;
                let mistakes = if rate == 0 {
                    Squares::EMPTY
                } else {
                    mistake_moves(board)?
                };
                [(MistakeRate::SCALE - rate, chosen), (rate, mistakes)]
            }
        };
        // Every set above is a nonempty subset of the legal moves when its coefficient
        // is nonzero, so the mixture exists; the fallback only guards the invariant.
        Ok(Distribution::mixture(&parts)
            .or_else(|| Distribution::uniform(legal))
            .unwrap_or(Distribution::point(Square::CENTRE)))
    }

    /// One move drawn from [`distribution`](Strategy::distribution) with `rng`.
    ///
    /// ```
    /// use rand_core::SeedableRng;
    /// use tictable::{strategy::{Level, Strategy}, Board};
    /// let mut rng = rand_pcg::Pcg32::seed_from_u64(3);
    /// let m = Strategy::new(Level::Trap).choose(&Board::EMPTY, &mut rng).unwrap();
    /// assert!(m.index() < 9);
    /// ```
    pub fn choose<R: rand_core::Rng + ?Sized>(
        &self,
        board: &Board,
        rng: &mut R,
    ) -> Result<Square, ChooseError> {
        Ok(self.distribution(board)?.sample(rng))
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.level)?;
        if self.mistake_rate.0 != 0 || self.mistake_rate != self.level.default_parameter() {
            write!(f, ":{}", self.mistake_rate)?;
        }
        if let Some(square) = self.first_move {
            write!(f, "@{square}")?;
        }
        Ok(())
    }
}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    /// `LEVEL[:RATE][@SQUARE]`, level names case-insensitive.
    fn from_str(s: &str) -> Result<Strategy, ParseStrategyError> {
        let (rest, first_move) = match s.split_once('@') {
            Some((rest, square)) => {
                let index: u8 = square.parse().map_err(|_| ParseStrategyError::BadSquare)?;
                let square = Square::new(index).ok_or(ParseStrategyError::BadSquare)?;
                (rest, Some(square))
            }
            None => (s, None),
        };
        let (level, rate) = match rest.split_once(':') {
            Some((level, rate)) => {
                let level = level.parse::<Level>()?;
                let rate = rate.parse::<MistakeRate>().map_err(|e| match level {
                    Level::Gentle | Level::Epsilon => ParseStrategyError::BadParameter(level),
                    _ => e,
                })?;
                (level, rate)
            }
            None => {
                let level = rest.parse::<Level>()?;
                (level, level.default_parameter())
            }
        };
        Ok(Strategy::new(level)
            .with_mistake_rate(rate)?
            .with_first_move(first_move))
    }
}

/// The `medium` rule move(s) for the side to move: the squares that win at once, else
/// those that block the opponent's immediate win, else the centre, else the empty
/// corners, else the empty sides. Empty only when the board is full.
///
/// ```
/// use tictable::{strategy::rule_moves, Board};
/// let b: Board = "X...O....".parse().unwrap();
/// assert_eq!(rule_moves(&b).bits(), 0b101_000_100); // the free corners
/// ```
pub fn rule_moves(board: &Board) -> Squares {
    const CORNERS: u16 = 0b101_000_101;
    let me = board.to_move();
    let empty = board.empty_squares();
    let wins = board.winning_moves(me);
    if !wins.is_empty() {
        return wins;
    }
    let blocks = board.winning_moves(me.other());
    if !blocks.is_empty() {
        return blocks;
    }
    if empty.contains(Square::CENTRE) {
        return Squares::from_bits(Square::CENTRE.bit());
    }
    let corners = Squares::from_bits(empty.bits() & CORNERS);
    if !corners.is_empty() {
        return corners;
    }
    empty
}

/// The mistakes of the mistake-rate knob: the legal moves whose outcome (for the
/// mover, under perfect play afterwards) is the best outcome strictly worse than the
/// position's. When no move is worse (every move keeps the outcome, as on the empty
/// board or in a lost position) they are the best moves.
///
/// ```
/// use tictable::{strategy::mistake_moves, Board};
/// // X wins at 2. Blocking at 5 only draws: that is the mistake (the other moves lose).
/// let b: Board = "XX.OO....".parse().unwrap();
/// assert_eq!(mistake_moves(&b).unwrap().bits(), 1 << 5);
/// ```
pub fn mistake_moves(board: &Board) -> Result<Squares, LookupError> {
    let analysis = analyse(board)?;
    let values = move_values(board)?;
    let worse = |outcome: Outcome| -> Squares {
        Square::ALL
            .into_iter()
            .filter(|s| values[s.index() as usize].is_some_and(|v| v.outcome == outcome))
            .collect()
    };
    let candidates: &[Outcome] = match analysis.outcome() {
        Outcome::Win => &[Outcome::Draw, Outcome::Loss],
        Outcome::Draw => &[Outcome::Loss],
        Outcome::Loss => &[],
    };
    Ok(candidates
        .iter()
        .map(|&o| worse(o))
        .find(|set| !set.is_empty())
        .unwrap_or(analysis.best()))
}

/// The opponent model of `trap`, ε = 1/4 as `(numerator, denominator)`: at each of
/// its moves the opponent plays, with probability 1 − ε, uniformly among its best
/// moves ([`Analysis::best`](crate::Analysis::best)) and, with probability ε,
/// uniformly among all its legal moves (so a careless move may still be a good one).
/// A quarter models a person who mostly plays well but slips now and then.
pub const TRAP_EPSILON: (i64, i64) = (1, 4);

/// Per opponent decision the weights are integers over this base: 4 (ε = 1/4) × 840
/// (lcm of 1..=8, the opponent has at most 8 moves).
const NODE: i64 = TRAP_EPSILON.1 * 840;

/// The scale of [`trap_scores`]: a certain win is `TRAP_SCALE`, a certain loss
/// `-TRAP_SCALE`. Below a decision position the opponent decides at most four
/// times, and each decision divides exactly by `NODE`, so scores are exact integers.
pub const TRAP_SCALE: i64 = NODE * NODE * NODE * NODE;

/// The expected score, times [`TRAP_SCALE`], of each legal move of the side to move
/// (`None` for other squares) against the fallible opponent of [`TRAP_EPSILON`], when
/// the mover keeps playing this way (a move that keeps the outcome and maximises the
/// same expected score). A win scores 1, a draw 0, a loss −1; the values are exact.
///
/// This is the model `trap` optimises: among the moves that keep the position's
/// outcome under perfect play ([`Analysis::safe`](crate::Analysis::safe)) it plays
/// uniformly among those with the highest score, preferring the table's best moves on
/// ties (so it takes the fastest win).
///
/// ```
/// use tictable::strategy::{trap_scores, TRAP_SCALE};
/// use tictable::{Board, Square};
/// // O took an edge against X's corner: the open position gives O chances to err.
/// let b: Board = "X..O.....".parse().unwrap();
/// let scores = trap_scores(&b).unwrap();
/// assert_eq!(scores[0], None);
/// assert!(scores.iter().flatten().all(|&s| s.abs() <= TRAP_SCALE));
/// ```
pub fn trap_scores(board: &Board) -> Result<[Option<i64>; 9], LookupError> {
    board.validate()?;
    let me = board.to_move();
    let mut scores = [None; 9];
    for square in board.legal_moves() {
        let child = board.play_unchecked(square.bit());
        scores[square.index() as usize] = Some(expected_score(child, me)?);
    }
    Ok(scores)
}

/// The expected score of `board` for `me` under the trap model, times [`TRAP_SCALE`].
fn expected_score(board: Board, me: Player) -> Result<i64, LookupError> {
    if let Some(winner) = board.winner() {
        return Ok(if winner == me {
            TRAP_SCALE
        } else {
            -TRAP_SCALE
        });
    }
    if board.is_full() {
        return Ok(0);
    }
    let analysis = analyse(&board)?;
    if board.to_move() == me {
        let mut best = i64::MIN;
        for square in analysis.safe() {
            best = best.max(expected_score(board.play_unchecked(square.bit()), me)?);
        }
        return Ok(best);
    }
    let (best, legal) = (analysis.best(), board.legal_moves());
    let careless = NODE * TRAP_EPSILON.0 / TRAP_EPSILON.1;
    let careful = NODE - careless;
    let mut sum = 0i64;
    for square in legal {
        let mut weight = careless / legal.len() as i64;
        if best.contains(square) {
            weight += careful / best.len() as i64;
        }
        sum += weight * expected_score(board.play_unchecked(square.bit()), me)?;
    }
    Ok(sum / NODE)
}

/// The moves `trap` chooses among: the safe moves with the highest
/// [`trap_scores`], restricted to the best moves when some of them tie for the top.
///
/// ```
/// use tictable::{analyse, strategy::trap_moves, Board};
/// let b = Board::EMPTY;
/// let trap = trap_moves(&b).unwrap();
/// assert!(!trap.is_empty() && trap.is_subset(analyse(&b).unwrap().safe()));
/// ```
pub fn trap_moves(board: &Board) -> Result<Squares, LookupError> {
    let analysis = analyse(board)?;
    let scores = trap_scores(board)?;
    let safe = analysis.safe();
    let top = safe
        .iter()
        .filter_map(|s| scores[s.index() as usize])
        .max()
        .unwrap_or(0);
    let tied: Squares = safe
        .iter()
        .filter(|s| scores[s.index() as usize] == Some(top))
        .collect();
    let tied_best = Squares::from_bits(tied.bits() & analysis.best().bits());
    Ok(if tied_best.is_empty() {
        tied
    } else {
        tied_best
    })
}

/// The moves `sharp` chooses among: the value-keeping moves with the highest exact
/// win probability against a uniformly random opponent when it keeps playing this
/// way ([`opponent::expectimax`](crate::opponent::expectimax)), restricted to the
/// table's best moves (the fastest win) when some of them tie for the top.
///
/// ```
/// use tictable::{strategy::sharp_moves, Board};
/// // O answered the corner with an edge: X has a forced win, and takes a quickest one.
/// let b: Board = "XO.......".parse()?;
/// let sharp = sharp_moves(&b)?;
/// assert!(!sharp.is_empty());
/// # Ok::<(), tictable::LookupError>(())
/// ```
pub fn sharp_moves(board: &Board) -> Result<Squares, LookupError> {
    chosen_moves(board, MistakeRate::ONE, Aim::Most, Objective::Win)
}
