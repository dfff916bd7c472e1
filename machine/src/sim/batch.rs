//! Many games: the totals ([`Summary`]), the contract they are checked against
//! ([`Summary::check`], [`Violation`]), batches of random games ([`run_batch`],
//! what `tictable simulate` runs) and the scripted scenarios played in order
//! ([`SimMachine::play_scripted`]).

use super::faults::{ByKind, FaultKind, FaultSet};
use super::flash::MAX_PAGES;
use super::human::{SimHuman, Style};
use super::run::{SimError, SimMachine, Watch};
use super::scenario::{GameReport, Scenario};
use super::world::{SimConfig, World, WorldHandle};
use super::SplitMix64;
#[cfg(feature = "games")]
use crate::controller::TableChooser;
use crate::controller::{MoveChooser, Rules, StrategyChooser};
use core::cell::RefCell;
use tictable::strategy::{Level, Strategy};
use tictable::{Board, Square};

/// Sees each scripted game: its index, the scenario, the report, the check.
pub type ShowGame<'a> = dyn FnMut(usize, &Scenario, &GameReport, Result<(), Violation>) + 'a;

impl<C: MoveChooser, W: WorldHandle> SimMachine<C, W> {
    /// Plays `scenarios` in order with `human` (a fresh controller from
    /// `restart` after a power cut), checks each game alone
    /// ([`Scenario::check`]) and shows it to `each` (its index, the scenario,
    /// the report, the check); stops at the first game that fails. The totals,
    /// with the machine's counts, checked as a whole: every kind of every
    /// scenario injected and recovered from.
    pub fn play_scripted(
        &mut self,
        scenarios: &[Scenario],
        human: &mut SimHuman,
        restart: &mut dyn FnMut() -> C,
        each: &mut ShowGame<'_>,
    ) -> Result<Summary, Violation> {
        let mut s = Summary::default();
        let mut requested = FaultSet::EMPTY;
        for (i, scenario) in scenarios.iter().enumerate() {
            let r = self.play_scenario(scenario, human, restart, None);
            let checked = scenario.check(&r);
            each(i, scenario, &r, checked);
            checked?;
            s.add_game(&r);
            requested = scenario.faults.iter().fold(requested, FaultSet::with);
        }
        s.add_machine(self);
        s.check(requested, 0)?;
        Ok(s)
    }
}

/// Totals over many games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: u32,
    /// Device wins.
    pub device_wins: u32,
    /// Draws.
    pub device_draws: u32,
    /// Device losses.
    pub device_losses: u32,
    /// Draws by a threefold repetition (games whose pieces move).
    pub draws_by_repetition: u32,
    /// Draws by the record's length, 64 plies (games whose pieces move).
    pub draws_by_length: u32,
    /// The finished games' results by the device's side: `[first, second]`, each
    /// `[wins, draws, losses]` (filled by [`run_batch`], which knows the sides).
    pub by_side: [[u32; 3]; 2],
    /// Cheats made.
    pub cheats_injected: u32,
    /// Illegal moves of the person's own in the games whose pieces move (a
    /// slide to a point not adjacent, a piece moved twice or while placing),
    /// each refused: [`GameReport::illegal_moves`].
    pub illegal_moves: u32,
    /// Moved pieces put back.
    pub cheats_restored: u32,
    /// Moved pieces a person put back by hand because a power cut came between
    /// the cheat and the device's restore, in games that ended right
    /// ([`GameReport::cheats_fixed_after_cut`]).
    pub cheats_fixed_after_cut: u32,
    /// Moved pieces a person put back by hand after the error light, in games
    /// that ended right ([`GameReport::cheats_fixed_after_error`]).
    pub cheats_fixed_after_error: u32,
    /// Faults injected (every kind).
    pub faults_injected: u64,
    /// Faults injected, by kind.
    pub faults_by_kind: ByKind,
    /// Faults injected in games that ended with the board right, by kind.
    pub recovered_by_kind: ByKind,
    /// Squares wrong at the end of a game.
    pub pieces_lost: u32,
    /// Games that did not end in time.
    pub stuck_games: u32,
    /// Games a person abandoned (swept the board, held Start): not a fault of
    /// the machine's.
    pub abandoned_games: u32,
    /// Games given up because the machine could not restart after a power cut.
    pub unresumed_games: u32,
    /// Watchdog resets (a pass of the loop longer than [`WATCHDOG_MS`](super::run::WATCHDOG_MS)): must be 0.
    pub watchdog_resets: u32,
    /// The longest pass of the loop, µs of bus and flash time (the machines'
    /// [`SimMachine::longest_pass_us`]).
    pub longest_pass_us: u64,
    /// Longest placement, ms.
    pub max_placement_ms: u32,
    /// Placements that took more than [`PLACEMENT_LIMIT_MS`](super::scenario::PLACEMENT_LIMIT_MS).
    pub placements_over_15s: u32,
    /// Longest slide of the device's, ms ([`GameReport::max_slide_ms`]).
    pub max_slide_ms: u32,
    /// The device's slides that took more than 15 s.
    pub slides_over_15s: u32,
    /// Longest placement predicted by the motion model, ms.
    pub max_model_ms: u32,
    /// Times the error light came on.
    pub errors: u32,
    /// Times a human fixed the board by hand.
    pub human_fixes: u32,
    /// Bus collisions (two sensors selected at once): must be 0.
    pub collisions: u64,
    /// Placement retries after a missed pick-up.
    pub retries: u32,
    /// Flash erases (every page).
    pub flash_erases: u64,
    /// Erases of the most erased flash page.
    pub max_page_erases: u32,
}

/// Erase cycles a flash page of the STM32F103 is rated for.
pub const ERASE_CYCLES: u64 = 10_000;

/// What a run broke of the contract ([`Summary::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The device lost games.
    DeviceLost(u32),
    /// Pieces were not where the record says at the end of games.
    PiecesLost(u32),
    /// Games did not end in time.
    Stuck(u32),
    /// Games were given up after a power cut.
    Abandoned(u32),
    /// Placements took longer than 15 s.
    SlowPlacements(u32),
    /// The device's slides took longer than 15 s.
    SlowSlides(u32),
    /// A pass of the loop outlasted the firmware's watchdog (resets).
    Watchdog(u32),
    /// Moved device pieces were not put back (injected, restored).
    NotRestored(u32, u32),
    /// Two sensors answered at once on the bus.
    Collisions(u64),
    /// A kind asked for was never injected.
    NotInjected(FaultKind),
    /// A kind was injected but no game with it ended with the board right.
    NotRecovered(FaultKind),
    /// The flash would wear out after fewer games than asked (games it lasts).
    Wear(u64),
    /// A game that asked the person to cheat had no cheat.
    NoCheat,
}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Violation::DeviceLost(n) => write!(f, "the device lost {n} games"),
            Violation::PiecesLost(n) => write!(f, "{n} pieces lost"),
            Violation::Stuck(n) => write!(f, "{n} games stuck"),
            Violation::Abandoned(n) => write!(f, "{n} games not resumed after a power cut"),
            Violation::SlowPlacements(n) => write!(f, "{n} placements over 15 s"),
            Violation::SlowSlides(n) => write!(f, "{n} slides over 15 s"),
            Violation::Watchdog(n) => write!(f, "{n} watchdog resets"),
            Violation::NotRestored(i, r) => write!(f, "{i} cheats, only {r} restored"),
            Violation::Collisions(n) => write!(f, "{n} bus collisions"),
            Violation::NotInjected(k) => write!(f, "fault kind {k} was never injected"),
            Violation::NotRecovered(k) => write!(f, "fault kind {k} was never recovered from"),
            Violation::Wear(g) => write!(f, "the flash wears out after {g} games"),
            Violation::NoCheat => f.write_str("the person was to cheat and did not"),
        }
    }
}

impl core::error::Error for Violation {}

impl Summary {
    /// Adds one game.
    pub fn add_game(&mut self, r: &GameReport) {
        self.games += 1;
        match (r.finished, r.device_won) {
            _ if r.abandoned => self.unresumed_games += 1,
            _ if r.given_up => self.abandoned_games += 1,
            (false, _) => self.stuck_games += 1,
            (true, Some(true)) => self.device_wins += 1,
            (true, Some(false)) => self.device_losses += 1,
            (true, None) => self.device_draws += 1,
        }
        self.draws_by_repetition += u32::from(r.repetition);
        self.draws_by_length += u32::from(r.by_length);
        self.cheats_injected += r.cheats;
        self.illegal_moves += r.illegal_moves;
        self.cheats_restored += r.restores;
        if r.recovered() {
            self.cheats_fixed_after_cut += r.cheats_fixed_after_cut;
            self.cheats_fixed_after_error += r.cheats_fixed_after_error;
        }
        self.pieces_lost += r.pieces_lost;
        self.watchdog_resets += r.watchdog_resets;
        self.human_fixes += r.fixes;
        self.max_placement_ms = self.max_placement_ms.max(r.max_placement_ms);
        self.placements_over_15s += r.placements_over_limit;
        self.max_slide_ms = self.max_slide_ms.max(r.max_slide_ms);
        self.slides_over_15s += r.slides_over_limit;
        self.faults_by_kind.add(&r.faults);
        self.faults_injected = self.faults_by_kind.total();
        if r.recovered() {
            self.recovered_by_kind.add(&r.faults);
        }
    }

    /// Adds what a machine counted over its life (before it is replaced, and at
    /// the end): bus collisions, errors, retries, model times, flash erases.
    pub fn add_machine<C: MoveChooser, W: WorldHandle>(&mut self, m: &mut SimMachine<C, W>) {
        self.collisions += m.world.borrow().stats.collisions;
        self.longest_pass_us = self.longest_pass_us.max(m.longest_pass_us);
        let st = m.stats();
        self.max_model_ms = self.max_model_ms.max(st.max_model_ms);
        self.errors += st.errors;
        self.retries += st.retries;
        let flash = m.flash_erases();
        self.flash_erases += u64::from(flash.0);
        self.max_page_erases = self.max_page_erases.max(flash.1);
    }

    /// Counts a finished game's result in [`Summary::by_side`].
    pub fn add_side(&mut self, device_first: bool, r: &GameReport) {
        if r.finished && !r.abandoned && !r.given_up {
            let result = match r.device_won {
                Some(true) => 0,
                None => 1,
                Some(false) => 2,
            };
            self.by_side[usize::from(!device_first)][result] += 1;
        }
    }

    /// Flash erases per game.
    pub fn flash_erases_per_game(&self) -> f64 {
        self.flash_erases as f64 / f64::from(self.games.max(1))
    }

    /// Games the flash lasts at this rate: games / erases of the most erased page
    /// × [`ERASE_CYCLES`]; `None` when no page was erased.
    pub fn wear_games(&self) -> Option<u64> {
        (self.max_page_erases > 0)
            .then(|| u64::from(self.games) * ERASE_CYCLES / u64::from(self.max_page_erases))
    }

    /// The contract of a run: the device never lost, no piece lost, no game stuck
    /// or abandoned, no placement over 15 s, every cheat restored (by the device,
    /// or by a person after a power cut in a game that ended right), no collision,
    /// every kind in `requested` injected and recovered from at least once, and
    /// the flash lasting at least `min_wear_games` games. The first violation.
    ///
    /// ```
    /// use tictable_machine::sim::faults::{FaultKind, FaultSet};
    /// use tictable_machine::sim::batch::{Summary, Violation};
    /// let s = Summary { games: 1, device_draws: 1, ..Summary::default() };
    /// assert_eq!(s.check(FaultSet::EMPTY, 0), Ok(()));
    /// // A kind asked for and never injected fails the run.
    /// let lost_steps = FaultSet::EMPTY.with(FaultKind::LostSteps);
    /// assert_eq!(s.check(lost_steps, 0), Err(Violation::NotInjected(FaultKind::LostSteps)));
    /// ```
    pub fn check(&self, requested: FaultSet, min_wear_games: u64) -> Result<(), Violation> {
        let counts = [
            (
                self.device_losses,
                Violation::DeviceLost as fn(u32) -> Violation,
            ),
            (self.pieces_lost, Violation::PiecesLost),
            (self.stuck_games, Violation::Stuck),
            (self.unresumed_games, Violation::Abandoned),
            (self.placements_over_15s, Violation::SlowPlacements),
            (self.slides_over_15s, Violation::SlowSlides),
            (self.watchdog_resets, Violation::Watchdog),
        ];
        if let Some((n, v)) = counts.into_iter().find(|(n, _)| *n > 0) {
            return Err(v(n));
        }
        let by_hand = self.cheats_fixed_after_cut + self.cheats_fixed_after_error;
        if self.cheats_restored + by_hand != self.cheats_injected {
            return Err(Violation::NotRestored(
                self.cheats_injected,
                self.cheats_restored,
            ));
        }
        if self.collisions > 0 {
            return Err(Violation::Collisions(self.collisions));
        }
        for k in requested.iter() {
            if self.faults_by_kind[k] == 0 {
                return Err(Violation::NotInjected(k));
            }
            if self.recovered_by_kind[k] == 0 {
                return Err(Violation::NotRecovered(k));
            }
        }
        match self.wear_games() {
            Some(g) if g < min_wear_games => Err(Violation::Wear(g)),
            _ => Ok(()),
        }
    }
}

/// Options of a batch of simulated games.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    /// Number of games.
    pub games: u32,
    /// Seed of everything.
    pub seed: u64,
    /// Probability per human turn of moving a device piece.
    pub cheat_rate: f64,
    /// The fault kinds injected.
    pub faults: FaultSet,
    /// Probability of each injected fault kind (see [`Scenario::fault_rate`]).
    pub fault_rate: f64,
    /// Board rotation, degrees (-45..=45).
    pub angle_deg: f32,
    /// The device's playing level (tic-tac-toe; misère plays its table's best moves).
    pub level: Level,
    /// The game: tic-tac-toe (at [`Batch::level`]) or misère (perfect play from
    /// its table; needs the `games` feature, else [`run_batch`] refuses it).
    pub rules: Rules,
}

/// The device's chooser in a batch: a tic-tac-toe level, or a game's table.
#[derive(Clone, Debug)]
pub enum BatchChooser {
    /// Tic-tac-toe at a level.
    Level(StrategyChooser<SplitMix64>),
    /// A game's best-move table (misère).
    #[cfg(feature = "games")]
    Table(TableChooser<SplitMix64>),
}

impl BatchChooser {
    /// The chooser of `rules`' game at `level` (a level for tic-tac-toe only).
    pub fn new(rules: Rules, level: Level, seed: u64) -> Option<BatchChooser> {
        let rng = SplitMix64::new(seed);
        match rules {
            Rules::TicTacToe => Some(BatchChooser::Level(StrategyChooser {
                strategy: Strategy::new(level),
                rng,
            })),
            #[cfg(feature = "games")]
            Rules::Misere => TableChooser::new(rules, rng).map(BatchChooser::Table),
            #[cfg(not(feature = "games"))]
            Rules::Misere => None,
            // The morris games and hexapawn from their tables too.
            #[cfg(feature = "games")]
            Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi | Rules::Hexapawn => {
                TableChooser::new(rules, rng).map(BatchChooser::Table)
            }
        }
    }
}

impl BatchChooser {
    /// The same chooser with its randomness drawn from `seed` (a restarted machine's).
    pub fn reseeded(&self, seed: u64) -> BatchChooser {
        let mut c = self.clone();
        match &mut c {
            BatchChooser::Level(l) => l.rng = SplitMix64::new(seed),
            #[cfg(feature = "games")]
            BatchChooser::Table(t) => t.rng = SplitMix64::new(seed),
        }
        c
    }
}

impl MoveChooser for BatchChooser {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        match self {
            BatchChooser::Level(c) => c.choose(board),
            #[cfg(feature = "games")]
            BatchChooser::Table(c) => c.choose(board),
        }
    }

    fn next_level(&mut self) {
        match self {
            BatchChooser::Level(c) => c.next_level(),
            #[cfg(feature = "games")]
            BatchChooser::Table(c) => c.next_level(),
        }
    }

    fn observe(&mut self, board: &Board, square: Square) {
        match self {
            BatchChooser::Level(c) => c.observe(board, square),
            #[cfg(feature = "games")]
            BatchChooser::Table(c) => c.observe(board, square),
        }
    }

    fn rules(&self) -> Rules {
        match self {
            BatchChooser::Level(c) => c.rules(),
            #[cfg(feature = "games")]
            BatchChooser::Table(c) => c.rules(),
        }
    }

    fn set_rules(&mut self, rules: Rules) -> bool {
        match self {
            BatchChooser::Level(c) => c.set_rules(rules),
            #[cfg(feature = "games")]
            BatchChooser::Table(c) => c.set_rules(rules),
        }
    }

    #[cfg(feature = "games")]
    fn plays(&self, rules: Rules) -> bool {
        match self {
            BatchChooser::Level(c) => c.plays(rules),
            BatchChooser::Table(c) => c.plays(rules),
        }
    }

    #[cfg(feature = "games")]
    fn choose_move(
        &mut self,
        position: &crate::controller::Position,
    ) -> Option<crate::controller::Move> {
        match self {
            BatchChooser::Level(c) => c.choose_move(position),
            BatchChooser::Table(c) => c.choose_move(position),
        }
    }

    #[cfg(feature = "games")]
    fn could_choose(
        &self,
        position: &crate::controller::Position,
        mv: crate::controller::Move,
    ) -> bool {
        match self {
            BatchChooser::Level(c) => c.could_choose(position, mv),
            BatchChooser::Table(c) => c.could_choose(position, mv),
        }
    }
}

impl Batch {
    /// The `g`-th game's scenario: alternating device first and second, a random
    /// first square half the time when first (tic-tac-toe only), people random,
    /// perfect or erring
    /// (20 %), each equally often.
    fn scenario(&self, g: u32, rng: &mut SplitMix64) -> Scenario {
        let device_first = g.is_multiple_of(2);
        let first_square = (device_first && rng.chance(0.5)).then(|| rng.below(9) as u8);
        // Misère's start is a draw only when the first player takes the centre:
        // the table chooses the opening there (the square is drawn all the same, so
        // tic-tac-toe's runs stay as they were).
        let first_square = first_square.filter(|_| self.rules == Rules::TicTacToe);
        let (style, slip_rate) = match rng.below(3) {
            0 => (Style::Random, 0.1),
            1 => (Style::Perfect, 0.0),
            _ => (Style::Erring(0.2), 0.2),
        };
        Scenario {
            cheat_rate: self.cheat_rate,
            slip_rate,
            faults: self.faults,
            fault_rate: self.fault_rate,
            ..Scenario::game(device_first, first_square, style)
        }
    }
}

/// Plays a batch (the device at `batch.level`) of [`Batch`]'s scenarios on one
/// machine (a fresh one after a stuck or abandoned game). `watch` sees every state
/// change of every game (the CLI's `--watch` stops after the first). No
/// allocation for tic-tac-toe: the world lives on the stack (misère's table is read
/// into memory once). A game this build cannot play (misère without the `games`
/// feature) is [`SimError::GameNotBuilt`].
///
/// ```
/// use tictable_machine::sim::faults::FaultSet;
/// use tictable_machine::sim::batch::{run_batch, Batch};
/// use tictable_machine::controller::Rules;
/// use tictable::strategy::Level;
///
/// let batch = Batch {
///     games: 2, seed: 5, cheat_rate: 0.5, faults: FaultSet::I2C_AND_MAGNET,
///     fault_rate: 0.01, angle_deg: 10.0, level: Level::Trap, rules: Rules::TicTacToe,
/// };
/// let s = run_batch(batch, None).unwrap();
/// assert_eq!((s.games, s.device_losses, s.stuck_games, s.pieces_lost), (2, 0, 0, 0));
/// assert_eq!(s.cheats_restored, s.cheats_injected);
/// ```
pub fn run_batch(batch: Batch, mut watch: Option<&mut Watch<'_>>) -> Result<Summary, SimError> {
    let config = |seed| {
        let mut c = SimConfig::standard(batch.angle_deg, 0.0, seed).map_err(SimError::Config)?;
        c.set_faults(batch.faults, batch.fault_rate);
        Ok::<_, SimError>(c)
    };
    let first = BatchChooser::new(batch.rules, batch.level, batch.seed ^ 0x5EED)
        .ok_or(SimError::GameNotBuilt(batch.rules))?;
    let chooser = |seed| first.reseeded(seed);
    let world = RefCell::new(World::new(config(batch.seed)?));
    let mut m = SimMachine::with_world(&world, first.clone())?;
    let mut human = SimHuman::new(Style::Random, batch.cheat_rate, batch.seed ^ 0xC0FFEE);
    human.rules = batch.rules;
    let mut rng = SplitMix64::new(batch.seed.wrapping_mul(31).wrapping_add(7));
    let mut restarts = SplitMix64::new(batch.seed ^ 0x00C0_FFEE_0000);
    let mut s = Summary::default();
    for g in 0..batch.games {
        let scenario = batch.scenario(g, &mut rng);
        let mut restart = || chooser(restarts.next());
        let r = m.play_scenario(&scenario, &mut human, &mut restart, watch.as_deref_mut());
        s.add_game(&r);
        s.add_side(scenario.device_first, &r);
        if !r.recovered() && (!r.finished || r.abandoned) {
            // The machine is in an unknown state: start afresh.
            s.add_machine(&mut m);
            *world.borrow_mut() = World::new(config(rng.next())?);
            m = SimMachine::with_world(&world, chooser(rng.next()))?;
        }
    }
    s.add_machine(&mut m);
    Ok(s)
}

/// The page counters the summary reads, kept in step with the flash model.
const _: () = assert!(MAX_PAGES >= super::run::FLASH_BYTES / super::run::FLASH_PAGE);
