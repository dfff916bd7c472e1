//! Nine TCS34725 colour sensors behind two TCA9548A I2C multiplexers.
//!
//! Every TCS34725 answers at the fixed address 0x29, so each sits on its own
//! multiplexer channel. A TCA9548A has eight channels: the ninth sensor hangs on a
//! second multiplexer at 0x71. Both multiplexers share one bus, so if both had a
//! channel on, two sensors would answer at 0x29 at once and collide.
//!
//! The `xca9548a` driver caches the channel mask it last wrote and skips the write
//! when it thinks the channel is already on; it cannot know about the other
//! multiplexer. This bank therefore never relies on that cache: before each access
//! it switches the *other* multiplexer off, then writes the wanted channel mask to
//! the right one (a fresh driver each time, so the write always happens), and only
//! then talks to the sensor through the real `tcs3472` driver.

use super::hw::Rgbc;
use crate::Square;
use embedded_hal::i2c::{ErrorKind, I2c};
use tcs3472::{RgbCGain, Tcs3472};
use xca9548a::{SlaveAddr, Xca9548a};

/// One of the two multiplexers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mux {
    /// The first TCA9548A, address 0x70 (A2..A0 low).
    A,
    /// The second TCA9548A, address 0x71 (A0 high).
    B,
}

impl Mux {
    /// Both multiplexers.
    pub const ALL: [Mux; 2] = [Mux::A, Mux::B];

    /// The 7-bit bus address.
    pub const fn address(self) -> u8 {
        match self {
            Mux::A => 0x70,
            Mux::B => 0x71,
        }
    }

    /// The other multiplexer.
    pub const fn other(self) -> Mux {
        match self {
            Mux::A => Mux::B,
            Mux::B => Mux::A,
        }
    }

    fn slave_addr(self) -> SlaveAddr {
        match self {
            Mux::A => SlaveAddr::Default,
            Mux::B => SlaveAddr::Alternative(false, false, true),
        }
    }
}

/// The TCS34725's fixed bus address.
pub const SENSOR_ADDRESS: u8 = 0x29;

/// Where one sensor is wired: a multiplexer and one of its channels (0..=7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Channel {
    /// The multiplexer.
    pub mux: Mux,
    /// The channel, 0..=7.
    pub channel: u8,
}

/// Which multiplexer channel serves each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wiring {
    channels: [Channel; 9],
}

/// A wiring that cannot work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum WiringError {
    /// A channel number above 7.
    NoSuchChannel(Square),
    /// Two squares on the same channel.
    Shared(Square, Square),
}

impl Wiring {
    /// Squares 0..=7 on channels 0..=7 of multiplexer A, square 8 on channel 0 of B.
    pub const DEFAULT: Wiring = {
        let mut channels = [Channel {
            mux: Mux::A,
            channel: 0,
        }; 9];
        let mut i = 0;
        while i < 8 {
            channels[i].channel = i as u8;
            i += 1;
        }
        channels[8].mux = Mux::B;
        Wiring { channels }
    };

    /// A wiring, checked: channels 0..=7, no channel used twice.
    ///
    /// ```
    /// use tictable::device::sensors::{Channel, Mux, Wiring, WiringError};
    /// use tictable::Square;
    /// let c = |mux, channel| Channel { mux, channel };
    /// let mut ch = [c(Mux::A, 0); 9];
    /// assert_eq!(Wiring::new(ch), Err(WiringError::Shared(Square::ALL[0], Square::ALL[1])));
    /// for i in 0..9 { ch[i] = c(if i < 5 { Mux::A } else { Mux::B }, i as u8 % 5); }
    /// assert!(Wiring::new(ch).is_ok());
    /// ```
    pub fn new(channels: [Channel; 9]) -> Result<Wiring, WiringError> {
        for (i, c) in channels.iter().enumerate() {
            if c.channel > 7 {
                return Err(WiringError::NoSuchChannel(Square::ALL[i]));
            }
            for (j, d) in channels.iter().enumerate().skip(i + 1) {
                if c == d {
                    return Err(WiringError::Shared(Square::ALL[i], Square::ALL[j]));
                }
            }
        }
        Ok(Wiring { channels })
    }

    /// The channel of `square`.
    pub const fn channel(&self, square: Square) -> Channel {
        self.channels[square.index() as usize]
    }
}

impl Default for Wiring {
    fn default() -> Wiring {
        Wiring::DEFAULT
    }
}

/// Sensor configuration written at start-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorSettings {
    /// Integration cycles, 1..=256 (2.4 ms each).
    pub integration_cycles: u16,
    /// Analogue gain.
    pub gain: RgbCGain,
    /// Attempts per read before a read counts as failed (at least 1).
    pub attempts: u8,
}

impl SensorSettings {
    /// 10 cycles (24 ms), gain 4x, 3 attempts.
    pub const DEFAULT: SensorSettings = SensorSettings {
        integration_cycles: 10,
        gain: RgbCGain::_4x,
        attempts: 3,
    };
}

impl Default for SensorSettings {
    fn default() -> SensorSettings {
        SensorSettings::DEFAULT
    }
}

/// Why a sensor access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SensorError {
    /// The bus reported an error (NACK, arbitration loss, ...).
    Bus(ErrorKind),
    /// The multiplexer driver was busy (cannot happen with one owner; kept typed).
    MuxBusy,
    /// The configuration was refused by the driver.
    InvalidSettings,
    /// The device at 0x29 is not a TCS34725/TCS34727 (its ID register).
    WrongId(u8),
}

impl core::fmt::Display for SensorError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SensorError::Bus(k) => write!(f, "I2C error: {k}"),
            SensorError::MuxBusy => f.write_str("multiplexer driver busy"),
            SensorError::InvalidSettings => f.write_str("invalid sensor settings"),
            SensorError::WrongId(id) => write!(f, "unexpected sensor ID {id:#04x}"),
        }
    }
}

impl core::error::Error for SensorError {}

impl core::fmt::Display for WiringError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WiringError::NoSuchChannel(s) => {
                write!(f, "square {}: no such multiplexer channel", s.index() + 1)
            }
            WiringError::Shared(a, b) => write!(
                f,
                "squares {} and {} on the same channel",
                a.index() + 1,
                b.index() + 1
            ),
        }
    }
}

impl core::error::Error for WiringError {}

fn mux_error<E: embedded_hal::i2c::Error>(e: xca9548a::Error<E>) -> SensorError {
    match e {
        xca9548a::Error::I2C(e) => SensorError::Bus(e.kind()),
        xca9548a::Error::CouldNotAcquireDevice => SensorError::MuxBusy,
    }
}

fn sensor_error<E: embedded_hal::i2c::Error>(e: tcs3472::Error<E>) -> SensorError {
    match e {
        tcs3472::Error::I2C(e) => SensorError::Bus(e.kind()),
        tcs3472::Error::InvalidInputData => SensorError::InvalidSettings,
    }
}

/// ID register values of the TCS34725 and TCS34727.
pub const SENSOR_IDS: [u8; 2] = [0x44, 0x4D];

/// The nine sensors: owns the bus, a wiring and the settings.
#[derive(Debug)]
pub struct SensorBank<I2C> {
    i2c: I2C,
    wiring: Wiring,
    settings: SensorSettings,
}

impl<I2C: I2c> SensorBank<I2C> {
    /// A bank on `i2c`. Nothing is sent until [`SensorBank::init`] or a read.
    pub fn new(i2c: I2C, wiring: Wiring, settings: SensorSettings) -> SensorBank<I2C> {
        SensorBank {
            i2c,
            wiring,
            settings,
        }
    }

    /// Gives the bus back.
    pub fn destroy(self) -> I2C {
        self.i2c
    }

    /// The settings.
    pub fn settings(&self) -> SensorSettings {
        self.settings
    }

    /// Writes the channel mask of `mux` through a fresh `xca9548a` driver (so the
    /// write always happens, whatever the driver cached).
    fn select_channels(&mut self, mux: Mux, mask: u8) -> Result<(), SensorError> {
        Xca9548a::new(&mut self.i2c, mux.slave_addr())
            .select_channels(mask)
            .map_err(mux_error)
    }

    /// Switches the other multiplexer off, then on the channel of `square`.
    fn select(&mut self, square: Square) -> Result<(), SensorError> {
        let ch = self.wiring.channel(square);
        self.select_channels(ch.mux.other(), 0)?;
        self.select_channels(ch.mux, 1 << ch.channel)
    }

    /// Runs `f` on the sensor of `square` with exactly one channel of one multiplexer
    /// on: the other multiplexer is switched off first. The multiplexer passes the
    /// sensor's transactions through unchanged, so the `tcs3472` driver talks on the
    /// bus itself once the channel is on.
    fn with_sensor<R>(
        &mut self,
        square: Square,
        f: impl FnOnce(&mut Tcs3472<&mut I2C>) -> Result<R, tcs3472::Error<I2C::Error>>,
    ) -> Result<R, SensorError> {
        self.select(square)?;
        f(&mut Tcs3472::new(&mut self.i2c)).map_err(sensor_error)
    }

    /// Checks the ID of the sensor of `square` and configures it: integration time,
    /// gain, power on, RGBC on.
    pub fn init_square(&mut self, square: Square) -> Result<(), SensorError> {
        let s = self.settings;
        let id = self.with_sensor(square, |t| t.read_device_id())?;
        if !SENSOR_IDS.contains(&id) {
            return Err(SensorError::WrongId(id));
        }
        self.with_sensor(square, |t| {
            t.set_integration_cycles(s.integration_cycles)?;
            t.set_rgbc_gain(s.gain)?;
            t.enable()?;
            t.enable_rgbc()
        })
    }

    /// Initialises all nine sensors, each retried up to the configured number of
    /// attempts; the first square that still fails is named.
    pub fn init(&mut self) -> Result<(), (Square, SensorError)> {
        for &s in Square::ALL.iter() {
            self.retry(s, true).map_err(|e| (s, e))?;
        }
        Ok(())
    }

    /// One read of the four channels of `square`'s sensor, no retry.
    pub fn read_once(&mut self, square: Square) -> Result<Rgbc, SensorError> {
        self.with_sensor(square, |t| t.read_all_channels())
            .map(Rgbc::from)
    }

    /// Reads `square`, retrying bus errors up to the configured number of attempts;
    /// the last error when all fail.
    pub fn read(&mut self, square: Square) -> Result<Rgbc, SensorError> {
        self.retry(square, false)
    }

    /// [`SensorBank::init_square`] (`init`, giving a zero reading) or
    /// [`SensorBank::read_once`], up to the configured number of attempts; the last
    /// error when all fail. One retry loop for both.
    fn retry(&mut self, square: Square, init: bool) -> Result<Rgbc, SensorError> {
        let mut tries = self.settings.attempts.max(1);
        loop {
            let r = if init {
                self.init_square(square).map(|()| Rgbc::default())
            } else {
                self.read_once(square)
            };
            match r {
                Ok(r) => return Ok(r),
                Err(e) => {
                    tries -= 1;
                    if tries == 0 {
                        return Err(e);
                    }
                }
            }
        }
    }
}
