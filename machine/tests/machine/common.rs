//! Helpers shared by the machine's test modules (`use crate::common;`): squares by number and
//! a calibrated simulated machine. Each module uses only some of them.
#![allow(dead_code)]

use tictable::Square;

/// Square `i` (0..=8, row-major from the top-left; people's square `i + 1`).
pub fn sq(i: u8) -> Square {
    Square::new(i).expect("a square 0..=8")
}

/// A calibrated simulated machine playing perfect moves (no faults, its world
/// from `seed`) and a passive person the test drives; the panel's lit lights as
/// a mask.
#[cfg(feature = "sim")]
pub mod machine {
    use std::cell::RefCell;
    use std::rc::Rc;
    use tictable_machine::controller::BestMove;
    use tictable_machine::panel::Light;
    use tictable_machine::sim::human::SimHuman;
    use tictable_machine::sim::run::SimMachine;
    use tictable_machine::sim::world::{SimConfig, World};

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
