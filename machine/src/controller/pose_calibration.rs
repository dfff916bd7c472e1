//! Calibrating the board pose by jogging ([`State::CalibratingPose`]): the head is
//! jogged with the buttons onto the centres of squares 1 and 9, and the pose comes
//! from the two points ([`Pose::from_corners`]).
//!
//! Invariants: the layout's pose changes only when both points are recorded and
//! the pose from them is valid with every square within reach; Level leaves
//! without changing anything; a jog press while the head moves is ignored.

use super::{Controller, MoveChooser, State};
use crate::elapsed_ms;
use crate::motion::{Lift, Point, Pose};
use crate::panel::{Button, Presses};
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::Square;

/// How long Done is held (after entering task entry) to start calibrating, ms.
pub const CALIBRATE_HOLD_MS: u32 = 2000;
/// One jog press, µm.
pub const JOG_UM: i32 = 1000;
/// A jog button held this long after its press repeats, ms.
pub const JOG_REPEAT_MS: u32 = 400;

/// Pose calibration by jogging ([`State::CalibratingPose`]; the procedure for
/// people is in `firmware/README.md`, "Calibration").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jog {
    /// The head position recorded over square 1, once Done was pressed there.
    pub first: Option<Point>,
    /// Jogging along Y (else X); Start switches.
    pub y_axis: bool,
    /// The last pair of points was refused (the error light), until the next press.
    pub refused: bool,
}

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// Starts (or restarts) pose calibration: the head goes to square 1 as the
    /// current pose has it.
    #[inline(always)]
    pub(super) fn start_calibration(&mut self, refused: bool) {
        // Unreachable (a far-off pose): the head stays and is jogged from there.
        let _ = self
            .hw
            .machine
            .start_move(self.layout.pose.square_centre(Square::ALL[0]));
        self.enter(State::CalibratingPose(Jog {
            first: None,
            y_axis: false,
            refused,
        }));
    }

    pub(super) fn poll_calibration(&mut self, presses: Presses, now_ms: u32) {
        // Changed in place (no copy of the state).
        let State::CalibratingPose(jog) = &mut self.state else {
            return;
        };
        let busy = self.hw.machine.is_busy();
        if presses.contains(Button::Level) {
            // Cancelled: nothing changes. (A move under way finishes first.)
            if !busy {
                self.park(now_ms);
            }
            self.enter(State::Setup);
            return;
        }
        if busy {
            return;
        }
        let panel = &self.hw.panel;
        let repeat = presses.is_empty() && elapsed_ms(now_ms, self.entered_ms) >= JOG_REPEAT_MS;
        let jogs = |b| presses.contains(b) || (repeat && panel.is_held(b));
        let step = if jogs(Button::FirstSquare) {
            JOG_UM
        } else if jogs(Button::Side) {
            -JOG_UM
        } else {
            0
        };
        // Positions stay within the travel (a few hundred mm): no overflow below.
        let here = self.hw.machine.position();
        if step != 0 && !presses.contains(Button::Done) {
            let mut to = here;
            let axis = if jog.y_axis { &mut to.y } else { &mut to.x };
            *axis = axis.wrapping_add(step);
            // Past the travel: the head stays.
            let _ = self.hw.machine.start_move(to);
        }
        if presses.is_empty() {
            return;
        }
        jog.refused = false;
        if presses.contains(Button::Start) {
            jog.y_axis = !jog.y_axis;
        }
        if presses.contains(Button::Done) {
            let Some(first) = jog.first else {
                jog.first = Some(here);
                // On to where square 9 lies from square 1 with the current pose.
                let pose = &self.layout.pose;
                let (p0, p8) = (
                    pose.square_centre(Square::ALL[0]),
                    pose.square_centre(Square::ALL[8]),
                );
                let guess = Point::new(
                    here.x.wrapping_add(p8.x.wrapping_sub(p0.x)),
                    here.y.wrapping_add(p8.y.wrapping_sub(p0.y)),
                );
                let _ = self.hw.machine.start_move(guess);
                self.entered();
                return;
            };
            match Pose::from_corners(first, here) {
                Ok(pose)
                    if Square::ALL
                        .iter()
                        .all(|s| self.hw.machine.reachable(pose.square_centre(*s))) =>
                {
                    self.layout.pose = pose;
                    self.park(now_ms);
                    self.enter(State::Setup);
                }
                _ => self.start_calibration(true),
            }
            return;
        }
        self.entered();
    }
}
