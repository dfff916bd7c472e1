//! How a person puts the board right: what they believe it should show, the
//! rearranging by hand, and what they do when the error light comes on.

use super::{SimHuman, ABANDON_PRESS_MS, FIX_DELAY_MS, HAND_JITTER_MM, START_AFTER_MS};
use crate::classify::Sensed;
use crate::model::{capture_slot, CAPTURE_SLOTS};
use crate::panel::{Button, Light};
use crate::scanner::BoardView;
use crate::sim::world::{um, World, CAPTURE_MM, ON_SQUARE_MM, PIECES};
use crate::Colour;
use tictable::{Board, Square};

impl SimHuman {
    /// What the person believes the board should show: the game as remembered,
    /// and the device's piece where they saw the head go down on an empty square
    /// in the device's turn.
    pub(super) fn belief(&self) -> Board {
        match self.device_target {
            Some(s) if self.memory.to_move() == self.device() => {
                self.memory.play(s).unwrap_or(self.memory)
            }
            _ => self.memory,
        }
    }

    /// What the person believes the board should show, as the sensors would see
    /// it: [`SimHuman::belief`]; in a game whose pieces move, the game as
    /// remembered and, in the device's turn, its move as the person saw the head
    /// go down (on its piece, then on the empty point: a slide; on an empty
    /// point alone: a placement); an empty board once they gave the game up.
    pub(super) fn belief_view(&self) -> BoardView {
        #[cfg(feature = "games")]
        if let Some(record) = &self.moving {
            // A game given up: an empty board (hexapawn's start has pawns).
            if self.abandoning {
                return BoardView::EMPTY;
            }
            let (rules, p) = (record.game(), record.position());
            let seen = self.device_move_watched().and_then(|mv| rules.play(&p, mv));
            return rules.view(&seen.unwrap_or(p));
        }
        BoardView::of_board(self.belief())
    }

    /// In a game whose pieces move, the device's move as the person saw the
    /// head go down in its turn (on its piece, then on the empty point: a
    /// slide or a pawn's move; on an empty point alone: a placement), when it
    /// is legal in the game remembered with the device to move.
    #[cfg(feature = "games")]
    pub(super) fn device_move_watched(&self) -> Option<crate::controller::Move> {
        use crate::controller::Move;
        let record = self.moving.as_ref()?;
        let (rules, p) = (record.game(), record.position());
        let to = self.device_target.filter(|_| p.to_move == self.device())?;
        let moved = self
            .device_from
            .into_iter()
            .flat_map(|from| [Move::Slide { from, to }, Move::Pawn { from, to }]);
        moved
            .chain([Move::Place(to)])
            .find(|&mv| rules.play(&p, mv).is_some())
    }

    /// Whether every piece lies clearly on a square as the person believes the
    /// board should show ([`SimHuman::belief_view`]; in tic-tac-toe and misère
    /// the very [`SimHuman::belief`] board).
    pub(super) fn as_believed(&self, w: &World) -> bool {
        #[cfg(feature = "games")]
        if self.moving.is_some() {
            let v = self.belief_view();
            let want = (
                v.pieces(Colour::Black).bits(),
                v.pieces(Colour::White).bits(),
            );
            return w.board() == Some(want);
        }
        w.game_board() == Some(self.belief())
    }

    /// Rearranges the pieces by hand to show what the person believes the board
    /// should show ([`SimHuman::belief`]): pieces in the wrong place are picked up
    /// first and reused where a piece of their colour is missing; only then are
    /// pieces taken from or returned to storage. Sometimes ([`SimHuman::slip_rate`])
    /// one piece lands on a wrong square.
    pub(super) fn fix(&mut self, w: &mut World) {
        let target = self.belief_view();
        let want = |s: Square| match target.get(s) {
            Sensed::Piece(c) => Some(c),
            _ => None,
        };
        // The pieces picked up, in the order they were (at most all of them).
        let (mut hand, mut held) = ([0usize; PIECES], 0usize);
        let mut placed = 0u16;
        for i in 0..w.pieces.len() {
            let p = w.pieces[i];
            if w.head.held == Some(i) || w.in_storage(&p) {
                continue;
            }
            let square = w.config.pose.square_at(p.at, 2_000);
            match square {
                Some(s) if want(s) == Some(p.colour) && placed & s.bit() == 0 => {
                    placed |= s.bit();
                }
                _ => {
                    // Picked up: held in the hand, off the board.
                    w.pieces[i].at = crate::motion::Point::mm(-500, -500);
                    hand[held] = i;
                    held += 1;
                }
            }
        }
        // A piece left hanging on the head is in the way: taken off first.
        Self::unstick(w);
        let slip = self.rng.chance(self.slip_rate);
        let mut slipped = false;
        for s in Square::ALL {
            let Some(colour) = want(s) else {
                continue;
            };
            if placed & s.bit() != 0 {
                continue;
            }
            let from_hand = hand[..held]
                .iter()
                .position(|&i| w.pieces[i].colour == colour);
            let piece = match from_hand {
                Some(k) => {
                    // Taken from the hand (the last one fills its place).
                    let i = hand[k];
                    held -= 1;
                    hand[k] = hand[held];
                    Some(i)
                }
                // The machine's last capture first: a person putting a
                // captured piece back takes the one they saw carried off.
                None => Self::captured_piece(w, colour).or_else(|| w.stored_piece(colour)),
            };
            if let Some(i) = piece {
                // A slip: the piece goes on an empty square it does not belong on.
                let taken =
                    target.pieces(Colour::Black).bits() | target.pieces(Colour::White).bits();
                let wrong = 0x1FF & !taken & !placed;
                let to = match self.any(tictable::Squares::from_bits(wrong)) {
                    Some(t) if slip && !slipped => {
                        slipped = true;
                        t
                    }
                    _ => s,
                };
                w.hand_move(i, w.config.pose.square_centre(to), 0.0);
                placed |= to.bit();
            }
        }
        for &i in &hand[..held] {
            if let Some(slot) = w.free_slot(w.pieces[i].colour) {
                w.hand_move(i, slot, 0.0);
            }
        }
        self.fixes += 1;
        self.slips += u32::from(slipped);
    }

    /// What the error pattern asks of a person beyond putting the board right
    /// (README's table of light patterns): Error with Device turn and a square
    /// number 1-9 on Lamp/Win/Draw/Loss is that square's sensor (replug it);
    /// number 12 without turn lights is "recalibrate the board" (push it back to its
    /// marks, remove the piece that missed); Human turn and a number is an unclear
    /// reading there (centre the piece). The person reads the lights, nothing else, and does what a pattern
    /// asks once (a replugged sensor needs time to come back), again only when the
    /// pattern changes or after pressing Start.
    pub(super) fn follow_error_pattern(&mut self, w: &mut World) {
        let lit = |l: Light| w.lights[l.index()];
        let number = u8::from(lit(Light::Lamp))
            | u8::from(lit(Light::Win)) << 1
            | u8::from(lit(Light::Draw)) << 2
            | u8::from(lit(Light::Loss)) << 3;
        let (device, human) = (lit(Light::DeviceTurn), lit(Light::HumanTurn));
        match (device, human, number) {
            (true, false, 1..=9) => {
                if let Some(square) = Square::new(number - 1) {
                    w.replug(square);
                }
            }
            // A placement that did not arrive: "take a piece stuck on the magnet
            // off, put a piece of the device's colour on the square" (the board
            // is then fixed as remembered, with that piece).
            (true, true, 1..=9) => {
                Self::unstick(w);
                if let Some(square) = Square::new(number - 1) {
                    if self.memory.get(square).is_none() {
                        self.device_target = Some(square);
                    }
                }
            }
            // "The board moved: push it back, remove the piece that missed": the
            // device's last piece is not its move, wherever the person saw the
            // head put it down (or pick one up: a move it tries again may take
            // another piece).
            (false, false, 12) => {
                w.push_board_back();
                self.device_target = None;
                self.device_from = None;
            }
            // An unclear reading: "centre the piece on the square".
            (false, true, 1..=9) => {
                if let Some(square) = Square::new(number - 1) {
                    w.centre_piece(square, HAND_JITTER_MM);
                }
            }
            _ => {}
        }
    }

    /// The piece of `colour` at the machine's last occupied capture place
    /// ([`capture_slot`]), if any: the one it captured last.
    fn captured_piece(w: &World, colour: Colour) -> Option<usize> {
        (0..CAPTURE_SLOTS)
            .rev()
            .filter_map(|k| capture_slot(&w.config.storage, colour, k))
            .filter_map(|at| w.piece_near(at, CAPTURE_MM))
            .find(|&i| w.pieces[i].colour == colour)
    }

    /// Puts the pieces lying on the board but on no square (further than
    /// [`ON_SQUARE_MM`] from every centre) back into storage.
    pub(super) fn clear_fallen(w: &mut World) {
        for i in 0..w.pieces.len() {
            let p = w.pieces[i];
            let off = w.config.pose.square_at(p.at, um(ON_SQUARE_MM)).is_none();
            if w.head.held == Some(i) || w.in_storage(&p) || !off || !w.on_board_area(p.at) {
                continue;
            }
            if let Some(slot) = w.free_slot(p.colour) {
                w.hand_move(i, slot, 0.0);
            }
        }
    }

    /// Takes a piece hanging on the magnet off (when the magnet is off: a piece
    /// held by residual magnetism, which a person sees on the head) and puts it
    /// back in storage.
    pub(super) fn unstick(w: &mut World) {
        if let (Some(i), false) = (w.head.held, w.head.magnet) {
            if let Some(slot) = w.free_slot(w.pieces[i].colour) {
                w.hand_move(i, slot, 0.0);
            }
        }
    }

    /// The error light is on: after a few seconds the person puts the board the
    /// way they believe it should be; if it already is and the light stays on,
    /// they press Start for the machine to try again.
    pub(super) fn on_error(&mut self, w: &mut World, now: u32) {
        if self.pressing() {
            return;
        }
        let (lo, hi) = FIX_DELAY_MS;
        let at = *self
            .fix_at
            .get_or_insert_with(|| now + lo + self.rng.below((hi - lo) as usize) as u32);
        if now < at {
            return;
        }
        if self.followed != Some(w.lights) {
            self.followed = Some(w.lights);
            self.follow_error_pattern(w);
        }
        let as_believed = self.as_believed(w);
        if !as_believed {
            self.fix(w);
            self.fix_at = None;
            self.stuck_since = None;
            return;
        }
        let since = *self.stuck_since.get_or_insert(now);
        if now.wrapping_sub(since) >= START_AFTER_MS {
            // A game given up is abandoned again (a power cut during the hold
            // brought it back).
            if self.abandoning {
                self.hold(Button::Start, now, ABANDON_PRESS_MS);
            } else {
                self.press(Button::Start, now);
            }
            self.restarts += 1;
            self.stuck_since = None;
            self.fix_at = None;
            self.followed = None;
        }
    }
}
