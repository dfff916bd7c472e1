//! The DWT's cycle counter (ARM DDI 0403 §C1.8): CYCCNT counts core cycles (here:
//! the cycles of the instructions executed) while DWT_CTRL.CYCCNTENA and
//! DEMCR.TRCENA are set. The firmware times its STEP pulses, its I2C timeouts and
//! its clock start-up with it.

/// DWT_CTRL's address; DWT_CYCCNT follows.
pub const CTRL: u32 = 0xE000_1000;
/// DWT_CYCCNT's address.
pub const CYCCNT: u32 = 0xE000_1004;
/// DEMCR's address (bit 24: TRCENA, the trace blocks' enable).
pub const DEMCR: u32 = 0xE000_EDFC;

const CYCCNTENA: u32 = 1;
const TRCENA: u32 = 1 << 24;
/// DWT_CTRL's read-only NUMCOMP field: 4 comparators.
const NUMCOMP: u32 = 4 << 28;

/// The counter and its enables.
#[derive(Clone, Debug, Default)]
pub struct Dwt {
    ctrl: u32,
    demcr: u32,
    /// CYCCNT's value when it last stopped or was written, and the core cycle
    /// since which it counts (when it counts).
    base: u32,
    since: Option<u64>,
}

impl Dwt {
    fn counts(&self) -> bool {
        self.ctrl & CYCCNTENA != 0 && self.demcr & TRCENA != 0
    }

    fn cyccnt(&self, now: u64) -> u32 {
        match self.since {
            Some(t) => self.base.wrapping_add((now - t) as u32),
            None => self.base,
        }
    }

    /// Reads a register; `None`: not the DWT's or DEMCR.
    pub fn read(&self, addr: u32, now: u64) -> Option<u32> {
        Some(match addr {
            CTRL => NUMCOMP | self.ctrl,
            CYCCNT => self.cyccnt(now),
            DEMCR => self.demcr,
            _ => return None,
        })
    }

    /// Writes a register; `None`: not the DWT's or DEMCR.
    pub fn write(&mut self, addr: u32, value: u32, now: u64) -> Option<()> {
        let mut count = self.cyccnt(now);
        match addr {
            CTRL => self.ctrl = value & 0x0FFF_FFFF,
            CYCCNT => count = value,
            DEMCR => self.demcr = value,
            _ => return None,
        }
        // Counting (again) from here, if both enables are set.
        self.base = count;
        self.since = self.counts().then_some(now);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_counts_only_with_both_enables() {
        let mut d = Dwt::default();
        d.write(CTRL, CYCCNTENA, 100);
        assert_eq!(d.read(CYCCNT, 500), Some(0), "TRCENA clear");
        d.write(DEMCR, TRCENA, 500);
        assert_eq!(d.read(CYCCNT, 800), Some(300));
        d.write(CTRL, 0, 1_000);
        assert_eq!(d.read(CYCCNT, 5_000), Some(500), "stopped");
        d.write(CYCCNT, 0xFFFF_FFF0, 5_000);
        d.write(CTRL, CYCCNTENA, 5_000);
        assert_eq!(d.read(CYCCNT, 5_032), Some(0x10), "wraps");
        assert_eq!(d.read(CTRL, 0).map(|v| v >> 28), Some(4));
    }
}
