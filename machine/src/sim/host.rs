//! The host's conveniences (feature `sim`): a machine that owns its world behind an
//! `Rc`, so tests and the CLI can keep it in a struct and cut its power at will.

use super::run::{SimError, SimMachine};
use super::world::{SimConfig, World};
use crate::controller::MoveChooser;
use core::cell::RefCell;
use std::rc::Rc;

/// A world shared by `Rc`: the machine owns it.
pub type Shared = Rc<RefCell<World>>;

/// A simulated machine that owns its world.
pub type HostMachine<C> = SimMachine<C, Shared>;

impl<C: MoveChooser> SimMachine<C, Shared> {
    /// Builds a world from `config` and a calibrated machine in it.
    ///
    /// ```
    /// use tictable_machine::controller::BestMove;
    /// use tictable_machine::sim::host::HostMachine;
    /// use tictable_machine::sim::world::SimConfig;
    ///
    /// let m: HostMachine<BestMove> = HostMachine::new(SimConfig::standard(0.0, 0.0, 1).unwrap(), BestMove).unwrap();
    /// assert_eq!(m.world.borrow().stats.collisions, 0);
    /// ```
    pub fn new(config: SimConfig, chooser: C) -> Result<HostMachine<C>, SimError> {
        SimMachine::with_world(Rc::new(RefCell::new(World::new(config))), chooser)
    }
}

impl std::error::Error for SimError {}
