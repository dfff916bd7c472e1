//! The pin types the device logic drives: [`Out`] for every output (STEP and DIR with
//! the drivers' timing, lift, magnet, lights) and [`In`] for every input (limit
//! switches, buttons). The library takes one output type for all of them.

use crate::clock::Dwt;
use crate::pulse::StepLine;
use crate::regs;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use stm32f1xx_hal::gpio::Pin;

/// What an output drives (`Out::role`): [`PLAIN`] a plain output, else [`LINE`]
/// with the axis's line in [`LINES`] in bit 1, and [`STEP`] for a driver's STEP
/// input (a DIR input without it). Flags rather than an enum: one test and a mask
/// in `Out::set` (a `u16`: `Out` stays four bytes, three cost more flash; measured).
const PLAIN: u16 = 0;
const LINE: u16 = 4;
const STEP: u16 = 1;

/// An output pin on port A or B, made from the HAL's pin (consumed, so each pin has
/// one `Out`; `board`'s pin table makes it a push-pull output): it writes the port's set/reset register
/// for its own bit (one store, atomic: no other pin changes). STEP and DIR outputs
/// keep the drivers' minimum times through their axis's [`StepLine`] (`pulse`: STEP
/// ≥ 2 µs high and low, DIR ≥ 1 µs before the next step).
///
/// Four bytes, one code path for every pin: the HAL's pin types cost more flash (its
/// `set_high` on a run-time pin number checks the number and builds the bit at every
/// call; a port-A/B enum of them was larger still with the STEP/DIR variants).
pub struct Out {
    port_b: bool,
    bit: u8,
    role: u16,
}

/// The STEP/DIR timing state of the X (0) and Y (1) axes.
pub static LINES: [StepLine; 2] = [StepLine::new(), StepLine::new()];

impl Out {
    /// A plain output on port A.
    pub fn a<const N: u8, M>(_pin: Pin<'A', N, M>) -> Out {
        Out {
            port_b: false,
            bit: N,
            role: PLAIN,
        }
    }

    /// A plain output on port B.
    pub fn b<const N: u8, M>(_pin: Pin<'B', N, M>) -> Out {
        Out {
            port_b: true,
            bit: N,
            role: PLAIN,
        }
    }

    /// The STEP output of axis `axis` (0 = X, 1 = Y) on port A.
    pub fn step<const N: u8, M>(_pin: Pin<'A', N, M>, axis: u8) -> Out {
        Out {
            port_b: false,
            bit: N,
            role: LINE | u16::from(axis & 1) << 1 | STEP,
        }
    }

    /// The DIR output of axis `axis` (0 = X, 1 = Y) on port A.
    pub fn dir<const N: u8, M>(_pin: Pin<'A', N, M>, axis: u8) -> Out {
        Out {
            port_b: false,
            bit: N,
            role: LINE | u16::from(axis & 1) << 1,
        }
    }

    /// Sets the level (STEP and DIR through their axis's [`StepLine`]).
    fn set(&mut self, high: bool) -> Result<(), Infallible> {
        let port = regs::port(self.port_b);
        let bits = if high { 1 } else { 1 << 16 } << (self.bit & 15);
        if self.role == PLAIN {
            regs::set_reset(port, bits);
            return Ok(());
        }
        let line = &LINES[usize::from(self.role >> 1 & 1)];
        let step = self.role & STEP != 0;
        line.wait_before::<Dwt>(step, high);
        regs::set_reset(port, bits);
        line.stamp::<Dwt>(step);
        Ok(())
    }
}

impl ErrorType for Out {
    type Error = Infallible;
}

impl OutputPin for Out {
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.set(true)
    }

    fn set_low(&mut self) -> Result<(), Infallible> {
        self.set(false)
    }
}

/// An input pin (limit switches, buttons), active low, on port A or B, made from the
/// HAL's pin (consumed; `board`'s pin table makes it an input with pull-up): it reads
/// the port's input data register.
pub struct In {
    port_b: bool,
    bit: u8,
}

impl In {
    /// An input on port A.
    pub fn a<const N: u8, M>(_pin: Pin<'A', N, M>) -> In {
        In {
            port_b: false,
            bit: N,
        }
    }

    /// An input on port B.
    pub fn b<const N: u8, M>(_pin: Pin<'B', N, M>) -> In {
        In {
            port_b: true,
            bit: N,
        }
    }
}

impl ErrorType for In {
    type Error = Infallible;
}

impl InputPin for In {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        self.is_low().map(|low| !low)
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        let port = regs::port(self.port_b);
        Ok(port.idr().read().bits() & 1 << (self.bit & 15) == 0)
    }
}
