//! Simulated people: they watch the lights, play moves with their hands, press the
//! button (with contact bounce), sometimes cheat, and fix the board when the error
//! light stays on.

use super::world::{World, PIECES};
use super::SplitMix64;
use crate::device::classify::Sensed;
use crate::device::panel::{Button, Light};
use crate::device::scanner::BoardView;
use crate::device::Colour;
use crate::{Board, Square};

/// How a simulated human chooses moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// Uniformly random legal moves.
    Random,
    /// Always a best move (random among the best).
    Perfect,
    /// A best move, except with this probability a random one.
    Erring(f64),
}

#[derive(Clone, Copy, Debug)]
struct Press {
    button: Button,
    start: u32,
    hold: u32,
}

/// Max jitter (mm) of a hand-placed piece from the square centre.
pub const HAND_JITTER_MM: f32 = 2.5;

/// A simulated human (also the operator who presses Start and clears the board).
#[derive(Clone, Debug)]
pub struct SimHuman {
    /// Move choice.
    pub style: Style,
    /// Probability of moving a device piece instead of playing, once per turn.
    pub cheat_rate: f64,
    /// The human's colour in the current game.
    pub colour: Colour,
    rng: SplitMix64,
    act_at: Option<u32>,
    turn_light: bool,
    cheated_this_turn: bool,
    press: Option<Press>,
    error_since: Option<u32>,
    /// A passive human only presses buttons when told (for scripted tests).
    pub passive: bool,
    /// Cheats done.
    pub cheats: u32,
    /// Times the board was fixed by hand after the error light.
    pub fixes: u32,
}

impl SimHuman {
    /// A human.
    pub fn new(style: Style, cheat_rate: f64, seed: u64) -> SimHuman {
        SimHuman {
            style,
            cheat_rate,
            colour: Colour::White,
            rng: SplitMix64::new(seed),
            act_at: None,
            turn_light: false,
            cheated_this_turn: false,
            press: None,
            error_since: None,
            passive: false,
            cheats: 0,
            fixes: 0,
        }
    }

    /// A human who does nothing by itself: a test script moves the pieces and
    /// calls [`SimHuman::press`].
    pub fn passive(seed: u64) -> SimHuman {
        SimHuman {
            passive: true,
            ..SimHuman::new(Style::Random, 0.0, seed)
        }
    }

    /// Forgets the last game (its colour is set for the next).
    pub fn new_game(&mut self, colour: Colour, style: Style) {
        self.colour = colour;
        self.style = style;
        self.act_at = None;
        self.turn_light = false;
        self.cheated_this_turn = false;
        self.error_since = None;
    }

    /// Starts pressing `button` (held 80..150 ms, bouncing for the first 6 ms).
    pub fn press(&mut self, button: Button, now: u32) {
        let hold = 80 + self.rng.below(70) as u32;
        self.press = Some(Press {
            button,
            start: now,
            hold,
        });
    }

    /// Whether a press is in progress.
    pub fn pressing(&self) -> bool {
        self.press.is_some()
    }

    fn drive_button(&mut self, w: &mut World, now: u32) {
        let Some(p) = self.press else {
            return;
        };
        let t = now.wrapping_sub(p.start);
        let level = if t < 6 {
            // Contact bounce: 2 ms on, 2 ms off.
            (t / 2) % 2 == 0
        } else {
            t < p.hold
        };
        w.buttons[p.button.index()] = level;
        if t >= p.hold + 60 {
            w.buttons[p.button.index()] = false;
            self.press = None;
        }
    }

    fn choose(&mut self, board: &Board) -> Option<Square> {
        let legal = board.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let random = match self.style {
            Style::Random => true,
            Style::Perfect => false,
            Style::Erring(p) => self.rng.chance(p),
        };
        if random {
            legal.nth(self.rng.below(legal.len() as usize))
        } else {
            crate::random_best_move(board, &mut self.rng)
        }
    }

    /// Plays a move by hand: a piece from storage to the square.
    fn play(&mut self, w: &mut World, board: &Board) -> bool {
        let (Some(square), Some(piece)) = (self.choose(board), w.stored_piece(self.colour)) else {
            return false;
        };
        let to = w.config.pose.square_centre(square);
        w.hand_move(piece, to, HAND_JITTER_MM);
        true
    }

    /// Moves one of the device's pieces to an empty square.
    fn cheat(&mut self, w: &mut World, board: &Board) -> bool {
        let device = board.pieces(self.colour.other().player());
        let empty = board.empty_squares();
        if device.is_empty() || empty.is_empty() {
            return false;
        }
        let from = device.nth(self.rng.below(device.len() as usize));
        let to = empty.nth(self.rng.below(empty.len() as usize));
        let (Some(from), Some(to)) = (from, to) else {
            return false;
        };
        let Some(piece) = w.piece_on(from) else {
            return false;
        };
        let to = w.config.pose.square_centre(to);
        w.hand_move(piece, to, HAND_JITTER_MM);
        self.cheats += 1;
        true
    }

    /// Rearranges the pieces by hand to show `expected`, as a person would: pieces
    /// in the wrong place are picked up first and reused where a piece of their
    /// colour is missing; only then are pieces taken from or returned to storage.
    pub fn fix(&mut self, w: &mut World, expected: BoardView) {
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
                Some(s) if expected.get(s) == Sensed::Piece(p.colour) && placed & s.bit() == 0 => {
                    placed |= s.bit();
                }
                _ => {
                    // Picked up: held in the hand, off the board.
                    w.pieces[i].at = crate::device::motion::Point::mm(-500, -500);
                    hand[held] = i;
                    held += 1;
                }
            }
        }
        for s in Square::ALL {
            let Sensed::Piece(colour) = expected.get(s) else {
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
                None => w.stored_piece(colour),
            };
            if let Some(i) = piece {
                let to = w.config.pose.square_centre(s);
                w.hand_move(i, to, 0.0);
                placed |= s.bit();
            }
        }
        for &i in &hand[..held] {
            if let Some(slot) = w.free_slot(w.pieces[i].colour) {
                w.hand_move(i, slot, 0.0);
            }
        }
        self.fixes += 1;
    }

    /// One millisecond of the human: watches the lights, acts, presses.
    /// `record` is the game so far, `expected` what the board should show.
    pub fn step(&mut self, w: &mut World, record: Board, expected: BoardView, now: u32) {
        self.drive_button(w, now);
        if self.passive {
            return;
        }
        // With the Error light on, the other lights are the problem's pattern.
        let turn = w.lights[Light::HumanTurn.index()] && !w.lights[Light::Error.index()];
        if turn && !self.turn_light {
            self.act_at = Some(now + 200 + self.rng.below(1300) as u32);
        }
        if !turn {
            self.act_at = None;
        }
        self.turn_light = turn;
        if w.lights[Light::Error.index()] {
            let since = *self.error_since.get_or_insert(now);
            if now.wrapping_sub(since) > 1500 && !self.pressing() {
                self.fix(w, expected);
                self.error_since = None;
            }
        } else {
            self.error_since = None;
        }
        if self.act_at.is_some_and(|t| now >= t) && !self.pressing() {
            self.act_at = None;
            // Asked again with the move already made (after an error was cleared):
            // just press the button again.
            let made = w.game_board().is_some_and(|b| {
                b.pieces(self.colour.player()).len()
                    == record.pieces(self.colour.player()).len() + 1
                    && b.pieces(self.colour.other().player())
                        == record.pieces(self.colour.other().player())
                    && (b.pieces(self.colour.player()).bits()
                        & record.pieces(self.colour.player()).bits())
                        == record.pieces(self.colour.player()).bits()
            });
            if made {
                self.press(Button::Done, now);
                return;
            }
            let acted = if !self.cheated_this_turn && self.rng.chance(self.cheat_rate) {
                self.cheated_this_turn = self.cheat(w, &record);
                self.cheated_this_turn || self.play(w, &record)
            } else {
                self.cheated_this_turn = false;
                self.play(w, &record)
            };
            if acted {
                self.press(Button::Done, now);
            }
        }
    }
}
