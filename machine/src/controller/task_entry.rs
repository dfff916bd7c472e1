//! Entering a placement task with the buttons ([`State::TaskEntry`]): Side picks
//! the colour, First square the square, Done adds the pair, Start runs the task,
//! Level cancels; holding Done on a fresh entry starts the pose calibration.
//!
//! Invariants: the task being entered is always one [`Task::new`] accepts (an entry
//! it would refuse is not added and lights Error); it is not saved, so after a
//! reset the machine is in Setup.

use super::pose_calibration::CALIBRATE_HOLD_MS;
use super::{Controller, MoveChooser, State, Task, TaskError};
use crate::motion::Lift;
use crate::panel::{Button, Presses};
use crate::{elapsed_ms, Colour};
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::Square;

/// A task being entered with the buttons ([`State::TaskEntry`]; the procedure
/// for people is in `firmware/README.md`, "The contest items in use").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskEntry {
    /// The colour the next entry gets (Side toggles it).
    pub colour: Colour,
    /// The square selected with First square, if any.
    pub square: Option<Square>,
    /// The placements added so far (`None`: none yet).
    pub task: Option<Task>,
    /// Why the last Done or Start was refused (the error light), until the next press.
    pub rejected: Option<TaskError>,
}

impl TaskEntry {
    /// A fresh entry: black, no square, nothing added.
    pub const fn new() -> TaskEntry {
        TaskEntry {
            colour: Colour::Black,
            square: None,
            task: None,
            rejected: None,
        }
    }

    /// The placements added so far.
    pub fn items(&self) -> &[(Colour, Square)] {
        self.task.as_ref().map_or(&[], Task::items)
    }

    /// Applies the presses of one poll (Level, which cancels, is handled by the
    /// controller). Returns the task to run when Start was pressed with a valid one.
    pub(super) fn update(&mut self, presses: Presses) -> Option<Task> {
        self.rejected = None;
        if presses.contains(Button::Side) {
            self.colour = self.colour.other();
        }
        if presses.contains(Button::FirstSquare) {
            self.square = match self.square {
                None => Some(Square::ALL[0]),
                Some(s) => Square::new(s.index() + 1).or(Some(Square::ALL[0])),
            };
        }
        if presses.contains(Button::Done) {
            self.add();
        }
        if presses.contains(Button::Start) {
            if self.task.is_none() {
                self.rejected = Some(TaskError::Empty);
            }
            return self.task;
        }
        None
    }

    /// Adds the selection to the task, if [`Task::new`] accepts it.
    #[inline(never)]
    fn add(&mut self) {
        let Some(square) = self.square else {
            self.rejected = Some(TaskError::Empty);
            return;
        };
        let mut task = self.task.unwrap_or(Task::NONE);
        match task.push(self.colour, square) {
            Ok(()) => {
                self.task = Some(task);
                self.square = None;
            }
            Err(e) => self.rejected = Some(e),
        }
    }
}

impl Default for TaskEntry {
    fn default() -> TaskEntry {
        TaskEntry::new()
    }
}

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// One poll of task entry.
    pub(super) fn poll_task_entry(&mut self, presses: Presses, now_ms: u32) {
        // Changed in place (no copy of the entry).
        let State::TaskEntry(entry) = &mut self.state else {
            return;
        };
        if *entry == TaskEntry::new()
            && self.hw.panel.is_held(Button::Done)
            && elapsed_ms(now_ms, self.entered_ms) >= CALIBRATE_HOLD_MS
            && !self.hw.machine.is_busy()
        {
            self.start_calibration(false);
            return;
        }
        if presses.is_empty() {
            return;
        }
        if presses.contains(Button::Level) {
            self.enter(State::Setup);
            return;
        }
        match entry.update(presses) {
            // From TaskEntry start_task cannot be refused as busy.
            Some(task) if self.start_task(task).is_ok() => {}
            _ => self.entered(),
        }
    }
}
