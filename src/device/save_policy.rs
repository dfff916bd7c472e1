//! When to save a snapshot: the one rule the firmware's super-loop and the
//! simulator's runner both follow.
//!
//! A snapshot is due when the controller changed since the last save (its
//! [`Controller::revision`](super::controller::Controller::revision) moved) and
//! either
//!
//! - the gantry is idle: erasing a flash page stalls the CPU for 20–40 ms, and the
//!   steps that fall due meanwhile would come out in one burst a real stepper does
//!   not follow, so changes made while the gantry moves wait for it to stop; or
//! - a placement has just started ([`State::Placing`]): the piece is about to leave
//!   its storage slot, and the flash must say so (the snapshot's pending placement)
//!   *before* it does. The head is then at rest or just accelerating from rest, so
//!   the few steps due during the erase are slow ones.
//!
//! Why the second case: saved only when idle, the snapshot on flash during a
//! transfer still described the turn before it (no pending placement, the storage
//! slot still believed full). A power cut drops the carried piece where the head
//! is, often between squares or beside the board where no sensor sees it fully;
//! after the restart the controller saw the board equal to the game, chose its move
//! again and played it with the next piece, and the dropped piece stayed on the
//! board, off its square. With the pending placement on flash the restarted
//! controller knows a piece went missing, shows the error until a person has put it
//! on its square and clears its slot from the stock.
//!
//! ```
//! use tictable::device::controller::State;
//! use tictable::device::save_policy::save_due;
//!
//! // Nothing saved yet: save as soon as the gantry is idle.
//! assert!(save_due(1, None, false, State::Setup));
//! // Saved already: nothing to do.
//! assert!(!save_due(1, Some(1), false, State::Setup));
//! // A change while the gantry moves waits for it to stop...
//! assert!(!save_due(2, Some(1), true, State::HumanTurn));
//! ```
//!
//! The firmware's super-loop, in outline (the simulator's runner does the same):
//!
//! ```text
//! controller.poll_at(ms, us);
//! let busy = controller.hardware().machine.is_busy();
//! if save_due(controller.revision(), saved, busy, controller.state()) {
//!     saved = Some(controller.revision());
//!     let _ = store.save(&controller.snapshot());   // a failed save is retried at the next change
//! }
//! ```

use super::controller::State;

/// Whether to save a snapshot now: the controller's `revision` differs from the
/// `last_saved` one, and the gantry is idle (`busy` false) or a placement has just
/// started (`state` is [`State::Placing`]). See the [module docs](self) for why.
///
/// ```
/// use tictable::device::controller::State;
/// use tictable::device::save_policy::save_due;
/// use tictable::device::Colour;
/// use tictable::Square;
///
/// let placing = State::Placing { square: Square::CENTRE, colour: Colour::Black, attempt: 1, slot: 0 };
/// // The placement starts the gantry: saved at once, with the pending placement.
/// assert!(save_due(7, Some(6), true, placing));
/// // Once saved, not again while it moves.
/// assert!(!save_due(7, Some(7), true, placing));
/// ```
pub fn save_due(revision: u32, last_saved: Option<u32>, busy: bool, state: State) -> bool {
    last_saved != Some(revision) && (!busy || matches!(state, State::Placing { .. }))
}
