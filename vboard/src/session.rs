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

use crate::cpu::{Board, Exception};
use crate::elf::Image;
use crate::mcu::{Fault, FlashCut, Mcu};
use crate::rcc::{Oscillators, ResetKind};
use tictable::{Board as Position, Squares};
use tictable_machine::classify::Reference;
use tictable_machine::controller::sensor_calibration::STEPS;
use tictable_machine::controller::{GameSetup, Move, Position as GamePosition, Rules};
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::faults::{ByKind, FaultKind, FaultSet};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::scenario::world_faults;
use tictable_machine::sim::wire::HungSlave;
use tictable_machine::sim::world::{SimConfig, World, ON_SQUARE_MM};
use tictable_machine::sim::SplitMix64;
use tictable_machine::Colour;

/// How long the machine may take to be ready for a game, ms.
pub const READY_LIMIT_MS: u32 = 60_000;
/// How long a game may take before it counts as stuck, ms.
pub const GAME_LIMIT_MS: u32 = 3 * 60_000;
/// The same for a game whose pieces move (up to 64 plies, a slide two travels), ms.
pub const MOVING_GAME_LIMIT_MS: u32 = 15 * 60_000;
/// How long a result light must stay on for the game to count as over, ms.
const OVER_STEADY_MS: u32 = 1_000;
/// After a power cut, the Device-turn light alone with the gantry at rest this
/// long tells the operator the machine is in Setup (the game was not on flash
/// yet): the device, moving first, would be moving by then. (In a game the
/// person moves first, Setup shows the Human-turn light as the person's turn
/// does: no scenario cuts the power in one.)
const SETUP_REST_MS: u32 = 4_000;
/// How long an arbitration-lost storm lasts, ms.
pub const ARLO_STORM_MS: u32 = 3_000;
/// How soon after an NMI or a stray interrupt the outputs must be safe, ms.
pub const SAFE_WITHIN_MS: u32 = 10;

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
    /// Mixed into the power-cut draws' seed (the world's stays: the calibrated
    /// flash of the first scenario is the world's of that seed).
    pub cut_seed: u64,
    /// An interrupt handler this long, µs, landing in each I2C read's closing
    /// sequence where interrupts are enabled (`Mcu::late_irq_ns`).
    pub late_irq_us: Option<u64>,
    /// The sensor boards' LEDs, as a share of their brightness (1: as built; less:
    /// dim, low counts; `World::set_leds`).
    pub leds: f64,
}

impl Default for Bench {
    fn default() -> Bench {
        Bench {
            cpi: 8,
            osc: Oscillators::default(),
            lsi_hz: 40_000,
            seed: 7,
            cut_seed: 0,
            late_irq_us: None,
            leds: 1.0,
        }
    }
}

impl Bench {
    /// The seed of this run's part (its PVD levels, [`crate::pwr::part_offset_mv`]):
    /// the world's mixed with [`Bench::cut_seed`].
    pub fn part_seed(&self) -> u64 {
        self.seed ^ self.cut_seed.rotate_left(17)
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
    /// A glitch on SCL/SDA this many ms after Start locks I2C1's BUSY (ES096
    /// §2.8.7): only the erratum's sequence and a reset free it.
    pub glitch_bus_after_ms: Option<u32>,
    /// The supply sags below the PVD's level for a while.
    pub sag: Option<Sag>,
    /// An exception raised the first time the magnet holds a piece while the
    /// steppers run.
    pub exception_mid_move: Option<Exception>,
    /// The crystal stops for good the first time the magnet holds a piece while
    /// the steppers run (judged as an exception: the outputs safe at once, a
    /// software reset, the game resumed on the internal clock).
    pub crystal_fails_mid_move: bool,
    /// An arbitration-lost storm of [`ARLO_STORM_MS`] from this many ms after
    /// Start: every address byte in it loses arbitration (`I2c::arlo_storm`).
    pub arlo_storm_after_ms: Option<u32>,
    /// The person's moves from the position alone (see `SimHuman::script`).
    pub script: Option<fn(&Position) -> Option<tictable::Square>>,
    /// The same in a game whose pieces move (see `SimHuman::move_script`).
    pub move_script: Option<tictable_machine::sim::human::MoveScript>,
    /// Who moves first, set with the Side button before Start (`None`: as the
    /// machine is set up).
    pub device_first: Option<bool>,
    /// The device plays a level that may lose (`random`, `easy`, `medium`,
    /// `epsilon:E`), or a game it loses against perfect play from its side: its
    /// loss is no violation and not counted in the PASS line.
    pub may_lose: bool,
    /// The game, chosen with the Level button before the game (the `games`
    /// image, [`crate::games::choose_game`]); `None`: the machine's game as it
    /// is (tic-tac-toe in the default image).
    pub game: Option<Rules>,
    /// The operator presses Level in the person's first turn (the `games` image:
    /// the machine must ask for confirmation, every light on), then answers:
    /// `Some(true)` Level again (the game ends: the board to clear, then Setup),
    /// `Some(false)` Side (the game goes on as it was).
    pub level_mid_game: Option<bool>,
}

/// A supply sag: VDD at `mv` from `after_ms` after Start for `for_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Sag {
    /// When it starts, ms after Start.
    pub after_ms: u32,
    /// How long it lasts, ms.
    pub for_ms: u32,
    /// VDD meanwhile, mV.
    pub mv: u32,
}

/// A power cut to come, drawn by the `power-cut` fault kind or scheduled.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CutPlan {
    /// At this world ms.
    At(u32),
    /// Inside the next page erase, this fraction of the way through it; given
    /// up when a half-word is written first (the next save erased nothing) past
    /// this count, unless `None` (a scheduled cut: the next erase whenever).
    InErase(f64, Option<u64>),
    /// Inside a half-word write after the flash counted this many, this
    /// fraction of the way through it.
    InWrite(u64, f64),
}

impl GameSpec {
    /// Whether nothing is to disturb the game: no cheat, no scheduled fault.
    pub fn undisturbed(&self) -> bool {
        self.cheat_rate == 0.0
            && self.cut_at_ms.is_none()
            && self.cut_in_erase_after_ms.is_none()
            && self.cut_in_write_after_ms.is_none()
            && self.hang_erase_after_ms.is_none()
            && self.hold_bus_after_ms.is_none()
            && self.glitch_bus_after_ms.is_none()
            && self.sag.is_none()
            && self.exception_mid_move.is_none()
            && !self.crystal_fails_mid_move
            && self.arlo_storm_after_ms.is_none()
            && self.level_mid_game.is_none()
    }

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
            glitch_bus_after_ms: None,
            sag: None,
            exception_mid_move: None,
            crystal_fails_mid_move: false,
            arlo_storm_after_ms: None,
            script: None,
            move_script: None,
            device_first: None,
            may_lose: false,
            game: None,
            level_mid_game: None,
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
    /// The device played a level that may lose ([`GameSpec::may_lose`]).
    pub may_lose: bool,
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
    /// The person gave the game up (swept the board, held Start: a share of
    /// `human-extra`), and the machine went back to Setup.
    pub given_up: bool,
    /// Power cuts in the game, and restarts by the operator after one (the
    /// game was not on flash yet).
    pub cuts: (u32, u32),
    /// Mess-ups of the board (`human-extra`) the machine went on from without
    /// the Error light.
    pub unseen_messes: u32,
    /// Sensors still frozen (`stuck-sensor`) when the game ended: the machine
    /// never asked a person to replug them.
    pub frozen: u32,
    /// Games the machine forgot: back in Setup after a cut that came 0.5 s or
    /// more after its first placement ended (a save was due then).
    pub forgotten: u32,
    /// A supply sag: PVDO reads that said "low", and half-words written after
    /// the supply came back (`None`: no sag).
    pub sag: Option<(u64, u64)>,
    /// An exception raised mid-move: ms until the outputs were safe (`None`:
    /// never), and whether a software reset followed.
    pub exception: Option<(Option<u32>, bool)>,
    /// The device moved first.
    pub device_first: bool,
    /// The moves in order as the person saw them played (theirs, and the
    /// device's when its piece appeared; the device's last from the board).
    pub moves: Vec<tictable::Square>,
    /// The game played.
    pub game: Rules,
    /// In a game whose pieces move, its moves in order as the person remembers
    /// them (the device's last from the board); empty in a placing game (see
    /// [`GameResult::moves`]).
    pub plies: Vec<Move>,
    /// Illegal moves of the person's own (a slide not along a line, a capture
    /// straight ahead, a piece moved twice: `SimHuman::illegal`), and those the
    /// machine refused with the Error light before it moved again.
    pub illegal: (u32, u32),
    /// Level pressed mid-game ([`GameSpec::level_mid_game`]): what the machine did
    /// other than ask for confirmation and take the answer, in words (`None`:
    /// never pressed).
    pub level: Option<Vec<String>>,
    /// The game ended with Level pressed twice (the board cleared as asked).
    pub ended_by_level: bool,
}

impl GameResult {
    /// The rule violations of this game, in words (empty: it passed).
    pub fn violations(&self) -> Vec<String> {
        let mut v = vec![];
        if !self.finished && !self.given_up && !self.ended_by_level {
            v.push("stuck: no result light".into());
        }
        if self.unseen_messes > 0 {
            v.push(format!(
                "{} mess-ups of the board not shown with the Error light",
                self.unseen_messes
            ));
        }
        if self.frozen > 0 {
            v.push(format!(
                "{} sensors still frozen at the end (never reported for a replug)",
                self.frozen
            ));
        }
        if self.forgotten > 0 {
            v.push(format!(
                "back in Setup after {} power cuts though the game was on flash",
                self.forgotten
            ));
        }
        if let Some((low_reads, written)) = self.sag {
            if low_reads == 0 {
                v.push("no save came due while the supply was low (PVDO never read set)".into());
            }
            if written == 0 {
                v.push("nothing saved after the supply came back".into());
            }
        }
        if let Some((safe, reset)) = self.exception {
            match safe {
                Some(ms) if ms <= SAFE_WITHIN_MS => {}
                Some(ms) => v.push(format!("outputs safe only {ms} ms after the exception")),
                None => v.push("outputs never safe after the exception".into()),
            }
            if !reset {
                v.push("no software reset after the exception".into());
            }
        }
        if self.device_won == Some(false) && self.finished && !self.may_lose {
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
        if let Some(problems) = &self.level {
            v.extend(problems.iter().cloned());
        }
        if self.illegal.1 < self.illegal.0 {
            v.push(format!(
                "{} of {} illegal moves of the person's accepted (no Error light before their next turn or a result)",
                self.illegal.0 - self.illegal.1,
                self.illegal.0
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
    /// A watcher, called at the end of each [`Session::tick`].
    pub observer: Option<&'a mut dyn Observer>,
    /// A fault kind on until [`Session::faults`] counted one more than this.
    pub burst: Option<(FaultKind, u64)>,
    /// Power cuts made in games (the `power-cut` kind's count).
    pub cuts: u64,
    /// The `power-cut` kind's probability per change of the lights (the
    /// changes of state a person sees; the host draws per state change).
    cut_rate: f64,
    /// The power-cut draws.
    rng: SplitMix64,
    /// A power cut to come.
    cut_plan: Option<CutPlan>,
}

/// The lights that are on.
pub fn lit(lights: &[bool; 7]) -> Vec<Light> {
    Light::ALL
        .into_iter()
        .filter(|l| lights[l.index()])
        .collect()
}

/// Whether exactly `on` are lit.
pub fn exactly(lights: &[bool; 7], on: &[Light]) -> bool {
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
        world.set_leds(bench.leds);
        world.now_ms = 0;
        let mut array = image.flash.clone();
        if let Some(f) = flash {
            array[crate::STORE_OFFSET..].copy_from_slice(&f[crate::STORE_OFFSET..]);
        }
        let mut mcu = Mcu::new(world, array, bench.osc, bench.lsi_hz);
        mcu.late_irq_ns = bench.late_irq_us.map(|us| us * 1_000);
        // This run's part: its PVD levels drawn within DS5319's spread.
        mcu.pwr.offset_mv = crate::pwr::part_offset_mv(bench.part_seed());
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
            cuts: 0,
            cut_rate: 0.0,
            rng: SplitMix64::new(bench.seed ^ 0xC07 ^ bench.cut_seed.rotate_left(17)),
            cut_plan: None,
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
                self.phase_ns = None;
                match self.board.mcu().flash_cut_made.take() {
                    // The power failed inside a flash operation (the chip
                    // reset itself at that moment, keeping what the operation
                    // left): the world loses power too, for 1 s.
                    Some(what) if kind == ResetKind::PowerOn => {
                        self.cuts += 1;
                        self.log.push(format!(
                            "{:8} ms power cut (VDD ramped down to the power-down reset) {what}",
                            self.ms
                        ));
                        self.power_cycle(1_000);
                    }
                    other => {
                        self.board.mcu().flash_cut_made = other;
                        self.resets.push((self.ms, kind));
                        self.log.push(format!("{:8} ms reset: {kind:?}", self.ms));
                    }
                }
            }
            Ok(None) => {}
            Err(f) => return Err(self.fault(f)),
        }
        if self.board.mcu().flash_cut_made == Some("none") {
            self.board.mcu().flash_cut_made = None;
            self.log.push(format!(
                "{:8} ms the next save erased nothing: the cut drawn for its erase is dropped",
                self.ms
            ));
        }
        let ns = self.board.mcu().ns();
        let ms = (ns.saturating_sub(phase) / 1_000_000) as u32;
        self.ms = self.ms.max(ms);
        let now = self.ms;
        let m = self.board.mcu();
        m.world.now_ms = now;
        self.human.step(&mut m.world, now);
        if let Some((kind, before)) = self.burst {
            if self.faults()[kind] > before {
                self.stop_burst();
            }
        }
        let m = self.board.mcu();
        // Done pressed: time to the first STEP edge.
        let done = m.world.buttons[Button::Done.index()];
        let edges = m.wiring.timing.steps();
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
            if self.cut_plan.is_none() && self.rng.chance(self.cut_rate) {
                // As the host draws: within the next 3 s, or half the time inside
                // the next save (its page erase or one of its half-word writes).
                let f = self.rng.unit();
                self.cut_plan = Some(if !self.rng.chance(0.5) {
                    CutPlan::At(now + 1 + self.rng.below(3_000) as u32)
                } else if self.rng.chance(0.5) {
                    CutPlan::InErase(f, Some(self.board.mcu().flash.half_words))
                } else {
                    let skip = self.rng.below(22) as u64;
                    CutPlan::InWrite(self.board.mcu().flash.half_words + skip, f)
                });
                if self.log.len() < 5_000 {
                    self.log
                        .push(format!("{now:8} ms power cut drawn: {:?}", self.cut_plan));
                }
            }
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

    /// The faults injected so far, by kind: the world's, the person's mess-ups
    /// (`human-extra`) and the power cuts made in games (`power-cut`).
    pub fn faults(&mut self) -> ByKind {
        let mut k = world_faults(&self.board.mcu().world);
        k[FaultKind::HumanExtra] = u64::from(self.human.extras);
        k[FaultKind::PowerCut] = self.cuts;
        k
    }

    /// Switches `kind` on at `rate` (as `SimConfig::set_faults` and the host's
    /// runner take it: `human-extra` per turn of the person, `power-cut` per
    /// change of the lights) until one of it is counted.
    pub fn start_burst(&mut self, kind: FaultKind, rate: f64) {
        let before = self.faults()[kind];
        self.world()
            .config
            .set_faults(FaultSet::EMPTY.with(kind), rate);
        let of = |k| if k == kind { rate } else { 0.0 };
        self.human.extra_rate = of(FaultKind::HumanExtra);
        self.cut_rate = of(FaultKind::PowerCut);
        self.burst = Some((kind, before));
    }

    /// Switches every fault kind off.
    pub fn stop_burst(&mut self) {
        self.world().config.set_faults(FaultSet::EMPTY, 0.0);
        self.human.extra_rate = 0.0;
        self.cut_rate = 0.0;
        self.burst = None;
    }

    /// Makes the power cut planned if it is due now, or hands one planned
    /// inside a flash operation to the chip ([`Mcu::flash_cut`]: the core runs
    /// into it, and [`Session::tick`] finishes the cut).
    fn due_cut(&mut self) {
        let Some(plan) = self.cut_plan else {
            return;
        };
        let m = self.board.mcu();
        let cut = match plan {
            CutPlan::At(t) if self.ms >= t => {
                // The supply's input fails now: VDD ramps down through the PVD
                // to the power-down reset, the core running (`tick` finishes
                // the cut).
                self.cut_plan = None;
                let now = m.ns();
                m.pwr.start_ramp(now);
                m.flash_cut_made.get_or_insert("at a moment drawn");
                return;
            }
            CutPlan::At(_) => return,
            CutPlan::InErase(fraction, next_save) => FlashCut {
                erase: true,
                after: 0,
                next_save_only: next_save.is_some(),
                fraction,
            },
            CutPlan::InWrite(after, fraction) => FlashCut {
                erase: false,
                after,
                next_save_only: false,
                fraction,
            },
        };
        if m.flash_cut.is_some() {
            // One planned already (a scheduled one not yet come): kept.
            return;
        }
        m.flash_cut = Some(cut);
        self.cut_plan = None;
    }

    /// Whether a power cut planned inside a flash operation is still to come.
    pub fn flash_cut_pending(&mut self) -> bool {
        self.mcu().flash_cut.is_some()
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
            let e = s.edges();
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
        if let Some(game) = spec.game {
            crate::games::choose_game(self, game)?;
            // Side shows the setup's lights again (and switches who moves
            // first: set below).
            let now = self.ms;
            self.human.press(Button::Side, now);
            self.run_for(400)?;
            self.human.rules = game;
        }
        if let Some(want) = spec.device_first.or(spec.game.map(|_| true)) {
            self.choose_side(want)?;
        }
        let device_first = !exactly(&self.lights(), &[Light::HumanTurn]);
        let rules = self.human.rules;
        let human_colour = GameSetup {
            device_first,
            first_square: None,
        }
        .colour_in(rules)
        .other();
        let limit_ms = if rules.places_only() {
            GAME_LIMIT_MS
        } else {
            MOVING_GAME_LIMIT_MS
        };
        self.world().reset_pieces();
        self.human.passive = false;
        self.human.new_game(human_colour, spec.style);
        self.human.cheat_rate = spec.cheat_rate;
        self.human.script = spec.script;
        self.human.move_script = spec.move_script;
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
            may_lose: spec.may_lose,
            game: rules,
            ..GameResult::default()
        };
        // An illegal move of the person's not yet refused with the Error light.
        let mut illegal_open = false;
        let mut seen = Position::EMPTY;
        let resets0 = self.resets.len();
        let (mut over_since, mut placing_since) = (None, None);
        let mut timed = true;
        let mut was = self.lights();
        let mut cheat_open = false;
        let mut armed = (
            spec.cut_at_ms,
            spec.cut_in_erase_after_ms,
            spec.cut_in_write_after_ms,
            spec.hang_erase_after_ms,
            spec.hold_bus_after_ms,
            spec.glitch_bus_after_ms,
        );
        let sweeps0 = self.human.sweeps;
        // The last power cut (world ms), and since when the machine has looked
        // like Setup after it.
        let (mut cut_at, mut setup_since) = (None, None);
        // When the device's first placement of the game ended (the Human-turn
        // light), and whether the last cut came well after it: the game was on
        // flash then (a save is due at once), so the machine must resume it.
        let (mut first_turn_at, mut was_saved) = (None, false);
        let mut sag = spec.sag.map(|g| (g, false));
        let (low0, mut written0) = (self.mcu().pwr.low_reads, None);
        let mut raise = spec.exception_mid_move;
        let mut crystal_fails = spec.crystal_fails_mid_move;
        let mut storm = spec.arlo_storm_after_ms;
        let mut raised: Option<(u32, usize)> = None;
        let mut edges_before = self.edges();
        let mut given_since = None;
        // A mess-up of the board (`human-extra`) the machine has not shown as an
        // error yet: it must, before the person's next turn or a result.
        let mut mess_open = false;
        // Level pressed in the person's first turn (`level_mid_game`).
        let mut ask = spec.level_mid_game.map(|_| Ask::Waiting);
        if ask.is_some() {
            r.level = Some(vec![]);
        }
        while self.ms < start + limit_ms {
            let (cheats, extras, cuts) = (self.human.cheats, self.human.extras, self.cuts);
            let illegal = self.human.illegal;
            self.tick()?;
            let memory = self.human.memory();
            if let Some(m) = one_move(seen, memory) {
                r.moves.push(m);
            }
            seen = memory;
            if self.human.extras != extras {
                mess_open = true;
            }
            let since = self.ms - start;
            if self.human.cheats != cheats {
                cheat_open = true;
                self.log
                    .push(format!("{:8} ms the person moves a device piece", self.ms));
            }
            if self.human.illegal != illegal {
                r.illegal.0 += self.human.illegal - illegal;
                illegal_open = true;
                self.log.push(format!(
                    "{:8} ms the person makes an illegal move of their own",
                    self.ms
                ));
            }
            // Faults on a schedule.
            if armed.0.is_some_and(|t| since >= t) {
                armed.0 = None;
                self.cut_plan = Some(CutPlan::At(self.ms));
            }
            if armed.1.is_some_and(|t| since >= t) {
                // Half-way through the next erase.
                armed.1 = None;
                self.cut_plan = Some(CutPlan::InErase(0.5, None));
            }
            if armed.2.is_some_and(|t| since >= t) {
                // 40 µs into a 70 µs half-word write.
                armed.2 = None;
                let n = self.mcu().flash.half_words;
                self.cut_plan = Some(CutPlan::InWrite(n, 0.57));
            }
            self.due_cut();
            if self.cuts > cuts {
                r.cuts.0 += 1;
                cut_at = Some(self.ms);
                setup_since = None;
                was_saved = first_turn_at.is_some_and(|t: u32| self.ms >= t + 500);
                // Whatever the person was about to check is void: the machine
                // comes back with what its flash holds.
                placing_since = None;
                was = [false; 7];
                // The boot and the homing after it are no placement: timing
                // starts again at the next device turn after the person's.
                timed = false;
            }
            if let Some((g, restored)) = sag.as_mut() {
                if !*restored && since >= g.after_ms && self.mcu().pwr.supply_mv != g.mv {
                    self.mcu().pwr.supply_mv = g.mv;
                    self.log
                        .push(format!("{:8} ms the supply sags to {} mV", self.ms, g.mv));
                }
                if !*restored && since >= g.after_ms + g.for_ms {
                    *restored = true;
                    self.mcu().pwr.supply_mv = crate::pwr::NOMINAL_MV;
                    written0 = Some(self.mcu().flash.half_words);
                    self.log
                        .push(format!("{:8} ms the supply is back", self.ms));
                }
            }
            // The exception, the first time the magnet holds a piece and the
            // steppers run.
            let edges = self.edges();
            let moving = edges != edges_before;
            edges_before = edges;
            if let Some(e) = raise.filter(|_| moving && self.mcu().wiring.outputs().magnet) {
                raise = None;
                self.board.raise(e);
                raised = Some((self.ms, self.resets.len()));
                r.exception = Some((None, false));
                self.log.push(format!(
                    "{:8} ms {e:?} raised (magnet on, steppers running)",
                    self.ms
                ));
            }
            if crystal_fails && moving && self.mcu().wiring.outputs().magnet {
                crystal_fails = false;
                self.mcu().crystal_fails();
                raised = Some((self.ms, self.resets.len()));
                r.exception = Some((None, false));
                self.log.push(format!(
                    "{:8} ms the crystal fails (magnet on, steppers running)",
                    self.ms
                ));
            }
            if let Some((at, resets)) = raised {
                let o = self.mcu().wiring.outputs();
                let safe = o.enable && !o.magnet && !o.lift && o.step == [false; 2];
                let software = self.resets[resets..]
                    .iter()
                    .any(|(_, k)| *k == ResetKind::Software);
                if let Some(x) = r.exception.as_mut() {
                    if safe && x.0.is_none() {
                        x.0 = Some(self.ms - at);
                    }
                    x.1 |= software;
                }
                if self.ms > at + SAFE_WITHIN_MS {
                    raised = None;
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
                let n = self.world().stats.bus_hangs;
                self.world().bus_hung = Some(HungSlave::nth(n));
                self.log
                    .push(format!("{:8} ms a sensor holds SDA low", self.ms));
            }
            if storm.is_some_and(|t| since >= t) {
                storm = None;
                let now = self.mcu().ns();
                self.mcu().i2c.arlo_storm = Some((now, now + u64::from(ARLO_STORM_MS) * 1_000_000));
                self.log.push(format!(
                    "{:8} ms an arbitration-lost storm for {ARLO_STORM_MS} ms",
                    self.ms
                ));
            }
            if armed.5.is_some_and(|t| since >= t) {
                armed.5 = None;
                self.mcu().i2c.lines_glitched();
                self.log.push(format!(
                    "{:8} ms a glitch on the lines locks I2C1's BUSY",
                    self.ms
                ));
            }
            let l = self.lights();
            let error = l[Light::Error.index()];
            let result = [Light::Win, Light::Draw, Light::Loss]
                .into_iter()
                .find(|x| exactly(&l, &[*x]));
            // Placements: Device turn on (no error) until Human turn or a result.
            let device_turn = l[Light::DeviceTurn.index()] && !error;
            let human_turn = l[Light::HumanTurn.index()] && !error;
            timed |= human_turn;
            if timed && device_turn && !was[Light::DeviceTurn.index()] && placing_since.is_none() {
                placing_since = Some(self.ms);
            }
            if (human_turn || result.is_some()) && placing_since.is_some() {
                r.placements_ms
                    .push(self.ms - placing_since.take().unwrap_or(0));
            }
            if error {
                placing_since = None;
                mess_open = false;
                if illegal_open {
                    illegal_open = false;
                    r.illegal.1 += 1;
                }
            }
            // The person's turn again (or a result) after an illegal move with
            // no error between: the machine took it for a move.
            if illegal_open && ((human_turn && !was[Light::HumanTurn.index()]) || result.is_some())
            {
                illegal_open = false;
            }
            if mess_open && ((human_turn && !was[Light::HumanTurn.index()]) || result.is_some()) {
                mess_open = false;
                r.unseen_messes += 1;
            }
            if human_turn && first_turn_at.is_none() {
                first_turn_at = Some(self.ms);
            }
            if human_turn && !was[Light::HumanTurn.index()] && cheat_open {
                cheat_open = false;
                if self.device_pieces_as_remembered() {
                    r.restored += 1;
                }
            }
            if let (Some(a), Some(confirm)) = (ask.as_mut(), spec.level_mid_game) {
                let problems = r.level.get_or_insert_with(Vec::new);
                let turn_was = was[Light::HumanTurn.index()] && !was[Light::Error.index()];
                let turn_begins = human_turn && !l[Light::DeviceTurn.index()] && !turn_was;
                if let Some(ended) = self.level_step(a, confirm, turn_begins, l, moving, problems) {
                    if ended {
                        r.ended_by_level = true;
                        break;
                    }
                }
            }
            was = l;
            // After a power cut: the machine back in Setup (the game was not on
            // flash yet) is started again by the operator, as the host's runner
            // does.
            if cut_at.is_some() && device_turn && !human_turn && result.is_none() && !moving {
                let t = *setup_since.get_or_insert(self.ms);
                if self.ms >= t + SETUP_REST_MS {
                    cut_at = None;
                    setup_since = None;
                    r.cuts.1 += 1;
                    r.forgotten += u32::from(was_saved);
                    first_turn_at = None;
                    self.world().reset_pieces();
                    self.human.new_game(human_colour, spec.style);
                    let now = self.ms;
                    self.human.press(Button::Start, now);
                    self.log.push(format!(
                        "{now:8} ms back in Setup after the cut: board cleared, Start pressed"
                    ));
                }
            } else {
                setup_since = None;
            }
            // A game given up (the board swept, Start held) is over once the
            // machine is ready again.
            if self.human.sweeps > sweeps0 && Session::ready(&l) && !moving {
                let t = *given_since.get_or_insert(self.ms);
                if self.ms >= t + 2 * OVER_STEADY_MS {
                    r.given_up = true;
                    break;
                }
            } else {
                given_since = None;
            }
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
        let record = self.human.record().copied();
        let device = player_of(rules, human_colour.other());
        if spec.sag.is_some() {
            let m = self.mcu();
            let written = written0.map_or(0, |n| m.flash.half_words - n);
            let low = m.pwr.low_reads - low0;
            r.sag = Some((low, written));
            self.log.push(format!(
                "{:8} ms the sag: PVDO read set {low} times, {written} half-words written after it",
                self.ms
            ));
        }
        if let Some((safe, reset)) = r.exception {
            let safe = safe.map_or("never".into(), |ms| format!("within {} ms", ms + 1));
            self.log.push(format!(
                "{:8} ms the exception: outputs safe {safe} (the tick it was raised in), software reset: {reset}",
                self.ms
            ));
        }
        let w = self.world();
        // A piece a power cut dropped where no sensor sees it is in no game.
        let lying = if r.cuts.0 > 0 {
            w.board_ignoring_strays(ON_SQUARE_MM).map(|(b, _)| b)
        } else {
            w.board_within(ON_SQUARE_MM)
        };
        // The pieces lying by player (X's are black, but White's in hexapawn).
        let lying = lying.map(|(black, white)| {
            if rules.colour(tictable::Player::X) == Colour::Black {
                (black, white)
            } else {
                (white, black)
            }
        });
        // The game's end as the board says: `Some` of the winner once it is over.
        let outcome: Option<Option<tictable::Player>>;
        let shown: String;
        let off = if let Some(mut record) = record {
            // A game whose pieces move: the person's game, and the device's last
            // move read from the board as the person reads it (the one legal
            // move whose position looks like it).
            let p = record.position();
            let off = match lying {
                Some((x, o)) => {
                    let view = rules.view(&GamePosition {
                        x,
                        o,
                        to_move: p.to_move,
                    });
                    if p.to_move == device {
                        if let Some(mv) = rules.move_seen(&p, &view) {
                            let _ = record.push_move(mv);
                        }
                    }
                    let f = record.position();
                    ((x ^ f.x) | (o ^ f.o)).count_ones()
                }
                None => 9,
            };
            r.plies = record.plies().collect();
            outcome = record.outcome().map(|e| e.winner());
            let f = record.position();
            shown = format!("x {:#05x} o {:#05x}", f.x, f.o);
            off
        } else {
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
            let b = final_board.unwrap_or(memory);
            outcome = rules.result(&b);
            shown = memory_string(b);
            off
        };
        // Ended by the person with Level: the board cleared as the machine asked,
        // no game left to compare.
        r.pieces_off = if r.ended_by_level { 0 } else { off };
        if matches!(ask, Some(Ask::Waiting)) {
            if let Some(p) = r.level.as_mut() {
                p.push("Level never pressed: no turn of the person's came".into());
            }
        }
        r.wrong_result = r.finished
            && match r.device_won {
                Some(true) => outcome != Some(Some(device)),
                Some(false) => outcome != Some(Some(device.other())),
                None => outcome != Some(None),
            };
        r.frozen = self.world().stuck_squares().len();
        r.cheats = self.human.cheats - cheats0;
        r.fixes = self.human.fixes - fixes0;
        r.resets = self.resets[resets0..].iter().map(|(_, k)| *k).collect();
        r.duration_ms = self.ms - start;
        // A cut drawn for a save that did not come is not carried over (one
        // scheduled inside a flash operation is: see `flash_cut_pending`).
        self.cut_plan = None;
        if self.cut_rate > 0.0 || self.burst.is_some() {
            self.mcu().flash_cut = None;
        }
        self.human.passive = true;
        self.human.script = None;
        self.human.move_script = None;
        let lights = lit(&self.lights());
        self.log.push(format!(
            "{:8} ms game over: {:?}, board {:?}, {:?}",
            self.ms,
            lights,
            shown,
            r.violations()
        ));
        Ok(r)
    }

    /// One world ms of the operator's Level press mid-game ([`GameSpec::level_mid_game`],
    /// `confirm` its answer): Level when the person's turn begins, the lights read
    /// 400 ms later (every light on: the confirmation), the answer (Level again or
    /// Side), its lights read 400 ms later (`confirm`: the game abandoned, the board
    /// to clear; else the turn's lights again, the person plays on), and after a
    /// confirmed end the board cleared and Setup shown steadily for 2 s.
    /// `Some(true)` when the game ended so; what differs goes into `problems`.
    fn level_step(
        &mut self,
        ask: &mut Ask,
        confirm: bool,
        turn_begins: bool,
        l: [bool; 7],
        moving: bool,
        problems: &mut Vec<String>,
    ) -> Option<bool> {
        let now = self.ms;
        match *ask {
            Ask::Waiting if turn_begins => {
                // The person waits for the answer (their turn goes on after it).
                self.human.passive = true;
                self.human.press(Button::Level, now);
                self.log
                    .push(format!("{now:8} ms Level pressed in the person's turn"));
                *ask = Ask::Asked { at: now, turn: l };
            }
            Ask::Asked { at, turn } if now >= at + 400 => {
                if l != [true; 7] {
                    problems.push(format!(
                        "Level in the person's turn lit {:?}, not every light (the confirmation)",
                        lit(&l)
                    ));
                }
                let answer = if confirm { Button::Level } else { Button::Side };
                self.human.press(answer, now);
                self.log
                    .push(format!("{now:8} ms {answer:?} pressed: the answer"));
                *ask = Ask::Answered { at: now, turn };
            }
            Ask::Answered { at, turn } if now >= at + 400 => {
                if confirm {
                    let abandoned = [Light::Error, Light::Win, Light::Draw, Light::Loss];
                    if !exactly(&l, &abandoned) {
                        problems.push(format!(
                            "Level again lit {:?}, not the abandoned game's {abandoned:?}",
                            lit(&l)
                        ));
                    }
                    // The operator clears the board as asked.
                    self.world().reset_pieces();
                    *ask = Ask::Ended { since: None };
                } else {
                    if l != turn {
                        problems.push(format!(
                            "Side after the confirmation lit {:?}, not the turn's {:?}",
                            lit(&l),
                            lit(&turn)
                        ));
                    }
                    self.human.passive = false;
                    *ask = Ask::Done;
                }
            }
            Ask::Ended { since } => {
                if Session::ready(&l) && !moving {
                    let t = since.unwrap_or(now);
                    *ask = Ask::Ended { since: Some(t) };
                    if now >= t + 2 * OVER_STEADY_MS {
                        self.log
                            .push(format!("{now:8} ms the game ended with Level: Setup"));
                        return Some(true);
                    }
                } else {
                    *ask = Ask::Ended { since: None };
                }
            }
            _ => {}
        }
        None
    }

    /// STEP rising edges so far, both axes.
    pub fn edges(&mut self) -> u64 {
        self.mcu().wiring.timing.steps()
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
        let p = self.remembered();
        let remembered = match player_of(self.human.rules, device) {
            tictable::Player::X => p.x,
            tictable::Player::O => p.o,
        };
        let w = self.world();
        let Some((black, white)) = w.board_within(ON_SQUARE_MM) else {
            return false;
        };
        let lying = match device {
            Colour::Black => black,
            Colour::White => white,
        };
        lying == remembered
    }

    /// The game as the person remembers it, any game.
    fn remembered(&self) -> GamePosition {
        self.human
            .record()
            .map_or(GamePosition::of_board(self.human.memory()), |r| {
                r.position()
            })
    }
}

/// Where the operator's Level press mid-game stands ([`Session::level_step`]).
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// For the person's turn.
    Waiting,
    /// Level pressed at `at` in the turn whose lights were `turn`.
    Asked { at: u32, turn: [bool; 7] },
    /// The answer pressed at `at`.
    Answered { at: u32, turn: [bool; 7] },
    /// Confirmed: the board cleared; Setup steady since.
    Ended { since: Option<u32> },
    /// Cancelled: the game goes on.
    Done,
}

/// The player whose pieces are `colour`'s in `rules`' game.
fn player_of(rules: Rules, colour: Colour) -> tictable::Player {
    if rules.colour(tictable::Player::X) == colour {
        tictable::Player::X
    } else {
        tictable::Player::O
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
