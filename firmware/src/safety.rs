//! What keeps the machine safe when something goes wrong: the safe state (magnet off,
//! lift up, stepper drivers disabled), the panic, HardFault and default (NMI, any
//! stray exception or interrupt) handlers that enter it and reset, the independent
//! watchdog, and the reset cause shown at boot.

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

/// The safe state, then a reset (boot code 3, a software reset): the end of a
/// panic, a HardFault and a stray exception or interrupt.
#[inline(never)]
fn safe_reset() -> ! {
    safe_state();
    SCB::sys_reset()
}

/// Panics (never expected: the device logic returns errors) enter the safe state and
/// reset the chip; the boot code then shows a software reset (3 blinks).
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    #[cfg(feature = "defmt")]
    {
        // Safe before the (slow) log.
        safe_state();
        if let Some(at) = _info.location() {
            defmt::error!("panic at {=str}:{=u32}", at.file(), at.line());
        }
    }
    safe_reset()
}

// cortex-m-rt 0.7 accepts the HardFault and default handlers only as `unsafe fn`
// (the frame may be corrupt; the default handler also serves the NMI, which no
// critical section holds off): the places an `unsafe` signature is needed (the
// bodies do nothing unsafe, and touch no data a critical section guards).
#[allow(unsafe_code)]
#[exception]
unsafe fn HardFault(_frame: &cortex_m_rt::ExceptionFrame) -> ! {
    safe_reset()
}

/// Every exception and interrupt without a handler of its own: the NMI (the clock
/// security system's, or a pin), SVCall, PendSV, DebugMonitor, MemManage, BusFault
/// and UsageFault (disabled: they escalate to HardFault, but a write to SHCSR
/// could enable them) and any device interrupt (none is enabled; only IRQ0 has a
/// vector, `vectors.x`). cortex-m-rt's own default spins for ever with the outputs
/// as they were (the magnet on, the drivers enabled, a STEP line high, the
/// watchdog left to reset it a second later); this one enters the safe state and
/// resets at once, as HardFault.
#[allow(unsafe_code)]
#[exception]
unsafe fn DefaultHandler(_irqn: i16) -> ! {
    safe_reset()
}

/// The independent watchdog (IWDG): clocked by the LSI oscillator (40 kHz nominal,
/// 30–60 kHz over parts and temperature per the STM32F103x8 datasheet), prescaler
/// /32 and reload 1874: (1874 + 1) × 32 / 40 kHz = 1.5 s (1.0–2.0 s over the LSI
/// range). The super-loop feeds it once per pass; a flash page erase (20–40 ms)
/// fits well within; during a move chooser's think (`levels`) SysTick feeds it
/// (`long_think`: the trap player's first move takes 0.4–0.6 s at 72 MHz, but
/// 3.6–5.4 s on the 8 MHz fallback clock).
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

/// The power voltage detector's level: PLS = 7 (RM0008 §4.2.2; DS5319's
/// "embedded reset and power control block characteristics": falling edge 2.66 /
/// 2.78 / 2.90 V min / typ / max by the part, rising edge 100 mV higher, 2.76 /
/// 2.88 / 3.00 V).
const PVD_LEVEL: u32 = 7;

/// Starts the power voltage detector (PVD) at PLS 7 (2.66–2.90 V falling). The
/// flash is programmed and erased from VDD, which it needs at 2.0 V at least
/// (DS5319: 2.0–3.6 V over the whole programming range): the 3.3 V regulator
/// below the PVD's level means its input is gone (a power cut, an unplugged
/// supply) and VDD is on its way down, a few ms from the brown-out reset, too
/// soon for a page erase (20–40 ms) to end.
pub fn start_supply_monitor() {
    regs::start_pvd(PVD_LEVEL);
}

/// Whether VDD is above the PVD's level (PWR_CSR.PVDO clear): a save may start.
/// A poll, not a guarantee: a cut that starts after the poll takes VDD from the
/// PVD's level to the brown-out reset inside an erase; what keeps the saved game
/// is the store's CRC'd log (`persist`), which survives a torn erase or write
/// (its power-cut tests).
/// `main` starts none below it (the save is then dropped like a failed one and
/// made at the next change; a snapshot torn by a power cut anyway is one the
/// store survives, `persist`'s power-cut tests).
pub fn supply_ok() -> bool {
    regs::pwr().csr().read().pvdo().bit_is_clear()
}

/// With `levels`: the longest think SysTick feeds the watchdog through, ms. The
/// heaviest, the trap player's first move on an empty board, is 27.6 M
/// instructions on the Cortex-M3 (`scripts/qemu-test`, 27 577 017 on 2026-12-03): on
/// the 8 MHz fallback clock (no crystal, or a PLL that never locks; the flash may
/// still have its two wait states) 3.6–5.4 s were seen, 17.2 s even at 5 cycles an
/// instruction: well over the watchdog's shortest timeout (1.0 s), under this
/// bound. A think that never ends still resets, this bound and a watchdog timeout
/// later.
#[cfg(feature = "levels")]
pub const THINK_LIMIT_MS: u32 = 20_000;

/// With `levels`: whether a think is under way and when it began, ms.
#[cfg(feature = "levels")]
static THINKING: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);
#[cfg(feature = "levels")]
static THINK_START: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

/// With `levels`: runs `think` (a move chooser's) with the watchdog fed from SysTick
/// for up to [`THINK_LIMIT_MS`]: the super-loop, which feeds it otherwise, waits
/// meanwhile.
#[cfg(feature = "levels")]
pub fn long_think<T>(think: impl FnOnce() -> T) -> T {
    use core::sync::atomic::Ordering::Relaxed;
    THINK_START.store(crate::clock::now_ms(), Relaxed);
    THINKING.store(true, Relaxed);
    let result = think();
    THINKING.store(false, Relaxed);
    result
}

/// With `levels`: called by SysTick at millisecond `ms`: feeds the watchdog while
/// a think is under way and younger than [`THINK_LIMIT_MS`].
#[cfg(feature = "levels")]
pub(crate) fn feed_while_thinking(ms: u32) {
    use core::sync::atomic::Ordering::Relaxed;
    if THINKING.load(Relaxed) && ms.wrapping_sub(THINK_START.load(Relaxed)) < THINK_LIMIT_MS {
        regs::iwdg().kr().write(|w| w.key().feed());
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
