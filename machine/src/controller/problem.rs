//! [`Problem`]: why the machine stopped with the Error light, in words for people
//! and as the light pattern the panel shows (`firmware/README.md` has the table).

use super::lights;
use crate::motion::MotionError;
use crate::write_squares;
use core::fmt;
use tictable::{Square, Squares};

/// What needs fixing: the reason for [`State::Error`](super::State::Error). Its `Display` is for
/// people (squares numbered 1 to 9).
///
/// ```
/// use tictable_machine::controller::Problem;
/// use tictable::{Square, Squares};
/// let p = Problem::Unclear(Squares::from_bits(0b1_0000_0001));
/// assert_eq!(p.to_string(), "unclear reading on square 1, 9");
/// assert_eq!(Problem::PlacementFailed(Square::CENTRE).to_string(),
///            "the piece for square 5 did not arrive: put it there by hand");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Problem {
    /// Sensors that do not answer.
    SensorFault(Squares),
    /// Squares with an ambiguous reading (a piece off-square, a hand...).
    Unclear(Squares),
    /// The board is not empty at the start of a game.
    BoardNotEmpty,
    /// The board differs from the game record in a way that is not one move.
    Mismatch,
    /// The device's piece did not arrive after every attempt the time budget
    /// allowed (or a power cut came while it was carried): a person takes a piece
    /// stuck on the magnet off and puts one on its square by hand.
    PlacementFailed(Square),
    /// The piece for the square fell somewhere else (dropped in transit): a person
    /// removes the stray piece; the device then places again from storage. A
    /// person who presses Done or Start while the piece still lies whole on
    /// another square is told that the board moved ([`Problem::Recalibrate`]).
    StrayPiece(Square),
    /// Placements missed their square repeatedly (the board was bumped): a person
    /// pushes the board back into place or recalibrates the pose, and removes the
    /// piece that missed; the device then places again.
    Recalibrate(Square),
    /// The game or task was abandoned (Start held): a person clears the board.
    Abandoned,
    /// The device has no piece left in storage.
    StorageEmpty,
    /// The mechanism failed (press Start to home again).
    Motion(MotionError),
    /// The saved game's number is no game of this build (or one its chooser
    /// cannot play): a fresh tic-tac-toe game instead (press Start).
    #[cfg(feature = "games")]
    UnknownGame(u8),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::SensorFault(s) => {
                f.write_str("no answer from the sensor of square ")?;
                write_squares(f, *s)
            }
            Problem::Unclear(s) => {
                f.write_str("unclear reading on square ")?;
                write_squares(f, *s)
            }
            Problem::BoardNotEmpty => f.write_str("the board is not empty"),
            Problem::Mismatch => f.write_str("the board does not match the game"),
            Problem::PlacementFailed(s) => write!(
                f,
                "the piece for square {} did not arrive: put it there by hand",
                s.index() + 1
            ),
            Problem::StrayPiece(s) => write!(
                f,
                "the piece for square {} fell elsewhere: remove the stray piece",
                s.index() + 1
            ),
            Problem::Recalibrate(s) => write!(
                f,
                "placements miss their squares: push the board back or recalibrate \
                 the pose, then remove the piece near square {}",
                s.index() + 1
            ),
            Problem::Abandoned => f.write_str("abandoned: clear the board"),
            Problem::StorageEmpty => f.write_str("no piece left in storage"),
            Problem::Motion(e) => write!(f, "mechanism: {e}"),
            #[cfg(feature = "games")]
            Problem::UnknownGame(code) => write!(
                f,
                "the saved game (number {code}) is unknown: a new tic-tac-toe game, press Start"
            ),
        }
    }
}

impl Problem {
    /// The lights that show the problem (a mask for
    /// [`Panel::show_mask`](crate::panel::Panel::show_mask)): always Error, plus
    /// a pattern telling which problem it is (the table in `firmware/README.md`).
    /// A problem on a square shows its number 1..=9 in binary on Lamp (1), Win
    /// (2), Draw (4) and Loss (8), and which problem by the turn lights:
    /// DeviceTurn for a sensor fault, HumanTurn for an unclear reading, both for
    /// a failed placement. The problems without a square light neither turn light and a number 10..=15
    /// (or none, 0, for a mismatch). Every problem has its own pattern.
    ///
    /// ```
    /// use tictable_machine::controller::Problem;
    /// use tictable_machine::panel::Light;
    /// assert_eq!(Problem::Mismatch.lights(), Light::Error.bit());
    /// // Clear the board: Error with all three result lights.
    /// assert_eq!(Problem::Abandoned.lights(),
    ///            Light::Error.bit() | Light::Win.bit() | Light::Draw.bit() | Light::Loss.bit());
    /// ```
    pub fn lights(&self) -> u8 {
        use crate::panel::Light::{DeviceTurn, Error, HumanTurn};
        let (turn, number) = match self {
            Problem::SensorFault(s) => (DeviceTurn.bit(), first_number(*s)),
            Problem::Unclear(s) => (HumanTurn.bit(), first_number(*s)),
            Problem::PlacementFailed(s) => (DeviceTurn.bit() | HumanTurn.bit(), s.index() + 1),
            Problem::Mismatch => (0, 0),
            Problem::StrayPiece(_) => (0, 10),
            Problem::Motion(_) => (0, 11),
            Problem::Recalibrate(_) => (0, 12),
            Problem::StorageEmpty => (0, 13),
            Problem::Abandoned => (0, 14),
            Problem::BoardNotEmpty => (0, 15),
            // Error + Lamp + Win: number 3 with no turn light, no other pattern's.
            #[cfg(feature = "games")]
            Problem::UnknownGame(_) => (0, 3),
        };
        Error.bit() | turn | lights::number_lights(number)
    }
}

/// The number (1..=9) of the first square of `squares`, 0 for none.
fn first_number(squares: Squares) -> u8 {
    squares.first().map_or(0, |s| s.index() + 1)
}
