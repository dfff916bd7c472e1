//! Freeing an I2C bus that a slave holds stuck.
//!
//! A slave that lost track of the clock mid-byte (a glitch, a brown-out of the
//! master during a read) keeps driving SDA low, waiting for clocks that never come:
//! from then on every transaction fails (a polled master such as the firmware's
//! times out waiting for START: `ErrorKind::Other`; others report `Bus` or
//! `ArbitrationLoss`), retries included. The STM32F1's I2C can also lock its BUSY
//! flag (errata ES096 §2.13.7), with the same symptom and the same cure. The cure is the I2C specification's bus clear: up to nine SCL
//! pulses until the slave lets SDA go, then a STOP, then the peripheral is
//! re-initialised; [`free_bus`] makes each pulse end in a STOP, as Linux's
//! `i2c_generic_scl_recovery` does, so that a slave that goes on sending after a
//! 1 bit is reset there and then. [`SensorBank`](super::sensors::SensorBank) asks for it after
//! [`RECOVER_AFTER`](super::sensors::RECOVER_AFTER) such errors in a row, when it was
//! given a bus that can do it ([`SensorBank::with_recovery`](super::sensors::SensorBank::with_recovery)).

/// An I2C bus that can free itself when a slave holds SDA low (9 SCL clocks, STOP, peripheral re-init).
///
/// ```
/// use tictable_machine::sensors::BusRecovery;
/// /// A bus on pins that can be bit-banged for a moment (here: a counter).
/// struct Bus { clocks: u32 }
/// impl BusRecovery for Bus {
///     fn recover_bus(&mut self) -> bool {
///         self.clocks += 9; // 9 SCL pulses, then STOP
///         true
///     }
/// }
/// let mut bus = Bus { clocks: 0 };
/// assert!(bus.recover_bus());
/// assert_eq!(bus.clocks, 9);
/// ```
pub trait BusRecovery {
    /// Frees the bus; `true` when SDA reads high afterwards (the bus is usable again).
    fn recover_bus(&mut self) -> bool;
}

impl<T: BusRecovery + ?Sized> BusRecovery for &mut T {
    fn recover_bus(&mut self) -> bool {
        (**self).recover_bus()
    }
}

/// Two open-drain lines: releasing one lets the pull-up raise it unless a slave holds
/// it low. The firmware drives PB6/PB7 as GPIOs through it; the host simulator the
/// byte-level bus's lines (`sim::wire::Lines`, feature `sim-core`).
pub trait OpenDrainLines {
    /// Releases (`true`) or pulls low SCL, then waits half a clock period.
    fn set_scl(&mut self, released: bool);
    /// Releases (`true`) or pulls low SDA, then waits half a clock period.
    fn set_sda(&mut self, released: bool);
    /// Whether SDA reads high.
    fn sda_is_high(&mut self) -> bool;
}

/// Clock pulses of [`free_bus`] at most: a slave transmitter out of step passes its
/// acknowledge bit within nine (UM10204 §3.1.16).
pub const RECOVERY_CLOCKS: u32 = 9;

/// The bus recovery of Linux's `i2c_generic_scl_recovery` (drivers/i2c/i2c-core-base.c,
/// with a settable SDA): both lines released, then up to [`RECOVERY_CLOCKS`] clock
/// pulses in which SDA follows SCL half a period later (SCL low, SDA low, SCL high,
/// SDA released), so that every pulse ends in a STOP, until SDA reads high after
/// one. A slave out of step moves to its next bit on each falling edge; the first
/// pulse in which it does not drive a 0 (a 1 bit, or its acknowledge, which it
/// leaves to the master) lets SDA rise while SCL is high: a STOP it sees, and it
/// resets. Returns whether SDA reads high at the end (the bus is free); bounded by
/// nine pulses, a slave that never lets go included.
///
/// ```
/// use tictable_machine::bus_recovery::{free_bus, OpenDrainLines};
/// /// A slave that holds SDA low through three falling SCL edges.
/// struct Bus { scl: bool, sda: bool, falls: u32 }
/// impl OpenDrainLines for Bus {
///     fn set_scl(&mut self, released: bool) {
///         self.falls += u32::from(self.scl && !released);
///         self.scl = released;
///     }
///     fn set_sda(&mut self, released: bool) { self.sda = released; }
///     fn sda_is_high(&mut self) -> bool { self.sda && self.falls >= 3 }
/// }
/// let mut bus = Bus { scl: true, sda: true, falls: 0 };
/// assert!(free_bus(&mut bus));
/// assert_eq!(bus.falls, 3);
/// ```
pub fn free_bus(lines: &mut impl OpenDrainLines) -> bool {
    lines.set_scl(true);
    lines.set_sda(true);
    for _ in 0..RECOVERY_CLOCKS {
        lines.set_scl(false);
        lines.set_sda(false);
        lines.set_scl(true);
        lines.set_sda(true);
        if lines.sda_is_high() {
            return true;
        }
    }
    false
}

/// The line sequence of the STM32F1 errata's workaround for an I2C BUSY flag left
/// locked by a glitch (ES096 §2.8.7), once [`free_bus`] has left both lines
/// released: SDA low while SCL is high (checked low), SCL low, SCL high, SDA
/// released while SCL is high (checked high): a START and a STOP the peripheral's
/// analog filter sees. The peripheral is disabled (PE clear) meanwhile and reset
/// with SWRST afterwards (the caller's part). Returns whether SDA followed both
/// times (`false`: a slave holds it, or the line is broken).
///
/// ```
/// use tictable_machine::bus_recovery::{unlock_filter, OpenDrainLines};
/// struct Bus { seen: Vec<(bool, bool)>, scl: bool, sda: bool }
/// impl OpenDrainLines for Bus {
///     fn set_scl(&mut self, released: bool) { self.scl = released; self.seen.push((self.scl, self.sda)); }
///     fn set_sda(&mut self, released: bool) { self.sda = released; self.seen.push((self.scl, self.sda)); }
///     fn sda_is_high(&mut self) -> bool { self.sda }
/// }
/// let mut bus = Bus { seen: vec![], scl: true, sda: true };
/// assert!(unlock_filter(&mut bus));
/// assert_eq!(bus.seen, [(true, false), (false, false), (true, false), (true, true)]);
/// ```
pub fn unlock_filter(lines: &mut impl OpenDrainLines) -> bool {
    lines.set_sda(false);
    let low = !lines.sda_is_high();
    lines.set_scl(false);
    lines.set_scl(true);
    lines.set_sda(true);
    low && lines.sda_is_high()
}
