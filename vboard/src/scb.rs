//! The System Control Block and the NVIC registers the firmware touches (ARM DDI
//! 0403 §B3.2, §B3.4): CPUID, ICSR, VTOR, AIRCR (a write with VECTKEY and
//! SYSRESETREQ resets the chip), SCR, CCR, the system handlers' priorities and
//! their control, the fault status registers, and the NVIC's enables and
//! priorities (kept, unused: the firmware takes no device interrupt).

use std::collections::BTreeMap;

/// What a write asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Nothing beyond the register.
    None,
    /// AIRCR.SYSRESETREQ with the key: a system reset.
    Reset,
}

/// CPUID of the Cortex-M3 r1p1 in the STM32F103.
const CPUID: u32 = 0x411F_C231;
const AIRCR: u32 = 0xE000_ED0C;
const VECTKEY: u32 = 0x05FA;
const SYSRESETREQ: u32 = 1 << 2;

/// The registers.
#[derive(Clone, Debug, Default)]
pub struct Scb {
    regs: BTreeMap<u32, u32>,
}

impl Scb {
    /// Whether `addr` is one of the registers modelled here.
    fn known(addr: u32) -> bool {
        matches!(addr,
            0xE000_E100..=0xE000_E13C // NVIC ISER, ICER
            | 0xE000_E200..=0xE000_E2BC // ISPR, ICPR, IABR
            | 0xE000_E400..=0xE000_E43C // IPR
            | 0xE000_ED00..=0xE000_ED3C // CPUID .. AFSR
            | 0xE000_EF00) // STIR
    }

    /// Reads a register; `None`: not one modelled here.
    pub fn read(&self, addr: u32) -> Option<u32> {
        if !Self::known(addr) {
            return None;
        }
        Some(match addr {
            0xE000_ED00 => CPUID,
            AIRCR => 0xFA05_0000 | (self.regs.get(&addr).copied().unwrap_or(0) & 0x700),
            // CCR: STKALIGN set at reset (r1p1).
            0xE000_ED14 => self.regs.get(&addr).copied().unwrap_or(0x200),
            _ => self.regs.get(&addr).copied().unwrap_or(0),
        })
    }

    /// Writes a register; `None`: not one modelled here.
    pub fn write(&mut self, addr: u32, value: u32) -> Option<Request> {
        if !Self::known(addr) {
            return None;
        }
        if addr == AIRCR {
            if value >> 16 != VECTKEY {
                return Some(Request::None); // without the key the write is ignored
            }
            if value & SYSRESETREQ != 0 {
                return Some(Request::Reset);
            }
        }
        self.regs.insert(addr, value);
        Some(Request::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysresetreq_needs_the_key() {
        let mut s = Scb::default();
        assert_eq!(s.write(AIRCR, SYSRESETREQ), Some(Request::None));
        assert_eq!(
            s.write(AIRCR, VECTKEY << 16 | SYSRESETREQ),
            Some(Request::Reset)
        );
        assert_eq!(s.read(0xE000_ED00), Some(CPUID));
        assert_eq!(s.read(0xE000_E000), None);
    }
}
