//! The compiled table and O(1) lookup: canonicalise, one `phf` lookup, map the move
//! sets back through the inverse symmetry.

use crate::analysis::{Analysis, MoveValue};
use crate::board::{Board, PositionError, Square};
use crate::entry;
use crate::slot_hash;
use crate::symmetry::canonical;

// `static TABLE: phf::Map<u16, u16>` and the same entries in the compact layout
// (`COMPACT_SEED`, `COMPACT_PILOTS`, `COMPACT_VALUES`: values by slot, no keys), generated
// by build.rs (see `entry` for the values): `get` uses the first on 64-bit targets, the
// second on 32-bit ones.
include!(concat!(env!("OUT_DIR"), "/table.rs"));

/// The compiled map from canonical key to packed entry (see [`crate::entry`]).
pub fn map() -> &'static phf::Map<u16, u16> {
    &TABLE
}

/// Analyses `board` through a key -> value lookup function holding the table.
/// `None` when the table lacks an entry or holds a malformed one.
#[inline]
pub(crate) fn analyse_in(
    board: &Board,
    get: impl Fn(u16) -> Option<u16>,
) -> Result<Option<Analysis>, PositionError> {
    if let Some(finished) = Analysis::finished(*board, board.status()?) {
        return Ok(Some(finished));
    }
    let (canonical_board, symmetry) = canonical(*board);
    let key = entry::key(canonical_board);
    let extra = || get(key | entry::EXTRA_KEY);
    Ok(get(key).and_then(|value| entry::decode(*board, symmetry, value, extra)))
}

/// Analyses a position by table lookup, in constant time.
///
/// Returns exactly what the live search [`crate::search::analyse`] returns (tests
/// compare the two on every reachable position), or an error for a board no game
/// reaches.
///
/// ```
/// use tictable::{analyse, Board, Outcome};
/// // Opposite corners: O must answer on an edge, not a corner.
/// let a = analyse(&"X../.O./..X".parse::<Board>().unwrap()).unwrap();
/// assert_eq!(a.outcome(), Outcome::Draw);
/// assert_eq!(a.best().bits(), 0b010_101_010);
/// ```
pub fn analyse(board: &Board) -> Result<Analysis, PositionError> {
    // Inlined here rather than through the out-of-line `lookup`: the call costs ~40
    // instructions per lookup on a Cortex-M0 (measured by scripts/qemu-test).
    match analyse_in(board, get)? {
        Some(analysis) => Ok(analysis),
        // The compiled table holds every reachable position (tested exhaustively);
        // should that ever fail, the live search still answers correctly.
        None => crate::search::analyse(board),
    }
}

/// The value of every legal move of `board` for the side to move, by square (`None`
/// for occupied squares and when the game is over): one lookup per move.
///
/// ```
/// use tictable::{move_values, Board, Outcome};
/// let v = move_values(&"XX.OO....".parse::<Board>().unwrap()).unwrap();
/// assert_eq!(v[2].unwrap().outcome, Outcome::Win);
/// assert_eq!(v[5].unwrap().to_string(), "draw");
/// assert_eq!(v[8].unwrap().to_string(), "loss in 2");
/// assert_eq!(v[0], None);
/// ```
pub fn move_values(board: &Board) -> Result<[Option<MoveValue>; 9], PositionError> {
    board.validate()?;
    let mut values = [None; 9];
    for square in board.legal_moves() {
        let child = board.play_unchecked(square.bit());
        values[square.index() as usize] = Some(MoveValue::from_child(&analyse(&child)?));
    }
    Ok(values)
}

/// The lowest-numbered best move, or `None` when the game is over or the board is
/// invalid.
///
/// ```
/// use tictable::{best_move, Board, Square};
/// assert_eq!(best_move(&"XX.OO....".parse::<Board>().unwrap()), Square::new(2));
/// assert_eq!(best_move(&"XXXOO....".parse::<Board>().unwrap()), None);
/// ```
pub fn best_move(board: &Board) -> Option<Square> {
    lookup(board).ok()??.best().first()
}

/// The table's analysis of `board` alone, without [`analyse`]'s live-search
/// fallback (so firmware that only plays links no search): `Ok(None)` only if the
/// table lacked the position, which the exhaustive tests rule out. Not inlined: on a
/// microcontroller one copy serves every caller (flash is scarce).
#[inline(never)]
fn lookup(board: &Board) -> Result<Option<Analysis>, PositionError> {
    analyse_in(board, get)
}

/// The compiled table's value for `key`. On 64-bit targets one `phf` probe (the
/// crate's designed layout, 61 ns a lookup on x86-64). On 32-bit targets
/// (microcontrollers) the compact layout: phf's SipHash is 64-bit arithmetic, about
/// 600 B of code and ~400 instructions a probe
/// on a Cortex-M3, and the map stores the keys (1,258 B) and 428 B of hash
/// parameters; the compact layout stores the values and one byte per three keys, and
/// hashes with two 32-bit multiplications (measured: scripts/firmware-size,
/// scripts/qemu-test). A test checks both layouts give every key the same value.
#[inline]
fn get(key: u16) -> Option<u16> {
    #[cfg(target_pointer_width = "64")]
    return TABLE.get(&key).copied();
    #[cfg(not(target_pointer_width = "64"))]
    return compact_get(key);
}

/// The value for `key` in the compact layout: one hash, one pilot, one slot (see
/// [`crate::slot_hash`]). Any key gets a value: only keys of the table may be asked.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
fn compact_get(key: u16) -> Option<u16> {
    COMPACT_VALUES.get(compact_slot(key)?).copied()
}

/// The slot of `key` in the compact layout.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline]
fn compact_slot(key: u16) -> Option<usize> {
    let hash = slot_hash::mix(key, COMPACT_SEED);
    let pilot = *COMPACT_PILOTS.get(slot_hash::bucket(hash, COMPACT_PILOTS.len() as u32))?;
    Some(slot_hash::slot(hash, pilot, COMPACT_VALUES.len() as u32))
}

/// A best move chosen uniformly at random with `rng`, or `None` when the game is over
/// or the board is invalid.
///
/// ```
/// use tictable::{random_best_move, Board};
/// # struct Counter(u32);
/// # impl rand_core::TryRng for Counter {
/// #     type Error = core::convert::Infallible;
/// #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { self.0 = self.0.wrapping_add(0x9E37_79B9); Ok(self.0) }
/// #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { Ok(self.try_next_u32()? as u64) }
/// #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> { d.fill(0); Ok(()) }
/// # }
/// let mut rng = Counter(1);
/// let m = random_best_move(&Board::EMPTY, &mut rng).unwrap();
/// assert!(m.index() < 9); // every first move draws
/// ```
pub fn random_best_move<R: rand_core::Rng + ?Sized>(board: &Board, rng: &mut R) -> Option<Square> {
    let best = lookup(board).ok()??.best();
    best.nth(uniform_below(rng, best.len()) as usize)
}

/// A uniform integer below `n` (n > 0) by multiply-shift, without `%` (a library
/// call on Cortex-M0).
#[inline]
pub(crate) fn uniform_below<R: rand_core::Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// The bytes of the compiled table, by part (see [`size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableSize {
    /// Entries in the map: one per canonical decision position plus the extra entries.
    pub entries: usize,
    /// Bytes of the keys (a `u16` each).
    pub key_bytes: usize,
    /// Bytes of the values (a `u16` each).
    pub value_bytes: usize,
    /// Bytes of the hash parameters: the 8-byte seed, one pilot byte per bucket and
    /// 4 bytes per remap slot (phf's `ptrhash` layout).
    pub hash_bytes: usize,
    /// Bytes of the map header itself (the seed and three slice references), which
    /// depends on the target's pointer width; not counted in [`TableSize::total`].
    pub header_bytes: usize,
    /// Bytes of the compact layout that 32-bit targets use instead of the map: the
    /// values by slot (`u16` each, no keys), one pilot byte per bucket and the 4-byte
    /// seed of [`crate::slot_hash`].
    pub compact_bytes: usize,
}

impl TableSize {
    /// Keys, values and hash parameters: the data the table stores.
    pub const fn total(&self) -> usize {
        self.key_bytes + self.value_bytes + self.hash_bytes
    }
}

/// The size of the compiled table, read from the lengths of the `phf` map's parts.
///
/// ```
/// let size = tictable::table::size();
/// assert_eq!(size.entries, tictable::table::map().len());
/// assert_eq!(size.key_bytes + size.value_bytes, 4 * size.entries);
/// assert!(size.total() <= 3 * 1024);
/// // The compact layout (32-bit targets): 2 B per entry and a spare slot, a pilot
/// // byte per 3 entries, a 4-byte seed.
/// assert_eq!(size.compact_bytes, 2 * (size.entries + 1) + size.entries.div_ceil(3) + 4);
/// ```
pub fn size() -> TableSize {
    use core::mem::size_of;
    let map = map();
    let entry_bytes = core::mem::size_of_val(map.entries);
    let key_bytes = map.entries.len() * size_of::<u16>();
    TableSize {
        entries: map.entries.len(),
        key_bytes,
        value_bytes: entry_bytes - key_bytes,
        hash_bytes: core::mem::size_of_val(&map.key)
            + core::mem::size_of_val(map.pilots)
            + core::mem::size_of_val(map.remap),
        header_bytes: size_of::<phf::Map<u16, u16>>(),
        compact_bytes: core::mem::size_of_val(&COMPACT_VALUES)
            + core::mem::size_of_val(&COMPACT_PILOTS)
            + size_of::<u32>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two layouts of the compiled table hold the same entries: every key of the
    /// map gets its value from the compact layout, each in a slot of its own.
    #[test]
    fn compact_layout_matches_the_map() {
        let mut used = [false; COMPACT_VALUES.len()];
        for (&key, &value) in TABLE.entries() {
            assert_eq!(compact_get(key), Some(value), "key {key:#06x}");
            let slot = compact_slot(key).expect("a slot in range");
            assert!(!used[slot], "key {key:#06x} shares slot {slot}");
            used[slot] = true;
        }
        // Unused slots hold 0, a value the entry decoder refuses (no plies).
        let unused = used.iter().zip(COMPACT_VALUES).filter(|(u, _)| !**u);
        assert!(unused.clone().all(|(_, v)| v == 0));
        assert_eq!(unused.count(), COMPACT_VALUES.len() - TABLE.len());
    }
}
