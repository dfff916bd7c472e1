//! A game's key as a sum over its cells, **derived from the game's Rust definition**
//! for the C and Python exports: no game writes its key twice.
//!
//! Every shipped game writes a position as a grid (`X`, `O`, `.`; rows joined by `/`,
//! top row first) and its [`Game::key`] is an affine function of the cells and the
//! side to move: `key = base + side_weight * [second player to move] + sum over cells
//! of weight[cell][piece]` (a base-3 rank, Connect Four's column codes). [`CellKey::derive`]
//! finds the weights from the game's own `key` over positions played from the start
//! (exact linear algebra modulo the prime `2^61 - 1`), and each symmetry's cell
//! permutation from the game's own [`Game::transform`]; then it checks the formula on
//! every position it saw, and refuses a game whose key is not such a sum.
//!
//! **Cells** (as the exports take them): cell `i` is the `i`-th cell of the written
//! grid (row-major, top row first, from 0), `0` empty, `1` the first player's piece
//! (X, White), `2` the second's; `side` is `0` when the first player is to move.
//!
//! ```
//! use tictable_games::{cell_key::CellKey, Game, Player, TicTacToe};
//! let game = TicTacToe::normal();
//! let formula = CellKey::derive(&game).unwrap();
//! let p = game.parse_position("X../.O./...").unwrap();
//! let cells = CellKey::cells_of(&game, &p).unwrap();
//! assert_eq!(cells, [1, 0, 0, 0, 2, 0, 0, 0, 0]);
//! assert_eq!(formula.key(&cells, Player::X), game.key(&p));
//! ```

use crate::game::{Game, Notation, Player};
use alloc::collections::BTreeSet;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The prime modulus of the elimination: `2^61 - 1`, above every key.
const PRIME: u64 = (1 << 61) - 1;
/// Random games played from the start for the derivation (besides the first plies).
const PLAYOUTS: u64 = 600;
/// Plies of a random game at most (the sliding games never end by themselves).
const PLAYOUT_PLIES: usize = 120;

/// A game's key as a sum over its cells, and its symmetries as cell permutations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellKey {
    /// Per cell, the weight of the first player's piece and of the second's.
    pub weights: Vec<[i64; 2]>,
    /// The key of the empty board with the first player to move.
    pub base: i64,
    /// Added when the second player is to move.
    pub side: i64,
    /// Per symmetry, where each cell goes: `images[s][i]` is the cell that holds cell
    /// `i`'s piece in the image under symmetry `s` (`images[0]` is the identity).
    pub images: Vec<Vec<u8>>,
}

/// Why a game's key is not a sum over its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellKeyError {
    /// A position is not written as a grid of `X`, `O` and `.` (64 cells at most).
    NotAGrid,
    /// The key is not an affine function of the cells and the side to move.
    NotASum,
    /// Symmetry `symmetry` does not move pieces from cell to cell, keeping the side.
    NotAPermutation {
        /// The symmetry's index.
        symmetry: usize,
    },
    /// The derived formula gives another key than the game on a position.
    Disagrees {
        /// The game's key of the position.
        key: u64,
        /// The symmetry whose image was computed.
        symmetry: usize,
    },
}

impl fmt::Display for CellKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellKeyError::NotAGrid => {
                f.write_str("positions are not written as a grid of X, O and .")
            }
            CellKeyError::NotASum => {
                f.write_str("the key is not a sum over the cells and the side to move")
            }
            CellKeyError::NotAPermutation { symmetry } => {
                write!(f, "symmetry {symmetry} does not permute the cells")
            }
            CellKeyError::Disagrees { key, symmetry } => write!(
                f,
                "the derived formula disagrees with the game's key {key} (symmetry {symmetry})"
            ),
        }
    }
}

impl core::error::Error for CellKeyError {}

fn mul(a: u64, b: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(PRIME)) as u64
}

fn inverse(a: u64) -> u64 {
    let (mut result, mut base, mut e) = (1, a, PRIME - 2);
    while e > 0 {
        if e & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    result
}

/// An echelon basis of the equations seen so far (each row's first non-zero is 1).
struct Basis {
    unknowns: usize,
    rows: Vec<(usize, Vec<u64>, u64)>,
}

impl Basis {
    /// Adds the equation `row . x = rhs`: `Ok(true)` when it was new, `Ok(false)` when
    /// it follows from the others, `Err` when it contradicts them.
    fn add(&mut self, mut row: Vec<u64>, mut rhs: u64) -> Result<bool, CellKeyError> {
        for (pivot, basis, b) in &self.rows {
            let f = row[*pivot];
            if f != 0 {
                for (x, y) in row.iter_mut().zip(basis) {
                    *x = (*x + PRIME - mul(f, *y)) % PRIME;
                }
                rhs = (rhs + PRIME - mul(f, *b)) % PRIME;
            }
        }
        match row.iter().position(|&x| x != 0) {
            None if rhs == 0 => Ok(false),
            None => Err(CellKeyError::NotASum),
            Some(pivot) => {
                let inv = inverse(row[pivot]);
                row.iter_mut().for_each(|x| *x = mul(*x, inv));
                self.rows.push((pivot, row, mul(rhs, inv)));
                Ok(true)
            }
        }
    }

    /// A solution, the unknowns no equation fixes at 0, as signed integers.
    fn solve(&self) -> Vec<i64> {
        let mut x = vec![0u64; self.unknowns];
        let mut rows: Vec<&(usize, Vec<u64>, u64)> = self.rows.iter().collect();
        rows.sort_by_key(|r| core::cmp::Reverse(r.0));
        for (pivot, row, rhs) in rows {
            let rest = (pivot + 1..self.unknowns).fold(0, |s, j| (s + mul(row[j], x[j])) % PRIME);
            x[*pivot] = (rhs + PRIME - rest) % PRIME;
        }
        x.into_iter()
            .map(|v| {
                if v > PRIME / 2 {
                    v as i64 - PRIME as i64
                } else {
                    v as i64
                }
            })
            .collect()
    }
}

/// A small deterministic generator (SplitMix64) for the random games.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Positions of `game` to derive and check the formula on: every position of the
/// first four plies and of [`PLAYOUTS`] random games, each once.
pub(crate) fn samples<G: Game>(game: &G) -> Vec<G::Position> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut layer = vec![game.start()];
    for _ in 0..4 {
        let mut below = Vec::new();
        for p in layer {
            if !seen.insert(game.key(&p)) {
                continue;
            }
            out.push(p);
            moves.clear();
            if game.primitive(&p).is_none() {
                game.moves(&p, &mut moves);
            }
            below.extend(moves.iter().map(|&m| game.play(&p, m)));
        }
        layer = below;
    }
    let mut state = 33;
    for _ in 0..PLAYOUTS {
        let mut p = game.start();
        for _ in 0..PLAYOUT_PLIES {
            if seen.insert(game.key(&p)) {
                out.push(p);
            }
            moves.clear();
            if game.primitive(&p).is_some() {
                break;
            }
            game.moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            p = game.play(&p, moves[(next(&mut state) % moves.len() as u64) as usize]);
        }
    }
    out
}

impl CellKey {
    /// The cells of `position` as its written grid gives them (see the module), or
    /// `None` when the game does not write a grid of `X`, `O` and `.`.
    pub fn cells_of<G: Game>(game: &G, position: &G::Position) -> Option<Vec<u8>> {
        let text = game.write_position(position, Notation::Api);
        let grid = text.split(' ').next()?;
        let cells: Vec<u8> = grid
            .chars()
            .filter(|&c| c != '/')
            .map(|c| match c {
                '.' => Some(0),
                'X' => Some(1),
                'O' => Some(2),
                _ => None,
            })
            .collect::<Option<_>>()?;
        (!cells.is_empty() && cells.len() <= 64).then_some(cells)
    }

    /// The formula of `game`'s key (see the module), checked on every position it was
    /// derived from.
    pub fn derive<G: Game>(game: &G) -> Result<CellKey, CellKeyError> {
        let positions = samples(game);
        let cells: Vec<Vec<u8>> = positions
            .iter()
            .map(|p| CellKey::cells_of(game, p).ok_or(CellKeyError::NotAGrid))
            .collect::<Result<_, _>>()?;
        let n = cells[0].len();
        if cells.iter().any(|c| c.len() != n) {
            return Err(CellKeyError::NotAGrid);
        }
        let sides: Vec<bool> = positions
            .iter()
            .map(|p| game.to_move(p) == Player::O)
            .collect();
        // Unknowns: per cell X then O, the base, the side last (so that a side fixed by
        // the cells, as in tic-tac-toe, is left at 0).
        let unknowns = 2 * n + 2;
        let mut basis = Basis {
            unknowns,
            rows: Vec::new(),
        };
        for (c, (&side, p)) in cells.iter().zip(sides.iter().zip(&positions)) {
            let mut row = vec![0u64; unknowns];
            for (i, &v) in c.iter().enumerate() {
                if v > 0 {
                    row[2 * i + usize::from(v) - 1] = 1;
                }
            }
            row[2 * n] = 1;
            row[2 * n + 1] = u64::from(side);
            basis.add(row, game.key(p) % PRIME)?;
        }
        let x = basis.solve();
        let mut formula = CellKey {
            weights: (0..n).map(|i| [x[2 * i], x[2 * i + 1]]).collect(),
            base: x[2 * n],
            side: x[2 * n + 1],
            images: vec![(0..n as u8).collect()],
        };
        for symmetry in 1..game.symmetries() {
            let mut candidates = vec![u64::MAX >> (64 - n); n];
            for (p, c) in positions.iter().zip(&cells) {
                let image = game.transform(p, symmetry);
                let t = CellKey::cells_of(game, &image).ok_or(CellKeyError::NotAGrid)?;
                if game.to_move(&image) != game.to_move(p) || t.len() != n {
                    return Err(CellKeyError::NotAPermutation { symmetry });
                }
                let mut holding = [0u64; 3];
                for (j, &v) in t.iter().enumerate() {
                    holding[usize::from(v)] |= 1 << j;
                }
                for (i, &v) in c.iter().enumerate() {
                    candidates[i] &= holding[usize::from(v)];
                }
            }
            let image: Vec<u8> = candidates
                .iter()
                .map(|&m| (m.count_ones() == 1).then(|| m.trailing_zeros() as u8))
                .collect::<Option<_>>()
                .ok_or(CellKeyError::NotAPermutation { symmetry })?;
            let distinct: BTreeSet<u8> = image.iter().copied().collect();
            if distinct.len() != n {
                return Err(CellKeyError::NotAPermutation { symmetry });
            }
            formula.images.push(image);
        }
        for (p, (c, &side)) in positions.iter().zip(cells.iter().zip(&sides)) {
            let side = if side { Player::O } else { Player::X };
            for symmetry in 0..formula.images.len() {
                let key = game.symmetric_key(p, symmetry);
                if formula.image_key(c, side, symmetry) != key {
                    return Err(CellKeyError::Disagrees { key, symmetry });
                }
            }
        }
        Ok(formula)
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.weights.len()
    }

    /// The key of the image of `cells` (side `side` to move) under symmetry `symmetry`.
    pub fn image_key(&self, cells: &[u8], side: Player, symmetry: usize) -> u64 {
        let image = &self.images[symmetry];
        let mut key = i128::from(self.base) + i128::from(self.side) * i128::from(side == Player::O);
        for (i, &v) in cells.iter().enumerate() {
            if v > 0 {
                key += i128::from(self.weights[usize::from(image[i])][usize::from(v) - 1]);
            }
        }
        key as u64
    }

    /// The key of `cells` with `side` to move.
    pub fn key(&self, cells: &[u8], side: Player) -> u64 {
        self.image_key(cells, side, 0)
    }

    /// The class key (the smallest key of the images) and the first symmetry giving it.
    pub fn class_key(&self, cells: &[u8], side: Player) -> (u64, usize) {
        (0..self.images.len())
            .map(|s| (self.image_key(cells, side, s), s))
            .fold((u64::MAX, 0), |best, k| if k.0 < best.0 { k } else { best })
    }

    /// The widest key a formula gives: bits for the game's key space (32 or 64).
    pub(crate) fn word_bits(key_space: u64) -> u32 {
        if key_space <= 1 << 32 {
            32
        } else {
            64
        }
    }
}
