//! # tictable-machine
//!
//! The logic of a tic-tac-toe playing machine, hardware-agnostic: `no_std`, no
//! allocation, over the embedded-hal 1.0 traits and `nb`, playing with the
//! [`tictable`] engine.
//!
//! From the bottom up (each module imports only those above it in this list):
//!
//! - [`time`]: the millisecond clock: time elapsed on a wrapping tick counter, and
//!   the rule for a wait that must last at least its length in real time.
//! - [`hw`]: the hardware types every driver shares ([`hw::Rgbc`], [`hw::HwError`]).
//! - [`classify`]: per-square calibration and colour classification with margins.
//! - [`sensors`]: nine TCS34725 colour sensors behind two TCA9548A multiplexers,
//!   driven through the real `tcs3472` and `xca9548a` crates; [`bus_recovery`]:
//!   freeing a bus a slave holds stuck.
//! - [`scanner`]: a board reading trusted only when stable over several frames, with
//!   retries and per-square sensor faults.
//! - [`motion`]: the XY gantry (two STEP/DIR steppers), the Z lift, the electromagnet,
//!   the board pose and the storage columns.
//! - [`panel`]: debounced buttons, the lamp and the LEDs.
//! - [`model`]: what is saved: the game record, tasks, the setup, the [`model::Snapshot`].
//! - [`persist`]: the snapshot saved (fixed layout + CRC-32) into any
//!   `embedded-storage` flash, so a reset resumes the game.
//! - [`save_policy`]: when to save a snapshot (the firmware and the simulator alike).
//! - [`controller`]: the state machine that plays games with a person, split by
//!   sub-machine (game, task entry, pose and sensor calibration, recovery, lights).
//! - `sim` (feature `sim-core`, `no_std`; `sim` adds the std conveniences): the
//!   physical machine simulated at bus and pin level.
//! - feature `games` (`no_std`, no allocation): the six games (tic-tac-toe, misère,
//!   three men's morris, tapatan, achi, hexapawn) played perfectly from
//!   `tictable-games`' compiled best-move files read in place
//!   (`controller::TableChooser`), chosen with the Level button; the game's rules
//!   ([`controller::Rules`]) come from the move chooser.
//!
//! Every part is a small state machine polled from one super-loop with the current
//! time in milliseconds; nothing blocks except single I2C transfers.
//!
//! Errors follow embedded-hal's convention: each is an enum of kinds with `Display`
//! (squares numbered 1 to 9 for people), `core::error::Error`, `#[non_exhaustive]`,
//! and `defmt::Format` with the crate feature `defmt`.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod bus_recovery;
pub mod classify;
pub mod controller;
pub mod hw;
pub mod model;
pub mod motion;
pub mod panel;
pub mod persist;
pub mod save_policy;
pub mod scanner;
pub mod sensors;
#[cfg(feature = "sim-core")]
pub mod sim;
pub mod time;

/// The guided sensor calibration, moved to [`controller::sensor_calibration`]; this
/// path stays for one release.
pub use controller::sensor_calibration as guided;
pub use time::{elapsed_ms, wait_ticks, waited_ms};

/// The colour of a piece. Black moves first, so black is [`tictable::Player::X`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Colour {
    /// Black pieces: the first player (X).
    Black,
    /// White pieces: the second player (O).
    White,
}

impl Colour {
    /// The player this colour plays.
    ///
    /// ```
    /// use tictable::Player;
    /// use tictable_machine::Colour;
    /// assert_eq!(Colour::Black.player(), Player::X);
    /// ```
    pub const fn player(self) -> tictable::Player {
        match self {
            Colour::Black => tictable::Player::X,
            Colour::White => tictable::Player::O,
        }
    }

    /// The colour that plays `player`.
    pub const fn of(player: tictable::Player) -> Colour {
        match player {
            tictable::Player::X => Colour::Black,
            tictable::Player::O => Colour::White,
        }
    }

    /// The other colour.
    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// 0 for black, 1 for white (an index into per-colour arrays).
    pub const fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }
}

/// Writes `squares` for people: numbered 1 to 9, separated by commas ("1, 5, 9").
pub(crate) fn write_squares(
    f: &mut core::fmt::Formatter<'_>,
    squares: tictable::Squares,
) -> core::fmt::Result {
    for (i, s) in squares.into_iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", s.index() + 1)?;
    }
    Ok(())
}
