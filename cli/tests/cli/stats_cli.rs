//! `tictable stats`: the figures it reports are the library's own.

use serde_json::Value;
use std::process::Command;

fn stats(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .arg("stats")
        .args(args)
        .output()
        .expect("run tictable");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn json_reports_the_table_and_the_solve() {
    let v: Value = serde_json::from_str(&stats(&["--json", "--runs", "2"])).expect("JSON");
    let size = tictable::table::size();
    let table = &v["table"];
    assert_eq!(table["entries"], tictable::table::map().len());
    assert_eq!(table["entries"], size.entries);
    assert_eq!(table["positions"], 627);
    assert_eq!(table["extra_entries"], size.entries - 627);
    assert_eq!(table["key_bytes"], size.key_bytes);
    assert_eq!(table["value_bytes"], size.value_bytes);
    assert_eq!(table["hash_bytes"], size.hash_bytes);
    assert_eq!(table["total_bytes"], size.total());
    assert_eq!(table["compact_bytes"], size.compact_bytes);
    assert!(size.compact_bytes < size.total());
    assert_eq!(table["best_entries"], 96);
    assert_eq!(table["best_bytes"], size.best_bytes);
    assert!(size.best_bytes < size.compact_bytes);
    let parts: u64 = ["key_bytes", "value_bytes", "hash_bytes"]
        .iter()
        .map(|k| table[k].as_u64().unwrap())
        .sum();
    assert_eq!(table["total_bytes"], parts);
    let positions = &v["positions"];
    assert_eq!(positions["reachable"], 5478);
    assert_eq!(positions["reachable_terminal"], 958);
    assert_eq!(positions["decision"], 4520);
    assert_eq!(positions["canonical"], 765);
    assert_eq!(positions["canonical_terminal"], 138);
    assert_eq!(positions["canonical_decision"], 627);
    let solve = &v["solve"];
    assert_eq!(solve["runs"], 2);
    let (min, median) = (
        solve["min_ms"].as_f64().unwrap(),
        solve["median_ms"].as_f64().unwrap(),
    );
    assert!(min > 0.0 && min <= median, "{solve}");
}

#[test]
fn text_reports_the_same_figures() {
    let text = stats(&["--runs", "1"]);
    let size = tictable::table::size();
    assert!(
        text.contains(&format!("table: {} entries", size.entries)),
        "{text}"
    );
    let total = size.total().to_string();
    let total_line = text.lines().any(|l| {
        l.split_whitespace()
            .take(3)
            .eq(["total", total.as_str(), "B"])
    });
    assert!(total_line, "{text}");
    assert!(
        text.contains("5478 reachable (958 finished), 4520 decision"),
        "{text}"
    );
    assert!(
        text.contains("up to symmetry 765 (138 finished), 627 decision"),
        "{text}"
    );
    assert!(text.contains("over 1 runs"), "{text}");
}

#[test]
fn zero_runs_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(["stats", "--runs", "0"])
        .output()
        .expect("run tictable");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--runs"));
}
