//! The System Control Block and the NVIC registers the firmware touches (ARM DDI
//! 0403 §B3.2, §B3.4): CPUID, ICSR (NMIPENDSET pends the NMI), VTOR, AIRCR (a
//! write with VECTKEY and SYSRESETREQ resets the chip), SCR, CCR, the system
//! handlers' priorities and their control, the fault status registers, and the
//! NVIC's set/clear-enable and set/clear-pending registers for the STM32F103's 60
//! device interrupts (an interrupt both enabled and pending is taken by the core,
//! [`crate::cpu`]; the firmware enables none) and their priorities (kept).

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
const ICSR: u32 = 0xE000_ED04;
const NMIPENDSET: u32 = 1 << 31;
const ISER: u32 = 0xE000_E100;
const ICER: u32 = 0xE000_E180;
const ISPR: u32 = 0xE000_E200;
const ICPR: u32 = 0xE000_E280;

/// The registers.
#[derive(Clone, Debug, Default)]
pub struct Scb {
    regs: BTreeMap<u32, u32>,
    /// The NMI is pending.
    nmi: bool,
    /// Device interrupts enabled (ISER) and pending (ISPR), 32 a word.
    enabled: [u32; 2],
    pending: [u32; 2],
}

impl Scb {
    /// Whether `addr` is one of the registers modelled here.
    fn known(addr: u32) -> bool {
        matches!(addr,
            0xE000_E100..=0xE000_E104 // NVIC ISER (60 interrupts: 2 words)
            | 0xE000_E180..=0xE000_E184 // ICER
            | 0xE000_E200..=0xE000_E204 // ISPR
            | 0xE000_E280..=0xE000_E284 // ICPR
            | 0xE000_E300..=0xE000_E304 // IABR
            | 0xE000_E400..=0xE000_E43C // IPR
            | 0xE000_ED00..=0xE000_ED3C // CPUID .. AFSR
            | 0xE000_EF00) // STIR
    }

    /// Reads a register; `None`: not one modelled here.
    pub fn read(&self, addr: u32) -> Option<u32> {
        if !Self::known(addr) {
            return None;
        }
        let word = |base: u32| ((addr - base) / 4) as usize;
        Some(match addr {
            0xE000_ED00 => CPUID,
            ICSR => {
                self.regs.get(&addr).copied().unwrap_or(0) | if self.nmi { NMIPENDSET } else { 0 }
            }
            ISER..=0xE000_E104 => self.enabled[word(ISER)],
            ICER..=0xE000_E184 => self.enabled[word(ICER)],
            ISPR..=0xE000_E204 => self.pending[word(ISPR)],
            ICPR..=0xE000_E284 => self.pending[word(ICPR)],
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
        let word = |base: u32| ((addr - base) / 4) as usize;
        match addr {
            ICSR => {
                // NMIPENDSET pends the NMI; the other bits set or clear pending
                // system exceptions, which nothing here raises.
                self.nmi |= value & NMIPENDSET != 0;
                return Some(Request::None);
            }
            ISER..=0xE000_E104 => self.enabled[word(ISER)] |= value,
            ICER..=0xE000_E184 => self.enabled[word(ICER)] &= !value,
            ISPR..=0xE000_E204 => self.pending[word(ISPR)] |= value,
            ICPR..=0xE000_E284 => self.pending[word(ICPR)] &= !value,
            _ => {
                self.regs.insert(addr, value);
            }
        }
        Some(Request::None)
    }

    /// The pending NMI, taken (its pending bit clears as the core enters it).
    pub fn take_nmi(&mut self) -> bool {
        std::mem::take(&mut self.nmi)
    }

    /// The lowest-numbered device interrupt both enabled and pending, taken (its
    /// pending bit clears on entry). Priorities are not compared: nothing else
    /// but SysTick runs, and the core takes none while in a handler.
    pub fn take_irq(&mut self) -> Option<u32> {
        let (w, bits) = (0..2)
            .map(|w| (w, self.enabled[w] & self.pending[w]))
            .find(|&(_, b)| b != 0)?;
        let n = bits.trailing_zeros();
        self.pending[w] &= !(1 << n);
        Some(32 * w as u32 + n)
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

    #[test]
    fn nmipendset_pends_the_nmi_once() {
        let mut s = Scb::default();
        assert!(!s.take_nmi());
        s.write(ICSR, NMIPENDSET);
        assert_eq!(s.read(ICSR), Some(NMIPENDSET));
        assert!(s.take_nmi());
        assert!(!s.take_nmi());
        assert_eq!(s.read(ICSR), Some(0));
    }

    #[test]
    fn an_interrupt_is_taken_only_when_enabled_and_pending() {
        let mut s = Scb::default();
        s.write(ISPR + 4, 1 << 2); // IRQ34 pending
        assert_eq!(s.take_irq(), None, "not enabled");
        s.write(ISER + 4, 1 << 2);
        assert_eq!(s.read(ICER + 4), Some(1 << 2));
        assert_eq!(s.take_irq(), Some(34));
        assert_eq!(s.take_irq(), None, "pending cleared on entry");
        s.write(ISPR, 1);
        s.write(ICER, 1); // IRQ0 not enabled
        assert_eq!(s.take_irq(), None);
        s.write(ISER, 1);
        s.write(ICPR, 1);
        assert_eq!(s.take_irq(), None, "pending cleared");
    }
}
