//! The simulated I2C bus: two TCA9548A multiplexers and nine TCS34725 sensors.

use super::world::{World, WorldHandle};
use crate::sensors::{BusRecovery, Mux, Wiring, SENSOR_ADDRESS};
use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};
use tictable::Square;

/// One byte and its acknowledge at 100 kHz, µs.
pub const BYTE_US: u64 = 90;
/// A START or a STOP, µs.
pub const EDGE_US: u64 = 10;
/// How long the firmware's master waits for a flag before giving up, µs.
pub const TIMEOUT_US: u64 = 1_000;

/// The data bytes of an operation.
fn op_len(op: &Operation<'_>) -> usize {
    match op {
        Operation::Write(b) => b.len(),
        Operation::Read(b) => b.len(),
    }
}

/// A handle on the simulated bus (clones share the world). `W` is how the world
/// is shared: `&RefCell<World>` or `Rc<RefCell<World>>`.
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
    wiring: Wiring,
}

impl<W: WorldHandle> SimBus<W> {
    /// The bus of `world`, with the sensors wired as `wiring`.
    pub fn new(world: W, wiring: Wiring) -> SimBus<W> {
        SimBus { world, wiring }
    }

    /// The squares whose sensor is reachable now (its multiplexer channel is on).
    fn selected(&self, w: &World) -> impl Iterator<Item = Square> + '_ {
        super::wire::selected(self.wiring, w.mux)
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
        let mut w = self.world.borrow_mut();
        w.stats.transactions += 1;
        // The bus time of the firmware's master (`firmware/src/i2c.rs`): each
        // byte 90 µs at 100 kHz, START and STOP 10 µs; a flag that never comes
        // is waited for 1 ms.
        let bytes: usize = operations.iter().map(|op| 1 + op_len(op)).sum();
        if w.bus_hung {
            // START never completes: SB times out.
            w.bus_us += TIMEOUT_US;
            w.stats.hung_transactions += 1;
            return Err(ErrorKind::Other);
        }
        let hang_rate = w.config.bus_hang_rate;
        if w.rng.chance(hang_rate) {
            // A slave holds SDA low from now on (a glitch mid-byte, say).
            w.bus_us += BYTE_US + TIMEOUT_US;
            w.stats.bus_hangs += 1;
            w.bus_hung = true;
            return Err(ErrorKind::Other);
        }
        let nack_rate = w.config.nack_rate;
        if w.rng.chance(nack_rate) {
            w.bus_us += BYTE_US + 2 * EDGE_US;
            w.stats.nacks += 1;
            return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address));
        }
        let timeout_rate = w.config.timeout_rate;
        if w.rng.chance(timeout_rate) {
            w.bus_us += BYTE_US + TIMEOUT_US;
            w.stats.timeouts += 1;
            return Err(ErrorKind::Other);
        }
        w.bus_us += bytes as u64 * BYTE_US + 2 * EDGE_US;
        let mux_index = Mux::ALL.iter().position(|m| m.address() == address);
        if let Some(m) = mux_index {
            for op in operations.iter_mut() {
                match op {
                    Operation::Write(bytes) => {
                        if let Some(&b) = bytes.last() {
                            w.mux[m] = b;
                        }
                    }
                    Operation::Read(buf) => buf.fill(w.mux[m]),
                }
            }
            return Ok(());
        }
        if address != SENSOR_ADDRESS {
            return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address));
        }
        let mut selected = self.selected(&w);
        let (Some(square), None) = (selected.next(), selected.next()) else {
            drop(selected);
            if self.selected(&w).count() == 0 {
                return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address));
            }
            // Two sensors answer at 0x29 at once: a collision on the real bus.
            w.stats.collisions += 1;
            return Err(ErrorKind::ArbitrationLoss);
        };
        let reads = operations.iter().any(|op| matches!(op, Operation::Read(_)));
        w.sensor_access(square, reads);
        let s = square.index() as usize;
        for op in operations.iter_mut() {
            match op {
                Operation::Write(bytes) => {
                    let Some((&cmd, data)) = bytes.split_first() else {
                        continue;
                    };
                    if cmd & 0x80 == 0 {
                        // Not a command byte: the real part ignores it.
                        continue;
                    }
                    let t = &mut w.sensors[s];
                    t.pointer = cmd & 0x1F;
                    t.auto_increment = (cmd >> 5) & 0x03 == 0x01;
                    for &b in data {
                        let p = w.sensors[s].pointer as usize;
                        w.sensor_write(square, p, b);
                        let t = &mut w.sensors[s];
                        if t.auto_increment {
                            t.pointer = (t.pointer + 1) & 0x1F;
                        }
                    }
                }
                Operation::Read(buf) => {
                    for b in buf.iter_mut() {
                        let p = w.sensors[s].pointer as usize;
                        *b = w.sensor_read(square, p);
                        let t = &mut w.sensors[s];
                        if t.auto_increment {
                            t.pointer = (t.pointer + 1) & 0x1F;
                        }
                    }
                }
            }
        }
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
        w.bus_hung = false;
        true
    }
}
