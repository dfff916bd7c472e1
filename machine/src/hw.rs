//! The hardware types every driver shares, at the bottom of the device layer:
//! [`Rgbc`] (one colour sensor reading) and [`HwError`] (a pin or PWM channel
//! failed). This module imports nothing else from `device`, so the sensors,
//! classification, motion and panel modules can all depend on it.

use core::fmt;
use embedded_hal::digital;
use embedded_hal::pwm;

/// One raw reading of a TCS34725: clear, red, green and blue counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rgbc {
    /// Clear (unfiltered) channel.
    pub clear: u16,
    /// Red channel.
    pub red: u16,
    /// Green channel.
    pub green: u16,
    /// Blue channel.
    pub blue: u16,
}

impl Rgbc {
    /// A reading from its four channels.
    pub const fn new(clear: u16, red: u16, green: u16, blue: u16) -> Rgbc {
        Rgbc {
            clear,
            red,
            green,
            blue,
        }
    }

    /// The L1 distance between two readings.
    ///
    /// ```
    /// use tictable_machine::hw::Rgbc;
    /// assert_eq!(Rgbc::new(10, 0, 0, 0).distance(Rgbc::new(4, 1, 0, 0)), 7);
    /// ```
    pub const fn distance(self, other: Rgbc) -> u32 {
        self.l1(&other)
    }

    /// [`Rgbc::distance`] by reference (one copy of the code, no copies of readings).
    #[inline(never)]
    pub(super) const fn l1(&self, other: &Rgbc) -> u32 {
        self.clear.abs_diff(other.clear) as u32
            + self.red.abs_diff(other.red) as u32
            + self.green.abs_diff(other.green) as u32
            + self.blue.abs_diff(other.blue) as u32
    }
}

impl From<tcs3472::AllChannelMeasurement> for Rgbc {
    fn from(m: tcs3472::AllChannelMeasurement) -> Rgbc {
        Rgbc::new(m.clear, m.red, m.green, m.blue)
    }
}

/// A hardware fault of a pin or a PWM channel.
///
/// ```
/// use tictable_machine::hw::HwError;
/// use embedded_hal::digital::ErrorKind;
/// assert!(HwError::Pin(ErrorKind::Other).to_string().starts_with("pin fault: "));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HwError {
    /// A digital pin failed.
    Pin(digital::ErrorKind),
    /// A PWM channel failed.
    Pwm(pwm::ErrorKind),
}

impl fmt::Display for HwError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HwError::Pin(k) => write!(f, "pin fault: {k}"),
            HwError::Pwm(k) => write!(f, "PWM fault: {k}"),
        }
    }
}

impl core::error::Error for HwError {}

/// A digital pin's error as an [`HwError`] (for `map_err`).
pub(super) fn pin_error<E: digital::Error>(e: E) -> HwError {
    HwError::Pin(e.kind())
}
