//! On-target checks of tictable for emulated Cortex-M CPUs (run by `scripts/qemu-test`):
//!
//! 1. the table equals the live search on every reachable position, and so do the
//!    best moves of the best-moves table (the lookup the firmware links);
//! 2. instructions per lookup (and per best-moves lookup), for a live search from
//!    the empty board and for the trap player's first move, measured with SysTick
//!    under `qemu-system-arm -icount shift=0` (one instruction = 1 ns of virtual
//!    time) and calibrated against `cortex_m::asm::delay`, whose loop is exactly two
//!    instructions (`subs`, `bne`) per iteration.
//!
//! These are what an engine user on a Cortex-M gets; the image links the engine
//! alone. The peak stack of these checks is reported too (the live search's recursion on a
//! Cortex-M0 with 16 KiB of RAM). Complete games of the machine run on the firmware's
//! own image on a virtual STM32F103 (`vboard/`, `scripts/vboard-test`), not here.
//!
//! Prints `on-target: PASS <cpu> lookup=<n> search=<n>` (or `on-target: FAIL ...`) over
//! semihosting and exits with the matching status.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use cortex_m_semihosting::hprintln;
use tictable::board::Status;
use tictable::strategy::trap_moves;
use tictable::{analyse, best_moves, search, Board};

mod exit;
mod stack;
mod timing;

use exit::exit;
use timing::{ticks, CPU};

include!(concat!(env!("OUT_DIR"), "/positions.rs"));

/// Every valid board by base-3 index, without `%` or `/` (library calls on Cortex-M0).
fn for_each_valid_board(mut f: impl FnMut(Board)) {
    let mut digits = [0u8; 9];
    loop {
        let (mut x, mut o) = (0u16, 0u16);
        for (square, digit) in digits.iter().enumerate() {
            match digit {
                1 => x |= 1 << square,
                2 => o |= 1 << square,
                _ => {}
            }
        }
        if let Ok(board) = Board::from_bits(x, o) {
            if board.validate().is_ok() {
                f(board);
            }
        }
        // Increment the base-3 counter.
        let mut i = 0;
        loop {
            if i == 9 {
                return;
            }
            digits[i] += 1;
            if digits[i] < 3 {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
}

#[entry]
fn main() -> ! {
    stack::paint();
    let mut core = cortex_m::Peripherals::take().expect("peripherals taken once");
    let syst = &mut core.SYST;
    let calibration = timing::start(syst);

    // 1. The table against the live search, every reachable position.
    let (mut checked, mut mismatches) = (0u32, 0u32);
    for_each_valid_board(|board| {
        checked += 1;
        let searched = search::analyse(&board);
        let best = searched
            .ok()
            .filter(|_| board.status() == Ok(Status::Ongoing))
            .map(|a| a.best());
        // The table alone answers (a missing entry is an error, never the search).
        if analyse(&board).ok() != searched.ok() || best_moves(&board) != best {
            mismatches += 1;
        }
    });
    if checked != 5478 || mismatches != 0 {
        hprintln!(
            "on-target: FAIL {} checked={} mismatches={}",
            CPU,
            checked,
            mismatches
        );
        exit(false);
    }

    // 2. Instructions (SysTick ticks, calibrated): lookups over every decision
    // position, minus the loop alone.
    let boards = || {
        DECISIONS
            .iter()
            .filter_map(|&(x, o)| Board::from_bits(black_box(x), black_box(o)).ok())
    };
    let looked_up = ticks(syst, || {
        for board in boards() {
            black_box(analyse(black_box(&board)).ok());
        }
    });
    let loop_only = ticks(syst, || {
        for board in boards() {
            black_box(black_box(&board));
        }
    });
    let lookup =
        calibration.instructions(looked_up.saturating_sub(loop_only)) / DECISIONS.len() as u64;
    let moves_looked_up = ticks(syst, || {
        for board in boards() {
            black_box(best_moves(black_box(&board)));
        }
    });
    let moves_lookup = calibration.instructions(moves_looked_up.saturating_sub(loop_only))
        / DECISIONS.len() as u64;
    let searched = ticks(syst, || {
        black_box(search::analyse(black_box(&Board::EMPTY)).ok());
    });
    let search = calibration.instructions(searched);
    // The trap player's heaviest choice: the first move on an empty board.
    let trap = calibration.instructions(ticks(syst, || {
        black_box(trap_moves(black_box(&Board::EMPTY)).ok());
    }));

    hprintln!(
        "on-target: PASS {} lookup={} search={}",
        CPU,
        lookup,
        search
    );
    hprintln!(
        "detail: best-moves lookup (the firmware's): {} instructions on average",
        moves_lookup
    );
    hprintln!(
        "detail: trap player's first move from the empty board: {} instructions",
        trap
    );
    hprintln!(
        "detail: {} positions checked, {} decision lookups timed, {} instructions per SysTick tick",
        checked,
        DECISIONS.len(),
        calibration.instructions(1)
    );
    let (peak, size) = stack::peak();
    hprintln!(
        "detail: peak stack {} bytes of {} available (RAM above the statics)",
        peak,
        size
    );
    exit(true)
}
