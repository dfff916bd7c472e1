//! The I2C bus of the simulated machine at byte level: START, the address byte and
//! its acknowledge, data bytes written (acknowledged or not) and read (acknowledged
//! or not by the master), STOP, and the master's clock pulses that free a slave
//! holding SDA low. The two TCA9548A multiplexers and the nine TCS34725 sensors of
//! the [`World`] answer here, and the bus faults of [`SimConfig`] strike here, once
//! per transaction (its first address byte).
//!
//! One model for both masters: the host simulator's [`SimBus`](super::bus::SimBus)
//! runs each embedded-hal transaction over it, and the virtual blue pill
//! (`vboard/`) drives it byte by byte from its model of the STM32F103's I2C1, as the
//! peripheral's shift register clocks the bytes. As on a real bus:
//!
//! - Every slave that recognises the address acknowledges it. Two sensors selected
//!   at once (both multiplexers with a channel on, say) both acknowledge 0x29, both
//!   take the bytes written, and what they send back is the AND of their bits (an
//!   open-drain line: a 0 wins). No error reaches the master; the collision is
//!   counted ([`WorldStats::collisions`](super::stats::WorldStats::collisions)).
//! - A slave that starts holding SDA low ([`SimConfig::bus_hang_rate`]) keeps it low
//!   through every START until the master clocks SCL [`RELEASE_CLOCKS`] times: it
//!   finishes the byte it was sending and lets go.
//!
//! Its timing is the bus's too: [`SCL_HZ`], [`BIT_US`] per START, STOP or recovery
//! clock and [`BYTE_US`] per byte are what the host bus charges; the virtual blue
//! pill's I2C1 clocks [`BYTE_CLOCKS`] per byte at the rate its CCR sets.
//!
//! [`SimConfig`]: super::world::SimConfig
//! [`SimConfig::bus_hang_rate`]: super::world::SimConfig::bus_hang_rate

use super::world::World;
use crate::sensors::{Mux, Wiring, SENSOR_ADDRESS};
use tictable::Square;

/// The bus's clock, Hz: I2C standard mode, as the firmware sets its master up
/// (`firmware/src/board.rs`).
pub const SCL_HZ: u64 = 100_000;
/// One SCL period, µs; a START or a STOP takes one.
pub const BIT_US: u64 = 1_000_000 / SCL_HZ;
/// The SCL clocks of one byte: eight bits and the acknowledge.
pub const BYTE_CLOCKS: u64 = 9;
/// One byte and its acknowledge, µs.
pub const BYTE_US: u64 = BYTE_CLOCKS * BIT_US;

/// SCL clocks after which a slave holding SDA low lets it go: the rest of the byte
/// it was sending and the acknowledge bit, at most nine (NXP UM10204, 3.1.16).
pub const RELEASE_CLOCKS: u8 = 9;

/// A fault drawn for a transaction at its first address byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireFault {
    /// The address is not acknowledged (a glitch, a slave busy).
    Nack,
    /// A slave stretches SCL (holds it low) far longer than the master waits: the
    /// master's next flag does not come in time.
    Stretch,
    /// A slave starts holding SDA low (a glitch mid-byte left it out of step): from
    /// now on until the master clocks it free ([`Wire::clock_pulse`]).
    Hang,
}

/// What the address byte found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addressed {
    /// At least one slave acknowledged.
    Ack,
    /// No slave answers at this address (none there, or no sensor selected behind
    /// the multiplexers).
    Nack,
    /// A fault struck this transaction.
    Fault(WireFault),
}

/// The slave a transfer talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Multiplexer 0 (A) or 1 (B).
    Mux(usize),
    /// The sensors selected now (one, or several colliding).
    Sensors,
    /// Nobody answered.
    Nobody,
}

/// The byte-level bus of a [`World`]: the slaves' side of each transfer (which one
/// is addressed, whether the next byte written to a sensor is its command byte) and
/// the clocks a hung slave still needs.
///
/// ```
/// use tictable_machine::sensors::Wiring;
/// use tictable_machine::sim::wire::{Addressed, Wire};
/// use tictable_machine::sim::world::{SimConfig, World};
///
/// let mut w = World::new(SimConfig::standard(0.0, 0.0, 1).unwrap());
/// let mut wire = Wire::new(Wiring::DEFAULT);
/// // Multiplexer A: channel 4 on (square 5's sensor).
/// assert!(wire.start(&mut w));
/// assert_eq!(wire.address(&mut w, 0x70, false), Addressed::Ack);
/// assert!(wire.write(&mut w, 1 << 4));
/// wire.stop(&mut w);
/// // The sensor's ID register (0x12): 0x44 for a TCS34725.
/// assert!(wire.start(&mut w));
/// assert_eq!(wire.address(&mut w, 0x29, false), Addressed::Ack);
/// assert!(wire.write(&mut w, 0x80 | 0x12));
/// assert!(wire.start(&mut w)); // repeated START
/// assert_eq!(wire.address(&mut w, 0x29, true), Addressed::Ack);
/// assert_eq!(wire.read(&mut w, false), 0x44);
/// wire.stop(&mut w);
/// ```
#[derive(Clone, Debug)]
pub struct Wire {
    wiring: Wiring,
    target: Target,
    /// Between a START and its STOP.
    in_transaction: bool,
    /// The transaction's faults were drawn (at its first address byte).
    drawn: bool,
    /// The next byte written to the sensors is their command byte.
    command_next: bool,
    /// The command byte was not one (CMD bit clear): the sensors ignore the data.
    ignoring: bool,
    /// Clocks a slave holding SDA low has seen since it began.
    hang_clocks: u8,
    /// The master acknowledged the last byte it read: the slave goes on sending.
    acked_read: bool,
}

impl Wire {
    /// The bus, with the sensors wired as `wiring`.
    pub const fn new(wiring: Wiring) -> Wire {
        Wire {
            wiring,
            target: Target::Nobody,
            in_transaction: false,
            drawn: false,
            command_next: false,
            ignoring: false,
            hang_clocks: 0,
            acked_read: false,
        }
    }

    /// The squares whose sensor is reachable now (its multiplexer channel is on).
    pub fn selected(&self, w: &World) -> impl Iterator<Item = Square> + '_ {
        selected(self.wiring, w.mux)
    }

    /// Whether a slave holds SDA low now (what a master reads on its SDA pin).
    pub fn sda_held(w: &World) -> bool {
        w.bus_hung
    }

    /// A START (or a repeated START) from the master. `false`: SDA is held low by
    /// a slave, the START cannot be made (counted as a hung transaction).
    pub fn start(&mut self, w: &mut World) -> bool {
        self.slave_goes_on(w);
        if !self.in_transaction {
            w.stats.transactions += 1;
            self.drawn = false;
        }
        if w.bus_hung {
            if !self.in_transaction {
                w.stats.hung_transactions += 1;
            }
            self.in_transaction = false;
            return false;
        }
        self.in_transaction = true;
        self.target = Target::Nobody;
        true
    }

    /// The address byte `addr7` (7-bit), its direction aside: which slaves
    /// acknowledge. `reads`: this transfer reads registers, when a sensor's per-read
    /// faults strike ([`SimConfig::brownout_rate`](super::world::SimConfig::brownout_rate),
    /// [`SimConfig::stuck_rate`](super::world::SimConfig::stuck_rate)). The first
    /// address byte of a transaction draws its bus faults.
    pub fn address(&mut self, w: &mut World, addr7: u8, reads: bool) -> Addressed {
        let first = !self.drawn;
        self.drawn = true;
        self.target = Target::Nobody;
        if first {
            if let Some(fault) = w.draw_bus_fault() {
                if fault == WireFault::Hang {
                    self.hang_clocks = 0;
                    self.in_transaction = false;
                }
                return Addressed::Fault(fault);
            }
        }
        if let Some(m) = Mux::ALL.iter().position(|m| m.address() == addr7) {
            self.target = Target::Mux(m);
            return Addressed::Ack;
        }
        if addr7 != SENSOR_ADDRESS {
            return Addressed::Nack;
        }
        let n = self.selected(w).count();
        if n == 0 {
            return Addressed::Nack;
        }
        if n > 1 && first {
            w.stats.collisions += 1;
        }
        for s in Square::ALL {
            if self.selected(w).any(|x| x == s) {
                w.sensor_access(s, reads);
            }
        }
        self.target = Target::Sensors;
        self.command_next = true;
        self.ignoring = false;
        Addressed::Ack
    }

    /// A data byte from the master; whether it was acknowledged.
    pub fn write(&mut self, w: &mut World, b: u8) -> bool {
        match self.target {
            Target::Nobody => false,
            Target::Mux(m) => {
                w.mux[m] = b;
                true
            }
            Target::Sensors => {
                let command = core::mem::take(&mut self.command_next);
                if command {
                    // Not a command byte (CMD, bit 7, clear): the part ignores it
                    // and what follows.
                    self.ignoring = b & 0x80 == 0;
                }
                if self.ignoring {
                    return true;
                }
                for s in Square::ALL {
                    if !self.selected(w).any(|x| x == s) {
                        continue;
                    }
                    let i = s.index() as usize;
                    if command {
                        let t = &mut w.sensors[i];
                        t.pointer = b & 0x1F;
                        t.auto_increment = (b >> 5) & 0x03 == 0x01;
                    } else {
                        let p = w.sensors[i].pointer as usize;
                        w.sensor_write(s, p, b);
                        Self::advance(w, i);
                    }
                }
                true
            }
        }
    }

    /// A data byte from the slaves (the AND of every one that sends: open drain);
    /// `ack`: the master acknowledges it (asks for more). Nobody sending reads
    /// 0xFF (the pull-up).
    pub fn read(&mut self, w: &mut World, ack: bool) -> u8 {
        let v = self.read_byte(w);
        self.acked_read = ack && self.target != Target::Nobody;
        v
    }

    /// The byte the addressed slaves send now.
    fn read_byte(&mut self, w: &mut World) -> u8 {
        match self.target {
            Target::Nobody => 0xFF,
            Target::Mux(m) => w.mux[m],
            Target::Sensors => {
                let mut v = 0xFF;
                for s in Square::ALL {
                    if !self.selected(w).any(|x| x == s) {
                        continue;
                    }
                    let i = s.index() as usize;
                    let p = w.sensors[i].pointer as usize;
                    v &= w.sensor_read(s, p);
                    Self::advance(w, i);
                }
                v
            }
        }
    }

    /// The register pointer of sensor `i` after a byte, with auto-increment.
    fn advance(w: &mut World, i: usize) {
        let t = &mut w.sensors[i];
        if t.auto_increment {
            t.pointer = (t.pointer + 1) & 0x1F;
        }
    }

    /// A STOP from the master: the transaction ends. `false`: a slave holds SDA
    /// low (see [`Wire::read`]), so there was no STOP on the bus.
    pub fn stop(&mut self, w: &mut World) -> bool {
        self.slave_goes_on(w);
        self.in_transaction = false;
        self.target = Target::Nobody;
        !w.bus_hung
    }

    /// After an acknowledged read the slave sends its next byte: it drives the
    /// byte's first bit on SDA before the master can make a STOP or a START. A 0
    /// there holds SDA low for good (until the master clocks the byte out): the
    /// bus hangs. The master must not acknowledge the last byte it reads.
    fn slave_goes_on(&mut self, w: &mut World) {
        if core::mem::take(&mut self.acked_read) {
            let next = self.read_byte(w);
            if next & 0x80 == 0 {
                w.bus_hung = true;
                self.hang_clocks = 0;
            }
        }
    }

    /// One SCL clock from the master (a bit of a byte, or bus recovery's manual
    /// clocks); a slave holding SDA low lets go after [`RELEASE_CLOCKS`].
    pub fn clock_pulse(&mut self, w: &mut World) {
        if w.bus_hung {
            self.hang_clocks += 1;
            if self.hang_clocks >= RELEASE_CLOCKS {
                w.bus_hung = false;
                self.hang_clocks = 0;
            }
        }
    }

    /// The bus recovery's [`RELEASE_CLOCKS`] clocks and a STOP.
    pub fn clock_out(&mut self, w: &mut World) {
        self.acked_read = false;
        for _ in 0..RELEASE_CLOCKS {
            self.clock_pulse(w);
        }
        self.stop(w);
    }
}

/// The squares whose sensor is reachable with the multiplexers' channel masks
/// `mux` (A, B), the sensors wired as `wiring`.
fn selected(wiring: Wiring, mux: [u8; 2]) -> impl Iterator<Item = Square> {
    Square::ALL.into_iter().filter(move |s| {
        let ch = wiring.channel(*s);
        let m = match ch.mux {
            Mux::A => mux[0],
            Mux::B => mux[1],
        };
        m & (1 << ch.channel) != 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::world::SimConfig;

    fn world() -> World {
        World::new(SimConfig::standard(0.0, 0.0, 1).unwrap())
    }

    /// Selects `a` on multiplexer A and `b` on B.
    fn select(wire: &mut Wire, w: &mut World, a: u8, b: u8) {
        for (addr, mask) in [(0x70, a), (0x71, b)] {
            assert!(wire.start(w));
            assert_eq!(wire.address(w, addr, false), Addressed::Ack);
            assert!(wire.write(w, mask));
            wire.stop(w);
        }
    }

    /// Reads register `p` of the sensors selected now.
    fn read_reg(wire: &mut Wire, w: &mut World, p: u8) -> u8 {
        assert!(wire.start(w));
        assert_eq!(wire.address(w, 0x29, false), Addressed::Ack);
        assert!(wire.write(w, 0x80 | p));
        assert!(wire.start(w));
        assert_eq!(wire.address(w, 0x29, true), Addressed::Ack);
        let v = wire.read(w, false);
        wire.stop(w);
        v
    }

    #[test]
    fn two_sensors_selected_both_acknowledge_and_their_bits_are_anded() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.sensors[0].regs[0x03] = 0b1100_1010;
        w.sensors[8].regs[0x03] = 0b1010_0110;
        select(&mut wire, &mut w, 1, 1);
        assert_eq!(read_reg(&mut wire, &mut w, 0x03), 0b1000_0010);
        assert_eq!(w.stats.collisions, 1, "one per transaction");
        // A write reaches both.
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, false), Addressed::Ack);
        assert!(wire.write(&mut w, 0x80 | 0x01));
        assert!(wire.write(&mut w, 0xF6));
        wire.stop(&mut w);
        assert_eq!((w.sensors[0].regs[1], w.sensors[8].regs[1]), (0xF6, 0xF6));
    }

    #[test]
    fn no_sensor_selected_is_not_acknowledged_and_reads_the_pull_up() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        select(&mut wire, &mut w, 0, 0);
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, true), Addressed::Nack);
        assert_eq!(wire.read(&mut w, false), 0xFF);
        assert!(!wire.write(&mut w, 0x80));
        assert_eq!(wire.address(&mut w, 0x42, false), Addressed::Nack);
    }

    #[test]
    fn a_byte_without_the_command_bit_is_ignored_with_its_data() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        select(&mut wire, &mut w, 1 << 2, 0);
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, false), Addressed::Ack);
        assert!(wire.write(&mut w, 0x01));
        assert!(wire.write(&mut w, 0x00));
        wire.stop(&mut w);
        assert_eq!(w.sensors[2].regs[1], 0xFF, "ATIME keeps its reset value");
    }

    #[test]
    fn a_hung_slave_blocks_every_start_until_nine_clocks() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.config.bus_hang_rate = 1.0;
        assert!(wire.start(&mut w));
        assert_eq!(
            wire.address(&mut w, 0x70, false),
            Addressed::Fault(WireFault::Hang)
        );
        w.config.bus_hang_rate = 0.0;
        assert!(Wire::sda_held(&w));
        assert!(!wire.start(&mut w));
        assert_eq!(w.stats.hung_transactions, 1);
        for _ in 0..RELEASE_CLOCKS - 1 {
            wire.clock_pulse(&mut w);
        }
        assert!(Wire::sda_held(&w), "still held after 8 clocks");
        wire.clock_pulse(&mut w);
        assert!(!Wire::sda_held(&w));
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x70, false), Addressed::Ack);
    }

    #[test]
    fn a_last_byte_acknowledged_lets_the_slave_hold_sda_and_the_stop_fails() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        select(&mut wire, &mut w, 1, 0);
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, false), Addressed::Ack);
        assert!(wire.write(&mut w, 0x80 | 0x12));
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, true), Addressed::Ack);
        assert_eq!(wire.read(&mut w, true), 0x44);
        // The next byte (register 0x12 again, 0x44) begins with a 0 bit.
        assert!(!wire.stop(&mut w));
        assert!(Wire::sda_held(&w));
    }

    #[test]
    fn faults_strike_once_per_transaction_at_its_first_address() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.config.nack_rate = 1.0;
        assert!(wire.start(&mut w));
        assert_eq!(
            wire.address(&mut w, 0x70, false),
            Addressed::Fault(WireFault::Nack)
        );
        assert!(wire.start(&mut w));
        assert_eq!(
            wire.address(&mut w, 0x70, false),
            Addressed::Ack,
            "repeated START"
        );
        wire.stop(&mut w);
        assert_eq!(w.stats.nacks, 1);
        w.config.nack_rate = 0.0;
        w.config.timeout_rate = 1.0;
        assert!(wire.start(&mut w));
        assert_eq!(
            wire.address(&mut w, 0x70, false),
            Addressed::Fault(WireFault::Stretch)
        );
        wire.stop(&mut w);
        assert_eq!((w.stats.timeouts, w.stats.transactions), (1, 2));
    }
}
