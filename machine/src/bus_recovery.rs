//! Freeing an I2C bus that a slave holds stuck.
//!
//! A slave that lost track of the clock mid-byte (a glitch, a brown-out of the
//! master during a read) keeps driving SDA low, waiting for clocks that never come:
//! from then on every transaction fails (a polled master such as the firmware's
//! times out waiting for START: `ErrorKind::Other`; others report `Bus` or
//! `ArbitrationLoss`), retries included. The STM32F1's I2C can also lock its BUSY
//! flag (errata ES096 §2.13.7), with the same symptom and the same cure. The cure is the I2C specification's bus clear: up to nine SCL
//! pulses until the slave lets SDA go, then a STOP, then the peripheral is
//! re-initialised. [`SensorBank`](super::sensors::SensorBank) asks for it after
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
