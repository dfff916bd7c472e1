//! The mechanism: an XY gantry on two STEP/DIR steppers with homing switches, a Z
//! lift and an electromagnet, plus the geometry (board pose, storage columns).
//!
//! Moves follow a trapezoidal speed profile (constant acceleration, cruise,
//! constant deceleration) computed in closed form from the time since the move
//! started, so [`Axis::poll`] only has to emit the steps that are due: the super-loop
//! calls it as often as it likes and it never waits. [`Machine`] chains moves, lift
//! and magnet into a pick-and-place as one more polled state machine.
//!
//! Everything is integer arithmetic (no floating point, no libm: on a Cortex-M3
//! soft-float and libm cost kilobytes of flash):
//!
//! - positions are in **micrometres** (`i32`) in the machine frame (origin at the
//!   homing switches, x right, y away from the switch);
//! - a rotation is a pair (cos, sin) in Q16 fixed point ([`ROT_ONE`] = 1.0); the
//!   rotation limit of ±45 degrees is checked as `cos >= |sin|`, without trigonometry;
//! - angles in the API are in **tenths of a degree** (`200` = 20.0 degrees);
//! - the speed profile works in steps and sixteenths of a millisecond, all `u32`
//!   but for the `u64` product of two of them (one multiply instruction: no 64-bit
//!   multiplication or division routine), saturating so that no travel and no `u32`
//!   time can overflow.

use super::{elapsed_ms, Colour};
use crate::Square;
use embedded_hal::digital::{ErrorKind, InputPin, OutputPin};
use embedded_hal::pwm::{Error as _, SetDutyCycle};

/// A point in the machine frame, in micrometres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    /// Along the X axis, µm.
    pub x: i32,
    /// Along the Y axis, µm.
    pub y: i32,
}

impl Point {
    /// A point from micrometres.
    pub const fn new(x_um: i32, y_um: i32) -> Point {
        Point { x: x_um, y: y_um }
    }

    /// A point from whole millimetres (saturating far outside any machine).
    ///
    /// ```
    /// use tictable::device::motion::Point;
    /// assert_eq!(Point::mm(160, -2), Point::new(160_000, -2_000));
    /// ```
    pub const fn mm(x_mm: i32, y_mm: i32) -> Point {
        Point::new(x_mm.saturating_mul(1000), y_mm.saturating_mul(1000))
    }

    /// The Euclidean distance to `other`, µm (an integer square root; saturates
    /// beyond about 2 km).
    ///
    /// ```
    /// use tictable::device::motion::Point;
    /// assert_eq!(Point::new(0, 0).distance(Point::new(3_000, -4_000)), 5_000);
    /// ```
    pub fn distance(self, other: Point) -> u32 {
        let d = |a: i32, b: i32| u64::from(a.abs_diff(b).min(i32::MAX as u32));
        let (dx, dy) = (d(self.x, other.x), d(self.y, other.y));
        isqrt(dx * dx + dy * dy)
    }
}

/// The integer square root (rounded down), bit by bit from the top: no division
/// and no table (core's `u64::isqrt` brings in the 64-bit division routine and a
/// table, about 1.4 KiB of flash on a Cortex-M3).
fn isqrt(n: u64) -> u32 {
    let mut root = 0u32;
    for bit in (0..32).rev() {
        let r = root | 1 << bit;
        if u64::from(r) * u64::from(r) <= n {
            root = r;
        }
    }
    root
}

/// 1.0 in the Q16 fixed point of a rotation's cos and sin.
pub const ROT_ONE: i32 = 1 << 16;

/// Square pitches a pose accepts, µm.
pub const PITCH_UM: core::ops::RangeInclusive<u32> = 20_000..=60_000;

/// A geometry that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseError {
    /// The board is rotated by more than 45 degrees (or the rotation is not one).
    Rotation,
    /// The square pitch (the value, µm; `u32::MAX` for points over a metre apart)
    /// is outside [`PITCH_UM`].
    Pitch(u32),
}

impl core::fmt::Display for PoseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PoseError::Rotation => f.write_str("board rotation exceeds 45 degrees"),
            PoseError::Pitch(p) => write!(f, "square pitch {p} um outside 20..=60 mm"),
        }
    }
}

/// `a * b` in Q30 (both Q30).
fn mul_q30(a: i32, b: i32) -> i32 {
    ((i64::from(a) * i64::from(b)) >> 30) as i32
}

/// Cos and sin (Q16) of `decideg` tenths of a degree, |angle| <= 45 degrees, from
/// their Taylor series in Q30 (error below 1e-6 there).
fn cos_sin(decideg: i32) -> (i32, i32) {
    const ONE: i32 = 1 << 30;
    // pi / 1800 in Q30: tenths of a degree to radians.
    let x = decideg.clamp(-450, 450) * 1_874_033;
    let x2 = mul_q30(x, x);
    let mut s = ONE - x2 / 42;
    s = ONE - mul_q30(x2, s) / 20;
    s = ONE - mul_q30(x2, s) / 6;
    let sin = mul_q30(x, s);
    let mut c = ONE - x2 / 56;
    c = ONE - mul_q30(x2, c) / 30;
    c = ONE - mul_q30(x2, c) / 12;
    let cos = ONE - mul_q30(x2, c) / 2;
    let q16 = |v: i32| (v + (1 << 13)) >> 14;
    let cos = q16(cos);
    // Exactly 45 degrees must pass the limit check whatever the rounding.
    (cos, q16(sin).clamp(-cos, cos))
}

/// An `i64` saturated into an `i32`.
#[inline(never)] // one copy: flash matters more than a call
fn sat(v: i64) -> i32 {
    let t = v as i32;
    if i64::from(t) == v {
        t
    } else {
        // i32::MIN below, i32::MAX above.
        (v >> 63) as i32 ^ i32::MAX
    }
}

/// Where the board lies: its centre, its rotation and its square pitch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pose {
    centre: Point,
    cos: i32,
    sin: i32,
    pitch_um: u32,
}

impl Pose {
    /// A pose: the centre of square 4, the rotation in tenths of a degree
    /// (counter-clockwise, at most 450 either way) and the distance between
    /// square centres in µm (within [`PITCH_UM`]).
    ///
    /// ```
    /// use tictable::device::motion::{Point, Pose, PoseError};
    /// use tictable::Square;
    /// let p = Pose::new(Point::mm(150, 100), 0, 32_000).unwrap();
    /// let c = p.square_centre(Square::new(0).unwrap());
    /// assert_eq!(c, Point::mm(118, 132)); // top left: -x, +y
    /// assert_eq!(Pose::new(Point::mm(0, 0), 451, 32_000), Err(PoseError::Rotation));
    /// ```
    pub fn new(centre: Point, angle_decideg: i32, pitch_um: u32) -> Result<Pose, PoseError> {
        if angle_decideg.unsigned_abs() > 450 {
            return Err(PoseError::Rotation);
        }
        let (cos, sin) = cos_sin(angle_decideg);
        Pose::from_parts(centre, cos, sin, pitch_um)
    }

    /// A pose from its stored parts ([`Pose::centre`], [`Pose::rotation`],
    /// [`Pose::pitch_um`]), checked: the pitch within [`PITCH_UM`], (cos, sin) a
    /// rotation (unit length within 2 %) of at most 45 degrees either way.
    ///
    /// ```
    /// use tictable::device::motion::{Point, Pose, PoseError, ROT_ONE};
    /// let p = Pose::new(Point::mm(160, 130), -200, 31_000).unwrap();
    /// let (cos, sin) = p.rotation();
    /// assert_eq!(Pose::from_parts(p.centre(), cos, sin, p.pitch_um()), Ok(p));
    /// assert_eq!(Pose::from_parts(p.centre(), 0, ROT_ONE, 31_000), Err(PoseError::Rotation));
    /// ```
    pub fn from_parts(centre: Point, cos: i32, sin: i32, pitch_um: u32) -> Result<Pose, PoseError> {
        if !PITCH_UM.contains(&pitch_um) {
            return Err(PoseError::Pitch(pitch_um));
        }
        let one = i64::from(ROT_ONE) * i64::from(ROT_ONE);
        let norm = i64::from(cos) * i64::from(cos) + i64::from(sin) * i64::from(sin);
        if cos < sin.saturating_abs() || norm.abs_diff(one) > (one / 50) as u64 {
            return Err(PoseError::Rotation);
        }
        Ok(Pose {
            centre,
            cos,
            sin,
            pitch_um,
        })
    }

    /// The pose from the measured centres of squares 0 (top left) and 8 (bottom
    /// right), as found by jogging the head onto the two marked squares. The
    /// rotation limit is checked exactly on the two points; the pitch is the
    /// diagonal / (2 √2), from an integer square root.
    ///
    /// ```
    /// use tictable::device::motion::{Point, Pose, PoseError};
    /// use tictable::Square;
    /// let truth = Pose::new(Point::mm(150, 100), 300, 31_000).unwrap();
    /// let p = Pose::from_corners(
    ///     truth.square_centre(Square::new(0).unwrap()),
    ///     truth.square_centre(Square::new(8).unwrap()),
    /// ).unwrap();
    /// assert!(p.pitch_um().abs_diff(31_000) <= 1);
    /// assert!(p.rotation().1.abs_diff(truth.rotation().1) <= 8); // sin, Q16
    /// // The same point twice has no pitch; square 8 left of square 0 is turned too far.
    /// assert_eq!(Pose::from_corners(Point::mm(9, 9), Point::mm(9, 9)), Err(PoseError::Pitch(0)));
    /// assert_eq!(Pose::from_corners(Point::mm(200, 100), Point::mm(100, 50)), Err(PoseError::Rotation));
    /// ```
    pub fn from_corners(square0: Point, square8: Point) -> Result<Pose, PoseError> {
        // More than a metre apart along an axis: no board (a pitch too large to give).
        let d = |a: i32, b: i32| i64::from(b) - i64::from(a);
        let (u, v) = (d(square0.x, square8.x), d(square0.y, square8.y));
        if u.unsigned_abs().max(v.unsigned_abs()) >= 1 << 20 {
            return Err(PoseError::Pitch(u32::MAX));
        }
        let (u, v) = (u as i32, v as i32);
        // Rotated by a, square 8 lies at 2p (cos a + sin a, sin a - cos a) from
        // square 0: cos a ~ u - v, sin a ~ u + v, and |a| <= 45 <=> cos >= |sin|.
        let (c, s) = (u - v, u + v);
        // Exactly 45 degrees passes despite the µm rounding of the two points
        // (16 µm over the 4-pitch diagonal: about 0.005 degrees).
        if c + 16 < s.abs() {
            return Err(PoseError::Rotation);
        }
        // |c|, |s| <= len = sqrt(2 (u² + v²)) = 4 p < 2^22.
        let sq = |n: i32| i64::from(n) * i64::from(n);
        let len = isqrt(2 * (sq(u) + sq(v)) as u64);
        // Scale down so that len < 2^15 and (c << 16) / len fits an i32.
        let shift = (32 - len.leading_zeros()).saturating_sub(15);
        let den = (len >> shift).clamp(1, 1 << 15) as i32;
        let cos = (((c >> shift) * ROT_ONE) / den).max(0);
        let sin = ((s >> shift) * ROT_ONE) / den;
        let centre = Point::new(square0.x + u / 2, square0.y + v / 2);
        Pose::from_parts(centre, cos, sin.clamp(-cos, cos), (len + 2) / 4)
    }

    /// The rotation as (cos, sin) in Q16 ([`ROT_ONE`] = 1.0).
    pub fn rotation(&self) -> (i32, i32) {
        (self.cos, self.sin)
    }

    /// The distance between neighbouring square centres, µm.
    pub fn pitch_um(&self) -> u32 {
        self.pitch_um
    }

    /// The board centre.
    pub fn centre(&self) -> Point {
        self.centre
    }

    /// `(x cos - y sin, x sin + y cos)`, rounded.
    fn rotate(&self, x: i64, y: i64, sin: i32) -> (i64, i64) {
        let (c, s) = (i64::from(self.cos), i64::from(sin));
        let half = i64::from(ROT_ONE / 2);
        ((x * c - y * s + half) >> 16, (x * s + y * c + half) >> 16)
    }

    /// Board-frame coordinates (x right, y up, centre at 0; µm) to the machine frame.
    pub fn to_machine(&self, local: Point) -> Point {
        let (x, y) = self.rotate(local.x.into(), local.y.into(), self.sin);
        Point::new(
            sat(x + i64::from(self.centre.x)),
            sat(y + i64::from(self.centre.y)),
        )
    }

    /// Machine-frame coordinates to the board frame.
    pub fn to_board(&self, p: Point) -> Point {
        let dx = i64::from(p.x) - i64::from(self.centre.x);
        let dy = i64::from(p.y) - i64::from(self.centre.y);
        let (x, y) = self.rotate(dx, dy, -self.sin);
        Point::new(sat(x), sat(y))
    }

    /// The centre of `square` in the machine frame.
    pub fn square_centre(&self, square: Square) -> Point {
        let p = self.pitch_um as i32;
        let col = i32::from(square.column()) - 1;
        let row = i32::from(square.row()) - 1;
        self.to_machine(Point::new(col * p, -row * p))
    }

    /// The square whose centre is within `tolerance_um` of `p` along both board
    /// axes, if any.
    pub fn square_at(&self, p: Point, tolerance_um: u32) -> Option<Square> {
        let local = self.to_board(p);
        let pitch = self.pitch_um as i32;
        // The nearest column and row (-1..=1 on the board), and the offset from it.
        let near = |v: i32| {
            let i = v.saturating_add(pitch / 2).div_euclid(pitch);
            (i, v.abs_diff(i.saturating_mul(pitch)))
        };
        let (col, off_x) = near(local.x);
        let (row, off_y) = near(local.y.saturating_neg());
        if !(-1..=1).contains(&col) || !(-1..=1).contains(&row) {
            return None;
        }
        if off_x > tolerance_um || off_y > tolerance_um {
            return None;
        }
        Square::new(((row + 1) * 3 + col + 1) as u8)
    }
}

/// Pieces per storage column.
pub const STORAGE_SLOTS: usize = 5;

/// The two storage columns, one per colour, five slots each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storage {
    /// The first slot of the black column and of the white column.
    pub first: [Point; 2],
    /// The offset from one slot to the next.
    pub step: Point,
}

impl Storage {
    /// The centre of slot `index` (0..5) of `colour`'s column; `None` past the end.
    ///
    /// ```
    /// use tictable::device::motion::{Point, Storage};
    /// use tictable::device::Colour;
    /// let s = Storage { first: [Point::mm(20, 70), Point::mm(300, 70)], step: Point::mm(0, 30) };
    /// assert_eq!(s.slot(Colour::White, 2), Some(Point::mm(300, 130)));
    /// assert_eq!(s.slot(Colour::White, 5), None);
    /// ```
    pub fn slot(&self, colour: Colour, index: usize) -> Option<Point> {
        (index < STORAGE_SLOTS).then(|| {
            let f = self.first[colour.index()];
            let k = index as i32;
            let at = |f: i32, step: i32| sat(i64::from(f) + i64::from(step) * i64::from(k));
            Point::new(at(f.x, self.step.x), at(f.y, self.step.y))
        })
    }
}

/// A hardware fault of a pin or a PWM channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwError {
    /// A digital pin failed.
    Pin(ErrorKind),
    /// A PWM channel failed.
    Pwm(embedded_hal::pwm::ErrorKind),
}

fn pin<E: embedded_hal::digital::Error>(e: E) -> HwError {
    HwError::Pin(e.kind())
}

/// The Z lift: lowers the magnet onto a piece and raises it.
pub trait Lift {
    /// Lowers (`true`) or raises (`false`) the head.
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError>;
}

/// A lift driven by one pin (a solenoid or a small motor driver): high = lowered.
#[derive(Debug)]
pub struct PinLift<O>(pub O);

impl<O: OutputPin> Lift for PinLift<O> {
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError> {
        self.0.set_state(lowered.into()).map_err(pin)
    }
}

/// A lift driven by a hobby servo on a PWM channel; the two positions are duty
/// cycles in thousandths (at 50 Hz, 1 ms = 50, 2 ms = 100).
#[derive(Debug)]
pub struct ServoLift<P> {
    /// The PWM channel.
    pub pwm: P,
    /// Duty (per mille) with the head raised.
    pub up_permille: u16,
    /// Duty (per mille) with the head lowered.
    pub down_permille: u16,
}

impl<P: SetDutyCycle> Lift for ServoLift<P> {
    fn set_lowered(&mut self, lowered: bool) -> Result<(), HwError> {
        let duty = if lowered {
            self.down_permille
        } else {
            self.up_permille
        };
        self.pwm
            .set_duty_cycle_fraction(duty, 1000)
            .map_err(|e| HwError::Pwm(e.kind()))
    }
}

/// The two gantry axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisId {
    /// The X axis.
    X,
    /// The Y axis.
    Y,
}

/// A motion that cannot be done or went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MotionError {
    /// The target lies outside the axis travel.
    OutOfTravel(AxisId),
    /// The homing switch never closed within the travel.
    HomingFailed(AxisId),
    /// The homing switch closed during a move: steps were lost.
    LimitHit(AxisId),
    /// A move was asked before homing.
    NotHomed,
    /// A pin or PWM failure.
    Hw(HwError),
}

impl From<HwError> for MotionError {
    fn from(e: HwError) -> MotionError {
        MotionError::Hw(e)
    }
}

impl core::fmt::Display for MotionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MotionError::OutOfTravel(a) => write!(f, "{a:?} target outside the travel"),
            MotionError::HomingFailed(a) => write!(f, "{a:?} homing switch not found"),
            MotionError::LimitHit(a) => write!(f, "{a:?} limit switch hit during a move"),
            MotionError::NotHomed => f.write_str("gantry not homed"),
            MotionError::Hw(e) => write!(f, "hardware fault: {e:?}"),
        }
    }
}

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
    /// use tictable::device::motion::AxisConfig;
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
    /// use tictable::device::motion::AxisConfig;
    /// let c = AxisConfig::DEFAULT;
    /// // 15 000 steps/s² * (0.1 s)² / 2 = 75, less a hair of fixed-point rounding.
    /// assert_eq!(c.steps_due(2000, 100), 74);
    /// assert_eq!(c.steps_due(2000, 967), 2000);
    /// assert_eq!(c.steps_due(2000, u32::MAX), 2000);
    /// ```
    pub fn steps_due(&self, steps: u32, elapsed_ms: u32) -> u32 {
        Profile::new(steps, Ramp::moves(self)).steps_at(elapsed_ms.saturating_mul(16))
    }

    /// The whole travel in steps.
    const fn max_steps(&self) -> i32 {
        let max = self.travel_mm.saturating_mul(self.steps_per_mm);
        if max > i32::MAX as u32 {
            i32::MAX
        } else {
            max as i32
        }
    }

    /// A coordinate (µm) in steps, rounded (saturating far out of travel).
    #[inline(never)] // one copy: flash matters more than a call
    fn steps(&self, um: i32) -> i32 {
        let spm = self.steps_per_mm.min(1_000_000) as i32;
        let frac = (um % 1000 * spm + if um < 0 { -500 } else { 500 }) / 1000;
        sat(i64::from(um / 1000) * i64::from(spm) + i64::from(frac))
    }

    /// A position in steps in µm, rounded.
    fn um(&self, steps: i32) -> i32 {
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
struct Ramp {
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
    const fn moves(c: &AxisConfig) -> Ramp {
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
    const fn homing(c: &AxisConfig) -> Ramp {
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
    fn duration(&self, distance: u32) -> u32 {
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
    fn at(&self, t: u32) -> u64 {
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Profile {
    distance: u32,
    ramp: Ramp,
    /// The move's duration.
    total_16: u32,
}

impl Profile {
    /// The profile with its duration.
    fn new(distance: u32, ramp: Ramp) -> Profile {
        Profile {
            distance,
            ramp,
            total_16: ramp.duration(distance),
        }
    }

    /// The steps done `t` sixteenths of a ms after the start.
    fn steps_at(&self, t: u32) -> u32 {
        let total = self.total_16;
        if t >= total {
            return self.distance;
        }
        let s = if t <= total / 2 {
            self.ramp.at(t)
        } else {
            // The shortest duration leaves the mirrored ramp below the distance and
            // above the first half.
            (u64::from(self.distance) << (Q + 1)) - self.ramp.at(total - t)
        };
        ((s >> (Q + 1)) as u32).min(self.distance)
    }
}

/// What an axis is doing.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Idle,
    Homing,
    Moving,
}

/// One stepper axis: STEP and DIR outputs and an active-low homing switch at 0.
#[derive(Debug)]
pub struct Axis<O, I> {
    id: AxisId,
    step: O,
    dir: O,
    limit: I,
    config: AxisConfig,
    /// From the config: the travel in steps and the ramps of moves and homing.
    max_steps: i32,
    ramp: Ramp,
    homing: Ramp,
    position: i32,
    homed: bool,
    mode: Mode,
    /// The direction of the current move (homing: backwards).
    forward: bool,
    /// When the current move or homing started, ms.
    started: u32,
    /// The steps emitted since.
    done: u32,
    profile: Profile,
}

impl<O: OutputPin, I: InputPin> Axis<O, I> {
    /// An axis, not homed.
    pub fn new(id: AxisId, step: O, dir: O, limit: I, config: AxisConfig) -> Axis<O, I> {
        Axis {
            id,
            step,
            dir,
            limit,
            config,
            max_steps: config.max_steps(),
            ramp: Ramp::moves(&config),
            homing: Ramp::homing(&config),
            position: 0,
            homed: false,
            mode: Mode::Idle,
            forward: false,
            started: 0,
            done: 0,
            profile: Profile::default(),
        }
    }

    /// The position in steps from the homing switch.
    pub fn position(&self) -> i32 {
        self.position
    }

    /// The configuration.
    pub fn config(&self) -> &AxisConfig {
        &self.config
    }

    /// Whether the axis has been homed.
    pub fn is_homed(&self) -> bool {
        self.homed
    }

    /// `target` (steps) within the travel, or the error.
    fn check(&self, target: i32) -> Result<(), MotionError> {
        if (0..=self.max_steps).contains(&target) {
            Ok(())
        } else {
            Err(MotionError::OutOfTravel(self.id))
        }
    }

    /// Sets the direction and starts a move of `distance` steps (or homing).
    fn start(
        &mut self,
        homing: bool,
        forward: bool,
        distance: u32,
        now_ms: u32,
    ) -> Result<(), MotionError> {
        if forward {
            self.dir.set_high()
        } else {
            self.dir.set_low()
        }
        .map_err(pin)?;
        let (mode, ramp) = if homing {
            (Mode::Homing, self.homing)
        } else {
            (Mode::Moving, self.ramp)
        };
        self.mode = mode;
        self.forward = forward;
        self.profile = Profile::new(distance, ramp);
        self.started = now_ms;
        self.done = 0;
        Ok(())
    }

    /// Starts homing: towards the switch at the homing speed, giving up after 110 %
    /// of the travel.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        let max = self.max_steps as u32;
        self.start(true, false, max + max / 10 + 1, now_ms)?;
        self.homed = false;
        Ok(())
    }

    /// Starts a move to `target` steps.
    pub fn start_move(&mut self, target: i32, now_ms: u32) -> Result<(), MotionError> {
        if !self.homed {
            return Err(MotionError::NotHomed);
        }
        self.check(target)?;
        self.go(target, now_ms)
    }

    /// Starts a move to `target` steps, already checked (homed, within the travel).
    fn go(&mut self, target: i32, now_ms: u32) -> Result<(), MotionError> {
        let distance = target.abs_diff(self.position);
        self.start(false, target >= self.position, distance, now_ms)
    }

    /// Emits the steps due at `now_ms`; `Ok` once idle. The same as
    /// [`Axis::poll_at`] at the start of that millisecond.
    pub fn poll(&mut self, now_ms: u32) -> nb::Result<(), MotionError> {
        self.poll_at(now_ms, 0)
    }

    /// Emits the steps due `sub_ms_us` microseconds (0..=999) into millisecond
    /// `now_ms`; `Ok` once idle. With a sub-millisecond time a move's steps come out
    /// at their due times to a sixteenth of a millisecond when polled often enough,
    /// instead of together at each millisecond tick (a step at 2 500 steps/s is due
    /// every 400 µs; `tests/device_motion.rs` measures the spacing).
    pub fn poll_at(&mut self, now_ms: u32, sub_ms_us: u16) -> nb::Result<(), MotionError> {
        if matches!(self.mode, Mode::Idle) {
            return Ok(());
        }
        let homing = matches!(self.mode, Mode::Homing);
        let t16 = elapsed_ms(now_ms, self.started)
            .saturating_mul(16)
            .saturating_add(u32::from(sub_ms_us.min(999)) * 16 / 1000);
        let due = self.profile.steps_at(t16);
        let result = loop {
            if self.done >= due {
                if self.done < self.profile.distance {
                    return Err(nb::Error::WouldBlock);
                }
                // Homing: the switch never closed.
                break if homing {
                    Err(MotionError::HomingFailed(self.id))
                } else {
                    Ok(())
                };
            }
            // The switch is watched on the way back to it (homing too): every step
            // of a move back starts above 0.
            if !self.forward && self.limit.is_low().map_err(|e| MotionError::Hw(pin(e)))? {
                self.homed = homing;
                if homing {
                    self.position = 0;
                    break Ok(());
                }
                break Err(MotionError::LimitHit(self.id));
            }
            self.step.set_high().map_err(|e| MotionError::Hw(pin(e)))?;
            self.step.set_low().map_err(|e| MotionError::Hw(pin(e)))?;
            self.done += 1;
            // (Meaningless while homing, which ends at 0 or not homed.)
            self.position = self
                .position
                .wrapping_add(if self.forward { 1 } else { -1 });
        };
        self.mode = Mode::Idle;
        result.map_err(nb::Error::Other)
    }
}

/// Timing of the lift and the magnet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadTiming {
    /// Time for the lift to go down or up, ms.
    pub lift_ms: u32,
    /// Time for the magnet to grip after switching on, ms.
    pub grip_ms: u32,
    /// Time for the piece to drop after switching off, ms.
    pub release_ms: u32,
}

impl HeadTiming {
    /// 250 ms lift, 100 ms grip, 150 ms release.
    pub const DEFAULT: HeadTiming = HeadTiming {
        lift_ms: 250,
        grip_ms: 100,
        release_ms: 150,
    };
}

/// The steps of a job, three bits each, the first in the low bits (0: the end).
const RAISE: u32 = 1;
const LOWER: u32 = 2;
const GRIP: u32 = 3;
const RELEASE: u32 = 4;
/// Go to the first point of the job (`| 1`: the second).
const GO_FROM: u32 = 6;
const GO_TO: u32 = GO_FROM | 1;

/// A job's steps in the form a [`Machine`] runs them.
const fn plan(steps: &[u32]) -> u32 {
    let (mut i, mut plan) = (steps.len(), 0);
    while i > 0 {
        i -= 1;
        plan = plan << 3 | steps[i];
    }
    plan
}

/// A pick-and-place.
const TRANSFER: u32 = plan(&[
    RAISE, GO_FROM, LOWER, GRIP, RAISE, GO_TO, LOWER, RELEASE, RAISE,
]);

/// A move of the raised head.
const MOVE: u32 = plan(&[RAISE, GO_TO]);

/// The whole head: gantry, lift, magnet; homes, moves, picks and places.
#[derive(Debug)]
pub struct Machine<O, I, L> {
    x: Axis<O, I>,
    y: Axis<O, I>,
    lift: L,
    magnet: O,
    timing: HeadTiming,
    /// Whether a job runs.
    busy: bool,
    /// The job's steps left (see [`plan`]) and its two points, in steps.
    plan: u32,
    targets: [(i32, i32); 2],
    /// The last lift or magnet action: when it started and how long it lasts, ms.
    since: u32,
    wait: u32,
    /// The lift position last commanded: 1 lowered, 0 raised, 2 before the first
    /// command.
    lowered: u8,
}

impl<O: OutputPin, I: InputPin, L: Lift> Machine<O, I, L> {
    /// A machine from its axes, lift, magnet pin and timing.
    pub fn new(x: Axis<O, I>, y: Axis<O, I>, lift: L, magnet: O, timing: HeadTiming) -> Self {
        Machine {
            x,
            y,
            lift,
            magnet,
            timing,
            busy: false,
            plan: 0,
            targets: [(0, 0); 2],
            since: 0,
            wait: 0,
            lowered: 2,
        }
    }

    /// Whether both axes are homed.
    pub fn is_homed(&self) -> bool {
        self.x.is_homed() && self.y.is_homed()
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// Ends the job (the axes stop where they are).
    #[inline(never)] // one copy for its three callers
    fn stop(&mut self) {
        self.busy = false;
        self.plan = 0;
        self.wait = 0;
        self.x.mode = Mode::Idle;
        self.y.mode = Mode::Idle;
    }

    /// The head position (µm, to the nearest µm of the step reached).
    pub fn position(&self) -> Point {
        Point::new(
            self.x.config().um(self.x.position()),
            self.y.config().um(self.y.position()),
        )
    }

    fn steps(&self, p: Point) -> (i32, i32) {
        (self.x.config().steps(p.x), self.y.config().steps(p.y))
    }

    /// Whether the head can reach `p` (within the travel of both axes).
    pub fn reachable(&self, p: Point) -> bool {
        self.target(p).is_ok()
    }

    /// Raises the head, switches the magnet off and homes both axes.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        self.lift.set_lowered(false)?;
        self.lowered = 0;
        self.magnet.set_low().map_err(pin)?;
        self.stop();
        self.x.start_homing(now_ms)?;
        self.y.start_homing(now_ms)?;
        self.busy = true;
        Ok(())
    }

    /// `p` in steps, checked within the travel of both axes.
    fn target(&self, p: Point) -> Result<(i32, i32), MotionError> {
        let (x, y) = self.steps(p);
        self.x.check(x)?;
        self.y.check(y)?;
        Ok((x, y))
    }

    fn start_plan(&mut self, plan: u32, from: Point, to: Point) -> Result<(), MotionError> {
        if !self.is_homed() {
            return Err(MotionError::NotHomed);
        }
        let targets = [self.target(from)?, self.target(to)?];
        self.stop();
        self.busy = true;
        self.plan = plan;
        self.targets = targets;
        Ok(())
    }

    /// Starts moving the (raised) head to `to`.
    pub fn start_move(&mut self, to: Point) -> Result<(), MotionError> {
        self.start_plan(MOVE, to, to)
    }

    /// Starts a pick-and-place: the piece at `from` is lifted and put down at `to`.
    pub fn start_transfer(&mut self, from: Point, to: Point) -> Result<(), MotionError> {
        self.start_plan(TRANSFER, from, to)
    }

    /// The time in ms a transfer from the current position takes, from the model.
    pub fn transfer_ms(&self, from: Point, to: Point) -> u32 {
        let here = (self.x.position(), self.y.position());
        let from = self.steps(from);
        4 * self.timing.lift_ms
            + self.timing.grip_ms
            + self.timing.release_ms
            + self.travel(here, from)
            + self.travel(from, self.steps(to))
    }

    /// The time in ms to travel between two points (both axes move at once).
    pub fn travel_ms(&self, a: Point, b: Point) -> u32 {
        self.travel(self.steps(a), self.steps(b))
    }

    /// The time in ms to travel between two positions in steps.
    fn travel(&self, (ax, ay): (i32, i32), (bx, by): (i32, i32)) -> u32 {
        let x = self.x.ramp.duration(ax.abs_diff(bx));
        x.max(self.y.ramp.duration(ay.abs_diff(by))).div_ceil(16)
    }

    /// Advances the current job; `Ok` when idle. The same as [`Machine::poll_at`] at
    /// the start of that millisecond.
    pub fn poll(&mut self, now_ms: u32) -> nb::Result<(), MotionError> {
        self.poll_at(now_ms, 0)
    }

    /// Advances the current job at `sub_ms_us` microseconds (0..=999) into
    /// millisecond `now_ms`: the axes' steps come out at their due times (see
    /// [`Axis::poll_at`]); `Ok` when idle.
    pub fn poll_at(&mut self, now_ms: u32, sub_ms_us: u16) -> nb::Result<(), MotionError> {
        if !self.busy {
            return Ok(());
        }
        let r = self.advance(now_ms, sub_ms_us);
        if !matches!(r, Err(nb::Error::WouldBlock)) {
            // Done or failed. On a failure the magnet stays on: a held piece is not
            // dropped mid-air.
            self.stop();
        }
        r
    }

    fn advance(&mut self, now_ms: u32, sub_ms_us: u16) -> nb::Result<(), MotionError> {
        loop {
            // Idle axes answer `Ok` at once.
            let x = self.x.poll_at(now_ms, sub_ms_us);
            let y = self.y.poll_at(now_ms, sub_ms_us);
            // A failure of either axis (x's first), then waiting on either.
            if let Err(nb::Error::Other(e)) = x {
                return Err(nb::Error::Other(e));
            }
            y?;
            x?;
            if elapsed_ms(now_ms, self.since) < self.wait {
                return Err(nb::Error::WouldBlock);
            }
            let step = self.plan & 7;
            self.plan >>= 3;
            let t = &self.timing;
            self.since = now_ms;
            self.wait = match step {
                0 => return Ok(()),
                RAISE | LOWER => {
                    let down = step == LOWER;
                    self.lift.set_lowered(down).map_err(MotionError::Hw)?;
                    // Waits only when the lift actually moves.
                    let moved = self.lowered != u8::from(down);
                    self.lowered = u8::from(down);
                    if moved {
                        t.lift_ms
                    } else {
                        0
                    }
                }
                GRIP => {
                    self.magnet
                        .set_high()
                        .map_err(|e| MotionError::Hw(pin(e)))?;
                    t.grip_ms
                }
                RELEASE => {
                    self.magnet.set_low().map_err(|e| MotionError::Hw(pin(e)))?;
                    t.release_ms
                }
                _ => {
                    let (x, y) = self.targets[(step & 1) as usize];
                    // Checked by `start_plan`; a failure since ended the job.
                    self.x.go(x, now_ms)?;
                    self.y.go(y, now_ms)?;
                    0
                }
            };
        }
    }
}
