//! SysTick, the core's 24-bit down-counter (ARM DDI 0403 §B3.3): CSR (ENABLE,
//! TICKINT, CLKSOURCE, COUNTFLAG), RVR, CVR, CALIB, counted in core cycles; the
//! exception it pends each time the counter reaches zero with TICKINT set.

/// SYST_CSR's address (RVR, CVR, CALIB follow).
pub const BASE: u32 = 0xE000_E010;

const ENABLE: u32 = 1 << 0;
const TICKINT: u32 = 1 << 1;
const CLKSOURCE: u32 = 1 << 2;
const COUNTFLAG: u32 = 1 << 16;
/// SYST_CALIB of the STM32F103: TENMS = 9000 (10 ms of HCLK / 8 at 72 MHz), NOREF
/// clear, SKEW set.
const CALIB: u32 = 0x4000_0000 | 9_000;

/// SysTick.
#[derive(Clone, Debug, Default)]
pub struct SysTick {
    csr: u32,
    rvr: u32,
    /// The core cycle at which the counter last reloaded.
    reloaded_at: u64,
    countflag: bool,
    /// The exception is pending.
    pub pending: bool,
    /// Exceptions pended while one was already pending (ticks lost).
    pub merged: u64,
}

impl SysTick {
    fn period(&self) -> u64 {
        u64::from(self.rvr) + 1
    }

    fn counting(&self) -> bool {
        self.csr & ENABLE != 0 && self.rvr != 0
    }

    /// The counter's reaching zero up to core cycle `now`: COUNTFLAG, and the
    /// exception pended (one, however many were missed).
    pub fn advance(&mut self, now: u64) {
        if !self.counting() || now < self.reloaded_at + self.period() {
            return;
        }
        let wraps = (now - self.reloaded_at) / self.period();
        self.reloaded_at += wraps * self.period();
        self.countflag = true;
        if self.csr & TICKINT != 0 {
            self.merged += wraps - 1 + u64::from(self.pending);
            self.pending = true;
        }
    }

    /// The core cycle at which the counter next reaches zero, when it interrupts.
    pub fn next_interrupt(&self) -> Option<u64> {
        (self.counting() && self.csr & TICKINT != 0).then(|| self.reloaded_at + self.period())
    }

    /// Reads a register at `addr`; `None`: not SysTick's.
    pub fn read(&mut self, addr: u32, now: u64) -> Option<u32> {
        self.advance(now);
        Some(match addr - BASE {
            0x0 => {
                let v = self.csr | (u32::from(self.countflag) * COUNTFLAG);
                self.countflag = false;
                v
            }
            0x4 => self.rvr,
            0x8 => {
                if !self.counting() {
                    return Some(0);
                }
                let el = (now - self.reloaded_at) % self.period();
                ((self.period() - el) % self.period()) as u32
            }
            0xC => CALIB,
            _ => return None,
        })
    }

    /// Writes a register at `addr`; `None`: not SysTick's.
    pub fn write(&mut self, addr: u32, value: u32, now: u64) -> Option<()> {
        self.advance(now);
        match addr - BASE {
            0x0 => {
                if value & ENABLE != 0 && self.csr & ENABLE == 0 {
                    self.reloaded_at = now;
                }
                self.csr = value & (ENABLE | TICKINT | CLKSOURCE);
            }
            0x4 => self.rvr = value & 0xFF_FFFF,
            // Any write clears the counter (it reloads at the next clock) and
            // COUNTFLAG.
            0x8 => {
                self.reloaded_at = now;
                self.countflag = false;
            }
            0xC => {}
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running(rvr: u32) -> SysTick {
        let mut s = SysTick::default();
        s.write(BASE + 4, rvr, 0);
        s.write(BASE + 8, 0, 0);
        s.write(BASE, ENABLE | TICKINT | CLKSOURCE, 0);
        s
    }

    #[test]
    fn it_pends_once_per_period_and_counts_down() {
        let mut s = running(71_999);
        assert_eq!(s.next_interrupt(), Some(72_000));
        assert_eq!(s.read(BASE + 8, 1_000), Some(71_000));
        s.advance(71_999);
        assert!(!s.pending);
        s.advance(72_000);
        assert!(s.pending);
        assert_eq!(s.read(BASE, 72_001).map(|v| v & COUNTFLAG), Some(COUNTFLAG));
        assert_eq!(
            s.read(BASE, 72_002).map(|v| v & COUNTFLAG),
            Some(0),
            "cleared by the read"
        );
    }

    #[test]
    fn ticks_missed_while_one_is_pending_are_lost() {
        let mut s = running(999);
        s.advance(5_500);
        assert!(s.pending);
        assert_eq!(s.merged, 4);
        assert_eq!(s.next_interrupt(), Some(6_000));
    }

    #[test]
    fn off_it_neither_counts_nor_pends() {
        let mut s = SysTick::default();
        s.write(BASE + 4, 99, 0);
        s.advance(1_000);
        assert!(!s.pending);
        assert_eq!(s.read(BASE + 8, 1_000), Some(0));
        assert_eq!(s.read(BASE + 0xC, 0), Some(CALIB));
    }
}
