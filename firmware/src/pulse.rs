//! STEP and DIR outputs that keep the stepper drivers' timing: the library's axes set
//! STEP high and low back to back (about 0.5 µs at 72 MHz), shorter than the drivers
//! accept. The slowest driver this machine lists is the DRV8825 (STEP high and low
//! ≥ 1.9 µs, DIR setup ≥ 650 ns; the A4988 needs ≥ 1 µs and 200 ns), so:
//!
//! - STEP high for ≥ 2 µs ([`StepTiming::high`]),
//! - STEP low for ≥ 2 µs between two steps ([`StepTiming::low`]),
//! - DIR set ≥ 1 µs before the next rising STEP edge ([`StepTiming::dir_setup`]).
//!
//! [`StepPin`] waits in `set_high` and `set_low` until these times have passed since
//! its last edge and since the last write of its axis's [`DirPin`] (they share a
//! time stamp, an `AtomicU32` the firmware keeps per axis). The waits count core
//! cycles ([`CycleCounter`]: the DWT cycle counter on the target), with the cycle
//! counts derived from the core clock actually configured ([`StepTiming::at`]).
//! Each time stamp is read *after* the pin write that made the edge, and each wait
//! ends *before* the next write, so every width is at least the wait (both edges go
//! through the same store to the same port).
//!
//! This module has no hardware dependency: `firmware/host-check` runs it on the host
//! against a fake counter and a pin that records its edges.

use core::marker::PhantomData;
use core::sync::atomic::{AtomicU32, Ordering};
use embedded_hal::digital::{ErrorType, OutputPin};

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
pub fn wait_since<C: CycleCounter>(since: u32, cycles: u32) -> u32 {
    loop {
        let now = C::cycles();
        if now.wrapping_sub(since) >= cycles {
            return now;
        }
    }
}

/// The minimum STEP and DIR times in core cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepTiming {
    /// STEP high, cycles (2 µs).
    pub high: u32,
    /// STEP low between steps, cycles (2 µs).
    pub low: u32,
    /// From a DIR write to the next rising STEP edge, cycles (1 µs).
    pub dir_setup: u32,
}

impl StepTiming {
    /// The times for a core clock of `sysclk_hz`, rounded up to whole cycles per µs
    /// (so never shorter than 2 µs / 2 µs / 1 µs): 144 / 144 / 72 cycles at 72 MHz,
    /// 128 / 128 / 64 at 64 MHz (`firmware/host-check` pins both).
    pub const fn at(sysclk_hz: u32) -> StepTiming {
        let per_us = sysclk_hz.div_ceil(1_000_000);
        StepTiming {
            high: 2 * per_us,
            low: 2 * per_us,
            dir_setup: per_us,
        }
    }
}

/// A DIR output that stamps each write into its axis's shared time stamp.
pub struct DirPin<P, C> {
    pin: P,
    written: &'static AtomicU32,
    counter: PhantomData<C>,
}

impl<P, C> DirPin<P, C> {
    /// The DIR pin of the axis whose [`StepPin`] reads `written`.
    pub fn new(pin: P, written: &'static AtomicU32) -> Self {
        DirPin {
            pin,
            written,
            counter: PhantomData,
        }
    }
}

impl<P: ErrorType, C> ErrorType for DirPin<P, C> {
    type Error = P::Error;
}

impl<P: OutputPin, C: CycleCounter> OutputPin for DirPin<P, C> {
    fn set_high(&mut self) -> Result<(), P::Error> {
        self.pin.set_high()?;
        self.written.store(C::cycles(), Ordering::Relaxed);
        Ok(())
    }

    fn set_low(&mut self) -> Result<(), P::Error> {
        self.pin.set_low()?;
        self.written.store(C::cycles(), Ordering::Relaxed);
        Ok(())
    }
}

/// A STEP output whose edges keep [`StepTiming`]: `set_high` waits for the low time
/// since its last edge and the DIR setup time since its axis's last DIR write;
/// `set_low` waits for the high time since its last edge.
pub struct StepPin<P, C> {
    pin: P,
    dir_written: &'static AtomicU32,
    timing: StepTiming,
    /// The counter just after the last edge.
    edge: u32,
    counter: PhantomData<C>,
}

impl<P, C: CycleCounter> StepPin<P, C> {
    /// The STEP pin of the axis whose [`DirPin`] writes `dir_written`.
    pub fn new(pin: P, dir_written: &'static AtomicU32, timing: StepTiming) -> Self {
        StepPin {
            pin,
            dir_written,
            timing,
            edge: C::cycles(),
            counter: PhantomData,
        }
    }
}

impl<P: ErrorType, C> ErrorType for StepPin<P, C> {
    type Error = P::Error;
}

impl<P: OutputPin, C: CycleCounter> OutputPin for StepPin<P, C> {
    fn set_high(&mut self) -> Result<(), P::Error> {
        wait_since::<C>(self.edge, self.timing.low);
        wait_since::<C>(
            self.dir_written.load(Ordering::Relaxed),
            self.timing.dir_setup,
        );
        self.pin.set_high()?;
        self.edge = C::cycles();
        Ok(())
    }

    fn set_low(&mut self) -> Result<(), P::Error> {
        wait_since::<C>(self.edge, self.timing.high);
        self.pin.set_low()?;
        self.edge = C::cycles();
        Ok(())
    }
}
