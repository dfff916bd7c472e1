//! Clocks and time: the core clock's start-up (crystal with a bounded wait, else the
//! internal oscillator), the DWT cycle counter (the step pulses' and the I2C
//! timeouts' time base), the SysTick millisecond clock, and the move chooser's
//! random numbers stirred with it. Every timing is derived from the clock actually
//! configured (`rcc.clocks.sysclk()`).

use crate::pulse::CycleCounter;
use core::convert::Infallible;
use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{DCB, DWT, SYST};
use cortex_m_rt::exception;
use stm32f1xx_hal::pac;
use stm32f1xx_hal::prelude::*;
use stm32f1xx_hal::rcc::{AdcPre, HPre, PPre, RawConfig, Rcc, UsbPre};

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

/// How long to wait for the crystal oscillator (HSE), in cycles of the internal
/// 8 MHz oscillator the core runs on meanwhile: 100 ms (the datasheet's typical
/// start-up is 2 ms; ST's own HAL waits up to 100 ms).
const HSE_WAIT_CYCLES: u32 = 800_000;

/// 8 MHz crystal × 9 = 72 MHz core and AHB, APB1 / 2 = 36 MHz (I2C1, TIM3), APB2
/// 72 MHz: what `rcc::Config::hse(8.MHz()).sysclk(72.MHz()).pclk1(36.MHz())` gives,
/// written out as the HAL's register-level `RawConfig` (its `From<Config>` runs at
/// run time here: the two configurations cost 152 B more that way, measured).
const CRYSTAL_72MHZ: RawConfig = RawConfig {
    hse: Some(8_000_000),
    hse_bypass: false,
    pllmul: Some(9 - 2),
    hpre: HPre::Div1,
    ppre1: PPre::Div2,
    ppre2: PPre::Div1,
    usbpre: UsbPre::Div1_5,
    adcpre: AdcPre::Div8,
    allow_overclock: false,
};

/// HSI / 2 × 16 = 64 MHz core and AHB, APB1 / 2 = 32 MHz, APB2 64 MHz: what
/// `rcc::Config::hsi().sysclk(64.MHz()).pclk1(32.MHz())` gives (no USB clock).
const INTERNAL_64MHZ: RawConfig = RawConfig {
    hse: None,
    hse_bypass: false,
    pllmul: Some(16 - 2),
    hpre: HPre::Div1,
    ppre1: PPre::Div2,
    ppre2: PPre::Div1,
    usbpre: UsbPre::Div1,
    adcpre: AdcPre::Div8,
    allow_overclock: false,
};

/// Starts the core clock: the 8 MHz crystal (HSE) through the PLL to 72 MHz (APB1
/// 36 MHz) if the crystal starts within 100 ms (measured on the cycle counter, so
/// [`start_cycle_counter`] first); otherwise the internal oscillator, HSI / 2 × 16 =
/// 64 MHz (APB1 32 MHz; within about ±2 % over temperature per the datasheet's HSI
/// table, enough for I2C and the steps). `true` with the crystal.
///
/// The HAL's `freeze` waits for HSERDY without a bound, so the crystal is switched on
/// and waited for here first (`freeze` then finds it ready). Its wait for the PLL to
/// lock (at most 200 µs per the datasheet) stays unbounded: a PLL that never locks
/// is a broken chip, and the watchdog started before restarts the board.
pub fn start(rcc: pac::RCC, acr: &mut stm32f1xx_hal::flash::ACR) -> (Rcc, bool) {
    rcc.cr().modify(|_, w| w.hseon().set_bit());
    let started = DWT::cycle_count();
    let crystal = loop {
        if rcc.cr().read().hserdy().bit_is_set() {
            break true;
        }
        if DWT::cycle_count().wrapping_sub(started) > HSE_WAIT_CYCLES {
            rcc.cr().modify(|_, w| w.hseon().clear_bit());
            break false;
        }
    };
    let config = if crystal {
        CRYSTAL_72MHZ
    } else {
        INTERNAL_64MHZ
    };
    (rcc.freeze(config, acr), crystal)
}

/// Milliseconds since reset, counted by the SysTick interrupt.
static MILLIS: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    MILLIS.fetch_add(1, Ordering::Relaxed);
}

/// The millisecond clock (wraps after 49 days; the device logic uses wrapping time).
pub fn now_ms() -> u32 {
    MILLIS.load(Ordering::Relaxed)
}

/// The SysTick millisecond clock with the µs within the millisecond.
pub struct MsClock {
    /// SysTick reload: core cycles per ms, minus one.
    reload: u32,
    /// Core cycles per µs.
    per_us: u32,
}

impl MsClock {
    /// Starts SysTick at one interrupt per millisecond of the core clock `sysclk_hz`.
    pub fn start(syst: &mut SYST, sysclk_hz: u32) -> MsClock {
        let clock = MsClock {
            reload: sysclk_hz / 1000 - 1,
            per_us: sysclk_hz / 1_000_000,
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
    /// which the axes tolerate: steps due only grow.)
    pub fn now(&self) -> (u32, u16) {
        loop {
            let ms = now_ms();
            let left = SYST::get_current();
            if now_ms() == ms {
                let us = self.reload.saturating_sub(left) / self.per_us;
                return (ms, us.min(999) as u16);
            }
        }
    }
}

/// A 32-bit xorshift generator stirred with the millisecond clock at every draw, so a
/// person's timing feeds the device's choice among equally good moves (it only picks
/// one of a few best moves: no cryptographic or statistical demands). 32-bit
/// arithmetic only: a 64-bit SplitMix cost 90 B of flash.
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
