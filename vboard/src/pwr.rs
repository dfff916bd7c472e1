//! The power controller (RM0008 §5.4): PWR_CR (the power voltage detector's enable
//! PVDE and level PLS, DBP, the low-power bits kept) and PWR_CSR (PVDO: VDD below
//! the PVD's threshold), against the board's supply voltage; and what a flash
//! operation needs of that supply.

/// PWR's base address.
pub const BASE: u32 = 0x4000_7000;

const PVDE: u32 = 1 << 4;
const PVDO: u32 = 1 << 2;

/// The PVD's falling thresholds by PLS, typical, mV (STM32F103x8/B datasheet
/// DS5319, VPVD: 2.08 V at PLS 0 to 2.78 V at PLS 7, falling edge); the rising
/// edge is [`HYSTERESIS_MV`] higher (2.18 V to 2.88 V).
pub const THRESHOLD_MV: [u32; 8] = [2080, 2180, 2280, 2380, 2480, 2580, 2680, 2780];

/// The PVD's hysteresis, mV (DS5319: VPVDhyst 100 mV typical).
pub const HYSTERESIS_MV: u32 = 100;

/// DS5319's spread of the falling threshold at PLS 7, mV: min, typ, max (rising:
/// 2.76, 2.88, 3.00 V). A part's offset from typical is drawn in this range
/// ([`part_offset_mv`]) and shifts every level.
pub const PLS7_FALLING_MV: [u32; 3] = [2660, 2780, 2900];

/// The part's offset of its PVD levels from typical, mV, drawn from `seed`
/// uniformly within [`PLS7_FALLING_MV`]'s spread (splitmix64 of the seed).
pub fn part_offset_mv(seed: u64) -> i32 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let [min, typ, max] = PLS7_FALLING_MV;
    (min + (z % u64::from(max - min + 1)) as u32) as i32 - typ as i32
}

/// The blue pill's regulated supply, mV.
pub const NOMINAL_MV: u32 = 3300;

/// The power-down reset's falling threshold, typical, mV (DS5319, VPOR/PDR
/// falling edge: 1.80 / 1.88 / 1.96 V min / typ / max): the chip runs until VDD
/// falls this low.
pub const PDR_MV: u32 = 1880;

/// How fast VDD falls in a power cut, mV per µs (about 1 V/ms: the regulator's
/// output capacitors discharged by the board's load once the input is gone).
pub const CUT_MV_PER_US: u64 = 1;

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
    /// This part's offset of its PVD levels from typical, mV
    /// ([`part_offset_mv`]; kept over resets).
    pub offset_mv: i32,
    /// PVDO as the comparator holds it (set below the falling threshold,
    /// cleared above the rising one).
    low: bool,
    /// A power cut under way: VDD falls from `.1` mV at [`CUT_MV_PER_US`] since
    /// `.0` ns.
    pub ramp: Option<(u64, u32)>,
}

impl Default for Pwr {
    fn default() -> Pwr {
        Pwr {
            cr: 0,
            csr: 0,
            supply_mv: NOMINAL_MV,
            low_reads: 0,
            offset_mv: 0,
            low: false,
            ramp: None,
        }
    }
}

impl Pwr {
    /// This part's falling threshold at `pls`, mV.
    pub fn falling_mv(&self, pls: usize) -> u32 {
        THRESHOLD_MV[pls].saturating_add_signed(self.offset_mv)
    }

    /// Starts a power cut at `now` ns: VDD ramps down from where it is.
    pub fn start_ramp(&mut self, now: u64) {
        self.ramp.get_or_insert((now, self.supply_mv));
    }

    /// VDD at `now` ns: the ramp of a power cut under way applied.
    pub fn settle(&mut self, now: u64) {
        if let Some((at, from)) = self.ramp {
            let fallen = now.saturating_sub(at) / 1_000 * CUT_MV_PER_US;
            self.supply_mv = from.saturating_sub(fallen.min(u64::from(from)) as u32);
        }
    }

    /// When the ramp of a power cut under way reaches the power-down reset
    /// ([`PDR_MV`]), ns.
    pub fn pdr_at(&self) -> Option<u64> {
        self.ramp
            .map(|(at, from)| at + u64::from(from.saturating_sub(PDR_MV)) / CUT_MV_PER_US * 1_000)
    }

    /// Whether the PVD reports VDD below its level, with its hysteresis.
    fn pvdo(&mut self) -> bool {
        let falling = self.falling_mv(((self.cr >> 5) & 7) as usize);
        self.low = self.cr & PVDE != 0
            && if self.low {
                self.supply_mv < falling + HYSTERESIS_MV
            } else {
                self.supply_mv < falling
            };
        self.low
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

    /// The supply below which no flash erase or write may start: this part's PVD
    /// falling threshold at its highest level (PLS 7, 2.66 V to 2.90 V by the
    /// part), the one the firmware polls before a save. Below it the regulator's
    /// input is gone and VDD is on its way down.
    pub fn save_min_mv(&self) -> u32 {
        self.falling_mv(7)
    }

    /// Whether VDD is below what a flash operation needs ([`Pwr::save_min_mv`]).
    pub fn too_low_for_flash(&self) -> bool {
        self.supply_mv < self.save_min_mv()
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
            supply_mv: 2_700,
            ..Pwr::default()
        };
        assert_eq!(p.read(4), Some(0), "PVD off");
        p.write(0, PVDE | (7 << 5));
        assert_eq!(p.read(4), Some(PVDO), "2.7 V < 2.78 V");
        assert_eq!(p.low_reads, 1);
        assert!(p.too_low_for_flash());
        // The hysteresis: still low up to the rising threshold, 2.88 V.
        p.supply_mv = 2_850;
        assert_eq!(p.read(4), Some(PVDO), "2.85 V: under the rising 2.88 V");
        p.supply_mv = 2_880;
        assert_eq!(p.read(4), Some(0));
        p.supply_mv = 2_790;
        assert_eq!(p.read(4), Some(0), "2.79 V: above the falling 2.78 V");
        p.write(0, PVDE | (3 << 5));
        p.supply_mv = 2_400;
        assert_eq!(p.read(4), Some(0), "2.4 V > 2.38 V");
        assert_eq!(p.read(8), None);
    }

    #[test]
    fn a_cut_ramps_vdd_down_at_1_v_per_ms_through_the_pvd_to_the_pdr() {
        let mut p = Pwr::default();
        p.write(0, PVDE | (7 << 5));
        p.start_ramp(1_000_000);
        p.settle(1_000_000 + 500_000);
        assert_eq!(p.supply_mv, 2_800);
        assert_eq!(p.read(4), Some(0), "2.80 V: above the falling 2.78 V");
        p.settle(1_000_000 + 530_000);
        assert_eq!(p.read(4), Some(PVDO), "2.77 V");
        // 3.30 V to 1.88 V: 1.42 ms.
        assert_eq!(p.pdr_at(), Some(1_000_000 + 1_420_000));
    }

    #[test]
    fn a_part_s_levels_spread_as_ds5319_gives() {
        let offsets: Vec<i32> = (0..1_000).map(part_offset_mv).collect();
        let (lo, hi) = (offsets.iter().min(), offsets.iter().max());
        assert_eq!((lo, hi), (Some(&-120), Some(&120)));
        let fast = Pwr {
            offset_mv: -120,
            supply_mv: 2_700,
            ..Pwr::default()
        };
        assert_eq!(fast.save_min_mv(), 2_660);
        assert!(
            !fast.too_low_for_flash(),
            "2.7 V is above this part's 2.66 V"
        );
        let slow = Pwr {
            offset_mv: 120,
            supply_mv: 2_890,
            ..Pwr::default()
        };
        assert!(
            slow.too_low_for_flash(),
            "2.89 V is under this part's 2.90 V"
        );
    }
}
