//! The `tictable simulate` contract: one JSON line with the agreed fields, the exit
//! status, argument checking, and the watch view.

use serde_json::Value;
use std::process::{Command, Output};

fn tictable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictable"))
        .args(args)
        .output()
        .expect("run tictable")
}

#[test]
fn json_summary_has_every_field_and_a_clean_run_exits_0() {
    let out = tictable(&[
        "simulate",
        "--games",
        "60",
        "--seed",
        "11",
        "--cheat-rate",
        "0.2",
        "--fault-rate",
        "0.01",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: Value = serde_json::from_str(text.trim()).unwrap();
    for key in [
        "games",
        "device_wins",
        "device_draws",
        "device_losses",
        "cheats_injected",
        "cheats_restored",
        "faults_injected",
        "pieces_lost",
        "stuck_games",
        "max_placement_ms",
    ] {
        assert!(v[key].is_u64(), "{key} missing in {v}");
    }
    assert_eq!(v["games"], 60);
    assert_eq!(v["device_losses"], 0);
    assert_eq!(v["cheats_restored"], v["cheats_injected"]);
    assert_eq!(v["pieces_lost"], 0);
    assert_eq!(v["stuck_games"], 0);
    assert!(v["max_placement_ms"].as_u64().unwrap() <= 15_000);
    assert_eq!(
        v["device_wins"].as_u64().unwrap() + v["device_draws"].as_u64().unwrap(),
        60
    );
}

#[test]
fn the_same_seed_gives_the_same_summary() {
    let args = [
        "simulate",
        "--games",
        "20",
        "--seed",
        "5",
        "--cheat-rate",
        "0.3",
        "--json",
    ];
    assert_eq!(tictable(&args).stdout, tictable(&args).stdout);
}

#[test]
fn bad_arguments_are_refused_with_status_2() {
    for bad in [
        &["simulate", "--cheat-rate", "1.5"][..],
        &["simulate", "--fault-rate", "-0.1"],
        &["simulate", "--angle", "60"],
        &["simulate", "--games", "many"],
    ] {
        let out = tictable(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn watch_shows_the_board_the_head_and_the_lights() {
    let out = tictable(&["simulate", "--watch", "--games", "1", "--seed", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Placing") || text.contains("HumanTurn"));
    assert!(text.contains("---+---+---"));
    assert!(text.contains("head ("));
    assert!(text.contains("lights:"));
    assert!(text.contains("1 games"));
}
