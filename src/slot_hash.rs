//! The perfect hash of the table's compact layout, the one 32-bit targets use: the
//! values alone, in a slot array, without the keys.
//!
//! A key is mixed once ([`mix`]); its high bits pick a bucket; each bucket has a
//! one-byte pilot, chosen by `build.rs` so that [`slot`] sends the table's keys to
//! distinct slots (hash and displace, as in PTHash). Only 32-bit multiplications
//! and shifts: no division, no 64-bit arithmetic (library calls on a Cortex-M0).
//!
//! No key is stored, so a key outside the table gets some other entry's value: the
//! lookup only ever asks for the canonical key of a valid position with a move to
//! make, and every one of those is in the table (validity is reachability; tests
//! check every reachable position on the host and on emulated Cortex-M CPUs).

/// Odd multiplier mixing a key (2^32 / golden ratio).
const MIX: u32 = 0x9E37_79B1;
/// Odd multiplier spreading a pilot (MurmurHash3's finaliser constant).
const PILOT_MIX: u32 = 0x85EB_CA6B;

/// The mixed hash of `key` under the table's `seed`.
///
/// ```
/// use tictable::slot_hash::{bucket, mix, slot};
/// let h = mix(4321, 7);
/// assert!(bucket(h, 160) < 160);
/// assert!(slot(h, 3, 640) < 640);
/// ```
#[inline]
pub const fn mix(key: u16, seed: u32) -> u32 {
    (key as u32 ^ seed).wrapping_mul(MIX)
}

/// The bucket of a mixed hash among `buckets` (at most 65536): its high 16 bits
/// scaled to the range.
#[inline]
pub const fn bucket(hash: u32, buckets: u32) -> usize {
    (((hash >> 16) * buckets) >> 16) as usize
}

/// The slot of a mixed hash displaced by its bucket's `pilot`, among `slots` (at
/// most 65536).
#[inline]
pub const fn slot(hash: u32, pilot: u8, slots: u32) -> usize {
    let displaced = (hash ^ (pilot as u32).wrapping_mul(PILOT_MIX)).wrapping_mul(MIX);
    (((displaced >> 16) * slots) >> 16) as usize
}
