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
//! then talks to the sensor: its own register transactions after the TCS34725
//! datasheet (the `tcs3472` driver has no single-transaction form of the two it
//! needs most, ENABLE = PON | AEN and STATUS with the data in one block read, and
//! fewer transactions mean fewer chances for a bus error), the driver's types for
//! the settings.
//!
//! The chip as it behaves, and what the bank does about it:
//!
//! - **Samples take time.** A TCS34725 completes a new RGBC sample once per
//!   cycle, 2.4 ms of start-up and the integration time (2.4 ms × cycles); reads in
//!   between return the same sample.
//!   STATUS bit AVALID says a sample exists. [`SensorBank::read`] takes the current
//!   time and returns a sample only when a new one is due (`WouldBlock` meanwhile),
//!   reading STATUS and the data in one block read so the two belong together.
//! - **Warm-up.** After PON the oscillator needs 2.4 ms before AEN may start the
//!   RGBC cycles: [`SensorBank::init`] powers the sensors on, and the first read
//!   at least [`WARMUP_MS`] later starts their conversions. The super-loop never waits.
//! - **Brown-out.** A sensor that lost its supply for a moment is back at its reset
//!   values (ENABLE 0x00: not integrating) and never sets AVALID: the bank notices,
//!   re-initialises that sensor and counts it ([`BankStats::reinits`]).
//! - **Stuck ADC.** A live sensor's noise makes bit-identical readings on
//!   [`STUCK_SAMPLES`] fresh samples in a row practically impossible (under the
//!   darkest piece the counts still spread over several values); a sensor that
//!   reports them is [`SensorError::Stuck`] until a different sample comes (after
//!   it is replugged): the scanner then reports its square as a sensor fault.
//!   Except at full scale: a saturated channel (too much light, a bright white
//!   piece) reads exactly [`SensorSettings::saturation`] every time, so a sample
//!   whose clear channel (unfiltered: the first to saturate) is at full scale never
//!   counts towards a stuck sensor. (A sensor that froze at full scale is then not
//!   told from a bright one; it reads as white.) At the dark end the noise is
//!   smaller than a count: with the LEDs dim, under a black piece, a live sensor
//!   reads a few dozen counts, spread by its noise over a count or two per channel,
//!   and repeats its sample exactly now and then, four in a row too. So a sample
//!   whose clear channel is at most [`DARK_COUNTS`] makes a stuck sensor only after
//!   [`STUCK_DARK_SAMPLES`] identical ones in a row (a second's samples), which
//!   such noise never gives, while a sensor frozen at such a reading gives them. And in the
//!   dark, at most [`DARK_FLOOR`] counts clear (the datasheet's dark count: the LEDs
//!   off), a live sensor may read the same counts for ever: such samples never count.
//!   A sensor that froze that dark (its data registers at 0 after a brown-out, say)
//!   is caught by the scanner instead, against the calibration: a reading far darker
//!   than the square's black piece ([`Scanner`](super::scanner::Scanner)) is a
//!   sensor fault.
//! - **Transient bus errors** are retried ([`SensorSettings::attempts`]).
//! - **A hung bus** (a slave holding SDA low, or the STM32F1's I2C locked BUSY,
//!   errata ES096 §2.13.7: every transaction fails) is freed with [`BusRecovery`]
//!   after [`RECOVER_AFTER`] such errors in a row, when the bank has a bus that can
//!   ([`SensorBank::with_recovery`]). Such errors are the ones a stuck line gives
//!   (see [`hangs_bus`]): `Bus`, `ArbitrationLoss`, and `Other`, which is what a
//!   polled master (the firmware's, `firmware/src/i2c.rs`) returns when a flag never
//!   comes. A NACK is not one: a missing or unplugged sensor that NACKs never starts
//!   a recovery. The recovery is bounded: at most one per [`RECOVER_AFTER`] failed
//!   transactions, each of which waited out the master's timeout.

pub use super::bus_recovery::BusRecovery;
use super::elapsed_ms;
use super::hw::Rgbc;
use embedded_hal::i2c::{ErrorKind, I2c};
use tcs3472::RgbCGain;
use tictable::Square;
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
    /// use tictable_machine::sensors::{Channel, Mux, Wiring, WiringError};
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

impl SensorSettings {
    /// One RGBC cycle in whole ms, rounded up: the datasheet's 2.4 ms start-up
    /// ("RGBC init") and the integration time, 2.4 ms × cycles (27 ms by default).
    #[allow(clippy::manual_div_ceil)]
    pub const fn sample_ms(&self) -> u32 {
        // 12 / 5 ms a cycle, rounded up (no overflow: at most 65 536 × 12 + 4);
        // `div_ceil` checks the remainder after the division: more flash.
        ((self.integration_cycles as u32 + 1) * 12 + 4) / 5
    }

    /// A channel's full-scale count, where it saturates: 1024 × cycles, at most
    /// 65,535 (TCS34725 datasheet, "maximum RGBC count"; 10,240 by default).
    pub const fn saturation(&self) -> u16 {
        let full = self.integration_cycles as u32 * 1024;
        if full > 65_535 {
            65_535
        } else {
            full as u16
        }
    }

    /// The time after which a read is sure to see a new sample: a cycle and an
    /// eighth (the chip's oscillator is not exact): 30 ms by default, the
    /// scanner's frame period.
    pub const fn fresh_ms(&self) -> u32 {
        let t = self.sample_ms();
        t + t / 8
    }
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
    /// The settings cannot be written (integration cycles outside 1..=256).
    InvalidSettings,
    /// The device at 0x29 is not a TCS34725/TCS34727 (its ID register).
    WrongId(u8),
    /// The sensor reported the same raw counts on [`STUCK_SAMPLES`] fresh samples in
    /// a row: its ADC is frozen.
    Stuck,
}

impl core::fmt::Display for SensorError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SensorError::Bus(k) => write!(f, "I2C error: {k}"),
            SensorError::MuxBusy => f.write_str("multiplexer driver busy"),
            SensorError::InvalidSettings => f.write_str("invalid sensor settings"),
            SensorError::WrongId(id) => write!(f, "unexpected sensor ID {id:#04x}"),
            SensorError::Stuck => f.write_str("sensor stuck (identical readings)"),
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

/// ID register values of the TCS34725 and TCS34727.
pub const SENSOR_IDS: [u8; 2] = [0x44, 0x4D];

/// Time from PON to AEN, ms: the datasheet wants at least 2.4 ms; with a
/// millisecond clock 4 ticks are more than 3 ms.
pub const WARMUP_MS: u32 = 4;

/// Fresh samples with bit-identical counts in a row that make a sensor stuck.
///
/// At most [`ScanSettings::stable_frames`](super::scanner::ScanSettings::stable_frames)
/// (4 by default): a frozen sensor then turns into a fault before its stale
/// samples alone can make a stable view (a piece put on a frozen empty square is
/// never read as a missed move). In the simulator (3 % noise) bit-identical
/// samples of a live sensor come about once in 2 000 pairs under a black piece, so
/// four in a row about once in 10^10 samples. Dim samples, at most
/// [`DARK_COUNTS`] clear, repeat far more often: [`STUCK_DARK_SAMPLES`].
pub const STUCK_SAMPLES: u8 = 4;

/// The clear-channel count at or below which a sample is dim: it makes a stuck
/// sensor only after [`STUCK_DARK_SAMPLES`] identical ones (see the module
/// documentation). Below 128 counts clear the dimmest channel (about a third of it)
/// spreads over a count or two with noise of a few percent, and a live sensor repeats
/// its sample exactly now and then; a lit board's darkest reading, a black piece, is
/// above it (208 counts clear at the least in the simulator's optics,
/// `tictable_machine::sim::tcs`), a dim board's (the LEDs at 0.21) below it.
pub const DARK_COUNTS: u16 = 127;

/// Bit-identical dim samples ([`DARK_COUNTS`]) in a row that make a sensor stuck:
/// 32, about a second (30 ms a sample). In the simulator, with the LEDs at 0.21, a
/// live sensor under a black piece reads 44 to 68 counts clear, 13 to 21 blue, and
/// repeats a whole sample with a chance of at most about 0.4 (the clear channel
/// spreads over 2.6 counts or more; the others may not spread at all): 32 in a row
/// come about once in 10^12 samples (in 1000 such games, 605,259 samples, the
/// longest run was 8: the ignored test
/// `a_thousand_games_with_dim_leds_and_no_false_stuck_sensor` checks it stays
/// under 16). A sensor frozen at such a reading (between
/// half the square's black reference, which the scanner catches, and
/// [`DARK_COUNTS`]) gives them for sure. Longer than the scanner's stable view
/// ([`STUCK_SAMPLES`] is not): a sensor frozen dim shows its last reading, a black
/// piece, for up to 32 samples before it is a fault, and the scanner reads only
/// while the machine checks the board, a few frames at a time, so over a few checks.
/// (A piece taken off such a square meanwhile is not seen to go.)
pub const STUCK_DARK_SAMPLES: u8 = 32;

/// The clear-channel count at or below which a sample never counts towards a stuck
/// sensor: the dark, where a live sensor may read the same counts for ever. The
/// TCS3472 datasheet's "Dark ADC count value" at its maximum (ams, v1-03,
/// 2018-03-14, figure 9, "RGBC characteristics": Ee = 0, AGAIN = 60x, ATIME = 0xD6
/// (100 ms): 0 min, 1 typ, 5 max counts; at the firmware's 4x and 24 ms less, so
/// this bound holds at any setting). A sensor that froze that dark is told by the
/// scanner from the calibration (a reading under half the square's black reference,
/// clear channel, is a fault: no live sensor over its calibrated square reads that
/// dark).
pub const DARK_FLOOR: u16 = 5;

/// Errors of a stuck bus ([`hangs_bus`]) in a row before the bank frees the bus
/// with [`BusRecovery::recover_bus`].
pub const RECOVER_AFTER: u8 = 2;

/// Whether a bus error is one that a stuck line gives, so that a bus recovery may
/// cure it: a bus error, an arbitration loss (the master sees SDA low where it sent
/// a high bit), or `Other`, a polled master's timeout (a flag that never comes: SB
/// with SDA held low, or the BUSY lock). A NACK is an answer, not a stuck bus.
///
/// ```
/// use embedded_hal::i2c::{ErrorKind, NoAcknowledgeSource};
/// use tictable_machine::sensors::hangs_bus;
/// assert!(hangs_bus(ErrorKind::Other));
/// assert!(!hangs_bus(ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address)));
/// ```
pub fn hangs_bus(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::Bus | ErrorKind::ArbitrationLoss | ErrorKind::Other
    )
}

/// TCS34725 command byte: the command bit, the auto-increment protocol.
const CMD: u8 = 0x80;
const AUTO: u8 = 0x20;
/// TCS34725 registers: ENABLE, CONTROL (gain), ID, STATUS (then the data).
const REG_ENABLE: u8 = 0x00;
const REG_CONTROL: u8 = 0x0F;
const REG_ID: u8 = 0x12;
const REG_STATUS: u8 = 0x13;
/// ENABLE bits: power on, RGBC enable.
const PON: u8 = 0x01;
const AEN: u8 = 0x02;
/// STATUS bit: a sample is valid (an RGBC cycle completed since AEN).
const AVALID: u8 = 0x01;

/// How far a sensor has come since the bank last configured it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Not configured (or lost its configuration): needs an init.
    #[default]
    Off,
    /// Configured and powered on (PON) at a time not yet known.
    Waking,
    /// Powered on (PON) at `at`: RGBC starts once the warm-up is over.
    Powered,
    /// Converting since `at` (AEN), or its last sample was taken at `at`.
    Running,
}

/// What the bank knows about one sensor.
#[derive(Clone, Copy, Debug, Default)]
struct Track {
    phase: Phase,
    /// When the phase began, or the last sample was taken (see [`Phase`]).
    at: u32,
    /// The last sample, as the sensor sent it (CDATAL..BDATAH: compared as one
    /// 64-bit word).
    last: [u8; 8],
    /// Fresh samples in a row equal to `last` (saturating).
    same: u8,
}

/// Counts with feature `sim-core` only (the firmware saves the flash).
macro_rules! stat {
    ($($t:tt)*) => {
        #[cfg(feature = "sim-core")]
        {
            $($t)*;
        }
    };
}

/// Recovery counters of a [`SensorBank`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BankStats {
    /// Sensors re-initialised after losing their configuration (a brown-out).
    pub reinits: u32,
    /// Times a sensor became stuck (frozen readings).
    pub stuck: u32,
    /// Bus recoveries ([`BusRecovery::recover_bus`]) performed.
    pub recoveries: u32,
    /// The longest run of bit-identical fresh samples of one sensor that could count
    /// towards a stuck sensor (neither dark nor saturated), stuck ones included.
    pub longest_repeat: u8,
}

/// One bus operation on a selected sensor (one retry loop for all of them).
#[derive(Clone, Copy)]
enum Op {
    /// Check the ID, configure, power on.
    Init,
    /// Start the RGBC cycles (PON | AEN), with the settings again.
    Enable,
    /// Read STATUS and the four channels in one block.
    Read,
}

/// The nine sensors: owns the bus, a wiring and the settings.
#[derive(Debug)]
pub struct SensorBank<I2C> {
    i2c: I2C,
    wiring: Wiring,
    settings: SensorSettings,
    track: [Track; 9],
    /// Bus errors in a row (see [`RECOVER_AFTER`]).
    bus_errors: u8,
    /// Frees the bus, when it can ([`SensorBank::with_recovery`]).
    recover: Option<fn(&mut I2C) -> bool>,
    #[cfg(feature = "sim-core")]
    stats: BankStats,
}

impl<I2C: I2c> SensorBank<I2C> {
    /// A bank on `i2c`. Nothing is sent until [`SensorBank::init`] or a read.
    pub fn new(i2c: I2C, wiring: Wiring, settings: SensorSettings) -> SensorBank<I2C> {
        SensorBank {
            i2c,
            wiring,
            settings,
            track: [Track::default(); 9],
            bus_errors: 0,
            recover: None,
            #[cfg(feature = "sim-core")]
            stats: BankStats::default(),
        }
    }

    /// The same bank, freeing a hung bus with [`BusRecovery::recover_bus`] after
    /// [`RECOVER_AFTER`] bus errors in a row (without it a hung bus stays hung and
    /// every sensor ends as a fault).
    pub fn with_recovery(mut self) -> SensorBank<I2C>
    where
        I2C: BusRecovery,
    {
        self.recover = Some(<I2C as BusRecovery>::recover_bus);
        self
    }

    /// Gives the bus back.
    pub fn destroy(self) -> I2C {
        self.i2c
    }

    /// The settings.
    pub fn settings(&self) -> SensorSettings {
        self.settings
    }

    /// The recovery counters.
    /// (Feature `sim-core`: the firmware does without.)
    #[cfg(feature = "sim-core")]
    pub fn stats(&self) -> BankStats {
        self.stats
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
        for (mux, mask) in [(ch.mux.other(), 0), (ch.mux, 1 << ch.channel)] {
            self.select_channels(mux, mask)?;
        }
        Ok(())
    }

    /// One attempt of `op` on the sensor of `square`, with exactly one channel of
    /// one multiplexer on (the other multiplexer is switched off first); the block
    /// read's bytes into `buf` for [`Op::Read`].
    fn attempt(&mut self, square: Square, op: Op, buf: &mut [u8; 9]) -> Result<(), SensorError> {
        let s = self.settings;
        self.select(square)?;
        let i2c = &mut self.i2c;
        let bus = |e: I2C::Error| SensorError::Bus(embedded_hal::i2c::Error::kind(&e));
        if let Op::Read = op {
            return i2c
                .write_read(SENSOR_ADDRESS, &[CMD | AUTO | REG_STATUS], buf)
                .map_err(bus);
        }
        let enable = if let Op::Init = op {
            i2c.write_read(SENSOR_ADDRESS, &[CMD | REG_ID], &mut buf[..1])
                .map_err(bus)?;
            if buf[0] != SENSOR_IDS[0] && buf[0] != SENSOR_IDS[1] {
                return Err(SensorError::WrongId(buf[0]));
            }
            PON
        } else {
            PON | AEN
        };
        if !(1..=256).contains(&s.integration_cycles) {
            return Err(SensorError::InvalidSettings);
        }
        // ENABLE and ATIME in one auto-increment write, then the gain (CONTROL's
        // AGAIN field: 0 = 1x, 1 = 4x, 2 = 16x, 3 = 60x, the enum's order). Init
        // powers on (PON); AEN, after the warm-up, writes the settings again: a
        // sensor that browned out since (during homing, say) would otherwise
        // convert at its reset settings (2.4 ms, gain 1x) with AVALID set.
        let atime = (256 - s.integration_cycles) as u8;
        let enable = [CMD | AUTO | REG_ENABLE, enable, atime];
        for bytes in [&enable[..], &[CMD | REG_CONTROL, s.gain as u8]] {
            i2c.write(SENSOR_ADDRESS, bytes).map_err(bus)?;
        }
        Ok(())
    }

    /// `op` on `square` up to `tries` times (at least once); the last error when
    /// all fail. Bus errors in a row free the bus (see [`RECOVER_AFTER`]).
    fn retry(
        &mut self,
        square: Square,
        op: Op,
        tries: u8,
        buf: &mut [u8; 9],
    ) -> Result<(), SensorError> {
        let mut tries = tries.max(1);
        loop {
            let e = match self.attempt(square, op, buf) {
                Ok(()) => {
                    self.bus_errors = 0;
                    return Ok(());
                }
                Err(e) => e,
            };
            if matches!(e, SensorError::Bus(k) if hangs_bus(k)) {
                self.bus_errors += 1;
                if let (Some(recover), true) = (self.recover, self.bus_errors >= RECOVER_AFTER) {
                    self.bus_errors = 0;
                    stat!(self.stats.recoveries += 1);
                    // Whether SDA came free shows in the next attempt.
                    recover(&mut self.i2c);
                }
            } else {
                self.bus_errors = 0;
            }
            tries -= 1;
            if tries == 0 {
                return Err(e);
            }
        }
    }

    /// Checks the ID of the sensor of `square`, configures it (integration time,
    /// gain) and powers it on (PON), one attempt. Its RGBC cycles start with the
    /// first [`SensorBank::read`] after the warm-up.
    pub fn init_square(&mut self, square: Square) -> Result<(), SensorError> {
        self.attempt(square, Op::Init, &mut [0; 9])?;
        self.track[square.index() as usize].phase = Phase::Waking;
        Ok(())
    }

    /// Initialises every sensor not yet initialised (see [`SensorBank::init_square`]),
    /// each tried up to three times the configured attempts; the first square that
    /// still fails is named. Sensors that succeeded stay initialised: calling it
    /// again goes on with the others (a start-up that waits for a sensor makes
    /// progress on every call).
    pub fn init(&mut self) -> Result<(), (Square, SensorError)> {
        let mut first = Ok(());
        for &s in Square::ALL.iter() {
            if self.track[s.index() as usize].phase != Phase::Off {
                continue;
            }
            let tries = self.settings.attempts.saturating_mul(3);
            let r = self.retry(s, Op::Init, tries, &mut [0; 9]);
            match r {
                Ok(_) => self.track[s.index() as usize].phase = Phase::Waking,
                Err(e) => {
                    if first.is_ok() {
                        first = Err((s, e));
                    }
                }
            }
        }
        first
    }

    /// One block read of STATUS and the four channels of `square`'s sensor, no
    /// retry: `None` when AVALID is clear (no sample since RGBC started).
    pub fn read_once(&mut self, square: Square) -> Result<Option<Rgbc>, SensorError> {
        let mut buf = [0; 9];
        self.attempt(square, Op::Read, &mut buf)?;
        Ok(sample_bytes(&buf).map(rgbc))
    }

    /// A new sample of `square` at `now_ms`: `WouldBlock` until one is due (the
    /// sensor is warming up, starting, or no new sample completed since the last
    /// read), an error when every attempt failed or the sensor is stuck. Drives the
    /// sensor's start-up (init when needed, AEN after the warm-up) and re-initialises
    /// a sensor that lost its configuration.
    pub fn read(&mut self, square: Square, now_ms: u32) -> nb::Result<Rgbc, SensorError> {
        let i = square.index() as usize;
        let t = self.track[i];
        let since = elapsed_ms(now_ms, t.at);
        let attempts = self.settings.attempts;
        let sample_ms = self.settings.sample_ms();
        let mut buf = [0; 9];
        // The operation the phase is due for, and the phase after it (after a read
        // only when no sample came: the sensor is then initialised again).
        let (op, next) = match t.phase {
            Phase::Off => (Some(Op::Init), Phase::Powered),
            Phase::Waking => (None, Phase::Powered),
            Phase::Powered if since < WARMUP_MS => return Err(nb::Error::WouldBlock),
            Phase::Powered => (Some(Op::Enable), Phase::Running),
            Phase::Running if since < self.settings.fresh_ms() => {
                return Err(nb::Error::WouldBlock)
            }
            Phase::Running => (Some(Op::Read), Phase::Off),
        };
        if let Some(op) = op {
            self.retry(square, op, attempts, &mut buf)?;
        }
        if let Some(Op::Read) = op {
            if let Some(raw) = sample_bytes(&buf) {
                return self.fresh(i, raw, now_ms);
            }
            // No sample in two integration times: the sensor lost its
            // configuration (a brown-out puts ENABLE back to 0x00).
            if since < 2 * sample_ms {
                return Err(nb::Error::WouldBlock);
            }
            stat!(self.stats.reinits += 1);
        }
        self.track[i].phase = next;
        self.track[i].at = now_ms;
        Err(nb::Error::WouldBlock)
    }

    /// Takes a fresh sample `raw` of sensor `i`: stuck after [`STUCK_SAMPLES`]
    /// identical ones, [`STUCK_DARK_SAMPLES`] when dim ([`DARK_COUNTS`]), never when
    /// dark ([`DARK_FLOOR`]) or saturated (see the module documentation).
    fn fresh(&mut self, i: usize, raw: [u8; 8], now_ms: u32) -> nb::Result<Rgbc, SensorError> {
        let full = self.settings.saturation();
        let t = &mut self.track[i];
        t.at = now_ms;
        // Dark or saturated samples repeat on a live sensor: one range check.
        let clear = rgbc(raw).clear;
        if raw == t.last && clear.wrapping_sub(DARK_FLOOR + 1) < full.wrapping_sub(DARK_FLOOR + 1) {
            t.same = t.same.saturating_add(1);
        } else {
            t.same = 1;
            t.last = raw;
        }
        let stuck = if clear > DARK_COUNTS {
            STUCK_SAMPLES
        } else {
            STUCK_DARK_SAMPLES
        };
        stat!(self.stats.longest_repeat = self.stats.longest_repeat.max(t.same));
        if t.same < stuck {
            return Ok(rgbc(raw));
        }
        if t.same == stuck {
            stat!(self.stats.stuck += 1);
        }
        Err(nb::Error::Other(SensorError::Stuck))
    }
}

/// The sample's bytes (CDATAL..BDATAH) in a STATUS + data block, if AVALID is set.
fn sample_bytes(buf: &[u8; 9]) -> Option<[u8; 8]> {
    let [status, raw @ ..] = *buf;
    (status & AVALID != 0).then_some(raw)
}

/// The reading in CDATAL..BDATAH (little-endian channels).
fn rgbc(raw: [u8; 8]) -> Rgbc {
    let v = |k: usize| u16::from_le_bytes([raw[2 * k], raw[2 * k + 1]]);
    Rgbc::new(v(0), v(1), v(2), v(3))
}
