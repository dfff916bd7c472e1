//! The guided sensor calibration ([`State::CalibratingSensors`]): the steps an
//! operator follows at the machine to give every square its empty / black / white
//! references, and the readings taken at each step. It runs through
//! [`Controller::calibrate_sensors`]; each step is shown on one light (with Error)
//! and confirmed with Start:
//!
//! 1. Device-turn light: the board empty;
//! 2. Human-turn light: black pieces on squares 1–5;
//! 3. Win light: black pieces on squares 6–9;
//! 4. Draw light: white pieces on squares 1–5;
//! 5. Loss light: white pieces on squares 6–9.
//!
//! [`SAMPLES`] readings per square and step, each a new sample of the sensor (one
//! per integration time: a step takes a few hundred ms, collected over many polls
//! of the super-loop), are averaged by [`Calibrator`];
//! references closer than [`MIN_SEPARATION`] fail the calibration. The result
//! classifies with [`Margins::DEFAULT`].
//!
//! Invariants: the calibration in use changes only when all five steps are read and
//! [`Calibrator::finish`] accepts them; Level cancels at any step. (Also at the old
//! path `tictable_machine::guided`.)

use super::{Controller, MoveChooser, State};
use crate::classify::{Calibrator, Margins, Reference};
use crate::motion::Lift;
use crate::panel::{Button, Light, Presses};
use crate::sensors::SensorBank;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::Squares;

/// Readings averaged per square and step.
pub const SAMPLES: usize = 8;

/// Minimum L1 distance between the references of a square (raw sensor counts).
pub const MIN_SEPARATION: u32 = 300;

/// The longest a step collects its samples, ms ([`SAMPLES`] new samples take
/// about `SAMPLES` × 30 ms); a square whose sensor fails all along is left with
/// fewer (none: [`Calibrator::finish`] names it).
pub const STEP_LIMIT_MS: u32 = 3000;

/// One step of the procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalibrationStep {
    /// The light that shows the step.
    pub light: Light,
    /// What lies on the step's squares.
    pub reference: Reference,
    /// The squares read at this step.
    pub squares: Squares,
}

/// Squares 1–5 (indices 0..=4) and 6–9.
const FIRST_FIVE: Squares = Squares::from_bits(0b0_0001_1111);
const LAST_FOUR: Squares = Squares::from_bits(0b1_1110_0000);

/// The five steps, in order.
///
/// ```
/// use tictable_machine::controller::sensor_calibration::STEPS;
/// use tictable_machine::classify::Reference;
/// // Every square is read once with each reference.
/// for r in Reference::ALL {
///     let squares = STEPS.iter().filter(|s| s.reference == r).map(|s| s.squares.bits());
///     assert_eq!(squares.fold(0, |a, b| { assert_eq!(a & b, 0); a | b }), 0x1FF);
/// }
/// ```
pub const STEPS: [CalibrationStep; 5] = [
    CalibrationStep {
        light: Light::DeviceTurn,
        reference: Reference::Empty,
        squares: Squares::from_bits(0x1FF),
    },
    CalibrationStep {
        light: Light::HumanTurn,
        reference: Reference::Black,
        squares: FIRST_FIVE,
    },
    CalibrationStep {
        light: Light::Win,
        reference: Reference::Black,
        squares: LAST_FOUR,
    },
    CalibrationStep {
        light: Light::Draw,
        reference: Reference::White,
        squares: FIRST_FIVE,
    },
    CalibrationStep {
        light: Light::Loss,
        reference: Reference::White,
        squares: LAST_FOUR,
    },
];

/// Collects [`SAMPLES`] new samples of every square of `step` into `calibrator`,
/// polled at `now_ms`: each call reads the squares whose sensor has a new sample
/// due; `WouldBlock` until every square has its samples or [`STEP_LIMIT_MS`]
/// passed. [`Calibrator::recording`] says a step is under way. A failed read is
/// skipped: a square with no reading at all fails the calibration when it is
/// finished ([`Calibrator::finish`] names it).
pub fn record_step<I2C: I2c>(
    bank: &mut SensorBank<I2C>,
    calibrator: &mut Calibrator,
    step: &CalibrationStep,
    now_ms: u32,
) -> nb::Result<(), core::convert::Infallible> {
    let started = match calibrator.recording() {
        Some(t) => t,
        None => {
            calibrator.set_recording(Some(now_ms));
            now_ms
        }
    };
    let mut done = true;
    for square in step.squares {
        if usize::from(calibrator.count(step.reference, square)) < SAMPLES {
            if let Ok(reading) = bank.read(square, now_ms) {
                calibrator.record(step.reference, square, reading);
            }
            done &= usize::from(calibrator.count(step.reference, square)) >= SAMPLES;
        }
    }
    if done || crate::elapsed_ms(now_ms, started) >= STEP_LIMIT_MS {
        calibrator.set_recording(None);
        Ok(())
    } else {
        Err(nb::Error::WouldBlock)
    }
}

/// The step lights, for showing that a calibration failed.
pub const STEP_LIGHTS: [Light; 5] = [
    STEPS[0].light,
    STEPS[1].light,
    STEPS[2].light,
    STEPS[3].light,
    STEPS[4].light,
];

/// [`STEP_LIGHTS`] as a mask for [`Panel::show_mask`](crate::panel::Panel::show_mask).
///
/// ```
/// use tictable_machine::controller::sensor_calibration::{STEP_LIGHTS, STEP_LIGHT_MASK};
/// let mask = STEP_LIGHTS.iter().fold(0, |m, l| m | l.bit());
/// assert_eq!(STEP_LIGHT_MASK, mask);
/// assert_eq!(mask.count_ones(), 5);
/// ```
pub const STEP_LIGHT_MASK: u8 = {
    let mut mask = 0;
    let mut i = 0;
    while i < STEP_LIGHTS.len() {
        mask |= STEP_LIGHTS[i].bit();
        i += 1;
    }
    mask
};

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// Runs the guided sensor calibration (see [the module docs](self)) once the
    /// machine is homed: call it before the first poll (the firmware does on the
    /// first power-on, or with Level held), or in Setup, after a game or after a
    /// task. The calibration in use changes only when the procedure succeeds; Level
    /// cancels it. `false` (nothing changes) while a game or task runs.
    pub fn calibrate_sensors(&mut self) -> bool {
        match self.state {
            State::Starting => self.calibrate_when_homed = true,
            State::Setup | State::Over(_) | State::TaskDone => {
                self.start_sensor_calibration();
            }
            _ => return false,
        }
        true
    }

    /// Starts the guided sensor calibration at its first step.
    #[inline(always)]
    pub(super) fn start_sensor_calibration(&mut self) {
        self.calibrator = Calibrator::new();
        self.enter(State::CalibratingSensors { step: 0 });
    }

    /// One poll of the guided sensor calibration: Start reads the step shown (its
    /// samples over the following polls) or begins again after a failure; Level
    /// cancels.
    pub(super) fn calibration_step(&mut self, step: u8, presses: Presses) {
        if presses.contains(Button::Level) {
            self.ready();
            return;
        }
        if !presses.contains(Button::Start) && self.calibrator.recording().is_none() {
            return;
        }
        let Some(shown) = STEPS.get(step as usize) else {
            self.start_sensor_calibration();
            return;
        };
        // The step's samples come over many polls (one per integration time).
        if record_step(
            &mut self.hw.sensors,
            &mut self.calibrator,
            shown,
            self.now_ms,
        )
        .is_err()
        {
            return;
        }
        if (step as usize) + 1 < STEPS.len() {
            self.enter(State::CalibratingSensors { step: step + 1 });
            return;
        }
        match self.calibrator.finish(MIN_SEPARATION, Margins::DEFAULT) {
            Ok(calibration) => {
                self.hw.scanner.set_calibration(calibration);
                self.ready();
            }
            Err(_) => self.enter(State::CalibratingSensors {
                step: STEPS.len() as u8,
            }),
        }
    }
}
