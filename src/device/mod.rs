//! The playing machine's logic, hardware-agnostic (feature `device`): `no_std`, no
//! allocation, over the embedded-hal 1.0 traits and `nb`.
//!
//! - [`classify`]: per-square calibration and colour classification with margins.
//! - [`sensors`]: nine TCS34725 colour sensors behind two TCA9548A multiplexers,
//!   driven through the real `tcs3472` and `xca9548a` crates.
//! - [`scanner`]: a board reading trusted only when stable over several frames, with
//!   retries and per-square sensor faults.
//! - [`motion`]: the XY gantry (two STEP/DIR steppers), the Z lift, the electromagnet,
//!   the board pose and the storage columns.
//! - [`panel`]: debounced buttons, the lamp and the LEDs.
//! - [`controller`]: the state machine that plays games with a person.
//! - [`guided`]: the guided sensor calibration (steps shown on the lights).
//! - [`persist`]: calibration and game in progress saved (fixed layout + CRC-32) into
//!   any `embedded-storage` storage, so a reset resumes the game.
//! - [`save_policy`]: when to save a snapshot (the firmware and the simulator alike).
//! - `sim` (feature `sim`): the physical machine simulated at bus and pin level.
//!
//! Every part is a small state machine polled from one super-loop with the current
//! time in milliseconds; nothing blocks except single I2C transfers.

pub mod classify;
pub mod controller;
pub mod guided;
pub mod motion;
pub mod panel;
pub mod persist;
pub mod save_policy;
pub mod scanner;
pub mod sensors;
#[cfg(feature = "sim-core")]
pub mod sim;

/// The colour of a piece. Black moves first, so black is [`crate::Player::X`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// use tictable::{device::Colour, Player};
    /// assert_eq!(Colour::Black.player(), Player::X);
    /// ```
    pub const fn player(self) -> crate::Player {
        match self {
            Colour::Black => crate::Player::X,
            Colour::White => crate::Player::O,
        }
    }

    /// The colour that plays `player`.
    pub const fn of(player: crate::Player) -> Colour {
        match player {
            crate::Player::X => Colour::Black,
            crate::Player::O => Colour::White,
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

/// Milliseconds elapsed from `since` to `now` on a wrapping `u32` millisecond clock.
#[inline]
pub const fn elapsed_ms(now: u32, since: u32) -> u32 {
    now.wrapping_sub(since)
}
