//! The C header `tables/tictactoe.h`, compiled by a real C compiler with
//! `-std=c99 -Wall -Wextra -Werror -pedantic`, answers like the Rust table on every
//! pair of 9-bit masks (every reachable position, and every invalid one), and the C
//! example game builds and plays. Skipped, loudly, only when no C compiler exists.
#![cfg(feature = "std")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tictable::{analyse, best_move, Board, Outcome};

const FLAGS: [&str; 5] = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The C compiler: `$CC`, else `gcc`, else `cc`; `None` (after a loud message) when
/// there is none.
fn compiler() -> Option<String> {
    let candidates = std::env::var("CC")
        .into_iter()
        .chain(["gcc".into(), "cc".into()]);
    for cc in candidates {
        let found = Command::new(&cc)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if found {
            return Some(cc);
        }
    }
    eprintln!(
        "\n==========================================================\n\
         SKIPPED: no C compiler (gcc, cc or $CC): tables/tictactoe.h\n\
         was NOT checked against the Rust table.\n\
         ==========================================================\n"
    );
    None
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
/// tests/c/check_header.c (`ret outcome plies best safe best_move ret_without_out`).
fn expected(x: u16, o: u16) -> [i64; 7] {
    const UNTOUCHED: [i64; 4] = [-86, 170, 0xaaaa, 0xaaaa];
    let analysis = Board::from_bits(x, o).and_then(|board| Ok((board, analyse(&board)?)));
    let Ok((board, a)) = analysis else {
        let [outcome, plies, best, safe] = UNTOUCHED;
        return [-1, outcome, plies, best, safe, -1, -1];
    };
    let ret = if a.is_terminal() { 1 } else { 0 };
    let outcome = match a.outcome() {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    let best_move = best_move(&board).map_or(-1, |s| i64::from(s.index()));
    [
        ret,
        outcome,
        i64::from(a.plies()),
        i64::from(a.best().bits()),
        i64::from(a.safe().bits()),
        best_move,
        ret,
    ]
}

#[test]
fn c_header_answers_like_the_rust_table_on_every_position() {
    let Some(cc) = compiler() else { return };
    let tests = root().join("tests/c");
    let exe = build(
        &cc,
        "check_header",
        &[tests.join("check_header.c"), tests.join("second_unit.c")],
        &["-O2"],
    );
    // Every pair of 9-bit masks, then masks with bits above square 8.
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
    let input: String = queries.iter().map(|(x, o)| format!("{x} {o}\n")).collect();
    let output = run(&exe, &[], input.as_bytes());

    let mut lines = output.lines();
    let (mut decisions, mut finished, mut invalid) = (0, 0, 0);
    for &(x, o) in &queries {
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("no answer for {x} {o}"));
        let fields: Vec<i64> = line.split(' ').map(|f| f.parse().unwrap()).collect();
        assert_eq!(fields[..2], [i64::from(x), i64::from(o)], "{line}");
        let want = expected(x, o);
        assert_eq!(fields[2..], want, "x={x:#05x} o={o:#05x}: C said {line}");
        match want[0] {
            0 => decisions += 1,
            1 => finished += 1,
            _ => invalid += 1,
        }
    }
    assert_eq!(lines.next(), None);
    assert_eq!((decisions, finished), (4520, 958));
    assert_eq!(invalid, queries.len() - 5478);
}

#[test]
fn c_header_is_clean_under_stricter_warnings() {
    let Some(cc) = compiler() else { return };
    let object = Path::new(env!("CARGO_TARGET_TMPDIR")).join("implementation_only.o");
    let output = Command::new(&cc)
        .args(FLAGS)
        .args([
            "-Wconversion",
            "-Wsign-conversion",
            "-Wshadow",
            "-Wcast-qual",
        ])
        .args([
            "-Wstrict-prototypes",
            "-Wmissing-prototypes",
            "-Wundef",
            "-Os",
            "-c",
        ])
        .arg("-I")
        .arg(root().join("tables"))
        .arg(root().join("tests/c/implementation_only.c"))
        .arg("-o")
        .arg(&object)
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn c_example_game_builds_and_never_loses() {
    let Some(cc) = compiler() else { return };
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
