//! A stepper motor behind its driver, as far as timing goes: which STEP pulses it
//! follows. A motor at rest starts on any step rate up to its pull-in rate; above
//! it, the rotor (its inertia) follows only steps that come no faster than it can
//! accelerate to, and a step that comes sooner (a burst: steps sent together after
//! a stall) is lost, and with it the rotor's synchrony: it stops, and loses every
//! later step above the pull-in rate until the steps slow down to it (a real motor
//! stalls the same way; the head then is somewhere the firmware does not know).
//!
//! The rotor's speed `v` is its last [`WINDOW`] steps over the time from the first
//! of them to now (its inertia smooths the pulses' jitter; a pause slows it); a
//! step at rate `r` (1 / the time since the last one) is followed when
//! `r <= PULL_IN_HZ`, or `r² <= SLACK² × (v² + 2 × ACCEL)`: at most [`SLACK`] times
//! the speed it can reach within one step.
//!
//! The figures: a 1.8° motor half-stepped (400 steps a turn) on a 20-tooth GT2
//! pulley (40 mm a turn) is the machine's 10 steps/mm; NEMA 17 motors of the
//! 17HS4401 kind pull in at about 1,250 full steps/s at light load (their
//! pull-in torque curves; [`PULL_IN_HZ`]: 2,500 half steps/s, the moves' top
//! speed), and their torque over the gantry's
//! inertia gives several times the profile's acceleration (`AxisConfig::DEFAULT`:
//! 1,500 mm/s², 15,000 steps/s²; [`ACCEL`] is four times that).
//!
//! ```
//! use tictable_machine::sim::motor::Motor;
//! let mut m = Motor::default();
//! // From rest, steps 2 ms apart (500 steps/s, under the pull-in rate).
//! assert!((1..=10).all(|k| m.step(k * 2_000_000)));
//! // Two steps 20 µs apart: a burst, lost.
//! assert!(m.step(22_000_000));
//! assert!(!m.step(22_020_000));
//! assert_eq!(m.lost, 1);
//! ```

/// Steps a second the motor starts on from rest (and follows at any time).
pub const PULL_IN_HZ: u64 = 2_500;
/// The rotor's acceleration limit, steps/s².
pub const ACCEL: u64 = 60_000;
/// How much faster than the rotor's reachable speed a single step may come (the
/// rotor's lag within its synchronous angle absorbs the pulses' jitter).
pub const SLACK: u64 = 2;
/// Steps over which the rotor's speed is measured.
pub const WINDOW: usize = 4;

/// One motor: the times of its last followed steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Motor {
    /// The last followed steps' times, ns (a ring; `count` of them valid).
    at: [u64; WINDOW],
    count: usize,
    /// The last pulse, followed or lost, ns.
    last_pulse: Option<u64>,
    /// Steps lost.
    pub lost: u64,
    /// The first step lost: when (ns), and the followed steps before it (up to
    /// [`WINDOW`], oldest first; 0: none).
    pub first_loss: Option<(u64, [u64; WINDOW])>,
    /// The shortest time between two followed steps, ns (0: none yet).
    pub min_gap_ns: u64,
    /// The shortest time after a followed step at which a step was lost, ns (0:
    /// none lost).
    pub lost_gap_ns: u64,
}

impl Motor {
    /// A STEP pulse the driver takes at `now_ns`: whether the rotor follows it.
    pub fn step(&mut self, now_ns: u64) -> bool {
        const NS: u128 = 1_000_000_000;
        let n = self.count.min(WINDOW);
        let last = (n > 0).then(|| self.at[(self.count - 1) % WINDOW]);
        let ok = match (last, self.last_pulse) {
            (None, None) => true,
            // At rest after a lost step: the pull-in rate from that pulse.
            (None, Some(p)) => u128::from(now_ns.saturating_sub(p)) * u128::from(PULL_IN_HZ) >= NS,
            (Some(last), _) => {
                let dt = u128::from(now_ns.saturating_sub(last)).max(1);
                let first = self.at[(self.count - n) % WINDOW];
                let span = u128::from(now_ns.saturating_sub(first)).max(1);
                // rate = NS / dt, v = n NS / span (the window's steps over the
                // time since its first, this step's wait included: a pause slows
                // the rotor down); compared squared, times dt² span².
                let pull_in = NS <= u128::from(PULL_IN_HZ) * dt;
                let n = n as u128;
                let lhs = NS * NS * span * span;
                let rhs = u128::from(SLACK * SLACK)
                    * (n * n * NS * NS + 2 * u128::from(ACCEL) * span * span)
                    * dt
                    * dt;
                pull_in || lhs <= rhs
            }
        };
        if let Some(last) = last {
            let gap = now_ns.saturating_sub(last);
            let slot = if ok {
                &mut self.min_gap_ns
            } else {
                &mut self.lost_gap_ns
            };
            if *slot == 0 || gap < *slot {
                *slot = gap;
            }
        }
        self.last_pulse = Some(now_ns);
        if !ok && self.first_loss.is_none() {
            let mut before = [0; WINDOW];
            for (k, b) in before.iter_mut().skip(WINDOW - n).enumerate() {
                *b = self.at[(self.count - n + k) % WINDOW];
            }
            self.first_loss = Some((now_ns, before));
        }
        if !ok {
            // Synchrony lost: the rotor stops.
            self.lost += 1;
            self.count = 0;
            return false;
        }
        self.at[self.count % WINDOW] = now_ns;
        self.count += 1;
        if self.count >= 2 * WINDOW {
            self.count -= WINDOW;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step times (ns) of a trapezoidal move of `n` steps at the default
    /// axis's speed and acceleration (2,500 steps/s, 15,000 steps/s²), each
    /// rounded up to the next sixteenth of a ms (the firmware's profile clock) plus
    /// `jitter_ns` on every other step (a late poll).
    fn profile_times(n: u32, jitter_ns: u64) -> std::vec::Vec<u64> {
        let (v, a) = (2_500.0f64, 15_000.0f64);
        let ramp = (v * v / (2.0 * a)).min(f64::from(n) / 2.0);
        let t_ramp = (2.0 * ramp / a).sqrt();
        let cruise = (f64::from(n) - 2.0 * ramp) / v;
        let total = 2.0 * t_ramp + cruise;
        (1..=n)
            .map(|k| {
                let k = f64::from(k);
                let t = if k <= ramp {
                    (2.0 * k / a).sqrt()
                } else if k <= f64::from(n) - ramp {
                    t_ramp + (k - ramp) / v
                } else {
                    total - (2.0 * (f64::from(n) - k) / a).sqrt()
                };
                let t16 = (t * 16_000.0).ceil() as u64;
                t16 * 62_500
            })
            .enumerate()
            .map(|(i, t)| t + if i % 2 == 1 { jitter_ns } else { 0 })
            .collect()
    }

    #[test]
    fn the_profile_is_followed_and_a_burst_is_lost() {
        for jitter in [0, 50_000, 100_000] {
            let mut m = Motor::default();
            for (k, &t) in profile_times(2_000, jitter).iter().enumerate() {
                assert!(m.step(t), "jitter {jitter} ns: step {k} at {t} ns lost");
            }
        }
        // At full speed, the steps due over a 40 ms stall sent together.
        let mut m = Motor::default();
        let times = profile_times(2_000, 0);
        let (before, _) = times.split_at(1_000);
        for &t in before {
            assert!(m.step(t));
        }
        let t0 = before[before.len() - 1] + 40_000_000;
        let burst: std::vec::Vec<bool> = (0..5).map(|k| m.step(t0 + k * 15_000)).collect();
        assert_eq!(burst, [true, false, false, false, false]);
        assert_eq!(m.lost, 4);
    }
}
