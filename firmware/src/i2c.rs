//! A small polled I2C master for the STM32F1's I2C peripheral (RM0008 §26), without
//! hardware: the register sequences run on a [`Registers`] implementation, the chip's
//! I2C1 in the firmware (`bus::I2c1`), a model of the peripheral's status flags in
//! `firmware/host-check`.
//!
//! It replaces the HAL's `BlockingI2c` (stm32f1xx-hal 0.11): larger, and its
//! `transaction` is `todo!()`. The order of register accesses is the HAL's
//! (its file `i2c/blocking.rs`), which is RM0008's "method 2" for a polled master receiver,
//! with the workarounds of the STM32F10xx errata (ES096 §2.13.2, "some software events
//! must be managed before the current byte is being transferred") that ST's own
//! `stm32f1xx_hal_i2c.c` applies: interrupts are masked ([`Registers::critical`]) where
//! a step must follow another within one byte time on the bus:
//!
//! - 1 byte (EV6_3): ACK off before ADDR is cleared; clearing ADDR and setting STOP
//!   together, then wait RXNE and read.
//! - 2 bytes (EV6_1): POS and ACK on before ADDR is cleared; clearing ADDR and ACK off
//!   together (the NACK then goes to the second byte); wait BTF (both bytes in), STOP
//!   and the first read together, then the second read.
//! - N > 2 bytes (EV7_2): read until three bytes are left; wait BTF (N-2 in DR, N-1
//!   in the shift register), ACK off, the read of N-2, STOP and the read of N-1
//!   together (byte N is being received: STOP must be set before it ends, and N-1
//!   read before the STOP condition, or the errata's "wrong data read into data
//!   register" shifts byte N; AN2824: interrupts masked between STOP programming and
//!   the read of N-1), wait RXNE, read N. The 2-byte sequence's STOP and read of N-1
//!   are masked together for the same reason.
//!
//! The errata's spurious bus error in master mode is cleared and ignored (its
//! workaround); a transfer it really broke ends in a timeout. Every wait is bounded
//! by the cycle counter ([`Registers::cycles`]). Errors: a NACK is
//! `NoAcknowledge(Address | Data)` and ends the transfer with a STOP (RM0008: a master
//! that sees a NACK must send STOP or a repeated START); arbitration loss
//! `ArbitrationLoss`; a flag that never comes `Other` (a timeout). After an arbitration
//! loss or a timeout the peripheral is reset and configured again
//! ([`Registers::reset`]); after arbitration losses in a row the next transfers wait,
//! exponentially longer up to a bound, before their START (`Master::back_off`); a slave still holding SDA low needs the bus recovery
//! (`BusRecovery`), which the library calls after repeated timeouts or bus errors
//! (`tictable_machine::sensors::hangs_bus`).
//!
//! `transaction` takes any list of operations except two reads in a row (the STM32F1's
//! end-of-read sequences need the total length; refused with `Other` before the bus is
//! touched) and an empty read (the peripheral cannot receive zero bytes; refused as
//! well). `write` and `write_read` run the same steps without the list, both through one
//! function (the firmware calls only these, so the list's loop is not linked; one path
//! for both is smaller than two). Adjacent writes are sent as one, without a repeated
//! START, as embedded-hal asks; a change of direction sends a repeated START; the end
//! a STOP.

use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};

/// The peripheral's registers the master uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// I2C_CR1: PE, START, STOP, ACK, POS.
    Cr1,
    /// I2C_SR1: the event and error flags.
    Sr1,
    /// I2C_SR2: read to clear ADDR.
    Sr2,
    /// I2C_DR: the data register (8 bits).
    Dr,
}

/// CR1 bits (RM0008 §26.6.1).
pub mod cr1 {
    /// START generation.
    pub const START: u16 = 1 << 8;
    /// STOP generation.
    pub const STOP: u16 = 1 << 9;
    /// Acknowledge the received bytes.
    pub const ACK: u16 = 1 << 10;
    /// ACK applies to the next byte (2-byte reception).
    pub const POS: u16 = 1 << 11;
}

/// SR1 bits (RM0008 §26.6.6).
pub mod sr1 {
    /// START sent.
    pub const SB: u16 = 1 << 0;
    /// Address sent and acknowledged.
    pub const ADDR: u16 = 1 << 1;
    /// Byte transfer finished (data register and shift register both full / empty).
    pub const BTF: u16 = 1 << 2;
    /// Data register not empty (receiver).
    pub const RXNE: u16 = 1 << 6;
    /// Data register empty (transmitter).
    pub const TXE: u16 = 1 << 7;
    /// Bus error (misplaced START or STOP).
    pub const BERR: u16 = 1 << 8;
    /// Arbitration lost.
    pub const ARLO: u16 = 1 << 9;
    /// Acknowledge failure (NACK).
    pub const AF: u16 = 1 << 10;
}

/// Register access for [`Master`]: the chip's I2C1 or a model of it.
pub trait Registers {
    /// Reads a register (SR1 then SR2, or SR1 then DR, clear flags as RM0008 says).
    fn read(&mut self, reg: Reg) -> u16;
    /// Writes a register (SR1: writing 0 clears an error flag, 1 leaves it).
    fn write(&mut self, reg: Reg, value: u16);
    /// The free-running cycle counter the waits are bounded by.
    fn cycles(&mut self) -> u32;
    /// Runs `f` with interrupts masked (the errata's steps that must not be delayed).
    fn critical<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T;
    /// Resets the peripheral and configures it again (clock, speed, enable).
    fn reset(&mut self);
}

/// A polled I2C master over [`Registers`] (see the module documentation).
pub struct Master<R> {
    regs: R,
    /// The longest wait for one flag, in cycles.
    timeout: u32,
    /// Arbitration losses in a row, up to 8 (the back-off's exponent; 0: none),
    /// and when the last was lost (cycles).
    lost: u32,
    lost_at: u32,
}

impl<R: Registers> Master<R> {
    /// Resets and configures the peripheral; each flag is waited for at most
    /// `timeout_cycles` of [`Registers::cycles`].
    pub fn new(mut regs: R, timeout_cycles: u32) -> Master<R> {
        regs.reset();
        Master {
            regs,
            timeout: timeout_cycles,
            lost: 0,
            lost_at: 0,
        }
    }

    /// Whether the last transfer lost arbitration (a back-off is under way): the
    /// bus recovery then leaves a free bus alone.
    pub fn arbitration_lost(&self) -> bool {
        self.lost != 0
    }

    /// Waits out the back-off after an arbitration loss (another master, or noise
    /// on SDA, won a bit): exponential, from an eighth of the flag timeout to 16
    /// timeouts (125 µs to 16 ms with the firmware's 1 ms), so that a storm of
    /// losses spaces the transfers out in time instead of retrying (and freeing
    /// the bus) at once.
    fn back_off(&mut self) {
        if self.lost != 0 {
            let wait = (self.timeout / 16) << self.lost;
            while self.regs.cycles().wrapping_sub(self.lost_at) < wait {}
        }
    }

    /// The registers (the firmware's bus recovery switches the pins through them).
    pub fn registers(&mut self) -> &mut R {
        &mut self.regs
    }

    /// Sets and clears CR1 bits (`set` wins).
    fn cr1(&mut self, set: u16, clear: u16) {
        let value = self.regs.read(Reg::Cr1) & !clear | set;
        self.regs.write(Reg::Cr1, value);
    }

    /// Clears ADDR the way RM0008 says: SR1 read, then SR2 read (nothing between).
    fn clear_addr(regs: &mut R) {
        regs.read(Reg::Sr1);
        regs.read(Reg::Sr2);
    }

    /// Waits until `flag` is set in SR1 (`0`: until CR1's STOP bit is clear), bounded
    /// by the timeout. A NACK, an arbitration loss are errors (their flags cleared); a
    /// bus error is cleared and ignored (errata: spurious in master mode).
    fn wait(&mut self, flag: u16) -> Result<(), ErrorKind> {
        let started = self.regs.cycles();
        loop {
            if flag == 0 {
                if self.regs.read(Reg::Cr1) & cr1::STOP == 0 {
                    return Ok(());
                }
            } else {
                let status = self.regs.read(Reg::Sr1);
                let errors = status & (sr1::BERR | sr1::ARLO | sr1::AF);
                if errors != 0 {
                    self.regs.write(Reg::Sr1, !errors);
                    if status & sr1::AF != 0 {
                        return Err(ErrorKind::NoAcknowledge(if flag == sr1::ADDR {
                            NoAcknowledgeSource::Address
                        } else {
                            NoAcknowledgeSource::Data
                        }));
                    }
                    if status & sr1::ARLO != 0 {
                        // The next transfer backs off twice as long (see
                        // `Master::back_off`).
                        self.lost = self.lost.min(7) + 1;
                        self.lost_at = self.regs.cycles();
                        return Err(ErrorKind::ArbitrationLoss);
                    }
                    // A bus error alone: SR1 is read again, so that the flag's
                    // clearing sequence (SR1 read, then DR or SR2) stays unbroken.
                } else if status & flag != 0 {
                    return Ok(());
                }
            }
            if self.regs.cycles().wrapping_sub(started) > self.timeout {
                return Err(ErrorKind::Other);
            }
        }
    }

    /// START (unless the previous read already asked for it), the address byte,
    /// ADDR. ADDR is left set: the caller clears it ([`Master::clear_addr`]).
    fn address(&mut self, byte: u8, start_requested: bool) -> Result<(), ErrorKind> {
        if !start_requested {
            self.cr1(cr1::START, 0);
        }
        self.wait(sr1::SB)?;
        self.regs.write(Reg::Dr, u16::from(byte));
        self.wait(sr1::ADDR)
    }

    /// Receives `buf` (not empty) after ADDR, ending with `end` (STOP, or START for a
    /// repeated start), in RM0008's sequences for 1, 2 and more bytes.
    fn receive(&mut self, buf: &mut [u8], end: u16) -> Result<(), ErrorKind> {
        let n = buf.len();
        if n == 1 {
            self.cr1(0, cr1::ACK | cr1::POS);
            self.regs.critical(|regs| {
                Self::clear_addr(regs);
                let value = regs.read(Reg::Cr1) | end;
                regs.write(Reg::Cr1, value);
            });
            self.wait(sr1::RXNE)?;
            buf[0] = self.regs.read(Reg::Dr) as u8;
        } else if n == 2 {
            self.cr1(cr1::POS | cr1::ACK, 0);
            self.regs.critical(|regs| {
                Self::clear_addr(regs);
                let value = regs.read(Reg::Cr1) & !cr1::ACK;
                regs.write(Reg::Cr1, value);
            });
            self.wait(sr1::BTF)?;
            buf[0] = self.regs.critical(|regs| {
                let value = regs.read(Reg::Cr1) | end;
                regs.write(Reg::Cr1, value);
                regs.read(Reg::Dr) as u8
            });
            buf[1] = self.regs.read(Reg::Dr) as u8;
        } else {
            self.cr1(cr1::ACK, cr1::POS);
            Self::clear_addr(&mut self.regs);
            let (first, last) = buf.split_at_mut(n - 3);
            for byte in first {
                self.wait(sr1::RXNE)?;
                *byte = self.regs.read(Reg::Dr) as u8;
            }
            self.wait(sr1::BTF)?;
            self.cr1(0, cr1::ACK);
            [last[0], last[1]] = self.regs.critical(|regs| {
                let byte = regs.read(Reg::Dr) as u8;
                let value = regs.read(Reg::Cr1) | end;
                regs.write(Reg::Cr1, value);
                [byte, regs.read(Reg::Dr) as u8]
            });
            self.wait(sr1::RXNE)?;
            last[2] = self.regs.read(Reg::Dr) as u8;
        }
        Ok(())
    }

    /// The address in the write direction (START unless the previous read asked for
    /// it), ADDR cleared: the bytes follow ([`Master::send`]).
    fn start_write(&mut self, address: u8, start_requested: bool) -> Result<(), ErrorKind> {
        self.address(address << 1, start_requested)?;
        Self::clear_addr(&mut self.regs);
        Ok(())
    }

    /// Sends `bytes` after [`Master::start_write`]; whether any was sent.
    fn send(&mut self, bytes: &[u8]) -> Result<bool, ErrorKind> {
        for &byte in bytes {
            self.wait(sr1::TXE)?;
            self.regs.write(Reg::Dr, u16::from(byte));
        }
        Ok(!bytes.is_empty())
    }

    /// Ends a write: the last byte out (BTF, if one was sent), then `end` (STOP, or
    /// START for a repeated start).
    fn end_write(&mut self, wrote: bool, end: u16) -> Result<(), ErrorKind> {
        if wrote {
            self.wait(sr1::BTF)?;
        }
        self.cr1(end, 0);
        Ok(())
    }

    /// The address in the read direction, then [`Master::receive`].
    fn read_from(
        &mut self,
        address: u8,
        buf: &mut [u8],
        start_requested: bool,
        end: u16,
    ) -> Result<(), ErrorKind> {
        self.address(address << 1 | 1, start_requested)?;
        self.receive(buf, end)
    }

    /// Ends a transfer that failed: after a NACK a STOP, after another error the
    /// peripheral is reset. Returns `result`.
    fn finish(&mut self, result: Result<(), ErrorKind>) -> Result<(), ErrorKind> {
        match result {
            Err(ErrorKind::NoAcknowledge(_)) => self.cr1(cr1::STOP, 0),
            Err(_) => self.regs.reset(),
            Ok(()) => self.lost = 0,
        }
        result
    }

    /// `write` (`buf` empty) and `write_read` in one: the bytes, then (unless `buf` is
    /// empty) a repeated START and the read, then STOP; the transfer ended as
    /// [`Master::finish`] says.
    fn write_then_read(
        &mut self,
        address: u8,
        bytes: &[u8],
        buf: &mut [u8],
    ) -> Result<(), ErrorKind> {
        let read = !buf.is_empty();
        self.back_off();
        let result = (|| {
            self.wait(0)?;
            self.start_write(address, false)?;
            let wrote = self.send(bytes)?;
            self.end_write(wrote, if read { cr1::START } else { cr1::STOP })?;
            if read {
                self.read_from(address, buf, true, cr1::STOP)?;
            }
            Ok(())
        })();
        self.finish(result)
    }

    /// The operations on the bus (see the module documentation); on an error the
    /// caller ends the transfer.
    fn run(&mut self, address: u8, operations: &mut [Operation<'_>]) -> Result<(), ErrorKind> {
        // A STOP still being sent (the previous transfer's) must end first.
        self.wait(0)?;
        let mut start_requested = false;
        let mut writing = false;
        let mut wrote = false;
        for i in 0..operations.len() {
            // What follows this operation: STOP at the end, else a repeated START at
            // a change of direction.
            let next = operations
                .get(i + 1)
                .map(|op| matches!(op, Operation::Read(_)));
            let end = if next.is_none() {
                cr1::STOP
            } else {
                cr1::START
            };
            match &mut operations[i] {
                Operation::Write(bytes) => {
                    if !writing {
                        self.start_write(address, start_requested)?;
                        writing = true;
                        wrote = false;
                    }
                    wrote |= self.send(bytes)?;
                    if next != Some(false) {
                        self.end_write(wrote, end)?;
                        writing = false;
                    }
                }
                Operation::Read(buf) => self.read_from(address, buf, start_requested, end)?,
            }
            start_requested = next.is_some();
        }
        Ok(())
    }
}

impl<R: Registers> ErrorType for Master<R> {
    type Error = ErrorKind;
}

impl<R: Registers> I2c for Master<R> {
    /// Runs the operations (see the module documentation). After a NACK the transfer
    /// ends with a STOP; after another error the peripheral is reset.
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), ErrorKind> {
        // Refused before the bus is touched: two reads in a row, an empty read.
        let mut previous_read = false;
        for op in operations.iter() {
            if let Operation::Read(buf) = op {
                if previous_read || buf.is_empty() {
                    return Err(ErrorKind::Other);
                }
            }
            previous_read = matches!(op, Operation::Read(_));
        }
        self.back_off();
        let result = self.run(address, operations);
        self.finish(result)
    }

    /// As `transaction` with one write, on the same steps without the list (the
    /// sensors' and multiplexers' writes: the firmware links no operation list).
    fn write(&mut self, address: u8, bytes: &[u8]) -> Result<(), ErrorKind> {
        self.write_then_read(address, bytes, &mut [])
    }

    /// As `transaction` with a write and a read (refused before the bus is touched
    /// when `buf` is empty), on the same steps without the list.
    fn write_read(&mut self, address: u8, bytes: &[u8], buf: &mut [u8]) -> Result<(), ErrorKind> {
        if buf.is_empty() {
            return Err(ErrorKind::Other);
        }
        self.write_then_read(address, bytes, buf)
    }
}
