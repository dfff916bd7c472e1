//! RCC, the reset and clock control (RM0008 §7.3): the oscillators' ready bits after
//! their start-up times, the system clock switch (SWS follows SW once the source is
//! ready), the bus prescalers, the peripheral clock enables and resets, and the reset
//! flags of RCC_CSR by reset kind.

/// RCC's base address.
pub const BASE: u32 = 0x4002_1000;

/// RCC_CR bits.
mod cr {
    pub const HSION: u32 = 1 << 0;
    pub const HSIRDY: u32 = 1 << 1;
    pub const HSEON: u32 = 1 << 16;
    pub const HSERDY: u32 = 1 << 17;
    pub const HSEBYP: u32 = 1 << 18;
    pub const PLLON: u32 = 1 << 24;
    pub const PLLRDY: u32 = 1 << 25;
    /// The clock security system on (its detector runs while the crystal is ready).
    pub const CSSON: u32 = 1 << 19;
    /// HSITRIM's reset value (16) and HSICAL (read-only, 0 here).
    pub const HSITRIM_RESET: u32 = 16 << 3;
    /// The bits software writes (the ready bits are read-only).
    pub const WRITABLE: u32 = HSION | 0xF8 | HSEON | HSEBYP | CSSON | PLLON;
}

/// RCC_CIR bits.
mod cir {
    /// The clock security system's flag (a crystal failure detected).
    pub const CSSF: u32 = 1 << 7;
    /// Writing 1 clears CSSF.
    pub const CSSC: u32 = 1 << 23;
}

/// What a crystal that stops oscillating does to the chip ([`Rcc::crystal_fails`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrystalFailure {
    /// The clock security system saw it (RM0008 §7.2.7): HSE switched off, the
    /// PLL too when the crystal fed it as the system clock, the system clock
    /// switched to HSI, CSSF set; the CSS interrupt is the NMI.
    Css,
    /// No clock security: the system clock came from the crystal (directly or
    /// through the PLL) and stops; the core stops with it (only the LSI, and the
    /// watchdog on it, runs on).
    ClockStopped,
    /// The crystal clocked nothing (off, or not the system clock's source).
    Unused,
}

/// RCC_CSR bits.
mod csr {
    pub const LSION: u32 = 1 << 0;
    pub const LSIRDY: u32 = 1 << 1;
    pub const RMVF: u32 = 1 << 24;
    pub const PINRSTF: u32 = 1 << 26;
    pub const PORRSTF: u32 = 1 << 27;
    pub const SFTRSTF: u32 = 1 << 28;
    pub const IWDGRSTF: u32 = 1 << 29;
    pub const FLAGS: u32 = 0xFC00_0000;
}

/// The crystal's start-up time (STM32F103x8 datasheet, tSU(HSE): 2 ms typical).
pub const HSE_STARTUP_NS: u64 = 2_000_000;
/// The PLL's lock time (datasheet, tLOCK: 200 µs at most).
pub const PLL_LOCK_NS: u64 = 200_000;
/// The internal oscillator's start-up (datasheet, tSU(HSI): 2 µs at most).
pub const HSI_STARTUP_NS: u64 = 2_000;
/// The LSI's start-up (datasheet, tSU(LSI): 85 µs at most).
pub const LSI_STARTUP_NS: u64 = 85_000;
/// The HSI's and the crystal's frequency on the blue pill, Hz.
pub const OSC_HZ: u64 = 8_000_000;
/// The HSI's slowest part: -2 % of 8 MHz (STM32F103x8 datasheet DS5319, HSI
/// accuracy over TA = -40 to 105 °C: -2 % to +2.5 %).
pub const HSI_MIN_HZ: u64 = 7_840_000;
/// The HSI's fastest part: +2.5 % of 8 MHz (DS5319, as [`HSI_MIN_HZ`]).
pub const HSI_MAX_HZ: u64 = 8_200_000;

/// Why the chip reset: each sets its RCC_CSR flags (RM0008 §7.1, §7.3.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetKind {
    /// Power on (or back after a brown-out): PORRSTF, and every other flag cleared.
    PowerOn,
    /// The NRST pin (the reset button): PINRSTF.
    Pin,
    /// SCB AIRCR.SYSRESETREQ: SFTRSTF (and PINRSTF: the chip pulls NRST low).
    Software,
    /// The independent watchdog expired: IWDGRSTF (and PINRSTF).
    Watchdog,
}

/// What a register write asks of the rest of the chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond RCC.
    None,
    /// The system clock's frequency changed.
    Clock,
    /// Peripherals held in reset by RCC_APB1RSTR (bit 21: I2C1) or RCC_APB2RSTR
    /// (bits 2-4: GPIOA-C) were released: `(apb1, apb2)` masks.
    Reset(u32, u32),
}

/// How the chip's oscillators behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oscillators {
    /// The crystal starts (a broken or missing one never sets HSERDY).
    pub crystal_starts: bool,
    /// The PLL locks.
    pub pll_locks: bool,
    /// The internal oscillator's frequency, Hz: anywhere from [`HSI_MIN_HZ`] to
    /// [`HSI_MAX_HZ`] on a real part (the crystal is [`OSC_HZ`]).
    pub hsi_hz: u64,
}

impl Default for Oscillators {
    fn default() -> Oscillators {
        Oscillators {
            crystal_starts: true,
            pll_locks: true,
            hsi_hz: OSC_HZ,
        }
    }
}

/// The RCC registers and the oscillators behind them.
#[derive(Clone, Debug)]
pub struct Rcc {
    osc: Oscillators,
    cr: u32,
    cfgr: u32,
    cir: u32,
    apb2rstr: u32,
    apb1rstr: u32,
    ahbenr: u32,
    apb2enr: u32,
    apb1enr: u32,
    bdcr: u32,
    csr: u32,
    /// When HSEON / PLLON / LSION were last set, ns.
    hse_on_at: u64,
    pll_on_at: u64,
    lsi_on_at: u64,
}

impl Rcc {
    /// RCC after a reset of `kind`; `previous` is the RCC before it (its CSR flags
    /// survive every reset but a power-on).
    pub fn new(osc: Oscillators, kind: ResetKind, previous: Option<&Rcc>) -> Rcc {
        let kept = match (kind, previous) {
            (ResetKind::PowerOn, _) | (_, None) => 0,
            (_, Some(p)) => p.csr & csr::FLAGS,
        };
        let flags = match kind {
            ResetKind::PowerOn => csr::PORRSTF | csr::PINRSTF,
            ResetKind::Pin => csr::PINRSTF,
            ResetKind::Software => csr::SFTRSTF | csr::PINRSTF,
            ResetKind::Watchdog => csr::IWDGRSTF | csr::PINRSTF,
        };
        Rcc {
            osc,
            cr: cr::HSION | cr::HSIRDY | cr::HSITRIM_RESET,
            cfgr: 0,
            cir: 0,
            apb2rstr: 0,
            apb1rstr: 0,
            ahbenr: 0x14,
            apb2enr: 0,
            apb1enr: 0,
            bdcr: 0,
            csr: kept | flags,
            hse_on_at: 0,
            pll_on_at: 0,
            lsi_on_at: 0,
        }
    }

    /// Whether the crystal is ready at `now` (ns).
    fn hse_ready(&self, now: u64) -> bool {
        self.cr & cr::HSEON != 0
            && self.osc.crystal_starts
            && now >= self.hse_on_at + HSE_STARTUP_NS
    }

    /// Whether the PLL is locked at `now`: on, long enough, its source running.
    fn pll_ready(&self, now: u64) -> bool {
        let source_ok = self.cfgr & (1 << 16) == 0 || self.hse_ready(now);
        self.cr & cr::PLLON != 0
            && self.osc.pll_locks
            && source_ok
            && now >= self.pll_on_at + PLL_LOCK_NS
    }

    /// The clock source SWS reports: the one SW asks for once it is ready, else
    /// the one before (a switch waits for its source, RM0008 §7.2.6).
    fn sws(&self, now: u64) -> u32 {
        let sw = self.cfgr & 3;
        let ready = match sw {
            0 => true,
            1 => self.hse_ready(now),
            2 => self.pll_ready(now),
            _ => false,
        };
        if ready {
            sw
        } else {
            (self.cfgr >> 2) & 3
        }
    }

    /// The system clock, Hz.
    pub fn sysclk_hz(&self, now: u64) -> u64 {
        match self.sws(now) {
            1 => OSC_HZ,
            2 => {
                let input = if self.cfgr & (1 << 16) != 0 {
                    OSC_HZ >> ((self.cfgr >> 17) & 1)
                } else {
                    self.osc.hsi_hz / 2
                };
                let mul = (u64::from((self.cfgr >> 18) & 0xF) + 2).min(16);
                input * mul
            }
            _ => self.osc.hsi_hz,
        }
    }

    /// The AHB clock (the core, SysTick, DWT), Hz.
    pub fn hclk_hz(&self, now: u64) -> u64 {
        let hpre = (self.cfgr >> 4) & 0xF;
        let div = if hpre < 8 {
            1
        } else {
            [2, 4, 8, 16, 64, 128, 256, 512][(hpre - 8) as usize]
        };
        self.sysclk_hz(now) / div
    }

    /// The APB1 clock (I2C1), Hz.
    pub fn pclk1_hz(&self, now: u64) -> u64 {
        let ppre = (self.cfgr >> 8) & 7;
        let div = if ppre < 4 { 1 } else { 2 << (ppre - 4) };
        self.hclk_hz(now) / div
    }

    /// Whether the peripheral clock of `bit` in RCC_APB1ENR is on.
    pub fn apb1_enabled(&self, bit: u32) -> bool {
        self.apb1enr & (1 << bit) != 0
    }

    /// Whether the peripheral clock of `bit` in RCC_APB2ENR is on.
    pub fn apb2_enabled(&self, bit: u32) -> bool {
        self.apb2enr & (1 << bit) != 0
    }

    /// Whether the LSI (the watchdog's clock) runs at `now`.
    pub fn lsi_ready(&self, now: u64) -> bool {
        self.csr & csr::LSION != 0 && now >= self.lsi_on_at + LSI_STARTUP_NS
    }

    /// The watchdog started the LSI (hardware does so, RM0008 §19.3).
    pub fn start_lsi(&mut self, now: u64) {
        if self.csr & csr::LSION == 0 {
            self.csr |= csr::LSION;
            self.lsi_on_at = now;
        }
    }

    /// When a ready bit polled now will next change, ns (for skipping a poll loop).
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let mut t = None;
        let mut at = |when: u64| {
            if when > now {
                t = Some(t.map_or(when, |x: u64| x.min(when)));
            }
        };
        if self.cr & cr::HSEON != 0 && self.osc.crystal_starts {
            at(self.hse_on_at + HSE_STARTUP_NS);
        }
        if self.cr & cr::PLLON != 0 && self.osc.pll_locks {
            at(self.pll_on_at + PLL_LOCK_NS);
            if self.cfgr & (1 << 16) != 0 && self.osc.crystal_starts && self.cr & cr::HSEON != 0 {
                at(self.hse_on_at + HSE_STARTUP_NS + PLL_LOCK_NS);
            }
        }
        t
    }

    /// Reads the register at `offset`; `None`: no such register.
    pub fn read(&self, offset: u32, now: u64) -> Option<u32> {
        Some(match offset {
            0x00 => {
                let mut v = self.cr & !(cr::HSERDY | cr::PLLRDY);
                if self.hse_ready(now) {
                    v |= cr::HSERDY;
                }
                if self.pll_ready(now) {
                    v |= cr::PLLRDY;
                }
                v
            }
            0x04 => (self.cfgr & !0xC) | (self.sws(now) << 2),
            0x08 => self.cir,
            0x0C => self.apb2rstr,
            0x10 => self.apb1rstr,
            0x14 => self.ahbenr,
            0x18 => self.apb2enr,
            0x1C => self.apb1enr,
            0x20 => self.bdcr,
            0x24 => {
                let mut v = self.csr & !csr::LSIRDY;
                if self.lsi_ready(now) {
                    v |= csr::LSIRDY;
                }
                v
            }
            _ => return None,
        })
    }

    /// Writes `value` to the register at `offset`; `None`: no such register.
    pub fn write(&mut self, offset: u32, value: u32, now: u64) -> Option<Effect> {
        let before = self.sysclk_hz(now);
        match offset {
            0x00 => {
                let v = value & cr::WRITABLE;
                if v & cr::HSEON != 0 && self.cr & cr::HSEON == 0 {
                    self.hse_on_at = now;
                }
                if v & cr::PLLON != 0 && self.cr & cr::PLLON == 0 {
                    self.pll_on_at = now;
                }
                // The running system clock's oscillator cannot be stopped.
                let sws = self.sws(now);
                let mut v = v | cr::HSIRDY;
                if sws == 1 {
                    v |= cr::HSEON;
                }
                if sws == 2 {
                    v |= cr::PLLON;
                }
                self.cr = v;
            }
            0x04 => {
                // SWS is read-only; a switch waits for its source (`sws`), so
                // remember the source running now.
                let sws = self.sws(now);
                self.cfgr = (value & !0xC) | (sws << 2);
            }
            0x08 => {
                // CSSC clears CSSF; the enables are kept as written.
                let flags = if value & cir::CSSC != 0 {
                    0
                } else {
                    self.cir & cir::CSSF
                };
                self.cir = flags | (value & 0x1F00);
            }
            0x0C => {
                let released = self.apb2rstr & !value;
                self.apb2rstr = value;
                return Some(Effect::Reset(0, released));
            }
            0x10 => {
                let released = self.apb1rstr & !value;
                self.apb1rstr = value;
                return Some(Effect::Reset(released, 0));
            }
            0x14 => self.ahbenr = value,
            0x18 => self.apb2enr = value,
            0x1C => self.apb1enr = value,
            0x20 => self.bdcr = value,
            0x24 => {
                if value & csr::RMVF != 0 {
                    self.csr &= !csr::FLAGS;
                }
                if value & csr::LSION != 0 {
                    self.start_lsi(now);
                } else {
                    self.csr &= !csr::LSION;
                }
            }
            _ => return None,
        }
        Some(if self.sysclk_hz(now) != before {
            Effect::Clock
        } else {
            Effect::None
        })
    }

    /// The crystal stops oscillating at `now`, for good (HSERDY never comes back):
    /// what follows, RM0008 §7.2.7.
    pub fn crystal_fails(&mut self, now: u64) -> CrystalFailure {
        self.settle(now);
        let ready = self.hse_ready(now);
        let sws = self.sws(now);
        let from_crystal = ready && (sws == 1 || sws == 2 && self.cfgr & (1 << 16) != 0);
        self.osc.crystal_starts = false;
        if ready && self.cr & cr::CSSON != 0 {
            self.cr &= !(cr::HSEON | cr::CSSON);
            if self.cfgr & (1 << 16) != 0 {
                self.cr &= !cr::PLLON;
            }
            if from_crystal {
                self.cfgr &= !0xF;
            }
            self.cir |= cir::CSSF;
            return CrystalFailure::Css;
        }
        if from_crystal {
            CrystalFailure::ClockStopped
        } else {
            CrystalFailure::Unused
        }
    }

    /// Latches the clock switch: a source that became ready since SW was written
    /// now runs. Call before reading the clock after time passed.
    pub fn settle(&mut self, now: u64) {
        let sws = self.sws(now);
        self.cfgr = (self.cfgr & !0xC) | (sws << 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crystal_failing_under_css_switches_to_hsi_and_sets_cssf() {
        let mut now = 0;
        let mut r = rcc();
        start(&mut r, &mut now);
        let cr0 = r.read(0, now).unwrap();
        r.write(0, cr0 | cr::CSSON, now);
        assert_eq!(r.sysclk_hz(now), 72_000_000);
        assert_eq!(r.crystal_fails(now), CrystalFailure::Css);
        assert_eq!(r.sysclk_hz(now), OSC_HZ);
        assert_eq!(
            r.read(0, now).unwrap() & (cr::HSEON | cr::HSERDY | cr::PLLON),
            0
        );
        assert_ne!(r.read(8, now).unwrap() & cir::CSSF, 0);
        r.write(8, cir::CSSC, now);
        assert_eq!(r.read(8, now).unwrap() & cir::CSSF, 0);
        // Without CSS the PLL's input is gone: the system clock stops.
        let mut r = rcc();
        let mut now = 0;
        start(&mut r, &mut now);
        assert_eq!(r.crystal_fails(now), CrystalFailure::ClockStopped);
        // A crystal that never started clocked nothing.
        let mut r = rcc();
        assert_eq!(r.crystal_fails(0), CrystalFailure::Unused);
    }

    fn rcc() -> Rcc {
        Rcc::new(Oscillators::default(), ResetKind::PowerOn, None)
    }

    /// The firmware's start-up: crystal, PLL ×9, the switch.
    fn start(r: &mut Rcc, now: &mut u64) {
        let cr0 = r.read(0, *now).unwrap();
        r.write(0, cr0 | cr::HSEON, *now);
        *now += HSE_STARTUP_NS;
        assert_ne!(r.read(0, *now).unwrap() & cr::HSERDY, 0);
        r.write(4, (0b100 << 8) | (1 << 16) | (7 << 18), *now);
        let cr1 = r.read(0, *now).unwrap();
        r.write(0, cr1 | cr::PLLON, *now);
        *now += PLL_LOCK_NS;
        assert_ne!(r.read(0, *now).unwrap() & cr::PLLRDY, 0);
        r.write(4, (0b100 << 8) | (1 << 16) | (7 << 18) | 2, *now);
    }

    #[test]
    fn the_crystal_is_ready_after_its_start_up_time_and_the_pll_gives_72_mhz() {
        let mut r = rcc();
        assert_eq!(r.sysclk_hz(0), 8_000_000);
        let mut now = 1_000;
        r.write(0, r.read(0, now).unwrap() | cr::HSEON, now);
        assert_eq!(r.read(0, now + HSE_STARTUP_NS - 1).unwrap() & cr::HSERDY, 0);
        let mut now2 = 0;
        let mut r2 = rcc();
        start(&mut r2, &mut now2);
        assert_eq!(r2.read(4, now2).unwrap() & 0xC, 0x8, "SWS follows SW");
        assert_eq!(r2.sysclk_hz(now2), 72_000_000);
        assert_eq!(r2.pclk1_hz(now2), 36_000_000);
        now = now2;
        assert!(r2.next_event(now).is_none());
    }

    #[test]
    fn a_crystal_that_never_starts_never_sets_hserdy_nor_locks_a_pll_fed_by_it() {
        let osc = Oscillators {
            crystal_starts: false,
            ..Oscillators::default()
        };
        let mut r = Rcc::new(osc, ResetKind::PowerOn, None);
        r.write(0, cr::HSION | cr::HSEON, 0);
        assert_eq!(r.read(0, 1_000_000_000).unwrap() & cr::HSERDY, 0);
        r.write(4, (1 << 16) | (7 << 18) | 2, 0);
        r.write(0, cr::HSION | cr::HSEON | cr::PLLON, 0);
        assert_eq!(r.read(0, 1_000_000_000).unwrap() & cr::PLLRDY, 0);
        assert_eq!(
            r.read(4, 1_000_000_000).unwrap() & 0xC,
            0,
            "SWS stays on HSI"
        );
        assert_eq!(r.sysclk_hz(1_000_000_000), 8_000_000);
    }

    /// DS5319's HSI spread reaches the core on the internal oscillator, directly
    /// and as HSI / 2 through the PLL (x16: 64 MHz nominal).
    #[test]
    fn the_internal_oscillator_runs_at_the_parts_frequency() {
        for (hsi_hz, pll_hz) in [(HSI_MIN_HZ, 62_720_000), (HSI_MAX_HZ, 65_600_000)] {
            let osc = Oscillators {
                hsi_hz,
                ..Oscillators::default()
            };
            let mut r = Rcc::new(osc, ResetKind::PowerOn, None);
            assert_eq!(r.sysclk_hz(0), hsi_hz);
            r.write(4, (14 << 18) | 2, 0); // PLLSRC HSI / 2, PLLMUL x16, SW PLL
            r.write(0, cr::HSION | cr::PLLON, 0);
            assert_eq!(r.sysclk_hz(1_000_000_000), pll_hz);
        }
    }

    #[test]
    fn a_pll_that_never_locks_keeps_the_core_on_hsi() {
        let osc = Oscillators {
            pll_locks: false,
            ..Oscillators::default()
        };
        let mut r = Rcc::new(osc, ResetKind::PowerOn, None);
        let mut now = 0;
        r.write(0, cr::HSION | cr::HSEON, now);
        now += HSE_STARTUP_NS;
        r.write(4, (1 << 16) | (7 << 18), now);
        r.write(0, cr::HSION | cr::HSEON | cr::PLLON, now);
        now += 10 * PLL_LOCK_NS;
        assert_eq!(r.read(0, now).unwrap() & cr::PLLRDY, 0);
    }

    #[test]
    fn reset_flags_follow_the_reset_kind_and_survive_until_rmvf() {
        let r = rcc();
        assert_eq!(
            r.read(0x24, 0).unwrap() & csr::FLAGS,
            csr::PORRSTF | csr::PINRSTF
        );
        let mut w = Rcc::new(Oscillators::default(), ResetKind::Watchdog, Some(&r));
        assert_eq!(
            w.read(0x24, 0).unwrap() & csr::FLAGS,
            csr::PORRSTF | csr::PINRSTF | csr::IWDGRSTF
        );
        w.write(0x24, csr::RMVF, 0);
        assert_eq!(w.read(0x24, 0).unwrap() & csr::FLAGS, 0);
        let s = Rcc::new(Oscillators::default(), ResetKind::Software, Some(&w));
        assert_eq!(
            s.read(0x24, 0).unwrap() & csr::FLAGS,
            csr::SFTRSTF | csr::PINRSTF
        );
        let p = Rcc::new(Oscillators::default(), ResetKind::PowerOn, Some(&s));
        assert_eq!(
            p.read(0x24, 0).unwrap() & csr::FLAGS,
            csr::PORRSTF | csr::PINRSTF
        );
    }

    #[test]
    fn releasing_a_peripheral_reset_is_reported() {
        let mut r = rcc();
        assert_eq!(r.write(0x10, 1 << 21, 0), Some(Effect::Reset(0, 0)));
        assert_eq!(r.write(0x10, 0, 0), Some(Effect::Reset(1 << 21, 0)));
        assert_eq!(r.read(0x40, 0), None);
    }
}
