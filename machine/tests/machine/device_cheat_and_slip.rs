//! Issue 37's cheat accounting: a cheat the person makes right after their own
//! fix slipped a piece of theirs onto a wrong point is no cheat the device can
//! read (two pieces off the record); the error light, and the person's fix by
//! hand, are its right answer, and the run's count says so.

use tictable_machine::controller::{Rules, TableChooser};
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::scenario::{PowerCut, Scenario};
use tictable_machine::sim::world::SimConfig;
use tictable_machine::sim::SplitMix64;

fn machine(seed: u64) -> HostMachine<TableChooser<SplitMix64>> {
    let chooser = TableChooser::new(Rules::ThreeMensMorris, SplitMix64::new(seed)).unwrap();
    HostMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), chooser).unwrap()
}

#[test]
fn experiment() {
    for seed in 1..4u64 {
    for k in 1..30 {
        for after in [1, 700, 1900] {
        let mut m = machine(seed);
        let mut h = SimHuman::new(Style::Perfect, 0.0, 21 + seed);
        h.rules = Rules::ThreeMensMorris;
        let game = Scenario {
            cheat_turn: Some(1),
            slip_rate: 1.0,
            power_cut: Some(PowerCut::AfterChange { change: k, after_ms: after }),
            ..Scenario::game(true, None, Style::Perfect)
        };
        let r = m.play_scenario(&game, &mut h, &mut || TableChooser::new(Rules::ThreeMensMorris, SplitMix64::new(seed)).unwrap(), None);
        let bal = r.restores + r.cheats_fixed_after_cut + r.cheats_fixed_after_error;
        println!("seed {seed} k {k} after {after}: cheats {} restores {} cut {} err {} fin {} bal {}", r.cheats, r.restores, r.cheats_fixed_after_cut, r.cheats_fixed_after_error, r.finished, bal == r.cheats);
        }
    }
    }
}
