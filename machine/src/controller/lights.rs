//! What the panel shows in each [`State`]: one mask of lights per state, written
//! on every state change ([`Controller::lights`] from `enter`).
//!
//! Invariants: the lights are a function of the state and the setup only; a light
//! failure is not fatal (it is written again on the next change).

use super::sensor_calibration::{STEPS, STEP_LIGHT_MASK};
use super::{Controller, MoveChooser, State};
use crate::motion::Lift;
use crate::panel::Light;
use crate::Colour;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::Square;

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// Shows the state on the panel.
    pub(super) fn lights(&mut self) {
        let turn = |human: bool| {
            if human {
                Light::HumanTurn.bit()
            } else {
                Light::DeviceTurn.bit()
            }
        };
        let on = match &self.state {
            State::Starting
            | State::WaitEmpty
            | State::Placing { .. }
            | State::Verifying { .. }
            | State::Checking
            | State::Restoring { .. }
            | State::VerifyingRestore { .. } => Light::DeviceTurn.bit(),
            #[cfg(feature = "games")]
            State::Capturing { .. } => Light::DeviceTurn.bit(),
            State::CalibratingSensors { step } => {
                // The step's light; every step light after a failure.
                Light::Error.bit()
                    | STEPS
                        .get(*step as usize)
                        .map_or(STEP_LIGHT_MASK, |s| s.light.bit())
            }
            // The game chosen (`games`): both turn lights and its number; Error
            // with them when the choice skipped a game whose table did not read back.
            #[cfg(feature = "games")]
            State::Setup if self.show_game => {
                Light::DeviceTurn.bit()
                    | Light::HumanTurn.bit()
                    | number_lights(self.rules().code())
                    | lit(self.choice_failed, Light::Error)
            }
            State::Setup => {
                // Who moves first, and the device's first square (none: the table's).
                if self.setup.device_first {
                    Light::DeviceTurn.bit() | square_lights(self.setup.first_square)
                } else {
                    Light::HumanTurn.bit()
                }
            }
            // In the human's turn, any piece on the board means the device moved last.
            // Level pressed in the person's turn (`games`): confirm the game's end.
            #[cfg(feature = "games")]
            State::HumanTurn if self.confirm_since.is_some() => super::CONFIRM_GAME_LIGHTS,
            State::HumanTurn => Light::HumanTurn.bit() | lit(self.record.len > 0, Light::Lamp),
            State::Error(problem) => problem.lights(),
            State::TaskDone => Light::Lamp.bit(),
            State::TaskEntry(entry) => {
                turn(entry.colour == Colour::White)
                    | square_lights(entry.square)
                    | lit(entry.rejected.is_some(), Light::Error)
            }
            // The target square in task entry's binary: 1 = Lamp, 9 = Lamp + Loss.
            State::CalibratingPose(jog) => {
                turn(jog.y_axis)
                    | Light::Lamp.bit()
                    | lit(jog.first.is_some(), Light::Loss)
                    | lit(jog.refused, Light::Error)
            }
            State::Over(Some(true)) => Light::Win.bit(),
            State::Over(Some(false)) => Light::Loss.bit(),
            State::Over(None) => Light::Draw.bit(),
        };
        // Hexapawn's set-up: both turn lights ask the person to set their pawns.
        #[cfg(feature = "games")]
        let on = on
            | lit(
                self.state == State::HumanTurn && self.setting_up.is_some(),
                Light::DeviceTurn,
            );
        // A light failure is not fatal for the game: it is retried on the next poll.
        let _ = self.hw.panel.show_mask(on);
    }
}

/// `light`'s bit if `on`.
fn lit(on: bool, light: Light) -> u8 {
    if on {
        light.bit()
    } else {
        0
    }
}

/// Shows a square number 1..=9 in binary on Lamp (1), Win (2), Draw (4) and Loss (8);
/// nothing for `None`.
#[inline(always)]
fn square_lights(square: Option<Square>) -> u8 {
    number_lights(square.map_or(0, |s| s.index() + 1))
}

/// Shows `n` (0..=15) in binary on Lamp (1), Win (2), Draw (4) and Loss (8).
pub(super) fn number_lights(n: u8) -> u8 {
    const _: () = assert!(
        Light::Lamp.bit() == 1
            && Light::Win.bit() == 1 << 3
            && Light::Draw.bit() == 1 << 4
            && Light::Loss.bit() == 1 << 5
    );
    (n & 1) | ((n & 0b1110) << 2)
}
