//! The independent watchdog (RM0008 §19): KR (0xCCCC start, 0xAAAA reload, 0x5555
//! unlocks PR and RLR), the prescaler and reload registers reaching the LSI domain
//! after their update time (SR.PVU/RVU), the down-counter clocked by the LSI
//! (anywhere in 30-60 kHz, datasheet), and the reset when it reaches zero.

/// IWDG base address.
pub const BASE: u32 = 0x4000_3000;

/// The LSI's frequency range, Hz (STM32F103x8 datasheet, fLSI).
pub const LSI_HZ: std::ops::RangeInclusive<u64> = 30_000..=60_000;

/// LSI periods for a PR or RLR write to reach the counter's domain (RM0008 §19.4.4:
/// up to 5 RC 40 kHz cycles).
const UPDATE_PERIODS: u64 = 5;

/// The watchdog.
#[derive(Clone, Debug)]
pub struct Iwdg {
    lsi_hz: u64,
    started: bool,
    unlocked: bool,
    /// The values written, and when they reach the counter (ns).
    pr: u32,
    rlr: u32,
    pr_at: u64,
    rlr_at: u64,
    /// The values the counter uses.
    pr_eff: u32,
    rlr_eff: u32,
    /// When the counter was last reloaded, ns, and how long it lasts from there.
    reloaded_at: u64,
    period_ns: u64,
    /// Reloads so far.
    pub feeds: u64,
    /// The longest time between two reloads, ns.
    pub longest_gap_ns: u64,
}

impl Iwdg {
    /// The watchdog after reset, its LSI at `lsi_hz` (clamped into [`LSI_HZ`]).
    pub fn new(lsi_hz: u64) -> Iwdg {
        Iwdg {
            lsi_hz: lsi_hz.clamp(*LSI_HZ.start(), *LSI_HZ.end()),
            started: false,
            unlocked: false,
            pr: 0,
            rlr: 0xFFF,
            pr_at: 0,
            rlr_at: 0,
            pr_eff: 0,
            rlr_eff: 0xFFF,
            reloaded_at: 0,
            period_ns: 0,
            feeds: 0,
            longest_gap_ns: 0,
        }
    }

    /// Whether it runs (started by software; nothing stops it but a reset).
    pub fn started(&self) -> bool {
        self.started
    }

    /// The timeout from a reload with the values in effect, ns.
    fn timeout_ns(&self) -> u64 {
        let div = 4u64 << self.pr_eff.min(6);
        (u64::from(self.rlr_eff) + 1) * div * 1_000_000_000 / self.lsi_hz
    }

    /// Brings PR/RLR writes whose update time passed into the counter's domain.
    fn update(&mut self, now: u64) {
        if now >= self.pr_at {
            self.pr_eff = self.pr;
        }
        if now >= self.rlr_at {
            self.rlr_eff = self.rlr;
        }
    }

    fn reload(&mut self, now: u64) {
        self.update(now);
        self.reloaded_at = now;
        self.period_ns = self.timeout_ns();
    }

    /// When the counter reaches zero (a reset), ns; `None` while stopped.
    pub fn expires_at(&self) -> Option<u64> {
        self.started.then_some(self.reloaded_at + self.period_ns)
    }

    /// Reads a register; `None`: no such register.
    pub fn read(&mut self, offset: u32, now: u64) -> Option<u32> {
        self.update(now);
        Some(match offset {
            0x00 => 0,
            0x04 => self.pr,
            0x08 => self.rlr,
            0x0C => u32::from(now < self.pr_at) | u32::from(now < self.rlr_at) << 1,
            _ => return None,
        })
    }

    /// Writes a register; `None`: no such register.
    pub fn write(&mut self, offset: u32, value: u32, now: u64) -> Option<()> {
        let update_ns = UPDATE_PERIODS * 1_000_000_000 / self.lsi_hz;
        match offset {
            0x00 => match value & 0xFFFF {
                0xCCCC => {
                    if !self.started {
                        self.started = true;
                        self.reload(now);
                    }
                }
                0xAAAA => {
                    self.unlocked = false;
                    self.feeds += 1;
                    if self.started {
                        self.longest_gap_ns = self.longest_gap_ns.max(now - self.reloaded_at);
                    }
                    self.reload(now);
                }
                0x5555 => self.unlocked = true,
                _ => self.unlocked = false,
            },
            0x04 if self.unlocked => {
                self.pr = value & 7;
                self.pr_at = now + update_ns;
            }
            0x08 if self.unlocked => {
                self.rlr = value & 0xFFF;
                self.rlr_at = now + update_ns;
            }
            0x04 | 0x08 | 0x0C => {}
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// The firmware's set-up: start, unlock, /32, reload 1874, a feed.
    fn firmware(lsi: u64) -> Iwdg {
        let mut w = Iwdg::new(lsi);
        w.write(0, 0xCCCC, 0);
        w.write(0, 0x5555, 0);
        w.write(4, 3, 0);
        w.write(8, 1874, 0);
        w.write(0, 0xAAAA, MS);
        w
    }

    #[test]
    fn the_timeout_follows_pr_rlr_and_the_lsi() {
        assert_eq!(firmware(40_000).expires_at(), Some(MS + 1_500 * MS));
        assert_eq!(firmware(60_000).expires_at(), Some(MS + 1_000 * MS));
        assert_eq!(firmware(30_000).expires_at(), Some(MS + 2_000 * MS));
    }

    #[test]
    fn until_the_update_reaches_the_lsi_domain_the_reset_values_count() {
        let mut w = Iwdg::new(40_000);
        w.write(0, 0xCCCC, 0);
        w.write(0, 0x5555, 0);
        w.write(4, 3, 0);
        assert_eq!(w.read(0x0C, 0), Some(1), "PVU");
        w.write(0, 0xAAAA, 1_000);
        // /4, 4096: 409.6 ms.
        assert_eq!(w.expires_at(), Some(1_000 + 409_600_000));
        assert_eq!(w.read(0x0C, MS), Some(0));
    }

    #[test]
    fn registers_are_write_protected_without_the_key_and_it_stays_off_until_started() {
        let mut w = Iwdg::new(40_000);
        w.write(4, 6, 0);
        assert_eq!(w.read(4, 0), Some(0));
        assert_eq!(w.expires_at(), None);
        w.write(0, 0xAAAA, 0);
        assert_eq!(w.expires_at(), None);
    }
}
