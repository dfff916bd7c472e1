//! GPIO ports A, B and C (RM0008 §9.2): CRL/CRH (mode and configuration of each
//! pin), IDR, ODR, BSRR, BRR, LCKR; a pin's level as the outside sees it (driven
//! push-pull or open-drain, an input pulled up or down by ODR, an alternate
//! function's output). LCKR: a write with LCKK set locks the pins it names (the
//! key sequence itself is not checked).

/// The ports' base addresses: A, B, C.
pub const BASES: [u32; 3] = [0x4001_0800, 0x4001_0C00, 0x4001_1000];

/// What a pin is configured as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An analog input.
    Analog,
    /// A floating input.
    Floating,
    /// An input with the pull-up (ODR 1) or pull-down (ODR 0).
    Pull(bool),
    /// A general-purpose output, open-drain when `true`.
    Output {
        /// Open-drain (else push-pull).
        open_drain: bool,
    },
    /// An alternate function's output (a peripheral drives it), open-drain when
    /// `true`.
    Alternate {
        /// Open-drain (else push-pull).
        open_drain: bool,
    },
}

/// One port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    cr: [u32; 2],
    odr: u32,
    lckr: u32,
}

impl Default for Port {
    fn default() -> Port {
        Port {
            cr: [0x4444_4444; 2],
            odr: 0,
            lckr: 0,
        }
    }
}

impl Port {
    /// The configuration of pin `n`.
    pub fn mode(&self, n: u32) -> Mode {
        let f = (self.cr[(n / 8) as usize] >> (4 * (n % 8))) & 0xF;
        let (mode, cnf) = (f & 3, f >> 2);
        match (mode, cnf) {
            (0, 0) => Mode::Analog,
            (0, 1) => Mode::Floating,
            (0, _) => Mode::Pull(self.odr & (1 << n) != 0),
            (_, 0) => Mode::Output { open_drain: false },
            (_, 1) => Mode::Output { open_drain: true },
            (_, 2) => Mode::Alternate { open_drain: false },
            _ => Mode::Alternate { open_drain: true },
        }
    }

    /// The output data register.
    pub fn odr(&self) -> u32 {
        self.odr
    }

    /// What the port drives on pin `n`: `Some(level)`, or `None` (released: an
    /// input, an open-drain output at 1, or an alternate function, whose level
    /// the board asks the peripheral for).
    pub fn driven(&self, n: u32) -> Option<bool> {
        let high = self.odr & (1 << n) != 0;
        match self.mode(n) {
            Mode::Output { open_drain: false } => Some(high),
            Mode::Output { open_drain: true } => (!high).then_some(false),
            _ => None,
        }
    }

    /// The input data register, from the outside level of each pin.
    pub fn idr(&self, level: impl Fn(u32) -> bool) -> u32 {
        (0..16).filter(|&n| level(n)).fold(0, |v, n| v | 1 << n)
    }

    /// Reads the register at `offset` with the pins at `levels` (IDR);
    /// `None`: no such register.
    pub fn read(&self, offset: u32, idr: impl FnOnce() -> u32) -> Option<u32> {
        Some(match offset {
            0x00 => self.cr[0],
            0x04 => self.cr[1],
            0x08 => idr(),
            0x0C => self.odr,
            0x10 | 0x14 => 0,
            0x18 => self.lckr,
            _ => return None,
        })
    }

    /// Writes the register at `offset`; `None`: no such register.
    pub fn write(&mut self, offset: u32, value: u32) -> Option<()> {
        // A locked pin's configuration (LCKK set) keeps its CR bits.
        let locked = if self.lckr & (1 << 16) != 0 {
            self.lckr & 0xFFFF
        } else {
            0
        };
        let keep = |old: u32, new: u32, half: u32| {
            let mut v = new;
            for n in 0..8 {
                if locked & (1 << (n + 8 * half)) != 0 {
                    let m = 0xF << (4 * n);
                    v = (v & !m) | (old & m);
                }
            }
            v
        };
        match offset {
            0x00 => self.cr[0] = keep(self.cr[0], value, 0),
            0x04 => self.cr[1] = keep(self.cr[1], value, 1),
            0x08 => {}
            0x0C => self.odr = value & 0xFFFF,
            // BSRR: the set bits win over the reset bits.
            0x10 => self.odr = (self.odr & !(value >> 16) | value) & 0xFFFF,
            0x14 => self.odr &= !(value & 0xFFFF),
            0x18 => self.lckr = value & 0x1_FFFF,
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_reset_as_floating_inputs() {
        let p = Port::default();
        assert_eq!(p.mode(0), Mode::Floating);
        assert_eq!(p.mode(15), Mode::Floating);
        assert_eq!(p.driven(3), None);
    }

    #[test]
    fn bsrr_sets_before_it_resets_and_brr_resets() {
        let mut p = Port::default();
        p.write(0x10, (1 << 16) | 1 | (1 << (16 + 2))).unwrap();
        assert_eq!(p.odr(), 1, "set wins for pin 0");
        p.write(0x14, 1).unwrap();
        assert_eq!(p.odr(), 0);
        p.write(0x0C, 0x1_0005).unwrap();
        assert_eq!(p.odr(), 5);
    }

    #[test]
    fn modes_decode_and_open_drain_releases_at_one() {
        let mut p = Port::default();
        // Pin 0: push-pull 2 MHz; pin 1: open-drain; pin 6: AF open-drain; pin 8
        // (CRH): input with pull.
        p.write(0x00, 0x0E00_0062).unwrap();
        p.write(0x04, 0x8).unwrap();
        assert_eq!(p.mode(0), Mode::Output { open_drain: false });
        assert_eq!(p.mode(1), Mode::Output { open_drain: true });
        assert_eq!(p.mode(6), Mode::Alternate { open_drain: true });
        assert_eq!(p.mode(8), Mode::Pull(false));
        p.write(0x10, 0x103).unwrap();
        assert_eq!(p.mode(8), Mode::Pull(true));
        assert_eq!(p.driven(0), Some(true));
        assert_eq!(p.driven(1), None, "open-drain at 1 is released");
        p.write(0x14, 2).unwrap();
        assert_eq!(p.driven(1), Some(false));
        assert_eq!(p.idr(|n| n == 8), 1 << 8);
        assert_eq!(p.read(0x20, || 0), None);
    }

    #[test]
    fn a_locked_pin_keeps_its_configuration() {
        let mut p = Port::default();
        p.write(0x18, (1 << 16) | 1).unwrap();
        p.write(0x00, 0x3333_3333).unwrap();
        assert_eq!(p.mode(0), Mode::Floating);
        assert_eq!(p.mode(1), Mode::Output { open_drain: false });
    }
}
