//! What the machine is doing, in words for people (squares 1-9 as on the board):
//! the [`Display`](core::fmt::Display) of [`State`], as `tictable simulate --watch`
//! and the browser page show it.

use super::State;
use crate::Colour;
use core::fmt;

impl fmt::Display for State {
    /// One line for a person watching the machine.
    ///
    /// ```
    /// use tictable_machine::controller::State;
    /// assert_eq!(State::HumanTurn.to_string(), "the person's turn: move a piece, then press Done");
    /// assert_eq!(State::Over(Some(false)).to_string(), "game over: the machine lost");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = |c: Colour| match c {
            Colour::Black => "black",
            Colour::White => "white",
        };
        match *self {
            State::Starting => f.write_str("starting: homing and checking the sensors"),
            State::Setup => f.write_str("setup: waiting for Start"),
            State::WaitEmpty => f.write_str("waiting for the board to be cleared"),
            State::Placing {
                square,
                colour: c,
                attempt,
                ..
            } => write!(
                f,
                "placing a {} piece on square {} (attempt {attempt})",
                colour(c),
                square.index() + 1
            ),
            State::Verifying {
                square, attempt, ..
            } => write!(
                f,
                "checking the piece on square {} (attempt {attempt})",
                square.index() + 1
            ),
            State::HumanTurn => f.write_str("the person's turn: move a piece, then press Done"),
            State::Checking => f.write_str("reading the board"),
            State::Restoring { from, to, attempt } => write!(
                f,
                "putting the piece moved to square {} back on square {} (attempt {attempt})",
                from.index() + 1,
                to.index() + 1
            ),
            State::VerifyingRestore { to, attempt, .. } => write!(
                f,
                "checking the piece put back on square {} (attempt {attempt})",
                to.index() + 1
            ),
            #[cfg(feature = "games")]
            State::Capturing {
                square, attempt, ..
            } => write!(
                f,
                "taking the captured piece off square {} (attempt {attempt})",
                square.index() + 1
            ),
            State::Error(problem) => write!(f, "error light: {problem}"),
            State::Over(Some(true)) => f.write_str("game over: the machine won"),
            State::Over(Some(false)) => f.write_str("game over: the machine lost"),
            State::Over(None) => f.write_str("game over: a draw"),
            State::TaskDone => f.write_str("the placement task is done"),
            State::TaskEntry(_) => f.write_str("a task is being entered with the buttons"),
            State::CalibratingSensors { step } => {
                write!(f, "calibrating the sensors (step {})", step + 1)
            }
            State::CalibratingPose(_) => f.write_str("calibrating the board's position"),
        }
    }
}
