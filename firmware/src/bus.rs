//! I2C1 (PB6 SCL, PB7 SDA, 100 kHz) to the sensor multiplexers: the register-level
//! master of `i2c.rs` on the chip's peripheral, with bus recovery. A slave reset
//! mid-transfer (a brown-out, a loose wire) can hold SDA low for ever, and the STM32F1's
//! I2C can lock its BUSY flag (errata ES096 §2.8.7). [`SensorBus`] frees the bus on
//! request ([`BusRecovery`]).

use crate::i2c::{Master, Reg, Registers};
use crate::pulse::wait_since;
use crate::startup::ClockSource;
use crate::{clock::Dwt, pulse::CycleCounter, regs};
use stm32f1xx_hal::pac::I2C1;

use tictable_machine::bus_recovery::{free_bus, unlock_filter, OpenDrainLines};
pub use tictable_machine::sensors::BusRecovery;

/// The sensors' bus: the polled master on I2C1.
pub type SensorBus = Master<I2c1>;

/// SCL is PB6, SDA PB7: their bits in GPIOB.
const SCL: u32 = 1 << 6;
const SDA: u32 = 1 << 7;
/// CNF/MODE of a pin (RM0008 §9.2.1): the I2C's alternate-function open-drain output
/// at 2 MHz (CNF 11, MODE 10; the pin table in `board.rs` sets PB6/PB7 to it), and the
/// recovery's general-purpose open-drain output (CNF 01, MODE 10).
pub(crate) const AF_OPEN_DRAIN: u32 = 0xE;
const GPIO_OPEN_DRAIN: u32 = 0x6;
/// PB6/PB7's fields in GPIOB_CRL, and their values in either mode.
const I2C_PINS: u32 = 0xFF << 24;
const I2C_PINS_AF: u32 = (AF_OPEN_DRAIN * 0x11) << 24;
const I2C_PINS_GPIO: u32 = (GPIO_OPEN_DRAIN * 0x11) << 24;

/// I2C1's registers, its clock (APB1) and the core clock's cycles per µs.
pub struct I2c1 {
    i2c: I2C1,
    /// APB1 clock, MHz (the peripheral's FREQ).
    pclk1_mhz: u16,
    /// Core cycles per µs (the recovery's bit-banged clock).
    per_us: u32,
}

impl I2c1 {
    /// I2C1 with its clock switched on, at the configured clocks; the [`Master`]
    /// resets and configures it. (The clock enable goes through `regs`, as the
    /// reset does: the HAL's `Enable` costs more flash.)
    pub fn new(i2c: I2C1, clock: ClockSource) -> I2c1 {
        regs::rcc().apb1enr().modify(|_, w| w.i2c1en().set_bit());
        I2c1 {
            i2c,
            pclk1_mhz: (clock.mhz() / 2) as u16,
            per_us: clock.mhz(),
        }
    }
}

/// The raw register writes: every value written is one RM0008 allows (CR1: PE with
/// START, STOP, ACK, POS; SR1: zeros to clear error flags; DR: a byte; the timing
/// registers from the clock).
#[allow(unsafe_code)]
impl Registers for I2c1 {
    fn read(&mut self, reg: Reg) -> u16 {
        match reg {
            Reg::Cr1 => self.i2c.cr1().read().bits(),
            Reg::Sr1 => self.i2c.sr1().read().bits(),
            Reg::Sr2 => self.i2c.sr2().read().bits(),
            Reg::Dr => self.i2c.dr().read().bits(),
        }
    }

    fn write(&mut self, reg: Reg, value: u16) {
        // SAFETY: see the impl's documentation.
        match reg {
            Reg::Cr1 => {
                self.i2c.cr1().write(|w| unsafe { w.bits(value) });
            }
            Reg::Sr1 => {
                self.i2c.sr1().write(|w| unsafe { w.bits(value) });
            }
            Reg::Sr2 => {}
            Reg::Dr => {
                self.i2c.dr().write(|w| w.dr().set(value as u8));
            }
        }
    }

    fn cycles(&mut self) -> u32 {
        Dwt::cycles()
    }

    fn critical<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        cortex_m::interrupt::free(|_| f(self))
    }

    /// Resets I2C1 through RCC_APB1RSTR and configures standard mode at 100 kHz
    /// (RM0008 §26.6: FREQ = APB1 in MHz, CCR = APB1 / 200 kHz, TRISE = 1000 ns of
    /// APB1 + 1), then enables it.
    fn reset(&mut self) {
        let rcc = regs::rcc();
        rcc.apb1rstr().modify(|_, w| w.i2c1rst().set_bit());
        rcc.apb1rstr().modify(|_, w| w.i2c1rst().clear_bit());
        let mhz = self.pclk1_mhz;
        // SAFETY: FREQ is 4, 32 or 36 (2..=36 allowed), CCR 20, 160 or 180 (≥ 4), TRISE
        // 5, 33 or 37.
        self.i2c
            .cr2()
            .write(|w| unsafe { w.freq().bits(mhz as u8) });
        self.i2c.ccr().write(|w| unsafe { w.ccr().bits(mhz * 5) });
        self.i2c.trise().write(|w| w.trise().set(mhz as u8 + 1));
        self.i2c.cr1().write(|w| w.pe().set_bit());
    }
}

impl BusRecovery for SensorBus {
    /// After an arbitration loss with SDA reading high, nothing: the bus is free
    /// (the master's back-off spaces the next transfers out). Otherwise the
    /// recovery of the I2C specification (UM10204 §3.1.16) and the errata's
    /// workaround for a locked BUSY (ES096 §2.8.7), in one call: I2C1 disabled (PE
    /// clear), PB6/PB7 become open-drain outputs (released high), then up to 9 clock
    /// pulses each ending in a STOP (`free_bus`, Linux's `i2c_generic_scl_recovery`)
    /// until SDA reads high, then the erratum's START and STOP (`unlock_filter`); the
    /// pins go back to the peripheral, SWRST is set and cleared, and I2C1 is reset
    /// through RCC_APB1RSTR and configured again. Only PB6/PB7's fields of GPIOB_CRL
    /// change (see `regs`).
    fn recover_bus(&mut self) -> bool {
        let port = regs::gpiob();
        // Arbitration lost with SDA free: nothing holds the bus (another master or
        // noise won a bit); the master's back-off in time is the cure, clocks are not.
        if self.arbitration_lost() && regs::gpiob().idr().read().bits() & SDA != 0 {
            return true;
        }
        let i2c1 = self.registers();
        i2c1.write(Reg::Cr1, 0);
        // Latches high (released) before the pins become open-drain outputs.
        regs::set_reset(port, SCL | SDA);
        regs::set_crl(port, I2C_PINS, I2C_PINS_GPIO);
        let mut pins = Pins {
            per_us: i2c1.per_us,
        };
        let free = free_bus(&mut pins) && unlock_filter(&mut pins);
        regs::set_crl(port, I2C_PINS, I2C_PINS_AF);
        i2c1.write(Reg::Cr1, 1 << 15);
        i2c1.write(Reg::Cr1, 0);
        i2c1.reset();
        #[cfg(feature = "defmt")]
        defmt::warn!("I2C bus recovery: SDA {=bool}", free);
        free
    }
}

/// PB6 (SCL) and PB7 (SDA) as open-drain outputs, with 5 µs half periods (100 kHz).
struct Pins {
    /// Core cycles per µs.
    per_us: u32,
}

impl Pins {
    /// Releases or pulls low `line`, then waits 5 µs.
    fn drive(&mut self, line: u32, released: bool) {
        let port = regs::gpiob();
        regs::set_reset(port, if released { line } else { line << 16 });
        wait_since::<Dwt>(Dwt::cycles(), 5 * self.per_us);
    }
}

impl OpenDrainLines for Pins {
    fn set_scl(&mut self, released: bool) {
        self.drive(SCL, released);
    }

    fn set_sda(&mut self, released: bool) {
        self.drive(SDA, released);
    }

    fn sda_is_high(&mut self) -> bool {
        regs::gpiob().idr().read().bits() & SDA != 0
    }
}
