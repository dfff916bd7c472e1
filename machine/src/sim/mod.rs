//! The physical machine simulated at bus and pin level (feature `sim-core`: no_std,
//! no allocation; feature `sim` adds the host's conveniences in [`host`]).
//!
//! The real controller and the real drivers (`tcs3472`, `xca9548a`, the stepper and
//! panel state machines) run unchanged against these models, on the host (`tictable
//! simulate`, the tests, the machine panel of the web page); the virtual blue pill
//! (`vboard/`) runs the firmware's image against the same world and [`wire::Wire`].
//! Bus and pins share one [`world::World`] through a [`world::WorldHandle`]:
//! `&RefCell<World>` or `Rc<RefCell<World>>`.
//!
//! - [`bus::SimBus`]: an embedded-hal 1.0 `I2c` bus with two TCA9548A multiplexers
//!   and nine TCS34725 models ([`tcs::TcsRegs`]: warm-up, one sample per
//!   integration time of simulated time, AVALID, shadowed data registers), each
//!   transaction run byte by byte over a [`wire::Wire`], with the firmware master's
//!   errors and bus time.
//! - [`wire::Wire`]: the bus at byte level (START, address and acknowledge, bytes,
//!   STOP, clock pulses) and its timing, one model for the host bus and the virtual
//!   blue pill (`vboard/`): collisions (two sensors selected at once: both
//!   acknowledge, their bits ANDed, counted), NACKs, stretched clocks and bus hangs
//!   (SDA held low until the master clocks the slave free) are injected here, and
//!   the sensors' own faults (brown-outs, frozen ADCs, garbage samples) where a
//!   transfer reaches them ([`tcs`]).
//! - [`pins::SimPin`]: STEP/DIR pins counting pulses, limit switches, the lift, the
//!   magnet, buttons and lights.
//! - [`world::World`]: pieces in storage, on squares or on the magnet; the optics
//!   under each square with per-sensor gain and noise (drawn once per sample);
//!   missed pick-ups and the mechanism's faults; stuck sensors last until
//!   [`world::World::replug`].
//! - [`human::SimHuman`]: random, perfect or error-prone players, some of whom cheat
//!   by moving one of the device's pieces.
//! - [`flash::MemFlash`]: an `embedded-storage` NOR flash in memory for snapshots,
//!   with power cuts during erases and writes on demand.
//! - [`faults`]: the fault kinds, as a set, and counts by kind.
//! - [`run`]: builds a whole machine, calibrates it, ticks it, saves snapshots,
//!   cuts the power.
//! - [`scenario`]: games as data ([`scenario::Scenario`]) and the one runner that
//!   plays them, with what happened in each ([`scenario::GameReport`]).
//! - [`tcs`]: the TCS34725 register model each simulated sensor runs.
//! - [`stats`]: what the simulated world counted ([`stats::WorldStats`]).
//! - [`batch`]: totals over many games, the contract they are checked against,
//!   batches of random games (`tictable simulate`) and the scripted ones.

pub mod batch;
pub mod bus;
pub mod faults;
pub mod flash;
#[cfg(feature = "std")]
pub mod host;
pub mod human;
pub mod motor;
pub mod pins;
pub mod run;
pub mod scenario;
pub mod stats;
pub mod tcs;
pub mod wire;
pub mod world;

/// SplitMix64: a small, fast, seedable generator for the simulation.
///
/// ```
/// use tictable_machine::sim::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next(), b.next());
/// assert!(a.unit() < 1.0);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// A uniform integer in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// A uniform float in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

impl rand_core::TryRng for SplitMix64 {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.next() >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}
