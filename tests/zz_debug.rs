use tictable::device::controller::RandomBestMove;
use tictable::device::panel::Light;
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::SimMachine;
use tictable::device::sim::scenario::{PowerCut, Scenario};
use tictable::device::sim::world::SimConfig;
use tictable::device::sim::SplitMix64;

#[test]
fn dbg() {
    let (seed, device_first, k, cut_after) = (
        std::env::var("SEED").unwrap().parse::<u64>().unwrap(),
        std::env::var("FIRST").unwrap() == "1",
        std::env::var("K").unwrap().parse::<u32>().unwrap(),
        std::env::var("AFTER").unwrap().parse::<u32>().unwrap(),
    );
    let chooser = |s: u64| RandomBestMove(SplitMix64::new(s));
    let config = SimConfig::standard(0.0, 0.0, seed).unwrap();
    let mut m = SimMachine::new(config, chooser(seed)).unwrap();
    let mut h = SimHuman::new(Style::Erring(0.3), 0.2, seed ^ 77);
    let first_square = device_first.then_some((seed % 9) as u8);
    let game = Scenario {
        cheat_rate: 0.2,
        power_cut: Some(PowerCut::AfterChange {
            change: k,
            after_ms: cut_after,
        }),
        ..Scenario::game(device_first, first_square, Style::Erring(0.3))
    };
    let mut n = 0;
    let mut watch = |w: &tictable::device::sim::world::World,
                     s,
                     r: &tictable::device::controller::GameRecord| {
        n += 1;
        let board: Vec<String> = tictable::Square::ALL
            .iter()
            .filter_map(|q| {
                w.piece_on(*q)
                    .map(|i| format!("{}{:?}", q.index(), w.pieces[i].colour))
            })
            .collect();
        if n < 200 {
            eprintln!(
                "{} t={} {:?} rec={} phys={:?} err={}",
                n,
                w.now_ms,
                s,
                r.board(),
                board,
                w.lights[Light::Error.index()]
            );
        }
    };
    let r = m.play_scenario(&game, &mut h, &mut || chooser(seed + 1), Some(&mut watch));
    eprintln!(
        "{r:?} mem={} fixes={} slips={} cheats={}",
        h.memory(),
        h.fixes,
        h.slips,
        h.cheats
    );
}
