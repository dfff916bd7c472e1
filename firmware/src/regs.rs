//! The register blocks that code outside the HAL's ownership writes: the safe state
//! (from reset, a panic or a HardFault, whatever the HAL owns at that moment), the
//! I2C bus recovery and I2C1's clock and reset (on pins and a peripheral `bus::SensorBus`
//! owns), the watchdog's key from SysTick during a long think (`levels`) and the
//! power voltage detector (the HAL does not own PWR). The firmware's only `unsafe` besides `mem.rs`, the raw I2C1 register writes
//! in `bus.rs` and the HardFault and default handlers' signatures.
//!
//! Why this is sound: a register block is a set of volatile cells at a fixed
//! address, valid for the whole program; a shared reference to it only allows
//! volatile reads and writes. What stealing it can break is another owner's view of
//! a register, and each user here says why that cannot happen: the safe state runs
//! before the HAL owns anything, or just before a reset (nothing reads the state
//! again); the bus recovery changes only its own pins' bits, from the super-loop,
//! where no interrupt touches GPIO or RCC (the only interrupt, SysTick, counts
//! milliseconds).
#![allow(unsafe_code)]

use stm32f1xx_hal::pac;

/// The core's and the chip's peripherals, for `board::Board::take`, which `main`
/// calls once, first thing, before anything else runs (no interrupt is enabled yet):
/// each peripheral then has one owner, as `take` would give, without `take`'s
/// critical section and "taken" flag (less flash).
pub fn peripherals() -> (cortex_m::Peripherals, pac::Peripherals) {
    // SAFETY: called once, by `Board::take`, called once by `main` (see above).
    unsafe { (cortex_m::Peripherals::steal(), pac::Peripherals::steal()) }
}

/// GPIO port A (STEP, DIR, lift, magnet, ENABLE, Error light).
pub fn gpioa() -> &'static pac::gpioa::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::GPIOA::ptr() }
}

/// GPIO port B (I2C1 on PB6/PB7).
pub fn gpiob() -> &'static pac::gpioa::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::GPIOB::ptr() }
}

/// GPIO port B if `b`, else port A, by address (port B's block follows port A's,
/// 0x400 further: 0x4001_0800 and 0x4001_0C00, RM0008 §3.3, memory map), without a
/// branch.
pub fn port(b: bool) -> &'static pac::gpioa::RegisterBlock {
    // SAFETY: one of the two port register blocks (see above and the module
    // documentation).
    unsafe {
        &*pac::GPIOA::ptr()
            .cast::<u8>()
            .wrapping_add(usize::from(b) * 0x400)
            .cast()
    }
}

/// The reset and clock controller (port clock enables, I2C1's clock and reset).
pub fn rcc() -> &'static pac::rcc::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::RCC::ptr() }
}

/// The independent watchdog: only its key register is written from here (SysTick
/// feeding it during a long think, `levels`); a feed from either side is the same
/// single write.
#[cfg(feature = "levels")]
pub fn iwdg() -> &'static pac::iwdg::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::IWDG::ptr() }
}

/// The power controller: the PVD (`safety::supply_ok`), which nothing else uses.
pub fn pwr() -> &'static pac::pwr::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::PWR::ptr() }
}

/// Starts the power voltage detector at `level` (PLS, 0..=7: falling 2.08 V to
/// 2.78 V typical in 0.1 V steps, DS5319), its clock first (RCC_APB1ENR.PWREN). CR's other bits stay at
/// their reset value, 0 (no low-power modes, backup domain protected).
pub fn start_pvd(level: u32) {
    rcc().apb1enr().modify(|_, w| w.pwren().set_bit());
    // SAFETY: PVDE and a 3-bit PLS; the rest of CR as at reset (RM0008 §5.4.1).
    pwr()
        .cr()
        .write(|w| unsafe { w.bits(1 << 4 | (level & 7) << 5) });
}

/// TIM3, the servo's PWM (with `servo-lift`).
#[cfg(feature = "servo-lift")]
pub fn tim3() -> &'static pac::tim2::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::TIM3::ptr() }
}

/// Replaces the 4-bit CNF/MODE fields (RM0008 §9.2.1) of pins 0..7 of a port's CRL
/// by `value` where `mask` has ones.
pub fn set_crl(port: &pac::gpioa::RegisterBlock, mask: u32, value: u32) {
    // SAFETY: every 4-bit pattern is a valid pin configuration.
    port.crl()
        .modify(|r, w| unsafe { w.bits(r.bits() & !mask | value) });
}

/// Writes both configuration registers of a port (pins 0..7, 8..15).
pub fn write_cr(port: &pac::gpioa::RegisterBlock, low: u32, high: u32) {
    // SAFETY: every 4-bit pattern is a valid pin configuration.
    port.crl().write(|w| unsafe { w.bits(low) });
    port.crh().write(|w| unsafe { w.bits(high) });
}

/// As [`set_crl`] for pins 8..15 (CRH).
pub fn set_crh(port: &pac::gpioa::RegisterBlock, mask: u32, value: u32) {
    // SAFETY: every 4-bit pattern is a valid pin configuration.
    port.crh()
        .modify(|r, w| unsafe { w.bits(r.bits() & !mask | value) });
}

/// Sets the pins in the low half of `bits` and clears those in the high half (BSRR).
pub fn set_reset(port: &pac::gpioa::RegisterBlock, bits: u32) {
    // SAFETY: BSRR is write-only, each bit sets or clears one output latch.
    port.bsrr().write(|w| unsafe { w.bits(bits) });
}
