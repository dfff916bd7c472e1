//! The kinds of faults the simulator can inject, as a small set (no_std, no
//! allocation), and counters by kind.
//!
//! Who injects what: the bus's and the sensors' kinds, `i2c` (NACKs, stretched
//! clocks, garbage readings), `bus-hang`, `brownout` and `stuck-sensor`, are drawn
//! and applied here (`impl World` below), where the byte-level bus
//! ([`super::wire`]) calls them, for the host's bus and the virtual blue pill
//! alike; `magnet` (missed pick-ups and releases), `lost-steps`, `drop` and `bump`
//! are the world's mechanism ([`super::world`]); `power-cut` and `human-extra` are
//! injected by the runner ([`super::scenario`]) and the simulated person
//! ([`super::human`]). Every kind
//! is counted where it is injected: a run that asked for a kind and never got one
//! fails its contract ([`super::batch::Summary::check`]) instead of pretending.

use super::tcs::TcsRegs;
use super::wire::WireFault;
use super::world::{SimConfig, World};
use crate::Colour;
use core::fmt;
use core::str::FromStr;

/// One kind of fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// I2C NACKs and bus timeouts per transaction, garbage readings per sensor read.
    I2c,
    /// A supply dip that resets a sensor's registers (per sensor read, scaled by
    /// [`SENSOR_FAULT_SCALE`]).
    Brownout,
    /// A sensor whose ADC freezes on one reading until a person replugs it (per
    /// sensor read, scaled by [`SENSOR_FAULT_SCALE`]).
    StuckSensor,
    /// A slave holding SDA low until the bus is freed (per transaction, scaled by
    /// [`SENSOR_FAULT_SCALE`]).
    BusHang,
    /// A stepper slipping (per STEP pulse, scaled by [`STEP_FAULT_SCALE`]).
    LostSteps,
    /// The magnet failing to pick a piece up (per grip) or to release it (per
    /// release).
    Magnet,
    /// A carried piece dropped on the way (per grip, scaled by
    /// [`GRIP_FAULT_SCALE`]).
    Drop,
    /// Someone bumping the board a few mm (per grip, scaled by
    /// [`GRIP_FAULT_SCALE`]).
    Bump,
    /// The person adds, removes or moves two pieces instead of playing.
    HumanExtra,
    /// The power fails at a random moment (also during a flash write or erase).
    PowerCut,
}

/// The number of fault kinds.
pub const KINDS: usize = 10;

impl FaultKind {
    /// Every kind, in the order of their bits.
    pub const ALL: [FaultKind; KINDS] = [
        FaultKind::I2c,
        FaultKind::Brownout,
        FaultKind::StuckSensor,
        FaultKind::BusHang,
        FaultKind::LostSteps,
        FaultKind::Magnet,
        FaultKind::Drop,
        FaultKind::Bump,
        FaultKind::HumanExtra,
        FaultKind::PowerCut,
    ];

    /// The kind's name on the command line and in JSON (`stuck-sensor`).
    ///
    /// ```
    /// use tictable_machine::sim::faults::FaultKind;
    /// assert_eq!(FaultKind::PowerCut.name(), "power-cut");
    /// assert_eq!("power-cut".parse::<FaultKind>(), Ok(FaultKind::PowerCut));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::I2c => "i2c",
            FaultKind::Brownout => "brownout",
            FaultKind::StuckSensor => "stuck-sensor",
            FaultKind::BusHang => "bus-hang",
            FaultKind::LostSteps => "lost-steps",
            FaultKind::Magnet => "magnet",
            FaultKind::Drop => "drop",
            FaultKind::Bump => "bump",
            FaultKind::HumanExtra => "human-extra",
            FaultKind::PowerCut => "power-cut",
        }
    }

    /// The kind's position in [`FaultKind::ALL`] (its bit in a [`FaultSet`]).
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no fault kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownFault;

impl fmt::Display for UnknownFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown fault kind (kinds: i2c, brownout, stuck-sensor, bus-hang, lost-steps, magnet, drop, bump, human-extra, power-cut, or all)")
    }
}

impl core::error::Error for UnknownFault {}

impl FromStr for FaultKind {
    type Err = UnknownFault;
    fn from_str(s: &str) -> Result<FaultKind, UnknownFault> {
        FaultKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or(UnknownFault)
    }
}

/// A set of fault kinds (one bit each).
///
/// ```
/// use tictable_machine::sim::faults::{FaultKind, FaultSet};
/// let set: FaultSet = "i2c,power-cut".parse().unwrap();
/// assert!(set.contains(FaultKind::PowerCut) && !set.contains(FaultKind::Magnet));
/// assert_eq!("all".parse::<FaultSet>().unwrap(), FaultSet::ALL);
/// assert!("i2c,cosmic-rays".parse::<FaultSet>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FaultSet(u16);

impl FaultSet {
    /// No faults.
    pub const EMPTY: FaultSet = FaultSet(0);
    /// Every kind.
    pub const ALL: FaultSet = FaultSet((1 << KINDS) - 1);
    /// The kinds the world injected before kinds existed (`fault_rate` alone): bus
    /// and sensor faults, and missed pick-ups.
    pub const I2C_AND_MAGNET: FaultSet =
        FaultSet::EMPTY.with(FaultKind::I2c).with(FaultKind::Magnet);

    /// This set and `kind`.
    pub const fn with(self, kind: FaultKind) -> FaultSet {
        FaultSet(self.0 | 1 << kind as u16)
    }

    /// Whether `kind` is in the set.
    pub const fn contains(self, kind: FaultKind) -> bool {
        self.0 & 1 << kind as u16 != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in the order of [`FaultKind::ALL`].
    pub fn iter(self) -> impl Iterator<Item = FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

impl FromStr for FaultSet {
    type Err = UnknownFault;
    /// `all`, or kinds separated by commas.
    fn from_str(s: &str) -> Result<FaultSet, UnknownFault> {
        if s == "all" {
            return Ok(FaultSet::ALL);
        }
        s.split(',')
            .try_fold(FaultSet::EMPTY, |set, k| Ok(set.with(k.trim().parse()?)))
    }
}

/// A count per fault kind.
///
/// ```
/// use tictable_machine::sim::faults::{ByKind, FaultKind};
/// let mut n = ByKind::default();
/// n[FaultKind::Magnet] += 2;
/// assert_eq!(n.iter().find(|(k, _)| *k == FaultKind::Magnet), Some((FaultKind::Magnet, 2)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByKind(pub [u64; KINDS]);

impl ByKind {
    /// Each kind with its count.
    pub fn iter(&self) -> impl Iterator<Item = (FaultKind, u64)> + '_ {
        FaultKind::ALL.into_iter().map(|k| (k, self.0[k.index()]))
    }

    /// Adds `other` kind by kind.
    pub fn add(&mut self, other: &ByKind) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    /// The sum over all kinds.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl core::ops::Index<FaultKind> for ByKind {
    type Output = u64;
    fn index(&self, k: FaultKind) -> &u64 {
        &self.0[k.index()]
    }
}

impl core::ops::IndexMut<FaultKind> for ByKind {
    fn index_mut(&mut self, k: FaultKind) -> &mut u64 {
        &mut self.0[k.index()]
    }
}

/// Garbage readings per sample, as a share of the `i2c` rate per transaction.
pub const GARBAGE_PER_I2C_FAULT: f64 = 0.1;

/// Brown-outs and frozen ADCs per sensor read, and hung buses per transaction, as a
/// share of their kind's rate: a rate of 0.3 gives a brown-out about every 10 s of
/// simulated play (9 sensors sampled every 24 ms, plus retries).
pub const SENSOR_FAULT_SCALE: f64 = 1e-3;

/// Motor slips per STEP pulse, as a share of the `lost-steps` rate: a rate of 0.3
/// slips about once in 15 placements (a transfer is a few thousand pulses).
pub const STEP_FAULT_SCALE: f64 = 2e-5;

/// Drops and bumps per grip, as a share of their kind's rate: each needs a person
/// (remove the stray piece, push the board back), so at 0.3 one placement in 30.
pub const GRIP_FAULT_SCALE: f64 = 0.1;

impl SimConfig {
    /// Asks for the fault kinds `faults`, each at probability `rate`: the world's
    /// own models (`i2c`: NACK, timeout and garbage reading; `magnet`: missed
    /// pick-up) get their rates here, 0 for kinds not asked for; the others read
    /// [`SimConfig::faults`] and [`SimConfig::fault_rate`].
    ///
    /// ```
    /// use tictable_machine::sim::faults::{FaultKind, FaultSet};
    /// use tictable_machine::sim::world::SimConfig;
    /// let mut c = SimConfig::standard(0.0, 0.0, 1).unwrap();
    /// c.set_faults(FaultSet::EMPTY.with(FaultKind::Magnet), 0.1);
    /// assert_eq!((c.missed_pickup_rate, c.nack_rate), (0.1, 0.0));
    /// ```
    pub fn set_faults(&mut self, faults: FaultSet, rate: f64) {
        let of = |k| if faults.contains(k) { rate } else { 0.0 };
        self.nack_rate = of(FaultKind::I2c);
        self.timeout_rate = of(FaultKind::I2c);
        // A garbage sample that still ACKs is much rarer than a failed transfer.
        self.flicker_rate = of(FaultKind::I2c) * GARBAGE_PER_I2C_FAULT;
        self.missed_pickup_rate = of(FaultKind::Magnet);
        // The sensor faults happen per sensor sample or bus transaction, hundreds a
        // second: scaled so that `rate` 1 is about one every few seconds of play.
        self.brownout_rate = of(FaultKind::Brownout) * SENSOR_FAULT_SCALE;
        self.stuck_rate = of(FaultKind::StuckSensor) * SENSOR_FAULT_SCALE;
        self.bus_hang_rate = of(FaultKind::BusHang) * SENSOR_FAULT_SCALE;
        // The mechanism: a slip per STEP pulse (thousands a placement), a stuck
        // release per release, a drop and a bump per grip.
        self.lost_step_rate = of(FaultKind::LostSteps) * STEP_FAULT_SCALE;
        self.release_fail_rate = of(FaultKind::Magnet);
        self.drop_rate = of(FaultKind::Drop) * GRIP_FAULT_SCALE;
        self.bump_rate = of(FaultKind::Bump) * GRIP_FAULT_SCALE;
        self.faults = faults;
        self.fault_rate = rate;
    }
}

/// The bus's and the sensors' faults (kinds `i2c`, `bus-hang`, `brownout`,
/// `stuck-sensor`), drawn and applied here and nowhere else, for every master: the
/// byte-level [`Wire`](super::wire::Wire) draws a transaction's bus fault at its
/// first address byte, a sensor's per-read faults where a transfer reaches it, a
/// garbage sample where one is measured; the host's bus and the virtual blue pill's
/// I2C1 both run over it.
impl World {
    /// The bus fault of one transaction, in this order: a slave starting to hold
    /// SDA low (`bus-hang`: [`World::bus_hung`] from now on, mid-byte), a NACK, a stretched
    /// clock (both `i2c`); counted.
    pub(super) fn draw_bus_fault(&mut self) -> Option<WireFault> {
        if self.rng.chance(self.config.bus_hang_rate) {
            self.bus_hung = Some(super::wire::HungSlave::nth(self.stats.bus_hangs));
            self.stats.bus_hangs += 1;
            return Some(WireFault::Hang);
        }
        if self.rng.chance(self.config.nack_rate) {
            self.stats.nacks += 1;
            return Some(WireFault::Nack);
        }
        if self.rng.chance(self.config.timeout_rate) {
            self.stats.timeouts += 1;
            return Some(WireFault::Stretch);
        }
        None
    }

    /// The faults of one register read of sensor `s` (0-8), applied: a brown-out
    /// (its registers back to their reset values; a frozen ADC stays frozen), then
    /// its ADC freezing on its latest sample; counted.
    pub(super) fn draw_sensor_faults(&mut self, s: usize) {
        if self.rng.chance(self.config.brownout_rate) {
            self.stats.brownouts += 1;
            let frozen = self.sensors[s].frozen;
            let adc = self.sensors[s].adc;
            self.sensors[s] = TcsRegs {
                frozen,
                adc: if frozen { adc } else { [0; 4] },
                ..TcsRegs::default()
            };
        }
        if !self.sensors[s].frozen && self.rng.chance(self.config.stuck_rate) {
            self.stats.stuck_sensors += 1;
            self.sensors[s].frozen = true;
        }
    }

    /// A garbage sample (an `i2c` fault that still acknowledges): `Some` with the
    /// cover (0 to 1) and the colour the sensor sees instead of the pieces; counted.
    pub(super) fn draw_garbage_sample(&mut self) -> Option<(f64, Colour)> {
        if !self.rng.chance(self.config.flicker_rate) {
            return None;
        }
        self.stats.flickers += 1;
        let cover = self.rng.unit();
        let colour = if self.rng.chance(0.5) {
            Colour::Black
        } else {
            Colour::White
        };
        Some((cover, colour))
    }
}
