//! The best-move table of one side: for **every reachable position** where that side is
//! to move and the game goes on (one per symmetry class), the **set** of its best moves
//! (the value-keeping moves with the best remoteness: the fastest win, the moves that
//! keep a draw, the slowest loss — exactly [`Solution::best_moves`]).
//!
//! Every reachable position, not only those met when the side plays perfectly: the
//! table then answers after any opening, a handicap start or the side's own earlier
//! mistakes, and a player built on it never leaves the table. (The positions met under
//! one perfect strategy are the [minimal strategy](crate::strategy), a far smaller
//! set.) The whole set, not one move: a player can vary its play among equally good
//! moves, and one move would save only the few mask bits.
//!
//! **Layout**: the entries sorted by the class key (the smallest [`Game::key`] among a
//! position's symmetric images), each `key_bytes` bytes of the key then `mask_bytes`
//! bytes of the move mask, both little-endian; a lookup is a binary search (as in the
//! tic-tac-toe C header), at most `ceil(log2(entries + 1))` probes. Bit `i` of the mask
//! is the `i`-th move of [`Game::moves`] of the class's **representative**, the image
//! whose key is the class key. The keys are the index: no position is stored.
//!
//! ```
//! use tictable_games::{best_move::BestMoveTable, solve, Game, Notation, Player, TicTacToe};
//! let solution = solve(TicTacToe::normal()).unwrap();
//! let table = BestMoveTable::build(&solution, Player::X).unwrap();
//! assert_eq!(table.verify(&solution), Ok(table.entries()));
//! let game = solution.game();
//! // X at 1 and 2, O at 4 and 5: X wins at 3 at once.
//! let mut p = game.start();
//! for square in ["1", "4", "2", "5"] {
//!     p = game.play(&p, game.parse_move(&p, square, Notation::People).unwrap());
//! }
//! let best = table.best_moves(game, &p).unwrap();
//! assert_eq!(game.write_move(best[0], Notation::People), "3");
//! ```

use crate::game::{Game, Outcome, Player};
use crate::solver::{class_key, Record, Solution};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// One entry of a best-move table while it is built: a class with its representative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<P> {
    /// The class key.
    pub key: u64,
    /// The representative: the image of the class whose key is the class key.
    pub position: P,
    /// Bit `i`: the `i`-th legal move of `position` is a best move.
    pub mask: u64,
}

/// One side's best-move table: sorted class keys, each with its move mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMoveTable {
    player: Player,
    key_space: u64,
    key_bytes: u8,
    mask_bytes: u8,
    keys: Vec<u64>,
    masks: Vec<u64>,
}

/// Why a best-move table could not be built or does not agree with the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMoveError {
    /// A position has more than 64 legal moves (a mask holds 64).
    TooManyMoves,
    /// A reachable class of the side is missing from the table.
    Missing {
        /// Its class key.
        key: u64,
    },
    /// An entry's moves differ from the solution's best moves.
    WrongMoves {
        /// Its class key.
        key: u64,
        /// The mask in the table.
        found: u64,
        /// The mask the solution gives.
        expected: u64,
    },
    /// The solution's own record of a position disagrees with its children's.
    Inconsistent {
        /// Its class key.
        key: u64,
    },
    /// The table holds entries that are not reachable classes of the side.
    Extra {
        /// Entries in the table.
        found: u64,
        /// Reachable classes of the side.
        expected: u64,
    },
    /// Packed bytes that are not a table (keys out of order or range, a bad length).
    Malformed,
}

impl fmt::Display for BestMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestMoveError::TooManyMoves => f.write_str("a position has more than 64 legal moves"),
            BestMoveError::Missing { key } => write!(f, "class {key} is missing from the table"),
            BestMoveError::WrongMoves {
                key,
                found,
                expected,
            } => write!(
                f,
                "class {key}: the table gives moves {found:#x}, the solution {expected:#x}"
            ),
            BestMoveError::Inconsistent { key } => {
                write!(f, "class {key}: the solution disagrees with its children")
            }
            BestMoveError::Extra { found, expected } => write!(
                f,
                "the table has {found} entries, the side has {expected} reachable classes"
            ),
            BestMoveError::Malformed => f.write_str("the packed best-move table is malformed"),
        }
    }
}

impl core::error::Error for BestMoveError {}

/// The class key of `position` and its representative (the image with that key).
pub fn representative<G: Game>(game: &G, position: &G::Position) -> (u64, G::Position) {
    let (mut key, mut symmetry) = (game.key(position), 0);
    for s in 1..game.symmetries() {
        let k = game.symmetric_key(position, s);
        if k < key {
            (key, symmetry) = (k, s);
        }
    }
    (key, game.transform(position, symmetry))
}

/// A score of a child's record for the side choosing it (higher is better): a loss for
/// the opponent, the nearest first; then a draw; then a win for the opponent, the
/// farthest first.
fn score(child: Record) -> i32 {
    let r = i32::from(child.remoteness);
    match child.outcome {
        Outcome::Loss => 1000 - r,
        Outcome::Draw => 0,
        Outcome::Win => -1000 + r,
    }
}

/// The best-move mask of `position` (not finished) recomputed from its children's
/// records, and whether the position's own record agrees with them.
fn mask_from_children<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    moves: &[G::Move],
) -> Result<u64, ()> {
    let game = solution.game();
    let scores: Vec<i32> = moves
        .iter()
        .map(|&mv| solution.get(&game.play(position, mv)).map(score).ok_or(()))
        .collect::<Result<_, _>>()?;
    let best = *scores.iter().max().ok_or(())?;
    let own = solution.get(position).ok_or(())?;
    let expected = match own.outcome {
        Outcome::Win => 1000 - (i32::from(own.remoteness) - 1),
        Outcome::Draw => 0,
        Outcome::Loss => -1000 + (i32::from(own.remoteness) - 1),
    };
    if best != expected {
        return Err(());
    }
    Ok(scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == best)
        .fold(0, |mask, (i, _)| mask | 1 << i))
}

/// Walks every reachable class from the start (each once, breadth first) and calls
/// `visit` on each representative.
fn each_class<G: Game>(
    game: &G,
    mut visit: impl FnMut(u64, &G::Position, &[G::Move]) -> Result<(), BestMoveError>,
) -> Result<(), BestMoveError> {
    let key_space = game.key_space();
    let mut seen = vec![0u64; key_space.div_ceil(64) as usize];
    let (key, start) = representative(game, &game.start());
    seen[(key / 64) as usize] |= 1 << (key % 64);
    let mut queue = alloc::collections::VecDeque::from([start]);
    let mut moves = Vec::new();
    while let Some(position) = queue.pop_front() {
        moves.clear();
        if game.primitive(&position).is_none() {
            game.moves(&position, &mut moves);
        }
        visit(game.key(&position), &position, &moves)?;
        for &mv in &moves {
            let (key, child) = representative(game, &game.play(&position, mv));
            let word = seen
                .get_mut((key / 64) as usize)
                .ok_or(BestMoveError::Malformed)?;
            if *word >> (key % 64) & 1 == 0 {
                *word |= 1 << (key % 64);
                queue.push_back(child);
            }
        }
    }
    Ok(())
}

/// Every entry of `player`'s table, sorted by key, with its representative: for each
/// reachable class where `player` is to move and the game goes on, the mask of
/// [`Solution::best_moves`] of the representative.
pub fn entries<G: Game>(
    solution: &Solution<G>,
    player: Player,
) -> Result<Vec<Entry<G::Position>>, BestMoveError> {
    let game = solution.game();
    let mut out = Vec::new();
    each_class(game, |key, position, moves| {
        if moves.is_empty() || game.to_move(position) != player {
            return Ok(());
        }
        if moves.len() > 64 {
            return Err(BestMoveError::TooManyMoves);
        }
        let best = solution.best_moves(position);
        let mask = moves
            .iter()
            .enumerate()
            .filter(|(_, mv)| best.contains(mv))
            .fold(0u64, |mask, (i, _)| mask | 1 << i);
        out.push(Entry {
            key,
            position: *position,
            mask,
        });
        Ok(())
    })?;
    out.sort_unstable_by_key(|e| e.key);
    Ok(out)
}

/// The bytes that hold any value below `limit` (at least 1).
fn bytes_for(limit: u64) -> u8 {
    let bits = 64 - limit.saturating_sub(1).leading_zeros();
    bits.div_ceil(8).max(1) as u8
}

/// The `n` bits (1 to 64) of the little-endian bit stream `packed` (bit `b` is bit
/// `b % 8` of byte `b / 8`) from bit `bit`; `None` past its end. Within 32 bits it
/// reads with 32-bit arithmetic (cheap on a Cortex-M0).
///
/// ```
/// use tictable_games::best_move::bits;
/// assert_eq!(bits(&[0b1011_0000, 0b0000_0001], 4, 5), Some(0b1_1011));
/// assert_eq!(bits(&[0xff], 4, 5), None);
/// ```
pub fn bits(packed: &[u8], bit: usize, n: u32) -> Option<u64> {
    let shift = (bit % 8) as u32;
    let start = bit / 8;
    let chunk = packed.get(start..start + (shift + n).div_ceil(8) as usize)?;
    if shift + n <= 32 {
        // A whole 4-byte window when the table has one here: no loop.
        if let Some(window) = packed.get(start..start + 4) {
            let v = u32::from_le_bytes([window[0], window[1], window[2], window[3]]);
            return Some(u64::from(v >> shift & (u32::MAX >> (32 - n))));
        }
        let v = chunk.iter().rev().fold(0u32, |v, &b| v << 8 | u32::from(b));
        Some(u64::from(v >> shift & (u32::MAX >> (32 - n))))
    } else {
        let v = chunk
            .iter()
            .rev()
            .fold(0u128, |v, &b| v << 8 | u128::from(b));
        Some((v >> shift) as u64 & (u64::MAX >> (64 - n)))
    }
}

/// The mask of the class `key` in a bit-packed table ([`BestMoveTable::to_bits`]:
/// `entries` entries of `key_bits` then `mask_bits` bits, sorted by key), by binary
/// search, without allocating: the lookup the C header and the Python module write out,
/// the postcard file holds ([`crate::best_file`]) and the emulated Cortex-M runs
/// (`qemu/`). `None` when the key is not there.
///
/// ```
/// use tictable_games::{best_move::{lookup_bits, BestMoveTable}, solve, Hexapawn, Player};
/// let table = BestMoveTable::build(&solve(Hexapawn).unwrap(), Player::X).unwrap();
/// let (kb, mb) = (u32::from(table.key_bits()), u32::from(table.mask_bits()));
/// let packed = table.to_bits();
/// for (key, mask) in table.iter() {
///     assert_eq!(lookup_bits(&packed, kb, mb, table.entries() as usize, key), Some(mask));
/// }
/// assert_eq!(lookup_bits(&packed, kb, mb, table.entries() as usize, 0), None);
/// ```
pub fn lookup_bits(
    packed: &[u8],
    key_bits: u32,
    mask_bits: u32,
    entries: usize,
    key: u64,
) -> Option<u64> {
    let width = (key_bits + mask_bits) as usize;
    let found = if key_bits <= 25 {
        // A key and its shift fit 32 bits: read each key from a 32-bit window (the
        // common case, cheap on a Cortex-M0). No key of the table is this wide.
        if key >> key_bits != 0 {
            return None;
        }
        let low = u32::MAX >> (32 - key_bits);
        search(entries, key, |i| {
            let bit = i * width;
            let start = bit / 8;
            let window = match packed.get(start..start + 4) {
                Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                None => packed
                    .get(start..)?
                    .iter()
                    .rev()
                    .fold(0u32, |v, &b| v << 8 | u32::from(b)),
            };
            Some(u64::from(window >> (bit % 8) & low))
        })?
    } else {
        search(entries, key, |i| bits(packed, i * width, key_bits))?
    };
    bits(packed, found * width + key_bits as usize, mask_bits)
}

/// The index of `key` among `entries` sorted keys, `key_at(i)` giving key `i`; `None`
/// when it is not there (or a key cannot be read).
#[inline(always)]
fn search(entries: usize, key: u64, key_at: impl Fn(usize) -> Option<u64>) -> Option<usize> {
    let (mut lo, mut hi) = (0usize, entries);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let k = key_at(mid)?;
        if k == key {
            return Some(mid);
        }
        if k < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

impl BestMoveTable {
    /// The table of `player` in `solution`'s game (see the module).
    pub fn build<G: Game>(solution: &Solution<G>, player: Player) -> Result<Self, BestMoveError> {
        let entries = entries(solution, player)?;
        Ok(Self::from_entries(solution.game(), player, &entries))
    }

    /// The table of sorted `entries` of `player`.
    pub fn from_entries<G: Game>(game: &G, player: Player, entries: &[Entry<G::Position>]) -> Self {
        let mut moves = Vec::new();
        let widest = entries
            .iter()
            .map(|e| {
                moves.clear();
                game.moves(&e.position, &mut moves);
                moves.len() as u64
            })
            .max()
            .unwrap_or(1);
        BestMoveTable {
            player,
            key_space: game.key_space(),
            key_bytes: bytes_for(game.key_space()),
            mask_bytes: (widest.div_ceil(8)).max(1) as u8,
            keys: entries.iter().map(|e| e.key).collect(),
            masks: entries.iter().map(|e| e.mask).collect(),
        }
    }

    /// The side whose moves the table gives.
    pub fn player(&self) -> Player {
        self.player
    }

    /// The number of entries (reachable classes where the side is to move).
    pub fn entries(&self) -> u64 {
        self.keys.len() as u64
    }

    /// Bytes of a key in the packed layout.
    pub fn key_bytes(&self) -> u8 {
        self.key_bytes
    }

    /// Bytes of a move mask in the packed layout (the most legal moves of an entry,
    /// rounded up to whole bytes).
    pub fn mask_bytes(&self) -> u8 {
        self.mask_bytes
    }

    /// Bits per entry (position) in the packed layout.
    pub fn bits_per_position(&self) -> u32 {
        8 * u32::from(self.key_bytes + self.mask_bytes)
    }

    /// Bits of a key in the bit-packed layout ([`to_bits`](Self::to_bits)): enough
    /// for every key below the key space.
    pub fn key_bits(&self) -> u8 {
        (u64::BITS - self.key_space.saturating_sub(1).leading_zeros()).max(1) as u8
    }

    /// Bits of a mask in the bit-packed layout: up to the highest best move of any
    /// entry (a move after it is never best, so its bit is never stored).
    pub fn mask_bits(&self) -> u8 {
        let all = self.masks.iter().fold(0, |all, m| all | m);
        (u64::BITS - all.leading_zeros()).max(1) as u8
    }

    /// The bit-packed layout of the exports (C header, Python module): entry `i` is
    /// the `key_bits + mask_bits` bits from bit `i * (key_bits + mask_bits)` of the
    /// little-endian bit stream (bit `b` is bit `b % 8` of byte `b / 8`), the key in
    /// the low bits, then the mask; the last byte padded with zeros.
    ///
    /// ```
    /// use tictable_games::{best_move::BestMoveTable, solve, Hexapawn, Player};
    /// let table = BestMoveTable::build(&solve(Hexapawn).unwrap(), Player::X).unwrap();
    /// let width = u64::from(table.key_bits() + table.mask_bits());
    /// assert_eq!(table.to_bits().len() as u64, (table.entries() * width).div_ceil(8));
    /// ```
    pub fn to_bits(&self) -> Vec<u8> {
        let (kb, mb) = (u32::from(self.key_bits()), u32::from(self.mask_bits()));
        let width = u64::from(kb + mb);
        let mut out = vec![0u8; (self.entries() * width).div_ceil(8) as usize];
        let mut bit = 0u64;
        for (key, mask) in self.iter() {
            for (value, n) in [(key, kb), (mask, mb)] {
                for b in 0..n {
                    if value >> b & 1 != 0 {
                        let at = bit + u64::from(b);
                        out[(at / 8) as usize] |= 1 << (at % 8);
                    }
                }
                bit += u64::from(n);
            }
        }
        out
    }

    /// The size of the packed table in bytes.
    pub fn bytes(&self) -> u64 {
        self.entries() * u64::from(self.key_bytes + self.mask_bytes)
    }

    /// The sorted keys and their masks.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.keys.iter().copied().zip(self.masks.iter().copied())
    }

    /// The mask of the class `key`, `None` when the table has no such entry.
    pub fn mask(&self, key: u64) -> Option<u64> {
        let i = self.keys.binary_search(&key).ok()?;
        Some(self.masks[i])
    }

    /// The best moves of `position` (any image of its class), in the order of
    /// [`Game::moves`]; `None` when the position is not in the table (another side to
    /// move, finished, unreachable).
    pub fn best_moves<G: Game>(&self, game: &G, position: &G::Position) -> Option<Vec<G::Move>> {
        let (key, canonical) = representative(game, position);
        let mask = self.mask(key)?;
        let mut moves = Vec::new();
        game.moves(&canonical, &mut moves);
        // The classes the best moves of the representative lead to; a move of
        // `position` is best when it leads to one of them (symmetric moves lead to
        // symmetric children).
        let best: Vec<u64> = moves
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 != 0)
            .map(|(_, &mv)| class_key(game, &game.play(&canonical, mv)))
            .collect();
        moves.clear();
        game.moves(position, &mut moves);
        moves.retain(|&mv| best.contains(&class_key(game, &game.play(position, mv))));
        Some(moves)
    }

    /// Checks the table against `solution`, class by class: every reachable class of
    /// the side (walked from the start) is in the table with the mask recomputed from
    /// its children's records (whose best must match the class's own record), and the
    /// table holds nothing else. The number of entries checked.
    pub fn verify<G: Game>(&self, solution: &Solution<G>) -> Result<u64, BestMoveError> {
        let game = solution.game();
        let mut checked = 0u64;
        each_class(game, |key, position, moves| {
            if moves.is_empty() || game.to_move(position) != self.player {
                return Ok(());
            }
            let expected = mask_from_children(solution, position, moves)
                .map_err(|()| BestMoveError::Inconsistent { key })?;
            let found = self.mask(key).ok_or(BestMoveError::Missing { key })?;
            if found != expected {
                return Err(BestMoveError::WrongMoves {
                    key,
                    found,
                    expected,
                });
            }
            checked += 1;
            Ok(())
        })?;
        if checked != self.entries() {
            return Err(BestMoveError::Extra {
                found: self.entries(),
                expected: checked,
            });
        }
        Ok(checked)
    }

    /// The packed layout: each entry's key (`key_bytes`) then mask (`mask_bytes`),
    /// little-endian, in key order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes() as usize);
        for (key, mask) in self.iter() {
            out.extend_from_slice(&key.to_le_bytes()[..usize::from(self.key_bytes)]);
            out.extend_from_slice(&mask.to_le_bytes()[..usize::from(self.mask_bytes)]);
        }
        out
    }

    /// The table of `player` from its packed layout, checked: a whole number of
    /// entries, keys strictly increasing and below `key_space`, no empty mask.
    pub fn from_bytes(
        player: Player,
        key_space: u64,
        key_bytes: u8,
        mask_bytes: u8,
        bytes: &[u8],
    ) -> Result<Self, BestMoveError> {
        if !(1..=8).contains(&key_bytes) || !(1..=8).contains(&mask_bytes) {
            return Err(BestMoveError::Malformed);
        }
        let width = usize::from(key_bytes + mask_bytes);
        if bytes.len() % width != 0 {
            return Err(BestMoveError::Malformed);
        }
        let read = |b: &[u8]| {
            b.iter()
                .rev()
                .fold(0u64, |value, &byte| value << 8 | u64::from(byte))
        };
        let (mut keys, mut masks) = (Vec::new(), Vec::new());
        for chunk in bytes.chunks_exact(width) {
            let (key, mask) = chunk.split_at(usize::from(key_bytes));
            let (key, mask) = (read(key), read(mask));
            if key >= key_space || mask == 0 || keys.last().is_some_and(|&last| last >= key) {
                return Err(BestMoveError::Malformed);
            }
            keys.push(key);
            masks.push(mask);
        }
        Ok(BestMoveTable {
            player,
            key_space,
            key_bytes,
            mask_bytes,
            keys,
            masks,
        })
    }

    /// The table of `player` from its bit-packed layout ([`to_bits`](Self::to_bits)),
    /// checked: the key width the key space needs, exactly `entries` entries with zero
    /// padding, keys strictly increasing and below `key_space`, no empty mask, a mask
    /// width the masks need and within `mask_bytes` (the whole-byte width, kept so the
    /// table reads back equal).
    pub fn from_bits(
        player: Player,
        key_space: u64,
        mask_bytes: u8,
        mask_bits: u8,
        entries: u64,
        packed: &[u8],
    ) -> Result<Self, BestMoveError> {
        let mut table = BestMoveTable {
            player,
            key_space,
            key_bytes: bytes_for(key_space),
            mask_bytes,
            keys: Vec::new(),
            masks: Vec::new(),
        };
        let (kb, mb) = (u32::from(table.key_bits()), u32::from(mask_bits));
        if !(1..=8).contains(&mask_bytes) || !(1..=u32::from(mask_bytes) * 8).contains(&mb) {
            return Err(BestMoveError::Malformed);
        }
        let width = u64::from(kb + mb);
        let size = entries
            .checked_mul(width)
            .map(|b| b.div_ceil(8))
            .ok_or(BestMoveError::Malformed)?;
        if size != packed.len() as u64 {
            return Err(BestMoveError::Malformed);
        }
        for i in 0..entries as usize {
            let at = i * width as usize;
            let key = bits(packed, at, kb).ok_or(BestMoveError::Malformed)?;
            let mask = bits(packed, at + kb as usize, mb).ok_or(BestMoveError::Malformed)?;
            if key >= key_space || mask == 0 || table.keys.last().is_some_and(|&last| last >= key) {
                return Err(BestMoveError::Malformed);
            }
            table.keys.push(key);
            table.masks.push(mask);
        }
        // The padding is zero, and the masks need every bit of the width.
        let used = entries * width;
        let padding = (size * 8 - used) as u32;
        if padding > 0 && bits(packed, used as usize, padding) != Some(0) {
            return Err(BestMoveError::Malformed);
        }
        if table.mask_bits() != mask_bits {
            return Err(BestMoveError::Malformed);
        }
        Ok(table)
    }

    /// The key space of the game the table belongs to.
    pub fn key_space(&self) -> u64 {
        self.key_space
    }

    /// Changes one entry's mask: for tests that corrupt a table and see a check fail.
    pub fn set_mask(&mut self, index: usize, mask: u64) {
        if let Some(m) = self.masks.get_mut(index) {
            *m = mask;
        }
    }
}
