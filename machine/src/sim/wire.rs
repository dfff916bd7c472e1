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
//! - A slave out of step ([`SimConfig::bus_hang_rate`], a master reset mid-byte, an
//!   acknowledged last byte) is a [`HungSlave`]: as a real slave transmitter it
//!   drives its byte's bits on SCL's falling edges (MSB first; a hang drawn sends
//!   [`HUNG_BYTES`] in turn, from the middle of one), lets SDA go for the
//!   acknowledge, goes on with its next byte after an ACK, stops after a NACK, and
//!   resets only on a START or a STOP it sees (SDA changing while SCL is high). While
//!   it drives a 0 no START can be made. Clocks that end with SDA released free it
//!   only when they pass an acknowledge bit; a STOP made while it drives a 0 is no
//!   STOP. The master's lines as GPIOs (bus recovery) reach it through
//!   [`Wire::set_lines`].
//!
//! Its timing is the bus's too: [`SCL_HZ`], [`BIT_US`] per START, STOP or recovery
//! clock and [`BYTE_US`] per byte are what the host bus charges; the virtual blue
//! pill's I2C1 clocks [`BYTE_CLOCKS`] per byte at the rate its CCR sets.
//!
//! [`SimConfig`]: super::world::SimConfig
//! [`SimConfig::bus_hang_rate`]: super::world::SimConfig::bus_hang_rate

use super::world::World;
use crate::bus_recovery::OpenDrainLines;
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

/// SCL clocks after which a slave transmitter out of step has passed an acknowledge
/// bit wherever it was in its byte: nine (NXP UM10204, 3.1.16). Clocked with SDA
/// released, that acknowledge is a NACK and the slave lets SDA go.
pub const RELEASE_CLOCKS: u8 = 9;

/// The bytes a hung slave sends, one after another while the master acknowledges
/// (a drawn hang starts in the middle of one): bits alternating both ways, all
/// zeros (SDA low through eight clocks) and all ones (SDA free: the bus looks idle
/// while the slave is mid-byte).
pub const HUNG_BYTES: [u8; 4] = [0x5A, 0x55, 0x00, 0xFF];

/// A slave out of step with the master, mid-byte: it moves on at each falling edge
/// of SCL and resets only on a START or STOP it sees.
///
/// ```
/// use tictable_machine::sim::wire::HungSlave;
/// // The 0x5A of the first hang, at its first bit (a 0).
/// let s = HungSlave::nth(0);
/// assert!(s.drives_low());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HungSlave {
    /// The byte it is in.
    byte: u8,
    /// Its bit: 0-7 the data bits (MSB first), 8 the acknowledge.
    bit: u8,
    /// It receives (it drives SDA only for the acknowledge) rather than sends.
    receiving: bool,
    /// The acknowledge it saw (a sender) at the last rising edge of bit 8.
    acked: bool,
    /// The next of [`HUNG_BYTES`] it sends after an ACK.
    next: u8,
}

impl HungSlave {
    /// The `n`-th hang drawn (0 first): in byte `n % 4` of [`HUNG_BYTES`] (the all
    /// ones byte taken as the one before it, 0x00, so that the hang is seen), at one
    /// of its 0 bits, a different one each round.
    pub fn nth(n: u64) -> HungSlave {
        let k = (n % 4) as usize;
        let byte = if HUNG_BYTES[k] == 0xFF { 2 } else { k };
        let b = HUNG_BYTES[byte];
        let m = (n / 4) as usize % b.count_zeros() as usize;
        let bit = (0..8u8)
            .filter(|i| b & (0x80 >> i) == 0)
            .nth(m)
            .unwrap_or(0);
        HungSlave {
            byte: b,
            bit,
            receiving: false,
            acked: false,
            next: (byte as u8 + 1) % 4,
        }
    }

    /// A slave left sending `byte` at `bit` (0-7, 8: the acknowledge) by a master
    /// reset mid-byte, or sending on after an acknowledged last byte (`bit` 0);
    /// after it, [`HUNG_BYTES`] from the first.
    pub fn sending(byte: u8, bit: u8) -> HungSlave {
        HungSlave {
            byte,
            bit: bit.min(8),
            receiving: false,
            acked: false,
            next: 0,
        }
    }

    /// A slave left receiving at `bit` (0-7, 8: the acknowledge it drives) by a
    /// master reset mid-byte.
    pub fn receiving(bit: u8) -> HungSlave {
        HungSlave {
            receiving: true,
            ..HungSlave::sending(0xFF, bit)
        }
    }

    /// Whether it pulls SDA low now.
    pub fn drives_low(&self) -> bool {
        if self.receiving {
            self.bit == 8
        } else {
            self.bit < 8 && self.byte & (0x80 >> self.bit) == 0
        }
    }

    /// SCL rose with SDA at `sda`: `false` when the slave stops (a sender NACKed).
    fn rising(&mut self, sda: bool) -> bool {
        if self.bit == 8 && !self.receiving {
            self.acked = !sda;
            return self.acked;
        }
        true
    }

    /// SCL fell: the next bit.
    fn falling(&mut self) {
        if self.bit < 8 {
            self.bit += 1;
        } else {
            self.bit = 0;
            if !self.receiving {
                self.byte = HUNG_BYTES[self.next as usize];
                self.next = (self.next + 1) % 4;
            }
        }
    }
}

/// A fault drawn for a transaction at its first address byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireFault {
    /// The address is not acknowledged (a glitch, a slave busy).
    Nack,
    /// A slave stretches SCL (holds it low) far longer than the master waits: the
    /// master's next flag does not come in time.
    Stretch,
    /// A slave starts holding SDA low (a glitch mid-byte left it out of step): from
    /// now on until the master clocks it free ([`Wire::set_lines`]), mid-byte ([`HungSlave`]).
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
    /// The master's SCL and SDA as it drives them as GPIOs (released: `true`).
    lines: (bool, bool),
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
            lines: (true, true),
            acked_read: false,
        }
    }

    /// The squares whose sensor is reachable now (its multiplexer channel is on).
    pub fn selected(&self, w: &World) -> impl Iterator<Item = Square> + '_ {
        selected(self.wiring, w.mux)
    }

    /// Whether a slave holds SDA low now (what a master reads on its SDA pin).
    pub fn sda_held(w: &World) -> bool {
        w.bus_hung.is_some_and(|h| h.drives_low())
    }

    /// A START (or a repeated START) from the master. `false`: SDA is held low by
    /// a slave, the START cannot be made (counted as a hung transaction).
    pub fn start(&mut self, w: &mut World) -> bool {
        self.slave_goes_on(w);
        if !self.in_transaction {
            w.stats.transactions += 1;
            self.drawn = false;
        }
        if Self::sda_held(w) {
            if !self.in_transaction {
                w.stats.hung_transactions += 1;
            }
            self.in_transaction = false;
            return false;
        }
        // A slave out of step but not driving a 0 sees the START and resets.
        w.bus_hung = None;
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
    /// low (see [`Wire::read`]), so there was no STOP on the bus (a slave out of
    /// step stays so); else a slave out of step sees it and resets.
    pub fn stop(&mut self, w: &mut World) -> bool {
        self.slave_goes_on(w);
        self.in_transaction = false;
        self.target = Target::Nobody;
        if Self::sda_held(w) {
            return false;
        }
        w.bus_hung = None;
        true
    }

    /// The master's peripheral was reset (or disabled) in the middle of a byte,
    /// `bit` clocks into it (0-8, 8: its acknowledge), reading (`reads`) or
    /// writing: the lines are released where they were, no STOP. The slave it
    /// talked to is left mid-byte (a [`HungSlave`]): one that was sending goes on
    /// sending the byte it was in; one that was receiving acknowledges at its
    /// ninth clock. Nobody addressed: nothing is left.
    pub fn master_reset_mid_byte(&mut self, w: &mut World, reads: bool, bit: u8) {
        self.acked_read = false;
        self.in_transaction = false;
        if self.target == Target::Nobody {
            return;
        }
        w.bus_hung = Some(if reads {
            let b = self.read_byte(w);
            HungSlave::sending(b, bit)
        } else {
            HungSlave::receiving(bit)
        });
        self.target = Target::Nobody;
    }

    /// After an acknowledged read the slave sends its next byte: it drives the
    /// byte's first bit on SDA before the master can make a STOP or a START. A 0
    /// there holds SDA low for good (until the master clocks the byte out): the
    /// bus hangs. The master must not acknowledge the last byte it reads.
    fn slave_goes_on(&mut self, w: &mut World) {
        if core::mem::take(&mut self.acked_read) {
            let next = self.read_byte(w);
            w.bus_hung = Some(HungSlave::sending(next, 0));
        }
    }

    /// The level on SDA now: the master's and the slaves' wired-AND.
    fn sda_level(&self, w: &World) -> bool {
        self.lines.1 && !Self::sda_held(w)
    }

    /// The master drives SCL and SDA as GPIOs (bus recovery; `true`: released):
    /// SCL changes first. A slave out of step moves on at SCL's falling edge,
    /// reads the acknowledge at its rising edge, and resets on SDA changing while
    /// SCL is high (a START or a STOP). Returns the level on SDA afterwards.
    pub fn set_lines(&mut self, w: &mut World, scl: bool, sda: bool) -> bool {
        self.slave_goes_on(w);
        if scl != self.lines.0 {
            self.lines.0 = scl;
            if scl {
                let level = self.sda_level(w);
                if w.bus_hung.as_mut().is_some_and(|h| !h.rising(level)) {
                    w.bus_hung = None;
                }
            } else if let Some(h) = w.bus_hung.as_mut() {
                h.falling();
            }
        }
        if sda != self.lines.1 {
            let before = self.sda_level(w);
            self.lines.1 = sda;
            if self.lines.0 && before != self.sda_level(w) {
                // A START or a STOP: every slave back to idle.
                w.bus_hung = None;
                self.in_transaction = false;
                self.target = Target::Nobody;
            }
        }
        self.sda_level(w)
    }

    /// The lines back to the peripheral (both released, as its idle state).
    pub fn lines_released(&mut self, w: &mut World) {
        self.set_lines(w, true, true);
    }
}

/// The master's lines as [`OpenDrainLines`] on a wire and its world: the host's
/// bus recovery runs the firmware's [`free_bus`](crate::bus_recovery::free_bus)
/// over it.
pub struct Lines<'a> {
    /// The bus.
    pub wire: &'a mut Wire,
    /// Its world.
    pub world: &'a mut World,
}

impl OpenDrainLines for Lines<'_> {
    fn set_scl(&mut self, released: bool) {
        let sda = self.wire.lines.1;
        self.world.bus_us += BIT_US / 2;
        self.wire.set_lines(self.world, released, sda);
    }

    fn set_sda(&mut self, released: bool) {
        let scl = self.wire.lines.0;
        self.world.bus_us += BIT_US / 2;
        self.wire.set_lines(self.world, scl, released);
    }

    fn sda_is_high(&mut self) -> bool {
        self.wire.sda_level(self.world)
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

    /// Clocks SCL once with SDA released by the master (no STOP can come of it).
    fn clock(wire: &mut Wire, w: &mut World) {
        wire.set_lines(w, false, true);
        wire.set_lines(w, true, true);
    }

    #[test]
    fn a_hung_slave_blocks_every_start_while_it_drives_a_0() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.config.bus_hang_rate = 1.0;
        assert!(wire.start(&mut w));
        assert_eq!(
            wire.address(&mut w, 0x70, false),
            Addressed::Fault(WireFault::Hang)
        );
        w.config.bus_hang_rate = 0.0;
        // The first hang: 0x5A (0101 1010) at its first bit.
        assert_eq!(w.bus_hung, Some(HungSlave::nth(0)));
        assert!(Wire::sda_held(&w));
        assert!(!wire.start(&mut w));
        assert!(!wire.stop(&mut w), "no STOP while SDA is held");
        assert_eq!(w.stats.hung_transactions, 1);
        // Its bits come on SCL's falling edges: 1, 0, 1, 1, 0, 1, 0, then the
        // acknowledge, released.
        let mut seen = std::vec::Vec::new();
        for _ in 0..8 {
            clock(&mut wire, &mut w);
            seen.push(!Wire::sda_held(&w));
        }
        assert_eq!(seen, [true, false, true, true, false, true, false, true]);
        // The acknowledge clocked with SDA released: a NACK, the slave stops.
        clock(&mut wire, &mut w);
        assert_eq!(w.bus_hung, None);
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x70, false), Addressed::Ack);
    }

    #[test]
    fn an_acknowledged_hung_slave_goes_on_with_its_next_byte() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.bus_hung = Some(HungSlave::sending(0x00, 7));
        // Bit 7 (a 0), then the acknowledge: the master drives SDA low at the
        // rising edge (an ACK) and keeps it low until SCL is low again.
        wire.set_lines(&mut w, false, true);
        assert!(!Wire::sda_held(&w), "released for the acknowledge");
        wire.set_lines(&mut w, false, false);
        wire.set_lines(&mut w, true, false);
        wire.set_lines(&mut w, false, false);
        wire.set_lines(&mut w, false, true);
        // The next byte of the four: 0x5A, its first bit a 0.
        assert!(Wire::sda_held(&w));
        let mut bits = 0u8;
        for i in 0..8 {
            if i > 0 {
                clock(&mut wire, &mut w);
            } else {
                wire.set_lines(&mut w, true, true);
            }
            bits = bits << 1 | u8::from(!Wire::sda_held(&w));
        }
        assert_eq!(bits, HUNG_BYTES[0]);
    }

    #[test]
    fn a_stop_or_start_seen_resets_a_hung_slave_and_one_not_seen_does_not() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        w.bus_hung = Some(HungSlave::sending(0x5A, 0));
        // SDA pulled and released by the master while the slave drives a 0 with
        // SCL high: no START, no STOP on the wire.
        wire.set_lines(&mut w, true, false);
        wire.set_lines(&mut w, true, true);
        assert!(w.bus_hung.is_some());
        // SCL falls: its second bit, a 1. SDA low, SCL high, SDA released: a STOP.
        wire.set_lines(&mut w, false, true);
        wire.set_lines(&mut w, false, false);
        wire.set_lines(&mut w, true, false);
        assert!(
            w.bus_hung.is_some(),
            "a 1 bit under a master's 0: no change"
        );
        wire.set_lines(&mut w, true, true);
        assert_eq!(w.bus_hung, None);
        // A slave at an all-ones byte leaves SDA free: a START resets it.
        w.bus_hung = Some(HungSlave::sending(0xFF, 3));
        assert!(wire.start(&mut w));
        assert_eq!(w.bus_hung, None);
    }

    #[test]
    fn a_master_reset_mid_byte_leaves_the_slave_mid_byte() {
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        select(&mut wire, &mut w, 1, 0);
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, false), Addressed::Ack);
        assert!(wire.write(&mut w, 0x80 | 0x12));
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x29, true), Addressed::Ack);
        // The ID, 0x44 (0100 0100), reset two bits in: bits 2-4 are 0s.
        wire.master_reset_mid_byte(&mut w, true, 2);
        assert!(Wire::sda_held(&w));
        assert!(!wire.start(&mut w));
        clock(&mut wire, &mut w);
        clock(&mut wire, &mut w);
        assert!(Wire::sda_held(&w));
        clock(&mut wire, &mut w);
        assert!(!Wire::sda_held(&w), "its sixth bit is a 1");
        // Writing: the slave receives, and acknowledges at its ninth clock.
        let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
        assert!(wire.start(&mut w));
        assert_eq!(wire.address(&mut w, 0x70, false), Addressed::Ack);
        wire.master_reset_mid_byte(&mut w, false, 7);
        assert!(!Wire::sda_held(&w));
        wire.set_lines(&mut w, false, true);
        assert!(Wire::sda_held(&w), "its acknowledge");
    }

    #[test]
    fn free_bus_frees_every_hung_slave_in_one_call_and_nine_clocks_at_most() {
        use crate::bus_recovery::free_bus;
        let starts = (0..32).map(HungSlave::nth).chain((0..=8).flat_map(|bit| {
            HUNG_BYTES
                .into_iter()
                .map(move |b| HungSlave::sending(b, bit))
                .chain([HungSlave::receiving(bit)])
        }));
        for h in starts {
            let (mut w, mut wire) = (world(), Wire::new(Wiring::DEFAULT));
            w.bus_hung = Some(h);
            let free = free_bus(&mut Lines {
                wire: &mut wire,
                world: &mut w,
            });
            assert!(free && w.bus_hung.is_none(), "{h:?}: {:?}", w.bus_hung);
            assert!(w.bus_us <= 5 * (2 + 4 * 9), "{h:?}: {} µs", w.bus_us);
        }
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
        assert_eq!(w.bus_hung, Some(HungSlave::sending(0x44, 0)));
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
