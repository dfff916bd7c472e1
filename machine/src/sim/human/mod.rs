//! Simulated people: they watch the lights and the gantry, play moves with their
//! hands, press the button (with contact bounce), sometimes cheat or mess the board
//! up, and fix the board when the error light comes on.
//!
//! A person knows only what a person at the table knows: the board as the pieces
//! lie, the lights, where the head went down, and the game as they remember it
//! (their own moves, and the device's as they saw them appear). Nobody hands them
//! the controller's record or its expected view: when the error light comes on,
//! they put the board back the way they remember the game, after a few seconds,
//! and sometimes put a piece on the wrong square (then fix that later). A machine
//! that a person with this knowledge cannot bring back shows up as a stuck game.
//!
//! The person's mischief (cheats, mess-ups, sweeps) is in `mischief`, their
//! repairs (the board put right, the error light's patterns followed) in `repair`.

mod mischief;
mod repair;

use super::world::World;
use super::SplitMix64;
use crate::controller::{Rules, ABANDON_HOLD_MS};
use crate::panel::{Button, Light};
use crate::Colour;
use tictable::{Board, Player, Square};

/// A person's move in a game whose pieces move from the game and the position
/// alone ([`SimHuman::move_script`]).
#[cfg(feature = "games")]
pub type MoveScript = fn(Rules, &crate::controller::Position) -> Option<crate::controller::Move>;

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

/// The share of the person's mess-ups (`human-extra`) that sweep the board: the
/// person gives the game up, clears the board and holds Start to abandon it.
pub const SWEEP_SHARE: f64 = 0.1;

/// How long the person holds Start to abandon a game, ms: the controller's
/// [`ABANDON_HOLD_MS`] and a margin.
pub const ABANDON_PRESS_MS: u32 = ABANDON_HOLD_MS + 300;

/// Max jitter (mm) of a hand-placed piece from the square centre.
pub const HAND_JITTER_MM: f32 = 2.5;

/// How long a person takes to notice the error light and fix the board: uniform
/// in this range, ms.
pub const FIX_DELAY_MS: (u32, u32) = (2_000, 9_000);

/// How long the error light must stay on, with the board as the person remembers
/// the game, before they press Start for the machine to try again, ms.
pub const START_AFTER_MS: u32 = 10_000;

/// A simulated human (also the operator who presses Start and clears the board).
#[derive(Clone, Debug)]
pub struct SimHuman {
    /// Move choice.
    pub style: Style,
    /// Probability of moving a device piece instead of playing, once per turn.
    pub cheat_rate: f64,
    /// Probability per turn of messing up the board instead of playing (the
    /// `human-extra` fault): two pieces added, removed or moved.
    pub extra_rate: f64,
    /// Probability that a fix puts one piece on a wrong square.
    pub slip_rate: f64,
    /// The share of mess-ups that give the game up instead ([`SWEEP_SHARE`]).
    pub sweep_share: f64,
    /// The human's colour in the current game.
    pub colour: Colour,
    rng: SplitMix64,
    act_at: Option<u32>,
    turn_light: bool,
    cheated_this_turn: bool,
    /// Where this turn's cheat put a device piece.
    cheat_to: Option<Square>,
    press: Option<Press>,
    /// When the person will fix the board (the error light is on).
    fix_at: Option<u32>,
    /// Since when the error light has been on with the board as remembered.
    stuck_since: Option<u32>,
    /// The lights of the error pattern last acted on.
    followed: Option<[bool; 7]>,
    /// The person gave this game up (swept the board): Start is held, not
    /// pressed, while the machine still shows an error.
    abandoning: bool,
    /// The game as the person remembers it.
    memory: Board,
    /// The game as the person remembers it in a game whose pieces move
    /// (`games` feature: the morris games), where a [`Board`] cannot say it.
    #[cfg(feature = "games")]
    moving: Option<crate::controller::GameRecord>,
    /// The empty square the head last went down on in the device's turn.
    device_target: Option<Square>,
    /// The device's piece the head last went down on in the device's turn (the
    /// point a slide leaves, in a game whose pieces move).
    device_from: Option<Square>,
    /// A passive human only presses buttons when told (for scripted tests).
    pub passive: bool,
    /// Moves from the position alone instead of [`SimHuman::style`]'s draws: a
    /// person who plays the same game on two machines whose timings differ (the
    /// other draws, press lengths and delays, follow the timing). `None`: the style.
    pub script: Option<fn(&Board) -> Option<Square>>,
    /// [`SimHuman::script`] for a game whose pieces move (`games` feature): the
    /// move from the game and position alone. `None`: the style.
    #[cfg(feature = "games")]
    pub move_script: Option<MoveScript>,
    /// The game the person plays well by ([`Style::Perfect`]'s moves and
    /// [`Style::Erring`]'s good ones): tic-tac-toe by default; misère's best moves
    /// need the `games` feature (without it a misère person plays at random).
    pub rules: Rules,
    /// Cheats done.
    pub cheats: u32,
    /// Times the board was messed up on purpose (`human-extra`), sweeps included.
    pub extras: u32,
    /// Games given up: the board swept and Start held ([`SWEEP_SHARE`]).
    pub sweeps: u32,
    /// Illegal moves made on purpose in a game whose pieces move (one of their
    /// own pieces to a point no legal move reaches: a slide to a point not
    /// adjacent, a diagonal one in three men's morris, a piece moved twice, a
    /// piece moved in the placing phase), not remembered as a move.
    pub illegal: u32,
    /// Times the board was fixed by hand after the error light.
    pub fixes: u32,
    /// Fixes that put a piece on a wrong square.
    pub slips: u32,
    /// Times Start was pressed to let the machine try again.
    pub restarts: u32,
}

impl SimHuman {
    /// A human.
    pub fn new(style: Style, cheat_rate: f64, seed: u64) -> SimHuman {
        SimHuman {
            style,
            cheat_rate,
            extra_rate: 0.0,
            slip_rate: 0.0,
            sweep_share: SWEEP_SHARE,
            colour: Colour::White,
            rng: SplitMix64::new(seed),
            act_at: None,
            turn_light: false,
            cheated_this_turn: false,
            cheat_to: None,
            press: None,
            fix_at: None,
            stuck_since: None,
            followed: None,
            abandoning: false,
            memory: Board::EMPTY,
            #[cfg(feature = "games")]
            moving: None,
            device_target: None,
            device_from: None,
            passive: false,
            script: None,
            #[cfg(feature = "games")]
            move_script: None,
            rules: Rules::TicTacToe,
            cheats: 0,
            extras: 0,
            illegal: 0,
            sweeps: 0,
            fixes: 0,
            slips: 0,
            restarts: 0,
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
        self.cheat_to = None;
        self.fix_at = None;
        self.stuck_since = None;
        self.followed = None;
        self.abandoning = false;
        self.memory = Board::EMPTY;
        self.device_target = None;
        self.device_from = None;
        #[cfg(feature = "games")]
        {
            self.moving = (!self.rules.places_only())
                .then(|| crate::controller::GameRecord::of_game(self.rules));
        }
    }

    /// The game as the person remembers it.
    pub fn memory(&self) -> Board {
        self.memory
    }

    /// The game as the person remembers it in a game whose pieces move (`games`
    /// feature; `None` in a placing game: see [`SimHuman::memory`]).
    #[cfg(feature = "games")]
    pub fn record(&self) -> Option<&crate::controller::GameRecord> {
        self.moving.as_ref()
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

    /// Starts holding `button` for `hold_ms` (then released).
    pub fn hold(&mut self, button: Button, now: u32, hold_ms: u32) {
        self.press = Some(Press {
            button,
            start: now,
            hold: hold_ms,
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
        if let Some(script) = self.script {
            return script(board).filter(|&s| board.get(s).is_none());
        }
        let legal = board.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let random = match self.style {
            Style::Random => true,
            Style::Perfect => false,
            Style::Erring(p) => self.rng.chance(p),
        };
        match self.rules {
            _ if random => legal.nth(self.rng.below(legal.len() as usize)),
            Rules::TicTacToe => tictable::random_best_move(board, &mut self.rng),
            #[cfg(feature = "games")]
            Rules::Misere => {
                let best = crate::controller::best_moves(Rules::Misere, board);
                best.get(self.rng.below(best.len())).copied()
            }
            #[cfg(not(feature = "games"))]
            Rules::Misere => legal.nth(self.rng.below(legal.len() as usize)),
            // The other games are not simulated yet (issue 37): no batch plays them.
            #[cfg(feature = "games")]
            _ => legal.nth(self.rng.below(legal.len() as usize)),
        }
    }

    fn device(&self) -> Player {
        self.player().other()
    }

    /// The person's player: their colour's, but in hexapawn White is X (moves
    /// first).
    fn player(&self) -> Player {
        #[cfg(feature = "games")]
        if self.rules == Rules::Hexapawn {
            return if self.colour == self.rules.colour(Player::X) {
                Player::X
            } else {
                Player::O
            };
        }
        self.colour.player()
    }

    /// A random square of `squares`.
    fn any(&mut self, squares: tictable::Squares) -> Option<Square> {
        if squares.is_empty() {
            return None;
        }
        squares.nth(self.rng.below(squares.len() as usize))
    }

    /// The squares where a piece of `colour` lies, as the person sees them.
    fn seen(w: &World, colour: Colour) -> tictable::Squares {
        let bits = Square::ALL
            .iter()
            .filter(|s| {
                w.piece_seen_on(**s)
                    .is_some_and(|i| w.pieces[i].colour == colour)
            })
            .fold(0, |b, s| b | s.bit());
        tictable::Squares::from_bits(bits)
    }

    /// Puts a piece of `colour` from storage on `square` by hand.
    fn place(w: &mut World, colour: Colour, square: Square) -> bool {
        let Some(piece) = w.stored_piece(colour) else {
            return false;
        };
        let to = w.config.pose.square_centre(square);
        w.hand_move(piece, to, HAND_JITTER_MM);
        true
    }

    /// Hexapawn's set-up: their pawns from storage onto their home squares
    /// where none stands yet (the game remembered is at its start).
    #[cfg(feature = "games")]
    fn set_up(&mut self, w: &mut World) {
        for s in self.remembered_pieces(self.player()) {
            if w.piece_seen_on(s).is_none() {
                Self::place(w, self.colour, s);
            }
        }
    }

    /// Takes the piece on `square` off the board by hand, into a free storage
    /// slot of its colour (a captured piece).
    #[cfg(feature = "games")]
    fn take_off(w: &mut World, square: Square) -> bool {
        let Some(piece) = w.piece_seen_on(square) else {
            return false;
        };
        let Some(slot) = w.free_slot(w.pieces[piece].colour) else {
            return false;
        };
        w.hand_move(piece, slot, 0.0);
        true
    }

    /// Moves the piece on `from` to `to` by hand.
    fn shift(w: &mut World, from: Square, to: Square) -> bool {
        let Some(piece) = w.piece_seen_on(from) else {
            return false;
        };
        let to = w.config.pose.square_centre(to);
        w.hand_move(piece, to, HAND_JITTER_MM);
        true
    }

    /// The person's pieces the machine may capture, as remembered: hexapawn's.
    fn capturable(&self) -> u16 {
        #[cfg(feature = "games")]
        if self.rules == Rules::Hexapawn {
            return self.remembered_pieces(self.player()).bits();
        }
        0
    }

    /// The machine's pieces a person may take off the board, as remembered:
    /// hexapawn's (the person's captures, legal or not).
    #[cfg(feature = "games")]
    fn capturable_of_device(&self) -> u16 {
        if self.rules == Rules::Hexapawn {
            return self.remembered_pieces(self.device()).bits();
        }
        0
    }

    /// Who is to move in the game as the person remembers it.
    fn to_move(&self) -> Player {
        #[cfg(feature = "games")]
        if let Some(record) = &self.moving {
            return record.position().to_move;
        }
        self.memory.to_move()
    }

    /// The squares of `player`'s pieces in the game as the person remembers it.
    fn remembered_pieces(&self, player: Player) -> tictable::Squares {
        #[cfg(feature = "games")]
        if let Some(record) = &self.moving {
            let p = record.position();
            let bits = if player == Player::X { p.x } else { p.o };
            return tictable::Squares::from_bits(bits);
        }
        self.memory.pieces(player)
    }

    /// The squares empty in the game as the person remembers it.
    fn remembered_empty(&self) -> tictable::Squares {
        let taken =
            self.remembered_pieces(Player::X).bits() | self.remembered_pieces(Player::O).bits();
        tictable::Squares::from_bits(0x1FF & !taken)
    }

    /// A cheat: in tic-tac-toe and misère a device piece moved; in a game whose
    /// pieces move, that or (as often) an illegal move of their own.
    fn any_cheat(&mut self, w: &mut World) -> bool {
        #[cfg(feature = "games")]
        if self.moving.is_some() && self.rng.chance(0.5) {
            return self.illegal_move(w) || self.cheat(w);
        }
        self.cheat(w)
    }

    /// What the person sees on the board, as the sensors would.
    #[cfg(feature = "games")]
    fn view_of(w: &World) -> crate::scanner::BoardView {
        let mut v = crate::scanner::BoardView::EMPTY;
        for colour in [Colour::Black, Colour::White] {
            for s in Self::seen(w, colour) {
                v.set(s, crate::classify::Sensed::Piece(colour));
            }
        }
        v
    }

    /// Plays a move of a moving game by hand (a placement, or a piece slid),
    /// remembered: the table's (perfect), a random one (random, or erring's
    /// mistakes).
    #[cfg(feature = "games")]
    fn play_moving(&mut self, w: &mut World) -> bool {
        use crate::controller::Move;
        let Some(record) = self.moving else {
            return false;
        };
        let (rules, p) = (record.game(), record.position());
        let children = rules.children(&p);
        if children.is_empty() {
            return false;
        }
        let random = match self.style {
            Style::Random => true,
            Style::Perfect => false,
            Style::Erring(e) => self.rng.chance(e),
        };
        let best = crate::controller::best_moves_of(rules, &p);
        let scripted = self.move_script.and_then(|f| f(rules, &p));
        let mv = if let Some(mv) = scripted {
            mv
        } else if random || best.is_empty() {
            children[self.rng.below(children.len())].0
        } else {
            best[self.rng.below(best.len())]
        };
        let done = match mv {
            Move::Place(to) => Self::place(w, self.colour, to),
            // A capture: the machine's pawn off the board first.
            Move::Pawn { from, to } if p.x & p.o == 0 && (p.x | p.o) & to.bit() != 0 => {
                Self::take_off(w, to) && Self::shift(w, from, to)
            }
            Move::Slide { from, to } | Move::Pawn { from, to } => Self::shift(w, from, to),
        };
        if done {
            if let Some(r) = &mut self.moving {
                let _ = r.push_move(mv);
            }
        }
        done
    }

    /// Plays a move by hand: a piece from storage to the square, remembered (in
    /// a game whose pieces move, its move: [`SimHuman::play_moving`]).
    fn play(&mut self, w: &mut World) -> bool {
        #[cfg(feature = "games")]
        if self.moving.is_some() {
            return self.play_moving(w);
        }
        let Some(square) = self.choose(&self.memory.clone()) else {
            return false;
        };
        if !Self::place(w, self.colour, square) {
            return false;
        }
        if let Ok(b) = self.memory.play(square) {
            self.memory = b;
        }
        true
    }

    /// The squares no piece lies on.
    fn free_squares(&self, w: &World) -> tictable::Squares {
        let taken = Self::seen(w, Colour::Black).bits() | Self::seen(w, Colour::White).bits();
        tictable::Squares::from_bits(0x1FF & !taken)
    }

    /// The device's move, learnt when the turn light comes on: the one piece of
    /// its colour on a square the person remembers empty (in a game whose
    /// pieces move, the one legal move that shows the board; else the move
    /// they saw the head make: the board may show a piece of theirs a fix
    /// slipped too).
    fn learn_device_move(&mut self, w: &World) {
        #[cfg(feature = "games")]
        let (device, watched) = (self.device(), self.device_move_watched());
        #[cfg(feature = "games")]
        if let Some(record) = &mut self.moving {
            let p = record.position();
            if p.to_move == device {
                let view = Self::view_of(w);
                if let Some(mv) = record.game().move_seen(&p, &view).or(watched) {
                    let _ = record.push_move(mv);
                }
            }
            return;
        }
        if self.memory.to_move() != self.device() {
            return;
        }
        let new = Self::seen(w, self.colour.other()).bits() & self.memory.empty_squares().bits();
        if let (1, Some(s)) = (new.count_ones(), tictable::Squares::from_bits(new).first()) {
            if let Ok(b) = self.memory.play(s) {
                self.memory = b;
            }
        }
    }

    /// One millisecond of the human: watches the lights and the head, acts,
    /// presses.
    pub fn step(&mut self, w: &mut World, now: u32) {
        self.drive_button(w, now);
        if self.passive {
            return;
        }
        // With the Error light on, the other lights are the problem's pattern.
        let turn = w.lights[Light::HumanTurn.index()] && !w.lights[Light::Error.index()];
        if turn && !self.turn_light {
            self.learn_device_move(w);
            self.device_target = None;
            self.device_from = None;
            self.act_at = Some(now + 200 + self.rng.below(1300) as u32);
        }
        // A person who gave the game up plays no more of it (the Setup lights
        // that follow can look like a turn light).
        if !turn || self.abandoning {
            self.act_at = None;
        }
        self.turn_light = turn;
        // Where the head goes down on the board in the device's turn.
        if w.lights[Light::DeviceTurn.index()] && w.head.lowered {
            if let Some(s) = w.config.pose.square_at(w.head_um(), 3_000) {
                // An empty point (a placement, a slide's end), or in hexapawn a
                // piece of theirs (a capture's).
                let reached = self.remembered_empty().bits() | self.capturable();
                if reached & s.bit() != 0 && self.cheat_to != Some(s) {
                    self.device_target = Some(s);
                } else if self.remembered_pieces(self.device()).contains(s) {
                    // A capture's square whose piece of theirs still lies there
                    // was no capture (its carry never took it off: a power cut,
                    // a missed grip): the head going down on the device's piece
                    // starts another move, and the person saw no target for it
                    // yet. (In a capture the head comes to the capturing pawn
                    // only once the captured piece is off the board.)
                    let stale = self.device_target.filter(|t| {
                        self.capturable() & t.bit() != 0 && Self::seen(w, self.colour).contains(*t)
                    });
                    if stale.is_some() {
                        self.device_target = None;
                    }
                    self.device_from = Some(s);
                }
            }
        }
        if w.lights[Light::Error.index()] {
            self.on_error(w, now);
        } else {
            self.fix_at = None;
            self.stuck_since = None;
            self.followed = None;
        }
        if self.act_at.is_some_and(|t| now >= t) && !self.pressing() {
            self.act_at = None;
            // Hexapawn's set-up (both turn lights): their pawns set (and any
            // of the machine's missing put right), then Done, no move.
            #[cfg(feature = "games")]
            if w.lights[Light::DeviceTurn.index()] {
                Self::clear_fallen(w);
                self.set_up(w);
                self.press(Button::Done, now);
                return;
            }
            // Asked again with the move already made (after an error was cleared):
            // just press the button again.
            if self.to_move() != self.player() {
                self.press(Button::Done, now);
                return;
            }
            // A piece lying between squares (one a power cut dropped from the
            // magnet, say) is no move of anybody's: it is cleared away first.
            Self::clear_fallen(w);
            // In a game whose pieces move, a board that is not as remembered (a
            // piece of theirs a fix slipped onto a point a slide reaches, which
            // the machine took for their move made) is put right first: their
            // move is made from the game they remember.
            #[cfg(feature = "games")]
            if self.moving.is_some() && !self.as_believed(w) {
                self.fix(w);
            }
            // A mess-up that does not fit the board (too few pieces or squares)
            // leaves the person playing as usual.
            let acted = if self.rng.chance(self.extra_rate) && self.mess_up(w) {
                true
            } else if !self.cheated_this_turn && self.rng.chance(self.cheat_rate) {
                self.cheated_this_turn = self.any_cheat(w);
                self.cheated_this_turn || self.play(w)
            } else {
                self.cheated_this_turn = false;
                self.cheat_to = None;
                self.play(w)
            };
            if acted && !self.pressing() {
                self.press(Button::Done, now);
            }
            // In a game whose pieces move, a move that could not be made (the
            // fix before it slipped the piece it was to move) is tried again.
            #[cfg(feature = "games")]
            if !acted && self.moving.is_some() {
                self.act_at = Some(now + 1_000);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::world::SimConfig;

    fn world() -> World {
        World::new(SimConfig::standard(0.0, 0.0, 1).unwrap())
    }

    /// Lays `board` out by hand (black = X), every piece on its square's centre
    /// moved by `off_um` along x.
    fn lay_out(w: &mut World, board: Board, off_um: i32) {
        for s in Square::ALL {
            if let Some(p) = board.get(s) {
                let i = w.stored_piece(Colour::of(p)).unwrap();
                let c = w.config.pose.square_centre(s);
                w.hand_move(i, crate::motion::Point::new(c.x + off_um, c.y), 0.0);
            }
        }
    }

    /// The person's turn light comes on at `now`; steps until they act.
    fn their_turn(h: &mut SimHuman, w: &mut World, now: u32) {
        w.lights[Light::HumanTurn.index()] = true;
        for t in now..now + 3_000 {
            w.now_ms = t;
            h.step(w, t);
        }
    }

    /// A person who gave the game up plays no more of it: the Setup's lights for
    /// "the person moves first" (Human turn alone) look like their turn light,
    /// and a move with Done pressed there opened task entry instead of the next
    /// game. The same lights in a game they play are a turn.
    #[test]
    fn a_person_who_gave_the_game_up_does_not_play_into_the_setup() {
        let mut w = world();
        let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
        h.new_game(Colour::Black, Style::Perfect);
        h.abandoning = true;
        their_turn(&mut h, &mut w, 10);
        assert_eq!(w.game_board(), Some(Board::EMPTY));
        h.new_game(Colour::Black, Style::Perfect);
        w.lights[Light::HumanTurn.index()] = false;
        h.step(&mut w, 3_010);
        their_turn(&mut h, &mut w, 3_011);
        assert_eq!(w.game_board().map(|b| b.piece_count()), Some(1));
    }

    /// A mess-up ("two pieces of their own") with one free square left would be
    /// one piece: a move the person did not mean and would not remember. They
    /// play their move instead (and remember it).
    #[test]
    fn a_mess_up_that_does_not_fit_the_board_is_a_move_played_as_one() {
        let mut w = world();
        let board: Board = "XOXOXOOX.".parse().unwrap();
        lay_out(&mut w, board, 0);
        let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
        h.new_game(Colour::Black, Style::Perfect);
        h.memory = board;
        h.extra_rate = 1.0;
        h.sweep_share = 0.0;
        their_turn(&mut h, &mut w, 10);
        assert_eq!(h.extras, 0);
        assert_eq!(w.game_board(), Some(h.memory()));
        assert_eq!(h.memory().piece_count(), 9);
    }

    /// A device piece 4.6 mm off its square's centre (a power cut dropped it
    /// there) stands on that square to a person as to the sensors: they learn
    /// it as the device's move.
    #[test]
    fn a_device_piece_a_few_mm_off_centre_is_seen_as_its_move() {
        let mut w = world();
        let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
        h.new_game(Colour::Black, Style::Perfect);
        h.memory = "X........".parse().unwrap();
        lay_out(&mut w, "X........".parse().unwrap(), 0);
        let i = w.stored_piece(Colour::White).unwrap();
        let c = w.config.pose.square_centre(Square::CENTRE);
        w.hand_move(i, crate::motion::Point::new(c.x + 4_600, c.y), 0.0);
        their_turn(&mut h, &mut w, 10);
        assert_eq!(h.memory().get(Square::CENTRE), Some(tictable::Player::O));
    }
}
