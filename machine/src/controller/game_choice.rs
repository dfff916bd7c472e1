//! Choosing the game with the panel's buttons (feature `games`): the Level button is
//! the game button when the move chooser plays more than one game (a
//! [`TableChooser`](super::TableChooser); a chooser of one game keeps Level for its
//! levels).
//!
//! - In Setup (after a game or task, the first Level press brings Setup's lights
//!   back, as in every image): Level shows the game, both turn lights with
//!   its number 1-6 in binary on Lamp (1), Win (2), Draw (4) and Loss (8); each
//!   further press switches to the next game the chooser plays (by [`Rules::code`],
//!   round to tic-tac-toe). Side, First square, Done or Start show the setup's lights
//!   again (the setup's lights are those of the tic-tac-toe image until Level is
//!   pressed). The choice is the game record's game, so the snapshot's game byte
//!   keeps it across a power cut.
//! - In the person's turn of a game: Level asks for confirmation, every light on;
//!   Level again within [`CONFIRM_GAME_MS`] ends the game (as holding Start does: the
//!   board to clear, then Setup to choose); any other button or the time going by
//!   goes on with the game, nothing changed. Never a silent reset.
//!
//! Documented for people in `firmware/README.md`, "Buttons and lights".

use super::{Controller, GameRecord, MoveChooser, Rules, State};
use crate::motion::Lift;
use crate::panel::{Button, Presses};
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;

/// How long the confirmation to end a game waits for the second Level press, ms.
pub const CONFIRM_GAME_MS: u32 = 10_000;

/// The lights asking to confirm the end of a game: all seven (no other pattern
/// lights them all: the error patterns' numbers with both turn lights go to 9).
pub const CONFIRM_GAME_LIGHTS: u8 = 0x7f;

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// Setup, a finished game or task: Level shows the game, then switches it (when
    /// the chooser plays another); Side, First square, Done and Start show the setup
    /// again. The presses left for [`Controller::poll_setup`] (Level taken when it
    /// is the game button).
    pub(super) fn choose_game(&mut self, presses: Presses) -> Presses {
        if [
            Button::Side,
            Button::FirstSquare,
            Button::Done,
            Button::Start,
        ]
        .into_iter()
        .any(|b| presses.contains(b))
        {
            self.show_game = false;
        }
        // After a game or task Level first brings the setup's lights back, as in
        // every image (the virtual board's operator relies on it); a chooser of one
        // game keeps Level for its levels.
        let in_setup = matches!(self.state, State::Setup);
        if !presses.contains(Button::Level) || !in_setup || !self.plays_another_game() {
            return presses;
        }
        if self.show_game {
            if let Some(next) = self.next_game() {
                // The choice is the record's game: saved with the snapshot's game byte.
                self.record = GameRecord::of_game(next);
            }
        }
        // The first press shows the game, each further one switches to the next.
        self.show_game = true;
        self.enter(State::Setup);
        presses.without(Button::Level)
    }

    /// Switches the chooser to the next game after its own that it plays (by
    /// [`Rules::code`], round); `None`, the game unchanged, when it plays no other.
    fn next_game(&mut self) -> Option<Rules> {
        let current = self.chooser.rules();
        let all = Rules::ALL;
        let at = usize::from(current.code()) - 1;
        let next = (1..all.len())
            .filter_map(|k| all.get((at + k) % all.len()).copied())
            .find(|&r| self.chooser.set_rules(r));
        if next.is_none() {
            self.chooser.set_rules(current);
        }
        next
    }

    /// The person's turn: Level asks to end the game, a second Level within
    /// [`CONFIRM_GAME_MS`] ends it, anything else goes on. `true` when the presses
    /// were taken (the turn's own handling skipped).
    pub(super) fn confirm_game_end(&mut self, presses: Presses, now_ms: u32) -> bool {
        let Some(since) = self.confirm_since else {
            if !presses.contains(Button::Level) || !self.plays_another_game() {
                return false;
            }
            self.confirm_since = Some(now_ms);
            self.lights();
            return true;
        };
        if presses.contains(Button::Level) {
            self.confirm_since = None;
            self.abandon(now_ms);
        } else if !presses.is_empty() || crate::elapsed_ms(now_ms, since) >= CONFIRM_GAME_MS {
            // Cancelled (a button, Done too, is only the answer) or timed out.
            self.confirm_since = None;
            self.lights();
        }
        true
    }

    /// Whether the chooser plays a game besides its own (Level is the game button).
    fn plays_another_game(&mut self) -> bool {
        let current = self.chooser.rules();
        let other = Rules::ALL
            .into_iter()
            .any(|r| r != current && self.chooser.set_rules(r));
        self.chooser.set_rules(current);
        other
    }
}
