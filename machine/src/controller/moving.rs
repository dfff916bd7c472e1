//! The turns of the games whose pieces move once placed (three men's morris,
//! tapatan, achi; `games` feature): the end by the record (the rules, a third
//! occurrence, 64 plies), the device's slide and the person's move read from the
//! board. A slide is recorded, then carried with the restore primitive (lift on
//! `from`, carry, release on `to`, verified by the sensors against the record,
//! retried as a restore is); the person's move is the one legal child whose view
//! is the board's (`Rules::move_seen`), anything else a moved device piece put
//! back or the error light.

use super::{
    Controller, GameRecord, Move, MoveChooser, Position, Problem, State, PLACEMENT_BUDGET_MS,
    PLACE_ATTEMPTS, VERIFY_MS,
};
use crate::classify::Sensed;
use crate::elapsed_ms;
use crate::model::capture_slot;
use crate::motion::Lift;
use crate::scanner::BoardView;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::{Square, Squares};

/// Pawns a hexapawn side starts with.
const PAWNS: usize = 3;

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// The next turn of a moving game: hexapawn's set-up, over, the person's, or
    /// the device's move.
    pub(super) fn next_turn_moving(&mut self, now_ms: u32) {
        if let Some(placed) = self.setting_up {
            // The device's pawns from storage onto their home squares, one by one,
            // each a verified placement; then the person sets theirs (both turn
            // lights) and presses Done.
            let home = self.devices(&self.record.game().start()) & !placed;
            match Squares::from_bits(home).first() {
                Some(square) => self.begin_placement(square, self.device_colour(), now_ms),
                None => self.enter(State::HumanTurn),
            }
            return;
        }
        if self.over_or_humans_turn(self.record.outcome().map(|e| e.winner()), now_ms) {
            return;
        }
        let (game, p) = (self.record.game(), self.record.position());
        // A move that is not legal here is a chooser bug: the error light, not a
        // move nobody chose (the table's chooser never does this).
        let chosen = self
            .chooser
            .choose_move(&p)
            .filter(|&mv| game.play(&p, mv).is_some());
        match chosen {
            Some(Move::Place(square)) => self.begin_placement(square, self.device_colour(), now_ms),
            // A capture (a hexapawn pawn onto the person's): the captured piece
            // is carried off first, then the pawn moves (one move, timed as one).
            Some(Move::Pawn { from, to }) if (p.x | p.o) & to.bit() != 0 => {
                stat!(self.stats.slides += 1);
                self.placement_started = now_ms;
                self.start_capture(from, to, 1);
            }
            Some(mv @ (Move::Slide { .. } | Move::Pawn { .. })) => {
                stat!(self.stats.slides += 1);
                self.placement_started = now_ms;
                self.start_move(mv);
            }
            None => self.fail(Problem::Mismatch),
        }
    }

    /// The squares of the device's pieces in `p` (X's when it moves first).
    fn devices(&self, p: &Position) -> u16 {
        if self.setup.device_first {
            p.x
        } else {
            p.o
        }
    }

    /// Records the device's slide or pawn move and carries it with the restore
    /// primitive (lift on `from`, carry, release on `to`, verified against the
    /// record).
    fn start_move(&mut self, mv: Move) {
        let (Some(from), to) = (mv.from(), mv.to()) else {
            return self.fail(Problem::Mismatch);
        };
        if self.record.push_move(mv).is_err() {
            return self.fail(Problem::Mismatch);
        }
        self.slide_given_up = false;
        self.sliding = true;
        self.start_restore(from, to, 1);
    }

    /// Starts carrying the person's piece on `square` (to be captured by the
    /// device's pawn on `from`) to its capture place (see `capture_place`).
    fn start_capture(&mut self, from: Square, square: Square, attempt: u8) {
        let Some(tray) = self.capture_place() else {
            return self.fail(Problem::Mismatch);
        };
        let at = self.layout.pose.square_centre(square);
        match self.hw.machine.start_transfer(at, tray) {
            Ok(()) => self.enter(State::Capturing {
                from,
                square,
                attempt,
            }),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// The captured piece's carry has ended: off its square (the rest as the
    /// record has it), the capturing move follows; still there (a missed grip),
    /// tried again up to [`PLACE_ATTEMPTS`] times, then "the board moved" (the
    /// magnet missed it every time: a bumped board, whose pieces lie out of the
    /// magnet's reach; pushed back, Start captures again); anything else (it
    /// fell on the board, a person's hand) the error light, the board to be put
    /// back as before the capture.
    pub(super) fn poll_capturing(
        &mut self,
        from: Square,
        square: Square,
        attempt: u8,
        now_ms: u32,
    ) {
        let Some(view) = self.scan(now_ms) else {
            self.move_overdue(now_ms);
            return;
        };
        let base = self.base_view();
        let mut taken = base;
        taken.set(square, Sensed::Empty);
        if view == taken {
            self.start_move(Move::Pawn { from, to: square });
        } else if view == base
            && attempt < PLACE_ATTEMPTS
            && self.capture_retry_fits(from, square, now_ms)
        {
            stat!(self.stats.retries += 1);
            self.start_capture(from, square, attempt + 1);
        } else if view == base {
            self.park(now_ms);
            self.fail(Problem::Recalibrate(square));
        } else {
            self.park(now_ms);
            self.fail(Problem::Mismatch);
        }
    }

    /// The place of the capture to come: the `k`-th of the game goes to
    /// [`capture_slot`] `k`, `k` counted from the record (the person's pawns
    /// missing), so a restarted machine finds the same place.
    fn capture_place(&self) -> Option<crate::motion::Point> {
        let p = self.record.position();
        let theirs = (p.x | p.o) & !self.devices(&p);
        let taken = PAWNS.saturating_sub(theirs.count_ones() as usize);
        capture_slot(&self.layout.storage, self.device_colour().other(), taken)
    }

    /// The device's own move (a capture's carry, or its slide or pawn move
    /// being checked) still without a stable reading when its
    /// [`PLACEMENT_BUDGET_MS`] runs out: the error light then, as a placement's,
    /// not a move over 15 s (the board is judged again once it reads clearly).
    pub(super) fn move_overdue(&mut self, now_ms: u32) {
        let own = match self.state {
            State::Capturing { .. } => true,
            State::VerifyingRestore { .. } => self.sliding,
            _ => false,
        };
        if own && elapsed_ms(now_ms, self.placement_started) >= PLACEMENT_BUDGET_MS {
            stat!(self.stats.budget_stops += 1);
            self.fail(Problem::Mismatch);
        }
    }

    /// Whether another try of the capture on `square` (by the pawn on `from`)
    /// may start: the motion model's carry to its place and the pawn's move,
    /// each verified, end within the move's [`PLACEMENT_BUDGET_MS`].
    fn capture_retry_fits(&mut self, from: Square, square: Square, now_ms: u32) -> bool {
        let pose = &self.layout.pose;
        let (at, on) = (pose.square_centre(square), pose.square_centre(from));
        let m = &self.hw.machine;
        let carry = self
            .capture_place()
            .map_or(0, |t| m.transfer_ms(at, t, false));
        let ms = carry + m.transfer_ms(on, at, false);
        let fits =
            elapsed_ms(now_ms, self.placement_started) + ms + 2 * VERIFY_MS <= PLACEMENT_BUDGET_MS;
        stat!(self.stats.budget_stops += u32::from(!fits));
        fits
    }

    /// The view of hexapawn's set-up so far: the device's pawns on the home
    /// squares in `placed`.
    pub(super) fn set_up_so_far(&self, placed: u16) -> BoardView {
        let mut v = BoardView::EMPTY;
        for s in Squares::from_bits(placed) {
            v.set(s, Sensed::Piece(self.device_colour()));
        }
        v
    }

    /// In hexapawn's set-up, whether `view` shows the start (every pawn home):
    /// the set-up is over and the game begins.
    fn set_up_seen(&mut self, view: &BoardView) -> bool {
        let game = self.record.game();
        let done = self.setting_up.is_some() && *view == game.view(&game.start());
        if done {
            self.setting_up = None;
        }
        done
    }

    /// The board after the person's Done in a moving game.
    pub(super) fn check_human_moving(&mut self, view: BoardView, now_ms: u32) {
        let (game, p) = (self.record.game(), self.record.position());
        let base = self.base_view();
        if self.set_up_seen(&view) {
            self.next_turn(now_ms);
            return;
        }
        let d = self.device_colour();
        // Hexapawn's set-up: the device's pawns as placed, some of the person's
        // on their home squares: not all set yet, keep waiting.
        let start = game.view(&game.start()).pieces(d.other()).bits();
        let setting = self.setting_up.is_some()
            && view.pieces(d) == base.pieces(d)
            && view.pieces(d.other()).bits() & !start == 0;
        if view == base || setting {
            // Done without a move: keep waiting.
            self.enter(State::HumanTurn);
            return;
        }
        if let Some(mv) = game.move_seen(&p, &view) {
            // (In hexapawn's set-up: the person set up and made their first move.)
            self.setting_up = None;
            if self.record.push_move(mv).is_ok() {
                self.next_turn(now_ms);
            } else {
                self.fail(Problem::Mismatch);
            }
            return;
        }
        // One device piece moved, the person's as recorded: put it back.
        let (expected, seen) = (base.pieces(d).bits(), view.pieces(d).bits());
        let (missing, extra) = (
            Squares::from_bits(expected & !seen),
            Squares::from_bits(seen & !expected),
        );
        let humans_same = base.pieces(d.other()) == view.pieces(d.other());
        match (humans_same, extra.first(), missing.first()) {
            (true, Some(from), Some(to)) if missing.at_most_one() && extra.at_most_one() => {
                self.sliding = false;
                self.start_restore(from, to, 1)
            }
            _ => self.fail(Problem::Mismatch),
        }
    }

    /// Whether `view` shows one legal move of the person's from the record (a
    /// board put right after the error light with the person's move made), the
    /// game going on (not ended by a repetition or the length: a piece slipped
    /// onto a neighbouring point then is no move).
    pub(super) fn one_move_seen(&self, view: &BoardView) -> bool {
        let (game, p) = (self.record.game(), self.record.position());
        !self.devices_turn()
            && self.setting_up.is_none()
            && self.record.outcome().is_none()
            && game.move_seen(&p, view).is_some()
    }

    /// Back to the game after the error light when `view` shows hexapawn's
    /// start, set up by hand (the set-up under way).
    pub(super) fn set_up_by_hand(&mut self, view: &BoardView, now_ms: u32) -> bool {
        let done = self.set_up_seen(view);
        if done {
            // A pawn being placed stands there: its slot is empty.
            if let Some((colour, slot, _)) = self.pending.take() {
                self.slot_emptied(colour, slot, false);
            }
            self.next_turn(now_ms);
        }
        done
    }

    /// The device's last slide, when `view` shows it not made yet (its piece
    /// still on the point it leaves, everything else as the record says): a
    /// reset or another fault came between the slide's record and its arrival.
    pub(super) fn unfinished_slide(&self, view: &BoardView) -> Option<(Square, Square)> {
        // Started again on its own after a reset (a plain mismatch), else when a
        // person says so (Start or Done: after another fault, or the slide
        // given up with the board as before it).
        let plain = self.state == State::Error(Problem::Mismatch) && !self.slide_given_up;
        if self.devices_turn() || !(plain || self.acknowledged) {
            return None;
        }
        self.slide_not_made(view)
    }

    /// The device's move `view` shows made by hand from the record, the device
    /// to move, when a person says so (Start or Done) and the device's chooser
    /// could have chosen it ([`MoveChooser::could_choose`]).
    pub(super) fn own_move_by_hand(&self, view: &BoardView) -> Option<Move> {
        if !self.devices_turn()
            || !self.acknowledged
            || self.setting_up.is_some()
            || self.record.outcome().is_some()
        {
            return None;
        }
        let (game, p) = (self.record.game(), self.record.position());
        let mv = game.move_seen(&p, view)?;
        self.chooser.could_choose(&p, mv).then_some(mv)
    }

    /// Whether `view` shows the position before the device's last move, a
    /// capture, with the captured piece back on its square, when a person says
    /// so (Start or Done): the capture's pawn move failed after its piece was
    /// carried off (the board moved, say), and the person put the board back as
    /// they saw it last, the captured piece included. The move never arrived:
    /// it is taken off the record (it was recorded before it was carried) and
    /// the device moves again from the board as it is.
    pub(super) fn capture_undone(&self, view: &BoardView) -> bool {
        let n = self.record.len();
        if n == 0 || self.devices_turn() || !self.acknowledged {
            return false;
        }
        let Some(Move::Pawn { to, .. }) = self.record.plies().last() else {
            return false;
        };
        let before = self.record_before_last();
        let p = before.position();
        (p.x | p.o) & to.bit() != 0 && before.game().view(&p) == *view
    }

    /// The record without its last ply.
    pub(super) fn record_before_last(&self) -> GameRecord {
        let mut before = GameRecord::of_game(self.record.game());
        for mv in self
            .record
            .plies()
            .take(self.record.len().saturating_sub(1))
        {
            let _ = before.push_move(mv);
        }
        before
    }

    /// The device's last slide (the record's last ply, the person to move),
    /// when `view` shows it not made: its piece on the point it leaves, the rest
    /// as the record says.
    pub(super) fn slide_not_made(&self, view: &BoardView) -> Option<(Square, Square)> {
        let Some(Move::Slide { from, to } | Move::Pawn { from, to }) = self.record.plies().last()
        else {
            return None;
        };
        let mut before = self.base_view();
        before.set(to, Sensed::Empty);
        before.set(from, Sensed::Piece(self.device_colour()));
        (before == *view && !self.devices_turn()).then_some((from, to))
    }
}
