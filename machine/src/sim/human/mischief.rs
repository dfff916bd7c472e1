//! What a person does to the board that the machine must cope with: moving one
//! of the device's pieces (a cheat), messing the board up, sweeping it clear.

use super::{SimHuman, ABANDON_PRESS_MS};
use crate::panel::Button;
use crate::sim::world::World;
use tictable::Board;

impl SimHuman {
    /// Moves one of the device's pieces to an empty square.
    pub(super) fn cheat(&mut self, w: &mut World) -> bool {
        let (Some(from), Some(to)) = (
            self.any(self.remembered_pieces(self.device())),
            self.any(self.remembered_empty()),
        ) else {
            return false;
        };
        if !Self::shift(w, from, to) {
            return false;
        }
        self.cheat_to = Some(to);
        self.cheats += 1;
        true
    }

    /// An illegal move of their own in a game whose pieces move (not
    /// remembered): one of their pieces to an empty point that no legal move
    /// reaches from where it stood (a slide to a point not adjacent, a diagonal
    /// one in three men's morris, a piece moved twice, any piece moved while
    /// pieces are still being placed); `false` when there is none.
    #[cfg(feature = "games")]
    pub(super) fn illegal_move(&mut self, w: &mut World) -> bool {
        use crate::classify::Sensed;
        let Some(record) = self.moving else {
            return false;
        };
        let (rules, p) = (record.game(), record.position());
        if rules.children(&p).is_empty() {
            return false;
        }
        let base = rules.view(&p);
        let mine = self.remembered_pieces(self.player());
        // In hexapawn also onto a piece of the machine's, taken off: an illegal
        // capture (straight ahead, backwards, sideways, two rows).
        let reach = self.remembered_empty().bits() | self.capturable_of_device();
        // Every (from, to) the rules refuse, in a fixed order: counted, then the
        // drawn one found again (no allocation: `sim-core` is no_std).
        let illegal = || {
            mine.into_iter()
                .flat_map(move |from| {
                    tictable::Squares::from_bits(reach)
                        .into_iter()
                        .map(move |to| (from, to))
                })
                .filter(|&(from, to)| {
                    let mut v = base;
                    v.set(from, Sensed::Empty);
                    v.set(to, Sensed::Piece(self.colour));
                    rules.move_seen(&p, &v).is_none()
                })
        };
        let n = illegal().count();
        if n == 0 {
            return false;
        }
        let Some((from, to)) = illegal().nth(self.rng.below(n)) else {
            return false;
        };
        let taken = self.remembered_pieces(self.device()).contains(to);
        if taken && !Self::take_off(w, to) || !Self::shift(w, from, to) {
            return false;
        }
        self.illegal += 1;
        true
    }

    /// Messes the board up (`human-extra`): two pieces of their own added, two
    /// pieces taken off, or two device pieces moved to empty squares; `false`
    /// (nothing touched) when the board has no room for the one drawn.
    pub(super) fn mess_up(&mut self, w: &mut World) -> bool {
        let empty = self.remembered_empty();
        let device = self.remembered_pieces(self.device());
        let mut done = 0;
        if self.rng.chance(self.sweep_share) && self.sweep(w) {
            return true;
        }
        match self.rng.below(3) {
            0 if device.len() >= 2 => {
                // Two pieces off the board, back into storage.
                for _ in 0..2 {
                    let on = Self::seen(w, self.colour.other());
                    let Some(s) = self.any(on) else { break };
                    let (Some(i), Some(slot)) =
                        (w.piece_seen_on(s), w.free_slot(self.colour.other()))
                    else {
                        break;
                    };
                    w.hand_move(i, slot, 0.0);
                    done += 1;
                }
            }
            1 if device.len() >= 2 && empty.len() >= 2 => {
                // Two device pieces to two squares that were free before: a
                // second piece never goes where the first one was (that would be
                // one piece moved, a cheat).
                let free = self.free_squares(w).bits();
                let on = Self::seen(w, self.colour.other()).bits();
                let a = self.any(tictable::Squares::from_bits(on));
                let b = a.and_then(|a| self.any(tictable::Squares::from_bits(on & !a.bit())));
                let x = self.any(tictable::Squares::from_bits(free));
                let y = x.and_then(|x| self.any(tictable::Squares::from_bits(free & !x.bit())));
                if let (Some(a), Some(b), Some(x), Some(y)) = (a, b, x, y) {
                    done += u32::from(Self::shift(w, a, x)) + u32::from(Self::shift(w, b, y));
                }
            }
            // Two pieces of their own at once, when two fit (one alone would be a
            // move, made without meaning to and not remembered).
            _ if self.free_squares(w).len() >= 2 && w.stored_pieces(self.colour) >= 2 => {
                for _ in 0..2 {
                    if let Some(s) = self.any(self.free_squares(w)) {
                        done += u32::from(Self::place(w, self.colour, s));
                    }
                }
            }
            _ => {}
        }
        if done > 0 {
            self.extras += 1;
        }
        done > 0
    }

    /// Gives the game up (a small share of `human-extra`): every piece on the
    /// board back into storage, the game forgotten, and Start held for
    /// [`ABANDON_PRESS_MS`] (the machine's way out in any state); `false` when the
    /// board is empty already.
    pub(super) fn sweep(&mut self, w: &mut World) -> bool {
        let mut swept = false;
        for i in 0..w.pieces.len() {
            let p = w.pieces[i];
            if w.head.held == Some(i) || w.in_storage(&p) {
                continue;
            }
            if let Some(slot) = w.free_slot(p.colour) {
                w.hand_move(i, slot, 0.0);
                swept = true;
            }
        }
        if swept {
            self.memory = Board::EMPTY;
            self.device_target = None;
            self.device_from = None;
            #[cfg(feature = "games")]
            if let Some(record) = &mut self.moving {
                *record = crate::controller::GameRecord::of_game(record.game());
            }
            self.extras += 1;
            self.sweeps += 1;
            self.abandoning = true;
            self.hold(Button::Start, w.now_ms, ABANDON_PRESS_MS);
        }
        swept
    }
}
