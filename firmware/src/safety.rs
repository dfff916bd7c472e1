//! What keeps the machine safe when something goes wrong: the safe state (magnet off,
//! lift up, stepper drivers disabled), the panic and HardFault handlers that enter it
//! and reset, the independent watchdog, and the reset cause shown at boot.

use crate::regs;
use cortex_m::peripheral::SCB;
use cortex_m_rt::exception;
use stm32f1xx_hal::pac;
pub use tictable_machine::model::ResetCause;

use crate::board::{pin, ENABLE, ERROR_LIGHT, LIFT, MAGNET, OUT, X_STEP, Y_STEP};

/// The CNF/MODE field mask of port pin `n` in CRL (0..7) or CRH (8..15).
const fn field(n: u32) -> u32 {
    0xF << ((n % 8) * 4)
}

/// A push-pull output in pin `n`'s field.
const fn output(n: u32) -> u32 {
    OUT << ((n % 8) * 4)
}

/// Drives the outputs that can hurt to their harmless level, from any state: the
/// electromagnet off (PA5 low: a carried piece drops), the lift up (PA4 low; with
/// `servo-lift` the servo's pulse set to "up" if TIM3 runs), both STEP lines low,
/// the drivers' ENABLE high (PA12: disabled, the motors go limp) and the Error light
/// (PA8) off.
///
/// It writes the registers directly (see `regs`), so it works before the HAL has
/// configured anything (it switches port A's clock on and makes these pins outputs,
/// latch first so they come up at the safe level) and whatever the HAL owns when a
/// panic or fault arrives. Called first thing in `main`, from the panic handler and
/// from HardFault.
pub fn safe_state() {
    regs::rcc().apb2enr().modify(|_, w| w.iopaen().set_bit());
    let port = regs::gpioa();
    let low = pin(X_STEP) | pin(Y_STEP) | pin(LIFT) | pin(MAGNET) | pin(ERROR_LIGHT);
    regs::set_reset(port, pin(ENABLE) | low << 16);
    regs::set_crl(
        port,
        field(X_STEP) | field(Y_STEP) | field(LIFT) | field(MAGNET),
        output(X_STEP) | output(Y_STEP) | output(LIFT) | output(MAGNET),
    );
    regs::set_crh(
        port,
        field(ERROR_LIGHT) | field(ENABLE),
        output(ERROR_LIGHT) | output(ENABLE),
    );
    #[cfg(feature = "servo-lift")]
    {
        // The servo's pulse to "raised" if the PWM runs (no pulse at all before
        // main started it: the servo then holds where it is).
        let tim = regs::tim3();
        if tim.cr1().read().cen().bit_is_set() {
            let period = tim.arr().read().arr().bits() as u32 + 1;
            let up = period * crate::board::SERVO_UP_PERMILLE as u32 / 1000;
            tim.ccr1().write(|w| w.ccr().set(up as u16));
        }
    }
}

/// A fault the firmware cannot run with (the cycle counter does not count, a
/// configuration the device logic rejects): the safe state, the Error light on
/// steadily, and no more watchdog feeding, so the independent watchdog restarts the
/// board after its timeout (boot code 4) and it tries again.
pub fn fatal() -> ! {
    safe_state();
    regs::set_reset(regs::gpioa(), pin(ERROR_LIGHT));
    loop {
        cortex_m::asm::nop();
    }
}

/// Panics (never expected: the device logic returns errors) enter the safe state and
/// reset the chip; the boot code then shows a software reset (3 blinks).
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    safe_state();
    #[cfg(feature = "defmt")]
    if let Some(at) = _info.location() {
        defmt::error!("panic at {=str}:{=u32}", at.file(), at.line());
    }
    SCB::sys_reset()
}

// cortex-m-rt 0.7 accepts the HardFault handler only as an `unsafe fn` (the frame it
// passes may be corrupt): the one place an `unsafe` signature is needed (the body
// does nothing unsafe).
#[allow(unsafe_code)]
#[exception]
unsafe fn HardFault(_frame: &cortex_m_rt::ExceptionFrame) -> ! {
    safe_state();
    SCB::sys_reset()
}

/// The independent watchdog (IWDG): clocked by the LSI oscillator (40 kHz nominal,
/// 30–60 kHz over parts and temperature per the STM32F103x8 datasheet), prescaler
/// /32 and reload 1874: (1874 + 1) × 32 / 40 kHz = 1.5 s (1.0–2.0 s over the LSI
/// range). The super-loop feeds it once per pass; a flash page erase (20–40 ms) or
/// the trap player's longest think (about 0.4 s, `levels`) fit well within.
/// Halting the core in a debugger stops it (DBGMCU), so a breakpoint does not reset.
pub struct Watchdog(pac::IWDG);

impl Watchdog {
    /// IWDG_RLR: ticks of LSI / 32 before the reset, minus one.
    pub const RELOAD: u16 = 1874;

    /// Starts the watchdog (it cannot be stopped again until the next reset).
    pub fn start(iwdg: pac::IWDG, dbg: &pac::DBGMCU) -> Watchdog {
        dbg.cr().modify(|_, w| w.dbg_iwdg_stop().set_bit());
        iwdg.kr().write(|w| w.key().start());
        iwdg.kr().write(|w| w.key().unlock());
        iwdg.pr().write(|w| w.pr().divide_by32());
        iwdg.rlr().write(|w| w.rl().set(Watchdog::RELOAD));
        // The new values reach the LSI domain within 5 LSI periods (SR.PVU/RVU);
        // until then the counter runs on the reset values, /4 and 4095: at least
        // 273 ms (at 60 kHz), more than the boot takes to its first feed in
        // `board::show_boot` (the crystal's wait is at most 100 ms). No wait here
        // (less flash).
        let mut dog = Watchdog(iwdg);
        dog.feed();
        dog
    }

    /// Reloads the counter: the next reset is a timeout away.
    pub fn feed(&mut self) {
        self.0.kr().write(|w| w.key().feed());
    }
}

/// Why the chip last reset, from RCC_CSR, clearing the flags (RMVF) so the next boot
/// sees only its own cause. The flags are bits 26 (PINRSTF) to 31 (LPWRRSTF), in the
/// order of [`ResetCause`]'s codes; the highest flag set wins: a power-on sets the pin
/// flag as well, and so do the internal resets, which drive NRST low. No flag:
/// [`ResetCause::Unknown`]. Shown at boot as that many blinks of the Error light,
/// logged with defmt, and kept in every snapshot saved until the next reset.
pub fn take_reset_cause(rcc: &pac::RCC) -> ResetCause {
    let flags = rcc.csr().read().bits() >> 26;
    rcc.csr().modify(|_, w| w.rmvf().set_bit());
    ResetCause::from_code((32 - flags.leading_zeros()) as u8).unwrap_or(ResetCause::Unknown)
}
