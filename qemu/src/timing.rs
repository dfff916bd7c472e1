//! What the test images share: the CPU's name and SysTick timing.

use cortex_m::peripheral::SYST;
use cortex_m_semihosting::{debug, hprintln};

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
        debug::exit(debug::EXIT_FAILURE);
    }
    u64::from(start.wrapping_sub(end) & 0x00ff_ffff)
}
