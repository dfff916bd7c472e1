//! The host simulator's I2C bus (`SimBus`) over the byte-level wire the virtual blue
//! pill drives too: what reaches the master as the firmware's polled master would
//! see it (two sensors answering at once, a hung bus, a stretched clock, a NACK),
//! the faults drawn once per transaction, and the bus time from the wire's timing.

use core::cell::RefCell;
use embedded_hal::i2c::{ErrorKind, I2c, NoAcknowledgeSource, Operation};
use tictable_machine::sensors::{BusRecovery, Wiring};
use tictable_machine::sim::bus::{SimBus, TIMEOUT_US};
use tictable_machine::sim::wire::{BIT_US, BYTE_US};
use tictable_machine::sim::world::{SimConfig, World};

const TCS: u8 = 0x29;
const MUX_A: u8 = 0x70;
const MUX_B: u8 = 0x71;

/// A world without faults.
fn world() -> RefCell<World> {
    RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 5).unwrap()))
}

/// Register `r` of the sensors selected now, as the driver reads it (command byte
/// written, one byte read after a repeated START).
fn read_reg(bus: &mut SimBus<&RefCell<World>>, r: u8) -> Result<u8, ErrorKind> {
    let mut b = [0];
    bus.write_read(TCS, &[0x80 | r], &mut b)?;
    Ok(b[0])
}

#[test]
fn two_sensors_selected_answer_together_their_bits_anded_without_an_error() {
    let world = world();
    world.borrow_mut().sensors[0].regs[0x03] = 0b1100_1010;
    world.borrow_mut().sensors[8].regs[0x03] = 0b1010_0110;
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    // Square 1 on multiplexer A channel 0, square 9 on B channel 0.
    bus.write(MUX_A, &[1]).unwrap();
    bus.write(MUX_B, &[1]).unwrap();
    assert_eq!(read_reg(&mut bus, 0x03), Ok(0b1000_0010));
    assert_eq!(world.borrow().stats.collisions, 1);
    // One sensor alone reads its own value.
    bus.write(MUX_B, &[0]).unwrap();
    assert_eq!(read_reg(&mut bus, 0x03), Ok(0b1100_1010));
    assert_eq!(world.borrow().stats.collisions, 1);
}

#[test]
fn no_sensor_selected_is_a_nack_of_the_address() {
    let world = world();
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    assert_eq!(
        read_reg(&mut bus, 0x12),
        Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address))
    );
    assert_eq!(
        bus.write(0x42, &[0]),
        Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address))
    );
}

#[test]
fn a_hung_bus_fails_with_a_timeout_until_it_is_recovered() {
    let world = world();
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    bus.write(MUX_A, &[1]).unwrap();
    world.borrow_mut().config.bus_hang_rate = 1.0;
    // The slave's 0 beats the master's 1 in the address byte.
    assert_eq!(read_reg(&mut bus, 0x12), Err(ErrorKind::ArbitrationLoss));
    world.borrow_mut().config.bus_hang_rate = 0.0;
    // From now on no START can be made: SB never comes, the firmware's master
    // gives up after its timeout with `Other`, a hung bus to the sensor bank.
    let before = world.borrow().bus_us;
    assert_eq!(read_reg(&mut bus, 0x12), Err(ErrorKind::Other));
    assert_eq!(bus.write(MUX_A, &[1]), Err(ErrorKind::Other));
    assert_eq!(world.borrow().bus_us - before, 2 * TIMEOUT_US);
    let s = world.borrow().stats;
    assert_eq!((s.bus_hangs, s.hung_transactions), (1, 2), "{s:?}");
    // The recovery frees it in one call: the hang (0x5A at its first bit) lets
    // SDA go at its second bit, in the first clock pulse, which ends in a STOP
    // (both lines released, then SCL low, SDA low, SCL high, SDA high: half a bit
    // each).
    let before = world.borrow().bus_us;
    assert!(bus.recover_bus());
    assert_eq!(world.borrow().bus_us - before, 6 * BIT_US / 2);
    assert_eq!(world.borrow().bus_hung, None);
    assert_eq!(read_reg(&mut bus, 0x12), Ok(0x44));
    assert_eq!(world.borrow().stats.bus_recoveries, 1);
}

#[test]
fn a_stretched_clock_is_a_timeout_and_a_nack_a_nack_then_the_bus_is_free() {
    let world = world();
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    bus.write(MUX_A, &[1]).unwrap();
    world.borrow_mut().config.timeout_rate = 1.0;
    let before = world.borrow().bus_us;
    assert_eq!(read_reg(&mut bus, 0x12), Err(ErrorKind::Other));
    // START, the address byte, then the wait for ADDR in vain.
    assert_eq!(
        world.borrow().bus_us - before,
        BIT_US + BYTE_US + TIMEOUT_US
    );
    world.borrow_mut().config.timeout_rate = 0.0;
    world.borrow_mut().config.nack_rate = 1.0;
    assert_eq!(
        read_reg(&mut bus, 0x12),
        Err(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address))
    );
    let s = world.borrow().stats;
    assert_eq!((s.timeouts, s.nacks), (1, 1), "{s:?}");
    // The bus is free: the next transaction without faults works.
    world.borrow_mut().config.nack_rate = 0.0;
    assert_eq!(read_reg(&mut bus, 0x12), Ok(0x44));
}

#[test]
fn a_transaction_takes_the_wires_bytes_and_edges() {
    let world = world();
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    bus.write(MUX_A, &[1]).unwrap();
    let before = world.borrow().bus_us;
    // write_read: START, address, command; repeated START, address, 8 bytes; STOP.
    let mut buf = [0; 8];
    bus.write_read(TCS, &[0xA0 | 0x14], &mut buf).unwrap();
    assert_eq!(world.borrow().bus_us - before, 11 * BYTE_US + 3 * BIT_US);
    assert_eq!(world.borrow().stats.transactions, 2);
}

#[test]
fn adjacent_reads_are_one_run_the_last_byte_nacked_and_the_bus_free_after() {
    let world = world();
    let mut bus = SimBus::new(&world, Wiring::DEFAULT);
    bus.write(MUX_A, &[1]).unwrap();
    // Auto-increment from ATIME (0x01): ATIME, 0x02, WTIME (0x03) in two reads.
    bus.write(TCS, &[0xA0 | 0x01]).unwrap();
    let (mut a, mut b) = ([0; 2], [0; 1]);
    bus.transaction(TCS, &mut [Operation::Read(&mut a), Operation::Read(&mut b)])
        .unwrap();
    assert_eq!((a, b), ([0xFF, 0x00], [0xFF]));
    // Had the master acknowledged the last byte, the sensor would drive the next
    // one (register 0x04 reads 0x00: SDA low) and the bus would hang.
    assert_eq!(read_reg(&mut bus, 0x12), Ok(0x44));
    assert_eq!(world.borrow().stats.bus_hangs, 0);
}
