//! Simulated pins: every pin of the machine is one [`SimPin`] with a role.

use super::world::WorldHandle;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};

/// What a pin is wired to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// STEP of axis 0 (X) or 1 (Y).
    Step(usize),
    /// DIR of axis 0 (X) or 1 (Y); high = away from the switch.
    Dir(usize),
    /// Homing switch of axis 0 or 1 (active low).
    Limit(usize),
    /// The lift (high = lowered).
    Lift,
    /// The electromagnet (high = on).
    Magnet,
    /// Button `i` in [`crate::panel::Button::ALL`] order (active low).
    Button(usize),
    /// Light `i` in [`crate::panel::Light::ALL`] order.
    Light(usize),
}

/// A pin of the simulated machine. `W` is how the world is shared:
/// `&RefCell<World>` or `Rc<RefCell<World>>`.
///
/// ```
/// use core::cell::RefCell;
/// use embedded_hal::digital::{InputPin, OutputPin};
/// use tictable_machine::sim::pins::{Role, SimPin};
/// use tictable_machine::sim::world::{SimConfig, World};
///
/// let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 1).unwrap()));
/// world.borrow_mut().head.steps = [0, 0];
/// let mut limit = SimPin::new(&world, Role::Limit(0));
/// assert!(limit.is_low().unwrap()); // at the switch: closed, active low
/// SimPin::new(&world, Role::Dir(0)).set_high().unwrap();
/// SimPin::new(&world, Role::Step(0)).set_high().unwrap();
/// assert!(limit.is_high().unwrap());
/// ```
#[derive(Clone, Debug)]
pub struct SimPin<W> {
    world: W,
    role: Role,
}

impl<W: WorldHandle> SimPin<W> {
    /// The pin with `role` in `world`.
    pub fn new(world: W, role: Role) -> SimPin<W> {
        SimPin { world, role }
    }

    fn set(&mut self, level: bool) {
        let mut w = self.world.borrow_mut();
        match self.role {
            Role::Step(a) => w.set_step(a, level),
            Role::Dir(a) => w.head.dir[a] = level,
            Role::Lift => w.set_lift(level),
            Role::Magnet => w.set_magnet(level),
            Role::Light(i) => w.lights[i] = level,
            // Driving an input does nothing.
            Role::Limit(_) | Role::Button(_) => {}
        }
    }

    fn level(&self) -> bool {
        let mut w = self.world.borrow_mut();
        match self.role {
            Role::Limit(a) => !w.read_limit(a),
            Role::Button(i) => !w.buttons[i],
            Role::Step(a) => w.head.step_level[a],
            Role::Dir(a) => w.head.dir[a],
            Role::Lift => w.head.lowered,
            Role::Magnet => w.head.magnet,
            Role::Light(i) => w.lights[i],
        }
    }
}

impl<W> ErrorType for SimPin<W> {
    type Error = Infallible;
}

impl<W: WorldHandle> OutputPin for SimPin<W> {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.set(false);
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.set(true);
        Ok(())
    }
}

impl<W: WorldHandle> InputPin for SimPin<W> {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.level())
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(!self.level())
    }
}
