//! Helpers shared by the test crates (`mod common;`): squares by number and the
//! reachable positions. Each crate uses only some of them.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::OnceLock;
use tictable::{Board, Square};

/// Square `i` (0..=8, row-major from the top-left; people's square `i + 1`).
pub fn sq(i: u8) -> Square {
    Square::new(i).expect("a square 0..=8")
}

/// Every position a game reaches, found by playing from the empty board (so
/// without `Board::validate`), sorted: 5478 of them.
pub fn reachable() -> &'static [Board] {
    static REACHABLE: OnceLock<Vec<Board>> = OnceLock::new();
    REACHABLE.get_or_init(|| {
        let mut seen = HashSet::from([Board::EMPTY]);
        let mut order = vec![Board::EMPTY];
        let mut next = 0;
        while next < order.len() {
            let board = order[next];
            next += 1;
            for square in board.legal_moves() {
                let child = board.play(square).expect("legal move");
                if seen.insert(child) {
                    order.push(child);
                }
            }
        }
        order.sort();
        assert_eq!(order.len(), 5478);
        order
    })
}

/// A calibrated simulated machine playing perfect moves (no faults, its world
/// from `seed`) and a passive person the test drives; the panel's lit lights as
/// a mask.
#[cfg(feature = "sim")]
pub mod machine {
    use std::cell::RefCell;
    use std::rc::Rc;
    use tictable::device::controller::BestMove;
    use tictable::device::panel::Light;
    use tictable::device::sim::human::SimHuman;
    use tictable::device::sim::run::SimMachine;
    use tictable::device::sim::world::{SimConfig, World};

    /// The machine type of [`machine`].
    pub type M = SimMachine<BestMove, Rc<RefCell<World>>>;

    /// A machine and a passive person, both from `seed`.
    pub fn machine(seed: u64) -> (M, SimHuman) {
        let world = Rc::new(RefCell::new(World::new(
            SimConfig::standard(0.0, 0.0, seed).unwrap(),
        )));
        (
            SimMachine::with_world(world, BestMove).unwrap(),
            SimHuman::passive(seed),
        )
    }

    /// The lights that are on, as a mask of `Light::bit`s.
    pub fn lights(m: &M) -> u8 {
        let w = m.world.borrow();
        Light::ALL
            .iter()
            .filter(|l| w.lights[l.index()])
            .fold(0, |mask, l| mask | l.bit())
    }
}
