//! What the test images share: the CPU's name and SysTick timing.

use cortex_m::peripheral::{syst::SystClkSource, SYST};
use cortex_m_semihosting::hprintln;

#[cfg(armv6m)]
pub const CPU: &str = "cortex-m0";
#[cfg(not(armv6m))]
pub const CPU: &str = "cortex-m3";

/// SysTick ticks (it counts down, modulo 2^24) taken by `f`; fails the run if the
/// counter wrapped, since the difference would then be ambiguous.
pub fn ticks(syst: &mut SYST, f: impl FnOnce()) -> u64 {
    // After clearing, the counter reads 0 until it reloads on the next tick.
    syst.clear_current();
    while SYST::get_current() == 0 {}
    let _ = syst.has_wrapped(); // clears COUNTFLAG
    let start = SYST::get_current();
    f();
    let end = SYST::get_current();
    if syst.has_wrapped() {
        hprintln!(
            "on-target: FAIL {} SysTick wrapped during a measurement",
            CPU
        );
        crate::exit::exit(false);
    }
    u64::from(start.wrapping_sub(end) & 0x00ff_ffff)
}

/// The `n` of the calibration's `cortex_m::asm::delay(n)`, which runs exactly
/// 2 * (n + 1) instructions (`subs`, `bne` per iteration).
const DELAY: u32 = 200_000;

/// SysTick ticks to instructions, from the ticks one known delay took.
pub struct Calibration {
    ticks: u64,
}

impl Calibration {
    /// The instructions that `ticks` SysTick ticks stand for.
    pub fn instructions(&self, ticks: u64) -> u64 {
        ticks * u64::from(2 * (DELAY + 1)) / self.ticks.max(1)
    }
}

/// Starts SysTick on the core clock over its whole 24-bit range and calibrates it
/// against `cortex_m::asm::delay`.
pub fn start(syst: &mut SYST) -> Calibration {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(0x00ff_ffff);
    syst.clear_current();
    syst.enable_counter();
    Calibration {
        ticks: ticks(syst, || cortex_m::asm::delay(DELAY)),
    }
}
