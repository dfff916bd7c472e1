//! A model of the STM32F1 I2C peripheral in master mode (RM0008 §26.3.3, "I2C master
//! mode", and §26.6 "I2C registers") with one slave on the bus, for the host tests of
//! `src/i2c.rs`. Time runs in ticks: every register access and every read of the cycle
//! counter takes one; a START takes `START_TICKS`, a byte with its acknowledge bit
//! `BYTE_TICKS`. The model records what happens on the wire ([`Wire`]) and every
//! access the real peripheral would not accept as the master meant it
//! ([`Wire::Wrong`]).
//!
//! What it models, as RM0008 describes the flags:
//! - SB after START (cleared by reading SR1, then writing DR with the address); ADDR
//!   once the slave acknowledged the address, SCL held low until ADDR is cleared by
//!   reading SR1, then SR2; AF (and no ADDR) on a NACK.
//! - Transmitter: TXE while DR is empty (a byte written to DR moves to the shift
//!   register at once if it is free); BTF when a byte ended with DR empty (SCL held
//!   low until DR is written, or STOP / START).
//! - Receiver: a byte is acknowledged by the master if ACK is set at its end (POS = 0)
//!   or at its start (POS = 1: "ACK controls the next byte"; the order ST's HAL and
//!   the Rust HAL use, POS and ACK set, ADDR cleared, ACK cleared, acknowledges the
//!   first byte and not the second). A byte goes to DR (RXNE) if DR is empty, else it
//!   stays in the shift register (BTF, SCL held low) until DR is read. After a byte the
//!   master sends a STOP or a repeated START if one was asked for, else it clocks in the
//!   next byte: a byte clocked in after a NACK is an extra byte (the errata's failure).
//! - STOP / START asked for while SCL is held (BTF, or a NACK) are sent at once, else
//!   after the current byte. Writing 0 to an SR1 error flag clears it.

use crate::i2c::{cr1, sr1, Reg, Registers};
use std::collections::VecDeque;

/// Ticks of a START condition and of a byte (8 data bits and the acknowledge bit).
pub const START_TICKS: u64 = 10;
pub const BYTE_TICKS: u64 = 40;

/// What happened on the wire, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wire {
    /// A START or repeated START.
    Start,
    /// The address byte and whether the slave acknowledged it.
    Address(u8, bool),
    /// A byte the master sent and whether the slave acknowledged it.
    Sent(u8, bool),
    /// A byte the master received and whether the master acknowledged it.
    Received(u8, bool),
    /// A STOP.
    Stop,
    /// The peripheral was reset.
    Reset,
    /// An access or a bus event the real peripheral would not do as the master meant.
    Wrong(&'static str),
}

/// What the master engine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Not master (the bus is free).
    Idle,
    /// START being sent, SB at `.0`.
    Starting(u64),
    /// SB set, waiting for the address in DR.
    AwaitAddress,
    /// Address byte being sent, done at `.0`.
    Address(u64),
    /// ADDR set, SCL held until it is cleared.
    AddressHeld,
    /// Transmitter, a byte in the shift register, done at `.0`.
    Sending(u64),
    /// Receiver, a byte being clocked in, done at `.0`, with the ACK decided at its
    /// start (`POS`) if `Some`.
    Receiving(u64, Option<bool>),
    /// SCL held low: transmitter with nothing to send, receiver with DR and the shift
    /// register full, or after a NACK.
    Held,
}

/// The peripheral and one slave.
pub struct Model {
    pub now: u64,
    cr1: u16,
    sr1: u16,
    msl: bool,
    /// SR1 as last read (for the "read SR1, then ..." clearing sequences).
    seen: u16,
    phase: Phase,
    transmitter: bool,
    dr: Option<u8>,
    shift: Option<u8>,
    /// The master's NACK has been sent: the slave sends no more.
    nacked: bool,
    pub wire: Vec<Wire>,
    pub resets: usize,
    /// Interrupts masked ([`Registers::critical`]).
    masked: bool,
    /// Delays to inject before register accesses: (access number, ticks), like an
    /// interrupt; deferred to the end of a critical section.
    pub delays: VecDeque<(usize, u64)>,
    pending_delay: u64,
    pub accesses: usize,
    /// `critical` masks nothing (a mutant: the errata workaround removed).
    pub critical_masks: bool,

    /// The slave: its address, the bytes it sends, the bytes it got.
    pub slave: u8,
    pub data: Vec<u8>,
    sent_index: usize,
    pub received: Vec<u8>,
    /// The slave NACKs the data byte with this index (0-based, per transfer).
    pub nack_data_at: Option<usize>,
    data_in_transfer: usize,
    /// The bus never becomes free (START never sent).
    pub bus_busy: bool,
    /// The slave holds SCL low for ever once addressed.
    pub stretch_forever: bool,
    /// Another master wins the address phase.
    pub lose_arbitration: bool,
    /// A spurious bus error (errata) flagged at this access.
    pub spurious_berr_at: Option<usize>,
}

impl Model {
    pub fn new(slave: u8, data: &[u8]) -> Model {
        Model {
            now: 0,
            cr1: 0,
            sr1: 0,
            msl: false,
            seen: 0,
            phase: Phase::Idle,
            transmitter: false,
            dr: None,
            shift: None,
            nacked: false,
            wire: Vec::new(),
            resets: 0,
            masked: false,
            delays: VecDeque::new(),
            pending_delay: 0,
            accesses: 0,
            critical_masks: true,
            slave,
            data: data.to_vec(),
            sent_index: 0,
            received: Vec::new(),
            nack_data_at: None,
            data_in_transfer: 0,
            bus_busy: false,
            stretch_forever: false,
            lose_arbitration: false,
            spurious_berr_at: None,
        }
    }

    fn wrong(&mut self, what: &'static str) {
        self.wire.push(Wire::Wrong(what));
    }

    /// The wire log without the resets (for comparisons).
    pub fn bus(&self) -> Vec<Wire> {
        self.wire
            .iter()
            .filter(|w| **w != Wire::Reset)
            .cloned()
            .collect()
    }

    /// Whether anything was wrong.
    pub fn faults(&self) -> Vec<&'static str> {
        self.wire
            .iter()
            .filter_map(|w| match w {
                Wire::Wrong(what) => Some(*what),
                _ => None,
            })
            .collect()
    }

    /// One access: time passes (an injected delay first, if due and not masked), the
    /// peripheral catches up.
    fn tick(&mut self) {
        self.accesses += 1;
        while self.delays.front().is_some_and(|d| d.0 <= self.accesses) {
            let (_, ticks) = self.delays.pop_front().unwrap();
            self.pending_delay += ticks;
        }
        if !self.masked || !self.critical_masks {
            self.now += std::mem::take(&mut self.pending_delay);
        }
        self.now += 1;
        if self.spurious_berr_at == Some(self.accesses) {
            self.sr1 |= sr1::BERR;
        }
        self.advance();
    }

    /// Runs the peripheral until now.
    pub fn advance(&mut self) {
        loop {
            match self.phase {
                Phase::Starting(at) if at <= self.now => {
                    self.wire.push(Wire::Start);
                    self.cr1 &= !cr1::START;
                    self.sr1 |= sr1::SB;
                    self.sr1 &= !sr1::BTF;
                    self.msl = true;
                    self.phase = Phase::AwaitAddress;
                }
                Phase::Address(at) if at <= self.now => self.address_done(),
                Phase::Sending(at) if at <= self.now => self.sent(),
                Phase::Receiving(at, ack) if at <= self.now => self.received_byte(ack),
                Phase::Held | Phase::Idle => {
                    if !self.stop_or_start() {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// STOP or START asked for and SCL free to do it (idle, or held with nothing
    /// left to hand over): sends it. Whether anything happened.
    fn stop_or_start(&mut self) -> bool {
        if self.phase == Phase::Idle {
            if self.cr1 & cr1::START != 0 && !self.bus_busy {
                self.phase = Phase::Starting(self.now + START_TICKS);
                return true;
            }
            if self.cr1 & cr1::STOP != 0 {
                // STOP with the bus not ours: RM0008 leaves it pending (the errata's
                // stale STOP); the model says so.
                self.wrong("STOP asked for while not master");
                self.cr1 &= !cr1::STOP;
                return true;
            }
            return false;
        }
        // Held: a receiver still holding a byte in its shift register hands it over
        // first (it is in; STOP may go now).
        if self.cr1 & cr1::STOP != 0 {
            self.wire.push(Wire::Stop);
            self.cr1 &= !cr1::STOP;
            self.msl = false;
            self.sr1 &= !(sr1::BTF | sr1::TXE);
            self.phase = Phase::Idle;
            self.end_transfer();
            return true;
        }
        if self.cr1 & cr1::START != 0 {
            self.sr1 &= !(sr1::BTF | sr1::TXE);
            self.phase = Phase::Starting(self.now + START_TICKS);
            self.end_transfer();
            return true;
        }
        false
    }

    fn end_transfer(&mut self) {
        if self.dr.is_some() && self.transmitter {
            self.wrong("a byte left in DR at STOP / START");
            self.dr = None;
        }
        self.nacked = false;
        self.data_in_transfer = 0;
    }

    fn address_done(&mut self) {
        let byte = self.shift.take().unwrap();
        if self.lose_arbitration {
            self.sr1 |= sr1::ARLO;
            self.msl = false;
            self.phase = Phase::Idle;
            return;
        }
        let ack = byte >> 1 == self.slave;
        self.wire.push(Wire::Address(byte, ack));
        if ack {
            self.sr1 |= sr1::ADDR;
            self.transmitter = byte & 1 == 0;
            self.phase = Phase::AddressHeld;
        } else {
            self.sr1 |= sr1::AF;
            self.phase = Phase::Held;
        }
    }

    fn sent(&mut self) {
        let byte = self.shift.take().unwrap();
        let ack = self.nack_data_at != Some(self.data_in_transfer);
        self.data_in_transfer += 1;
        self.wire.push(Wire::Sent(byte, ack));
        if ack {
            self.received.push(byte);
        }
        if !ack {
            // The NACKed transfer ends here: a byte waiting in DR is never sent.
            self.dr = None;
            self.sr1 |= sr1::AF;
            self.phase = Phase::Held;
        } else if let Some(next) = self.dr.take() {
            self.shift = Some(next);
            self.sr1 |= sr1::TXE;
            self.phase = Phase::Sending(self.now + BYTE_TICKS);
        } else {
            self.sr1 |= sr1::BTF;
            self.phase = Phase::Held;
        }
    }

    /// Starts clocking in a byte (the slave drives it unless it was NACKed).
    fn receive_next(&mut self) {
        if self.nacked {
            self.wrong("a byte clocked in after the NACK");
        }
        let at_start = (self.cr1 & cr1::POS != 0).then_some(self.cr1 & cr1::ACK != 0);
        self.phase = Phase::Receiving(self.now + BYTE_TICKS, at_start);
    }

    fn received_byte(&mut self, ack_at_start: Option<bool>) {
        let ack = ack_at_start.unwrap_or(self.cr1 & cr1::ACK != 0);
        let byte = if self.nacked {
            0xFF
        } else {
            let b = self.data.get(self.sent_index).copied().unwrap_or(0xFF);
            self.sent_index += 1;
            b
        };
        self.wire.push(Wire::Received(byte, ack));
        if !ack {
            self.nacked = true;
        }
        if self.dr.is_none() {
            self.dr = Some(byte);
            self.sr1 |= sr1::RXNE;
        } else {
            self.shift = Some(byte);
            self.sr1 |= sr1::BTF;
            // SCL held until DR is read; a STOP asked for goes at once.
            self.phase = Phase::Held;
            return;
        }
        self.phase = Phase::Held;
        if !self.stop_or_start() {
            self.receive_next();
        }
    }

    /// A read of DR in the receiver: the held byte moves in, reception goes on.
    fn dr_read(&mut self) -> u16 {
        let Some(byte) = self.dr.take() else {
            self.wrong("DR read while empty");
            return 0;
        };
        self.sr1 &= !sr1::RXNE;
        if let Some(held) = self.shift.take() {
            self.dr = Some(held);
            self.sr1 |= sr1::RXNE;
            self.sr1 &= !sr1::BTF;
            if self.phase == Phase::Held && self.msl && !self.stop_or_start() {
                self.receive_next();
            }
        }
        u16::from(byte)
    }

    fn dr_write(&mut self, byte: u8, seen: u16) {
        if self.phase == Phase::AwaitAddress {
            if seen & sr1::SB == 0 {
                self.wrong("address written without SR1 read with SB");
            }
            self.sr1 &= !sr1::SB;
            self.shift = Some(byte);
            // A slave stretching for ever holds SCL from its address on.
            let ticks = if self.stretch_forever {
                u64::MAX - self.now
            } else {
                BYTE_TICKS
            };
            self.phase = Phase::Address(self.now + ticks);
            return;
        }
        if !self.transmitter || !self.msl {
            self.wrong("DR written while not transmitting");
            return;
        }
        match self.phase {
            Phase::Held if self.sr1 & sr1::BTF != 0 || self.shift.is_none() => {
                self.sr1 &= !sr1::BTF;
                self.shift = Some(byte);
                self.phase = Phase::Sending(self.now + BYTE_TICKS);
            }
            Phase::Sending(_) if self.dr.is_none() => {
                self.dr = Some(byte);
                self.sr1 &= !sr1::TXE;
            }
            _ => self.wrong("DR written while full"),
        }
    }
}

impl Registers for Model {
    fn read(&mut self, reg: Reg) -> u16 {
        self.tick();
        // "Read SR1, then ...": the very next access (strict: the chip may be kinder).
        let seen = std::mem::take(&mut self.seen);
        match reg {
            Reg::Cr1 => self.cr1,
            Reg::Sr1 => {
                self.seen = self.sr1;
                self.sr1
            }
            Reg::Sr2 => {
                if self.sr1 & sr1::ADDR != 0 && seen & sr1::ADDR != 0 {
                    self.sr1 &= !sr1::ADDR;
                    if self.transmitter {
                        self.sr1 |= sr1::TXE;
                        self.phase = Phase::Held;
                    } else {
                        self.receive_next();
                    }
                }
                u16::from(self.msl) | u16::from(self.phase != Phase::Idle) << 1
            }
            Reg::Dr => self.dr_read(),
        }
    }

    fn write(&mut self, reg: Reg, value: u16) {
        self.tick();
        let seen = std::mem::take(&mut self.seen);
        match reg {
            Reg::Cr1 => {
                self.cr1 = value;
                self.advance();
            }
            Reg::Sr1 => {
                let errors = sr1::BERR | sr1::ARLO | sr1::AF;
                self.sr1 &= value | !errors;
            }
            Reg::Sr2 => self.wrong("SR2 written"),
            Reg::Dr => self.dr_write(value as u8, seen),
        }
    }

    fn cycles(&mut self) -> u32 {
        self.now += 1;
        self.advance();
        self.now as u32
    }

    fn critical<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let was = self.masked;
        self.masked = true;
        let result = f(self);
        self.masked = was;
        result
    }

    fn reset(&mut self) {
        self.tick();
        self.wire.push(Wire::Reset);
        self.resets += 1;
        self.cr1 = 0;
        self.sr1 = 0;
        self.msl = false;
        self.phase = Phase::Idle;
        self.dr = None;
        self.shift = None;
        self.nacked = false;
        self.data_in_transfer = 0;
    }
}
