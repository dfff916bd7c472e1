//! The scenario set played on the image, and the rules each run must keep: the
//! games' (see [`crate::session`]), and the board's: no reset but those a scenario
//! causes, STEP and DIR timing within the drivers' limits, no bus collision, no
//! loop pass as long as the watchdog's shortest timeout, a resumed machine that
//! does not ask for a calibration again.

use crate::cpu::Exception;
use crate::elf::Image;
use crate::rcc::{Oscillators, ResetKind, HSI_MAX_HZ, HSI_MIN_HZ};
use crate::session::{Bench, GameResult, GameSpec, RunError, Sag, Session, ARLO_STORM_MS};
use std::fmt::Write as _;
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::faults::FaultKind;
use tictable_machine::sim::human::Style;

/// The watchdog's shortest timeout (LSI at 60 kHz), ms: no loop pass may come near.
pub const WATCHDOG_MIN_MS: u64 = 1_000;

/// One fault kind switched on for a game: at `rate` from the game's start until
/// the world counted one.
#[derive(Clone, Copy, Debug)]
pub struct Burst {
    /// The kind.
    pub kind: FaultKind,
    /// Its rate (see `SimConfig::set_faults`).
    pub rate: f64,
}

/// Every fault kind the simulator injects (`FaultKind::ALL`) and the rate a
/// scenario switches it on at (see `SimConfig::set_faults`), rates that strike
/// early in a game: `stuck-sensor` 0.05 per sensor read (a game reads the sensors
/// a few hundred times while its burst is on, so 0.01 missed a game now and then),
/// `human-extra` per turn of the person (the machine must show the error, the
/// person puts the board right), `power-cut` per change of the lights (at a random
/// moment within 3 s or inside the next save's erase or write; the image boots
/// cold with the flash kept and resumes the game, or the operator starts it
/// again). The default image's `faults` plays the first nine in this order
/// (`bus-hang` is `bus-held-low`'s second game); each game of the `games` image
/// all ten ([`crate::games`]).
pub const FAULT_RATES: [(FaultKind, f64); 10] = [
    (FaultKind::I2c, 0.05),
    (FaultKind::Brownout, 10.0),
    (FaultKind::StuckSensor, 50.0),
    (FaultKind::Magnet, 0.5),
    (FaultKind::LostSteps, 1.0 / 2e-5),
    (FaultKind::Drop, 10.0),
    (FaultKind::Bump, 10.0),
    (FaultKind::HumanExtra, 1.0),
    (FaultKind::PowerCut, 0.3),
    (FaultKind::BusHang, 10.0),
];

/// [`FAULT_RATES`] as bursts, one a game.
pub fn bursts() -> impl Iterator<Item = Burst> {
    FAULT_RATES.iter().map(|&(kind, rate)| Burst { kind, rate })
}

/// A scenario: how the board is built, what flash it starts with, the games.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Its name.
    pub name: &'static str,
    /// The board.
    pub bench: Bench,
    /// Start from the calibrated flash of the first scenario (else blank: the
    /// guided calibration comes first).
    pub calibrated: bool,
    /// The games.
    pub games: Vec<GameSpec>,
    /// A fault kind for each game (same index), if any.
    pub bursts: Vec<Option<Burst>>,
    /// Power off and on again after the games, then one more game: the machine
    /// must resume without a calibration.
    pub cold_boot: bool,
    /// Watchdog resets this scenario causes (0 for most).
    pub watchdog_resets: usize,
    /// Software resets this scenario causes (an NMI or a stray interrupt: the
    /// firmware's handler enters the safe state and resets; 0 for most).
    pub software_resets: usize,
    /// The snapshot pages hold old data (a chip used before, or a previous
    /// firmware's): nothing valid, nothing erased. Starts uncalibrated.
    pub old_data: bool,
    /// Play the contest items ([`crate::contest`]) after the games.
    pub contest: bool,
    /// Press Level once before every game but the first, and hold each game's first
    /// two device placements to [`THINK_LIMIT_MS`] ([`levels_first_moves`]).
    pub level_each_game: bool,
    /// The snapshot pages hold one save (of the calibrated flash's calibration)
    /// whose game byte is this number, one no game of the image has
    /// ([`crate::games::unknown_save`]): the machine must refuse it, say so with
    /// its lights (Error + Lamp + Win) and, after Start, offer a fresh
    /// tic-tac-toe game (Level shows game 1), which the games then play.
    pub saved_game: Option<u8>,
}

impl Plan {
    pub(crate) fn new(name: &'static str, calibrated: bool, games: Vec<GameSpec>) -> Plan {
        let n = games.len();
        Plan {
            name,
            bench: Bench::default(),
            calibrated,
            games,
            bursts: vec![None; n],
            cold_boot: false,
            watchdog_resets: 0,
            software_resets: 0,
            old_data: false,
            contest: false,
            level_each_game: false,
            saved_game: None,
        }
    }
}

/// The firmware's longest think with the watchdog fed (`safety::THINK_LIMIT_MS` in
/// firmware/src/safety.rs), ms.
pub const THINK_LIMIT_MS: u32 = 20_000;

/// The `levels` image's levels in the order the Level button reaches them from its
/// start (trap, then `Level::ALL`'s order round to random; gentle at its default F).
pub const LEVELS_FROM_TRAP: [&str; 9] = [
    "trap",
    "sharp",
    "gentle:0.5",
    "adaptive",
    "epsilon:0.1",
    "random",
    "easy",
    "medium",
    "perfect",
];

/// A person who never completes a line of their own while another square is free
/// (the lowest-numbered such square): the weak levels (`random`, `easy`) must not lose
/// to them, so every level's game ends without a loss to count.
fn yielding(b: &tictable::Board) -> Option<tictable::Square> {
    let legal = b.legal_moves();
    let wins = b.winning_moves(b.to_move());
    tictable::Squares::from_bits(legal.bits() & !wins.bits())
        .first()
        .or(legal.first())
}

/// For the `levels` image on the 8 MHz fallback clock (a PLL that never locks, 5
/// cycles per instruction, as `levels-8mhz`): a game with the device first at each
/// level the Level button reaches, pressed once between games, against a person who
/// never completes a line (`yielding`); the first move from the empty board and the
/// device's reply after the person's first move are each placed (think and travel)
/// within [`THINK_LIMIT_MS`].
pub fn levels_first_moves() -> Plan {
    let games = LEVELS_FROM_TRAP
        .iter()
        .map(|level| GameSpec {
            device_first: Some(true),
            script: Some(yielding),
            // The yielding person is forced to complete a line when the only
            // free squares do (a random device can leave that).
            may_lose: matches!(*level, "random" | "easy" | "medium" | "epsilon:0.1"),
            ..GameSpec::plain(Style::Perfect)
        })
        .collect();
    let mut p = Plan::new("levels-first-moves", true, games);
    p.bench.cpi = 5;
    p.bench.osc = Oscillators {
        pll_locks: false,
        hsi_hz: HSI_MAX_HZ,
        ..Oscillators::default()
    };
    p.level_each_game = true;
    p
}

/// The first scenario: a blank flash (calibration), games by perfect, random and
/// cheating people, a cold boot that resumes.
pub fn first() -> Plan {
    let cheat = GameSpec {
        cheat_rate: 0.5,
        ..GameSpec::plain(Style::Random)
    };
    let mut p = Plan::new(
        "blank-flash",
        false,
        vec![
            GameSpec::plain(Style::Perfect),
            GameSpec::plain(Style::Random),
            cheat,
            GameSpec::plain(Style::Erring(0.3)),
        ],
    );
    p.cold_boot = true;
    p
}

/// The scenarios after the first, on its calibrated flash.
pub fn rest() -> Vec<Plan> {
    let mut v = vec![];
    let plain = GameSpec::plain(Style::Perfect);
    // A chip whose snapshot pages hold old data: the calibration, a game and a
    // cold boot that resumes need every page erased before it is written.
    let mut used = Plan::new("used-flash", false, vec![plain]);
    used.old_data = true;
    used.cold_boot = true;
    v.push(used);
    // Scheduled cuts: 6 s after Start; inside a half-word write; inside the
    // next page erase (one comes every 17 saves: a plain game follows, and a
    // cut still to come at the end is a violation).
    v.push(Plan::new(
        "power-cuts",
        true,
        vec![
            GameSpec {
                cut_at_ms: Some(6_000),
                ..plain
            },
            GameSpec {
                cut_in_write_after_ms: Some(2_000),
                ..plain
            },
            GameSpec {
                cut_in_erase_after_ms: Some(1_000),
                ..plain
            },
            plain,
        ],
    ));
    // People who move one of the device's pieces every turn they can.
    let cheater = GameSpec {
        cheat_rate: 1.0,
        ..GameSpec::plain(Style::Random)
    };
    v.push(Plan::new("cheats", true, vec![cheater, cheater, cheater]));
    let mut wd = Plan::new(
        "watchdog",
        true,
        vec![GameSpec {
            hang_erase_after_ms: Some(3_000),
            ..plain
        }],
    );
    wd.watchdog_resets = 1;
    v.push(wd);
    // The fallback clocks (the internal oscillator, through the PLL or not) on
    // the fastest part (+2.5 %: the firmware's waits shortest in real time) and,
    // `-slow`, on the slowest (-2 %; DS5319).
    for (name, slow_name, osc) in [
        (
            "no-crystal",
            "no-crystal-slow",
            Oscillators {
                crystal_starts: false,
                ..Oscillators::default()
            },
        ),
        (
            "no-pll-lock",
            "no-pll-lock-slow",
            Oscillators {
                pll_locks: false,
                ..Oscillators::default()
            },
        ),
    ] {
        for (name, hsi_hz) in [(name, HSI_MAX_HZ), (slow_name, HSI_MIN_HZ)] {
            let mut plan = Plan::new(name, true, vec![plain]);
            plan.bench.osc = Oscillators { hsi_hz, ..osc };
            v.push(plan);
        }
    }
    // A slave holding SDA low: for good from 3 s after Start, and the fault kind
    // `bus-hang` of `--faults all`.
    let mut held = Plan::new(
        "bus-held-low",
        true,
        vec![
            GameSpec {
                hold_bus_after_ms: Some(3_000),
                ..plain
            },
            plain,
        ],
    );
    held.bursts[1] = bursts().find(|b| b.kind == FaultKind::BusHang);
    v.push(held);
    // A glitch locks I2C1's BUSY 3 s after Start (ES096 §2.8.7): a reset alone
    // leaves it set; the game must end normally after the erratum's sequence.
    v.push(Plan::new(
        "bus-busy-locked",
        true,
        vec![GameSpec {
            glitch_bus_after_ms: Some(3_000),
            ..plain
        }],
    ));
    // One game for each other kind of `--faults all` (`bus-hang` above), at
    // the rates of [`FAULT_RATES`].
    let kinds: Vec<Burst> = bursts().filter(|b| b.kind != FaultKind::BusHang).collect();
    let mut f = Plan::new("faults", true, kinds.iter().map(|_| plain).collect());
    f.bursts = kinds.into_iter().map(Some).collect();
    v.push(f);
    // The sensor boards' LEDs dim (0.22 of their light, a blank flash: the
    // guided calibration under them): a black piece reads 46 to 72 counts clear,
    // whole counts whose noise is a count or two, and a live sensor repeats its
    // sample exactly; no such sensor may be called stuck (a "sensor" light is a
    // fix by the person in a game nothing disturbed).
    let mut dim = Plan::new("leds-dim", false, vec![plain; 3]);
    dim.bench.leds = 0.22;
    v.push(dim);
    // More power cuts drawn as the host's `power-cut` kind draws them, each
    // followed by a cold boot with the flash kept: one in every game, for sure.
    // At 1 per change of the lights the game's first change draws the cut (the
    // moment, within 3 s or inside the next save's erase or a write, drawn as
    // the host draws it), and a draw given up (an erase that did not come) is
    // drawn again at the next change; at 0.2 a game could end with no cut drawn
    // (world seed 8's game 2), and the scenario then played a game it did not
    // claim.
    let mut cuts = Plan::new("power-cut-draws", true, vec![plain; 3]);
    cuts.bursts = vec![
        Some(Burst {
            kind: FaultKind::PowerCut,
            rate: 1.0,
        });
        3
    ];
    cuts.bench.cut_seed = 3;
    v.push(cuts);
    // The supply below the PVD's level while saves come due: none may start;
    // once it is back, the saves resume.
    v.push(Plan::new(
        "low-supply",
        true,
        vec![GameSpec {
            sag: Some(Sag {
                after_ms: 1_000,
                for_ms: 8_000,
                mv: 2_600,
            }),
            ..plain
        }],
    ));
    // An NMI, and a device interrupt enabled without a handler, with the magnet
    // holding a piece and the steppers running: the outputs safe at once, a
    // software reset, the game resumed from flash.
    for (name, e) in [
        ("nmi", Exception::Nmi),
        ("stray-interrupt", Exception::Irq(0)),
    ] {
        let mut p = Plan::new(
            name,
            true,
            vec![GameSpec {
                exception_mid_move: Some(e),
                ..plain
            }],
        );
        p.software_resets = 1;
        v.push(p);
    }
    // The crystal fails for good mid-move (RM0008 §7.2.7): the clock security
    // system's NMI, the outputs safe at once, a software reset, the game resumed
    // on the internal oscillator (the crystal no longer starts).
    let mut hse = Plan::new(
        "hse-fails-after-boot",
        true,
        vec![GameSpec {
            crystal_fails_mid_move: true,
            ..plain
        }],
    );
    hse.software_resets = 1;
    v.push(hse);
    // Every address byte loses arbitration for 3 s, 6 s after Start (another
    // master, noise on SDA): the lines stay free, so the master must back off in
    // time rather than free the bus every two transfers; the game goes on.
    v.push(Plan::new(
        "arlo-storm",
        true,
        vec![GameSpec {
            arlo_storm_after_ms: Some(6_000),
            ..plain
        }],
    ));
    // An interrupt handler of 200 µs (two bytes at 100 kHz) lands wherever a
    // sensor read's closing sequence leaves interrupts enabled after its STOP
    // (ES096, "wrong data read into data register").
    let mut late = Plan::new("late-interrupt", true, vec![plain]);
    late.bench.late_irq_us = Some(200);
    v.push(late);
    // The contest items 1-5 entered through the panel (item 3 on the board turned
    // both ways, after the pose calibration).
    let mut contest = Plan::new("contest", true, vec![]);
    contest.contest = true;
    v.push(contest);
    v
}

/// What a scenario found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Its name.
    pub name: String,
    /// The board as built (72 MHz, the default cycles per instruction) and no
    /// hang on purpose: its figures are the image's own.
    pub nominal: bool,
    /// The scenario stalls the image on purpose until the watchdog resets it.
    pub hangs: bool,
    /// The games.
    pub games: Vec<GameResult>,
    /// Rule violations, in words.
    pub violations: Vec<String>,
    /// Fault kinds switched on, and those injected and recovered from.
    pub faults: (u32, u32),
    /// Contest items passed, and played.
    pub contest_items: (u32, u32),
    /// Task placements inside their square within 15 s, and made.
    pub task_placements: (u32, u32),
    /// Games the image and the host simulator played alike, and compared
    /// ([`crate::differential`]).
    pub differential: (u32, u32),
    /// Figures.
    pub figures: Figures,
    /// The bus's unkind moments: hangs injected (a slave out of step, mid-byte),
    /// I2C1 resets in the middle of a byte, bus recoveries and their clocks.
    pub bus: BusCounts,
    /// Saves torn by a cut's power-down reset, and flash operations started
    /// below the PVD's level inside saves started above it (VDD ramping down).
    pub cut_saves: (u64, u64),
    /// The flash at the end.
    pub flash: Vec<u8>,
    /// What happened, for a failure's report.
    pub log: Vec<String>,
}

/// Figures measured on the image.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Power-on to the machine ready (resumed from flash), ms.
    pub boot_ms: Option<u32>,
    /// The longest loop pass (between watchdog feeds), µs.
    pub max_pass_us: u64,
    /// The stack's high-water mark, bytes.
    pub stack_b: u32,
    /// Done pressed to the first STEP edge, µs.
    pub done_to_step_us: Vec<u64>,
    /// Placements, ms.
    pub placements_ms: Vec<u32>,
    /// Task placements of the contest items, ms.
    pub task_placements_ms: Vec<u32>,
    /// Shortest STEP high and low, DIR set-up, ns.
    pub step_high_ns: u64,
    /// Shortest STEP low, ns.
    pub step_low_ns: u64,
    /// Shortest DIR set-up before a STEP edge, ns.
    pub dir_setup_ns: u64,
    /// Flash page erases.
    pub erases: u64,
    /// I2C bytes clocked (address bytes included).
    pub i2c_bytes: u64,
    /// The I2C bus busy (START to STOP), ns.
    pub bus_busy_ns: u64,
    /// The bus time of each scan of the nine sensors, µs (see [`crate::i2c::BusTime`]).
    pub scan_bus_us: Vec<u32>,
    /// Virtual time, ms.
    pub virtual_ms: u32,
    /// Wall time, s.
    pub wall_s: f64,
}

/// Plays `plan` on `image` (with `flash` when the plan starts calibrated).
pub fn run(plan: &Plan, image: &Image, flash: Option<&[u8]>) -> Report {
    run_watched(plan, image, flash, None)
}

/// [`run`], with `observer` watching the session.
pub fn run_watched(
    plan: &Plan,
    image: &Image,
    flash: Option<&[u8]>,
    observer: Option<&mut dyn crate::session::Observer>,
) -> Report {
    let t0 = std::time::Instant::now();
    let hangs = plan.watchdog_resets > 0;
    let mut r = Report {
        name: plan.name.into(),
        nominal: plan.bench.cpi == Bench::default().cpi
            && plan.bench.osc == Oscillators::default()
            && !hangs,
        hangs,
        ..Report::default()
    };
    let start = if plan.old_data {
        let mut f = image.flash.clone();
        for (i, b) in f[crate::STORE_OFFSET..].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5A;
        }
        Some(f)
    } else if let Some(code) = plan.saved_game {
        match flash.map(|f| crate::games::unknown_save(f, code)) {
            Some(Ok(f)) => Some(f),
            Some(Err(e)) => {
                r.violations.push(e);
                return r;
            }
            None => None,
        }
    } else if plan.calibrated {
        flash.map(<[u8]>::to_vec)
    } else {
        None
    };
    let mut s = match Session::new(image, start, &plan.bench) {
        Ok(s) => s,
        Err(e) => {
            r.violations.push(e.to_string());
            return r;
        }
    };
    if let Some(o) = observer {
        s.watch(o);
    }
    let outcome = play(plan, &mut s, &mut r);
    if let Err(e) = outcome {
        r.violations.push(e.to_string());
    }
    board_rules(plan, &mut s, &mut r);
    r.figures.wall_s = t0.elapsed().as_secs_f64();
    let ms = s.ms;
    let m = s.mcu();
    let line = format!(
        "{:8} ms end: I2C1 reset {} times ({} mid-byte), {} bytes; slave out of step: {:?}; bus recoveries seen: {} \
         ({} clocks, {} left a slave out of step); watchdog feeds {}; \
         SysTick ticks lost (since the last reset) {} over {} erases",
        ms,
        m.i2c.resets,
        m.i2c.resets_mid_byte,
        m.i2c.bytes,
        m.world.bus_hung,
        m.i2c.recoveries,
        m.i2c.recovery_clocks,
        m.i2c.recoveries_left_hung,
        m.iwdg.feeds,
        m.systick.merged,
        m.flash.total_erases()
    );
    s.log.push(line);
    let m = s.mcu();
    r.bus = BusCounts {
        hangs: m.world.stats.bus_hangs
            + plan
                .games
                .iter()
                .filter(|g| g.hold_bus_after_ms.is_some())
                .count() as u64,
        mid_byte: m.i2c.resets_mid_byte,
        recoveries: m.i2c.recoveries,
        clocks: m.i2c.recovery_clocks,
    };
    r.flash = s.mcu().flash_array().to_vec();
    r.log = std::mem::take(&mut s.log);
    r
}

fn play(plan: &Plan, s: &mut Session, r: &mut Report) -> Result<(), RunError> {
    if let Some(code) = plan.saved_game {
        crate::games::refused_save(s, code, &mut r.violations)?;
    } else if !plan.calibrated {
        s.calibrate()?;
    } else if s.wait_ready(crate::session::READY_LIMIT_MS).is_err() {
        return Err(RunError::Stuck(
            "a calibrated flash did not boot to Setup".into(),
        ));
    }
    for (i, game) in plan.games.iter().enumerate() {
        if plan.level_each_game && i > 0 {
            s.wait_ready(crate::session::READY_LIMIT_MS)?;
            let now = s.ms;
            s.human.press(Button::Level, now);
            s.run_for(400)?;
        }
        let burst = plan.bursts.get(i).copied().flatten();
        let before = s.faults();
        let clocks_before = s.mcu().i2c.recovery_clocks;
        // The burst is switched off after its first fault by the session's
        // watch on every world ms.
        if let Some(b) = burst {
            s.start_burst(b.kind, b.rate);
        }
        let g = s.play(game);
        s.stop_burst();
        let g = g?;
        if let Some(b) = burst {
            let n = s.faults()[b.kind] - before[b.kind];
            r.faults.0 += 1;
            if n == 0 {
                r.violations.push(format!(
                    "game {}: fault kind {} was never injected",
                    i + 1,
                    b.kind
                ));
            } else if b.kind == FaultKind::BusHang && s.mcu().i2c.recovery_clocks == clocks_before {
                // A hang counted must be a hang seen: SDA held low until the
                // firmware clocked it free.
                r.violations.push(format!(
                    "game {}: bus-hang injected {n} times, but the firmware never clocked the bus free",
                    i + 1
                ));
            } else if g.violations().is_empty() {
                r.faults.1 += 1;
            }
        }
        for v in g.violations() {
            r.violations.push(format!("game {}: {v}", i + 1));
        }
        if plan.level_each_game {
            let level = LEVELS_FROM_TRAP.get(i).copied().unwrap_or("?");
            let timed = &g.placements_ms[..g.placements_ms.len().min(2)];
            let at = s.ms;
            s.log.push(format!(
                "{at:8} ms level {level}: first move placed in {} ms, the reply in {} ms (limit {THINK_LIMIT_MS} ms each)",
                timed.first().map_or("-".into(), u32::to_string),
                timed.get(1).map_or("-".into(), u32::to_string)
            ));
            if timed.len() < 2 || !g.resets.is_empty() {
                r.violations.push(format!(
                    "game {} ({level}): {} placements timed, {} resets",
                    i + 1,
                    timed.len(),
                    g.resets.len()
                ));
            }
            for (what, ms) in ["first move", "reply"].iter().zip(timed) {
                if *ms > THINK_LIMIT_MS {
                    r.violations.push(format!(
                        "game {} ({level}): the {what} took {ms} ms to place, over the {THINK_LIMIT_MS} ms think limit"
                        , i + 1
                    ));
                }
            }
        }
        // Nothing disturbed the game (no fault kind, cheat, cut, sag, hang, held
        // bus or exception): the device must place every piece itself.
        if burst.is_none() && game.undisturbed() && g.fixes > 0 {
            r.violations.push(format!(
                "game {}: the person fixed the board {} times in a game nothing disturbed",
                i + 1,
                g.fixes
            ));
        }
        r.games.push(g);
    }
    if s.flash_cut_pending() {
        r.violations
            .push("a power cut scheduled inside a flash operation never came".into());
    }
    if plan.contest {
        let mut o = crate::contest::Outcome::default();
        let played = crate::contest::play(s, &mut o);
        r.contest_items = o.items;
        r.task_placements = o.placements;
        r.violations.extend(o.violations);
        r.games.extend(o.games);
        r.figures.task_placements_ms = o.placement_ms;
        played?;
    }
    if plan.cold_boot {
        s.power_cycle(1_000);
        let on = s.ms;
        let ready = s.wait_ready(crate::session::READY_LIMIT_MS)?;
        r.figures.boot_ms = Some(ready - on);
        if s.log
            .iter()
            .rev()
            .take_while(|l| !l.contains("power cut"))
            .any(|l| l.contains("lights [DeviceTurn, Error]"))
        {
            r.violations
                .push("the cold boot with the flash kept asked for a calibration".into());
        }
        let g = s.play(&GameSpec::plain(Style::Perfect))?;
        for v in g.violations() {
            r.violations.push(format!("game after the cold boot: {v}"));
        }
        r.games.push(g);
    }
    Ok(())
}

/// The board's rules over the whole run.
fn board_rules(plan: &Plan, s: &mut Session, r: &mut Report) {
    let watchdog = s
        .resets
        .iter()
        .filter(|(_, k)| *k == ResetKind::Watchdog)
        .count();
    let other = s
        .resets
        .iter()
        .filter(|(_, k)| matches!(k, ResetKind::Software | ResetKind::Pin))
        .count();
    if watchdog != plan.watchdog_resets {
        r.violations.push(format!(
            "{watchdog} watchdog resets (expected {})",
            plan.watchdog_resets
        ));
    }
    if other != plan.software_resets {
        r.violations.push(format!(
            "{other} software or pin resets (a panic, a HardFault, an exception handler; expected {})",
            plan.software_resets
        ));
    }
    let stack = s.board.stack_high_water();
    let m = s.mcu();
    let t = m.wiring.timing;
    if t.short_pulses + t.dir_violations + t.disabled_edges > 0 {
        r.violations.push(format!(
            "stepper drivers: {} pulses too short, {} DIR changes without set-up time, {} edges while disabled",
            t.short_pulses, t.dir_violations, t.disabled_edges
        ));
    }
    for (a, motor) in t.motors.iter().enumerate() {
        if motor.lost > 0 {
            r.violations.push(format!(
                "stepper {}: {} steps lost, sent sooner than the motor could follow (one {:.1} µs after a step it followed; the first at {:?})",
                ["X", "Y"][a],
                motor.lost,
                motor.lost_gap_ns as f64 / 1000.0,
                motor.first_loss
            ));
        }
    }
    if m.i2c.recoveries_left_hung > 0 {
        r.violations.push(format!(
            "{} of {} bus recoveries left a slave out of step (mid-byte): a recovery must free the bus in one call",
            m.i2c.recoveries_left_hung, m.i2c.recoveries
        ));
    }
    if m.i2c.master_hangs > 0 {
        r.violations.push(format!(
            "the master's own transfers left a slave holding SDA {} times (the last byte read acknowledged)",
            m.i2c.master_hangs
        ));
    }
    if m.i2c.arlo_storm.is_some() {
        // Per second of the storm: a storm must back off in time, not free the
        // bus (nothing holds it) every two transfers.
        let per_s = m.i2c.storm_recoveries as f64 * 1000.0 / f64::from(ARLO_STORM_MS);
        if m.i2c.storm_arlo == 0 {
            r.violations
                .push("the arbitration-lost storm met no transfer".into());
        }
        let lost_per_s = m.i2c.storm_arlo as f64 * 1000.0 / f64::from(ARLO_STORM_MS);
        if per_s > 1.0 || lost_per_s > 100.0 {
            r.violations.push(format!(
                "{} bus recoveries in a {ARLO_STORM_MS} ms arbitration-lost storm ({per_s:.1} per second; {} arbitrations lost, {lost_per_s:.0} per second): a storm must back off in time",
                m.i2c.storm_recoveries, m.i2c.storm_arlo
            ));
        }
    }
    if m.i2c.wrong_reads > 0 {
        r.violations.push(format!(
            "{} bytes read wrong: a STOP came before DataN-1 was read (ES096 \"wrong data read\"; interrupts must be masked between STOP and that read)",
            m.i2c.wrong_reads
        ));
    }
    if m.flash_ops_homing > 0 {
        r.violations.push(format!(
            "{} flash operations while homing after a reset (a save in its first pass): the save that starts homing must come before it",
            m.flash_ops_homing
        ));
    }
    if m.flash_ops_low > 0 {
        r.violations.push(format!(
            "{} saves started with VDD below {} mV (this part's PVD level)",
            m.flash_ops_low,
            m.pwr.save_min_mv()
        ));
    }
    // A cut inside an erase: VDD ramps from the cut to the power-down reset
    // (1.42 ms) inside the erase (20-40 ms), which is torn; the game must come
    // back from the log's older record (the games' rules above).
    if plan.games.iter().any(|g| g.cut_in_erase_after_ms.is_some()) && m.saves_torn == 0 {
        r.violations
            .push("a power cut inside an erase tore no save".into());
    }
    // A cut inside a half-word write: the save goes on while VDD ramps down
    // through the PVD's level (0.52 ms from 3.3 V), its later writes below it.
    if plan.games.iter().any(|g| g.cut_in_write_after_ms.is_some()) && m.flash_ops_low_in_saves == 0
    {
        r.violations.push(
            "a power cut inside a save's write left no write of it below the PVD's level".into(),
        );
    }
    if m.world.stats.collisions > 0 {
        r.violations
            .push(format!("{} bus collisions", m.world.stats.collisions));
    }
    let pass_us = m.iwdg.longest_gap_ns / 1_000;
    if pass_us >= WATCHDOG_MIN_MS * 1_000 && plan.watchdog_resets == 0 {
        r.violations.push(format!(
            "a loop pass of {pass_us} µs, near the watchdog's shortest timeout"
        ));
    }
    r.figures.max_pass_us = pass_us;
    r.figures.stack_b = stack;
    r.figures.step_high_ns = t.min_high_ns;
    r.figures.step_low_ns = t.min_low_ns;
    r.figures.dir_setup_ns = t.min_dir_setup_ns;
    r.figures.erases = m.flash.total_erases();
    r.cut_saves = (m.saves_torn, m.flash_ops_low_in_saves);
    r.figures.i2c_bytes = m.i2c.bytes;
    r.figures.bus_busy_ns = m.i2c.time.busy_ns;
    r.figures.scan_bus_us = m
        .i2c
        .time
        .scans_ns
        .iter()
        .map(|&t| (t / 1_000) as u32)
        .collect();
    r.figures.done_to_step_us = s.done_to_step_us.clone();
    r.figures.placements_ms = r
        .games
        .iter()
        .flat_map(|g| g.placements_ms.iter().copied())
        .collect();
    r.figures.virtual_ms = s.ms;
}

impl Report {
    /// One line: the scenario, its games and what failed.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let won = self
            .games
            .iter()
            .filter(|g| g.device_won == Some(true))
            .count();
        let drawn = self
            .games
            .iter()
            .filter(|g| g.finished && g.device_won.is_none())
            .count();
        let _ = write!(
            out,
            "{:14} {} games ({won} won, {drawn} drawn), {:.1} s virtual in {:.1} s, longest pass {} µs, {} erases",
            self.name,
            self.games.len(),
            f64::from(self.figures.virtual_ms) / 1000.0,
            self.figures.wall_s,
            self.figures.max_pass_us,
            self.figures.erases
        );
        // Errors the person had to fix, and power cuts, for the reader.
        let fixes: u32 = self.games.iter().map(|g| g.fixes).sum();
        let cuts: u32 = self.games.iter().map(|g| g.cuts.0).sum();
        if fixes > 0 {
            let _ = write!(out, ", {fixes} fixes by the person");
        }
        if cuts > 0 {
            let (torn, low) = self.cut_saves;
            let _ = write!(
                out,
                ", {cuts} power cuts ({torn} saves torn, {low} flash operations below the PVD in saves begun above it)"
            );
        }
        let b = self.bus;
        if b.hangs + b.mid_byte + b.recoveries > 0 {
            let _ = write!(
                out,
                ", {} slaves out of step, {} resets mid-byte, {} bus recoveries ({} clocks)",
                b.hangs, b.mid_byte, b.recoveries, b.clocks
            );
        }
        if self.violations.is_empty() {
            out.push_str(": ok");
        } else {
            let _ = write!(out, ": FAIL {}", self.violations.join("; "));
        }
        out
    }
}

/// What the bus went through in a run (see [`Report::bus`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct BusCounts {
    /// Slaves put out of step (the `bus-hang` kind, a held bus).
    pub hangs: u64,
    /// I2C1 resets (or PE cleared) mid-byte.
    pub mid_byte: u64,
    /// Bus recoveries (the pins as GPIOs and back).
    pub recoveries: u64,
    /// Their SCL clocks.
    pub clocks: u64,
}

/// Whether the lights show a calibration step (Error with a step light).
pub fn calibration_lights(l: &[bool; 7]) -> bool {
    l[Light::Error.index()] && l[Light::DeviceTurn.index()]
}
