//! End-to-end: the real controller and drivers against the simulated machine.

use tictable::device::controller::{BestMove, GameSetup, State};
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::{run_batch, Batch, SimMachine};
use tictable::device::sim::world::SimConfig;

#[test]
fn one_clean_game_device_first() {
    let mut m = SimMachine::new(SimConfig::standard(0.0, 0.0, 1), BestMove).unwrap();
    let mut h = SimHuman::new(Style::Random, 0.0, 2);
    let mut log = Vec::new();
    let mut watch = |_: &tictable::device::sim::world::World,
                     s: State,
                     r: &tictable::device::controller::GameRecord| {
        log.push((s, r.board()));
    };
    let r = m.play_game(
        GameSetup {
            device_first: true,
            first_square: None,
        },
        &mut h,
        Style::Random,
        Some(&mut watch),
    );
    for l in &log {
        eprintln!("{l:?}");
    }
    eprintln!("{r:?} {:?}", m.controller.stats());
    assert!(r.finished);
    assert_ne!(r.device_won, Some(false));
    assert_eq!(r.pieces_lost, 0);
}

#[test]
fn small_batch() {
    let s = run_batch(
        Batch {
            games: 20,
            seed: 3,
            cheat_rate: 0.2,
            fault_rate: 0.01,
            angle_deg: 0.0,
        },
        None,
    )
    .unwrap();
    eprintln!("{s:?}");
    assert_eq!(s.device_losses, 0);
    assert_eq!(s.stuck_games, 0);
    assert_eq!(s.pieces_lost, 0);
}
