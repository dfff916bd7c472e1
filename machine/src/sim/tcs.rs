//! The TCS34725 colour sensor as the chip behaves, register by register: the model
//! each of the simulated machine's nine sensors runs, and the world's side of it
//! (transactions reaching a sensor, the faults per read, what a sensor sees of the
//! pieces over it).

use super::stats::WorldStats;
use super::world::World;
use crate::hw::Rgbc;
use crate::Colour;
use tictable::Square;

/// The dark count (what the ADC reads with no light) at the datasheet's test
/// conditions: the TCS3472 datasheet (ams, v1-03, 2018-03-14), figure 9, "RGBC
/// characteristics": "Dark ADC count value", Ee = 0, AGAIN = 60x, ATIME = 0xD6
/// (100 ms): 0 min, 1 typ, 5 max counts. Modelled at its typical value on every
/// channel of every sensor, with no noise of its own (the datasheet gives none). The
/// datasheet gives it at that one setting only; a photodiode's dark current
/// integrates as its light does, so it is modelled in proportion to the analogue
/// gain and the integration time ([`dark_count`]). At the firmware's settings (4x,
/// 24 ms) that is 1/63 of a count: the whole counts read 0 in the dark. (The
/// firmware does not rely on that: it takes the maximum, 5 counts, at any setting,
/// [`DARK_FLOOR`](crate::sensors::DARK_FLOOR).)
pub const DARK_COUNT_TYP: f64 = 1.0;

/// The integration cycles of the datasheet's dark-count test: ATIME = 0xD6.
const DARK_TEST_CYCLES: f64 = (256 - 0xD6) as f64;

/// The dark count ([`DARK_COUNT_TYP`]) at an analogue gain (1, 4, 16 or 60) and
/// integration cycles (256 − ATIME), in counts before the ADC drops the fraction.
///
/// ```
/// use tictable_machine::sim::tcs::dark_count;
/// assert_eq!(dark_count(60.0, 42.0), 1.0); // the datasheet's conditions
/// assert!(dark_count(4.0, 10.0) < 0.02); // the firmware's: 0 whole counts
/// ```
pub fn dark_count(gain: f64, cycles: f64) -> f64 {
    DARK_COUNT_TYP * (gain * cycles) / (60.0 * DARK_TEST_CYCLES)
}

/// Base optics: what a sensor sees for empty, black, white with the breakout's LED
/// on: the counts at the firmware's settings (`SensorSettings::DEFAULT`: 24 ms,
/// gain 4x) of a sensor whose optics gain ([`World::gain`]) is 1 (each sensor's is
/// drawn from 0.8 to 1.25), in proportion to the integration time and the analogue
/// gain otherwise. So with the LEDs on an empty square reads 960 to 1,500 counts
/// on the clear channel, a black piece 208 to 325 (64 to 100 on blue, the dimmest
/// channel), a white one 2,720 to 4,250; with them off, 0 on every channel.
///
/// How the counts come out ([`World::measure`]): the light times the gains and the
/// integration time, times the noise (uniform, ± [`SimConfig::noise`] of the light:
/// the sample's own), plus the dark count ([`DARK_COUNT_TYP`]), then whole counts, as
/// the ADC gives them (the fraction dropped), clamped to the full scale. With the
/// noise proportional to the light, a channel below about 17 counts spreads over less
/// than one count, and the whole counts repeat sample after sample: the worst case
/// for the stuck-sensor rule ([`STUCK_SAMPLES`](crate::sensors::STUCK_SAMPLES),
/// [`STUCK_DARK_SAMPLES`](crate::sensors::STUCK_DARK_SAMPLES)). With the LEDs off
/// ([`World::set_leds`] 0) every sample is the dark count alone: all zero at the
/// firmware's settings, 1 on every channel at the datasheet's test conditions.
///
/// [`SimConfig::noise`]: super::world::SimConfig::noise
const EMPTY_RGBC: [f64; 4] = [1200.0, 420.0, 400.0, 380.0];
const BLACK_RGBC: [f64; 4] = [260.0, 90.0, 85.0, 80.0];
const WHITE_RGBC: [f64; 4] = [3400.0, 1150.0, 1200.0, 1100.0];

/// One TCS34725 as the chip behaves: its register file, its RGBC cycle in
/// simulated time, the data registers' shadowing.
///
/// - ENABLE (0x00): PON powers the oscillator; AEN starts RGBC cycles. The datasheet
///   wants at least 2.4 ms between PON and AEN (counted in
///   [`WorldStats::warmup_violations`] when not respected).
/// - A new sample completes once per RGBC cycle of simulated time after AEN: the
///   cycle's 2.4 ms start-up (the datasheet's "RGBC init") plus the integration
///   time, 2.4 ms × (256 − ATIME): 26.4 ms at our 24 ms setting. Noise is drawn once
///   per sample. Between samples every read returns the same sample.
/// - Counts saturate at the ADC's full scale, 1024 × (256 − ATIME) up to 65,535
///   (10,240 at 24 ms; the datasheet's "maximum RGBC count"): a saturated channel
///   reads that value exactly, whatever the noise, sample after sample.
/// - STATUS (0x13) bit 0, AVALID: set when the first sample after AEN completes,
///   then stays set; cleared when AEN is cleared and at reset.
/// - Data registers (0x14..=0x1B): reading a channel's low byte returns the latest
///   sample's low byte and latches its high byte into a shadow register, which the
///   read of the high byte returns (so a pair read together is never torn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcsRegs {
    /// Registers 0x00..0x20 (the data registers hold the latched high bytes).
    pub regs: [u8; 32],
    /// The register pointer.
    pub pointer: u8,
    /// Auto-increment protocol selected by the last command.
    pub auto_increment: bool,
    /// When PON was last set, ms.
    pub pon_at: u32,
    /// When AEN was last set (the RGBC cycles began), ms.
    pub aen_at: u32,
    /// Samples completed since AEN was set.
    pub samples: u64,
    /// The latest sample: clear, red, green, blue.
    pub adc: [u16; 4],
    /// The ADC is frozen: `adc` never changes again (until a replug).
    pub frozen: bool,
}

/// ENABLE bits: power on, RGBC enable.
const PON: u8 = 0x01;
const AEN: u8 = 0x02;
/// STATUS bit: a sample is valid.
const AVALID: u8 = 0x01;

impl Default for TcsRegs {
    fn default() -> TcsRegs {
        let mut regs = [0; 32];
        regs[0x01] = 0xFF; // ATIME reset value
        regs[0x03] = 0xFF; // WTIME reset value
        regs[0x12] = 0x44; // ID of the TCS34725
        TcsRegs {
            regs,
            pointer: 0,
            auto_increment: false,
            pon_at: 0,
            aen_at: 0,
            samples: 0,
            adc: [0; 4],
            frozen: false,
        }
    }
}

impl TcsRegs {
    /// The integration time, µs: 2.4 ms × (256 − ATIME).
    pub fn integration_us(&self) -> u64 {
        2400 * (256 - u64::from(self.regs[0x01]))
    }

    /// One RGBC cycle, µs: the 2.4 ms start-up, then the integration time.
    pub fn cycle_us(&self) -> u64 {
        2400 + self.integration_us()
    }

    /// The full-scale count of a channel: 1024 × (256 − ATIME), at most 65,535.
    pub fn saturation(&self) -> u16 {
        (1024 * (256 - u32::from(self.regs[0x01]))).min(65_535) as u16
    }

    /// Whether the chip is running RGBC cycles (PON and AEN set).
    pub fn integrating(&self) -> bool {
        self.regs[0x00] & (PON | AEN) == PON | AEN
    }

    /// The samples that should have completed by `now_ms`.
    pub(super) fn due_samples(&self, now_ms: u32) -> u64 {
        u64::from(now_ms.wrapping_sub(self.aen_at)) * 1000 / self.cycle_us()
    }

    /// Writes register `p` at `now_ms` (read-only registers keep their value).
    pub(super) fn write(&mut self, p: usize, b: u8, now_ms: u32, stats: &mut WorldStats) {
        if matches!(p, 0x12..=0x1B) {
            return;
        }
        let was = self.regs[p];
        self.regs[p] = b;
        if p != 0x00 {
            return;
        }
        let rising = b & !was;
        if rising & PON != 0 {
            self.pon_at = now_ms;
        }
        if b & PON == 0 || b & AEN == 0 {
            // RGBC stops: no valid sample until the next cycle after AEN.
            self.regs[0x13] &= !AVALID;
        }
        if rising & AEN != 0 && b & PON != 0 {
            // Integer ms: a gap of 2 ms or less may be shorter than 2.4 ms.
            if now_ms.wrapping_sub(self.pon_at) < 3 {
                stats.warmup_violations += 1;
            }
            self.aen_at = now_ms;
            self.samples = 0;
        }
    }

    /// Reads register `p`: a data low byte comes from the latest sample and latches
    /// its high byte; a high byte reads the latch.
    pub(super) fn read(&mut self, p: usize) -> u8 {
        if matches!(p, 0x14..=0x1B) && p.is_multiple_of(2) {
            let [lo, hi] = self.adc[(p - 0x14) / 2].to_le_bytes();
            self.regs[p + 1] = hi;
            lo
        } else {
            self.regs[p]
        }
    }

    /// Completes the samples due by now (`due`, from [`TcsRegs::due_samples`]): the
    /// latest one is in `adc`, and AVALID is set.
    pub(super) fn sampled(&mut self, due: u64) {
        self.samples = due;
        self.regs[0x13] |= AVALID;
    }
}

/// The world's nine sensors: transactions, registers, samples.
impl World {
    /// The squares whose sensor's ADC is frozen.
    pub fn stuck_squares(&self) -> tictable::Squares {
        let mut bits = 0;
        for (i, t) in self.sensors.iter().enumerate() {
            if t.frozen {
                bits |= 1 << i;
            }
        }
        tictable::Squares::from_bits(bits)
    }

    /// One transaction reaches the sensor of `square` at `now_ms` (`reads`: it reads
    /// registers): the faults per read strike first (a brown-out, a freezing ADC),
    /// then the samples due by now complete (only the latest is measured: it is
    /// the one the data registers hold).
    pub(super) fn sensor_access(&mut self, square: Square, reads: bool) {
        let s = square.index() as usize;
        if reads {
            self.draw_sensor_faults(s);
        }
        let t = &self.sensors[s];
        if !t.integrating() {
            return;
        }
        let due = t.due_samples(self.now_ms);
        if due <= t.samples {
            return;
        }
        self.stats.samples += 1;
        if !t.frozen {
            let r = self.measure(square);
            self.sensors[s].adc = [r.clear, r.red, r.green, r.blue];
        }
        self.sensors[s].sampled(due);
    }

    /// Writes byte `b` to register `p` of the sensor of `square`.
    pub(super) fn sensor_write(&mut self, square: Square, p: usize, b: u8) {
        let now = self.now_ms;
        self.sensors[square.index() as usize].write(p, b, now, &mut self.stats);
    }

    /// Reads register `p` of the sensor of `square`.
    pub(super) fn sensor_read(&mut self, square: Square, p: usize) -> u8 {
        self.sensors[square.index() as usize].read(p)
    }

    /// The boards' LEDs at `level` of their brightness (1: as built; 0: off, every
    /// sample the dark floor; between: dim LEDs, low counts): scales every sensor's
    /// optics gain ([`World::gain`]).
    ///
    /// ```
    /// use tictable_machine::sim::world::{SimConfig, World};
    /// let mut w = World::new(SimConfig::standard(0.0, 0.0, 1).unwrap());
    /// let g = w.gain[4];
    /// w.set_leds(0.25);
    /// assert_eq!(w.gain[4], g * 0.25);
    /// ```
    pub fn set_leds(&mut self, level: f64) {
        for g in &mut self.gain {
            *g *= level;
        }
    }

    /// What sensor `s` sees now (one sample, with its noise), as raw counts under
    /// its register settings (gain, integration time).
    pub fn measure(&mut self, square: Square) -> Rgbc {
        let s = square.index() as usize;
        let regs = self.sensors[s].regs;
        if regs[0] & 0x03 != 0x03 {
            return Rgbc::default(); // not powered or not integrating
        }
        // The piece it sees (the bottom one of a stack) and how much of its view.
        let (mut cover, mut colour) = self
            .seen_by(square)
            .map_or((0.0, Colour::Black), |(i, c)| (c, self.pieces[i].colour));
        if let Some((c, col)) = self.draw_garbage_sample() {
            (cover, colour) = (c, col);
        }
        let piece = match colour {
            Colour::Black => BLACK_RGBC,
            Colour::White => WHITE_RGBC,
        };
        let cycles = 256.0 - regs[0x01] as f64;
        let full = self.sensors[s].saturation();
        let gain = [1.0, 4.0, 16.0, 60.0][(regs[0x0F] & 3) as usize];
        let scale = self.gain[s] * cycles / 10.0 * gain / 4.0;
        let dark = dark_count(gain, cycles);
        let mut v = [0u16; 4];
        for (k, out) in v.iter_mut().enumerate() {
            let base = EMPTY_RGBC[k] + (piece[k] - EMPTY_RGBC[k]) * cover;
            let noisy = base * scale * (1.0 + self.rng.range(-1.0, 1.0) * self.config.noise);
            *out = (noisy + dark).clamp(0.0, f64::from(full)) as u16;
        }
        if v.contains(&full) {
            self.stats.saturated_samples += 1;
        }
        Rgbc::new(v[0], v[1], v[2], v[3])
    }
}
