//! The game itself (and the placement tasks, which share its code): starting a
//! round, the device's turn (choosing a move, carrying a piece from storage,
//! verifying it), the human's turn (reading the board after Done, telling a move
//! from a moved device piece) and putting a moved device piece back.
//!
//! Invariants: the record grows only through [`GameRecord::push`] of a move seen
//! on the board (a verified placement, or exactly one new piece of the human's on
//! an empty square); a placement is retried at most [`PLACE_ATTEMPTS`] times
//! before a person is asked; the storage masks only lose slots during a round.

use super::{
    Controller, GameRecord, Mode, MoveChooser, Problem, State, Task, TaskEntry, TaskError, MISSES,
    PLACEMENT_BUDGET_MS, PLACE_ATTEMPTS, VERIFY_MS,
};
use crate::classify::Sensed;
use crate::model::FULL_STOCK;
use crate::motion::Lift;
use crate::panel::{Button, Presses};
use crate::scanner::BoardView;
use crate::{elapsed_ms, Colour};
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::{Board, Player, Square, Squares};

impl<I2C: I2c, O: OutputPin, I: InputPin, L: Lift, C: MoveChooser> Controller<I2C, O, I, L, C> {
    /// Starts a placement task (contest items 1 to 3) from Setup, after a game or
    /// task, or from task entry; the board must be empty first.
    pub fn start_task(&mut self, task: Task) -> Result<(), TaskError> {
        if !matches!(
            self.state,
            State::Setup | State::Over(_) | State::TaskDone | State::TaskEntry(_)
        ) {
            return Err(TaskError::Busy);
        }
        self.mode = Mode::Task { task, done: 0 };
        self.new_round();
        Ok(())
    }

    #[inline(always)]
    pub(super) fn new_round(&mut self) {
        self.clear_round(true);
        self.enter(State::WaitEmpty);
    }

    /// An empty record, full storage, nothing under way; `active`: a round runs.
    #[inline(never)]
    pub(super) fn clear_round(&mut self, active: bool) {
        self.active = active;
        self.pending = None;
        self.misses = 0;
        self.record = GameRecord::of_game(self.chooser.rules());
        #[cfg(feature = "games")]
        {
            // Hexapawn starts with the pawns set up: the device's first.
            let hexapawn = self.record.game() == super::Rules::Hexapawn;
            self.setting_up = (active && hexapawn).then_some(0);
        }
        self.refill();
    }

    /// What the board shows when nothing is being placed: the game record, or the
    /// task's placements so far.
    pub(super) fn base_view(&self) -> BoardView {
        match &self.mode {
            #[cfg(feature = "games")]
            Mode::Game if !self.record.game().places_only() => match self.setting_up {
                Some(placed) => self.set_up_so_far(placed),
                None => self.record.game().view(&self.record.position()),
            },
            Mode::Game => BoardView::of_board(self.record.board()),
            Mode::Task { task, done } => task.view_after(*done as usize),
        }
    }

    /// What the board should show now: the record (or the task so far), plus the
    /// piece being placed.
    pub fn expected_view(&self) -> BoardView {
        let mut v = self.base_view();
        // The placement under way (set before Placing, kept until it is verified).
        let placing = matches!(
            self.state,
            State::Placing { .. }
                | State::Verifying { .. }
                | State::Error(
                    Problem::PlacementFailed(_) | Problem::StrayPiece(_) | Problem::Recalibrate(_)
                )
        );
        if let (true, Some((colour, _, square))) = (placing, self.pending) {
            v.set(square, Sensed::Piece(colour));
        }
        v
    }

    /// The device's colour in the game under way (in hexapawn White when it
    /// moves first).
    pub fn device_colour(&self) -> Colour {
        #[cfg(feature = "games")]
        return self.setup.colour_in(self.record.game());
        #[cfg(not(feature = "games"))]
        self.setup.device_colour()
    }

    /// Whether the device is to move in the game: black (X) moves first, so after an
    /// even number of moves exactly when the device plays black. (The record only
    /// grows by legal moves from the empty board: no piece counting needed.)
    pub(super) fn devices_turn(&self) -> bool {
        self.record.len.is_multiple_of(2) == self.setup.device_first
    }

    /// Setup, or a finished game or task: Side, First square and Level change the
    /// setup, Start begins a game, Done enters task entry.
    pub(super) fn poll_setup(&mut self, presses: Presses) {
        if presses.contains(Button::Done) {
            // Task entry; other buttons pressed in the same poll are ignored.
            self.enter(State::TaskEntry(TaskEntry::new()));
            return;
        }
        if presses.contains(Button::Side) {
            self.setup.device_first = !self.setup.device_first;
        }
        if presses.contains(Button::Level) {
            self.chooser.next_level();
        }
        if presses.contains(Button::FirstSquare) {
            // None, 1, ..., 9, None...
            self.setup.first_square =
                Square::new(self.setup.first_square.map_or(0, |s| s.index() + 1));
        }
        if presses.contains(Button::Start) {
            self.mode = Mode::Game;
            self.new_round();
        } else if !presses.is_empty() {
            // Setup changes show at once (the lights of a finished game or
            // task give way to the setup's).
            self.enter(State::Setup);
        }
    }

    /// Waiting for the board to be cleared before a game or task.
    pub(super) fn poll_wait_empty(&mut self, now_ms: u32) {
        if self.hw.machine.is_busy() {
            return;
        }
        if let Some(view) = self.scan(now_ms) {
            if view == BoardView::EMPTY {
                self.next_turn(now_ms);
            } else {
                self.fail(Problem::BoardNotEmpty);
            }
        }
    }

    /// Checking the device's placement on `square` (attempt `attempt`, the piece
    /// from storage slot `slot`).
    pub(super) fn poll_verifying(
        &mut self,
        square: Square,
        colour: Colour,
        attempt: u8,
        slot: u8,
        now_ms: u32,
    ) {
        let elapsed = elapsed_ms(now_ms, self.placement_started);
        let Some(view) = self.scan(now_ms) else {
            // Still no stable reading: the budget ends it with the error light when
            // it runs out, not a millisecond later (a piece that arrived is
            // recognised there once the reading settles).
            if elapsed >= PLACEMENT_BUDGET_MS {
                stat!(self.stats.budget_stops += 1);
                self.fail(Problem::PlacementFailed(square));
            }
            return;
        };
        let base = self.base_view();
        let arrived = view == self.expected_view();
        let missed = !arrived && view == base;
        // The slot is emptied whatever happened; it is only suspected empty when
        // nothing arrived, or when a piece arrived at a retry (see below).
        self.slot_emptied(colour, slot, missed || (arrived && attempt > 1));
        let problem = if arrived {
            self.misses = 0;
            if attempt == 1 {
                self.placement_done(square, now_ms);
                return;
            }
            // It arrived at a retry, after an attempt where nothing did: the
            // first piece may have missed its grip (still in its slot), be
            // the one that stuck on the magnet and came along (this slot may
            // still hold its own: suspected), or have fallen in transit
            // where no sensor sees it (between squares). A person looks for
            // it and presses Done (see `poll_error`).
            Problem::StrayPiece(square)
        } else if missed {
            // Nothing arrived: a missed grip leaves the piece in its slot, a piece
            // stuck on the magnet stays there (and comes along to the next slot),
            // and a person may have taken the piece out of storage (and put
            // others back elsewhere). The slot is suspected empty and the retry
            // takes a slot not tried in this placement (see `next_slot`: this
            // slot is among the tried ones already). A retry starts only if it
            // can end within the budget.
            let next = self
                .next_slot(colour)
                .and_then(|k| self.layout.storage.slot(colour, k));
            let fits = next.is_some_and(|from| {
                let to = self.layout.pose.square_centre(square);
                elapsed + self.hw.machine.transfer_ms(from, to, attempt == 1) + VERIFY_MS
                    <= PLACEMENT_BUDGET_MS
            });
            if attempt < PLACE_ATTEMPTS && fits {
                stat!(self.stats.retries += 1);
                self.start_placement(square, colour, attempt + 1);
                return;
            }
            stat!(self.stats.budget_stops += u32::from(!fits));
            Problem::PlacementFailed(square)
        } else {
            // The piece is somewhere else: it fell in transit, or landed off its
            // square. It left its slot either way.
            stat!(self.stats.strays += 1);
            // Strays in a row mean the board moved (a bump, or several, can put
            // the pieces as far as the next square); a lone drop in transit
            // asks only for the stray piece to be removed.
            self.misses = self.misses.saturating_add(1);
            if self.misses >= MISSES {
                Problem::Recalibrate(square)
            } else {
                Problem::StrayPiece(square)
            }
        };
        // Out of the way, checking the axes (lost steps) meanwhile or before the
        // next try.
        self.park(now_ms);
        self.fail(problem);
    }

    /// Reading the board after the human's Done.
    pub(super) fn poll_checking(&mut self, now_ms: u32) {
        if self.hw.machine.is_busy() {
            return;
        }
        if let Some(view) = self.scan(now_ms) {
            self.check_human(view, now_ms);
        }
    }

    /// Checking that the device piece moved to `from` is back on `to`.
    pub(super) fn poll_verifying_restore(
        &mut self,
        from: Square,
        to: Square,
        attempt: u8,
        now_ms: u32,
    ) {
        let Some(view) = self.scan(now_ms) else {
            #[cfg(feature = "games")]
            self.move_overdue(now_ms);
            return;
        };
        let d = self.device_colour();
        #[cfg(not(feature = "games"))]
        let expected = self.record.board().pieces(d.player()).bits();
        #[cfg(feature = "games")]
        let expected = self.base_view().pieces(d).bits();
        let seen = view.pieces(d).bits();
        if seen == expected && view.untrusted().is_empty() {
            #[cfg(feature = "games")]
            let slide = core::mem::take(&mut self.sliding);
            #[cfg(not(feature = "games"))]
            let slide = false;
            stat!(self.stats.restores += u32::from(!slide));
            let _ = slide;
            self.park(now_ms);
            // Ask for the human's move again (a move made meanwhile is read then);
            // after the device's slide (recorded before it was carried), the
            // game may be over.
            #[cfg(feature = "games")]
            if !self.record.game().places_only() {
                self.next_turn(now_ms);
                return;
            }
            self.enter(State::HumanTurn);
        } else if attempt < PLACE_ATTEMPTS
            && seen | from.bit() == (expected & !to.bit()) | from.bit()
            && self.move_retry_fits(
                if seen & from.bit() != 0 { from } else { to },
                to,
                attempt,
                now_ms,
            )
        {
            // Not on `to`, every other square as expected but `from` (no square
            // of the record's unless it is `to`). Still on `from`: the
            // piece did not come along (a missed pick-up), try again. Gone from
            // `from` too: still on the magnet (a release that did not let go),
            // so grip again over `to` and let go there.
            stat!(self.stats.retries += 1);
            let again = if seen & from.bit() != 0 { from } else { to };
            self.start_restore(again, to, attempt + 1);
        } else {
            #[cfg(feature = "games")]
            {
                self.slide_given_up = self.sliding;
                // The slide's piece never left its point in every attempt,
                // the rest as recorded: the magnet keeps missing it, the board
                // moved (push it back, then Start slides again).
                if self.sliding && self.slide_not_made(&view).is_some() {
                    self.fail(Problem::Recalibrate(to));
                    return;
                }
            }
            self.fail(Problem::Mismatch);
        }
    }

    /// Whether a retry of the carry from `again` to `to` may start: always for a
    /// moved piece put back; for the device's own move (`games` feature: a slide,
    /// a pawn move, its capture first) only when the motion model says it ends,
    /// verified, within the move's [`PLACEMENT_BUDGET_MS`] (counted from its
    /// start), as a placement's retry: the retry after attempt `attempt`, the
    /// first by way of the switches as [`Controller::start_restore`] carries it.
    #[inline(always)]
    pub(super) fn move_retry_fits(
        &mut self,
        again: Square,
        to: Square,
        attempt: u8,
        now_ms: u32,
    ) -> bool {
        #[cfg(feature = "games")]
        if self.sliding {
            let pose = &self.layout.pose;
            let (a, b) = (pose.square_centre(again), pose.square_centre(to));
            let ms = self.hw.machine.transfer_ms(a, b, attempt == 1);
            let fits =
                elapsed_ms(now_ms, self.placement_started) + ms + VERIFY_MS <= PLACEMENT_BUDGET_MS;
            stat!(self.stats.budget_stops += u32::from(!fits));
            return fits;
        }
        let _ = (again, to, attempt, now_ms);
        true
    }

    /// Polls the scanner; `Some` with a stable view in which every sensor
    /// answered. A stable view with faulty sensors (dead, or stuck on one reading)
    /// shows them ([`Problem::SensorFault`]) in whatever state the machine was:
    /// no placement, check or repair is judged on a sensor that does not see.
    pub(super) fn scan(&mut self, now_ms: u32) -> Option<BoardView> {
        let view = self.hw.scanner.poll(now_ms, &mut self.hw.sensors).ok()?;
        let faults = view.faults();
        if faults.is_empty() {
            return Some(view);
        }
        let problem = Problem::SensorFault(faults);
        if self.state != State::Error(problem) {
            self.fail(problem);
        }
        None
    }

    /// Parks the head, checking both axes against their switches on the way
    /// (lost steps are corrected there, see `Machine::start_park`).
    pub(super) fn park(&mut self, _now_ms: u32) {
        // Parking is best effort: a failure shows up on the next move.
        let _ = self.hw.machine.start_park(self.layout.park);
    }

    pub(super) fn next_turn(&mut self, now_ms: u32) {
        if let Mode::Task { task, done } = &self.mode {
            match task.items().get(*done as usize) {
                Some(&(colour, square)) => {
                    self.begin_placement(square, colour, now_ms);
                }
                None => {
                    self.park(now_ms);
                    self.enter(State::TaskDone);
                }
            }
            return;
        }
        #[cfg(feature = "games")]
        if !self.record.game().places_only() {
            self.next_turn_moving(now_ms);
            return;
        }
        let board = self.record.board();
        if self.over_or_humans_turn(self.rules().result(&board), now_ms) {
            return;
        }
        let choice = match self.setup.first_square {
            Some(s) if board.piece_count() == 0 => Some(s),
            _ => self.chooser.choose(&board),
        };
        // A chooser returning an occupied square, or none in a game that goes on, is
        // a chooser bug: the game stops with the error light rather than playing a
        // move nobody chose (the table's chooser never does this).
        let square = choice.filter(|s| (board.x() | board.o()) & s.bit() == 0);
        match square {
            Some(square) => self.begin_placement(square, self.device_colour(), now_ms),
            None => self.fail(Problem::Mismatch),
        }
    }

    /// The step every game's turn begins with: a game that is over (`result`:
    /// `Some` of the winner, `None` inside for a draw) is counted, the head
    /// parked and the result shown; else the person's turn is handed over.
    /// `false`: the device is to move.
    pub(super) fn over_or_humans_turn(
        &mut self,
        result: Option<Option<Player>>,
        now_ms: u32,
    ) -> bool {
        if let Some(winner) = result {
            // X moves first: the device's player is X exactly when it does.
            let result = winner.map(|w| (w == Player::X) == self.setup.device_first);
            stat!(
                self.stats.games += 1;
                match result {
                    Some(true) => self.stats.wins += 1,
                    Some(false) => self.stats.losses += 1,
                    None => self.stats.draws += 1,
                }
            );
            self.park(now_ms);
            self.enter(State::Over(result));
            return true;
        }
        if !self.devices_turn() {
            self.enter(State::HumanTurn);
            return true;
        }
        false
    }

    /// Starts carrying the device piece on `from` back to `to`.
    pub(super) fn start_restore(&mut self, from: Square, to: Square, attempt: u8) {
        let (a, b) = (
            self.layout.pose.square_centre(from),
            self.layout.pose.square_centre(to),
        );
        // With the `games` feature, the first retry of the device's own slide or
        // pawn move (two carries and more in a row without a park, after a
        // capture) checks the axes at the switches first, as a placement's:
        // lost steps may have caused the miss. (A moved piece put back follows
        // a park, which checks them; the default image has no room for it.)
        #[cfg(feature = "games")]
        let checked = attempt == 2 && self.sliding;
        #[cfg(not(feature = "games"))]
        let checked = false;
        let started = if checked {
            self.hw.machine.start_checked_transfer(a, b)
        } else {
            self.hw.machine.start_transfer(a, b)
        };
        match started {
            Ok(()) => self.enter(State::Restoring { from, to, attempt }),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// The slot to take the next piece from, among those not tried yet in this
    /// placement: the lowest believed full, else the lowest suspected empty, else
    /// the lowest believed empty (a person may have put a piece back there).
    pub(super) fn next_slot(&self, colour: Colour) -> Option<usize> {
        let c = colour.index();
        let untried = FULL_STOCK & !self.tried;
        [self.stock[c], self.suspect[c], FULL_STOCK]
            .into_iter()
            .map(|m| m & untried)
            .find(|m| *m != 0)
            .map(|m| m.trailing_zeros() as usize)
    }

    /// A new placement (its time budget starts now).
    #[inline(never)]
    pub(super) fn begin_placement(&mut self, square: Square, colour: Colour, now_ms: u32) {
        self.placement_started = now_ms;
        self.tried = 0;
        stat!(self.placement_errored = false);
        self.start_placement(square, colour, 1);
    }

    pub(super) fn start_placement(&mut self, square: Square, colour: Colour, attempt: u8) {
        let Some(slot) = self.next_slot(colour) else {
            self.fail(Problem::StorageEmpty);
            return;
        };
        let Some(from) = self.layout.storage.slot(colour, slot) else {
            self.fail(Problem::StorageEmpty);
            return;
        };
        let to = self.layout.pose.square_centre(square);
        stat!(
            let model = self.hw.machine.transfer_ms(from, to, attempt == 2);
            self.stats.max_model_ms = self.stats.max_model_ms.max(model);
        );
        self.pending = Some((colour, slot as u8, square));
        self.tried |= 1 << slot;
        // The first retry checks the axes at the switches first: lost steps may
        // have caused the miss (a later one goes straight: the axes were checked).
        let started = if attempt == 2 {
            self.hw.machine.start_checked_transfer(from, to)
        } else {
            self.hw.machine.start_transfer(from, to)
        };
        match started {
            Ok(()) => self.enter(State::Placing {
                square,
                colour,
                attempt,
                slot: slot as u8,
            }),
            Err(e) => self.fail(Problem::Motion(e)),
        }
    }

    /// A verified placement: recorded in the game or the task.
    pub(super) fn placement_done(&mut self, square: Square, now_ms: u32) {
        self.pending = None;
        match &mut self.mode {
            #[cfg(feature = "games")]
            Mode::Game if self.setting_up.is_some() => {
                // A pawn of the set-up: no move of the game.
                self.setting_up = self.setting_up.map(|placed| placed | square.bit());
            }
            Mode::Game => {
                if self.record.push(square).is_err() {
                    self.fail(Problem::Mismatch);
                    return;
                }
            }
            Mode::Task { done, .. } => *done += 1,
        }
        stat!(
            self.stats.placements += 1;
            let took = elapsed_ms(now_ms, self.placement_started);
            if !self.placement_errored {
                self.stats.max_placement_ms = self.stats.max_placement_ms.max(took);
                self.stats.late_placements += u32::from(took > PLACEMENT_BUDGET_MS);
            }
        );
        self.park(now_ms);
        self.next_turn(now_ms);
    }

    /// Compares the stable view after the button with the record.
    pub(super) fn check_human(&mut self, view: BoardView, now_ms: u32) {
        // (Faulty sensors never get here: `scan` shows them.)
        let untrusted = view.untrusted();
        if !untrusted.is_empty() {
            self.fail(Problem::Unclear(untrusted));
            return;
        }
        #[cfg(feature = "games")]
        if !self.record.game().places_only() {
            self.check_human_moving(view, now_ms);
            return;
        }
        let board = self.record.board();
        let d = self.device_colour();
        let h = d.other();
        let dev_expected = board.pieces(d.player()).bits();
        let hum_expected = board.pieces(h.player()).bits();
        let dev_seen = view.pieces(d).bits();
        let hum_seen = view.pieces(h).bits();
        let hum_new = hum_seen & !hum_expected;
        // Every human piece still there, and at most one more (the sets of a view
        // are disjoint: a new human piece is on a square the record has empty
        // whenever the device's pieces are where they belong).
        let humans_ok = hum_expected & !hum_seen == 0 && at_most_one(hum_new);
        let missing = dev_expected & !dev_seen;
        let extra = dev_seen & !dev_expected;
        if humans_ok && missing | extra == 0 {
            match Squares::from_bits(hum_new).first() {
                // Button pressed without a move: keep waiting.
                None => self.enter(State::HumanTurn),
                Some(square) if self.record.push(square).is_ok() => {
                    self.chooser.observe(&board, square);
                    self.next_turn(now_ms)
                }
                Some(_) => self.fail(Problem::Mismatch),
            }
            return;
        }
        // One device piece moved: one square missing it and one extra (each
        // found below), the extra one on no human square (the sets of a view are
        // disjoint), and no new human piece where it was.
        let moved =
            humans_ok && at_most_one(missing) && at_most_one(extra) && hum_new & missing == 0;
        if let (true, Some(from), Some(to)) = (
            moved,
            Squares::from_bits(extra).first(),
            Squares::from_bits(missing).first(),
        ) {
            self.start_restore(from, to, 1);
        } else {
            self.fail(Problem::Mismatch);
        }
    }

    /// The storage slot `slot` of `colour` no longer counts as full; `suspect`: it
    /// may still hold a piece (tried again once the others are used up).
    pub(super) fn slot_emptied(&mut self, colour: Colour, slot: u8, suspect: bool) {
        let (c, bit) = (colour.index(), 1 << slot);
        self.stock[c] &= !bit;
        if suspect {
            self.suspect[c] |= bit;
        } else {
            self.suspect[c] &= !bit;
        }
    }

    /// The piece from `slot` is verified on `square` (`maybe_full`: the slot is
    /// only suspected empty, see `slot_emptied`).
    #[inline(always)]
    pub(super) fn placed(
        &mut self,
        colour: Colour,
        slot: u8,
        maybe_full: bool,
        square: Square,
        now_ms: u32,
    ) {
        self.slot_emptied(colour, slot, maybe_full);
        self.placement_done(square, now_ms);
    }

    /// Every storage slot full again (a new round, or refilled by hand).
    pub(super) fn refill(&mut self) {
        self.stock = [FULL_STOCK; 2];
        self.suspect = [0; 2];
    }
}

/// Whether `view` shows `board` plus one piece of `human`'s on an empty square,
/// the game not being over: a legal move when `human` is to move. (The same as
/// comparing `view` with every position after a legal move, without playing them.)
pub(super) fn one_move_of(board: Board, human: Colour, view: BoardView) -> bool {
    !board.is_over() && one_more(BoardView::of_board(board), human, view)
}

/// Whether `view` shows one piece of `colour` beyond `base`, on a square `base`
/// has empty, every other square as in `base`.
pub(super) fn one_more(base: BoardView, colour: Colour, view: BoardView) -> bool {
    let new = view.pieces(colour).bits() & !base.pieces(colour).bits();
    let Some(square) = Squares::from_bits(new).first() else {
        return false;
    };
    let mut moved = base;
    moved.set(square, Sensed::Piece(colour));
    at_most_one(new) && base.get(square) == Sensed::Empty && view == moved
}

/// Whether at most one bit of `bits` is set ([`Squares::at_most_one`]).
const fn at_most_one(bits: u16) -> bool {
    Squares::from_bits(bits).at_most_one()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reachable position (5478), by depth-first search from the empty board.
    fn reachable() -> std::vec::Vec<Board> {
        let (mut seen, mut stack, mut all) = (
            std::collections::HashSet::new(),
            std::vec![Board::EMPTY],
            std::vec::Vec::new(),
        );
        while let Some(b) = stack.pop() {
            if !seen.insert(b) {
                continue;
            }
            all.push(b);
            stack.extend(b.legal_moves().into_iter().filter_map(|s| b.play(s).ok()));
        }
        all
    }

    #[test]
    fn one_move_of_is_a_legal_move_of_the_side_to_move() {
        let all = reachable();
        assert_eq!(all.len(), 5478);
        let kinds = [
            Sensed::Empty,
            Sensed::Piece(Colour::Black),
            Sensed::Piece(Colour::White),
            Sensed::Unknown,
        ];
        let mut checked = 0;
        for &board in &all {
            let human = Colour::of(board.to_move());
            let children: std::vec::Vec<BoardView> = board
                .legal_moves()
                .into_iter()
                .filter_map(|s| board.play(s).ok())
                .map(BoardView::of_board)
                .collect();
            // The views that differ from the board on at most two squares.
            for a in Square::ALL {
                for b in Square::ALL {
                    for (ka, kb) in kinds
                        .iter()
                        .flat_map(|&ka| kinds.iter().map(move |&kb| (ka, kb)))
                    {
                        let mut view = BoardView::of_board(board);
                        view.set(a, ka);
                        view.set(b, kb);
                        assert_eq!(
                            one_move_of(board, human, view),
                            children.contains(&view),
                            "{board} {view:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 5478 * 81 * 16);
    }
}
