//! `tictable stats`: the size of the compiled table and the solve behind it.

use serde_json::{json, Value};

use std::process::ExitCode;
use std::time::{Duration, Instant};
use tictable::{entry, solve, table};

/// Print the size of the compiled table and the solve behind it.
///
/// The table: entries; bytes of keys, values and hash parameters. The solve:
/// position counts, time of a full solve.
///
/// The solve time is that of `tictable::solve::solve()` in this binary: build with
/// `--release` for a meaningful figure.
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// How many times to run the full solve (the minimum and median are reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,
}

/// The figures `stats` reports.
struct Stats {
    size: table::TableSize,
    positions: usize,
    pilots: usize,
    remap: usize,
    reachable: usize,
    reachable_terminal: usize,
    canonical: usize,
    canonical_decision: usize,
    solve_times: Vec<Duration>,
}

impl Stats {
    fn measure(runs: u32) -> Stats {
        let map = table::map();
        let mut solve_times = Vec::with_capacity(runs as usize);
        let mut solution = None;
        for _ in 0..runs {
            let start = Instant::now();
            let s = solve::solve();
            solve_times.push(start.elapsed());
            solution = Some(s);
        }
        solve_times.sort();
        let solution = solution.unwrap_or_else(solve::solve);
        Stats {
            size: table::size(),
            positions: map.keys().filter(|&&k| k & entry::EXTRA_KEY == 0).count(),
            pilots: map.pilots.len(),
            remap: map.remap.len(),
            reachable: solution.reachable,
            reachable_terminal: solution.reachable_terminal,
            canonical: solution.canonical.len(),
            canonical_decision: solution.decisions.len(),
            solve_times,
        }
    }

    fn solve_min(&self) -> Duration {
        self.solve_times.first().copied().unwrap_or_default()
    }

    fn solve_median(&self) -> Duration {
        self.solve_times
            .get(self.solve_times.len() / 2)
            .copied()
            .unwrap_or_default()
    }

    fn json(&self) -> Value {
        let ms = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        let s = &self.size;
        json!({
            "table": {
                "entries": s.entries,
                "positions": self.positions,
                "extra_entries": s.entries - self.positions,
                "key_bytes": s.key_bytes,
                "value_bytes": s.value_bytes,
                "hash_bytes": s.hash_bytes,
                "pilots": self.pilots,
                "remap": self.remap,
                "total_bytes": s.total(),
                "header_bytes": s.header_bytes,
                "compact_bytes": s.compact_bytes,
                "best_entries": s.best_entries,
                "best_bytes": s.best_bytes,
            },
            "positions": {
                "reachable": self.reachable,
                "reachable_terminal": self.reachable_terminal,
                "decision": self.reachable - self.reachable_terminal,
                "canonical": self.canonical,
                "canonical_terminal": self.canonical - self.canonical_decision,
                "canonical_decision": self.canonical_decision,
            },
            "solve": {
                "runs": self.solve_times.len(),
                "min_ms": ms(self.solve_min()),
                "median_ms": ms(self.solve_median()),
                "optimised": !cfg!(debug_assertions),
            },
        })
    }

    fn text(&self) -> String {
        let s = &self.size;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let profile = if cfg!(debug_assertions) {
            " (debug build: use --release for a meaningful time)"
        } else {
            ""
        };
        format!(
            "table: {entries} entries ({positions} canonical decision positions + {extra} extra)\n\
             \x20 keys              {keys:>5} B\n\
             \x20 values            {values:>5} B\n\
             \x20 hash parameters   {hash:>5} B (seed, {pilots} pilots, {remap} remap slots)\n\
             \x20 total             {total:>5} B (+ {header} B map header on this target)\n\
             \x20 compact layout    {compact:>5} B (32-bit targets: values by slot, pilots, seed; no keys)\n\
             best-moves table:  {best:>5} B ({best_entries} positions that the tactics rule leaves; \
             what firmware that only plays links)\n\
             positions: {reachable} reachable ({terminal} finished), {decision} decision; \
             up to symmetry {canonical} ({canonical_terminal} finished), {canonical_decision} decision\n\
             solve: min {min:.3} ms, median {median:.3} ms over {runs} runs{profile}\n",
            entries = s.entries,
            positions = self.positions,
            extra = s.entries - self.positions,
            keys = s.key_bytes,
            values = s.value_bytes,
            hash = s.hash_bytes,
            pilots = self.pilots,
            remap = self.remap,
            total = s.total(),
            header = s.header_bytes,
            compact = s.compact_bytes,
            best = s.best_bytes,
            best_entries = s.best_entries,
            reachable = self.reachable,
            terminal = self.reachable_terminal,
            decision = self.reachable - self.reachable_terminal,
            canonical = self.canonical,
            canonical_terminal = self.canonical - self.canonical_decision,
            canonical_decision = self.canonical_decision,
            min = ms(self.solve_min()),
            median = ms(self.solve_median()),
            runs = self.solve_times.len(),
        )
    }
}

pub fn run(args: Args) -> ExitCode {
    let stats = Stats::measure(args.runs);
    let report = if args.json {
        format!("{}\n", stats.json())
    } else {
        stats.text()
    };
    crate::output::finish(crate::output::print(report.as_bytes()))
}
