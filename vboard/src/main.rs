//! `tictable-vboard`: plays the scenario set on the exact firmware image and prints
//! one line per scenario and a final `vboard: PASS ...` or `vboard: FAIL ...` line
//! (exit 0 only on PASS). Usage:
//!
//! ```text
//! tictable-vboard IMAGE [--levels LEVELS_IMAGE] [--games GAMES_IMAGE] [--only NAME]
//!                       [--jobs N] [--log] [--vcd FILE] [--watch] [--speed N] [--seed N]
//! ```
//!
//! `--games GAMES_IMAGE` plays the `games` image's scenarios too
//! (`tictable_vboard::games`: each game's contest-like, cheat, fault, Level and
//! differential scenarios, and a save of an unknown game); the PASS line then ends
//! with their counts by game (`games_image=tictactoe:1/1,misere:5/5,...`) and the
//! fault kinds recovered over injected (`games_faults=50/50`: every kind in every
//! game), the figures with its move times by game.
//!
//! `--seed N` seeds every scenario's world (default 7: the figures of the docs):
//! other worlds, other parts (each scenario's PVD levels, printed under its line),
//! the same rules (`scripts/reliability-sweep` runs several).
//!
//! `--vcd FILE` writes the pins of the scenario `--only` names as a Value Change
//! Dump; `--watch` shows it playing in the terminal, at `--speed` times real time
//! (default 1; 0: as fast as it runs). Both need `--only` (one scenario).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Mutex;
use tictable_machine::sim::human::Style;
use tictable_vboard::differential;
use tictable_vboard::elf::Image;
use tictable_vboard::games;
use tictable_vboard::scenarios::{self, Plan, Report};
use tictable_vboard::session::{GameSpec, Observer, Session};
use tictable_vboard::vcd::Recorder;
use tictable_vboard::view::{Mode, View};

struct Args {
    image: String,
    levels: Option<String>,
    games: Option<String>,
    only: Option<String>,
    jobs: usize,
    log: bool,
    vcd: Option<String>,
    watch: bool,
    speed: f64,
    seed: Option<u64>,
}

const USAGE: &str =
    "usage: tictable-vboard IMAGE [--levels LEVELS_IMAGE] [--games GAMES_IMAGE] [--only NAME] \
                     [--jobs N] [--log] [--vcd FILE] [--watch] [--speed N] [--seed N]";

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut a = Args {
        image: String::new(),
        levels: None,
        games: None,
        only: None,
        jobs: 2,
        log: false,
        vcd: None,
        watch: false,
        speed: 1.0,
        seed: None,
    };
    while let Some(x) = it.next() {
        match x.as_str() {
            "--levels" => a.levels = Some(it.next().ok_or("--levels needs an image")?),
            "--games" => a.games = Some(it.next().ok_or("--games needs an image")?),
            "--only" => a.only = Some(it.next().ok_or("--only needs a scenario name")?),
            "--jobs" => {
                a.jobs = it
                    .next()
                    .and_then(|j| j.parse().ok())
                    .filter(|&j| j > 0)
                    .ok_or("--jobs needs a number above 0")?
            }
            "--log" => a.log = true,
            "--vcd" => a.vcd = Some(it.next().ok_or("--vcd needs a file name")?),
            "--watch" => a.watch = true,
            "--speed" => {
                a.speed = it
                    .next()
                    .and_then(|j| j.parse().ok())
                    .filter(|&j: &f64| j.is_finite() && j >= 0.0)
                    .ok_or("--speed needs a number, 0 or above (0: as fast as it runs)")?
            }
            "--seed" => {
                a.seed = Some(
                    it.next()
                        .and_then(|j| j.parse().ok())
                        .ok_or("--seed needs a whole number")?,
                )
            }
            "-h" | "--help" => return Err(String::new()),
            _ if x.starts_with('-') => return Err(format!("unknown option {x}")),
            _ if a.image.is_empty() => a.image = x,
            _ => return Err(format!("unexpected argument {x}")),
        }
    }
    if a.image.is_empty() {
        return Err("no image given".into());
    }
    if (a.vcd.is_some() || a.watch) && a.only.is_none() {
        return Err("--vcd and --watch record one scenario: name it with --only NAME".into());
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("tictable-vboard: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let load = |p: &str| Image::load(p.as_ref()).map_err(|e| format!("{p}: {e}"));
    let (image, levels, games_image) = match (
        load(&args.image),
        args.levels.as_deref().map(load).transpose(),
        args.games.as_deref().map(load).transpose(),
    ) {
        (Ok(i), Ok(l), Ok(g)) => (i, l, g),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            eprintln!("tictable-vboard: {e}");
            return ExitCode::from(2);
        }
    };
    let wanted = |p: &Plan| args.only.as_deref().is_none_or(|o| o == p.name);
    let names: Vec<&str> = std::iter::once(scenarios::first().name)
        .chain(scenarios::rest().iter().map(|p| p.name))
        .chain(args.levels.is_some().then_some("levels"))
        .chain(Some(differential::NAME))
        .collect();
    // The games image's scenarios (their names are their own).
    let games_plans: Vec<Plan> = if games_image.is_some() {
        std::iter::once(games::first())
            .chain(games::rest())
            .collect()
    } else {
        vec![]
    };
    let names: Vec<&str> = names
        .into_iter()
        .chain(games_plans.iter().map(|p| p.name))
        .collect();
    if let Some(only) = args
        .only
        .as_deref()
        .filter(|o| (args.vcd.is_some() || args.watch) && !names.contains(o))
    {
        eprintln!(
            "tictable-vboard: no scenario {only} to record (the scenarios: {})",
            names.join(", ")
        );
        return ExitCode::from(2);
    }
    let mut watch = match Watch::new(&args) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("tictable-vboard: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reports = vec![];
    let mut first_plan = scenarios::first();
    if let Some(seed) = args.seed {
        first_plan.bench.seed = seed;
    }
    // The games image's first scenario (its calibration) beside the default's.
    let mut games_first = games_plans.first().cloned();
    if let (Some(p), Some(seed)) = (games_first.as_mut(), args.seed) {
        p.bench.seed = seed;
    }
    let only_games = args
        .only
        .as_deref()
        .is_some_and(|o| games_plans.iter().any(|p| p.name == o));
    let games_first_watched = games_first
        .as_ref()
        .is_some_and(|p| watch.name.as_deref() == Some(p.name));
    let (first, games_first) = std::thread::scope(|s| {
        let g = games_first
            .as_ref()
            .zip(games_image.as_ref())
            .filter(|_| !games_first_watched)
            .map(|(p, img)| s.spawn(move || (scenarios::run(p, img, None), p)));
        // Not needed when `--only` names one of the games image's scenarios.
        let first = (!only_games)
            .then(|| scenarios::run_watched(&first_plan, &image, None, watch.of(first_plan.name)));
        let g = match g {
            Some(h) => Some(h.join().expect("the games image's first scenario")),
            None => games_first
                .as_ref()
                .zip(games_image.as_ref())
                .map(|(p, img)| (scenarios::run_watched(p, img, None, watch.of(p.name)), p)),
        };
        (first, g)
    });
    let mut flash = vec![];
    let mut first_ok = false;
    if let Some(first) = first {
        show(&first, &first_plan, args.log);
        flash = first.flash.clone();
        first_ok = first.violations.is_empty();
        reports.push(first);
    }
    let mut games_reports = vec![];
    let mut games_flash = None;
    if let Some((mut r, p)) = games_first {
        games::judge(p, &mut r);
        show(&r, p, args.log);
        games_flash = r.violations.is_empty().then(|| r.flash.clone());
        games_reports.push(r);
    }
    let mut plans: Vec<(Plan, Image)> = scenarios::rest()
        .into_iter()
        .filter(wanted)
        .map(|p| (p, image.clone()))
        .collect();
    if let Some(l) = levels {
        let mut p = Plan {
            name: "levels",
            ..scenarios::first()
        };
        p.calibrated = true;
        p.cold_boot = false;
        p.games = vec![GameSpec::plain(Style::Perfect)];
        p.bursts = vec![None];
        p.bench.cpi = 1;
        // The same on the 8 MHz fallback clock (a PLL that never locks) at 5
        // cycles per instruction: every think, which SysTick must feed the
        // watchdog through for at most `safety::THINK_LIMIT_MS` (20 s). The first
        // move from the empty board, the longest search (trap's: 27.6 M
        // instructions, 17 s there), is precomputed since `firmware/src/opening.rs`.
        let mut slow = Plan {
            name: "levels-8mhz",
            ..p.clone()
        };
        slow.bench.cpi = 5;
        slow.bench.osc = tictable_vboard::rcc::Oscillators {
            pll_locks: false,
            hsi_hz: tictable_vboard::rcc::HSI_MAX_HZ,
            ..Default::default()
        };
        for plan in [slow, p, scenarios::levels_first_moves()] {
            if wanted(&plan) {
                plans.push((plan, l.clone()));
            }
        }
    }
    let diff = differential::plan();
    if wanted(&diff) {
        plans.push((diff, image.clone()));
    }
    // The games image's scenarios, on its first scenario's flash (none when that
    // failed: they would fail for its reason).
    let mut games_rest: Vec<(Plan, Image)> = match (&games_image, &games_flash) {
        (Some(img), Some(_)) => games_plans
            .iter()
            .skip(1)
            .filter(|p| wanted(p))
            .map(|p| (p.clone(), img.clone()))
            .collect(),
        _ => vec![],
    };
    if let Some(seed) = args.seed {
        for (p, _) in plans.iter_mut().chain(games_rest.iter_mut()) {
            p.bench.seed = seed;
        }
    }
    // Each job with its image's flash and whether it is the games image's.
    let games_flash = games_flash.unwrap_or_default();
    let mut jobs: Vec<(Plan, Image, bool)> = vec![];
    if first_ok || (args.only.is_some() && !only_games) {
        jobs.extend(plans.into_iter().map(|(p, i)| (p, i, false)));
    }
    jobs.extend(games_rest.into_iter().map(|(p, i)| (p, i, true)));
    // The watched scenario plays here, the others on the workers.
    if let Some(i) = jobs.iter().position(|(p, _, _)| watch.of(p.name).is_some()) {
        let (plan, img, of_games) = jobs.remove(i);
        let f = if of_games { &games_flash } else { &flash };
        let r = run(&plan, &img, f, of_games, watch.of(plan.name));
        show(&r, &plan, args.log);
        if of_games {
            games_reports.push(r);
        } else {
            reports.push(r);
        }
    }
    // The workers pop from the end: the games image's (the longest) first.
    let queue = Mutex::new(jobs);
    let done = Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..args.jobs {
            s.spawn(|| loop {
                let Some((plan, img, of_games)) = queue.lock().expect("queue").pop() else {
                    break;
                };
                let f = if of_games { &games_flash } else { &flash };
                let r = run(&plan, &img, f, of_games, None);
                show(&r, &plan, args.log);
                done.lock().expect("reports").push((r, of_games));
            });
        }
    });
    for (r, of_games) in done.into_inner().expect("reports") {
        if of_games {
            games_reports.push(r);
        } else {
            reports.push(r);
        }
    }
    if let Err(e) = watch.finish() {
        eprintln!("tictable-vboard: {e}");
        return ExitCode::FAILURE;
    }
    println!("{}", figures(&reports, &games_reports));
    let line = verdict(&reports, &games_reports, games_image.is_some());
    println!("{line}");
    if line.starts_with("vboard: PASS") {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The watchers of the scenario `--only` names: the waveform, the terminal view.
struct Watch {
    name: Option<String>,
    vcd: Option<(String, Recorder<std::io::BufWriter<std::fs::File>>)>,
    view: Option<View<std::io::Stdout>>,
}

impl Watch {
    /// The watchers `args` ask for (the VCD file created now: a bad path fails
    /// before the run).
    fn new(args: &Args) -> Result<Watch, String> {
        let name = args
            .only
            .clone()
            .filter(|_| args.vcd.is_some() || args.watch);
        let title = format!("tictable-vboard: {}", name.as_deref().unwrap_or_default());
        let vcd = match &args.vcd {
            Some(path) => {
                let f = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
                let comment = format!("{title}, image {}", args.image);
                Some((
                    path.clone(),
                    Recorder::new(std::io::BufWriter::new(f), &comment),
                ))
            }
            None => None,
        };
        let view = args.watch.then(|| {
            let mode = if std::io::stdout().is_terminal() {
                Mode::Frames
            } else {
                Mode::Lines
            };
            View::new(std::io::stdout(), mode, args.speed, &title)
        });
        Ok(Watch { name, vcd, view })
    }

    /// The observer of the scenario `name`, if it is the one watched.
    fn of(&mut self, name: &str) -> Option<&mut dyn Observer> {
        (self.name.as_deref() == Some(name)).then_some(self as &mut dyn Observer)
    }

    /// Ends the recording; the file's size and changes on stderr.
    fn finish(self) -> Result<(), String> {
        if let Some(v) = self.view.and_then(|v| v.error) {
            return Err(format!("the view: {v}"));
        }
        let Some((path, rec)) = self.vcd else {
            return Ok(());
        };
        let (changes, late) = rec.finish().map_err(|e| format!("{path}: {e}"))?;
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        eprintln!("vcd: {path}: {changes} changes, {bytes} bytes ({late} drawn late)");
        Ok(())
    }
}

impl Observer for Watch {
    fn start(&mut self, s: &mut Session<'_>) {
        if let Some((_, r)) = &mut self.vcd {
            r.start(s);
        }
        if let Some(v) = &mut self.view {
            v.start(s);
        }
    }

    fn tick(&mut self, s: &mut Session<'_>) {
        if let Some((_, r)) = &mut self.vcd {
            r.tick(s);
        }
        if let Some(v) = &mut self.view {
            v.tick(s);
        }
    }
}

/// Plays `plan` on `img` from the first scenario's `flash`, `observer` watching;
/// the differential's games then on the host too; the games image's (`of_games`)
/// judged by its rules too ([`games::judge`]).
fn run(
    plan: &Plan,
    img: &Image,
    flash: &[u8],
    of_games: bool,
    observer: Option<&mut dyn tictable_vboard::session::Observer>,
) -> Report {
    let mut r = scenarios::run_watched(plan, img, Some(flash), observer);
    if of_games {
        games::judge(plan, &mut r);
    } else if plan.name == differential::NAME {
        differential::compare(plan, &mut r);
    }
    r
}

fn show(r: &Report, plan: &Plan, log: bool) {
    // The part this run drew (one print: the workers' lines do not interleave).
    let typ = tictable_vboard::pwr::PLS7_FALLING_MV[1] as i32;
    let part = typ + tictable_vboard::pwr::part_offset_mv(plan.bench.part_seed());
    println!(
        "{}\n    part: PVD falling at {part} mV (seed {})",
        r.summary(),
        plan.bench.seed
    );
    // The differential's games side by side (the last lines of its log, shown
    // below on a failure).
    if !log && r.violations.is_empty() {
        // And each level's first two placements (`levels-first-moves`).
        for l in r.log.iter().filter(|l| {
            l.starts_with(differential::NAME)
                || l.contains("-differential game ")
                || l.contains(" ms level ")
        }) {
            println!("    {l}");
        }
    }
    if log || !r.violations.is_empty() {
        let from = if log {
            0
        } else {
            r.log.len().saturating_sub(25)
        };
        for l in &r.log[from..] {
            println!("    {l}");
        }
    }
}

/// The `q` quantile (0..=100) of sorted `v`.
fn quantile<T: Copy + Default>(v: &[T], q: usize) -> T {
    v.get((v.len() * q).div_ceil(100).saturating_sub(1))
        .copied()
        .unwrap_or_default()
}

/// The figures of the image, one per line under a heading (`scripts/vboard-figures`
/// copies them into the READMEs): over the nominal scenarios ([`Report::nominal`]:
/// not those that stall it on purpose, run it on the 8 MHz fallback clock or at
/// another number of cycles per instruction); the bus's over those
/// without bus faults injected either. All come from virtual time and seeded
/// worlds: the same images give the same figures.
fn figures(reports: &[Report], games_reports: &[Report]) -> String {
    let normal = || reports.iter().filter(|r| r.nominal);
    let clean = || normal().filter(|r| !matches!(r.name.as_str(), "faults" | "bus-held-low"));
    let sorted = |mut v: Vec<u64>| {
        v.sort_unstable();
        v
    };
    let placements = sorted(
        normal()
            .flat_map(|r| r.figures.placements_ms.iter().map(|&t| u64::from(t)))
            .collect(),
    );
    let done = sorted(
        normal()
            .flat_map(|r| r.figures.done_to_step_us.iter().copied())
            .collect(),
    );
    let scans = sorted(
        clean()
            .flat_map(|r| r.figures.scan_bus_us.iter().map(|&t| u64::from(t)))
            .collect(),
    );
    let busy_ns: u64 = clean().map(|r| r.figures.bus_busy_ns).sum();
    let run_ns: u64 = clean()
        .map(|r| u64::from(r.figures.virtual_ms) * 1_000_000)
        .sum();
    let shortest = |f: fn(&Report) -> u64| {
        normal()
            .map(f)
            .filter(|&t| t != u64::MAX)
            .min()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let ms = |us: u64| us as f64 / 1000.0;
    let first = reports.first();
    let games = first.map_or(0, |r| r.games.len()).max(1);
    let erases = first.map_or(0, |r| r.figures.erases);
    let lines = [
        format!(
            "boot to ready (power-on with the flash kept, homing included): {} ms",
            first.and_then(|r| r.figures.boot_ms).unwrap_or(0)
        ),
        format!(
            "longest loop pass (between watchdog feeds): {} µs, against the watchdog's shortest timeout of 1 s",
            normal().map(|r| r.figures.max_pass_us).max().unwrap_or(0)
        ),
        format!(
            "stack high-water mark (RAM painted at power-on): {} B of 20 KiB",
            reports.iter().map(|r| r.figures.stack_b).max().unwrap_or(0)
        ),
        format!(
            "Done pressed to the first STEP edge of the device's move: p50 {} ms, max {} ms",
            quantile(&done, 50) / 1000,
            done.last().copied().unwrap_or(0) / 1000
        ),
        format!(
            "placement (Device-turn light to Human-turn light): p50 {} ms, p99 {} ms, max {} ms over {} placements",
            quantile(&placements, 50),
            quantile(&placements, 99),
            placements.last().copied().unwrap_or(0),
            placements.len()
        ),
        format!(
            "STEP high at least {:.2} µs, low at least {:.2} µs; DIR set up at least {:.2} ms before a STEP edge",
            shortest(|r| r.figures.step_high_ns),
            shortest(|r| r.figures.step_low_ns),
            shortest(|r| r.figures.dir_setup_ns) / 1000.0
        ),
        format!(
            "I2C bus time per scan of the nine sensors (START to STOP, multiplexer selects included): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} scans; the bus busy {:.1} % of the time",
            ms(quantile(&scans, 50)),
            ms(quantile(&scans, 99)),
            ms(scans.last().copied().unwrap_or(0)),
            scans.len(),
            busy_ns as f64 * 100.0 / run_ns.max(1) as f64
        ),
        format!(
            "flash page erases per game: {:.2} ({erases} over the {games} games of `blank-flash`, calibration included)",
            erases as f64 / games as f64
        ),
    ];
    let mut out = format!(
        "figures (virtual STM32F103 at 72 MHz, {} cycles per instruction):",
        tictable_vboard::session::Bench::default().cpi
    );
    for l in lines {
        out.push_str("\n  ");
        out.push_str(&l);
    }
    if !games_reports.is_empty() {
        let times: Vec<String> = games::move_times(games_reports)
            .into_iter()
            .map(|(id, v)| {
                format!(
                    "{id} p50 {} ms, p99 {} ms ({} moves)",
                    quantile(&v, 50),
                    quantile(&v, 99),
                    v.len()
                )
            })
            .collect();
        out.push_str(&format!(
            "\n  the `games` image, the device's move (Device-turn light to Human-turn light or a result: a placement, a slide, or a capture with the taken pawn carried off first; the fault scenarios left out) by game: {}; stack high-water mark {} B",
            times.join("; "),
            games_reports.iter().map(|r| r.figures.stack_b).max().unwrap_or(0)
        ));
    }
    out
}

/// The final line (the games image's counts at its end when it played).
fn verdict(reports: &[Report], games_reports: &[Report], games_played: bool) -> String {
    let games: Vec<_> = reports.iter().flat_map(|r| r.games.iter()).collect();
    let losses = games
        .iter()
        .filter(|g| g.device_won == Some(false) && !g.may_lose)
        .count();
    let cheats: u32 = games.iter().map(|g| g.cheats).sum();
    let restored: u32 = games.iter().map(|g| g.restored).sum();
    let faults = reports
        .iter()
        .fold((0, 0), |a, r| (a.0 + r.faults.0, a.1 + r.faults.1));
    let boot = reports
        .iter()
        .filter_map(|r| r.figures.boot_ms)
        .max()
        .unwrap_or(0);
    let pass = reports
        .iter()
        .filter(|r| !r.hangs)
        .map(|r| r.figures.max_pass_us)
        .max()
        .unwrap_or(0);
    let stack = reports.iter().map(|r| r.figures.stack_b).max().unwrap_or(0);
    let contest = reports.iter().fold((0, 0), |a, r| {
        (a.0 + r.contest_items.0, a.1 + r.contest_items.1)
    });
    let tasks = reports.iter().fold((0, 0), |a, r| {
        (a.0 + r.task_placements.0, a.1 + r.task_placements.1)
    });
    let differential = reports.iter().fold((0, 0), |a, r| {
        (a.0 + r.differential.0, a.1 + r.differential.1)
    });
    let mut placements: Vec<u32> = reports
        .iter()
        .flat_map(|r| r.figures.placements_ms.iter().copied())
        .collect();
    placements.sort_unstable();
    let p99 = quantile(&placements, 99);
    // No STEP pulse at all (a board that never homed) shows 0.
    let high = reports
        .iter()
        .map(|r| r.figures.step_high_ns)
        .filter(|&h| h != u64::MAX)
        .min()
        .unwrap_or(0);
    let failed: Vec<&str> = reports
        .iter()
        .chain(games_reports)
        .filter(|r| !r.violations.is_empty())
        .map(|r| r.name.as_str())
        .collect();
    let counts = games::counts(games_reports);
    let any = !games.is_empty() || games_reports.iter().any(|r| !r.games.is_empty());
    let verdict = if failed.is_empty() && any {
        "PASS".to_string()
    } else {
        format!("FAIL ({})", failed.join(", "))
    };
    format!(
        "vboard: {verdict} games={} losses={losses} cheats={restored}/{cheats} faults={}/{} contest={}/{} task_placements={}/{} differential={}/{} boot_ms={boot} max_pass_us={pass} stack_b={stack} placement_p99_ms={p99} step_high_us={:.1}",
        games.len(),
        faults.1,
        faults.0,
        contest.0,
        contest.1,
        tasks.0,
        tasks.1,
        differential.0,
        differential.1,
        high as f64 / 1000.0
    ) + &if games_played {
        let c: Vec<String> = counts
            .iter()
            .map(|(id, ok, all)| format!("{id}:{ok}/{all}"))
            .collect();
        // Fault kinds injected and recovered in the games image's fault
        // scenarios, and switched on (every kind in every game).
        let f = games_reports
            .iter()
            .fold((0, 0), |a, r| (a.0 + r.faults.1, a.1 + r.faults.0));
        format!(" games_image={} games_faults={}/{}", c.join(","), f.0, f.1)
    } else {
        String::new()
    }
}
