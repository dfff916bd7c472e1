//! The trapezoidal speed profile of an axis: its mechanics ([`AxisConfig`]), the
//! `Ramp` derived from them once, and the `Profile` of one move, computed in
//! closed form from the time since the move started.
//!
//! Invariants: speeds and distances are fixed point in `u32` (the one `u64` product
//! of two of them is a single multiply instruction); everything saturates, so no
//! travel and no `u32` time overflows; a profile's steps never decrease with time
//! and reach the distance at its duration.

use super::geometry::sat;

/// The mechanics of one axis, in integers. The profile's arithmetic is exact for
/// step rates up to about 268 000 steps/s; nothing overflows beyond that, it
/// saturates (lowering the top speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisConfig {
    /// Steps per millimetre.
    pub steps_per_mm: u32,
    /// Top speed, mm/s.
    pub max_speed: u32,
    /// Acceleration and deceleration, mm/s².
    pub accel: u32,
    /// Length of travel from the homing switch, mm.
    pub travel_mm: u32,
    /// Homing speed, mm/s.
    pub homing_speed: u32,
}

impl AxisConfig {
    /// A GT2 belt on a half-stepped 200-step motor: 10 steps/mm, 250 mm/s,
    /// 1500 mm/s², 320 mm travel, homing at 60 mm/s.
    pub const DEFAULT: AxisConfig = AxisConfig {
        steps_per_mm: 10,
        max_speed: 250,
        accel: 1500,
        travel_mm: 320,
        homing_speed: 60,
    };

    /// The time in ms a move of `steps` steps takes (trapezoidal profile).
    ///
    /// ```
    /// use tictable_machine::motion::AxisConfig;
    /// let c = AxisConfig::DEFAULT;
    /// // 2500 steps/s reached in 167 ms (250 mm/s at 1500 mm/s²); 200 mm = 2000 steps.
    /// assert_eq!(c.move_ms(2000), 967);
    /// assert_eq!(c.move_ms(0), 0);
    /// ```
    pub fn move_ms(&self, steps: u32) -> u32 {
        Ramp::moves(self).duration(steps).div_ceil(16)
    }

    /// The speed profile: the steps of a move of `steps` done `elapsed_ms` after
    /// its start. Never decreasing, `steps` from [`AxisConfig::move_ms`] on.
    ///
    /// ```
    /// use tictable_machine::motion::AxisConfig;
    /// let c = AxisConfig::DEFAULT;
    /// // 15 000 steps/s² * (0.1 s)² / 2 = 75, less a hair of fixed-point rounding.
    /// assert_eq!(c.steps_due(2000, 100), 74);
    /// assert_eq!(c.steps_due(2000, 967), 2000);
    /// assert_eq!(c.steps_due(2000, u32::MAX), 2000);
    /// ```
    pub fn steps_due(&self, steps: u32, elapsed_ms: u32) -> u32 {
        let ramp = Ramp::moves(self);
        Profile::new(steps, &ramp).steps_at(&ramp, elapsed_ms.saturating_mul(16))
    }

    /// The whole travel in steps.
    pub(super) const fn max_steps(&self) -> i32 {
        let max = self.travel_mm.saturating_mul(self.steps_per_mm);
        if max > i32::MAX as u32 {
            i32::MAX
        } else {
            max as i32
        }
    }

    /// A coordinate (µm) in steps, rounded (saturating far out of travel).
    #[inline(never)] // one copy: flash matters more than a call
    pub(super) fn steps(&self, um: i32) -> i32 {
        let spm = self.steps_per_mm.min(1_000_000) as i32;
        let frac = (um % 1000 * spm + if um < 0 { -500 } else { 500 }) / 1000;
        sat(i64::from(um / 1000) * i64::from(spm) + i64::from(frac))
    }

    /// A position in steps in µm, rounded.
    pub(super) fn um(&self, steps: i32) -> i32 {
        let spm = self.steps_per_mm.clamp(1, i32::MAX as u32) as i32;
        sat(i64::from(steps) * 1000 + i64::from(spm / 2)) / spm
    }
}

/// Fractional bits of the profile's speeds (steps per sixteenth of a ms); its
/// distances have one more (they are kept doubled).
const Q: u32 = 24;

/// The speed ramp of an axis, from its [`AxisConfig`] once (a constant config
/// folds at compile time). The ramp `r(t)` accelerates for `accel_16`, then
/// cruises at the speed reached; without acceleration time it runs at constant
/// speed (homing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Ramp {
    /// Steps (Q32) per sixteenth-ms squared.
    accel: u32,
    /// Acceleration time, sixteenths of a ms.
    accel_16: u32,
    /// The top speed, steps (Q24) per sixteenth of a ms: for moves the speed
    /// reached, `accel * accel_16 >> 8`; below 2^29, so that no ramp overflows a
    /// `u64`.
    speed: u32,
}

impl Ramp {
    /// The ramp of a move with the configured speed and acceleration.
    pub(super) const fn moves(c: &AxisConfig) -> Ramp {
        let speed = c.max_speed.saturating_mul(c.steps_per_mm); // steps/s
        let accel = c.accel.saturating_mul(c.steps_per_mm); // steps/s²
        let accel = if accel == 0 { 1 } else { accel };
        // steps/s² -> Q32 steps per sixteenth-ms²: * 2^32 / 16_000², as
        // * (2^44 / 10^6) >> 20.
        let a = (accel as u64 * ((1 << 44) / 1_000_000)) >> 20;
        let a = if a > u32::MAX as u64 {
            u32::MAX
        } else {
            a as u32
        };
        // Rounded down (saturating past 268 435 steps/s, which only lowers it):
        // the top speed stays within the configured one, and below 2^29.
        let ta = speed.saturating_mul(16_000) / accel;
        let ta = if ta < 16 { 16 } else { ta };
        Ramp {
            accel: a,
            accel_16: ta,
            speed: ((a as u64 * ta as u64) >> 8) as u32,
        }
    }

    /// The constant speed of homing.
    pub(super) const fn homing(c: &AxisConfig) -> Ramp {
        let per_s = c.homing_speed.saturating_mul(c.steps_per_mm);
        let per_s = if per_s > 1 << 18 { 1 << 18 } else { per_s };
        // * 2^24 / 16_000, as * (2^30 / 1000) >> 10.
        Ramp {
            accel: 0,
            accel_16: 0,
            speed: ((per_s as u64 * ((1 << 30) / 1000)) >> 10) as u32,
        }
    }

    /// The duration of a move of `distance` steps, sixteenths of a ms: the
    /// shortest `T` with `r(T / 2) + r(T - T / 2) >= distance`, by a binary search
    /// over that monotone test.
    #[inline(never)] // one copy: flash matters more than a call
    pub(super) fn duration(&self, distance: u32) -> u32 {
        let (mut lo, mut hi) = (0u32, u32::MAX);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.at(mid / 2) + self.at(mid - mid / 2) >= u64::from(distance) << (Q + 1) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// Steps (Q25) of the ramp `t` sixteenths of a ms after the start: below 2^62.
    #[inline(never)] // one copy: flash matters more than a call
    pub(super) fn at(&self, t: u32) -> u64 {
        let ta = t.min(self.accel_16);
        // The parabola up to ta (a ta² / 2, doubled), the cruise after it.
        let v = (u64::from(self.accel) * u64::from(ta)) >> 8;
        v * u64::from(ta) + 2 * u64::from(self.speed) * u64::from(t - ta)
    }
}

/// A trapezoidal (or, when short, triangular) speed profile in steps and
/// sixteenths of a ms, all in `u32` but for the `u64` products of two of them
/// (single multiply instructions, no library routine).
///
/// A move of `d` steps lasting `T` follows the [`Ramp`] `r(t)` up to `T / 2` and
/// `d - r(T - t)` (the mirrored ramp) after it, where `T` is the shortest time with
/// `r(T / 2) + r(T - T / 2) >= d`: so the two halves meet with a speed change of at
/// most one sixteenth of a ms of acceleration, and the profile never decreases.
/// Times past `u32::MAX` sixteenths (about 74 hours) saturate: the move ends there.
/// The ramp is not kept (its owner knows which it is): the same one is passed to
/// [`Profile::new`] and [`Profile::steps_at`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Profile {
    pub(super) distance: u32,
    /// The move's duration.
    total_16: u32,
}

impl Profile {
    /// The profile on `ramp` with its duration.
    pub(super) fn new(distance: u32, ramp: &Ramp) -> Profile {
        Profile {
            distance,
            total_16: ramp.duration(distance),
        }
    }

    /// The steps done `t` sixteenths of a ms after the start, on the profile's
    /// `ramp`.
    pub(super) fn steps_at(&self, ramp: &Ramp, t: u32) -> u32 {
        let total = self.total_16;
        if t >= total {
            return self.distance;
        }
        let s = if t <= total / 2 {
            ramp.at(t)
        } else {
            // The shortest duration leaves the mirrored ramp below the distance and
            // above the first half.
            (u64::from(self.distance) << (Q + 1)) - ramp.at(total - t)
        };
        ((s >> (Q + 1)) as u32).min(self.distance)
    }
}
