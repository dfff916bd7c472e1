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
//! - A game whose table does not read back (flash damaged: [`MoveChooser::set_rules`]
//!   checks it at each choice) is skipped: the machine goes on to the next game
//!   whose table does, the record's game with it, and shows that game with the
//!   Error light; the first press checks the game in use the same way. Level again
//!   chooses on from there. The chooser never switches without the record
//!   (asking whether it plays another game switches nothing: [`MoveChooser::plays`]).
//! - Level is never a level button while it is the game button: after a game or
//!   task it brings Setup's lights back, and steps no level.
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
    /// again. The presses left for [`Controller::poll_setup`]: Level taken whenever
    /// it is the game button, so that it never steps a level in a game build whose
    /// chooser plays several games (firmware/README.md's light table).
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
            (self.show_game, self.choice_failed) = (false, false);
        }
        // A chooser of one game keeps Level for its levels.
        if !presses.contains(Button::Level) || !self.plays_another_game() {
            return presses;
        }
        // After a game or task Level first brings the setup's lights back, as in
        // every image (the virtual board's operator relies on it); in Setup the
        // first press shows the game (switching on when its table no longer reads
        // back), each further one switches to the next.
        if matches!(self.state, State::Setup) {
            let current = self.chooser.rules();
            if self.show_game || !self.chooser.set_rules(current) {
                let failed = !self.show_game;
                self.next_game(failed);
            }
            self.show_game = true;
        }
        self.enter(State::Setup);
        presses.without(Button::Level)
    }

    /// Switches the chooser, and the record's game with it (saved with the
    /// snapshot's game byte), to the next game after its own (by [`Rules::code`],
    /// round) whose table reads back ([`MoveChooser::set_rules`] checks it). A game
    /// whose table does not is skipped, and the choice is said to have failed
    /// (`choice_failed`: the Error light with the game shown), as it is when
    /// `failed` (the game in use no longer reads back). Round to the game in use,
    /// checked again; when no game's table reads back at all the chooser and the
    /// record stay on the game in use, the Error light on (a game started then
    /// stops with the error light at the machine's first move: no move is guessed).
    fn next_game(&mut self, failed: bool) {
        let current = self.chooser.rules();
        let all = Rules::ALL;
        let at = usize::from(current.code()) - 1;
        self.choice_failed = failed;
        for k in 1..=all.len() {
            let Some(&next) = all.get((at + k) % all.len()) else {
                continue;
            };
            if self.chooser.set_rules(next) {
                if next != self.record.game() {
                    self.record = GameRecord::of_game(next);
                }
                return;
            }
            self.choice_failed = true;
        }
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

    /// Whether the chooser is built to play a game besides its own (Level is the
    /// game button): [`MoveChooser::plays`], which switches nothing (the chooser
    /// stays on the game in use whatever the tables read).
    fn plays_another_game(&self) -> bool {
        let current = self.chooser.rules();
        Rules::ALL
            .into_iter()
            .any(|r| r != current && self.chooser.plays(r))
    }
}
