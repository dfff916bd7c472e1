//! The Z lift: the [`Lift`] trait and its two drivers, a pin ([`PinLift`]) and a
//! hobby servo on a PWM channel ([`ServoLift`]).

use crate::hw::{pin_error, HwError};
use embedded_hal::digital::OutputPin;
use embedded_hal::pwm::{Error as _, SetDutyCycle};

/// The Z lift: lowers the magnet onto a piece and raises it.
pub trait Lift {
    /// Lowers (`true`) or raises (`false`) the head.
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError>;
}

/// A lift driven by one pin (a solenoid or a small motor driver): high = lowered.
#[derive(Debug)]
pub struct PinLift<O>(pub O);

impl<O: OutputPin> Lift for PinLift<O> {
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError> {
        self.0.set_state(lowered.into()).map_err(pin_error)
    }
}

/// A lift driven by a hobby servo on a PWM channel; the two positions are duty
/// cycles in thousandths (at 50 Hz, 1 ms = 50, 2 ms = 100).
#[derive(Debug)]
pub struct ServoLift<P> {
    /// The PWM channel.
    pub pwm: P,
    /// Duty (per mille) with the head raised.
    pub up_permille: u16,
    /// Duty (per mille) with the head lowered.
    pub down_permille: u16,
}

impl<P: SetDutyCycle> Lift for ServoLift<P> {
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError> {
        let duty = if lowered {
            self.down_permille
        } else {
            self.up_permille
        };
        self.pwm
            .set_duty_cycle_fraction(duty, 1000)
            .map_err(|e| HwError::Pwm(e.kind()))
    }
}
