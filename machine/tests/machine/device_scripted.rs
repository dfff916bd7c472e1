//! The scripted games of the on-target images (`scripts/qemu-test`), played on the
//! host through the same runner: every game passes its own check (one fault kind
//! each, injected and recovered from), and together they cover every kind.

use std::cell::RefCell;
use tictable_machine::controller::BestMove;
use tictable_machine::sim::faults::{FaultKind, FaultSet};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::scenario::{Burst, Scenario, CERTAIN, SCRIPTED};
use tictable_machine::sim::world::{SimConfig, World};

/// A calibrated machine and a perfect person, as the on-target images build them.
fn machine(world: &RefCell<World>) -> (SimMachine<BestMove, &RefCell<World>>, SimHuman) {
    let m = SimMachine::with_world(world, BestMove).expect("machine");
    (m, SimHuman::new(Style::Perfect, 0.0, 0x5EED))
}

fn world() -> RefCell<World> {
    RefCell::new(World::new(
        SimConfig::standard(0.0, 0.0, 0x2545_F491).expect("config"),
    ))
}

#[test]
fn every_scripted_game_recovers_and_every_kind_is_scripted() {
    let kinds = SCRIPTED
        .iter()
        .flat_map(|s| s.faults.iter())
        .fold(FaultSet::EMPTY, FaultSet::with);
    assert_eq!(kinds, FaultSet::ALL, "a fault kind has no scripted game");
    let world = world();
    let (mut m, mut person) = machine(&world);
    let mut lines = 0;
    let totals = m.play_scripted(
        &SCRIPTED,
        &mut person,
        &mut || BestMove,
        &mut |i, s, r, ok| {
            println!("game {}: {s}: {r}: {ok:?}", i + 1);
            lines += 1;
        },
    );
    let totals = totals.unwrap_or_else(|v| panic!("game {lines}: {v}"));
    assert_eq!(totals.games as usize, SCRIPTED.len());
    for k in FaultKind::ALL {
        assert!(totals.recovered_by_kind[k] > 0, "{k} not recovered");
    }
}

#[test]
fn a_burst_stops_its_kind_at_the_limit_and_starts_late() {
    let world = world();
    let (mut m, mut person) = machine(&world);
    let i2c = |burst| Scenario {
        faults: FaultSet::EMPTY.with(FaultKind::I2c),
        fault_rate: CERTAIN,
        burst,
        seed: Some(9),
        ..Scenario::game(true, Some(4), Style::Perfect)
    };
    // Certain faults after 5 s, at most 1: a single failed transaction (or the
    // few of the same millisecond), and the game plays out.
    let late = i2c(Some(Burst {
        after_ms: 5_000,
        limit: 1,
    }));
    let r = m.play_scenario(&late, &mut person, &mut || BestMove, None);
    assert!(late.check(&r).is_ok(), "{r}");
    let n = r.faults[FaultKind::I2c];
    assert!((1..=40).contains(&n), "{n} faults in a burst of 1");
    // After Start, never reached: nothing injected, and the check says so.
    let never = i2c(Some(Burst {
        after_ms: u32::MAX,
        limit: 1,
    }));
    let r = m.play_scenario(&never, &mut person, &mut || BestMove, None);
    assert_eq!(r.faults[FaultKind::I2c], 0);
    assert!(never.check(&r).is_err());
}
