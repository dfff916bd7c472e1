//! The turns of the games whose pieces move once placed (three men's morris,
//! tapatan, achi; `games` feature): the end by the record (the rules, a third
//! occurrence, 64 plies), the device's slide and the person's move read from the
//! board. A slide is recorded, then carried with the restore primitive (lift on
//! `from`, carry, release on `to`, verified by the sensors against the record,
//! retried as a restore is); the person's move is the one legal child whose view
//! is the board's (`Rules::move_seen`), anything else a moved device piece put
//! back or the error light.

use super::{Controller, Move, MoveChooser, Problem, State};
use crate::classify::Sensed;
use crate::motion::Lift;
use crate::scanner::BoardView;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::{Square, Squares};

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// The next turn of a moving game: over, the person's, or the device's move.
    pub(super) fn next_turn_moving(&mut self, now_ms: u32) {
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
            // A capture (a hexapawn pawn onto the person's) needs the captured
            // piece carried to storage first: not built yet.
            Some(Move::Pawn { to, .. }) if (p.x | p.o) & to.bit() != 0 => {
                self.fail(Problem::Mismatch)
            }
            Some(mv @ (Move::Slide { from, to } | Move::Pawn { from, to })) => {
                if self.record.push_move(mv).is_err() {
                    self.fail(Problem::Mismatch);
                    return;
                }
                stat!(self.stats.slides += 1);
                self.slide_given_up = false;
                self.placement_started = now_ms;
                self.sliding = true;
                self.start_restore(from, to, 1);
            }
            None => self.fail(Problem::Mismatch),
        }
    }

    /// The board after the person's Done in a moving game.
    pub(super) fn check_human_moving(&mut self, view: BoardView, now_ms: u32) {
        let (game, p) = (self.record.game(), self.record.position());
        let base = self.base_view();
        if view == base {
            // Done without a move: keep waiting.
            self.enter(State::HumanTurn);
            return;
        }
        if let Some(mv) = game.move_seen(&p, &view) {
            if self.record.push_move(mv).is_ok() {
                self.next_turn(now_ms);
            } else {
                self.fail(Problem::Mismatch);
            }
            return;
        }
        // One device piece moved, the person's as recorded: put it back.
        let d = self.device_colour();
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
    /// board put right after the error light with the person's move made).
    pub(super) fn one_move_seen(&self, view: &BoardView) -> bool {
        let (game, p) = (self.record.game(), self.record.position());
        !self.devices_turn() && game.move_seen(&p, view).is_some()
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

    /// The device's last slide (the record's last ply, the person to move),
    /// when `view` shows it not made: its piece on the point it leaves, the rest
    /// as the record says.
    pub(super) fn slide_not_made(&self, view: &BoardView) -> Option<(Square, Square)> {
        let Some(Move::Slide { from, to }) = self.record.plies().last() else {
            return None;
        };
        let mut before = self.base_view();
        before.set(to, Sensed::Empty);
        before.set(from, Sensed::Piece(self.device_colour()));
        (before == *view && !self.devices_turn()).then_some((from, to))
    }
}
