//! Clocks and time: the core clock's start-up (crystal with a bounded wait, else the
//! internal oscillator), the DWT cycle counter (the step pulses' and the I2C
//! timeouts' time base), the SysTick millisecond clock, and the move chooser's
//! random numbers stirred with it. Every timing is derived from the clock actually
//! configured ([`ClockSource::mhz`]).
//!
//! **The millisecond clock across a flash stall.** Erasing a flash page (20–40 ms)
//! or programming a half-word (40–70 µs) stalls every fetch from flash, SysTick's
//! vector and handler included. SysTick's counter runs on and pends its exception
//! at each wrap, but pending is one bit: after the stall the handler runs once. So
//! the clock counts one millisecond for the whole stall: it pauses with the core,
//! falls behind real time by the stall less 1 ms (20–50 ms per erase, one erase per
//! 17 saves), never jumps forward and never counts the stall afterwards. What the
//! device logic sees is a pause: a move under way stops and resumes where it
//! stopped, with no catch-up burst of the steps due meanwhile (host test
//! `a_flash_stall_pauses_a_move_without_a_burst_of_steps_after_it`, which also
//! shows the burst a catching-up clock would give); that pause is why saves wait
//! for the gantry to be at rest or just starting (`tictable_machine::save_policy`). Waits
//! measured on the clock come out longer in real time, never shorter (a sensor
//! sample is then fresher than the clock says; the watchdog is fed before and
//! after). The cycle counter, which the I2C timeouts count on, keeps counting
//! through a stall (the core is clocked, only waiting).

use crate::pulse::CycleCounter;
use crate::startup::{self, ClockRegs, ClockSource};
use core::convert::Infallible;
use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{DCB, DWT, SYST};
use cortex_m_rt::exception;
use stm32f1xx_hal::pac;

/// The DWT cycle counter (`CYCCNT`), counting core clock cycles.
pub struct Dwt;

impl CycleCounter for Dwt {
    fn cycles() -> u32 {
        DWT::cycle_count()
    }
}

/// Starts the DWT cycle counter and checks that it counts: two reads around a delay
/// of 64 cycles must be at least 32 apart. `false`: it does not run (a part or
/// clone without it), so the I2C timeouts and step waits would never end: the
/// firmware must not start.
pub fn start_cycle_counter(dcb: &mut DCB, dwt: &mut DWT) -> bool {
    dcb.enable_trace();
    dwt.enable_cycle_counter();
    let before = DWT::cycle_count();
    cortex_m::asm::delay(64);
    DWT::cycle_count().wrapping_sub(before) >= 32
}

/// The chip's RCC and flash interface for the start-up sequence of `startup`.
struct ChipClocks<'a> {
    rcc: &'a pac::RCC,
    flash: &'a pac::FLASH,
}

/// Raw register writes: every value is one RM0008 allows (see `startup`).
#[allow(unsafe_code)]
impl ClockRegs for ChipClocks<'_> {
    fn cr(&mut self) -> u32 {
        self.rcc.cr().read().bits()
    }

    fn set_cr(&mut self, value: u32) {
        // SAFETY: HSEON and PLLON set or cleared, the other bits as read.
        self.rcc.cr().write(|w| unsafe { w.bits(value) });
    }

    fn set_cfgr(&mut self, value: u32) {
        // SAFETY: `startup::cfgr`'s values: valid prescalers, PLL source and factor.
        self.rcc.cfgr().write(|w| unsafe { w.bits(value) });
    }

    fn set_acr(&mut self, value: u32) {
        // SAFETY: two wait states, prefetch on (RM0008 §3.3.3).
        self.flash.acr().write(|w| unsafe { w.bits(value) });
    }

    fn cycles(&mut self) -> u32 {
        DWT::cycle_count()
    }
}

/// Starts the core clock (`startup`: the crystal through the PLL to 72 MHz if it
/// starts within 100 ms, else the internal oscillator through the PLL to 64 MHz; a
/// PLL that does not lock within 1 ms leaves the core on the internal 8 MHz). The
/// waits count on the cycle counter, so [`start_cycle_counter`] first. Register
/// writes instead of the HAL's `freeze`, whose waits have no bound.
pub fn start(rcc: &pac::RCC, flash: &pac::FLASH) -> ClockSource {
    startup::start(&mut ChipClocks { rcc, flash })
}

/// Milliseconds since reset, counted by the SysTick interrupt.
static MILLIS: AtomicU32 = AtomicU32::new(0);

/// The one writer of [`MILLIS`] (everything else only loads it), so a plain load and
/// store, not a read-modify-write loop (flash). With `levels` it also feeds the
/// watchdog during a long think (`safety::long_think`).
#[exception]
fn SysTick() {
    let ms = MILLIS.load(Ordering::Relaxed).wrapping_add(1);
    MILLIS.store(ms, Ordering::Relaxed);
    #[cfg(feature = "levels")]
    crate::safety::feed_while_thinking(ms);
}

/// The millisecond clock (wraps after 49 days; the device logic uses wrapping time).
pub fn now_ms() -> u32 {
    MILLIS.load(Ordering::Relaxed)
}

/// The SysTick millisecond clock with the µs within the millisecond.
pub struct MsClock {
    /// SysTick reload: core cycles per ms, minus one.
    reload: u32,
    /// Core cycles per µs (of the nominal clock).
    per_us: u32,
}

impl MsClock {
    /// Starts SysTick at one interrupt per millisecond of the core clock: on the
    /// crystal, `source.mhz()` × 1000 cycles. On the internal oscillator (-2 %
    /// to +2.5 % of 8 MHz, DS5319) the "millisecond" is 1.025 of its nominal
    /// cycles, so that it lasts 1 ms or more on the fastest part: every wait on
    /// the clock keeps its margin in real time (up to 4.6 % longer on the slowest;
    /// the µs within it stop at 999 for its last 25 nominal µs).
    pub fn start(syst: &mut SYST, source: ClockSource) -> MsClock {
        let mhz = source.mhz();
        let per_ms = if matches!(source, ClockSource::Crystal) {
            1000
        } else {
            1025
        };
        let clock = MsClock {
            reload: mhz * per_ms - 1,
            per_us: mhz,
        };
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(clock.reload);
        syst.clear_current();
        syst.enable_interrupt();
        syst.enable_counter();
        clock
    }

    /// The time as (ms, µs into that ms): the SysTick counter counts down from the
    /// reload within each millisecond. Read again if the millisecond changed
    /// meanwhile. (Between the counter's reload and the interrupt the µs part
    /// restarts before the ms part moves: time seems to step back by under 1 ms,
    /// which an axis takes as a backlog, starting its profile again from rest; the
    /// STEP pins keep their 400 µs between steps whatever the clock did, `pulse`.)
    pub fn now(&self) -> (u32, u16) {
        loop {
            let ms = now_ms();
            let left = SYST::get_current();
            if now_ms() == ms {
                // The counter never exceeds its reload: no underflow (and a wrap
                // would only clamp to 999 below).
                let us = self.reload.wrapping_sub(left) / self.per_us;
                return (ms, us.min(999) as u16);
            }
        }
    }
}

/// A 32-bit xorshift generator stirred with the millisecond clock at every draw, so a
/// person's timing feeds the device's choice among equally good moves (it only picks
/// one of a few best moves: no cryptographic or statistical demands). 32-bit
/// arithmetic only: a 64-bit SplitMix costs more flash.
pub struct ClockRng(pub u32);

impl rand_core::TryRng for ClockRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut x = self.0 ^ now_ms().wrapping_mul(0x9E37_79B9);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // Never stuck at zero (the one fixed point of xorshift).
        self.0 = x | 1;
        Ok(x)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from(self.try_next_u32()?) << 32 | u64::from(self.try_next_u32()?))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let v = self.try_next_u32()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}
