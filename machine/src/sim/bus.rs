//! The simulated I2C bus as an embedded-hal 1.0 `I2c`: two TCA9548A multiplexers and
//! nine TCS34725 sensors, over the byte-level [`Wire`] the virtual blue pill
//! (`vboard/`) drives too. The slaves, the bus faults and the sensors' faults are the
//! wire's and the world's; this master adds what the firmware's polled master
//! (`firmware/src/i2c.rs`) makes of them, and the time it spends.

use super::wire::{Addressed, Lines, Wire, WireFault, BIT_US, BYTE_US};
use super::world::{World, WorldHandle};
use crate::bus_recovery::free_bus;
use crate::sensors::{BusRecovery, Wiring};
use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};

/// How long the firmware's master waits for a flag before giving up, µs
/// (`firmware/src/board.rs`: each flag at most 1 ms).
pub const TIMEOUT_US: u64 = 1_000;

/// A handle on the simulated bus (clones share the world). `W` is how the world
/// is shared: `&RefCell<World>` or `Rc<RefCell<World>>`.
///
/// Each transaction runs byte by byte over a [`Wire`], as embedded-hal 1.0 lays it
/// out: START, the address, the bytes of a run of operations in one direction; a
/// repeated START and the address where the direction changes; the master
/// acknowledges every byte it reads but the last of a run; STOP. The errors are
/// the firmware master's:
///
/// - a NACK of the address or of a written byte: `NoAcknowledge` (then STOP);
/// - a slave starting to hold SDA low at the address ([`WireFault::Hang`]): the
///   master loses arbitration, `ArbitrationLoss`;
/// - a START that cannot be made (SDA held low) or a flag that never comes (a slave
///   stretching SCL, [`WireFault::Stretch`]): `Other` after [`TIMEOUT_US`].
///
/// The time it takes is kept in [`World::bus_us`]: the wire's [`BYTE_US`] per byte
/// (address bytes included), [`BIT_US`] per START and STOP, [`TIMEOUT_US`] per flag
/// waited for in vain.
///
/// ```
/// use core::cell::RefCell;
/// use embedded_hal::i2c::I2c;
/// use tictable_machine::sensors::{Mux, Wiring};
/// use tictable_machine::sim::bus::SimBus;
/// use tictable_machine::sim::wire::{BIT_US, BYTE_US};
/// use tictable_machine::sim::world::{SimConfig, World};
///
/// let world = RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 1).unwrap()));
/// let mut bus = SimBus::new(&world, Wiring::DEFAULT);
/// bus.write(Mux::A.address(), &[0b100]).unwrap();
/// assert_eq!(world.borrow().mux, [0b100, 0]);
/// // START, the address, one byte, STOP.
/// assert_eq!(world.borrow().bus_us, 2 * BYTE_US + 2 * BIT_US);
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

impl<W> SimBus<W> {
    /// A START (or repeated START); `Err`: SDA is held low, SB never comes.
    fn start(&mut self, w: &mut World) -> Result<(), ErrorKind> {
        if self.wire.start(w) {
            w.bus_us += BIT_US;
            Ok(())
        } else {
            w.bus_us += TIMEOUT_US;
            Err(ErrorKind::Other)
        }
    }

    /// The address byte; `reads`: the transaction reads registers (see
    /// [`Wire::address`]).
    fn address(&mut self, w: &mut World, address: u8, reads: bool) -> Result<(), ErrorKind> {
        w.bus_us += BYTE_US;
        match self.wire.address(w, address, reads) {
            Addressed::Ack => Ok(()),
            Addressed::Nack | Addressed::Fault(WireFault::Nack) => {
                self.stop(w);
                Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address))
            }
            // ADDR never comes; the master gives up and resets its peripheral,
            // which releases the lines.
            Addressed::Fault(WireFault::Stretch) => {
                w.bus_us += TIMEOUT_US;
                self.wire.stop(w);
                Err(ErrorKind::Other)
            }
            // The slave's 0 beat the master's 1: no STOP can be made.
            Addressed::Fault(WireFault::Hang) => Err(ErrorKind::ArbitrationLoss),
        }
    }

    /// A STOP.
    fn stop(&mut self, w: &mut World) {
        w.bus_us += BIT_US;
        self.wire.stop(w);
    }
}

impl<W> ErrorType for SimBus<W> {
    type Error = ErrorKind;
}

/// Whether an operation reads.
fn is_read(op: &Operation<'_>) -> bool {
    matches!(op, Operation::Read(_))
}

impl<W: WorldHandle> I2c for SimBus<W> {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), Self::Error> {
        let world = self.world.clone();
        let mut guard = world.borrow_mut();
        let w = &mut *guard;
        let reads = operations.iter().any(is_read);
        for i in 0..operations.len() {
            let read = is_read(&operations[i]);
            if i == 0 || read != is_read(&operations[i - 1]) {
                self.start(w)?;
                // The sensor's faults per read strike once, at the first address.
                self.address(w, address, reads && i == 0)?;
            }
            let run_ends = operations
                .get(i + 1)
                .is_none_or(|next| is_read(next) != read);
            match &mut operations[i] {
                Operation::Write(data) => {
                    for &b in data.iter() {
                        w.bus_us += BYTE_US;
                        if !self.wire.write(w, b) {
                            self.stop(w);
                            return Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Data));
                        }
                    }
                }
                Operation::Read(buf) => {
                    let n = buf.len();
                    for (k, b) in buf.iter_mut().enumerate() {
                        w.bus_us += BYTE_US;
                        *b = self.wire.read(w, !(run_ends && k + 1 == n));
                    }
                }
            }
        }
        if !operations.is_empty() {
            self.stop(w);
        }
        Ok(())
    }
}

/// The simulated master frees a hung bus the way the firmware does: the lines as
/// GPIOs, [`free_bus`] (clock pulses each ending in a STOP, half a bit time per
/// line change), then the lines back to the peripheral.
impl<W: WorldHandle> BusRecovery for SimBus<W> {
    fn recover_bus(&mut self) -> bool {
        let mut guard = self.world.borrow_mut();
        let w = &mut *guard;
        w.stats.bus_recoveries += 1;
        let free = free_bus(&mut Lines {
            wire: &mut self.wire,
            world: w,
        });
        self.wire.lines_released(w);
        free
    }
}
