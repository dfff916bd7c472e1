//! Geometry in the machine frame: [`Point`]s in micrometres, the board [`Pose`]
//! (centre, rotation, square pitch) that maps squares to points, and the
//! [`Storage`] columns.
//!
//! Invariants: a [`Pose`] is only built checked ([`Pose::new`],
//! [`Pose::from_parts`], [`Pose::from_corners`]): pitch within [`PITCH_UM`],
//! rotation at most 45 degrees either way (`cos >= |sin|`, Q16). All arithmetic is
//! integer and saturating; nothing here panics.

use crate::Colour;
use tictable::Square;

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
    /// use tictable_machine::motion::Point;
    /// assert_eq!(Point::mm(160, -2), Point::new(160_000, -2_000));
    /// ```
    pub const fn mm(x_mm: i32, y_mm: i32) -> Point {
        Point::new(x_mm.saturating_mul(1000), y_mm.saturating_mul(1000))
    }

    /// The Euclidean distance to `other`, µm (an integer square root; saturates
    /// beyond about 2 km).
    ///
    /// ```
    /// use tictable_machine::motion::Point;
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
/// table).
fn isqrt(n: u64) -> u32 {
    let (mut root, mut bit) = (0u32, 1 << 31);
    while bit != 0 {
        let r = root | bit;
        if u64::from(r) * u64::from(r) <= n {
            root = r;
        }
        bit >>= 1;
    }
    root
}

/// 1.0 in the Q16 fixed point of a rotation's cos and sin.
pub const ROT_ONE: i32 = 1 << 16;

/// Square pitches a pose accepts, µm.
pub const PITCH_UM: core::ops::RangeInclusive<u32> = 20_000..=60_000;

/// Whether `pitch_um` is within [`PITCH_UM`] (`const`: `contains` is not).
const fn pitch_ok(pitch_um: u32) -> bool {
    *PITCH_UM.start() <= pitch_um && pitch_um <= *PITCH_UM.end()
}

/// A geometry that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
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

impl core::error::Error for PoseError {}

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
pub(super) fn sat(v: i64) -> i32 {
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
    /// use tictable_machine::motion::{Point, Pose, PoseError};
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
    /// use tictable_machine::motion::{Point, Pose, PoseError, ROT_ONE};
    /// let p = Pose::new(Point::mm(160, 130), -200, 31_000).unwrap();
    /// let (cos, sin) = p.rotation();
    /// assert_eq!(Pose::from_parts(p.centre(), cos, sin, p.pitch_um()), Ok(p));
    /// assert_eq!(Pose::from_parts(p.centre(), 0, ROT_ONE, 31_000), Err(PoseError::Rotation));
    /// ```
    ///
    /// `const`, so a pose fixed at build time is checked at build time (the firmware's
    /// first guess of the board).
    pub const fn from_parts(
        centre: Point,
        cos: i32,
        sin: i32,
        pitch_um: u32,
    ) -> Result<Pose, PoseError> {
        if !pitch_ok(pitch_um) {
            return Err(PoseError::Pitch(pitch_um));
        }
        let one = ROT_ONE as i64 * ROT_ONE as i64;
        let norm = cos as i64 * cos as i64 + sin as i64 * sin as i64;
        // (`wrapping_abs`: sin = i32::MIN stays negative here and fails the norm.)
        if cos < sin.wrapping_abs() || norm.abs_diff(one) > (one / 50) as u64 {
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
    /// use tictable_machine::motion::{Point, Pose, PoseError};
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
        // |c|, |s| <= len = sqrt(c² + s²) = sqrt(2 (u² + v²)) = 4 p < 2^22.
        let sq = |n: i32| i64::from(n) * i64::from(n);
        let len = isqrt((sq(c) + sq(s)) as u64);
        let pitch_um = (len + 2) / 4;
        // Checked before the division below (len / 8 >= 10_000 within PITCH_UM).
        if !pitch_ok(pitch_um) {
            return Err(PoseError::Pitch(pitch_um));
        }
        // cos = c / len and sin = s / len in Q16, as (c << 13) / (len / 8): with the
        // pitch within PITCH_UM, len < 2^18, |c| and |s| <= len, so c << 13 fits an
        // i32, and len / 8 is exact to 5e-5. Checked as every pose is, by
        // `from_parts` (c > 0, and sin clamped to |sin| <= cos).
        let den = ((len + 4) >> 3) as i32;
        let cos = (c << 13) / den;
        let sin = (s << 13) / den;
        let centre = Point::new(square0.x + u / 2, square0.y + v / 2);
        Pose::from_parts(centre, cos, sin.max(-cos).min(cos), pitch_um)
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
    /// use tictable_machine::motion::{Point, Storage};
    /// use tictable_machine::Colour;
    /// let s = Storage { first: [Point::mm(20, 70), Point::mm(300, 70)], step: Point::mm(0, 30) };
    /// assert_eq!(s.slot(Colour::White, 2), Some(Point::mm(300, 130)));
    /// assert_eq!(s.slot(Colour::White, 5), None);
    /// ```
    pub fn slot(&self, colour: Colour, index: usize) -> Option<Point> {
        (index < STORAGE_SLOTS).then(|| {
            let f = self.first[colour.index()];
            // first + index * step as first - step * -index: a factor known to be
            // non-negative makes the i64 product three instructions, a negative
            // one a single signed multiply (less flash).
            let k = -(index as i32);
            let at = |f: i32, step: i32| sat(i64::from(f) - i64::from(step) * i64::from(k));
            Point::new(at(f.x, self.step.x), at(f.y, self.step.y))
        })
    }
}
