//! Every command the repository's Markdown files show still runs (every `.md`, found
//! by walking the tree: `tests/engine/markdown.rs`): each line of a fenced `sh`
//! block that runs the program (`tictable ...`, `cargo run --release -- ...`, also at
//! the end of a pipe; `cargo run` only in documents of this workspace, not of
//! `firmware/`, `vboard/` and the other workspaces, where it runs something else) is run by `sh` against the program this test was built with, as
//! a person who ran `cargo install --path cli` would type it, in a scratch directory
//! holding a copy of `tables/`, with no terminal and an empty stdin.
//!
//! A block must exit 0, or the status written just above it as `<!-- exit: N -->`; a
//! block after `<!-- output: ... -->` is output that the last command of the block
//! before must print, line for line and in that order. A
//! block after `<!-- not run: REASON -->` (long runs) is left to the ignored test
//! `the_commands_marked_not_run_run_too`, which `cargo test -p tictable-cli --test cli
//! readme_commands -- --ignored` runs.
#![cfg(unix)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[allow(dead_code)] // the engine's README check also reads the crates' rustdoc
#[path = "../../../tests/engine/markdown.rs"]
mod markdown;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A command shown in a document, where it is, and how it must end.
#[derive(Debug)]
struct Shown {
    /// The document and line, `docs/cli.md:42`.
    place: String,
    /// The line as written.
    line: String,
    /// The line as `sh` runs it: `cargo run --release --` written as `tictable`.
    script: String,
    /// The exit status it must end with.
    status: i32,
    /// Why it is not run by `cargo test`, if it is not.
    not_run: Option<String>,
    /// The lines its standard output must hold, in order: the block after
    /// `<!-- output: ... -->` that follows the command's block.
    output: Vec<String>,
}

/// The argument of an HTML comment `<!-- NAME: VALUE -->` on `line`.
fn marker<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim()
        .strip_prefix(name)?
        .strip_prefix(':')
        .map(str::trim)
}

/// `line` as `sh` runs it, when it runs the program; `None` for other commands
/// (`cargo test`, `cd firmware && ...`). `cargo run` runs the program only where
/// `ours` (a document of this workspace).
fn script(line: &str, ours: bool) -> Option<String> {
    let code = line.trim();
    if code.is_empty() || code.starts_with('#') {
        return None;
    }
    let script = if ours {
        code.replace("cargo run --release -- ", "tictable ")
            .replace("cargo run --release --", "tictable")
            .replace("cargo run --release", "tictable")
    } else {
        code.to_string()
    };
    let runs_it = script.starts_with("tictable") || script.contains("| tictable");
    runs_it.then_some(script)
}

/// The commands of one Markdown document; `cargo run` is the program only where
/// `ours`.
fn commands_in(name: &str, text: &str, ours: bool) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let (mut status, mut not_run, mut output) = (0, None::<String>, false);
    let mut block: Option<&str> = None;
    for (number, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (block, fence) {
            (None, Some(info)) => block = Some(info.trim()),
            (Some(_), Some(_)) => {
                block = None;
                (status, not_run, output) = (0, None, false);
            }
            (None, None) => {
                if let Some(n) = marker(line, "exit") {
                    status = n.parse().expect("<!-- exit: N --> with a number");
                } else if let Some(reason) = marker(line, "not run") {
                    not_run = Some(reason.to_string());
                } else if marker(line, "output").is_some() {
                    output = true;
                } else if !line.trim().is_empty() {
                    (status, not_run, output) = (0, None, false);
                }
            }
            (Some(_), None) if output => {
                let last = shown.last_mut().expect("<!-- output: --> after a command");
                last.output.push(line.to_string());
            }
            (Some(info), None) => {
                if info != "sh" {
                    continue;
                }
                if let Some(script) = script(line, ours) {
                    shown.push(Shown {
                        place: format!("{name}:{}", number + 1),
                        line: line.to_string(),
                        script,
                        status,
                        not_run: not_run.clone(),
                        output: Vec::new(),
                    });
                }
            }
        }
    }
    shown
}

/// Whether `document` (relative to the root) belongs to this workspace: no directory
/// between it and the root holds another workspace's `Cargo.toml` (`firmware/`,
/// `vboard/`, `web/`, `qemu/`, `fuzz/`), where `cargo run` runs another program.
fn of_this_workspace(document: &Path) -> bool {
    document.ancestors().skip(1).all(|dir| {
        dir.as_os_str().is_empty()
            || std::fs::read_to_string(root().join(dir).join("Cargo.toml")).map_or(true, |toml| {
                !toml.lines().any(|l| l.trim() == "[workspace]")
            })
    })
}

/// The commands of every Markdown file of the repository.
fn shown() -> Vec<Shown> {
    markdown::markdown_files(&root())
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(root().join(path)).unwrap();
            commands_in(&path.to_string_lossy(), &text, of_this_workspace(path))
        })
        .collect()
}

/// A scratch directory holding a copy of `tables/` (commands read and write there).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    for entry in std::fs::read_dir(root().join("tables")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("tables").join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// The longest a command may take (a debug build on a busy 2-core machine).
const LIMIT: Duration = Duration::from_secs(300);

/// Runs one command in `dir`; a description of what went wrong, if anything did.
fn run(shown: &Shown, dir: &Path) -> Option<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_tictable")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = dir.join("stdout");
    let err = dir.join("stderr");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&shown.script)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .expect("sh runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Some(format!(
                "{}: `{}` still running after {LIMIT:?}: mark it <!-- not run: REASON -->",
                shown.place, shown.line
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let code = status.code();
    let stdout = std::fs::read_to_string(&out).unwrap_or_default();
    let mut printed = stdout.lines();
    if let Some(missing) = shown
        .output
        .iter()
        .find(|want| !printed.any(|line| line == want.as_str()))
    {
        return Some(format!(
            "{}: `{}` did not print, in the order shown, the line `{missing}` (it printed: {stdout})",
            shown.place, shown.line
        ));
    }
    (code != Some(shown.status)).then(|| {
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        let tail = |s: &str| s.lines().rev().take(5).collect::<Vec<_>>().join(" / ");
        format!(
            "{}: `{}` ended with {code:?}, not {} (stderr: {}; stdout, last lines: {})",
            shown.place,
            shown.line,
            shown.status,
            tail(&stderr),
            tail(&stdout)
        )
    })
}

/// Runs the commands `pick` selects; panics naming every one that failed.
fn run_all(pick: impl Fn(&Shown) -> bool, dir: &str) -> usize {
    let dir = scratch(dir);
    let selected: Vec<Shown> = shown().into_iter().filter(|s| pick(s)).collect();
    let failures: Vec<String> = selected.iter().filter_map(|s| run(s, &dir)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} commands shown in the docs failed:\n{}",
        failures.len(),
        selected.len(),
        failures.join("\n")
    );
    selected.len()
}

#[test]
fn every_command_shown_in_the_docs_runs() {
    for s in shown().iter().filter(|s| s.not_run.is_some()) {
        eprintln!(
            "not run here ({}): {}: {}",
            s.not_run.as_deref().unwrap_or_default(),
            s.place,
            s.line
        );
    }
    let ran = run_all(|s| s.not_run.is_none(), "readme-commands");
    assert!(ran >= 20, "only {ran} commands found in the Markdown files");
}

#[test]
#[ignore = "the long runs marked <!-- not run: REASON --> in the docs (minutes)"]
fn the_commands_marked_not_run_run_too() {
    let ran = run_all(|s| s.not_run.is_some(), "readme-commands-long");
    assert!(ran > 0);
}

/// The reading of the documents: which lines are commands, with which status.
#[test]
fn commands_are_read_from_sh_blocks_with_their_markers() {
    let text = "\
```sh
cargo run --release    # plays
cargo test
printf '5\\n' | cargo run --release -- play --plain
```

<!-- exit: 2 -->
```sh
tictable analyse XXXXXXXXX
```

<!-- output: of the command above -->
```text
an error
```

<!-- not run: long -->
```sh
tictable selfplay --games 1000000
```

```text
tictable analyse is output here, not a command
```

```sh
cd firmware && cargo build --release
tictable verify
```
";
    let shown = commands_in("t.md", text, true);
    let got: Vec<(&str, i32, Option<&str>)> = shown
        .iter()
        .map(|s| (s.script.as_str(), s.status, s.not_run.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("tictable    # plays", 0, None),
            ("printf '5\\n' | tictable play --plain", 0, None),
            ("tictable analyse XXXXXXXXX", 2, None),
            ("tictable selfplay --games 1000000", 0, Some("long")),
            ("tictable verify", 0, None),
        ]
    );
    assert_eq!(shown[0].place, "t.md:2");
    assert_eq!(shown[2].output, ["an error"]);
    assert!(shown.iter().filter(|s| !s.output.is_empty()).count() == 1);
}

/// A command that fails is reported with its place, its status and its stderr.
#[test]
fn a_failing_command_is_reported() {
    let dir = scratch("readme-commands-failing");
    let shown = &commands_in("t.md", "```sh\ntictable analyse XXXXXXXXX\n```\n", true)[0];
    let report = run(shown, &dir).expect("an invalid position fails");
    assert!(
        report.starts_with("t.md:2: `tictable analyse XXXXXXXXX` ended with Some(2), not 0"),
        "{report}"
    );
    assert!(report.contains("impossible counts"), "{report}");
}

/// A command whose output differs from the output shown is reported.
#[test]
fn output_other_than_shown_is_reported() {
    let dir = scratch("readme-commands-output");
    let text = "```sh\ntictable analyse --json XX.OO....\n```\n<!-- output: -->\n```json\n";
    let right =
        r#"{"position":"XX.OO....","to_move":"X","outcome":"win","plies":1,"best":[2],"safe":[2]}"#;
    let shown = &commands_in("t.md", &format!("{text}{right}\n```\n"), true)[0];
    assert_eq!(run(shown, &dir), None);
    let wrong = right.replace("[2]", "[3]");
    let shown = &commands_in("t.md", &format!("{text}{wrong}\n```\n"), true)[0];
    let report = run(shown, &dir).expect("another output is reported");
    assert!(report.contains("did not print"), "{report}");
}

/// `cargo run` in another workspace's document (the firmware's flashes the board) is
/// not the program; `tictable` there still is.
#[test]
fn cargo_run_is_the_program_only_in_this_workspace() {
    let text = "```sh\ncargo run --release\ntictable verify\n```\n";
    let scripts = |ours| -> Vec<String> {
        commands_in("t.md", text, ours)
            .into_iter()
            .map(|s| s.script)
            .collect()
    };
    assert_eq!(scripts(true), ["tictable", "tictable verify"]);
    assert_eq!(scripts(false), ["tictable verify"]);
    assert!(of_this_workspace(Path::new("docs/cli.md")));
    assert!(of_this_workspace(Path::new("machine/README.md")));
    assert!(!of_this_workspace(Path::new("firmware/README.md")));
    assert!(!of_this_workspace(Path::new("vboard/README.md")));
}

/// README credits `tictable stats` with the sizes of its "Rust, compiled in" row: each
/// figure of that row's size cell is one `tictable stats` prints, except the 64-bit
/// per-board layouts, which it does not print and which the row credits to
/// `tictable::table::size()`'s `wide_bytes` and `wide_best_bytes` instead.
#[test]
fn the_sizes_credited_to_stats_are_ones_it_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| Rust, compiled in |"))
        .expect("README's row \"Rust, compiled in\"");
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let (sizes, measured_by) = (cells[3], cells[4]);
    let out = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .arg("stats")
        .output()
        .expect("tictable stats runs");
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let size = tictable::table::size();
    let wide = [size.wide_bytes, size.wide_best_bytes].map(|b| b.to_string());
    let mut not_printed = Vec::new();
    for (at, _) in sizes.match_indices(" B") {
        let figure: String = sizes[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .filter(char::is_ascii_digit)
            .collect();
        if figure.is_empty() || printed.contains(&format!(" {figure} B")) {
            continue;
        }
        not_printed.push(figure);
    }
    for figure in &not_printed {
        assert!(
            wide.contains(figure),
            "README credits `tictable stats` with {figure} B, which it does not print:\n{printed}"
        );
    }
    if !not_printed.is_empty() {
        for field in ["wide_bytes", "wide_best_bytes"] {
            assert!(
                measured_by.contains(field),
                "README's row does not credit the 64-bit sizes to `{field}`: {measured_by}"
            );
        }
    }
}
