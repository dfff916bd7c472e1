//! The System Control Block and the NVIC registers the firmware touches (ARM DDI
//! 0403 §B3.2, §B3.4): CPUID, ICSR (NMIPENDSET pends the NMI), VTOR, AIRCR (a
//! write with VECTKEY and SYSRESETREQ resets the chip; PRIGROUP splits a priority
//! into group priority and subpriority), SCR, CCR, the system handlers' priorities
//! (SHPR1-3) and their control, the fault status registers, and the NVIC's
//! set/clear-enable and set/clear-pending registers for the STM32F103's 60 device
//! interrupts (an interrupt both enabled and pending is taken by the core,
//! [`crate::cpu`]; the firmware enables none) and their priorities (IPR).
//!
//! Priorities are bytes, written and read a byte at a time as `cortex-m` does; the
//! STM32F103 implements the upper four bits of each (PM0056 §4.3.7): the lower
//! four read as zero and ignore writes. The pending exception taken next is the
//! one of the lowest priority value, then of the lowest exception number (ARMv7-M
//! ARM B1.5.4); it preempts when its group priority is below the execution
//! priority ([`Scb::group_priority`]).

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
/// IPR0: device interrupt n's priority is the byte at IPR + n.
const IPR: u32 = 0xE000_E400;
/// SHPR1: system exception n's (4..=15) priority is the byte at SHPR + n - 4.
const SHPR: u32 = 0xE000_ED18;
/// Priority bits the STM32F103 implements (PM0056 §4.3.7).
const PRIORITY_BITS: u8 = 0xF0;
/// The NMI's exception number.
pub const NMI: u32 = 2;
/// HardFault's exception number.
pub const HARD_FAULT: u32 = 3;
/// SysTick's exception number.
pub const SYSTICK: u32 = 15;
/// The first device interrupt's exception number (IRQ n is 16 + n).
pub const IRQ0: u32 = 16;
/// Device interrupts the NVIC has registers for (60 on the STM32F103).
const IRQS: u32 = 64;

/// The registers.
#[derive(Clone, Debug)]
pub struct Scb {
    regs: BTreeMap<u32, u32>,
    /// The NMI is pending.
    nmi: bool,
    /// Device interrupts enabled (ISER) and pending (ISPR), 32 a word.
    enabled: [u32; 2],
    pending: [u32; 2],
    /// Priority bytes: SHPR1-3 (exceptions 4..=15) at 0..12, IPR (IRQ n) at 12 + n.
    priorities: [u8; 12 + IRQS as usize],
}

impl Default for Scb {
    /// At reset: every register 0 (every priority 0), nothing pending.
    fn default() -> Scb {
        Scb {
            regs: BTreeMap::new(),
            nmi: false,
            enabled: [0; 2],
            pending: [0; 2],
            priorities: [0; 12 + IRQS as usize],
        }
    }
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
        if let Some(i) = Self::priority_byte(addr) {
            // Little-endian from the byte addressed (a byte read takes the first).
            let b = |k: usize| u32::from(self.priorities.get(i + k).copied().unwrap_or(0));
            return Some(b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24);
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

    /// The index in `priorities` of the priority byte at `addr`, if it is one.
    pub(crate) fn priority_byte(addr: u32) -> Option<usize> {
        match addr {
            SHPR..=0xE000_ED23 => Some((addr - SHPR) as usize),
            IPR..=0xE000_E43F => Some(12 + (addr - IPR) as usize),
            _ => None,
        }
    }

    /// Writes a word register; `None`: not one modelled here.
    pub fn write(&mut self, addr: u32, value: u32) -> Option<Request> {
        self.write_sized(addr, value, 4)
    }

    /// Writes `size` bytes (1, 2 or 4) at `addr`: the priority registers take
    /// the bytes written only; `None`: not one modelled here.
    pub fn write_sized(&mut self, addr: u32, value: u32, size: usize) -> Option<Request> {
        if !Self::known(addr) && Self::priority_byte(addr).is_none() {
            return None;
        }
        if let Some(i) = Self::priority_byte(addr) {
            for (k, byte) in value.to_le_bytes().into_iter().take(size).enumerate() {
                if let Some(p) = self.priorities.get_mut(i + k) {
                    *p = byte & PRIORITY_BITS;
                }
            }
            return Some(Request::None);
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

    /// The priority of exception `n`: the NMI -2, HardFault -1, a system
    /// handler's from SHPR1-3, a device interrupt's from its IPR byte.
    pub fn priority(&self, n: u32) -> i16 {
        match n {
            NMI => -2,
            HARD_FAULT => -1,
            4..=15 => i16::from(self.priorities[(n - 4) as usize]),
            _ => i16::from(
                self.priorities
                    .get((12 + n - IRQ0) as usize)
                    .copied()
                    .unwrap_or(0),
            ),
        }
    }

    /// The group priority of exception `n`, which preemption compares: the
    /// priority without its subpriority, bits PRIGROUP..=0 (ARMv7-M ARM B1.5.4).
    pub fn group_priority(&self, n: u32) -> i16 {
        let p = self.priority(n);
        if p < 0 {
            return p;
        }
        let prigroup = (self.regs.get(&AIRCR).copied().unwrap_or(0) >> 8) & 7;
        p & !((2 << prigroup) - 1)
    }

    /// The pending exception to take next, whether or not it may preempt now:
    /// the NMI, SysTick (`systick`: its pending bit, kept by [`crate::systick`])
    /// and the device interrupts both enabled and pending, the lowest priority
    /// value first, then the lowest exception number.
    pub fn next_pending(&self, systick: bool) -> Option<u32> {
        let irqs = (0..2).flat_map(|w| {
            let bits = self.enabled[w] & self.pending[w];
            (0..32)
                .filter(move |b| bits & 1 << b != 0)
                .map(move |b| IRQ0 + 32 * w as u32 + b)
        });
        self.nmi
            .then_some(NMI)
            .into_iter()
            .chain(systick.then_some(SYSTICK))
            .chain(irqs)
            .min_by_key(|&n| (self.priority(n), n))
    }

    /// Exception `n` is entered: its pending bit clears (SysTick's is kept by
    /// [`crate::systick`]).
    pub fn clear_pending(&mut self, n: u32) {
        match n {
            NMI => self.nmi = false,
            _ if n >= IRQ0 => {
                let i = n - IRQ0;
                if let Some(w) = self.pending.get_mut((i / 32) as usize) {
                    *w &= !(1 << (i % 32));
                }
            }
            _ => {}
        }
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
        assert_eq!(s.next_pending(false), None);
        s.write(ICSR, NMIPENDSET);
        assert_eq!(s.read(ICSR), Some(NMIPENDSET));
        assert_eq!(s.next_pending(false), Some(NMI));
        s.clear_pending(NMI);
        assert_eq!(s.next_pending(false), None);
        assert_eq!(s.read(ICSR), Some(0));
    }

    #[test]
    fn an_interrupt_is_taken_only_when_enabled_and_pending() {
        let mut s = Scb::default();
        s.write(ISPR + 4, 1 << 2); // IRQ34 pending
        assert_eq!(s.next_pending(false), None, "not enabled");
        s.write(ISER + 4, 1 << 2);
        assert_eq!(s.read(ICER + 4), Some(1 << 2));
        assert_eq!(s.next_pending(false), Some(IRQ0 + 34));
        s.clear_pending(IRQ0 + 34);
        assert_eq!(s.next_pending(false), None, "pending cleared on entry");
        s.write(ISPR, 1);
        s.write(ICER, 1); // IRQ0 not enabled
        assert_eq!(s.next_pending(false), None);
        s.write(ISER, 1);
        s.write(ICPR, 1);
        assert_eq!(s.next_pending(false), None, "pending cleared");
    }

    /// PM0056 §4.3.7, §4.4.8; ARMv7-M ARM B1.5.4: the lowest priority value
    /// first (four bits kept), then the lowest exception number; the NMI first
    /// of all; PRIGROUP masks the subpriority off the group priority.
    #[test]
    fn the_pending_exception_of_the_highest_priority_comes_first() {
        let mut s = Scb::default();
        s.write(ISER, 0b111);
        s.write(ISPR, 0b111);
        assert_eq!(
            s.next_pending(true),
            Some(SYSTICK),
            "all at 0: lowest number"
        );
        s.write_sized(SHPR + 11, 0x80, 1); // SysTick at 0x80
        assert_eq!(s.read(SHPR + 8), Some(0x8000_0000));
        assert_eq!(s.priority(SYSTICK), 0x80);
        s.write_sized(IPR, 0x4F, 1); // IRQ0 at 0x40 (0x0F not implemented)
        assert_eq!(s.read(IPR), Some(0x40));
        s.write_sized(IPR + 1, 0x3030, 2); // IRQ1 and IRQ2 at 0x30
        assert_eq!(s.next_pending(true), Some(IRQ0 + 1));
        s.clear_pending(IRQ0 + 1);
        assert_eq!(s.next_pending(true), Some(IRQ0 + 2));
        s.clear_pending(IRQ0 + 2);
        assert_eq!(s.next_pending(true), Some(IRQ0));
        s.clear_pending(IRQ0);
        assert_eq!(s.next_pending(true), Some(SYSTICK));
        s.write(ICSR, NMIPENDSET);
        assert_eq!(s.next_pending(true), Some(NMI));
        assert_eq!(s.group_priority(IRQ0), 0x40);
        s.write(AIRCR, VECTKEY << 16 | 6 << 8); // PRIGROUP 6: group bit 7 only
        assert_eq!(s.read(AIRCR), Some(0xFA05_0600));
        assert_eq!((s.group_priority(IRQ0), s.priority(IRQ0)), (0, 0x40));
        assert_eq!(s.group_priority(SYSTICK), 0x80);
        assert_eq!(s.group_priority(NMI), -2);
    }
}
