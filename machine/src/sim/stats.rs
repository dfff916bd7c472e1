//! [`WorldStats`]: what the simulated world counted (faults injected, traffic, the
//! rules the drivers must keep, such as no bus collision and the sensors' warm-up).

/// Fault and traffic counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldStats {
    /// NACKs injected.
    pub nacks: u64,
    /// Bus timeouts injected.
    pub timeouts: u64,
    /// Garbage readings injected.
    pub flickers: u64,
    /// Pick-ups that failed on purpose.
    pub missed_pickups: u64,
    /// Transfers to 0x29 while two sensors were selected (must stay 0).
    pub collisions: u64,
    /// I2C transactions.
    pub transactions: u64,
    /// Pieces dropped onto another piece.
    pub stacked: u64,
    /// Sensor brown-outs injected (registers back at reset values).
    pub brownouts: u64,
    /// Sensor ADCs frozen on purpose (stuck sensors).
    pub stuck_sensors: u64,
    /// Sensors replugged by a person (a stuck one comes back).
    pub replugs: u64,
    /// Bus hangs injected (a slave holding SDA low).
    pub bus_hangs: u64,
    /// Transactions that failed because the bus was hung.
    pub hung_transactions: u64,
    /// Bus recoveries (9 SCL clocks, STOP) performed by the master.
    pub bus_recoveries: u64,
    /// AEN set less than 2.4 ms after PON (must stay 0).
    pub warmup_violations: u64,
    /// RGBC samples completed (each with its own noise).
    pub samples: u64,
    /// Samples with a channel at the ADC's full scale (1024 × (256 − ATIME)).
    pub saturated_samples: u64,
    /// Motor slips injected (each [`SLIP_STEPS`](super::world::SLIP_STEPS) pulses lost).
    pub slips: u64,
    /// Releases that failed on purpose.
    pub release_fails: u64,
    /// Pieces that fell off the magnet in transit.
    pub drops: u64,
    /// Board bumps injected.
    pub bumps: u64,
    /// Spurious closed readings of a homing switch injected.
    pub switch_noise: u64,
}

impl WorldStats {
    /// All injected faults.
    pub fn faults(&self) -> u64 {
        self.nacks
            + self.timeouts
            + self.flickers
            + self.missed_pickups
            + self.brownouts
            + self.stuck_sensors
            + self.bus_hangs
            + self.slips
            + self.release_fails
            + self.drops
            + self.bumps
            + self.switch_noise
    }
}
