//! Bad input is bounded: an endless or huge line to `analyse -` gets its own error and
//! the next line is answered, in bounded memory; errors count the characters of the
//! echoed input from 1; save files are read up to a documented size, only in the
//! documented object form, and errors quote only a short excerpt.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tictable")
}

/// Runs `tictable analyse --json -` under a 256 MiB address-space limit (`ulimit -v`),
/// streaming `lines` of `len` bytes of `fill` each, then `tail`; its stdout and status.
fn analyse_stream(huge: usize, tail: &str) -> (String, Option<i32>) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 262144; exec {} analyse --json -", bin()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let mut stdin = child.stdin.take().unwrap();
    let tail = tail.to_string();
    let writer = std::thread::spawn(move || {
        let block = vec![b'X'; 1 << 20];
        let mut left = huge;
        while left > 0 {
            let n = left.min(block.len());
            if stdin.write_all(&block[..n]).is_err() {
                return;
            }
            left -= n;
        }
        let _ = stdin.write_all(tail.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_huge_line_is_refused_in_bounded_memory_and_the_next_one_answered() {
    // 512 MiB in one line: twice the address space the process may use.
    let (out, code) = analyse_stream(512 << 20, "\nXX.OO....\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out:.300}");
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        first["error"],
        format!(
            "line of {} bytes is longer than the limit of 1024",
            512 << 20
        )
    );
    // A short excerpt, not the line.
    assert_eq!(first["position"], format!("{}...", "X".repeat(40)));
    assert!(lines[1].contains(r#""outcome":"win""#), "{}", lines[1]);
    assert_eq!(code, Some(2));
}

#[test]
fn endless_input_without_newline_ends_with_one_error() {
    let (out, code) = analyse_stream(64 << 20, "");
    assert_eq!(out.lines().count(), 1, "{out:.300}");
    assert!(out.contains("longer than the limit of 1024"));
    assert_eq!(code, Some(2));
}

#[test]
fn error_index_counts_characters_of_the_echoed_input() {
    let out = Command::new(bin())
        .args(["analyse", "--json", "   XX.OO..Z", "ééXX.OO...Z"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["position"], "   XX.OO..Z");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("'Z' at character 11"),
        "{}",
        lines[0]
    );
    // Characters, not bytes: 'é' is two bytes.
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("'é' at character 1"),
        "{}",
        lines[1]
    );
}

#[test]
fn text_mode_errors_count_characters_from_1_as_people_do() {
    // Issue 28: "bad character 'Y' at index 1" counted from 0.
    let out = Command::new(bin())
        .args(["analyse", "XY.......", "XX./OO/...."])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("bad character 'Y' at character 2"), "{text}");
    assert!(text.contains("misplaced '/' at character 7"), "{text}");
    assert!(!text.contains("index"), "{text}");
    assert_eq!(out.status.code(), Some(2));
}

/// The plain dialogue loading `path`: its output.
fn load(path: &std::path::Path) -> String {
    let mut child = Command::new(bin())
        .args(["play", "--plain", "--x", "human", "--o", "human"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("l {}\nq\n", path.display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn save_files_are_bounded_and_only_the_object_form_loads() {
    let dir = std::env::temp_dir().join(format!("tictable-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let good = load(&file("good.json", br#"{"moves":[4,0,8],"cursor":3}"#));
    assert!(good.contains("game loaded."), "{good}");
    // serde's sequence form of the same game is not the documented format.
    let seq = load(&file("seq.json", b"[[4,0,8],3]"));
    assert!(seq.contains("cannot load: not a valid game"), "{seq}");
    // Too big: refused before parsing (and /dev/zero does not fill memory).
    let big = load(&file("big.json", &vec![b' '; 70_000]));
    assert!(big.contains("larger than 60256 bytes"), "{big}");
    let zero = load(std::path::Path::new("/dev/zero"));
    assert!(zero.contains("larger than 60256 bytes"), "{zero}");
    // A long unknown field name is not echoed.
    let name = "z".repeat(3000);
    let unknown = load(&file(
        "unknown.json",
        format!(r#"{{"{name}":1,"moves":[],"cursor":0}}"#).as_bytes(),
    ));
    assert!(
        unknown.contains("unknown field (3000 bytes)"),
        "{unknown:.400}"
    );
    assert!(!unknown.contains(&name[..200]));
    std::fs::remove_dir_all(&dir).unwrap();
}
