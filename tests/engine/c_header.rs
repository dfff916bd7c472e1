//! The C header `tables/tictactoe.h`, compiled by a real C compiler with
//! `-std=c99 -Wall -Wextra -Werror -pedantic` (the full check also with
//! `-Wconversion -Wsign-conversion` under `-fsanitize=address,undefined`), answers
//! like the Rust crate on every
//! pair of 9-bit masks (every reachable position, and every invalid one), in full and
//! in the best-moves-only build (which must leave the analysis table out), and the C
//! example game builds and plays. Needs a C compiler (`$CC`, `gcc` or `cc`; Rust's linker
//! on Linux is one) and `nm` (binutils): without them the tests fail, saying so.
#![cfg(feature = "std")]

use crate::compiler::compiler;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tictable::{analyse, best_move, best_moves, Board, LookupError, Outcome};

const FLAGS: [&str; 5] = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `sources` with the strict flags (and `extra`) into an executable.
fn build(cc: &str, name: &str, sources: &[PathBuf], extra: &[&str]) -> PathBuf {
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let output = Command::new(cc)
        .args(FLAGS)
        .args(extra)
        .arg("-I")
        .arg(root().join("tables"))
        .args(sources)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "{cc} {FLAGS:?} {extra:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Runs `exe` with `input` on standard input; its standard output.
fn run(exe: &Path, args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the C program");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{} failed: {}",
        exe.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// What the header must answer for masks `x, o`: the fields printed by
/// tests/c/check_header.c
/// (`ret outcome plies best safe best_move ret_without_out best_moves`).
fn expected(x: u16, o: u16) -> [i64; 8] {
    const UNTOUCHED: [i64; 4] = [-86, 170, 0xaaaa, 0xaaaa];
    let analysis = Board::from_bits(x, o)
        .map_err(LookupError::from)
        .and_then(|board| Ok((board, analyse(&board)?)));
    // Only an invalid position may leave the outputs untouched; the compiled table
    // answers every valid one alone.
    if let Err(e @ (LookupError::MissingEntry { .. } | LookupError::MalformedEntry { .. })) =
        analysis
    {
        panic!("{x:#x} {o:#x}: {e}");
    }
    let Ok((board, a)) = analysis else {
        let [outcome, plies, best, safe] = UNTOUCHED;
        return [-1, outcome, plies, best, safe, -1, -1, -1];
    };
    let ret = if a.is_terminal() { 1 } else { 0 };
    let outcome = match a.outcome() {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    // The best-moves path answers as the analysis did before it: the lowest best move
    // of `analyse`, and its whole `best` set (empty when the game is over).
    assert_eq!(best_move(&board), a.best().first(), "{board}");
    assert_eq!(best_moves(&board).unwrap_or_default(), a.best(), "{board}");
    let best_move = best_move(&board).map_or(-1, |s| i64::from(s.index()));
    [
        ret,
        outcome,
        i64::from(a.plies()),
        i64::from(a.best().bits()),
        i64::from(a.safe().bits()),
        best_move,
        ret,
        best_moves(&board).map_or(0, |s| i64::from(s.bits())),
    ]
}

/// Every pair of 9-bit masks, then masks with bits above square 8, as the checkers'
/// input.
fn queries() -> (Vec<(u16, u16)>, String) {
    let mut queries: Vec<(u16, u16)> = (0..512)
        .flat_map(|x| (0..512).map(move |o| (x, o)))
        .collect();
    for bit in 9..16 {
        queries.extend([
            (1 << bit, 0),
            (1 << bit | 1, 2),
            (0, 1 << bit),
            (3, 0x18 | 1 << bit),
        ]);
    }
    let input = queries.iter().map(|(x, o)| format!("{x} {o}\n")).collect();
    (queries, input)
}

/// The answer lines of a checker, one per query, each checked to start with its `x o`:
/// the numbers that follow.
fn answers<'a>(
    output: &'a str,
    queries: &'a [(u16, u16)],
) -> impl Iterator<Item = ((u16, u16), Vec<i64>, &'a str)> + 'a {
    let mut lines = output.lines();
    let count = output.lines().count();
    assert_eq!(count, queries.len(), "one answer line per query");
    queries.iter().map(move |&(x, o)| {
        let line = lines.next().expect("counted");
        let fields: Vec<i64> = line.split(' ').map(|f| f.parse().unwrap()).collect();
        assert_eq!(fields[..2], [i64::from(x), i64::from(o)], "{line}");
        ((x, o), fields[2..].to_vec(), line)
    })
}

#[test]
fn c_header_answers_like_the_rust_table_on_every_position() {
    let cc = compiler();
    let tests = root().join("tests/c");
    // With conversion warnings as errors and under AddressSanitizer and
    // UndefinedBehaviorSanitizer (any report aborts the run).
    let exe = build(
        &cc,
        "check_header",
        &[tests.join("check_header.c"), tests.join("second_unit.c")],
        &[
            "-O1",
            "-Wconversion",
            "-Wsign-conversion",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ],
    );
    let (queries, input) = queries();
    let output = run(&exe, &[], input.as_bytes());

    let (mut decisions, mut finished, mut invalid) = (0, 0, 0);
    for ((x, o), fields, line) in answers(&output, &queries) {
        let want = expected(x, o);
        assert_eq!(fields, want, "x={x:#05x} o={o:#05x}: C said {line}");
        match want[0] {
            0 => decisions += 1,
            1 => finished += 1,
            _ => invalid += 1,
        }
    }
    assert_eq!((decisions, finished), (4520, 958));
    assert_eq!(invalid, queries.len() - 5478);
}

/// The symbols `nm` lists in `object`; panics with what to install without `nm`.
fn symbols(object: &Path) -> Vec<String> {
    let output = Command::new("nm")
        .arg(object)
        .output()
        .unwrap_or_else(|e| panic!("nm: {e}: install binutils (apt-get install binutils)"));
    assert!(output.status.success(), "nm {}", object.display());
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .map(String::from)
        .collect()
}

/// Compiles `source` with the strict flags, `-Os` and `extra` into an object file.
fn object(cc: &str, source: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let object = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let output = Command::new(cc)
        .args(FLAGS)
        .args(extra)
        .args(["-Os", "-c"])
        .arg("-I")
        .arg(root().join("tables"))
        .arg(source)
        .arg("-o")
        .arg(&object)
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "{cc} {FLAGS:?} {extra:?} -Os -c {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    object
}

#[test]
fn c_best_moves_only_build_answers_like_rust_without_the_analysis_table() {
    let cc = compiler();
    let tests = root().join("tests/c");
    let exe = build(
        &cc,
        "check_best_moves",
        &[
            tests.join("check_best_moves.c"),
            tests.join("second_unit.c"),
        ],
        &["-O2"],
    );
    let (queries, input) = queries();
    let output = run(&exe, &[], input.as_bytes());
    for ((x, o), fields, line) in answers(&output, &queries) {
        let want = expected(x, o);
        assert_eq!(
            fields,
            [want[5], want[7]],
            "x={x:#05x} o={o:#05x}: C said {line}"
        );
    }

    // The object of a program that only plays holds the best-moves table and neither
    // tictable_analyse nor the analysis table; the full build holds both tables.
    let best_only = object(&cc, &tests.join("check_best_moves.c"), "best_only.o", &[]);
    let full = object(&cc, &tests.join("implementation_only.c"), "full.o", &[]);
    let (best_only, full) = (symbols(&best_only), symbols(&full));
    let has = |symbols: &[String], name: &str| symbols.iter().any(|s| s == name);
    for name in [
        "tictable__best_keys",
        "tictable__best_sets",
        "tictable_best_moves",
    ] {
        assert!(has(&best_only, name), "{name} missing: {best_only:?}");
        assert!(has(&full, name), "{name} missing: {full:?}");
    }
    for name in ["tictable__keys", "tictable__values", "tictable_analyse"] {
        assert!(!has(&best_only, name), "{name} linked: {best_only:?}");
        assert!(has(&full, name), "{name} missing: {full:?}");
    }
}

#[test]
fn c_header_is_clean_under_stricter_warnings() {
    let cc = compiler();
    let stricter = [
        "-Wconversion",
        "-Wsign-conversion",
        "-Wshadow",
        "-Wcast-qual",
        "-Wstrict-prototypes",
        "-Wmissing-prototypes",
        "-Wundef",
    ];
    let source = root().join("tests/c/implementation_only.c");
    object(&cc, &source, "implementation_only.o", &stricter);
    // The best-moves-only build: no unused helper or table is left behind either.
    let best_only = [&stricter[..], &["-DTICTABLE_BEST_MOVES_ONLY"]].concat();
    object(&cc, &source, "implementation_best_only.o", &best_only);
}

#[test]
fn c_example_game_builds_and_never_loses() {
    let cc = compiler();
    let exe = build(&cc, "play", &[root().join("examples/c/play.c")], &["-Os"]);
    // The human plays the lowest free square each time (occupied squares are refused
    // and asked again), with either side; the machine must win or draw.
    let lowest_first = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(5);
    for side in [&[][..], &["o"][..]] {
        let output = run(&exe, side, lowest_first.as_bytes());
        assert!(
            output.contains("the machine wins") || output.contains("Draw."),
            "{output}"
        );
        assert!(!output.contains("you win"), "{output}");
    }
    // A drawn game: X centre, then the best replies.
    let output = run(&exe, &[], b"5\n3\n4\n8\n9\n");
    assert!(
        output.contains("Draw.") || output.contains("the machine wins"),
        "{output}"
    );
    // End of input quits cleanly.
    assert!(run(&exe, &[], b"").contains("Bye."));
    assert!(run(&exe, &[], b"q\n").contains("Bye."));
}
