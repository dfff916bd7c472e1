//! The best-move exports of every small game (`tictable_games::export`): the C header
//! compiled by a real C compiler (`-std=c99 -Wall -Wextra -Werror -pedantic
//! -Wconversion -Wsign-conversion`, under AddressSanitizer and UBSan; driver
//! `tests/c/check_game_best_moves.c`) and the Python module run by CPython (`python3`,
//! driver `tests/python/check_game.py`) answer like the Rust table for every entry of
//! both sides and for keys that are not in the table; the JSON document lists exactly
//! the solution's best moves. Needs a C compiler (`$CC`, `gcc` or `cc`) and `python3`:
//! without them the tests fail, saying so. The same modules, as `.py` and compiled by
//! `mpy-cross` as `.mpy`, also run under MicroPython (the WebAssembly port of
//! `tests/python`, `node tests/python/micropython.mjs game`) in an ignored test that
//! `scripts/python-test` runs with the tools installed.

use crate::common::{each_reachable, solved, Plain};
use crate::compiler::compiler;
use crate::grouped::grouped;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tictable_games::best_move::BestMoveTable;
use tictable_games::cell_key::{CellKey, CellKeyError};
use tictable_games::move_slots::MoveSlots;
use tictable_games::{
    best_file, catalog, dispatch, export, Game, Notation, Player, Solution, TicTacToe,
};

/// The small games whose exports are checked in the debug build.
const GAMES: [&str; 6] = [
    "tictactoe",
    "misere",
    "hexapawn",
    "three-mens-morris",
    "tapatan",
    "achi",
];
/// The larger ones, checked in release (`--ignored`).
const LARGER: [&str; 2] = ["connect4:4x4", "mnk:4,3,3"];

/// Every reachable position of the small games is asked; of the larger, every 7th.
fn stride(id: &str) -> usize {
    if LARGER.contains(&id) {
        7
    } else {
        1
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("game-exports")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `command` with `input` on standard input; its standard output, checked.
fn run(mut command: Command, input: String) -> String {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {command:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The questions and the Rust answers (see `tests/c/check_game_best_moves.c`): every
/// entry of both sides and the keys around each that are not in the table (`side key`:
/// the mask or `-`); and every reachable position of the game, or every `stride`-th one
/// (`p side cells`: its key, class key, symmetry, representative's cells and mask; and
/// where the game goes on, `m side cells`: its legal moves' slots in order and the
/// slots of the solution's best moves of that very position).
fn questions<G: Game>(
    solution: &Solution<G>,
    tables: &[BestMoveTable; 2],
    stride: usize,
) -> (String, String) {
    let game = solution.game();
    let slots = MoveSlots::derive(game).expect("the game's moves are slots");
    let (mut input, mut expected) = (String::new(), String::new());
    for (side, table) in tables.iter().enumerate() {
        let mut keys: Vec<u64> = table.iter().flat_map(|(k, _)| [k, k + 1]).collect();
        keys.extend([0, table.key_space() - 1, u64::from(u32::MAX)]);
        for key in keys {
            input.push_str(&format!("{side} {key}\n"));
            expected.push_str(&table.mask(key).map_or("-".into(), |m| m.to_string()));
            expected.push('\n');
        }
    }
    let digits = |cells: &[u8]| -> String { cells.iter().map(|c| char::from(b'0' + c)).collect() };
    let mut n = 0;
    let mut moves = Vec::new();
    each_reachable(game, |p| {
        n += 1;
        if n % stride != 0 {
            return;
        }
        let cells = CellKey::cells_of(game, p).expect("the game writes a grid");
        let side = usize::from(game.to_move(p) == Player::O);
        let (mut class, mut symmetry) = (game.key(p), 0);
        for s in 1..game.symmetries() {
            let k = game.symmetric_key(p, s);
            if k < class {
                (class, symmetry) = (k, s);
            }
        }
        let image = CellKey::cells_of(game, &game.transform(p, symmetry)).unwrap();
        input.push_str(&format!("p {side} {}\n", digits(&cells)));
        expected.push_str(&format!(
            "{} {class} {symmetry} {} {}\n",
            game.key(p),
            digits(&image),
            tables[side]
                .mask(class)
                .map_or("-".into(), |m| m.to_string())
        ));
        if game.primitive(p).is_some() {
            return;
        }
        let slot = |mv| slots.slot_of(game, p, &game.play(p, mv)).expect("a slot");
        moves.clear();
        game.moves(p, &mut moves);
        let legal: Vec<String> = moves.iter().map(|&mv| slot(mv).to_string()).collect();
        let best = solution
            .best_moves(p)
            .into_iter()
            .fold(0u64, |mask, mv| mask | 1 << slot(mv));
        input.push_str(&format!("m {side} {}\n", digits(&cells)));
        expected.push_str(&format!("{} {best}\n", legal.join(",")));
    });
    (input, expected)
}

/// Panics naming the first question whose answer differs from Rust's.
fn same(id: &str, what: &str, input: &str, found: &str, expected: &str) {
    let mut lines = input.lines().zip(found.lines().zip(expected.lines()));
    if let Some((q, (f, e))) = lines.find(|(_, (f, e))| f != e) {
        panic!("{id}: {what} differs from Rust: `{q}` gives `{f}`, Rust `{e}`");
    }
    assert_eq!(
        found.lines().count(),
        expected.lines().count(),
        "{id}: {what} answers"
    );
}

fn check_c<G: Game>(solution: &Solution<G>, tables: &[BestMoveTable; 2], cc: &str, stride: usize) {
    let game = solution.game();
    let id = game.id();
    let dir = scratch(&export::identifier(&id));
    let header = format!("{}.h", export::file_stem(&id));
    std::fs::write(dir.join(&header), export::c_header(game, tables)).unwrap();
    let exe = dir.join("check");
    let mut command = Command::new(cc);
    command
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        // Conversion warnings as errors, and under AddressSanitizer and
        // UndefinedBehaviorSanitizer (any report aborts the run), as the engine's header.
        .args(["-Wconversion", "-Wsign-conversion"])
        .args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"])
        .arg(format!("-DGAME_HEADER=\"{header}\""))
        .arg(format!("-DNAME={}", export::identifier(&id)))
        .arg("-I")
        .arg(&dir)
        .arg(root().join("tests/c/check_game_best_moves.c"))
        .arg("-o")
        .arg(&exe);
    run(command, String::new());
    let (input, expected) = questions(solution, tables, stride);
    same(
        &id,
        "the C header",
        &input,
        &run(Command::new(&exe), input.clone()),
        &expected,
    );
}

fn check_python<G: Game>(solution: &Solution<G>, tables: &[BestMoveTable; 2], stride: usize) {
    let game = solution.game();
    let id = game.id();
    let module = export::identifier(&id);
    let dir = scratch(&module);
    std::fs::write(
        dir.join(format!("{module}.py")),
        export::python_module(game, tables),
    )
    .unwrap();
    let mut command = Command::new("python3");
    command
        .env("PYTHONPATH", &dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg(root().join("tests/python/check_game.py"))
        .arg(&module);
    let (input, expected) = questions(solution, tables, stride);
    same(
        &id,
        "the Python module",
        &input,
        &run(command, input.clone()),
        &expected,
    );
}

/// Runs the module of `game` under MicroPython as `.py` and as `.mpy` (`mpy-cross`) and
/// compares every answer with the Rust table; panics with what to install when a tool
/// is missing.
fn check_micropython<G: Game>(solution: &Solution<G>, tables: &[BestMoveTable; 2], stride: usize) {
    let game = solution.game();
    const TOOLS: &str = "needs node, `npm ci` in tests/python and mpy-cross 1.27: \
                         scripts/python-test installs them and runs this test";
    let installed = root()
        .join("tests/python/node_modules/@micropython/micropython-webassembly-pyscript")
        .is_dir();
    assert!(installed, "MicroPython is missing: {TOOLS}");
    let id = game.id();
    let module = export::identifier(&id);
    let dir = scratch(&format!("micropython-{module}"));
    let py = dir.join(format!("{module}.py"));
    let mpy = dir.join(format!("{module}.mpy"));
    std::fs::write(&py, export::python_module(game, tables)).unwrap();
    let mut cross = Command::new("mpy-cross");
    cross.arg("-o").arg(&mpy).arg(&py);
    run(cross, String::new());
    let (input, expected) = questions(solution, tables, stride);
    let questions = dir.join("questions.txt");
    std::fs::write(&questions, input).unwrap();
    for file in [&py, &mpy] {
        let mut command = Command::new("node");
        command
            .arg(root().join("tests/python/micropython.mjs"))
            .arg("game")
            .arg(file)
            .arg(&questions);
        assert!(
            run(command, String::new()) == expected,
            "{id}: the MicroPython module {} differs from the Rust table",
            file.display()
        );
    }
}

#[test]
#[ignore = "needs MicroPython (node, npm ci in tests/python, mpy-cross): scripts/python-test"]
fn python_modules_answer_like_the_rust_tables_under_micropython() {
    for id in GAMES.iter().chain(&LARGER) {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => {
            let solution = solved(g);
            let tables = best_file::tables(&solution).unwrap();
            check_micropython(&solution, &tables, stride(id));
        });
    }
}

fn check_exports(ids: &[&str]) {
    let cc = compiler();
    for &id in ids {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => {
            let solution = solved(g);
            let tables = best_file::tables(&solution).unwrap();
            check_c(&solution, &tables, &cc, stride(id));
            check_python(&solution, &tables, stride(id));
        });
    }
}

#[test]
fn c_headers_and_python_modules_answer_like_the_rust_tables() {
    check_exports(&GAMES);
}

#[test]
#[ignore = "release: Connect Four 4x4 and 4,3,3 take seconds to solve in debug"]
fn larger_games_c_headers_and_python_modules_answer_like_the_rust_tables() {
    check_exports(&LARGER);
}

#[test]
fn exports_are_deterministic() {
    let game = catalog::parse("tapatan").unwrap();
    dispatch!(game, g => {
        let solution = solved(g);
        let a = best_file::tables(&solution).unwrap();
        let b = best_file::tables(&solution).unwrap();
        assert_eq!(export::c_header(solution.game(), &a), export::c_header(solution.game(), &b));
        assert_eq!(export::json(&solution).unwrap(), export::json(&solution).unwrap());
        assert_eq!(best_file::to_postcard(&solution).unwrap(), best_file::encode(solution.game(), &b));
    });
}

#[test]
fn the_json_lists_the_solutions_best_moves() {
    let game = catalog::parse("three-mens-morris").unwrap();
    dispatch!(game, g => {
        let solution = solved(g);
        let game = solution.game();
        let json: serde_json::Value = serde_json::from_str(&export::json(&solution).unwrap()).unwrap();
        assert_eq!(json["game"], "three-mens-morris");
        for (side, player) in [Player::X, Player::O].into_iter().enumerate() {
            let table = BestMoveTable::build(&solution, player).unwrap();
            let entries = json["sides"][side]["positions"].as_array().unwrap();
            assert_eq!(entries.len() as u64, table.entries());
            assert_eq!(json["sides"][side]["bytes"], table.bytes());
            for entry in entries {
                let p = game.parse_position(entry["position"].as_str().unwrap()).unwrap();
                assert_eq!(entry["key"], game.key(&p));
                let best: Vec<String> =
                    solution.best_moves(&p).into_iter().map(|m| game.write_move(m, Notation::Api)).collect();
                let listed: Vec<String> = entry["best"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
                assert_eq!(listed, best);
            }
        }
    });
}

/// Imports `source` as module `name` under CPython: the standard error when the import
/// fails, `None` when it succeeds.
fn import_error(name: &str, source: &str) -> Option<String> {
    let dir = scratch(&format!("import-{name}"));
    std::fs::write(dir.join(format!("{name}.py")), source).unwrap();
    let output = Command::new("python3")
        .env("PYTHONPATH", &dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args(["-c", &format!("import {name}")])
        .output()
        .expect("python3 runs");
    (!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_python_module_with_changed_tables_is_refused_at_import() {
    let game = catalog::parse("hexapawn").unwrap();
    dispatch!(game, g => {
        let solution = solved(g);
        let tables = best_file::tables(&solution).unwrap();
        let module = export::python_module(solution.game(), &tables);
        assert_eq!(import_error("hexapawn", &module), None, "the module as exported imports");
        // One byte of the second table changed (its last escape's low digit).
        let at = module.find("CRC = ").unwrap();
        let byte = module[..at].rfind("\\x").unwrap() + 3;
        let mut flipped = module.clone().into_bytes();
        flipped[byte] = if flipped[byte] == b'0' { b'1' } else { b'0' };
        let error = import_error("hexapawn", &String::from_utf8(flipped).unwrap())
            .expect("a changed byte is refused");
        assert!(
            error.contains("ImportError: hexapawn: the tables are corrupted (CRC-16"),
            "{error}"
        );
        // A weight, a symmetry's cell, the key's base and an entry count changed: each
        // is read at import, so each is covered by the CRC.
        let weights = module.find("WEIGHTS = (\n    (").unwrap() + "WEIGHTS = (\n    (".len();
        let images = module.find("bytes((").unwrap() + "bytes((".len();
        for (what, at) in [("a weight", weights), ("an image", images)] {
            let mut changed = module.clone().into_bytes();
            changed[at] = if changed[at] == b'1' { b'2' } else { b'1' };
            let error = import_error("hexapawn", &String::from_utf8(changed).unwrap())
                .unwrap_or_else(|| panic!("{what} changed is refused"));
            assert!(
                error.contains("ImportError: hexapawn: the tables are corrupted (CRC-16"),
                "{what}: {error}"
            );
        }
        let base = module.replace("KEY_BASE = ", "KEY_BASE = 1 + ");
        let error = import_error("hexapawn", &base).expect("a changed base is refused");
        assert!(error.contains("the tables are corrupted (CRC-16"), "{error}");
        // One byte fewer: the length is checked first.
        let mut shorter = module.clone();
        shorter.replace_range(byte - 3..byte + 1, "");
        let error = import_error("hexapawn", &shorter).expect("a missing byte is refused");
        assert!(error.contains("ImportError: hexapawn: table 1 has "), "{error}");
    });
}

#[test]
fn a_key_that_is_not_a_sum_over_cells_gets_no_key_functions() {
    // Tic-tac-toe's own key is a sum over the cells: derived, one image without symmetries.
    let plain = Plain(TicTacToe::normal(), |key| key);
    assert_eq!(CellKey::derive(&plain).unwrap().images.len(), 1);
    // The same key scrambled (still a key: 7919 is prime to 3^9): refused, and said so.
    let scrambled = Plain(TicTacToe::normal(), |key| key * 7919 % 19_683);
    assert_eq!(CellKey::derive(&scrambled), Err(CellKeyError::NotASum));
    let solution = solved(scrambled);
    let tables = best_file::tables(&solution).unwrap();
    let header = export::c_header(solution.game(), &tables);
    assert!(header.contains(
        "/* No position-to-key functions: the key is not a sum over the cells and the side to move. */"
    ));
    assert!(!header.contains("_class_key("));
    let module = export::python_module(solution.game(), &tables);
    assert!(module.contains("# No position-to-key functions: the key is not a sum"));
}

/// Each game's row of docs/tables.md's exact-bits table, as the tables give it now.
fn exact_bits_rows(ids: &[&str]) {
    let docs = std::fs::read_to_string(root().join("docs/tables.md")).unwrap();
    for &id in ids {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => {
            let tables = best_file::tables(&solved(g)).unwrap();
            let side = |t: &BestMoveTable| {
                format!(
                    "{} -> {}+{}, {} -> {}",
                    t.bits_per_position(),
                    t.key_bits(),
                    t.mask_bits(),
                    grouped(t.bytes()),
                    grouped(t.to_bits().len() as u64)
                )
            };
            let row = format!("| `{id}` | {} | {} |", side(&tables[0]), side(&tables[1]));
            assert!(docs.contains(&row), "docs/tables.md lacks the row {row}");
        });
    }
}

#[test]
fn exact_bits_save_what_the_docs_say() {
    exact_bits_rows(&GAMES[..]);
}

#[test]
#[ignore = "release: Connect Four 4x4 and 4,3,3 take seconds to solve in debug"]
fn larger_games_exact_bits_save_what_the_docs_say() {
    exact_bits_rows(&LARGER);
}

/// The derived move slots list every reachable position's legal moves in the game's
/// order (`ids` every position; each move's slot is found from the cells it changes).
fn slots_list_the_legal_moves(ids: &[&str]) {
    for &id in ids {
        let game = catalog::parse(id).unwrap();
        dispatch!(game, g => {
            let slots = MoveSlots::derive(&g).unwrap_or_else(|e| panic!("{id}: {e}"));
            let mut moves = Vec::new();
            let positions = each_reachable(&g, |p| {
                if g.primitive(p).is_some() {
                    return;
                }
                moves.clear();
                g.moves(p, &mut moves);
                let expected: Vec<u8> = moves
                    .iter()
                    .map(|&m| slots.slot_of(&g, p, &g.play(p, m)).expect("a slot"))
                    .collect();
                let cells = CellKey::cells_of(&g, p).unwrap();
                assert_eq!(
                    slots.legal(&cells, g.to_move(p)),
                    expected,
                    "{id}: {}",
                    g.write_position(p, Notation::Api)
                );
            });
            assert!(positions > 0);
        });
    }
}

#[test]
fn move_slots_list_every_small_games_legal_moves() {
    slots_list_the_legal_moves(&GAMES);
}

#[test]
#[ignore = "release: Connect Four 4x4 and 4,3,3 take seconds in debug"]
fn move_slots_list_the_larger_games_legal_moves() {
    slots_list_the_legal_moves(&LARGER);
}
