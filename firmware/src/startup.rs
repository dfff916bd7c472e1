//! The core clock's start-up sequence (RM0008 §7.2, §7.3.1–7.3.2), without hardware:
//! the firmware runs it on the chip's RCC and flash interface (`clock::start`),
//! `firmware/host-check` on a model whose crystal or PLL may never become ready.
//!
//! The order: switch the crystal (HSE) on with the clock security system (CSSON) and
//! wait for HSERDY at most [`HSE_WAIT_CYCLES`]; without it, switch both off again and
//! feed the PLL from the internal oscillator (HSI / 2). With the crystal running, the
//! clock security system watches it (RM0008 §7.2.7): should it fail later, the chip
//! switches the system clock to HSI and raises the NMI, whose handler
//! (`safety::DefaultHandler`) enters the safe state and resets; the boot then finds
//! no crystal and runs on the internal oscillator. Configure the PLL (×9 from the 8 MHz crystal: 72 MHz;
//! ×16 from HSI / 2: 64 MHz) and the bus prescalers (APB1 / 2, ADC / 8), switch the PLL
//! on and wait for PLLRDY at most [`PLL_WAIT_CYCLES`]. Locked: two flash wait states
//! (RM0008 §3.3.3: 48–72 MHz), then the PLL becomes the system clock. Not locked
//! (a broken chip): the PLL is switched off again and the core stays on HSI at 8 MHz,
//! so that the machine still runs (slowly) and shows the fault at boot instead of
//! looking dead. Every wait counts cycles of the core clock, which is HSI (8 MHz)
//! throughout the sequence.

/// RCC_CR bits.
pub mod cr {
    /// Crystal oscillator on.
    pub const HSEON: u32 = 1 << 16;
    /// Crystal oscillator ready.
    pub const HSERDY: u32 = 1 << 17;
    /// Clock security system on: its detector runs once the crystal is ready
    /// (RM0008 §7.2.7).
    pub const CSSON: u32 = 1 << 19;
    /// PLL on.
    pub const PLLON: u32 = 1 << 24;
    /// PLL locked.
    pub const PLLRDY: u32 = 1 << 25;
}

/// RCC_CFGR fields (RM0008 §7.3.2).
pub mod cfgr {
    /// SW = 10: the PLL drives the system clock.
    pub const SW_PLL: u32 = 0b10;
    /// PPRE1 = 100: APB1 = AHB / 2 (APB1 may not exceed 36 MHz).
    pub const PPRE1_DIV2: u32 = 0b100 << 8;
    /// ADCPRE = 11: ADC clock = APB2 / 8 (at most 14 MHz).
    pub const ADCPRE_DIV8: u32 = 0b11 << 14;
    /// PLLSRC: the crystal feeds the PLL (else HSI / 2).
    pub const PLLSRC_HSE: u32 = 1 << 16;
    /// PLLMUL: multiply by `n` (2..=16).
    pub const fn pllmul(n: u32) -> u32 {
        (n - 2) << 18
    }
    /// The prescalers and the PLL from the crystal, ×9: 72 MHz (USB / 1.5 = 48 MHz).
    pub const CRYSTAL: u32 = PPRE1_DIV2 | ADCPRE_DIV8 | PLLSRC_HSE | pllmul(9);
    /// The prescalers and the PLL from HSI / 2, ×16: 64 MHz.
    pub const INTERNAL: u32 = PPRE1_DIV2 | ADCPRE_DIV8 | pllmul(16);
}

/// FLASH_ACR for a 48–72 MHz core: LATENCY = 2 wait states, prefetch buffer on (its
/// reset state).
pub const ACR_TWO_WAIT_STATES: u32 = 0x12;

/// How long to wait for the crystal: 100 ms of the 8 MHz internal clock (the
/// datasheet's typical start-up is 2 ms; ST's own HAL waits up to 100 ms).
pub const HSE_WAIT_CYCLES: u32 = 800_000;
/// How long to wait for the PLL to lock: 1 ms of the 8 MHz internal clock (the
/// datasheet's maximum lock time is 200 µs).
pub const PLL_WAIT_CYCLES: u32 = 8_000;

/// The registers the start-up writes.
pub trait ClockRegs {
    /// Reads RCC_CR.
    fn cr(&mut self) -> u32;
    /// Writes RCC_CR.
    fn set_cr(&mut self, value: u32);
    /// Writes RCC_CFGR.
    fn set_cfgr(&mut self, value: u32);
    /// Writes FLASH_ACR.
    fn set_acr(&mut self, value: u32);
    /// The free-running cycle counter the waits are bounded by.
    fn cycles(&mut self) -> u32;
}

/// Where the core clock comes from after [`start`]; the discriminant is the number of
/// long blinks of the Error light at boot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum ClockSource {
    /// The 8 MHz crystal through the PLL: 72 MHz, APB1 36 MHz.
    Crystal = 0,
    /// The crystal did not start: HSI / 2 through the PLL, 64 MHz, APB1 32 MHz
    /// (about ±2 % over temperature).
    Internal = 1,
    /// The PLL did not lock: HSI directly, 8 MHz, APB1 4 MHz.
    InternalNoPll = 2,
}

impl ClockSource {
    /// The core (and AHB, APB2) clock, MHz: whole MHz in every case, so the timings
    /// derived from it are multiplications (cycles per µs, per ms).
    pub const fn mhz(self) -> u32 {
        // By discriminant from a table (smaller than a match).
        const MHZ: [u8; 3] = [72, 64, 8];
        MHZ[self as usize] as u32
    }

    /// The core (and AHB, APB2) clock, Hz.
    pub const fn sysclk_hz(self) -> u32 {
        self.mhz() * 1_000_000
    }

    /// The APB1 clock (I2C1, TIM3's bus), Hz: half the core clock in every case.
    pub const fn pclk1_hz(self) -> u32 {
        self.sysclk_hz() / 2
    }
}

/// Waits up to `limit` cycles for the CR flag `ready`; whether it came.
fn wait<R: ClockRegs>(regs: &mut R, ready: u32, limit: u32) -> bool {
    let started = regs.cycles();
    loop {
        if regs.cr() & ready != 0 {
            return true;
        }
        if regs.cycles().wrapping_sub(started) > limit {
            return false;
        }
    }
}

/// Runs the start-up (see the module documentation) and says which clock runs.
pub fn start<R: ClockRegs>(regs: &mut R) -> ClockSource {
    let reset = regs.cr();
    regs.set_cr(reset | cr::HSEON | cr::CSSON);
    let (config, source) = if wait(regs, cr::HSERDY, HSE_WAIT_CYCLES) {
        (cfgr::CRYSTAL, ClockSource::Crystal)
    } else {
        regs.set_cr(reset);
        (cfgr::INTERNAL, ClockSource::Internal)
    };
    regs.set_cfgr(config);
    let on = regs.cr();
    regs.set_cr(on | cr::PLLON);
    if !wait(regs, cr::PLLRDY, PLL_WAIT_CYCLES) {
        regs.set_cr(on);
        return ClockSource::InternalNoPll;
    }
    regs.set_acr(ACR_TWO_WAIT_STATES);
    regs.set_cfgr(config | cfgr::SW_PLL);
    source
}
