//! The one game runner: a [`Scenario`] (plain data: who moves first, the first
//! square, how the person plays and cheats, which faults at which rate, when the
//! power fails) played on a [`SimMachine`], reported as a [`GameReport`] and
//! totalled in a [`Summary`] that checks the contract ([`Summary::check`]).
//!
//! `tictable simulate` ([`run_batch`](super::batch::run_batch): random scenarios, in `batch.rs`), the tests (scripted
//! ones) and the on-target images under QEMU (a `const` table) all play through
//! [`SimMachine::play_scenario`]. No allocation.

use super::batch::{Summary, Violation};
use super::faults::{ByKind, FaultKind, FaultSet, STEP_FAULT_SCALE};
use super::human::{SimHuman, Style};
use super::run::{SimMachine, Watch, GAME_LIMIT_MS};
use super::world::{World, WorldHandle, ON_SQUARE_MM};
use super::SplitMix64;
use crate::controller::{GameSetup, MoveChooser, Problem, State};
use tictable::Square;

/// When a scripted power cut happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerCut {
    /// This many ms after Start.
    AtMs(u32),
    /// `after_ms` after the controller's `change`-th state change (from 1) in the
    /// game.
    AfterChange {
        /// Which state change.
        change: u32,
        /// How long after it, ms (at least 1).
        after_ms: u32,
    },
}

/// A scripted burst of the scenario's faults: the kinds start `after_ms` after
/// Start and each is switched off once the game counted `limit` of it (one bus
/// transaction or one millisecond may add a few at once).
///
/// With [`CERTAIN`] as the scenario's rate, the first chance of each kind after
/// `after_ms` (the next bus transaction, sensor read, STEP pulse, grip, human
/// turn or state change) is the fault.
///
/// ```
/// use tictable_machine::sim::faults::{FaultKind, FaultSet};
/// use tictable_machine::sim::human::Style;
/// use tictable_machine::sim::scenario::{Burst, Scenario, CERTAIN};
///
/// // One dropped piece: the first piece the device carries 2 s or more after Start.
/// const DROP: Scenario = Scenario {
///     faults: FaultSet::EMPTY.with(FaultKind::Drop),
///     fault_rate: CERTAIN,
///     burst: Some(Burst { after_ms: 2_000, limit: 1 }),
///     ..Scenario::game(true, Some(4), Style::Perfect)
/// };
/// assert!(DROP.burst.is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Burst {
    /// When the faults start, ms after Start.
    pub after_ms: u32,
    /// Faults of each kind in the game, at most.
    pub limit: u32,
}

/// A fault rate that makes every kind certain at each chance: the rates of the
/// world's models are this times their scale ([`STEP_FAULT_SCALE`], the smallest,
/// gives 1 per STEP pulse), and a probability of 1 or more always strikes. For
/// scripted games with a [`Burst`], not for `simulate`.
pub const CERTAIN: f64 = 1.0 / STEP_FAULT_SCALE;

/// One game as data.
///
/// ```
/// use tictable_machine::sim::human::Style;
/// use tictable_machine::sim::scenario::{PowerCut, Scenario};
///
/// // The device first on the centre, a perfect person, the power failing 1.5 s
/// // after Start.
/// const CUT: Scenario = Scenario {
///     power_cut: Some(PowerCut::AtMs(1_500)),
///     ..Scenario::game(true, Some(4), Style::Perfect)
/// };
/// assert_eq!(CUT.setup().first_square.map(|s| s.index()), Some(4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scenario {
    /// The device moves first (black).
    pub device_first: bool,
    /// The device's first square (0..=8) when it moves first; `None`: its choice.
    pub first_square: Option<u8>,
    /// How the person plays.
    pub style: Style,
    /// Probability per turn that the person moves one of the device's pieces.
    pub cheat_rate: f64,
    /// The person cheats in this turn of theirs (from 1), whatever the rate.
    pub cheat_turn: Option<u8>,
    /// Probability that the person's fix of the board puts a piece on a wrong
    /// square.
    pub slip_rate: f64,
    /// The fault kinds injected, each at [`Scenario::fault_rate`].
    pub faults: FaultSet,
    /// The probability of each fault kind (per I2C transaction, sensor reading,
    /// grip; per human turn for `human-extra`; per state change for `power-cut`;
    /// the sensor, STEP and grip kinds take it times their scale, see
    /// [`super::faults`]); a probability of 1 or more always strikes, see
    /// [`CERTAIN`].
    pub fault_rate: f64,
    /// A scripted power cut.
    pub power_cut: Option<PowerCut>,
    /// Scripted faults instead of a steady rain: the kinds start some time after
    /// Start and each stops after a few. `None`: the kinds are on from before
    /// Start to the end of the game.
    pub burst: Option<Burst>,
    /// Reseeds the world's random draws (sensor noise and faults) at the start of
    /// the game, so a scripted game does not depend on the games before it.
    /// `None`: the world's draws go on.
    pub seed: Option<u64>,
}

impl Scenario {
    /// A game with the person playing `style`, nothing going wrong.
    pub const fn game(device_first: bool, first_square: Option<u8>, style: Style) -> Scenario {
        Scenario {
            device_first,
            first_square,
            style,
            cheat_rate: 0.0,
            cheat_turn: None,
            slip_rate: 0.0,
            faults: FaultSet::EMPTY,
            fault_rate: 0.0,
            power_cut: None,
            burst: None,
            seed: None,
        }
    }

    /// The machine's setup for this game.
    pub fn setup(&self) -> GameSetup {
        GameSetup {
            device_first: self.device_first,
            first_square: self
                .first_square
                .filter(|_| self.device_first)
                .and_then(Square::new),
        }
    }

    /// Whether the person is asked to cheat in this game.
    fn cheats(&self) -> bool {
        self.cheat_rate > 0.0 || self.cheat_turn.is_some()
    }

    /// Checks a game played from this scenario, alone: the contract
    /// ([`Summary::check`]: not lost, the board as the record, in time, every
    /// cheat restored) with every fault kind of the scenario injected in the game
    /// and the game ended right, and a cheat made when the scenario asks for one.
    ///
    /// ```
    /// use tictable_machine::sim::faults::{FaultKind, FaultSet};
    /// use tictable_machine::sim::human::Style;
    /// use tictable_machine::sim::batch::Violation;
    /// use tictable_machine::sim::scenario::{GameReport, Scenario};
    ///
    /// let bump = Scenario {
    ///     faults: FaultSet::EMPTY.with(FaultKind::Bump),
    ///     ..Scenario::game(true, None, Style::Perfect)
    /// };
    /// // A game that ended right, but without the fault it was about, fails.
    /// let quiet = GameReport { finished: true, ..GameReport::default() };
    /// assert_eq!(bump.check(&quiet), Err(Violation::NotInjected(FaultKind::Bump)));
    /// let mut bumped = quiet;
    /// bumped.faults[FaultKind::Bump] = 1;
    /// assert_eq!(bump.check(&bumped), Ok(()));
    /// ```
    pub fn check(&self, r: &GameReport) -> Result<(), Violation> {
        let mut s = Summary::default();
        s.add_game(r);
        s.check(self.faults, 0)?;
        if self.cheats() && r.cheats == 0 {
            return Err(Violation::NoCheat);
        }
        Ok(())
    }
}

/// Says what the game is: `device first on 5, perfect person, faults drop
/// (certain, from 2000 ms, at most 1 each), seed 3` (squares 1-9).
///
/// ```
/// use tictable_machine::sim::faults::{FaultKind, FaultSet};
/// use tictable_machine::sim::human::Style;
/// use tictable_machine::sim::scenario::Scenario;
///
/// let s = Scenario {
///     faults: FaultSet::EMPTY.with(FaultKind::I2c),
///     fault_rate: 0.25,
///     ..Scenario::game(true, Some(4), Style::Erring(0.3))
/// };
/// assert_eq!(s.to_string(), "device first on 5, person erring 30 %, faults i2c (rate 0.25)");
/// ```
///
/// Rates are written without float formatting (which takes about 400 B more
/// stack on a Cortex-M0, where the on-target image prints these lines).
impl core::fmt::Display for Scenario {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Hundredths, rounded: 0.25 -> 25.
        let centi = |p: f64| (p * 100.0 + 0.5) as u64;
        match (self.device_first, self.setup().first_square) {
            (true, Some(s)) => write!(f, "device first on {}", s.index() + 1)?,
            (true, None) => f.write_str("device first")?,
            (false, _) => f.write_str("device second")?,
        }
        match self.style {
            Style::Random => f.write_str(", random person")?,
            Style::Perfect => f.write_str(", perfect person")?,
            Style::Erring(p) => write!(f, ", person erring {} %", centi(p))?,
        }
        if self.cheat_rate > 0.0 {
            write!(f, ", cheats {} % of turns", centi(self.cheat_rate))?;
        }
        if let Some(t) = self.cheat_turn {
            write!(f, ", cheats in turn {t}")?;
        }
        if self.slip_rate > 0.0 {
            write!(f, ", slips {} % of fixes", centi(self.slip_rate))?;
        }
        if !self.faults.is_empty() {
            f.write_str(", faults ")?;
            for (i, k) in self.faults.iter().enumerate() {
                write!(f, "{}{k}", if i > 0 { "+" } else { "" })?;
            }
            if self.fault_rate == CERTAIN {
                f.write_str(" (certain")?;
            } else {
                let c = centi(self.fault_rate);
                write!(f, " (rate {}.{:02}", c / 100, c % 100)?;
            }
            if let Some(b) = self.burst {
                write!(f, ", from {} ms, at most {} each", b.after_ms, b.limit)?;
            }
            f.write_str(")")?;
        }
        match self.power_cut {
            Some(PowerCut::AtMs(t)) => write!(f, ", power cut {t} ms after Start")?,
            Some(PowerCut::AfterChange { change, after_ms }) => {
                write!(f, ", power cut {after_ms} ms after state change {change}")?
            }
            None => {}
        }
        if let Some(seed) = self.seed {
            write!(f, ", seed {seed}")?;
        }
        Ok(())
    }
}

/// What happened in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameReport {
    /// `Some(true)`: the device won; `Some(false)`: it lost; `None`: draw or stuck.
    pub device_won: Option<bool>,
    /// A draw by a threefold repetition (the games whose pieces move).
    pub repetition: bool,
    /// A draw by the record's length, 64 plies (the games whose pieces move).
    pub by_length: bool,
    /// The game ended.
    pub finished: bool,
    /// The machine could not be restarted after a power cut (nothing saved, the
    /// snapshot refused): the game was given up.
    pub abandoned: bool,
    /// A person gave the game up: swept the board and held Start (the machine
    /// cleared its record, asked for an empty board and went back to Setup).
    pub given_up: bool,
    /// Cheats the human made.
    pub cheats: u32,
    /// Illegal moves of their own the person made in a game whose pieces move
    /// (each refused with the error light and put back by hand).
    pub illegal_moves: u32,
    /// Moved pieces the device put back.
    pub restores: u32,
    /// Cheats a person put back by hand after the error light came on while the
    /// moved piece was still off its square, where the device could not restore
    /// it: its restore had failed (grips, a bumped board), or the light named
    /// another fault (a sensor that did not see the move), or the board showed
    /// more than the moved piece (a piece of the person's own slipped off its
    /// square too, two pieces on one square). A mismatch on a board that shows
    /// just one device piece moved excuses nothing: that is the device not
    /// restoring.
    pub cheats_fixed_after_error: u32,
    /// Cheats a person put back by hand because a power cut came while the moved
    /// piece was still off its square (the restarted controller does not know
    /// the move and shows a mismatch). Cheats made or left open after the cut
    /// are not excused by it.
    pub cheats_fixed_after_cut: u32,
    /// Squares where the pieces at the end differ from the game record (after a
    /// power cut, pieces it dropped where no sensor sees them are not counted).
    pub pieces_lost: u32,
    /// Longest placement, ms: from the start of an attempt until the piece is
    /// verified or the device stops with the Error light (the person's repair
    /// after the light is not counted; the attempt after it is timed anew).
    pub max_placement_ms: u32,
    /// Placements that took more than [`PLACEMENT_LIMIT_MS`].
    pub placements_over_limit: u32,
    /// Longest slide of the device's, ms: from the slide's start (its two
    /// travels, to its piece and on to the point, and its retries) until it is
    /// verified or the device stops with the Error light (a slide finished after
    /// a reset is not timed).
    pub max_slide_ms: u32,
    /// The device's slides that took more than [`PLACEMENT_LIMIT_MS`] (a move's
    /// budget, whatever the move).
    pub slides_over_limit: u32,
    /// Game duration, ms.
    pub duration_ms: u32,
    /// Times the human fixed the board after the error light.
    pub fixes: u32,
    /// Power cuts (scripted and injected).
    pub power_cuts: u32,
    /// Watchdog resets: a pass of the loop took longer than the firmware's
    /// watchdog allows (see [`SimMachine::tick`]); the machine resumed from flash.
    pub watchdog_resets: u32,
    /// The controller's state at the first power cut.
    pub cut_in: Option<State>,
    /// Faults injected, by kind.
    pub faults: ByKind,
}

/// The figures of a game: `drawn in 21.4 s; faults i2c=27; 1 fixes by hand;
/// cheats 1, restored 1; 0 power cuts; longest placement 3437 ms; 0 squares off
/// the record`.
impl core::fmt::Display for GameReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let end = match (self.abandoned, self.finished, self.device_won) {
            (true, _, _) => "not resumed",
            _ if self.given_up => "abandoned by the person",
            (_, false, _) => "stuck",
            (_, true, Some(true)) => "won",
            (_, true, Some(false)) => "LOST",
            (_, true, None) => "drawn",
        };
        let (s, ms) = (self.duration_ms / 1000, self.duration_ms % 1000);
        write!(f, "{end} in {s}.{} s; faults", ms / 100)?;
        let mut none = true;
        for (k, n) in self.faults.iter().filter(|(_, n)| *n > 0) {
            write!(f, " {k}={n}")?;
            none = false;
        }
        if none {
            f.write_str(" none")?;
        }
        write!(
            f,
            "; {} fixes by hand; cheats {}, restored {}; {} power cuts; longest placement {} ms; {} squares off the record",
            self.fixes,
            self.cheats,
            self.restores,
            self.power_cuts,
            self.max_placement_ms,
            self.pieces_lost
        )
    }
}

impl GameReport {
    /// The game ended (or a person abandoned it) with the pieces where the
    /// record says: every fault in it was recovered from.
    pub fn recovered(&self) -> bool {
        (self.finished || self.given_up) && !self.abandoned && self.pieces_lost == 0
    }
}

/// The longest a placement may take (contest rule), ms.
pub const PLACEMENT_LIMIT_MS: u32 = 15_000;

/// The faults the world counted so far, by kind (public for the virtual blue
/// pill, `vboard/`, which plays the image against this world).
pub fn world_faults(w: &World) -> ByKind {
    let mut k = ByKind::default();
    k[FaultKind::I2c] = w.stats.nacks + w.stats.timeouts + w.stats.flickers;
    k[FaultKind::Magnet] = w.stats.missed_pickups;
    k[FaultKind::Brownout] = w.stats.brownouts;
    k[FaultKind::StuckSensor] = w.stats.stuck_sensors;
    k[FaultKind::BusHang] = w.stats.bus_hangs;
    k[FaultKind::LostSteps] = w.stats.slips;
    k[FaultKind::Magnet] += w.stats.release_fails;
    k[FaultKind::Drop] = w.stats.drops;
    k[FaultKind::Bump] = w.stats.bumps;
    k
}

/// The faults of a game so far, by kind: the world's since it counted `faults0`,
/// the person's `extras`, and the game's power cuts.
fn game_faults(w: &World, faults0: &ByKind, extras: u32, r: &GameReport) -> ByKind {
    let mut faults = world_faults(w);
    for (k, n) in faults0.iter() {
        faults[k] -= n;
    }
    faults[FaultKind::HumanExtra] = u64::from(extras);
    faults[FaultKind::PowerCut] = u64::from(r.power_cuts);
    faults
}

/// Whether a placement is under way in `state` (from the first attempt until the
/// piece is verified or a person put it there).
/// The device is placing a piece on its own: moving it, or checking it arrived.
/// The time budget ([`PLACEMENT_LIMIT_MS`]) is the device's: a placement ends
/// when the piece is verified or when the device stops with the Error light
/// (a person's repair is not the device's time; the next attempt is timed anew).
/// Whether `state` carries a captured piece off (hexapawn, `games` feature).
fn capturing(state: State) -> bool {
    #[cfg(feature = "games")]
    return matches!(state, State::Capturing { .. });
    #[cfg(not(feature = "games"))]
    {
        let _ = state;
        false
    }
}

fn placing(state: State) -> bool {
    matches!(state, State::Placing { .. } | State::Verifying { .. })
}

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Plays `scenario` with `human`: sets the world's faults and the person's
    /// habits, starts the game with the buttons and runs it until it is over or
    /// [`GAME_LIMIT_MS`] pass, cutting the power when the scenario says (a fresh
    /// controller from `restart` resumes from the flash). `watch` sees every
    /// state change.
    pub fn play_scenario(
        &mut self,
        scenario: &Scenario,
        human: &mut SimHuman,
        restart: &mut dyn FnMut() -> C,
        mut watch: Option<&mut Watch<'_>>,
    ) -> GameReport {
        let Scenario {
            faults, fault_rate, ..
        } = *scenario;
        // The kinds injected now: all of them, or none until a burst starts (and
        // then those that did not reach its limit).
        let mut active = match scenario.burst {
            Some(_) => FaultSet::EMPTY,
            None => faults,
        };
        let rate_of = |set: FaultSet, k| if set.contains(k) { fault_rate } else { 0.0 };
        {
            let mut w = self.world.borrow_mut();
            w.config.set_faults(active, fault_rate);
            if let Some(seed) = scenario.seed {
                w.rng = SplitMix64::new(seed);
            }
        }
        human.cheat_rate = scenario.cheat_rate;
        human.extra_rate = rate_of(active, FaultKind::HumanExtra);
        human.slip_rate = scenario.slip_rate;
        let before = self.stats();
        let faults0 = world_faults(&self.world.borrow());
        let (cheats0, fixes0, extras0) = (human.cheats, human.fixes, human.extras);
        let illegal0 = human.illegal;
        let start = self.now;
        let mut r = GameReport::default();
        // The cuts to come: the scripted one, and those the power-cut fault draws.
        let cut_seed = match scenario.seed {
            Some(seed) => seed ^ 0xC07,
            None => self.world.borrow().config.seed ^ u64::from(start),
        };
        let mut rng = SplitMix64::new(cut_seed);
        let mut cut_at = match scenario.power_cut {
            Some(PowerCut::AtMs(t)) => Some(start + t),
            _ => None,
        };
        let mut scripted_cut_done = false;
        let ready = self.start_game(scenario.setup(), human, scenario.style);
        let burst_from = scenario.burst.map(|b| self.now.saturating_add(b.after_ms));
        let cheat_turn = scenario.cheat_turn.unwrap_or(0);
        let (mut changes, mut last, mut turns) = (0u32, None, 0u8);
        let mut placement_start = None;
        // The device's slide under way (its start), and the slides counted so
        // far: a slide is one move, two travels (to its piece, then to the
        // point), timed from its start to its verification.
        let (mut slide_start, mut slides_seen) = (None, before.slides);
        // A cheat not put back yet: whether the device began restoring it.
        let (mut cheat_open, mut restore_tried, mut excused) = (false, false, 0u32);
        // Cheats still open when the power failed: the restarted controller
        // knows nothing of the move (it was not on flash) and shows a mismatch.
        let mut excused_by_cut = 0u32;
        let end = self.now + GAME_LIMIT_MS;
        while ready && self.now < end {
            let state = self.controller.state();
            // The power fails (also inside a snapshot save, even the one of the
            // game's end): a fresh controller resumes from the flash.
            if self.watchdog_fired {
                r.watchdog_resets += 1;
                if self.watchdog_restart(restart()).is_err() {
                    r.abandoned = true;
                    break;
                }
                continue;
            }
            if cut_at == Some(self.now) || self.power_lost {
                if r.power_cuts == 0 {
                    r.cut_in = Some(state);
                }
                r.power_cuts += 1;
                excused_by_cut += u32::from(cheat_open);
                cheat_open = false;
                scripted_cut_done |= cut_at.is_some();
                cut_at = None;
                self.tear_next_save = None;
                if self.power_cycle(restart()).is_err() {
                    r.abandoned = true;
                    break;
                }
                continue;
            }
            let changed = last != Some(state);
            if changed {
                last = Some(state);
                changes += 1;
                match state {
                    State::Restoring { .. } => restore_tried |= cheat_open,
                    // A mismatch the device did not try to put right excuses
                    // the cheat only when the board showed more than the
                    // moved piece (a cheat the device must restore).
                    State::Error(p)
                        if cheat_open
                            && (restore_tried
                                || p != Problem::Mismatch
                                || !self.shows_one_device_piece_moved()) =>
                    {
                        excused += 1;
                        cheat_open = false;
                    }
                    State::HumanTurn | State::Over(_) => cheat_open = false,
                    _ => {}
                }
                if let Some(w) = watch.as_mut() {
                    w(&self.world.borrow(), state, self.controller.record());
                }
                // (A hexapawn capture's carry to its place is part of its move.)
                let restoring = matches!(
                    state,
                    State::Restoring { .. } | State::VerifyingRestore { .. }
                ) || capturing(state);
                match slide_start {
                    None if restoring => {
                        let slides = self.stats().slides;
                        if slides > slides_seen {
                            slides_seen = slides;
                            slide_start = Some(self.now);
                        }
                    }
                    Some(t0) if !restoring => {
                        let took = self.now - t0;
                        r.max_slide_ms = r.max_slide_ms.max(took);
                        r.slides_over_limit += u32::from(took > PLACEMENT_LIMIT_MS);
                        slide_start = None;
                    }
                    _ => {}
                }
                if state == State::HumanTurn {
                    turns = turns.saturating_add(1);
                    // A scripted cheat: this turn, the person moves a device piece.
                    human.cheat_rate = if turns == cheat_turn {
                        1.0
                    } else {
                        scenario.cheat_rate
                    };
                }
                match scenario.power_cut {
                    Some(PowerCut::AfterChange { change, after_ms })
                        if change == changes && !scripted_cut_done =>
                    {
                        cut_at = Some(self.now + after_ms.max(1));
                    }
                    _ => {}
                }
                if cut_at.is_none() && rng.chance(rate_of(active, FaultKind::PowerCut)) {
                    // Within the next 3 s; half the time inside the next snapshot save.
                    if rng.chance(0.5) {
                        self.tear_next_save = Some((rng.chance(0.5), rng.below(64)));
                    } else {
                        cut_at = Some(self.now + 1 + rng.below(3_000) as u32);
                    }
                }
            }
            if matches!(state, State::Over(_)) {
                r.finished = true;
                break;
            }
            // A person abandoned the game (Start held): over once the machine
            // is back in Setup.
            r.given_up |= state == State::Error(Problem::Abandoned);
            if r.given_up && state == State::Setup {
                break;
            }
            if state == State::Setup && r.power_cuts > 0 {
                // The power failed before the game was on flash: the machine is
                // back in Setup, and the operator starts the game again.
                if !self.start_game(scenario.setup(), human, scenario.style) {
                    break;
                }
                continue;
            }
            // Placement times, measured from outside; placements in a row
            // (hexapawn's set-up) each from its first attempt.
            let next_placement = changed && matches!(state, State::Placing { attempt: 1, .. });
            if let Some(t0) = placement_start.filter(|_| !placing(state) || next_placement) {
                let took = self.now - t0;
                r.max_placement_ms = r.max_placement_ms.max(took);
                r.placements_over_limit += u32::from(took > PLACEMENT_LIMIT_MS);
                placement_start = None;
            }
            if placing(state) && placement_start.is_none() {
                placement_start = Some(self.now);
            }
            let cheats_before = human.cheats;
            self.tick(human);
            if human.cheats != cheats_before {
                (cheat_open, restore_tried) = (true, false);
            }
            if let (Some(b), Some(from)) = (scenario.burst, burst_from) {
                let n = game_faults(&self.world.borrow(), &faults0, human.extras - extras0, &r);
                let on = if self.now >= from { faults } else { active };
                let left = on
                    .iter()
                    .filter(|&k| n[k] < u64::from(b.limit))
                    .fold(FaultSet::EMPTY, FaultSet::with);
                if left != active {
                    active = left;
                    self.world
                        .borrow_mut()
                        .config
                        .set_faults(active, fault_rate);
                    human.extra_rate = rate_of(active, FaultKind::HumanExtra);
                }
            }
        }
        // A cut planned inside a save that did not come is not carried over.
        self.tear_next_save = None;
        let after = self.stats();
        // The squares the record has each colour on (black, white). A game
        // given up leaves an empty board (hexapawn's record of no ply stands
        // at its start, the pawns set up).
        #[cfg(not(feature = "games"))]
        let (black, white) = self.record_squares();
        #[cfg(feature = "games")]
        let (black, white) = if r.given_up && self.controller.record().is_empty() {
            (0, 0)
        } else {
            self.record_squares()
        };
        // The person's pieces the machine captured (hexapawn's): out of the game.
        #[cfg(not(feature = "games"))]
        let captured = [0; 2];
        #[cfg(feature = "games")]
        let captured = {
            let record = self.controller.record();
            let (game, mut captured) = (record.game(), [0; 2]);
            let person = self.controller.setup().colour_in(game).other();
            if !record.is_empty() {
                let count = |p| game.view(&p).pieces(person).bits().count_ones() as usize;
                captured[person.index()] =
                    count(game.start()).saturating_sub(count(record.position()));
            }
            captured
        };
        let w = self.world.borrow();
        // A piece stands on its square up to `ON_SQUARE_MM` off its centre (as
        // the sensors and the contest rule have it); `World::pieces_lost` says
        // which pieces lying elsewhere are out of the game.
        r.pieces_lost = w.pieces_lost((black, white), captured, r.power_cuts > 0);
        r.device_won = match self.controller.state() {
            State::Over(result) if r.finished => result,
            _ => None,
        };
        #[cfg(feature = "games")]
        if r.finished {
            use crate::controller::Ending;
            let ending = self.controller.record().outcome();
            r.repetition = ending == Some(Ending::Repetition);
            r.by_length = ending == Some(Ending::Length);
        }
        r.cheats = human.cheats - cheats0;
        r.illegal_moves = human.illegal - illegal0;
        r.restores = after.restores - before.restores;
        let unrestored = r.cheats.saturating_sub(r.restores);
        r.cheats_fixed_after_error = excused.min(unrestored);
        r.cheats_fixed_after_cut = excused_by_cut.min(unrestored - r.cheats_fixed_after_error);
        r.duration_ms = self.now - start;
        r.fixes = human.fixes - fixes0;
        r.faults = game_faults(&w, &faults0, human.extras - extras0, &r);
        r
    }
}

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// The squares the controller's record has each colour on (black, white).
    fn record_squares(&self) -> (u16, u16) {
        let record = self.controller.record();
        #[cfg(not(feature = "games"))]
        {
            let b = record.board();
            (b.x(), b.o())
        }
        #[cfg(feature = "games")]
        {
            let v = record.game().view(&record.position());
            (
                v.pieces(crate::Colour::Black).bits(),
                v.pieces(crate::Colour::White).bits(),
            )
        }
    }

    /// Whether the board the sensors see differs from the record by exactly
    /// one of the device's pieces moved to an empty square (pieces no sensor
    /// sees left aside): a cheat the device must put back itself. Anything
    /// more (a piece of the person's off its square too, two pieces on one
    /// square, a piece in the hand) is a board the device cannot read as one
    /// cheat: the error light, and a fix by hand, are its right answer.
    fn shows_one_device_piece_moved(&self) -> bool {
        let Some(((black, white), _)) = self.world.borrow().board_ignoring_strays(ON_SQUARE_MM)
        else {
            return false;
        };
        let (rec_black, rec_white) = self.record_squares();
        let [(dev, dev_rec), (person, person_rec)] = match self.controller.device_colour() {
            crate::Colour::Black => [(black, rec_black), (white, rec_white)],
            crate::Colour::White => [(white, rec_white), (black, rec_black)],
        };
        let (missing, extra) = (dev_rec & !dev, dev & !dev_rec);
        person == person_rec && missing.count_ones() == 1 && extra.count_ones() == 1
    }
}

/// One scripted game about `kind`: the person perfect, the fault switched on
/// `after_ms` after Start at `rate` and off after `limit` of it, the world's
/// draws from `seed`.
const fn scripted(
    kind: FaultKind,
    rate: f64,
    burst: Burst,
    seed: u64,
    device_first: bool,
) -> Scenario {
    Scenario {
        faults: FaultSet::EMPTY.with(kind),
        fault_rate: rate,
        burst: Some(burst),
        seed: Some(seed),
        ..Scenario::game(device_first, None, Style::Perfect)
    }
}

/// Right after Start, at most `limit` of the kind.
const fn early(limit: u32) -> Burst {
    Burst { after_ms: 0, limit }
}

/// The scripted games of the on-target images (`scripts/qemu-test`) and of the
/// host's test of them: perfect play both ways, a cheater whose moved pieces the
/// device must put back, an erring person on a machine with bus and sensor
/// faults (`i2c`), a magnet that misses half of its grips, a power cut
/// 1.5 s after Start (during the device's first placement), then one game per
/// fault kind with a burst of that kind ([`Burst`]), each of which must be
/// injected and recovered from ([`Scenario::check`]).
///
/// Sensor faults come at 1 % a read or transaction (at [`CERTAIN`] the first
/// scan would strike all nine sensors); a stuck sensor comes late in the game
/// (17 s after Start), where today's controller, which does not detect one yet,
/// still ends the game right.
pub const SCRIPTED: [Scenario; 16] = [
    Scenario::game(true, None, Style::Perfect),
    Scenario::game(false, None, Style::Perfect),
    Scenario {
        cheat_rate: 1.0,
        ..Scenario::game(true, Some(0), Style::Random)
    },
    Scenario {
        faults: FaultSet::EMPTY.with(FaultKind::I2c),
        fault_rate: 0.02,
        ..Scenario::game(false, None, Style::Erring(0.3))
    },
    Scenario {
        faults: FaultSet::EMPTY.with(FaultKind::Magnet),
        fault_rate: 0.25,
        seed: Some(5),
        ..Scenario::game(true, Some(8), Style::Perfect)
    },
    Scenario {
        power_cut: Some(PowerCut::AtMs(1_500)),
        ..Scenario::game(true, Some(4), Style::Perfect)
    },
    scripted(FaultKind::I2c, 0.3, early(20), 1, false),
    scripted(FaultKind::Brownout, 10.0, early(1), 2, true),
    scripted(
        FaultKind::StuckSensor,
        10.0,
        Burst {
            after_ms: 17_000,
            limit: 1,
        },
        1,
        false,
    ),
    scripted(FaultKind::BusHang, 10.0, early(1), 3, false),
    scripted(FaultKind::LostSteps, CERTAIN, early(1), 1, false),
    scripted(FaultKind::Magnet, CERTAIN, early(1), 2, true),
    scripted(FaultKind::Drop, CERTAIN, early(1), 2, true),
    scripted(FaultKind::Bump, CERTAIN, early(1), 1, false),
    scripted(FaultKind::HumanExtra, CERTAIN, early(1), 1, false),
    scripted(FaultKind::PowerCut, CERTAIN, early(1), 2, true),
];
