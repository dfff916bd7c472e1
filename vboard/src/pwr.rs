//! The power controller (RM0008 §5.4): PWR_CR (the power voltage detector's enable
//! PVDE and level PLS, DBP, the low-power bits kept) and PWR_CSR (PVDO: VDD below
//! the PVD's threshold), against the board's supply voltage; and what a flash
//! operation needs of that supply.

/// PWR's base address.
pub const BASE: u32 = 0x4000_7000;

const PVDE: u32 = 1 << 4;
const PVDO: u32 = 1 << 2;

/// The PVD's falling thresholds by PLS, mV (STM32F103x8 datasheet, VPVD: 2.18 V at
/// PLS 0 to 2.88 V at PLS 7, typical).
pub const THRESHOLD_MV: [u32; 8] = [2180, 2280, 2380, 2480, 2580, 2680, 2780, 2880];

/// The supply below which no flash erase or write may start: the PVD's highest
/// level (2.9 V nominal, PLS 7), the one `firmware/README.md` ("No save below
/// the supply flash needs") checks before a save. Below it the regulator's input
/// is gone and VDD is on its way down, too soon for a 40 ms page erase to end.
pub const SAVE_MIN_MV: u32 = THRESHOLD_MV[7];

/// The blue pill's regulated supply, mV.
pub const NOMINAL_MV: u32 = 3300;

/// The power controller and the supply it watches.
#[derive(Clone, Debug)]
pub struct Pwr {
    cr: u32,
    csr: u32,
    /// The supply voltage VDD, mV.
    pub supply_mv: u32,
    /// Reads of PWR_CSR that said VDD was low (PVDO set), since power-on of
    /// the bench (kept over resets).
    pub low_reads: u64,
}

impl Default for Pwr {
    fn default() -> Pwr {
        Pwr {
            cr: 0,
            csr: 0,
            supply_mv: NOMINAL_MV,
            low_reads: 0,
        }
    }
}

impl Pwr {
    /// Whether the PVD reports VDD below its level.
    fn pvdo(&self) -> bool {
        self.cr & PVDE != 0 && self.supply_mv < THRESHOLD_MV[((self.cr >> 5) & 7) as usize]
    }

    /// Reads a register; `None`: no such register.
    pub fn read(&mut self, offset: u32) -> Option<u32> {
        Some(match offset {
            0x00 => self.cr,
            0x04 => {
                let low = self.pvdo();
                self.low_reads += u64::from(low);
                (self.csr & !PVDO) | if low { PVDO } else { 0 }
            }
            _ => return None,
        })
    }

    /// Whether VDD is below what a flash operation needs ([`SAVE_MIN_MV`]).
    pub fn too_low_for_flash(&self) -> bool {
        self.supply_mv < SAVE_MIN_MV
    }

    /// Writes a register; `None`: no such register.
    pub fn write(&mut self, offset: u32, value: u32) -> Option<()> {
        match offset {
            // CWUF and CSBF (bits 2, 3) clear WUF and SBF and read as 0.
            0x00 => {
                self.csr &= !((value >> 2) & 3);
                self.cr = value & 0x1F3;
            }
            0x04 => self.csr = (self.csr & !(1 << 8)) | (value & (1 << 8)),
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pvdo_reports_a_supply_below_the_level_only_when_enabled() {
        let mut p = Pwr {
            supply_mv: 2_800,
            ..Pwr::default()
        };
        assert_eq!(p.read(4), Some(0), "PVD off");
        p.write(0, PVDE | (7 << 5));
        assert_eq!(p.read(4), Some(PVDO), "2.8 V < 2.88 V");
        assert_eq!(p.low_reads, 1);
        assert!(p.too_low_for_flash());
        p.supply_mv = 3_300;
        assert_eq!(p.read(4), Some(0));
        p.write(0, PVDE | (3 << 5));
        p.supply_mv = 2_500;
        assert_eq!(p.read(4), Some(0), "2.5 V > 2.48 V");
        assert_eq!(p.read(8), None);
    }
}
