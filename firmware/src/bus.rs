//! I2C1 (PB6 SCL, PB7 SDA) to the sensor multiplexers, with bus recovery: a slave
//! reset mid-transfer (a brown-out, a loose wire) can hold SDA low for ever, and the
//! STM32F1's I2C can lock its BUSY flag (errata ES096 2.13.7). [`SensorBus`] frees the
//! bus on request ([`BusRecovery`]).

use crate::clock::Dwt;
use crate::pulse::{wait_since, CycleCounter};
use crate::regs;
use embedded_hal::i2c::{ErrorType, I2c, Operation, SevenBitAddress};
use stm32f1xx_hal::i2c::{BlockingI2c, Error};
use stm32f1xx_hal::pac::I2C1;

/// An I2C bus that can free itself when a slave holds SDA low (9 SCL clocks, STOP, peripheral re-init).
// TODO(lead): the same definition as the library's `tictable::device::sensors::BusRecovery`
// (helper "sensors"); once it is merged, use that one and delete this copy.
pub trait BusRecovery {
    /// Frees the bus; `true` when SDA reads high afterwards (the bus is usable again).
    fn recover_bus(&mut self) -> bool;
}

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

    /// Waits half a period of a 100 kHz clock (5 µs).
    fn half_period(&self) {
        wait_since::<Dwt>(Dwt::cycles(), 5 * self.per_us);
    }

    /// Sets (`high`) or pulls low (open drain) the lines in `lines`, then waits half
    /// a clock period.
    fn drive(&self, lines: u32, high: bool) {
        regs::set_reset(regs::gpiob(), if high { lines } else { lines << 16 });
        self.half_period();
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
        self.drive(SCL | SDA, true);
        regs::set_crl(port, FIELDS, OPEN_DRAIN);
        let sda_high = || port.idr().read().bits() & SDA != 0;
        for _ in 0..9 {
            if sda_high() {
                break;
            }
            self.drive(SCL, false);
            self.drive(SCL, true);
        }
        // STOP: SCL low, SDA low, SCL high, SDA high.
        self.drive(SCL, false);
        self.drive(SDA, false);
        self.drive(SCL, true);
        self.drive(SDA, true);
        let free = sda_high();
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
