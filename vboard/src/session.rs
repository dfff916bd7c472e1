//! A run of the image with people at the table: the technician of the guided
//! sensor calibration, the operator who starts games, and the simulator's
//! [`SimHuman`], who plays, cheats and fixes the board seeing only the lights and
//! the pieces. The world's clock is the firmware's: virtual time from the executed
//! instructions, its milliseconds in step with SysTick's.
//!
//! What a game is judged by (the rules of `tictable simulate`, seen from outside):
//! it ends with a result light within the time limit, the device does not lose, the
//! pieces lie as the person remembers the game, the result light matches that
//! board, and every cheat is put back by the device before the person's next turn.

use crate::cpu::Board;
use crate::elf::Image;
use crate::mcu::{Fault, Mcu};
use crate::rcc::{Oscillators, ResetKind};
use tictable::{Board as Position, Squares};
use tictable_machine::classify::Reference;
use tictable_machine::controller::sensor_calibration::STEPS;
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::world::{SimConfig, World, ON_SQUARE_MM};
use tictable_machine::Colour;

/// How long the machine may take to be ready for a game, ms.
pub const READY_LIMIT_MS: u32 = 60_000;
/// How long a game may take before it counts as stuck, ms.
pub const GAME_LIMIT_MS: u32 = 3 * 60_000;
/// How long a result light must stay on for the game to count as over, ms.
const OVER_STEADY_MS: u32 = 1_000;

/// How the board is built for a run.
#[derive(Clone, Debug)]
pub struct Bench {
    /// Core cycles per instruction.
    pub cpi: u64,
    /// The oscillators.
    pub osc: Oscillators,
    /// The LSI (the watchdog's clock), Hz.
    pub lsi_hz: u64,
    /// The world's seed.
    pub seed: u64,
}

impl Default for Bench {
    fn default() -> Bench {
        Bench {
            cpi: 8,
            osc: Oscillators::default(),
            lsi_hz: 40_000,
            seed: 7,
        }
    }
}

/// Why a run could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The image faulted (or touched what no model knows).
    Fault(String),
    /// The machine did not do what a person waited for.
    Stuck(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Fault(s) => write!(f, "fault: {s}"),
            RunError::Stuck(s) => write!(f, "stuck: {s}"),
        }
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec {
    /// How the person plays.
    pub style: Style,
    /// Probability per turn that the person cheats.
    pub cheat_rate: f64,
    /// A power cut: `(ms after Start, ms off)`.
    pub cut_at_ms: Option<u32>,
    /// A power cut half-way through the first flash erase after this many ms.
    pub cut_in_erase_after_ms: Option<u32>,
    /// A power cut during a half-word write after this many ms.
    pub cut_in_write_after_ms: Option<u32>,
    /// The next flash erase or write after this many ms never ends (a hung loop:
    /// the watchdog must reset the chip).
    pub hang_erase_after_ms: Option<u32>,
    /// A slave holds SDA low from this many ms after Start.
    pub hold_bus_after_ms: Option<u32>,
    /// The person's moves from the position alone (see `SimHuman::script`).
    pub script: Option<fn(&Position) -> Option<tictable::Square>>,
    /// Who moves first, set with the Side button before Start (`None`: as the
    /// machine is set up).
    pub device_first: Option<bool>,
}

impl GameSpec {
    /// A plain game.
    pub const fn plain(style: Style) -> GameSpec {
        GameSpec {
            style,
            cheat_rate: 0.0,
            cut_at_ms: None,
            cut_in_erase_after_ms: None,
            cut_in_write_after_ms: None,
            hang_erase_after_ms: None,
            hold_bus_after_ms: None,
            script: None,
            device_first: None,
        }
    }
}

/// What happened in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameResult {
    /// The result light: `Some(true)` Win, `Some(false)` Loss, `None` Draw.
    pub device_won: Option<bool>,
    /// It ended with a result light.
    pub finished: bool,
    /// Cheats made, and put back by the device.
    pub cheats: u32,
    /// Cheats the device put back before the person's next turn.
    pub restored: u32,
    /// Squares where the pieces differ from the game the person remembers.
    pub pieces_off: u32,
    /// The result light does not match the board.
    pub wrong_result: bool,
    /// Device placements (Device turn light on until Human turn or a result), ms.
    pub placements_ms: Vec<u32>,
    /// Resets during the game.
    pub resets: Vec<ResetKind>,
    /// Duration, ms.
    pub duration_ms: u32,
    /// Times the person fixed the board after the error light.
    pub fixes: u32,
    /// The device moved first.
    pub device_first: bool,
    /// The moves in order as the person saw them played (theirs, and the
    /// device's when its piece appeared; the device's last from the board).
    pub moves: Vec<tictable::Square>,
}

impl GameResult {
    /// The rule violations of this game, in words (empty: it passed).
    pub fn violations(&self) -> Vec<String> {
        let mut v = vec![];
        if !self.finished {
            v.push("stuck: no result light".into());
        }
        if self.device_won == Some(false) && self.finished {
            v.push("the device LOST".into());
        }
        if self.pieces_off > 0 {
            v.push(format!("{} squares off the game", self.pieces_off));
        }
        if self.wrong_result {
            v.push("the result light does not match the board".into());
        }
        if self.restored < self.cheats {
            v.push(format!(
                "{} of {} cheats not put back",
                self.cheats - self.restored,
                self.cheats
            ));
        }
        v
    }
}

/// Something that watches a run (a waveform, a terminal view), called after each
/// of the world's milliseconds.
pub trait Observer {
    /// The session as the watch begins (at power-on).
    fn start(&mut self, _s: &mut Session<'_>) {}
    /// The session after a millisecond.
    fn tick(&mut self, s: &mut Session<'_>);
}

/// A run of the image.
pub struct Session<'a> {
    /// The board (core, chip, machine).
    pub board: Board<'a>,
    /// The person at the table.
    pub human: SimHuman,
    /// The world's millisecond.
    pub ms: u32,
    /// SysTick's phase (its interrupts come at whole ms from here), ns.
    phase_ns: Option<u64>,
    last_lights: [bool; 7],
    /// What the people saw, in order.
    pub log: Vec<String>,
    /// Every reset, with its world ms.
    pub resets: Vec<(u32, ResetKind)>,
    /// Done pressed to the first STEP edge, µs.
    pub done_to_step_us: Vec<u64>,
    done_at: Option<(u64, u64)>,
    done_was: bool,
    /// STEP edges so far, and when the count last changed (ns).
    edges_seen: (u64, u64),
    /// A fault kind on until the world counted one more than this.
    pub burst: Option<(tictable_machine::sim::faults::FaultKind, u64)>,
    /// A watcher, called at the end of each [`Session::tick`].
    pub observer: Option<&'a mut dyn Observer>,
}

/// The lights that are on.
pub fn lit(lights: &[bool; 7]) -> Vec<Light> {
    Light::ALL
        .into_iter()
        .filter(|l| lights[l.index()])
        .collect()
}

/// Whether exactly `on` are lit.
fn exactly(lights: &[bool; 7], on: &[Light]) -> bool {
    Light::ALL
        .iter()
        .all(|l| lights[l.index()] == on.contains(l))
}

impl<'a> Session<'a> {
    /// The image on a fresh board with `flash` (the image and, in its last
    /// pages, what was saved; `None`: blank), powered on.
    pub fn new(
        image: &Image,
        flash: Option<Vec<u8>>,
        bench: &Bench,
    ) -> Result<Session<'a>, RunError> {
        let config = SimConfig::standard(0.0, 0.0, bench.seed)
            .map_err(|e| RunError::Fault(format!("{e:?}")))?;
        let mut world = World::new(config);
        world.now_ms = 0;
        let mut array = image.flash.clone();
        if let Some(f) = flash {
            array[crate::STORE_OFFSET..].copy_from_slice(&f[crate::STORE_OFFSET..]);
        }
        let mcu = Mcu::new(world, array, bench.osc, bench.lsi_hz);
        let board = Board::new(image.clone(), mcu, bench.cpi).map_err(RunError::Fault)?;
        Ok(Session {
            board,
            human: SimHuman::passive(bench.seed ^ 0x5EED),
            ms: 0,
            phase_ns: None,
            last_lights: [false; 7],
            log: vec![],
            resets: vec![],
            done_to_step_us: vec![],
            done_at: None,
            done_was: false,
            edges_seen: (0, 0),
            burst: None,
            observer: None,
        })
    }

    /// `o` watches from now on.
    pub fn watch(&mut self, o: &'a mut dyn Observer) {
        o.start(self);
        self.observer = Some(o);
    }

    /// The world.
    pub fn world(&mut self) -> &mut World {
        &mut self.board.mcu().world
    }

    /// The lights now.
    pub fn lights(&mut self) -> [bool; 7] {
        self.world().lights
    }

    /// The chip.
    pub fn mcu(&mut self) -> &mut Mcu {
        self.board.mcu()
    }

    /// One millisecond of the world: the image runs to it, the person acts.
    pub fn tick(&mut self) -> Result<(), RunError> {
        if self.phase_ns.is_none() {
            let m = self.board.mcu();
            if let Some(c) = m.systick.next_interrupt() {
                self.phase_ns = Some(m.time.ns_at_cycle(c) % 1_000_000);
            }
        }
        let phase = self.phase_ns.unwrap_or(0);
        let end = phase + (u64::from(self.ms) + 1) * 1_000_000;
        match self.board.run_until(end) {
            Ok(Some(kind)) => {
                self.resets.push((self.ms, kind));
                self.log.push(format!("{:8} ms reset: {kind:?}", self.ms));
                self.phase_ns = None;
            }
            Ok(None) => {}
            Err(f) => return Err(self.fault(f)),
        }
        let ns = self.board.mcu().ns();
        let ms = (ns.saturating_sub(phase) / 1_000_000) as u32;
        self.ms = self.ms.max(ms);
        let now = self.ms;
        let m = self.board.mcu();
        m.world.now_ms = now;
        if let Some((kind, before)) = self.burst {
            if tictable_machine::sim::scenario::world_faults(&m.world)[kind] > before {
                m.world
                    .config
                    .set_faults(tictable_machine::sim::faults::FaultSet::EMPTY, 0.0);
                self.burst = None;
            }
        }
        self.human.step(&mut m.world, now);
        // Done pressed: time to the first STEP edge.
        let done = m.world.buttons[Button::Done.index()];
        let edges = m.wiring.timing.edges[0] + m.wiring.timing.edges[1];
        // Done pressed to the first STEP edge of the device's move: the first edge
        // after Done that follows a rest of the gantry of 50 ms or more (the head
        // may still be parking after the last move when the person presses).
        if done && !self.done_was {
            self.done_at = Some((ns, edges));
        }
        self.done_was = done;
        if edges != self.edges_seen.0 {
            let rested = ns - self.edges_seen.1 >= 50_000_000;
            if let Some((t, _)) = self.done_at.filter(|_| rested) {
                self.done_to_step_us.push((ns - t) / 1_000);
                self.done_at = None;
            }
            self.edges_seen = (edges, ns);
        }
        if self.done_at.is_some_and(|(t, _)| ns - t > 30_000_000_000) {
            self.done_at = None;
        }
        let lights = m.world.lights;
        if lights != self.last_lights {
            self.last_lights = lights;
            if self.log.len() < 5_000 {
                self.log
                    .push(format!("{now:8} ms lights {:?}", lit(&lights)));
            }
        }
        if let Some(o) = self.observer.take() {
            o.tick(self);
            self.observer = Some(o);
        }
        Ok(())
    }

    fn fault(&mut self, f: Fault) -> RunError {
        let pc = match &f {
            Fault::Unmapped { pc, .. } | Fault::Cpu { pc, .. } => *pc,
        };
        RunError::Fault(format!("{f} ({})", self.board.image().describe(pc)))
    }

    /// Runs until `done` or `limit_ms` pass; whether `done` came.
    pub fn run_until(
        &mut self,
        limit_ms: u32,
        mut done: impl FnMut(&mut Self) -> bool,
    ) -> Result<bool, RunError> {
        let end = self.ms + limit_ms;
        while self.ms < end {
            if done(self) {
                return Ok(true);
            }
            self.tick()?;
        }
        Ok(done(self))
    }

    /// Runs for `ms`.
    pub fn run_for(&mut self, ms: u32) -> Result<(), RunError> {
        self.run_until(ms, |_| false).map(|_| ())
    }

    /// Whether the lights show the machine ready for a game: Setup (Device turn or
    /// Human turn alone, the first square maybe on the number lights), a result,
    /// or a task done.
    fn ready(lights: &[bool; 7]) -> bool {
        !lights[Light::Error.index()]
            && (exactly(lights, &[Light::HumanTurn])
                || lights[Light::DeviceTurn.index()]
                || exactly(lights, &[Light::Win])
                || exactly(lights, &[Light::Draw])
                || exactly(lights, &[Light::Loss])
                || exactly(lights, &[Light::Lamp]))
    }

    /// Waits until the lights show the machine ready and the gantry rests (no
    /// STEP edge: homing shows the Device-turn light too), steadily for 300 ms;
    /// the world ms it became so.
    pub fn wait_ready(&mut self, limit_ms: u32) -> Result<u32, RunError> {
        let mut since = None;
        let mut edges = u64::MAX;
        let ok = self.run_until(limit_ms, |s| {
            let l = s.lights();
            let t = s.mcu().wiring.timing;
            let e = t.edges[0] + t.edges[1];
            let resting = std::mem::replace(&mut edges, e) == e;
            if Session::ready(&l) && resting {
                let t = *since.get_or_insert(s.ms);
                s.ms >= t + 300
            } else {
                since = None;
                false
            }
        })?;
        match (ok, since) {
            (true, Some(t)) => Ok(t),
            _ => Err(RunError::Stuck(format!(
                "not ready within {limit_ms} ms; lights {:?}",
                lit(&self.lights())
            ))),
        }
    }

    /// The technician's guided sensor calibration (the firmware asks for it on a
    /// blank flash): each step's pieces laid out when its light shows, Start
    /// pressed.
    pub fn calibrate(&mut self) -> Result<(), RunError> {
        for (i, step) in STEPS.iter().enumerate() {
            let shown = |s: &mut Session| exactly(&s.lights(), &[Light::Error, step.light]);
            if !self.run_until(READY_LIMIT_MS, shown)? {
                return Err(RunError::Stuck(format!(
                    "calibration step {} not shown; lights {:?}",
                    i + 1,
                    lit(&self.lights())
                )));
            }
            let w = self.world();
            w.reset_pieces();
            let colour = match step.reference {
                Reference::Empty => None,
                Reference::Black => Some(Colour::Black),
                Reference::White => Some(Colour::White),
            };
            if let Some(c) = colour {
                for s in step.squares {
                    let p = w
                        .stored_piece(c)
                        .ok_or_else(|| RunError::Stuck("no piece left".into()))?;
                    let to = w.config.pose.square_centre(s);
                    w.hand_move(p, to, 0.0);
                }
            }
            self.run_for(200)?;
            let now = self.ms;
            self.human.press(Button::Start, now);
            self.log.push(format!(
                "{now:8} ms calibration step {} laid out, Start pressed",
                i + 1
            ));
            let gone = |s: &mut Session| !exactly(&s.lights(), &[Light::Error, step.light]);
            if !self.run_until(10_000, gone)? {
                return Err(RunError::Stuck(format!(
                    "calibration step {} not taken",
                    i + 1
                )));
            }
        }
        self.world().reset_pieces();
        Ok(())
    }

    /// A power cut of `off_ms` now, then power back (the flash keeps what it
    /// has, an erase or a write under way leaves what the chip would).
    pub fn power_cycle(&mut self, off_ms: u32) {
        self.board.reset(ResetKind::PowerOn);
        let m = self.board.mcu();
        m.time.cycles += u64::from(off_ms) * m.time.hz / 1_000;
        m.world.power_cut();
        self.resets.push((self.ms, ResetKind::PowerOn));
        self.log
            .push(format!("{:8} ms power cut, {off_ms} ms off", self.ms));
        self.phase_ns = None;
        self.board.reset(ResetKind::PowerOn);
    }

    /// Plays one game: the operator clears the board and presses Start when the
    /// machine is ready; the person plays until a result light stays on.
    pub fn play(&mut self, spec: &GameSpec) -> Result<GameResult, RunError> {
        self.wait_ready(READY_LIMIT_MS)?;
        if let Some(want) = spec.device_first {
            self.choose_side(want)?;
        }
        let device_first = !exactly(&self.lights(), &[Light::HumanTurn]);
        let human_colour = if device_first {
            Colour::White
        } else {
            Colour::Black
        };
        self.world().reset_pieces();
        self.human.passive = false;
        self.human.new_game(human_colour, spec.style);
        self.human.cheat_rate = spec.cheat_rate;
        self.human.script = spec.script;
        let (cheats0, fixes0) = (self.human.cheats, self.human.fixes);
        let start = self.ms;
        self.human.press(Button::Start, start);
        self.log.push(format!(
            "{start:8} ms game: Start pressed ({})",
            if device_first {
                "device first"
            } else {
                "person first"
            }
        ));
        let mut r = GameResult {
            device_first,
            ..GameResult::default()
        };
        let mut seen = Position::EMPTY;
        let resets0 = self.resets.len();
        let (mut over_since, mut placing_since) = (None, None);
        let mut was = self.lights();
        let mut cheat_open = false;
        let mut armed = (
            spec.cut_at_ms,
            spec.cut_in_erase_after_ms,
            spec.cut_in_write_after_ms,
            spec.hang_erase_after_ms,
            spec.hold_bus_after_ms,
        );
        while self.ms < start + GAME_LIMIT_MS {
            let cheats = self.human.cheats;
            self.tick()?;
            let memory = self.human.memory();
            if let Some(m) = one_move(seen, memory) {
                r.moves.push(m);
            }
            seen = memory;
            let since = self.ms - start;
            if self.human.cheats != cheats {
                cheat_open = true;
            }
            // Faults on a schedule.
            if armed.0.is_some_and(|t| since >= t) {
                armed.0 = None;
                self.power_cycle(1_000);
            }
            if armed.1.is_some_and(|t| since >= t)
                && self.mcu().flash.busy_until().is_some_and(|u| u != u64::MAX)
            {
                // Half-way through the erase (or write) under way.
                let m = self.mcu();
                let until = m.flash.busy_until().unwrap_or(0);
                if until.saturating_sub(m.ns()) > 1_000_000 {
                    m.time.cycles = m.time.cycles_at_ns(until - 20_000_000);
                    armed.1 = None;
                    self.log
                        .push(format!("{:8} ms power cut inside a flash erase", self.ms));
                    self.power_cycle(1_000);
                }
            }
            if armed.2.is_some_and(|t| since >= t)
                && self.mcu().flash.busy_until().is_some_and(|u| u != u64::MAX)
            {
                let m = self.mcu();
                let until = m.flash.busy_until().unwrap_or(0);
                if until.saturating_sub(m.ns()) < 1_000_000 {
                    m.time.cycles = m.time.cycles_at_ns(until.saturating_sub(30_000));
                    armed.2 = None;
                    self.log
                        .push(format!("{:8} ms power cut inside a flash write", self.ms));
                    self.power_cycle(1_000);
                }
            }
            if armed.3.is_some_and(|t| since >= t) {
                armed.3 = None;
                self.mcu().flash.hang_next_op = true;
                self.log.push(format!(
                    "{:8} ms the next flash erase or write will hang",
                    self.ms
                ));
            }
            if armed.4.is_some_and(|t| since >= t) {
                armed.4 = None;
                self.world().bus_hung = true;
                self.log
                    .push(format!("{:8} ms a sensor holds SDA low", self.ms));
            }
            let l = self.lights();
            let error = l[Light::Error.index()];
            let result = [Light::Win, Light::Draw, Light::Loss]
                .into_iter()
                .find(|x| exactly(&l, &[*x]));
            // Placements: Device turn on (no error) until Human turn or a result.
            let device_turn = l[Light::DeviceTurn.index()] && !error;
            let human_turn = l[Light::HumanTurn.index()] && !error;
            if device_turn && !was[Light::DeviceTurn.index()] && placing_since.is_none() {
                placing_since = Some(self.ms);
            }
            if (human_turn || result.is_some()) && placing_since.is_some() {
                r.placements_ms
                    .push(self.ms - placing_since.take().unwrap_or(0));
            }
            if error {
                placing_since = None;
            }
            if human_turn && !was[Light::HumanTurn.index()] && cheat_open {
                cheat_open = false;
                if self.device_pieces_as_remembered() {
                    r.restored += 1;
                }
            }
            was = l;
            match result {
                Some(x) => {
                    let t = *over_since.get_or_insert(self.ms);
                    if self.ms >= t + OVER_STEADY_MS {
                        r.finished = true;
                        r.device_won = match x {
                            Light::Win => Some(true),
                            Light::Loss => Some(false),
                            _ => None,
                        };
                        break;
                    }
                }
                None => over_since = None,
            }
        }
        if cheat_open && r.finished && self.device_pieces_as_remembered() {
            r.restored += 1;
        }
        // The person remembers the game up to the device's last move, which ended
        // it: the board must be that game plus at most one device piece.
        let memory = self.human.memory();
        let device = human_colour.other().player();
        let w = self.world();
        let lying = w.board_within(ON_SQUARE_MM);
        let (final_board, off) = match lying {
            Some((x, o)) => {
                let (dev_lying, dev_mem) = match device {
                    tictable::Player::X => (x, memory.x()),
                    tictable::Player::O => (o, memory.o()),
                };
                let (hum_lying, hum_mem) = match device {
                    tictable::Player::X => (o, memory.o()),
                    tictable::Player::O => (x, memory.x()),
                };
                let extra = dev_lying & !dev_mem & !(memory.x() | memory.o());
                let last = if memory.to_move() == device && extra.count_ones() == 1 {
                    extra
                } else {
                    0
                };
                let off = ((dev_lying & !last) ^ dev_mem) | (hum_lying ^ hum_mem);
                if let Some(m) = Squares::from_bits(last).first() {
                    r.moves.push(m);
                }
                (Position::from_bits(x, o).ok(), off.count_ones())
            }
            None => (None, 9),
        };
        r.pieces_off = off;
        let b = final_board.unwrap_or(memory);
        r.wrong_result = r.finished
            && match r.device_won {
                Some(true) => b.winner() != Some(device),
                Some(false) => b.winner() != Some(device.other()),
                None => b.winner().is_some() || !b.is_full(),
            };
        r.cheats = self.human.cheats - cheats0;
        r.fixes = self.human.fixes - fixes0;
        r.resets = self.resets[resets0..].iter().map(|(_, k)| *k).collect();
        r.duration_ms = self.ms - start;
        self.human.passive = true;
        self.human.script = None;
        let lights = lit(&self.lights());
        self.log.push(format!(
            "{:8} ms game over: {:?}, board {:?}, {:?}",
            self.ms,
            lights,
            memory_string(b),
            r.violations()
        ));
        Ok(r)
    }

    /// Presses Side until the setup's lights show the device moving first (`true`)
    /// or the person (Side after a game shows the setup, toggled).
    fn choose_side(&mut self, device_first: bool) -> Result<(), RunError> {
        for _ in 0..3 {
            let l = self.lights();
            let shown = if exactly(&l, &[Light::HumanTurn]) {
                Some(false)
            } else {
                l[Light::DeviceTurn.index()].then_some(true)
            };
            if shown == Some(device_first) {
                return Ok(());
            }
            let now = self.ms;
            self.human.press(Button::Side, now);
            self.run_for(400)?;
        }
        Err(RunError::Stuck(format!(
            "Side did not set the device {}; lights {:?}",
            if device_first { "first" } else { "second" },
            lit(&self.lights())
        )))
    }

    /// Whether the device's pieces lie on the squares the person remembers them.
    fn device_pieces_as_remembered(&mut self) -> bool {
        let device = self.human.colour.other();
        let memory = self.human.memory();
        let w = self.world();
        let Some((x, o)) = w.board_within(ON_SQUARE_MM) else {
            return false;
        };
        let (lying, remembered) = match device {
            Colour::Black => (x, memory.x()),
            Colour::White => (o, memory.o()),
        };
        lying == remembered
    }
}

/// The square played from `before` to `after`, when `after` is `before` and one
/// move.
fn one_move(before: Position, after: Position) -> Option<tictable::Square> {
    let new = (after.x() | after.o()) & !(before.x() | before.o());
    let m = Squares::from_bits(new).first()?;
    (new.count_ones() == 1 && before.play(m) == Ok(after)).then_some(m)
}

/// A board as 9 characters (X, O, .).
fn memory_string(b: Position) -> String {
    b.to_string()
}
