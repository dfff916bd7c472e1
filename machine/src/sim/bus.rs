//! The simulated I2C bus as an embedded-hal 1.0 `I2c`: two TCA9548A multiplexers and
//! nine TCS34725 sensors, over the byte-level [`Wire`].

use super::wire::{Addressed, Wire, WireFault};
use super::world::WorldHandle;
use crate::sensors::{BusRecovery, Wiring};
use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};

/// One byte and its acknowledge at 100 kHz, µs.
pub const BYTE_US: u64 = 90;
/// A START or a STOP, µs.
pub const EDGE_US: u64 = 10;
/// How long the firmware's master waits for a flag before giving up, µs.
pub const TIMEOUT_US: u64 = 1_000;

/// A handle on the simulated bus (clones share the world). `W` is how the world
/// is shared: `&RefCell<World>` or `Rc<RefCell<World>>`.
///
/// Each transaction runs byte by byte over the world's [`Wire`] (the one bus
/// model the virtual blue pill drives too): START, the address, the bytes of each
/// operation (a repeated START and the address between operations), STOP. The
/// time it takes is the firmware master's (`firmware/src/i2c.rs`), kept in
/// [`World::bus_us`](super::world::World::bus_us).
///
/// ```
/// use core::cell::RefCell;
/// use embedded_hal::i2c::I2c;
/// use tictable_machine::sensors::{Mux, Wiring};
/// use tictable_machine::sim::bus::SimBus;
/// use tictable_machine::sim::world::{SimConfig, World};
///
/// let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 1).unwrap()));
/// let mut bus = SimBus::new(&world, Wiring::DEFAULT);
/// bus.write(Mux::A.address(), &[0b100]).unwrap();
/// assert_eq!(world.borrow().mux, [0b100, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct SimBus<W> {
    world: W,
    wire: Wire,
}

impl<W: WorldHandle> SimBus<W> {
    /// The bus of `world`, with the sensors wired as `wiring`.
    pub fn new(world: W, wiring: Wiring) -> SimBus<W> {
        SimBus {
            world,
            wire: Wire::new(wiring),
        }
    }
}

impl<W> ErrorType for SimBus<W> {
    type Error = ErrorKind;
}

impl<W: WorldHandle> I2c for SimBus<W> {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), Self::Error> {
        let mut guard = self.world.borrow_mut();
        let w = &mut *guard;
        // The bus time of the firmware's master (`firmware/src/i2c.rs`): each
        // byte 90 µs at 100 kHz, START and STOP 10 µs; a flag that never comes
        // is waited for 1 ms.
        let bytes: usize = operations
            .iter()
            .map(|op| {
                1 + match op {
                    Operation::Write(b) => b.len(),
                    Operation::Read(b) => b.len(),
                }
            })
            .sum();
        if !self.wire.start(w) {
            // SDA held low: START never completes, SB times out.
            w.bus_us += TIMEOUT_US;
            return Err(ErrorKind::Other);
        }
        let reads = operations.iter().any(|op| matches!(op, Operation::Read(_)));
        for (i, op) in operations.iter_mut().enumerate() {
            if i > 0 && !self.wire.start(w) {
                w.bus_us += TIMEOUT_US;
                return Err(ErrorKind::Other);
            }
            // The transaction's register reads strike the sensor once, at its
            // first address byte.
            match self.wire.address(w, address, reads && i == 0) {
                Addressed::Ack => {}
                Addressed::Nack => {
                    w.bus_us += bytes as u64 * BYTE_US + 2 * EDGE_US;
                    self.wire.stop(w);
                    return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address));
                }
                Addressed::Fault(WireFault::Hang) => {
                    // A slave holds SDA low from now on (a glitch mid-byte, say).
                    w.bus_us += BYTE_US + TIMEOUT_US;
                    return Err(ErrorKind::Other);
                }
                Addressed::Fault(WireFault::Nack) => {
                    w.bus_us += BYTE_US + 2 * EDGE_US;
                    self.wire.stop(w);
                    return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address));
                }
                Addressed::Fault(WireFault::Stretch) => {
                    w.bus_us += BYTE_US + TIMEOUT_US;
                    self.wire.stop(w);
                    return Err(ErrorKind::Other);
                }
            }
            match op {
                Operation::Write(data) => {
                    for &b in data.iter() {
                        self.wire.write(w, b);
                    }
                }
                Operation::Read(buf) => {
                    let n = buf.len();
                    for (k, b) in buf.iter_mut().enumerate() {
                        *b = self.wire.read(w, k + 1 < n);
                    }
                }
            }
        }
        self.wire.stop(w);
        w.bus_us += bytes as u64 * BYTE_US + 2 * EDGE_US;
        Ok(())
    }
}

/// The simulated master frees a hung bus the way the firmware does (9 SCL clocks,
/// STOP, peripheral re-init): the slave lets SDA go.
impl<W: WorldHandle> BusRecovery for SimBus<W> {
    fn recover_bus(&mut self) -> bool {
        let mut w = self.world.borrow_mut();
        w.stats.bus_recoveries += 1;
        // Up to 9 SCL clocks of 10 µs and a STOP.
        w.bus_us += 9 * 10 + EDGE_US;
        self.wire.clock_out(&mut w);
        true
    }
}
