//! When to save a snapshot: the one rule the firmware's super-loop and the
//! simulator's runner both follow.
//!
//! A snapshot is due when the controller changed since the last save (its
//! [`Controller::revision`](super::controller::Controller::revision) moved) and
//!
//! - the gantry is idle; or
//! - the gantry started moving in this very pass (the head is still at rest: a
//!   placement, a restore or a park has just begun, and the change that started
//!   it, such as the end of a game, is saved with it); or
//! - a placement is under way ([`State::Placing`]) and not saved yet: the piece
//!   leaves its storage slot, and the flash must say so (the snapshot's pending
//!   placement) before it can fall anywhere.
//!
//! Other changes while the gantry moves wait for it to stop: erasing a flash page
//! stalls the CPU for 20–40 ms, and the move stops dead for that long and goes on
//! at the speed it had (the firmware's millisecond clock pauses through the stall,
//! so no burst of the steps due meanwhile follows: `firmware/src/clock.rs`), a stop
//! and restart that a real stepper at speed does not follow. Right after a move
//! starts the head is at rest or just accelerating, so the few steps due are slow
//! ones.
//!
//! Why not "only when idle" (the firmware's rule before): the snapshot on flash
//! during a transfer then still described the turn before it (no pending
//! placement, the storage slot still believed full). A power cut drops the carried
//! piece where the head is; after the restart the controller either saw its own
//! piece on a square the game has empty (Mismatch, and no person can tell it
//! otherwise) or saw the board equal to the game, played its move again with the
//! next piece and left the dropped one off its square (`a_power_cut_at_every_step_
//! of_a_game_resumes_it`, seed 4). Likewise the end of a game, entered as the head
//! starts to park, was never saved when the next game started before the park
//! ended: a cut then resumed the previous game on an empty board.
//!
//! ```
//! use tictable_machine::controller::State;
//! use tictable_machine::save_policy::SavePolicy;
//!
//! let mut policy = SavePolicy::new();
//! // Nothing saved yet, gantry idle: save.
//! assert!(policy.due(1, false, State::Setup));
//! // Saved already: nothing to do.
//! assert!(!policy.due(1, false, State::Setup));
//! // A move starts with a change: saved at once (the head is at rest)...
//! assert!(policy.due(2, true, State::HumanTurn));
//! // ...a later change while it moves waits for it to stop.
//! assert!(!policy.due(3, true, State::Checking));
//! assert!(policy.due(3, false, State::Checking));
//! ```
//!
//! The simulator's runner, in outline (the firmware's super-loop makes the same
//! check at the start of each pass, before its poll: on the state the previous
//! poll left, so its first save, the boot's, comes before the poll that starts
//! homing, and the page erase it may need stalls no homing move):
//!
//! ```text
//! controller.poll_at(ms, us);
//! let busy = controller.hardware().machine.is_busy();
//! if policy.due(controller.revision(), busy, controller.state()) {
//!     let _ = store.save(&controller.snapshot());   // a failed save is retried at the next change
//! }
//! ```

use super::controller::State;

/// The snapshot rule ([module docs](self)): remembers the revision saved last
/// and whether the gantry was moving at the last pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SavePolicy {
    saved: Option<u32>,
    was_busy: bool,
}

impl SavePolicy {
    /// Nothing saved yet (after a reset: save once the machine allows).
    pub const fn new() -> SavePolicy {
        SavePolicy {
            saved: None,
            was_busy: false,
        }
    }

    /// Call once per pass, between two of the controller's polls: whether to save a snapshot
    /// of `revision` now (then counted as saved: a failed save is not retried
    /// until the next change). `busy`: the gantry is moving; `state`: the
    /// controller's state.
    ///
    /// ```
    /// use tictable_machine::controller::State;
    /// use tictable_machine::save_policy::SavePolicy;
    /// use tictable_machine::Colour;
    /// use tictable::Square;
    ///
    /// let placing = State::Placing { square: Square::CENTRE, colour: Colour::Black, attempt: 1, slot: 0 };
    /// let mut policy = SavePolicy::new();
    /// assert!(policy.due(0, true, State::Starting)); // homing starts: saved at once
    /// assert!(!policy.due(1, true, State::Checking)); // a change while moving waits
    /// // A placement started while the gantry still parked: saved at once.
    /// assert!(policy.due(2, true, placing));
    /// assert!(!policy.due(2, true, placing));
    /// ```
    #[inline(never)]
    pub fn due(&mut self, revision: u32, busy: bool, state: State) -> bool {
        // Busy since the last pass, not placing: a change waits for the gantry.
        let waits = busy && self.was_busy && !matches!(state, State::Placing { .. });
        self.was_busy = busy;
        if waits || self.saved == Some(revision) {
            return false;
        }
        self.saved = Some(revision);
        true
    }
}
