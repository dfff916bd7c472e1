//! The pin types the device logic drives: [`Out`] for every output (STEP and DIR with
//! the drivers' timing, lift, magnet, lights) and [`In`] for every input (limit
//! switches, buttons). The library takes one output type for all of them.

use crate::clock::Dwt;
use crate::pulse::StepLine;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use stm32f1xx_hal::gpio::{Input, Output, PartiallyErasedPin, PullUp, PushPull};

/// A push-pull output on port A.
pub type PortA = PartiallyErasedPin<'A', Output<PushPull>>;
/// A push-pull output on port B.
pub type PortB = PartiallyErasedPin<'B', Output<PushPull>>;

/// An output pin on port A or B (a port-A/B enum is 150 B smaller than the HAL's
/// five-port `ErasedPin`, measured), or a STEP or DIR line of a stepper driver, whose
/// edges keep the drivers' minimum times (`pulse`: STEP ≥ 2 µs high and low, DIR
/// ≥ 1 µs before the next step).
pub enum Out {
    /// A plain output on port A.
    A(PortA),
    /// A plain output on port B.
    B(PortB),
    /// A driver's STEP input (port A) and its axis's line in [`LINES`].
    Step(PortA, u8),
    /// A driver's DIR input (port A) and its axis's line in [`LINES`].
    Dir(PortA, u8),
}

/// The STEP/DIR timing state of the X (0) and Y (1) axes.
pub static LINES: [StepLine; 2] = [StepLine::new(), StepLine::new()];

impl Out {
    /// Sets the level (STEP and DIR through their axis's [`StepLine`]).
    fn set(&mut self, high: bool) -> Result<(), Infallible> {
        match self {
            Out::A(pin) => pin.set_state(high.into()),
            Out::B(pin) => pin.set_state(high.into()),
            Out::Step(pin, axis) => return LINES[usize::from(*axis & 1)].set_step::<_, Dwt>(pin, high),
            Out::Dir(pin, axis) => return LINES[usize::from(*axis & 1)].set_dir::<_, Dwt>(pin, high),
        }
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

/// An input pin (limit switches, buttons), pulled up, active low, on port A or B. This
/// wiring has every input on port B; port A is there so that inputs can move without
/// a type change (and, measured, the two-port enum is 60 B smaller than a wrapper of
/// the port-B pin alone, and 300 B smaller than the HAL's pin type used directly).
pub enum In {
    /// An input on port A.
    #[allow(dead_code)]
    A(PartiallyErasedPin<'A', Input<PullUp>>),
    /// An input on port B.
    B(PartiallyErasedPin<'B', Input<PullUp>>),
}

impl ErrorType for In {
    type Error = Infallible;
}

impl InputPin for In {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        self.is_low().map(|low| !low)
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        match self {
            In::A(pin) => pin.is_low(),
            In::B(pin) => pin.is_low(),
        }
    }
}
