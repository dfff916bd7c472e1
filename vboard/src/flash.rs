//! The embedded flash and its programming interface, the FPEC (RM0008 §3.3.3, PM0075):
//! the key sequence, page erase (PER, AR, STRT) and half-word programming (PG) with
//! BSY for their durations, PGERR on a half-word that is not erased, 1 KiB pages,
//! erase counts, and what a power cut inside an erase or a write leaves.
//!
//! The CPU fetches its code from this flash: while BSY is set, every fetch stalls
//! (PM0075 §2.3.3), so the board stops the core until the operation ends.

/// FLASH interface base address.
pub const REG_BASE: u32 = 0x4002_2000;
/// The flash array's base address (aliased at 0 when booting from it).
pub const BASE: u32 = 0x0800_0000;
/// The STM32F103C8's flash, bytes.
pub const SIZE: usize = 64 * 1024;
/// An erase page, bytes (medium-density devices).
pub const PAGE: usize = 1024;
/// A page erase, ns (datasheet tERASE: 20 ms min, 40 ms max).
pub const ERASE_NS: u64 = 40_000_000;
/// Programming a half-word, ns (datasheet tPROG: 40 min, 52.5 typ, 70 µs max).
pub const PROGRAM_NS: u64 = 70_000;

const KEY1: u32 = 0x4567_0123;
const KEY2: u32 = 0xCDEF_89AB;

/// FLASH_SR bits.
mod sr {
    pub const BSY: u32 = 1 << 0;
    pub const PGERR: u32 = 1 << 2;
    pub const WRPRTERR: u32 = 1 << 4;
    pub const EOP: u32 = 1 << 5;
}

/// FLASH_CR bits.
mod cr {
    pub const PG: u32 = 1 << 0;
    pub const PER: u32 = 1 << 1;
    pub const MER: u32 = 1 << 2;
    pub const STRT: u32 = 1 << 6;
    pub const LOCK: u32 = 1 << 7;
}

/// An operation under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// Erasing the page at this offset, since `at` ns.
    Erase { page: usize, at: u64 },
    /// Programming a half-word at this offset with this value, since `at` ns.
    Program { offset: usize, value: u16, at: u64 },
}

/// What a write to the flash array did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Programmed {
    /// Programming started: the core stalls until `until` ns.
    Busy {
        /// When it ends, ns.
        until: u64,
    },
    /// Refused: PGERR (not erased, PG clear, not a half-word) or WRPRTERR.
    Error,
}

/// The flash array and its interface.
#[derive(Clone, Debug)]
pub struct Flash {
    /// The array, 0xFF where erased.
    array: Vec<u8>,
    acr: u32,
    sr: u32,
    cr: u32,
    ar: u32,
    /// KEY1 was written; the next must be KEY2.
    key1: bool,
    /// A wrong key sequence locked the interface until the next reset.
    locked_out: bool,
    op: Option<Op>,
    /// Erases per page, since the board was built.
    erases: Vec<u32>,
    /// Half-words programmed, since the board was built.
    pub half_words: u64,
    /// The array changed since the core's copy was last updated.
    pub dirty: bool,
    /// A fault to inject: the next erase or write never ends (BSY stays set; the
    /// core, fetching from this flash, stalls until a reset).
    pub hang_next_op: bool,
}

impl Flash {
    /// Flash holding `array` (64 KiB), its interface after reset.
    pub fn new(array: Vec<u8>) -> Flash {
        assert_eq!(array.len(), SIZE, "the array is 64 KiB");
        Flash {
            array,
            acr: 0x30,
            sr: 0,
            cr: cr::LOCK,
            ar: 0,
            key1: false,
            locked_out: false,
            op: None,
            erases: vec![0; SIZE / PAGE],
            half_words: 0,
            dirty: false,
            hang_next_op: false,
        }
    }

    /// The interface after a reset (the array, and the counters, are kept).
    pub fn reset(&mut self) {
        self.acr = 0x30;
        self.sr = 0;
        self.cr = cr::LOCK;
        self.ar = 0;
        self.key1 = false;
        self.locked_out = false;
    }

    /// The array.
    pub fn array(&self) -> &[u8] {
        &self.array
    }

    /// Erases per page so far.
    pub fn erases(&self) -> &[u32] {
        &self.erases
    }

    /// All erases so far.
    pub fn total_erases(&self) -> u64 {
        self.erases.iter().map(|&e| u64::from(e)).sum()
    }

    /// When the operation under way ends, ns (a hung erase: never).
    pub fn busy_until(&self) -> Option<u64> {
        self.op.map(|op| match op {
            Op::Erase { at, .. } | Op::Program { at, .. } if at == u64::MAX => u64::MAX,
            Op::Erase { at, .. } => at + ERASE_NS,
            Op::Program { at, .. } => at + PROGRAM_NS,
        })
    }

    /// Completes the operation under way if it is due by `now`.
    pub fn advance(&mut self, now: u64) {
        if self.busy_until().is_some_and(|t| t <= now) {
            match self.op.take() {
                Some(Op::Erase { page, .. }) => self.array[page..page + PAGE].fill(0xFF),
                Some(Op::Program { offset, value, .. }) => {
                    let old = u16::from_le_bytes([self.array[offset], self.array[offset + 1]]);
                    // Programming only clears bits.
                    self.array[offset..offset + 2].copy_from_slice(&(old & value).to_le_bytes());
                }
                None => {}
            }
            self.sr |= sr::EOP;
            self.dirty = true;
        }
    }

    /// The power fails at `now`: an erase under way leaves the part of the page it
    /// reached erased (in address order) and the rest as it was; a half-word being
    /// programmed gets the fraction of its 0 bits that were programmed by then.
    /// (A reset aborts an operation the same way.)
    pub fn power_cut(&mut self, now: u64) {
        match self.op.take() {
            Some(Op::Erase { page, at }) => {
                let done =
                    (now.saturating_sub(at) as u128 * PAGE as u128 / ERASE_NS as u128) as usize;
                self.array[page..page + done.min(PAGE)].fill(0xFF);
                // An erase begun sets bits toward 1 everywhere: the rest of the page
                // may read anything; half of its bits have flipped here.
                for b in &mut self.array[page + done.min(PAGE)..page + PAGE] {
                    *b |= 0x55;
                }
                self.dirty = true;
            }
            Some(Op::Program { offset, value, at }) => {
                let zeros = !value;
                let done_bits = (now.saturating_sub(at).min(PROGRAM_NS) * 16 / PROGRAM_NS) as u32;
                let mut mask = 0u16;
                for bit in 0..16 {
                    if zeros & (1 << bit) != 0 && mask.count_ones() < done_bits {
                        mask |= 1 << bit;
                    }
                }
                let old = u16::from_le_bytes([self.array[offset], self.array[offset + 1]]);
                self.array[offset..offset + 2].copy_from_slice(&(old & !mask).to_le_bytes());
                self.dirty = true;
            }
            None => {}
        }
    }

    /// Reads a register of the interface; `None`: no such register.
    pub fn read(&mut self, offset: u32, now: u64) -> Option<u32> {
        self.advance(now);
        Some(match offset {
            0x00 => self.acr,
            0x04 | 0x08 => 0,
            0x0C => self.sr | (u32::from(self.op.is_some()) * sr::BSY),
            0x10 => self.cr,
            0x14 => self.ar,
            // FLASH_OBR: read protection off, the user option bytes at their
            // defaults; FLASH_WRPR: no page write-protected.
            0x1C => 0x03FF_FFFC,
            0x20 => 0xFFFF_FFFF,
            _ => return None,
        })
    }

    /// Writes a register of the interface; `None`: no such register. `Some(until)`
    /// inside: an erase started, the core stalls until then.
    pub fn write(&mut self, offset: u32, value: u32, now: u64) -> Option<Option<u64>> {
        self.advance(now);
        match offset {
            0x00 => self.acr = value & 0x1F,
            0x04 => {
                // KEY1 then KEY2 unlocks; anything else locks the FPEC until reset.
                if self.locked_out {
                } else if !self.key1 && value == KEY1 {
                    self.key1 = true;
                } else if self.key1 && value == KEY2 {
                    self.key1 = false;
                    self.cr &= !cr::LOCK;
                } else {
                    self.key1 = false;
                    self.locked_out = true;
                    self.cr |= cr::LOCK;
                }
            }
            0x08 => {}
            0x0C => self.sr &= !(value & (sr::PGERR | sr::WRPRTERR | sr::EOP)),
            0x10 => {
                if self.cr & cr::LOCK != 0 {
                    // Locked: only LOCK itself (already set) may be written.
                    return Some(None);
                }
                if self.op.is_some() {
                    // Written while busy: ignored (RM0008: do not).
                    return Some(None);
                }
                self.cr = value & !cr::STRT;
                if value & cr::STRT != 0 {
                    if value & cr::PER != 0 {
                        let page = (self.ar.wrapping_sub(BASE) as usize % SIZE) & !(PAGE - 1);
                        self.erases[page / PAGE] += 1;
                        let at = if std::mem::take(&mut self.hang_next_op) {
                            u64::MAX
                        } else {
                            now
                        };
                        self.op = Some(Op::Erase { page, at });
                        return Some(self.busy_until());
                    }
                    if value & cr::MER != 0 {
                        return Some(None);
                    }
                }
            }
            0x14 => self.ar = value,
            _ => return None,
        }
        Some(None)
    }

    /// A write of `size` bytes to the array at `offset`: programming with PG set.
    pub fn program(&mut self, offset: usize, size: usize, value: u16, now: u64) -> Programmed {
        self.advance(now);
        if self.cr & cr::PG == 0
            || self.cr & cr::LOCK != 0
            || size != 2
            || !offset.is_multiple_of(2)
        {
            self.sr |= sr::PGERR;
            return Programmed::Error;
        }
        if self.op.is_some() {
            return Programmed::Error;
        }
        let old = u16::from_le_bytes([self.array[offset], self.array[offset + 1]]);
        // A half-word not erased may only be programmed to 0x0000 (RM0008 §3.3.3).
        if old != 0xFFFF && value != 0 {
            self.sr |= sr::PGERR;
            return Programmed::Error;
        }
        self.half_words += 1;
        let at = if std::mem::take(&mut self.hang_next_op) {
            u64::MAX
        } else {
            now
        };
        self.op = Some(Op::Program { offset, value, at });
        Programmed::Busy {
            until: self.busy_until().unwrap_or(u64::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unlocked() -> Flash {
        let mut f = Flash::new(vec![0xFF; SIZE]);
        f.write(0x04, KEY1, 0);
        f.write(0x04, KEY2, 0);
        assert_eq!(f.read(0x10, 0).unwrap() & cr::LOCK, 0);
        f
    }

    #[test]
    fn a_wrong_key_locks_the_interface_until_reset() {
        let mut f = Flash::new(vec![0xFF; SIZE]);
        f.write(0x04, KEY2, 0);
        f.write(0x04, KEY1, 0);
        f.write(0x04, KEY2, 0);
        assert_ne!(f.read(0x10, 0).unwrap() & cr::LOCK, 0);
        f.reset();
        f.write(0x04, KEY1, 0);
        f.write(0x04, KEY2, 0);
        assert_eq!(f.read(0x10, 0).unwrap() & cr::LOCK, 0);
    }

    #[test]
    fn programming_needs_pg_and_an_erased_half_word_and_takes_its_time() {
        let mut f = unlocked();
        assert_eq!(
            f.program(0xA000, 2, 0x1234, 0),
            Programmed::Error,
            "PG clear"
        );
        f.write(0x0C, sr::PGERR, 0);
        f.write(0x10, cr::PG, 0);
        assert_eq!(
            f.program(0xA000, 2, 0x1234, 0),
            Programmed::Busy { until: PROGRAM_NS }
        );
        assert_eq!(f.read(0x0C, PROGRAM_NS - 1).unwrap() & sr::BSY, sr::BSY);
        assert_eq!(
            f.read(0x0C, PROGRAM_NS).unwrap() & (sr::BSY | sr::EOP),
            sr::EOP
        );
        assert_eq!(&f.array()[0xA000..0xA002], &[0x34, 0x12]);
        assert_eq!(
            f.program(0xA000, 2, 0x1200, PROGRAM_NS),
            Programmed::Error,
            "not erased"
        );
        assert_ne!(f.read(0x0C, PROGRAM_NS).unwrap() & sr::PGERR, 0);
        assert!(
            matches!(f.program(0xA000, 2, 0, PROGRAM_NS), Programmed::Busy { .. }),
            "0x0000 is allowed"
        );
        assert_eq!(
            f.program(0xA004, 4, 0, 10 * PROGRAM_NS),
            Programmed::Error,
            "a word"
        );
    }

    #[test]
    fn a_page_erase_takes_its_time_and_is_counted() {
        let mut f = unlocked();
        f.array[0xA400] = 0;
        f.write(0x10, cr::PER, 0);
        f.write(0x14, BASE + 0xA5F0, 0);
        assert_eq!(f.write(0x10, cr::PER | cr::STRT, 0), Some(Some(ERASE_NS)));
        assert_eq!(f.read(0x0C, ERASE_NS / 2).unwrap() & sr::BSY, sr::BSY);
        f.advance(ERASE_NS);
        assert_eq!(f.array()[0xA400], 0xFF);
        assert_eq!(f.erases()[0xA400 / PAGE], 1);
        assert_eq!(f.total_erases(), 1);
    }

    #[test]
    fn a_power_cut_inside_an_erase_leaves_the_page_half_erased() {
        let mut f = unlocked();
        f.array[0xA400..0xA800].fill(0);
        f.write(0x10, cr::PER, 0);
        f.write(0x14, BASE + 0xA400, 0);
        f.write(0x10, cr::PER | cr::STRT, 0);
        f.power_cut(ERASE_NS / 2);
        assert!(f.array()[0xA400..0xA600].iter().all(|&b| b == 0xFF));
        assert!(f.array()[0xA600..0xA800].iter().all(|&b| b == 0x55));
    }

    #[test]
    fn a_power_cut_inside_a_write_programs_part_of_the_bits() {
        let mut f = unlocked();
        f.write(0x10, cr::PG, 0);
        f.program(0xA000, 2, 0x0000, 0);
        f.power_cut(PROGRAM_NS / 2);
        let v = u16::from_le_bytes([f.array()[0xA000], f.array()[0xA001]]);
        assert_eq!(v.count_zeros(), 8);
    }
}
