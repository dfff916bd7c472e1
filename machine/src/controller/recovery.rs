//! Recovery: the Error state ([`State::Error`]) and carrying on after a reset.
//!
//! In the Error state the machine waits until the board is fixed: put back as the
//! record has it, a failed placement done by hand, or the record plus one move of
//! the human's (who is to move); in a game whose pieces move, also the device's
//! own move made by hand after a reset cut it short, when Start or Done says so
//! and it is one the device could have chosen (`MoveChooser::could_choose`). A
//! motion fault waits for Start (a piece held meanwhile is let go after
//! [`MAGNET_HOLD_MS`]); an empty storage column for Start after a refill. [`Controller::snapshot`] and
//! [`Controller::resume`] carry a game or task across a reset: after homing it
//! goes through the Error state until the board matches the snapshot.
//!
//! Invariants: nothing here adds to the record but a move seen on the board; a
//! resumed snapshot's slot masks are cut to the slots that exist.

use super::game::{one_more, one_move_of};
use super::{Controller, Mode, MoveChooser, Problem, Snapshot, State, MAGNET_HOLD_MS};
#[cfg(feature = "games")]
use super::{GameRecord, Rules};
use crate::classify::Sensed;
use crate::model::{ResetCause, FULL_STOCK};
use crate::motion::{Lift, STORAGE_SLOTS};
use crate::panel::{Button, Presses};
use crate::scanner::BoardView;
use crate::waited_ms;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::Squares;

/// A snapshot that cannot be resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ResumeError {
    /// The controller already started.
    Running,
    /// The snapshot holds impossible values (more placements done than the task
    /// has, a storage slot that does not exist).
    Corrupt,
}

impl core::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ResumeError::Running => "the controller already started",
            ResumeError::Corrupt => "the snapshot holds impossible values",
        })
    }
}

impl core::error::Error for ResumeError {}

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// The state to save so that [`Controller::resume`] can carry on after a reset.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            sequence: 0,
            calibration: *self.hw.scanner.calibration(),
            pose: self.layout.pose,
            reset_cause: ResetCause::Unknown,
            setup: self.setup,
            record: self.record,
            mode: self.mode,
            active: self.active,
            stock: self.stock,
            suspect: self.suspect,
            pending: self.pending,
        }
    }

    /// Carries on from a saved snapshot; call once, before the first poll. After
    /// homing, a game or task in progress resumes as soon as the board matches it
    /// (a piece placed just before the reset is recognised).
    pub fn resume(&mut self, snap: &Snapshot) -> Result<(), ResumeError> {
        if self.started {
            return Err(ResumeError::Running);
        }
        let task_overdone = matches!(&snap.mode, Mode::Task { task, done } if *done > task.len);
        let bad_slot = matches!(snap.pending, Some((_, slot, _)) if slot as usize >= STORAGE_SLOTS);
        if task_overdone || bad_slot {
            return Err(ResumeError::Corrupt);
        }
        self.hw.scanner.set_calibration(snap.calibration);
        self.layout.pose = snap.pose;
        self.setup = snap.setup;
        self.record = snap.record;
        self.mode = snap.mode;
        self.active = snap.active;
        #[cfg(feature = "games")]
        {
            // A game this build or this chooser does not play: a fresh tic-tac-toe
            // game instead, said with the lights once homed (`ready`).
            let mut refused = snap.record.refused_game();
            if refused.is_none() && !self.chooser.set_rules(snap.record.game()) {
                refused = Some(snap.record.game().code());
            }
            if let Some(code) = refused {
                self.chooser.set_rules(Rules::TicTacToe);
                self.record = GameRecord::new();
                self.mode = Mode::Game;
                self.active = false;
                self.refused_game = Some(code);
                self.pending = None;
                let ([s0, s1], [e0, e1]) = (snap.stock, snap.suspect);
                self.stock = [s0 & FULL_STOCK, s1 & FULL_STOCK];
                self.suspect = [e0 & FULL_STOCK, e1 & FULL_STOCK];
                return Ok(());
            }
        }
        let ([s0, s1], [e0, e1]) = (snap.stock, snap.suspect);
        self.stock = [s0 & FULL_STOCK, s1 & FULL_STOCK];
        self.suspect = [e0 & FULL_STOCK, e1 & FULL_STOCK];
        self.pending = snap.pending;
        Ok(())
    }

    /// One poll in the error state (the machine is idle: errors wait for a park to
    /// end, see [`Controller::poll_at`]).
    pub(super) fn poll_error(&mut self, problem: Problem, presses: Presses, now_ms: u32) {
        let start = presses.contains(Button::Start);
        match problem {
            Problem::Motion(_) => {
                // Start homes again (the record is kept). Nobody for a while: the
                // magnet lets go (see `MAGNET_HOLD_MS`; its pin, if it failed,
                // shows in the next homing).
                if start {
                    self.started = false;
                } else if waited_ms(now_ms, self.entered_ms, MAGNET_HOLD_MS) {
                    let _ = self.hw.machine.release();
                }
            }
            #[cfg(feature = "games")]
            Problem::UnknownGame(_) => {
                if start {
                    self.enter(State::Setup);
                }
            }
            Problem::StorageEmpty => {
                if start {
                    // Storage refilled by hand.
                    self.refill();
                    self.next_turn(now_ms);
                }
            }
            _ => {
                self.acknowledged |= start || presses.contains(Button::Done);
                let Some(view) = self.scan(now_ms) else {
                    return;
                };
                // Hexapawn's set-up done by hand, whatever went wrong in it.
                #[cfg(feature = "games")]
                if self.active && self.mode == Mode::Game && self.set_up_by_hand(&view, now_ms) {
                    return;
                }
                let base = self.base_view();
                let revision = self.revision;
                match (problem, self.pending) {
                    (Problem::BoardNotEmpty | Problem::Abandoned, _) => {
                        if view != BoardView::EMPTY {
                        } else if self.active {
                            self.next_turn(now_ms);
                        } else {
                            self.enter(State::Setup);
                        }
                    }
                    // Fixed when a person puts the piece there by hand; for a
                    // stray or missed piece also when it is removed (the board
                    // pushed back or the pose recalibrated): placed again. A
                    // stray with the piece on its square may lie where no sensor
                    // sees it: done when the person says so (Done or Start).
                    (
                        Problem::PlacementFailed(square)
                        | Problem::StrayPiece(square)
                        | Problem::Recalibrate(square),
                        Some((colour, ..)),
                    ) => {
                        if view == self.expected_view() {
                            if self.acknowledged || !matches!(problem, Problem::StrayPiece(_)) {
                                self.placement_done(square, now_ms);
                            }
                        } else if view == base && !matches!(problem, Problem::PlacementFailed(_)) {
                            self.begin_placement(square, colour, now_ms);
                        } else if self.acknowledged
                            && matches!(problem, Problem::StrayPiece(_))
                            && one_more(base, colour, view)
                        {
                            // A person says the piece is where it should be (where
                            // they saw the head put it down), yet it lies on another
                            // square: the board moved by a square or more.
                            self.fail(Problem::Recalibrate(square));
                        }
                    }
                    // Resuming after a reset during a placement.
                    (_, Some((colour, slot, square))) if view != base => {
                        let mut placed = base;
                        placed.set(square, Sensed::Piece(colour));
                        if view == placed {
                            self.placed(colour, slot, false, square, now_ms);
                        } else if one_more(base, colour, view) {
                            // Its piece lies on another square: the stray again
                            // (another fault was shown since, or a reset came
                            // between), not a plain mismatch a person cannot read.
                            self.slot_emptied(colour, slot, false);
                            self.fail(Problem::StrayPiece(square));
                        } else {
                            self.fixed_by_human(view, now_ms);
                        }
                    }
                    (_, Some((colour, slot, square))) => {
                        // It never arrived: it may still be in its slot, or have
                        // fallen where no sensor sees it. The board is as the game
                        // left it, so the placement starts again (the slot only
                        // suspected empty), for the same square: a person who saw
                        // the head go there and puts the piece on it by hand
                        // meanwhile is right (a move chosen anew could differ).
                        self.slot_emptied(colour, slot, true);
                        self.begin_placement(square, colour, now_ms);
                    }
                    // The board moved (a capture's piece the magnet missed
                    // every time, the board as the record has it): captured
                    // again once a person pushed it back and says so.
                    #[cfg(feature = "games")]
                    (Problem::Recalibrate(_), None) if view == base && !self.acknowledged => {}
                    // No round running (abandoned, and another fault shown
                    // since): an empty board goes back to Setup, never to a
                    // turn of a game nobody started.
                    (_, None) if !self.active => {
                        if view == BoardView::EMPTY {
                            self.enter(State::Setup);
                        }
                    }
                    (_, None) => {
                        if view == base {
                            self.next_turn(now_ms);
                        } else {
                            self.fixed_by_human(view, now_ms);
                        }
                    }
                }
                // Still wrong: a board that does not match names the squares the
                // sensors cannot read (a piece off-centre after a power cut dropped
                // it, a hand) so a person knows which piece to centre; the plain
                // mismatch shows once every square reads clearly again.
                let shown = match problem {
                    Problem::Mismatch => Squares::EMPTY,
                    Problem::Unclear(s) => s,
                    _ => return,
                };
                let unclear = view.untrusted();
                // (Nothing above changed the state: the revision did not move.)
                if self.revision == revision && unclear != shown {
                    self.fail(if unclear.is_empty() {
                        Problem::Mismatch
                    } else {
                        Problem::Unclear(unclear)
                    });
                }
            }
        }
    }

    /// Back to the game when `view` is the record plus one move of the human's, who
    /// is to move: the human presses the button for a move made.
    pub(super) fn fixed_by_human(&mut self, view: BoardView, now_ms: u32) {
        #[cfg(feature = "games")]
        if !self.record.game().places_only() {
            if self.mode != Mode::Game {
            } else if self.one_move_seen(&view) {
                self.next_turn(now_ms);
            } else if let Some((from, to)) = self.unfinished_slide(&view) {
                // A reset between the slide's record and its arrival: the
                // machine finishes its own slide (not once it gave the slide
                // up: a board that moved, say, waits for a person).
                self.sliding = true;
                self.placement_started = now_ms;
                self.start_restore(from, to, 1);
            } else if let Some(mv) = self.own_move_by_hand(&view) {
                // A reset between the device's move chosen and its record on
                // flash (a capture under way, say), the person making it by hand
                // as they saw it begun: the device's move, when it is one the
                // device could have chosen (never a move that gives value away).
                let _ = self.record.push_move(mv);
                self.next_turn(now_ms);
            } else if self.capture_undone(&view) {
                // A capture whose pawn never arrived, its piece put back by
                // the person: the device moves again from that board.
                self.record = self.record_before_last();
                self.next_turn(now_ms);
            }
            return;
        }
        let human = self.device_colour().other();
        if self.mode == Mode::Game
            && !self.devices_turn()
            && one_move_of(self.record.board(), human, view)
        {
            self.next_turn(now_ms);
        }
    }
}
