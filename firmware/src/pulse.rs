//! STEP and DIR outputs that keep the stepper drivers' timing: the library's axes set
//! STEP high and low back to back (about 0.5 µs at 72 MHz), shorter than the drivers
//! accept. The slowest driver this machine lists is the DRV8825 (STEP high and low
//! ≥ 1.9 µs, DIR setup ≥ 650 ns; the A4988 needs ≥ 1 µs and 200 ns), so:
//!
//! - STEP high for ≥ 2 µs ([`StepTiming::high`]),
//! - STEP low for ≥ 398 µs between two steps ([`StepTiming::low`]): rising edges
//!   [`STEP_PERIOD_US`] apart at least, whatever the caller's clock did (a step
//!   late, the millisecond clock seeming to step back), so no two steps come
//!   faster than the motors' pull-in rate, the moves' top speed,
//! - DIR set ≥ 1 µs before the next rising STEP edge ([`StepTiming::dir_setup`]).
//!
//! [`StepLine::set`] waits until these times have passed since the STEP line's last
//! edge and since the last DIR write of the same axis (a [`StepLine`] is a `static`
//! per axis; the firmware's STEP and DIR pins call its two halves,
//! [`StepLine::wait_before`] and [`StepLine::stamp`], around their register write).
//! The waits count core cycles ([`CycleCounter`]: the DWT cycle counter on the
//! target), with the cycle counts derived from the core clock actually configured
//! ([`StepTiming::at`]). The DIR hold time after a rising STEP edge (DRV8825: 650 ns)
//! needs no wait: the library writes DIR only between moves, after a step's falling
//! edge, which comes ≥ 2 µs after its rising one.
//! Each time stamp is read *after* the pin write that made the edge, and each wait
//! ends *before* the next write, so every width is at least the wait (both edges go
//! through the same store to the same port).
//!
//! This module has no hardware dependency: `firmware/host-check` runs it on the host
//! against a fake counter and a pin that records its edges.

use core::sync::atomic::{AtomicU32, Ordering};
use embedded_hal::digital::OutputPin;

/// A free-running 32-bit cycle counter that wraps (the DWT's `CYCCNT` on the target:
/// it wraps every 59.6 s at 72 MHz).
pub trait CycleCounter {
    /// The current count.
    fn cycles() -> u32;
}

/// Waits until at least `cycles` counts have passed since `since` (wrapping
/// arithmetic: correct across the counter's wrap) and returns the count then.
///
/// Never waits longer than `cycles` counts past its call when the counter runs
/// (a stamp more than a wrap old can only shorten the wait); the firmware refuses
/// to start when the counter does not run.
#[inline(never)] // one copy for its four callers (flash)
pub fn wait_since<C: CycleCounter>(since: u32, cycles: u32) -> u32 {
    loop {
        let now = C::cycles();
        if now.wrapping_sub(since) >= cycles {
            return now;
        }
    }
}

/// The shortest time from one rising STEP edge to the next, µs: 2,500 steps/s, the
/// moves' top speed (`AxisConfig::DEFAULT`, 250 mm/s at 10 steps/mm) and the pull-in
/// rate of the machine's 17HS4401-class motors half-stepped
/// (`tictable_machine::sim::motor::PULL_IN_HZ`): a step sooner, after one that came
/// late, is one a motor loses. The profile's steps fall on sixteenths of a ms
/// (375 or 437.5 µs apart at top speed): one 375 µs after the last waits 25 µs.
pub const STEP_PERIOD_US: u32 = 400;

/// The minimum STEP and DIR times in core cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepTiming {
    /// STEP high, cycles (2 µs).
    pub high: u32,
    /// STEP low between steps, cycles ([`STEP_PERIOD_US`] less the 2 µs high).
    pub low: u32,
    /// From a DIR write to the next rising STEP edge, cycles (1 µs).
    pub dir_setup: u32,
}

impl StepTiming {
    /// The times for a core clock of `sysclk_hz`, rounded up to whole cycles per µs
    /// (so never shorter than 2 µs / 398 µs / 1 µs): 144 / 28,656 / 72 cycles at
    /// 72 MHz, 128 / 25,472 / 64 at 64 MHz (`firmware/host-check` pins both).
    pub const fn at(sysclk_hz: u32) -> StepTiming {
        let per_us = sysclk_hz.div_ceil(1_000_000);
        StepTiming {
            high: 2 * per_us,
            low: (STEP_PERIOD_US - 2) * per_us,
            dir_setup: per_us,
        }
    }
}

/// The timing state of one axis's STEP and DIR lines (a `static` per axis): the core
/// clock's cycles per µs, when DIR was last written and when STEP last changed. The
/// pins themselves stay plain (the library moves them around with every other
/// output: STEP/DIR pins of 12 bytes instead of 2 cost much more flash).
pub struct StepLine {
    /// The cycles per µs less one (wrapping): all zero at first, so that the
    /// firmware's `static` lines need no initial values in flash (`.bss`, not
    /// `.data`).
    per_us_less_1: AtomicU32,
    dir_written: AtomicU32,
    edge: AtomicU32,
}

impl StepLine {
    /// A line for a 1 MHz core clock until [`StepLine::set_clock`].
    pub const fn new() -> StepLine {
        StepLine {
            per_us_less_1: AtomicU32::new(0),
            dir_written: AtomicU32::new(0),
            edge: AtomicU32::new(0),
        }
    }

    /// Sets the core clock the waits are counted in (from the clock configured).
    pub fn set_clock(&self, sysclk_hz: u32) {
        let per_us = StepTiming::at(sysclk_hz).dir_setup;
        self.per_us_less_1
            .store(per_us.wrapping_sub(1), Ordering::Relaxed);
    }

    /// The times at the clock set.
    pub fn timing(&self) -> StepTiming {
        let per_us = self.per_us_less_1.load(Ordering::Relaxed).wrapping_add(1);
        StepTiming {
            high: 2 * per_us,
            low: (STEP_PERIOD_US - 2) * per_us,
            dir_setup: per_us,
        }
    }

    /// Waits until an edge of the STEP line (`step`, rising if `high`) or a DIR
    /// write (`!step`: no wait) keeps the [`StepTiming`]: a rising STEP edge waits for
    /// the low time since the last edge and the DIR setup time since the last DIR
    /// write, a falling edge for the high time since the last edge. Then write the
    /// pin and call [`StepLine::stamp`].
    pub fn wait_before<C: CycleCounter>(&self, step: bool, high: bool) {
        if !step {
            return;
        }
        let t = self.timing();
        let edge = self.edge.load(Ordering::Relaxed);
        if high {
            wait_since::<C>(edge, t.low);
            wait_since::<C>(self.dir_written.load(Ordering::Relaxed), t.dir_setup);
        } else {
            wait_since::<C>(edge, t.high);
        }
    }

    /// Records the time of a STEP edge (`step`) or DIR write just made.
    pub fn stamp<C: CycleCounter>(&self, step: bool) {
        let at = if step { &self.edge } else { &self.dir_written };
        at.store(C::cycles(), Ordering::Relaxed);
    }

    /// Sets this axis's STEP (`step`) or DIR `pin` high or low, keeping the
    /// [`StepTiming`]: [`StepLine::wait_before`], the write, [`StepLine::stamp`].
    pub fn set<P: OutputPin, C: CycleCounter>(
        &self,
        pin: &mut P,
        step: bool,
        high: bool,
    ) -> Result<(), P::Error> {
        self.wait_before::<C>(step, high);
        pin.set_state(high.into())?;
        self.stamp::<C>(step);
        Ok(())
    }
}

impl Default for StepLine {
    fn default() -> Self {
        StepLine::new()
    }
}
