//! The games' test image (run by `scripts/qemu-test` beside the engine's): every small
//! game's best-move lookup on the chip (`tictable_games::best_move::lookup_bits`,
//! the binary search over a table packed to exact bits, as the postcard file and the
//! exports hold it, that allocates nothing): each game whose table of each side fits in
//! 16 KiB has both tables in the image (`build.rs` solves the game and packs them). For every entry the lookup must return the entry's mask, and the
//! digest of all answers must equal the host's (the Rust table's answers); a key next to
//! an entry that is not in the table must be answered `None`. Each lookup is timed: the
//! worst must stay within 1,000 instructions. The image links the games' lookup alone
//! (not the engine), so its tables' flash is what a program for one game pays.
//!
//! Prints `game: <cpu> <id> <side> entries=<n> bytes=<n> max=<n> mean=<n>` per game and
//! side, then `on-target: PASS <cpu> games=<n>` (or `on-target: FAIL ...`) over
//! semihosting and exits with the matching status.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m::peripheral::SYST;
use cortex_m_rt::entry;
use cortex_m_semihosting::hprintln;
use tictable_games::best_move::{bits, lookup_bits};

#[path = "../exit.rs"]
mod exit;
#[path = "../timing.rs"]
mod timing;

use exit::exit;
use timing::{ticks, Calibration, CPU};

/// The image allocates nothing: an allocator that never gives memory, which the
/// games' crate (`tictable-games`, built on `alloc`) needs to link; the lookup does not
/// allocate.
struct NoAllocator;

// SAFETY: `alloc` returns null, which `GlobalAlloc` allows (allocation failure);
// `dealloc` is never given a pointer `alloc` returned.
unsafe impl core::alloc::GlobalAlloc for NoAllocator {
    unsafe fn alloc(&self, _: core::alloc::Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _: *mut u8, _: core::alloc::Layout) {}
}

#[global_allocator]
static ALLOCATOR: NoAllocator = NoAllocator;

/// One side's table packed to exact bits.
struct Side {
    key_bits: u32,
    mask_bits: u32,
    entries: usize,
    table: &'static [u8],
    /// FNV-1a over every entry's key and mask, as the host's Rust table gives them.
    digest: u32,
}

/// A game's two tables, the first player's then the second's.
struct GameTables {
    id: &'static str,
    sides: [Side; 2],
}

include!(concat!(env!("OUT_DIR"), "/games.rs"));

/// The most instructions a lookup may take.
const BUDGET: u64 = 1000;

fn fnv(hash: u32, value: u64) -> u32 {
    value
        .to_le_bytes()
        .iter()
        .fold(hash, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Checks and times every game; prints one line per game and side
/// (`on-target: game <cpu> <id> <side> entries=<n> bytes=<n> max=<n> mean=<n>`); false on
/// any failure (also printed).
fn check(syst: &mut SYST, calibration: &Calibration) -> bool {
    let mut ok = true;
    let overhead = ticks(syst, || {
        black_box(black_box(0u64));
    });
    for game in &GAMES {
        for (side, name) in game.sides.iter().zip(["first", "second"]) {
            let (kb, mb, entries) = (side.key_bits, side.mask_bits, side.entries);
            let width = (kb + mb) as usize;
            let lookup = |key| lookup_bits(side.table, kb, mb, entries, key);
            let (mut digest, mut wrong, mut max, mut total) = (0x811c_9dc5u32, 0u32, 0u64, 0u64);
            for i in 0..entries {
                let key = bits(side.table, i * width, kb).unwrap_or(u64::MAX);
                let mut found = None;
                let t = ticks(syst, || {
                    found = black_box(lookup_bits(
                        black_box(side.table),
                        black_box(kb),
                        black_box(mb),
                        black_box(entries),
                        black_box(key),
                    ));
                });
                let instructions = calibration.instructions(t.saturating_sub(overhead));
                max = max.max(instructions);
                total += instructions;
                let mask = found.unwrap_or(0);
                if Some(mask) != bits(side.table, i * width + kb as usize, mb) {
                    wrong += 1;
                }
                digest = fnv(fnv(digest, key), mask);
                let next = (i + 1 < entries)
                    .then(|| bits(side.table, (i + 1) * width, kb))
                    .flatten();
                if next != Some(key + 1) && lookup(key + 1).is_some() {
                    wrong += 1;
                }
            }
            let mean = total / entries.max(1) as u64;
            hprintln!(
                "game: {} {} {} entries={} bytes={} max={} mean={}",
                CPU,
                game.id,
                name,
                entries,
                side.table.len(),
                max,
                mean
            );
            if wrong != 0 || digest != side.digest || max > BUDGET {
                hprintln!(
                    "on-target: FAIL {} game {} {}: wrong={} digest {:#x} (host {:#x}) max={} (budget {})",
                    CPU,
                    game.id,
                    name,
                    wrong,
                    digest,
                    side.digest,
                    max,
                    BUDGET
                );
                ok = false;
            }
        }
    }
    ok
}

#[entry]
fn main() -> ! {
    let mut core = cortex_m::Peripherals::take().expect("peripherals taken once");
    let syst = &mut core.SYST;
    let calibration = timing::start(syst);
    let ok = check(syst, &calibration);
    if ok {
        hprintln!("on-target: PASS {} games={}", CPU, GAMES.len());
    }
    exit(ok)
}
