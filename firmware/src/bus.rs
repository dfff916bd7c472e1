//! I2C1 (PB6 SCL, PB7 SDA) to the sensor multiplexers, with bus recovery: a slave
//! reset mid-transfer (a brown-out, a loose wire) can hold SDA low for ever, and the
//! STM32F1's I2C can lock its BUSY flag (errata ES096 2.13.7). [`SensorBus`] frees the
//! bus on request ([`BusRecovery`]).

use crate::clock::Dwt;
use crate::pulse::{wait_since, CycleCounter};
use crate::recovery::{free_bus, OpenDrainLines};
use crate::regs;
use embedded_hal::i2c::{ErrorType, I2c, Operation, SevenBitAddress};
use stm32f1xx_hal::i2c::{BlockingI2c, Error};
use stm32f1xx_hal::pac::I2C1;

pub use tictable::device::sensors::BusRecovery;

/// SCL is PB6, SDA PB7: their bits in GPIOB.
const SCL: u32 = 1 << 6;
const SDA: u32 = 1 << 7;
/// Their CNF/MODE fields in GPIOB_CRL, and the general-purpose open-drain output at
/// 50 MHz (CNF 01, MODE 11; RM0008 §9.2.1) for both.
const FIELDS: u32 = 0xFF << 24;
const OPEN_DRAIN: u32 = 0x77 << 24;

/// I2C1 as the HAL's `BlockingI2c`, plus bus recovery.
pub struct SensorBus {
    i2c: BlockingI2c<I2C1>,
    /// Core cycles per µs (the bit-banged clock's timing).
    per_us: u32,
}

impl SensorBus {
    /// Wraps the configured I2C1 (on PB6/PB7); `sysclk_hz`: the core clock.
    pub fn new(i2c: BlockingI2c<I2C1>, sysclk_hz: u32) -> SensorBus {
        SensorBus {
            i2c,
            per_us: sysclk_hz.div_ceil(1_000_000),
        }
    }
}

impl BusRecovery for SensorBus {
    /// The recovery of the I2C specification (UM10204 §3.1.16) and of the errata's
    /// workaround: PB6/PB7 become open-drain outputs (released high), SCL is clocked
    /// up to 9 times until the slave lets SDA go, then a STOP (SDA rising while SCL
    /// is high); the pins go back to the peripheral, which is reset through
    /// RCC_APB1RSTR and configured again (the HAL's `reset`: the same speed and
    /// timeouts). HAL 0.11's `BlockingI2c` has no `release`, so instead of taking the
    /// pins back this switches their mode bits: `SensorBus` owns the I2C and its pins,
    /// and only PB6/PB7's fields of CRL change (see `regs`).
    fn recover_bus(&mut self) -> bool {
        let port = regs::gpiob();
        let saved = port.crl().read().bits() & FIELDS;
        // Latches high (released) before the pins become open-drain outputs.
        regs::set_reset(port, SCL | SDA);
        regs::set_crl(port, FIELDS, OPEN_DRAIN);
        let free = free_bus(&mut Pins {
            per_us: self.per_us,
        });
        regs::set_crl(port, FIELDS, saved);
        let rcc = regs::rcc();
        rcc.apb1rstr().modify(|_, w| w.i2c1rst().set_bit());
        rcc.apb1rstr().modify(|_, w| w.i2c1rst().clear_bit());
        self.i2c.reset();
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

impl ErrorType for SensorBus {
    type Error = Error;
}

impl I2c for SensorBus {
    fn read(&mut self, address: SevenBitAddress, read: &mut [u8]) -> Result<(), Error> {
        self.i2c.read(address, read)
    }

    fn write(&mut self, address: SevenBitAddress, write: &[u8]) -> Result<(), Error> {
        self.i2c.write(address, write)
    }

    fn write_read(
        &mut self,
        address: SevenBitAddress,
        write: &[u8],
        read: &mut [u8],
    ) -> Result<(), Error> {
        self.i2c.write_read(address, write, read)
    }

    /// HAL 0.11's `BlockingI2c::transaction` is `todo!()`, a panic (read in its
    /// source): the three shapes its own methods do are mapped to them, any other
    /// list of operations is refused with `Error::Bus` (which the HAL itself never
    /// returns) instead of panicking. The library and the sensor drivers use only
    /// `read`, `write` and `write_read`.
    fn transaction(
        &mut self,
        address: SevenBitAddress,
        operations: &mut [Operation<'_>],
    ) -> Result<(), Error> {
        match operations {
            [Operation::Write(write)] => self.i2c.write(address, write),
            [Operation::Read(read)] => self.i2c.read(address, read),
            [Operation::Write(write), Operation::Read(read)] => {
                self.i2c.write_read(address, write, read)
            }
            _ => Err(Error::Bus),
        }
    }
}
