//! Scripted complete games on the emulated CPU: the real `tictable::device`
//! `Controller` (sensors through the real `tcs3472`/`xca9548a` drivers, steppers,
//! lift, magnet, buttons, lights) against a small `no_std` model of the physical
//! board and a person. The host simulator (`src/device/sim`) is std-only (shared
//! `Rc<RefCell<World>>`, `Vec`, fault injection, reporting); this is its minimal
//! allocation-free counterpart: a fault-free world at bus and pin level, shared by
//! reference, with the same register protocol, optics constants and geometry.
//!
//! Each game checks that it ends, that the device does not lose, and that the
//! pieces on the model board match the controller's game record.

use core::cell::RefCell;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType as PinErrorType, InputPin, OutputPin};
use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};
use tictable::device::classify::{Calibration, Calibrator, Margins, Reference, Rgbc};
use tictable::device::controller::{BestMove, Controller, GameSetup, Hardware, Layout, State};
use tictable::device::motion::{
    Axis, AxisConfig, AxisId, HeadTiming, Machine, PinLift, Point, Pose, Storage, STORAGE_SLOTS,
};
use tictable::device::panel::{Button, Light, Panel};
use tictable::device::scanner::{ScanSettings, Scanner};
use tictable::device::sensors::{Mux, SensorBank, SensorSettings, Wiring, SENSOR_ADDRESS};
use tictable::device::Colour;
use tictable::{Board, Square};

/// Optics (as the host simulator): what a sensor sees over an empty square, a black
/// and a white piece; a piece covers fully within 4 mm and not at all past 14 mm.
const EMPTY_RGBC: [f32; 4] = [1200.0, 420.0, 400.0, 380.0];
const BLACK_RGBC: [f32; 4] = [260.0, 90.0, 85.0, 80.0];
const WHITE_RGBC: [f32; 4] = [3400.0, 1150.0, 1200.0, 1100.0];
const FULL_COVER_MM: f32 = 4.0;
const NO_COVER_MM: f32 = 14.0;
/// The magnet catches a piece within this distance of the head.
const CATCH_MM: f32 = 5.0;
const PIECES: usize = 2 * STORAGE_SLOTS;

/// The geometry: a 32 mm board centred at (160, 130), storage columns left and right.
fn layout() -> Option<Layout> {
    Some(Layout {
        pose: Pose::new(Point::mm(160, 130), 0, 32_000).ok()?,
        storage: Storage {
            first: [Point::mm(20, 70), Point::mm(300, 70)],
            step: Point::mm(0, 30),
        },
        park: Point::mm(160, 10),
    })
}

/// The physical board: pieces, head, sensors' registers, buttons, lights.
pub struct World {
    layout: Layout,
    pieces: [(Colour, Point); PIECES],
    held: Option<usize>,
    steps: [i32; 2],
    step_level: [bool; 2],
    dir: [bool; 2],
    lowered: bool,
    magnet: bool,
    mux: [u8; 2],
    /// Per sensor: registers, register pointer, auto-increment.
    sensors: [([u8; 32], u8, bool); 9],
    buttons: [bool; 5],
    lights: [bool; 7],
}

impl World {
    fn new(layout: Layout) -> World {
        let mut regs = [0u8; 32];
        regs[0x12] = 0x44; // TCS34725 ID
        let mut w = World {
            layout,
            pieces: [(Colour::Black, Point::new(0, 0)); PIECES],
            held: None,
            // Somewhere on the frame: homing finds the switches.
            steps: [900, 700],
            step_level: [false; 2],
            dir: [false; 2],
            lowered: false,
            magnet: false,
            mux: [0; 2],
            sensors: [(regs, 0, false); 9],
            buttons: [false; 5],
            lights: [false; 7],
        };
        w.reset_pieces();
        w
    }

    /// Every piece back in its storage column.
    fn reset_pieces(&mut self) {
        for (i, p) in self.pieces.iter_mut().enumerate() {
            let colour = if i < STORAGE_SLOTS {
                Colour::Black
            } else {
                Colour::White
            };
            let slot = self.layout.storage.slot(colour, i % STORAGE_SLOTS);
            *p = (colour, slot.unwrap_or(Point::new(0, 0)));
        }
        self.held = None;
    }

    fn head(&self) -> Point {
        let um = |steps: i32| steps * 1000 / AxisConfig::DEFAULT.steps_per_mm as i32;
        Point::new(um(self.steps[0]), um(self.steps[1]))
    }

    fn in_storage(&self, i: usize) -> bool {
        let (colour, at) = self.pieces[i];
        (0..STORAGE_SLOTS).any(|k| {
            self.layout
                .storage
                .slot(colour, k)
                .is_some_and(|s| (s.distance(at) as f32) < FULL_COVER_MM * 1000.0)
        })
    }

    /// A piece of `colour` in storage, not on the magnet.
    fn stored_piece(&self, colour: Colour) -> Option<usize> {
        (0..PIECES)
            .rev()
            .find(|&i| self.pieces[i].0 == colour && self.held != Some(i) && self.in_storage(i))
    }

    /// The pieces on the squares, as a board (`None` if a piece lies off-centre).
    fn board(&self) -> Option<Board> {
        let (mut x, mut o) = (0u16, 0u16);
        for i in 0..PIECES {
            if self.held == Some(i) || self.in_storage(i) {
                continue;
            }
            let (colour, at) = self.pieces[i];
            let square = self
                .layout
                .pose
                .square_at(at, (FULL_COVER_MM * 1000.0) as u32)?;
            match colour {
                Colour::Black => x |= square.bit(),
                Colour::White => o |= square.bit(),
            }
        }
        Board::from_bits(x, o).ok()
    }

    fn measure(&self, square: Square) -> Rgbc {
        let centre = self.layout.pose.square_centre(square);
        let (mut cover, mut colour) = (0.0f32, Colour::Black);
        for (i, &(c, at)) in self.pieces.iter().enumerate() {
            if self.held == Some(i) {
                continue;
            }
            let k = ((NO_COVER_MM - at.distance(centre) as f32 / 1000.0)
                / (NO_COVER_MM - FULL_COVER_MM))
                .clamp(0.0, 1.0);
            if k > cover {
                (cover, colour) = (k, c);
            }
        }
        let piece = match colour {
            Colour::Black => BLACK_RGBC,
            Colour::White => WHITE_RGBC,
        };
        let v = |k: usize| (EMPTY_RGBC[k] + (piece[k] - EMPTY_RGBC[k]) * cover) as u16;
        Rgbc::new(v(0), v(1), v(2), v(3))
    }

    fn set_step(&mut self, a: usize, level: bool) {
        if level && !self.step_level[a] {
            self.steps[a] += if self.dir[a] { 1 } else { -1 };
        }
        self.step_level[a] = level;
    }

    fn set_magnet(&mut self, on: bool) {
        if on == self.magnet {
            return;
        }
        self.magnet = on;
        let head = self.head();
        if on && self.lowered && self.held.is_none() {
            self.held =
                (0..PIECES).find(|&i| (self.pieces[i].1.distance(head) as f32) < CATCH_MM * 1000.0);
        } else if let (false, Some(i)) = (on, self.held.take()) {
            self.pieces[i].1 = head;
        }
    }
}

/// What a pin of the model is wired to.
#[derive(Clone, Copy)]
pub enum Role {
    Step(usize),
    Dir(usize),
    Limit(usize),
    Lift,
    Magnet,
    Button(usize),
    Light(usize),
}

/// A GPIO pin of the model.
pub struct ModelPin<'w> {
    world: &'w RefCell<World>,
    role: Role,
}

impl PinErrorType for ModelPin<'_> {
    type Error = Infallible;
}

impl ModelPin<'_> {
    fn set(&mut self, level: bool) {
        let mut w = self.world.borrow_mut();
        match self.role {
            Role::Step(a) => w.set_step(a, level),
            Role::Dir(a) => w.dir[a] = level,
            Role::Lift => w.lowered = level,
            Role::Magnet => w.set_magnet(level),
            Role::Light(i) => w.lights[i] = level,
            Role::Limit(_) | Role::Button(_) => {}
        }
    }

    /// Inputs are pulled up and active low, as on the real board.
    fn level(&self) -> bool {
        let w = self.world.borrow();
        match self.role {
            Role::Limit(a) => w.steps[a] > 0,
            Role::Button(i) => !w.buttons[i],
            Role::Step(a) => w.step_level[a],
            Role::Dir(a) => w.dir[a],
            Role::Lift => w.lowered,
            Role::Magnet => w.magnet,
            Role::Light(i) => w.lights[i],
        }
    }
}

impl OutputPin for ModelPin<'_> {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.set(false);
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.set(true);
        Ok(())
    }
}

impl InputPin for ModelPin<'_> {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.level())
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(!self.level())
    }
}

/// The I2C bus: two TCA9548A multiplexers and nine TCS34725 sensors behind them.
pub struct ModelBus<'w> {
    world: &'w RefCell<World>,
}

impl ErrorType for ModelBus<'_> {
    type Error = ErrorKind;
}

impl I2c for ModelBus<'_> {
    fn transaction(&mut self, address: u8, ops: &mut [Operation<'_>]) -> Result<(), ErrorKind> {
        let mut w = self.world.borrow_mut();
        if let Some(m) = Mux::ALL.iter().position(|m| m.address() == address) {
            for op in ops.iter_mut() {
                match op {
                    Operation::Write(bytes) => {
                        if let Some(&b) = bytes.last() {
                            w.mux[m] = b;
                        }
                    }
                    Operation::Read(buf) => buf.fill(w.mux[m]),
                }
            }
            return Ok(());
        }
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        if address != SENSOR_ADDRESS {
            return Err(nack);
        }
        let mux = w.mux;
        let mut selected = Square::ALL.into_iter().filter(|s| {
            let ch = Wiring::DEFAULT.channel(*s);
            mux[(ch.mux == Mux::B) as usize] & (1 << ch.channel) != 0
        });
        let square = match (selected.next(), selected.next()) {
            (Some(s), None) => s,
            (None, _) => return Err(nack),
            _ => return Err(ErrorKind::ArbitrationLoss),
        };
        let s = square.index() as usize;
        for op in ops.iter_mut() {
            match op {
                Operation::Write(bytes) => {
                    let Some((&cmd, data)) = bytes.split_first() else {
                        continue;
                    };
                    if cmd & 0x80 == 0 {
                        continue;
                    }
                    let (regs, pointer, auto) = &mut w.sensors[s];
                    *pointer = cmd & 0x1F;
                    *auto = (cmd >> 5) & 0x03 == 0x01;
                    for &b in data.iter() {
                        if !matches!(*pointer, 0x12..=0x1B) {
                            regs[*pointer as usize] = b;
                        }
                        if *auto {
                            *pointer = (*pointer + 1) & 0x1F;
                        }
                    }
                }
                Operation::Read(buf) => {
                    if (0x13..=0x1B).contains(&w.sensors[s].1) {
                        let r = w.measure(square);
                        let regs = &mut w.sensors[s].0;
                        regs[0x13] = (regs[0] & 0x03 == 0x03) as u8;
                        for (k, v) in [r.clear, r.red, r.green, r.blue].into_iter().enumerate() {
                            regs[0x14 + 2 * k..0x16 + 2 * k].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                    let (regs, pointer, auto) = &mut w.sensors[s];
                    for b in buf.iter_mut() {
                        *b = regs[*pointer as usize];
                        if *auto {
                            *pointer = (*pointer + 1) & 0x1F;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The person: plays perfectly or pseudo-randomly, with a hand and the Done button.
struct Person {
    colour: Colour,
    random: bool,
    seed: u32,
    act_at: Option<u32>,
    turn_light: bool,
    press: Option<(Button, u32)>,
}

impl Person {
    fn step(&mut self, w: &mut World, now: u32) {
        if let Some((button, start)) = self.press {
            let held = now.wrapping_sub(start);
            w.buttons[button.index()] = held < 120;
            if held >= 200 {
                self.press = None;
            }
        }
        let turn = w.lights[Light::HumanTurn.index()];
        if turn && !self.turn_light {
            self.act_at = Some(now + 400);
        }
        self.turn_light = turn;
        if !turn || self.press.is_some() || self.act_at.is_none_or(|t| now < t) {
            return;
        }
        self.act_at = None;
        let Some(board) = w.board() else {
            return;
        };
        let legal = board.legal_moves();
        let square = if self.random && !legal.is_empty() {
            // xorshift32: a fixed, varied script of moves.
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 17;
            self.seed ^= self.seed << 5;
            // Scaled into 0..len by a multiply (no division on Cortex-M0).
            let k = (u64::from(self.seed) * u64::from(legal.len())) >> 32;
            legal.nth(k as usize)
        } else {
            tictable::best_move(&board)
        };
        if let (Some(square), Some(piece)) = (square, w.stored_piece(self.colour)) {
            w.pieces[piece].1 = w.layout.pose.square_centre(square);
            self.press = Some((Button::Done, now));
        }
    }
}

/// Calibrates the sensors the way a technician does (board empty, then black and
/// white pieces on every square, five at a time), through the real drivers.
fn calibrate(world: &RefCell<World>, bank: &mut SensorBank<ModelBus<'_>>) -> Option<Calibration> {
    bank.init().ok()?;
    let mut cal = Calibrator::new();
    let groups: [&[Square]; 2] = [&Square::ALL[..5], &Square::ALL[5..]];
    let mut sample = |cal: &mut Calibrator, r: Reference, squares: &[Square]| {
        for &s in squares {
            for _ in 0..4 {
                if let Ok(reading) = bank.read(s) {
                    cal.record(r, s, reading);
                }
            }
        }
    };
    sample(&mut cal, Reference::Empty, &Square::ALL);
    for (colour, reference) in [
        (Colour::Black, Reference::Black),
        (Colour::White, Reference::White),
    ] {
        for group in groups {
            {
                let mut w = world.borrow_mut();
                w.reset_pieces();
                for &s in group {
                    let i = w.stored_piece(colour)?;
                    w.pieces[i].1 = w.layout.pose.square_centre(s);
                }
            }
            sample(&mut cal, reference, group);
        }
    }
    world.borrow_mut().reset_pieces();
    cal.finish(300, Margins::DEFAULT).ok()
}

/// Totals of the scripted games.
pub struct Outcome {
    /// Games that ended with the device winning.
    pub wins: u32,
    /// Games that ended drawn.
    pub draws: u32,
}

/// Why the games failed.
pub enum Failure {
    /// The model or the calibration could not be set up.
    Setup,
    /// A game did not end in time.
    Stuck(u32),
    /// The device lost a game.
    Lost(u32),
    /// The pieces on the board differ from the record at the end of a game.
    BoardMismatch(u32),
}

impl Failure {
    /// What failed, and in which game (`u32::MAX` for the setup).
    pub fn describe(&self) -> (&'static str, u32) {
        match *self {
            Failure::Setup => ("board model or calibration setup failed", u32::MAX),
            Failure::Stuck(g) => ("game did not end in time", g),
            Failure::Lost(g) => ("device lost", g),
            Failure::BoardMismatch(g) => ("board differs from the record", g),
        }
    }
}

/// How long a game may take, ms of virtual time.
const GAME_LIMIT_MS: u32 = 10 * 60 * 1000;

/// Plays `games` complete games: the device first in even games, the person
/// playing perfectly in games 0 and 1 and pseudo-randomly after that.
pub fn play(games: u32) -> Result<Outcome, Failure> {
    let layout = layout().ok_or(Failure::Setup)?;
    let world = RefCell::new(World::new(layout));
    let bus = || ModelBus { world: &world };
    let pin = |role| ModelPin {
        world: &world,
        role,
    };
    let mut bank = SensorBank::new(bus(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    let calibration = calibrate(&world, &mut bank).ok_or(Failure::Setup)?;
    let axis = |id, a| {
        Axis::new(
            id,
            pin(Role::Step(a)),
            pin(Role::Dir(a)),
            pin(Role::Limit(a)),
            AxisConfig::DEFAULT,
        )
    };
    let machine = Machine::new(
        axis(AxisId::X, 0),
        axis(AxisId::Y, 1),
        PinLift(pin(Role::Lift)),
        pin(Role::Magnet),
        HeadTiming::DEFAULT,
    );
    let panel = Panel::new(
        core::array::from_fn(|i| pin(Role::Button(i))),
        core::array::from_fn(|i| pin(Role::Light(i))),
        50,
    );
    let hw = Hardware {
        sensors: bank,
        scanner: Scanner::new(calibration, ScanSettings::DEFAULT),
        machine,
        panel,
    };
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    let mut controller = Controller::new(hw, BestMove, layout, setup);
    let mut person = Person {
        colour: Colour::White,
        random: false,
        seed: 0x2545_F491,
        act_at: None,
        turn_light: false,
        press: None,
    };
    let mut now = 0u32;
    let mut outcome = Outcome { wins: 0, draws: 0 };
    // One millisecond: the person acts, then the controller polls.
    let tick = |c: &mut Controller<_, _, _, _, _>, p: &mut Person, now: &mut u32| {
        *now += 1;
        p.step(&mut world.borrow_mut(), *now);
        c.poll(*now);
    };
    for game in 0..games {
        let device_first = game % 2 == 0;
        // Ready (homed, or the previous game over), board cleared by hand.
        let mut waited = 0;
        while !matches!(controller.state(), State::Setup | State::Over(_)) {
            if waited > 60_000 {
                return Err(Failure::Stuck(game));
            }
            tick(&mut controller, &mut person, &mut now);
            waited += 1;
        }
        world.borrow_mut().reset_pieces();
        person.colour = if device_first {
            Colour::White
        } else {
            Colour::Black
        };
        person.random = game >= 2;
        let mut presses = [Button::Start; 2];
        let n = if controller.setup().device_first != device_first {
            presses[0] = Button::Side;
            2
        } else {
            1
        };
        for &button in &presses[..n] {
            person.press = Some((button, now));
            while person.press.is_some() {
                tick(&mut controller, &mut person, &mut now);
            }
        }
        let start = now;
        loop {
            if let State::Over(result) = controller.state() {
                match result {
                    Some(true) => outcome.wins += 1,
                    Some(false) => return Err(Failure::Lost(game)),
                    None => outcome.draws += 1,
                }
                break;
            }
            if now.wrapping_sub(start) > GAME_LIMIT_MS {
                return Err(Failure::Stuck(game));
            }
            tick(&mut controller, &mut person, &mut now);
        }
        if world.borrow().board() != Some(controller.record().board()) {
            return Err(Failure::BoardMismatch(game));
        }
    }
    Ok(outcome)
}
