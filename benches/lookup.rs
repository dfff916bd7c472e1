//! What the table buys: the compiled lookup against the live search and against other
//! ways to store the same table, and the full solve.
//!
//! `cargo bench -p tictable-bench` runs every benchmark with criterion and ends with a
//! summary table (time per lookup, bytes, ratios). Every alternative is built here, in
//! the benchmark only, from the same data as the compiled table, and checked against
//! `tictable::analyse` on all 4520 decision positions before it is timed.
//!
//! - `versus_plain/*`: the goal of issue 27 side by side in one run:
//!   `tictable::analyse` and `tictable::best_move` over the 4520 decision positions
//!   against a plain `Vec` of the same answers indexed by the board's base-3 index
//!   (`plain_*`), filled at start from the API itself for all 3^9 boards. The summary
//!   prints API / plain (goal: at most 2x).
//! - `lookup/table_*`: `tictable::analyse` (on 64-bit hosts one load from the
//!   per-board layout) over all 4520 decision positions; `table_best_move` the same
//!   through `tictable::best_move`.
//! - `search/analyse`: the live alpha-beta search (`tictable::search::analyse`) over
//!   the same positions, and `search/empty` / `table/empty` from the empty board.
//! - `alt/*`: the canonical table as the compiled `ptrhash` phf map (validate,
//!   canonicalise, probe, map the moves back: `analyse` on 64-bit hosts before the
//!   per-board layout), as a phf map without `ptrhash` (CHD, as phf
//!   builds it without the feature), a sorted array with binary search, a direct
//!   array indexed by the base-3 index of the canonical board; and without symmetry
//!   reduction (all 4520 positions): a `ptrhash` phf map and a direct array.
//! - `solve`: `tictable::solve::solve()`, the build-time enumeration and solve.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tictable::board::Status;
use tictable::{canonical, entry, solve, Analysis, Board, LookupError, Square, Symmetry};

/// Number of base-3 board indices (3^9).
const BOARDS: usize = 19683;

// ---------------------------------------------------------------------------------
// Recording: criterion prints its own estimates; the summary needs the numbers too.

/// Samples per benchmark (`group/id`): `(iterations, elapsed)`, in the order criterion
/// ran them. Criterion's warm-up calls the routine first; the last `sample_size`
/// samples are the measurement.
static SAMPLES: Mutex<BTreeMap<String, Samples>> = Mutex::new(BTreeMap::new());

/// A benchmark's sample size and its samples `(iterations, elapsed)`.
type Samples = (usize, Vec<(u64, Duration)>);

/// A criterion benchmark group that also records its samples for the summary.
struct Group<'a> {
    name: &'static str,
    sample_size: usize,
    inner: BenchmarkGroup<'a, WallTime>,
}

impl<'a> Group<'a> {
    fn new(c: &'a mut Criterion, name: &'static str, sample_size: usize, seconds: u64) -> Self {
        let mut inner = c.benchmark_group(name);
        inner
            .sample_size(sample_size)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(seconds));
        Group {
            name,
            sample_size,
            inner,
        }
    }

    fn finish(self) {
        self.inner.finish();
    }

    /// Benchmarks `routine` (one call per iteration) under `id`.
    fn bench(&mut self, id: &str, routine: impl Fn()) {
        let key = format!("{}/{id}", self.name);
        let sample_size = self.sample_size;
        self.inner.bench_function(id, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    routine();
                }
                let elapsed = start.elapsed();
                let mut samples = SAMPLES.lock().expect("samples lock");
                let entry = samples
                    .entry(key.clone())
                    .or_insert((sample_size, Vec::new()));
                entry.1.push((iters, elapsed));
                elapsed
            })
        });
    }
}

/// The median and the fastest time of one routine call of benchmark `key` over its
/// measured samples, in nanoseconds. On a busy machine the fastest sample is the one
/// least disturbed by other processes.
fn call_ns(key: &str) -> Option<(f64, f64)> {
    let samples = SAMPLES.lock().expect("samples lock");
    let (n, samples) = samples.get(key)?;
    let measured = &samples[samples.len().saturating_sub(*n)..];
    let mut per_call: Vec<f64> = measured
        .iter()
        .map(|&(iters, elapsed)| elapsed.as_nanos() as f64 / iters as f64)
        .collect();
    per_call.sort_by(f64::total_cmp);
    Some((*per_call.get(per_call.len() / 2)?, per_call[0]))
}

// ---------------------------------------------------------------------------------
// The positions and the alternatives.

/// Every decision position (valid, not over), in a fixed pseudo-random order so that
/// no layout profits from walking its memory in order.
fn decision_positions() -> Vec<Board> {
    let mut boards: Vec<Board> = (0..BOARDS as u16)
        .map(solve::board_of_index)
        .filter(|b| b.validate().is_ok() && !b.is_over())
        .collect();
    assert_eq!(boards.len(), 4520, "decision positions");
    // Fisher-Yates with splitmix64, fixed seed.
    let mut state = 0x7469_6374_6162_6c65u64;
    for i in (1..boards.len()).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        boards.swap(i, (z % (i as u64 + 1)) as usize);
    }
    boards
}

/// The lookup path of `tictable::analyse` over any key -> value table: validate and
/// check the game goes on (`Board::status`), optionally canonicalise, look up,
/// decode through the inverse symmetry. (The library's own `analyse_in` is
/// crate-private; this composes the same public parts.)
#[inline(always)]
fn lookup(board: &Board, symmetric: bool, get: impl Fn(u16) -> Option<u16>) -> Option<Analysis> {
    if board.status().ok()? != Status::Ongoing {
        return None; // answered without a lookup; the benchmark feeds decision positions
    }
    let (image, symmetry) = if symmetric {
        canonical(*board)
    } else {
        (*board, Symmetry::IDENTITY)
    };
    let key = entry::key(image);
    entry::decode(*board, symmetry, get(key)?, || get(key | entry::EXTRA_KEY))
}

/// `(key, value)` pairs of the compiled table (canonical keys, extra entries included).
fn canonical_pairs() -> Vec<(u16, u16)> {
    let mut pairs: Vec<(u16, u16)> = tictable::table::map()
        .entries()
        .map(|(&k, &v)| (k, v))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// `(key, value)` pairs for every decision position, without symmetry reduction.
fn all_pairs(positions: &[Board]) -> Vec<(u16, u16)> {
    let mut pairs = Vec::new();
    for board in positions {
        let analysis = tictable::analyse(board).expect("valid position");
        let key = entry::key(*board);
        let (value, extra) = entry::encode(*board, &analysis);
        pairs.push((key, value));
        if let Some(safe) = extra {
            pairs.push((key | entry::EXTRA_KEY, safe));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// phf's layout without the `ptrhash` feature (CHD, lambda = 3): a SipHash seed, one
/// `(u32, u32)` displacement per bucket, the entries. The lookup is phf's own
/// (`phf_shared::hash` and `phf_shared::get_index`, as `phf::Map::get` runs them).
struct Chd {
    key: u64,
    disps: Vec<(u32, u32)>,
    entries: Vec<(u16, u16)>,
}

impl Chd {
    fn new(pairs: &[(u16, u16)]) -> Chd {
        let keys: Vec<u16> = pairs.iter().map(|p| p.0).collect();
        let state = phf_generator::generate_hash(&keys);
        Chd {
            key: state.key,
            disps: state.disps,
            entries: state.map.iter().map(|&i| pairs[i]).collect(),
        }
    }

    #[inline]
    fn get(&self, key: u16) -> Option<u16> {
        let hashes = phf_shared::hash(&key, &self.key);
        let index = phf_shared::get_index(&hashes, &self.disps, self.entries.len());
        let (k, v) = self.entries[index as usize];
        (k == key).then_some(v)
    }

    fn bytes(&self) -> usize {
        size_of_val(&self.key) + size_of_val(&self.disps[..]) + size_of_val(&self.entries[..])
    }
}

/// A real `phf::Map` (the crate's `ptrhash` layout) built at run time.
fn ptrhash_map(pairs: &[(u16, u16)]) -> &'static phf::Map<u16, u16> {
    let keys: Vec<u16> = pairs.iter().map(|p| p.0).collect();
    let state = phf_generator::ptrhash::generate_hash(&keys);
    let entries: Vec<(u16, u16)> = state.map.iter().map(|&i| pairs[i]).collect();
    Box::leak(Box::new(phf::Map {
        key: state.seed,
        pilots: Box::leak(state.pilots.into_boxed_slice()),
        remap: Box::leak(state.remap.into_boxed_slice()),
        entries: Box::leak(entries.into_boxed_slice()),
    }))
}

fn ptrhash_bytes(map: &phf::Map<u16, u16>) -> usize {
    size_of_val(&map.key)
        + size_of_val(map.pilots)
        + size_of_val(map.remap)
        + size_of_val(map.entries)
}

/// `(key, value)` pairs sorted by key, found by binary search.
struct Sorted(Vec<(u16, u16)>);

impl Sorted {
    #[inline]
    fn get(&self, key: u16) -> Option<u16> {
        self.0
            .binary_search_by_key(&key, |p| p.0)
            .ok()
            .map(|i| self.0[i].1)
    }

    fn bytes(&self) -> usize {
        size_of_val(&self.0[..])
    }
}

/// A direct array indexed by the base-3 key (0 = no entry: no valid value is 0),
/// plus the few extra entries sorted by key.
struct Direct {
    values: Vec<u16>,
    extra: Sorted,
}

impl Direct {
    fn new(pairs: &[(u16, u16)]) -> Direct {
        let mut values = vec![0u16; BOARDS];
        let mut extra = Vec::new();
        for &(k, v) in pairs {
            assert_ne!(v, 0, "0 marks a missing entry");
            if k & entry::EXTRA_KEY == 0 {
                values[k as usize] = v;
            } else {
                extra.push((k, v));
            }
        }
        Direct {
            values,
            extra: Sorted(extra),
        }
    }

    #[inline]
    fn get(&self, key: u16) -> Option<u16> {
        match self.values.get(key as usize) {
            Some(&0) => None,
            Some(&v) => Some(v),
            None => self.extra.get(key),
        }
    }

    fn bytes(&self) -> usize {
        size_of_val(&self.values[..]) + self.extra.bytes()
    }
}

// ---------------------------------------------------------------------------------
// The benchmarks.

/// Rows of the summary: (benchmark key, label, bytes or None, lookups per call).
type Row = (String, String, Option<usize>, usize);

fn lookups(c: &mut Criterion, rows: &mut Vec<Row>) {
    let positions = decision_positions();
    let n = positions.len();
    let canonical = canonical_pairs();
    let all = all_pairs(&positions);
    let chd = Chd::new(&canonical);
    let sorted = Sorted(canonical.clone());
    let direct = Direct::new(&canonical);
    let direct_all = Direct::new(&all);
    let ptrhash_all = ptrhash_map(&all);

    // Every alternative answers exactly what the compiled table answers.
    for board in &positions {
        let expected = tictable::analyse(board).ok();
        assert!(expected.is_some());
        assert_eq!(
            lookup(board, true, |k| tictable::table::map().get(&k).copied()),
            expected,
            "ptrhash at {board}"
        );
        assert_eq!(
            lookup(board, true, |k| chd.get(k)),
            expected,
            "CHD at {board}"
        );
        assert_eq!(
            lookup(board, true, |k| sorted.get(k)),
            expected,
            "sorted at {board}"
        );
        assert_eq!(
            lookup(board, true, |k| direct.get(k)),
            expected,
            "direct at {board}"
        );
        assert_eq!(
            lookup(board, false, |k| direct_all.get(k)),
            expected,
            "direct-all at {board}"
        );
        let ptr = |k| ptrhash_all.get(&k).copied();
        assert_eq!(
            lookup(board, false, ptr),
            expected,
            "ptrhash-all at {board}"
        );
    }

    let size = tictable::table::size();
    let mut g = Group::new(c, "lookup", 40, 3);
    g.inner.throughput(Throughput::Elements(n as u64));
    let mut row = |id: &str, label: &str, bytes: Option<usize>| {
        rows.push((format!("lookup/{id}"), label.to_string(), bytes, n));
    };
    g.bench("table_analyse", || {
        for board in &positions {
            black_box(tictable::analyse(black_box(board)).ok());
        }
    });
    row(
        "table_analyse",
        "tictable::analyse (per-board layout)",
        Some(size.wide_bytes),
    );
    g.bench("table_best_move", || {
        for board in &positions {
            black_box(tictable::best_move(black_box(board)));
        }
    });
    row(
        "table_best_move",
        "tictable::best_move (per-board layout)",
        Some(size.wide_best_bytes),
    );
    let map = tictable::table::map();
    g.bench("alt_phf_ptrhash", || {
        for board in &positions {
            black_box(lookup(black_box(board), true, |k| map.get(&k).copied()));
        }
    });
    row(
        "alt_phf_ptrhash",
        "compiled phf map (ptrhash), symmetry",
        Some(size.total()),
    );
    g.bench("alt_phf_chd", || {
        for board in &positions {
            black_box(lookup(black_box(board), true, |k| chd.get(k)));
        }
    });
    row(
        "alt_phf_chd",
        "phf without ptrhash (CHD), symmetry",
        Some(chd.bytes()),
    );
    g.bench("alt_sorted", || {
        for board in &positions {
            black_box(lookup(black_box(board), true, |k| sorted.get(k)));
        }
    });
    row(
        "alt_sorted",
        "sorted array + binary search, symmetry",
        Some(sorted.bytes()),
    );
    g.bench("alt_direct", || {
        for board in &positions {
            black_box(lookup(black_box(board), true, |k| direct.get(k)));
        }
    });
    row(
        "alt_direct",
        "direct 3^9 array, symmetry",
        Some(direct.bytes()),
    );
    g.bench("alt_direct_all", || {
        for board in &positions {
            black_box(lookup(black_box(board), false, |k| direct_all.get(k)));
        }
    });
    row(
        "alt_direct_all",
        "direct 3^9 array, no symmetry",
        Some(direct_all.bytes()),
    );
    g.bench("alt_ptrhash_all", || {
        for board in &positions {
            black_box(lookup(black_box(board), false, |k| {
                ptrhash_all.get(&k).copied()
            }));
        }
    });
    let label = format!("phf ptrhash, no symmetry ({n} positions)");
    row("alt_ptrhash_all", &label, Some(ptrhash_bytes(ptrhash_all)));
    g.inner.throughput(Throughput::Elements(1));
    g.bench("table_empty", || {
        black_box(tictable::analyse(black_box(&Board::EMPTY)).ok());
    });
    rows.push((
        "lookup/table_empty".into(),
        "tictable::analyse, empty board".into(),
        Some(size.wide_bytes),
        1,
    ));
    g.finish();
}

/// The goal of issue 27 measured side by side: the table's API against a plain array
/// of its own answers, a `Vec` indexed by the board's base-3 index, filled at start
/// by calling the API on each of the 3^9 boards. Same positions, same order, same
/// `black_box` around each answer.
fn versus_plain(c: &mut Criterion, rows: &mut Vec<Row>) {
    let positions = decision_positions();
    let n = positions.len();
    let boards = || (0..BOARDS as u16).map(|i| Board::from_base3_index(i).expect("below 3^9"));
    let plain_analyse: Vec<Result<Analysis, LookupError>> =
        boards().map(|b| tictable::analyse(&b)).collect();
    let plain_best_move: Vec<Option<Square>> = boards().map(|b| tictable::best_move(&b)).collect();
    for board in &positions {
        let index = board.base3_index() as usize;
        assert_eq!(plain_analyse[index], tictable::analyse(board), "{board}");
        assert_eq!(
            plain_best_move[index],
            tictable::best_move(board),
            "{board}"
        );
    }
    let mut g = Group::new(c, "versus_plain", 40, 3);
    g.inner.throughput(Throughput::Elements(n as u64));
    let mut row = |id: &str, label: &str, bytes: usize| {
        rows.push((
            format!("versus_plain/{id}"),
            label.to_string(),
            Some(bytes),
            n,
        ));
    };
    let size = tictable::table::size();
    g.bench("analyse", || {
        for board in &positions {
            let _ = black_box(tictable::analyse(black_box(board)));
        }
    });
    row("analyse", "tictable::analyse", size.wide_bytes);
    g.bench("plain_analyse", || {
        for board in &positions {
            let _ = black_box(plain_analyse[black_box(board).base3_index() as usize]);
        }
    });
    row(
        "plain_analyse",
        "plain 3^9 array of analyse's answers",
        size_of_val(&plain_analyse[..]),
    );
    g.bench("best_move", || {
        for board in &positions {
            black_box(tictable::best_move(black_box(board)));
        }
    });
    row("best_move", "tictable::best_move", size.wide_best_bytes);
    g.bench("plain_best_move", || {
        for board in &positions {
            black_box(plain_best_move[black_box(board).base3_index() as usize]);
        }
    });
    row(
        "plain_best_move",
        "plain 3^9 array of best_move's answers",
        size_of_val(&plain_best_move[..]),
    );
    g.finish();
    // The same pairs once more, alternating pass by pass, the fastest pass of each
    // kept: on a machine shared with other jobs, criterion's benchmarks run seconds
    // apart under different loads; two passes in a row see the same one.
    let mut paired = PAIRED.lock().expect("paired lock");
    paired.push((
        "analyse",
        fastest_alternating(
            || {
                for board in &positions {
                    let _ = black_box(tictable::analyse(black_box(board)));
                }
            },
            || {
                for board in &positions {
                    let _ = black_box(plain_analyse[black_box(board).base3_index() as usize]);
                }
            },
        ),
    ));
    paired.push((
        "best_move",
        fastest_alternating(
            || {
                for board in &positions {
                    black_box(tictable::best_move(black_box(board)));
                }
            },
            || {
                for board in &positions {
                    black_box(plain_best_move[black_box(board).base3_index() as usize]);
                }
            },
        ),
    ));
}

/// Passes of [`fastest_alternating`]: each routine this many times (a pass over the
/// 4520 positions takes microseconds, so all of them well under a second).
const PASSES: usize = 20_000;

/// The fastest of [`PASSES`] calls of `a` and of `b`, called in turn, in nanoseconds.
fn fastest_alternating(a: impl Fn(), b: impl Fn()) -> (f64, f64) {
    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        start.elapsed().as_nanos() as f64
    };
    let (mut fastest_a, mut fastest_b) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..PASSES {
        fastest_a = fastest_a.min(time(&a));
        fastest_b = fastest_b.min(time(&b));
    }
    (fastest_a, fastest_b)
}

/// What [`fastest_alternating`] measured for the side-by-side pairs: the API's
/// fastest pass and the plain array's, in nanoseconds, by function name.
static PAIRED: Mutex<Vec<(&str, (f64, f64))>> = Mutex::new(Vec::new());

/// The live search over the same positions and from the empty board.
fn live_search(c: &mut Criterion, rows: &mut Vec<Row>) {
    let positions = decision_positions();
    let n = positions.len();
    let mut g = Group::new(c, "search", 10, 5);
    g.inner.throughput(Throughput::Elements(n as u64));
    g.bench("analyse_all", || {
        for board in &positions {
            black_box(tictable::search::analyse(black_box(board)).ok());
        }
    });
    rows.push((
        "search/analyse_all".into(),
        "live search (search::analyse), same positions".into(),
        None,
        n,
    ));
    g.inner.throughput(Throughput::Elements(1));
    g.bench("empty", || {
        black_box(tictable::search::analyse(black_box(&Board::EMPTY)).ok());
    });
    rows.push((
        "search/empty".into(),
        "live search, empty board".into(),
        None,
        1,
    ));
    g.finish();
}

/// Where a lookup's time goes: each step of `tictable::analyse` alone, over the same
/// positions, with the inputs of the step computed beforehand.
fn parts(c: &mut Criterion, rows: &mut Vec<Row>) {
    let positions = decision_positions();
    let n = positions.len();
    let map = tictable::table::map();
    let steps: Vec<(Board, Symmetry, u16, u16)> = positions
        .iter()
        .map(|board| {
            let (image, symmetry) = canonical(*board);
            let key = entry::key(image);
            (
                *board,
                symmetry,
                key,
                map.get(&key).copied().expect("key in table"),
            )
        })
        .collect();
    let mut g = Group::new(c, "parts", 40, 2);
    g.inner.throughput(Throughput::Elements(n as u64));
    let mut row = |id: &str, label: &str| {
        rows.push((format!("parts/{id}"), label.to_string(), None, n));
    };
    g.bench("status", || {
        for board in &positions {
            black_box(black_box(board).status() == Ok(Status::Ongoing));
        }
    });
    row("status", "  part: Board::status (validate + game over)");
    g.bench("canonical", || {
        for board in &positions {
            black_box(canonical(*black_box(board)));
        }
    });
    row("canonical", "  part: canonical (8 images, minimum)");
    g.bench("phf_get", || {
        for step in &steps {
            black_box(map.get(&black_box(step.2)));
        }
    });
    row("phf_get", "  part: phf get (SipHash-1-3 + ptrhash index)");
    g.bench("decode", || {
        for &(board, symmetry, key, value) in &steps {
            let extra = || map.get(&(key | entry::EXTRA_KEY)).copied();
            black_box(entry::decode(
                black_box(board),
                symmetry,
                black_box(value),
                extra,
            ));
        }
    });
    row("decode", "  part: entry::decode (moves mapped back)");
    g.finish();
}

fn full_solve(c: &mut Criterion, rows: &mut Vec<Row>) {
    let mut g = Group::new(c, "solve", 10, 5);
    g.bench("solve", || {
        black_box(solve::solve());
    });
    rows.push((
        "solve/solve".into(),
        "solve::solve() (5478 positions)".into(),
        None,
        1,
    ));
    g.finish();
}

fn format_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn print_summary(rows: &[Row]) {
    // (median, fastest) time per lookup: per call / lookups per call.
    let per_lookup = |key: &str, n: usize| call_ns(key).map(|(m, f)| (m / n as f64, f / n as f64));
    let table = per_lookup("lookup/table_analyse", 4520);
    println!();
    println!("The goal (issue 27): the API within 2x of a plain 3^9 array of its answers");
    for what in ["analyse", "best_move"] {
        let api = per_lookup(&format!("versus_plain/{what}"), 4520);
        let plain = per_lookup(&format!("versus_plain/plain_{what}"), 4520);
        if let (Some(api), Some(plain)) = (api, plain) {
            println!(
                "  {what:<10} {:>8} vs plain {:>8} (median): {:.2}x; fastest {:>8} vs {:>8}: {:.2}x (goal <= 2x)",
                format_ns(api.0),
                format_ns(plain.0),
                api.0 / plain.0,
                format_ns(api.1),
                format_ns(plain.1),
                api.1 / plain.1
            );
        }
    }
    for (what, (api, plain)) in PAIRED.lock().expect("paired lock").iter() {
        println!(
            "  {what:<10} {:>8} vs plain {:>8}: {:.2}x (fastest of {PASSES} passes each, alternating)",
            format_ns(api / 4520.0),
            format_ns(plain / 4520.0),
            api / plain
        );
    }
    println!();
    println!("Summary: time per lookup (median and fastest of criterion's samples) and bytes");
    println!(
        "{:<52} {:>11} {:>11} {:>7} {:>9}",
        "what", "median", "fastest", "bytes", "vs table"
    );
    for (key, label, bytes, n) in rows {
        let Some((median, fastest)) = per_lookup(key, *n) else {
            continue;
        };
        let ratio = table.map_or(String::new(), |t| format!("{:.2}x", median / t.0));
        let bytes = bytes.map_or("-".to_string(), |b| b.to_string());
        println!(
            "{label:<52} {:>11} {:>11} {bytes:>7} {ratio:>9}",
            format_ns(median),
            format_ns(fastest)
        );
    }
    if let (Some(t), Some(all), Some(empty), Some(t_empty)) = (
        table,
        per_lookup("search/analyse_all", 4520),
        call_ns("search/empty"),
        call_ns("lookup/table_empty"),
    ) {
        println!();
        println!("ratios (median; fastest)");
        println!(
            "  live search / lookup, same 4520 positions:        {:.0}x; {:.0}x",
            all.0 / t.0,
            all.1 / t.1
        );
        println!(
            "  live search from the empty board / mean lookup:   {:.0}x; {:.0}x (goal >= 1000x)",
            empty.0 / t.0,
            empty.1 / t.1
        );
        println!(
            "  live search / lookup, both from the empty board:  {:.0}x; {:.0}x",
            empty.0 / t_empty.0,
            empty.1 / t_empty.1
        );
    }
    let size = tictable::table::size();
    println!(
        "compiled table: {} entries, {} B keys + {} B values + {} B hash parameters = {} B (goal <= 3072 B)",
        size.entries,
        size.key_bytes,
        size.value_bytes,
        size.hash_bytes,
        size.total()
    );
    println!(
        "per-board layout (what 64-bit hosts look up): {} B analyses + {} B best moves",
        size.wide_bytes, size.wide_best_bytes
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut rows = Vec::new();
    versus_plain(&mut c, &mut rows);
    lookups(&mut c, &mut rows);
    parts(&mut c, &mut rows);
    live_search(&mut c, &mut rows);
    full_solve(&mut c, &mut rows);
    c.final_summary();
    // Only a real measurement has samples worth summarising (`cargo bench` passes
    // `--bench`; `cargo test --benches` and `-- --test` run each routine once).
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test") {
        print_summary(&rows);
    }
}
