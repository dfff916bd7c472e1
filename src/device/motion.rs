//! The mechanism: an XY gantry on two STEP/DIR steppers with homing switches, a Z
//! lift and an electromagnet, plus the geometry (board pose, storage columns).
//!
//! Moves follow a trapezoidal speed profile (constant acceleration, cruise,
//! constant deceleration) computed in closed form from the time since the move
//! started, so [`Axis::poll`] only has to emit the steps that are due: the super-loop
//! calls it as often as it likes and it never waits. [`Machine`] chains moves, lift
//! and magnet into a pick-and-place as one more polled state machine.
//!
//! Geometry is in millimetres in the machine frame (origin at the homing switches).

use super::{elapsed_ms, Colour};
use crate::Square;
use embedded_hal::digital::{ErrorKind, InputPin, OutputPin};
use embedded_hal::pwm::{Error as _, SetDutyCycle};

/// A point in the machine frame, in millimetres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Along the X axis.
    pub x: f32,
    /// Along the Y axis.
    pub y: f32,
}

impl Point {
    /// A point.
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    /// The Euclidean distance to `other`.
    pub fn distance(self, other: Point) -> f32 {
        libm::hypotf(self.x - other.x, self.y - other.y)
    }
}

/// A geometry that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PoseError {
    /// The board is rotated by more than 45 degrees (the value, in degrees).
    Rotation(f32),
    /// The square pitch is outside 20..=60 mm (the value).
    Pitch(f32),
}

impl core::fmt::Display for PoseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PoseError::Rotation(d) => write!(f, "board rotation {d} degrees exceeds 45"),
            PoseError::Pitch(p) => write!(f, "square pitch {p} mm outside 20..=60"),
        }
    }
}

/// Where the board lies: its centre, its rotation and its square pitch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    centre: Point,
    angle_rad: f32,
    pitch_mm: f32,
    sin: f32,
    cos: f32,
}

impl Pose {
    /// A pose: the centre of square 4, the rotation in degrees (counter-clockwise,
    /// at most 45 either way) and the distance between square centres.
    ///
    /// ```
    /// use tictable::device::motion::{Point, Pose};
    /// use tictable::Square;
    /// let p = Pose::new(Point::new(150.0, 100.0), 0.0, 32.0).unwrap();
    /// let c = p.square_centre(Square::new(0).unwrap());
    /// assert_eq!((c.x, c.y), (118.0, 132.0)); // top left: -x, +y
    /// assert!(Pose::new(Point::new(0.0, 0.0), 50.0, 32.0).is_err());
    /// ```
    pub fn new(centre: Point, angle_deg: f32, pitch_mm: f32) -> Result<Pose, PoseError> {
        // `contains` is false for NaN too.
        if !(-45.0..=45.0).contains(&angle_deg) {
            return Err(PoseError::Rotation(angle_deg));
        }
        if !(20.0..=60.0).contains(&pitch_mm) {
            return Err(PoseError::Pitch(pitch_mm));
        }
        let angle_rad = angle_deg * core::f32::consts::PI / 180.0;
        Ok(Pose {
            centre,
            angle_rad,
            pitch_mm,
            sin: libm::sinf(angle_rad),
            cos: libm::cosf(angle_rad),
        })
    }

    /// The pose from the measured centres of squares 0 (top left) and 8 (bottom
    /// right), as found by jogging the head onto the two marked squares.
    ///
    /// ```
    /// use tictable::device::motion::{Point, Pose};
    /// use tictable::Square;
    /// let truth = Pose::new(Point::new(150.0, 100.0), 30.0, 31.0).unwrap();
    /// let p = Pose::from_corners(
    ///     truth.square_centre(Square::new(0).unwrap()),
    ///     truth.square_centre(Square::new(8).unwrap()),
    /// ).unwrap();
    /// assert!((p.angle_deg() - 30.0).abs() < 0.01 && (p.pitch_mm() - 31.0).abs() < 0.01);
    /// ```
    pub fn from_corners(square0: Point, square8: Point) -> Result<Pose, PoseError> {
        let centre = Point::new((square0.x + square8.x) / 2.0, (square0.y + square8.y) / 2.0);
        let (dx, dy) = (square8.x - square0.x, square8.y - square0.y);
        // Unrotated, square 8 lies at (+2p, -2p) from square 0: an angle of -45 degrees.
        let angle = libm::atan2f(dy, dx) + core::f32::consts::FRAC_PI_4;
        let pitch = libm::hypotf(dx, dy) / (2.0 * core::f32::consts::SQRT_2);
        Pose::new(centre, angle * 180.0 / core::f32::consts::PI, pitch)
    }

    /// The rotation in degrees.
    pub fn angle_deg(&self) -> f32 {
        self.angle_rad * 180.0 / core::f32::consts::PI
    }

    /// The distance between neighbouring square centres.
    pub fn pitch_mm(&self) -> f32 {
        self.pitch_mm
    }

    /// The board centre.
    pub fn centre(&self) -> Point {
        self.centre
    }

    /// Board-frame coordinates (x right, y up, centre at 0) to the machine frame.
    pub fn to_machine(&self, local: Point) -> Point {
        Point::new(
            self.centre.x + local.x * self.cos - local.y * self.sin,
            self.centre.y + local.x * self.sin + local.y * self.cos,
        )
    }

    /// Machine-frame coordinates to the board frame.
    pub fn to_board(&self, p: Point) -> Point {
        let (dx, dy) = (p.x - self.centre.x, p.y - self.centre.y);
        Point::new(
            dx * self.cos + dy * self.sin,
            -dx * self.sin + dy * self.cos,
        )
    }

    /// The centre of `square` in the machine frame.
    pub fn square_centre(&self, square: Square) -> Point {
        let col = square.column() as f32 - 1.0;
        let row = square.row() as f32 - 1.0;
        self.to_machine(Point::new(col * self.pitch_mm, -row * self.pitch_mm))
    }

    /// The square whose centre is within `tolerance_mm` of `p` along both board
    /// axes, if any.
    pub fn square_at(&self, p: Point, tolerance_mm: f32) -> Option<Square> {
        let local = self.to_board(p);
        let col = libm::roundf(local.x / self.pitch_mm);
        let row = libm::roundf(-local.y / self.pitch_mm);
        if !(-1.0..=1.0).contains(&col) || !(-1.0..=1.0).contains(&row) {
            return None;
        }
        let off_x = (local.x - col * self.pitch_mm).abs();
        let off_y = (-local.y - row * self.pitch_mm).abs();
        if off_x > tolerance_mm || off_y > tolerance_mm {
            return None;
        }
        Square::new(((row + 1.0) as u8) * 3 + (col + 1.0) as u8)
    }
}

/// Pieces per storage column.
pub const STORAGE_SLOTS: usize = 5;

/// The two storage columns, one per colour, five slots each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Storage {
    /// The first slot of the black column and of the white column.
    pub first: [Point; 2],
    /// The offset from one slot to the next.
    pub step: Point,
}

impl Storage {
    /// The centre of slot `index` (0..5) of `colour`'s column; `None` past the end.
    pub fn slot(&self, colour: Colour, index: usize) -> Option<Point> {
        (index < STORAGE_SLOTS).then(|| {
            let f = self.first[colour.index()];
            Point::new(
                f.x + self.step.x * index as f32,
                f.y + self.step.y * index as f32,
            )
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
        if lowered {
            self.0.set_high().map_err(pin)
        } else {
            self.0.set_low().map_err(pin)
        }
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

/// The mechanics of one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisConfig {
    /// Steps per millimetre.
    pub steps_per_mm: f32,
    /// Top speed, mm/s.
    pub max_speed: f32,
    /// Acceleration and deceleration, mm/s².
    pub accel: f32,
    /// Length of travel from the homing switch, mm.
    pub travel_mm: f32,
    /// Homing speed, mm/s.
    pub homing_speed: f32,
}

impl AxisConfig {
    /// A GT2 belt on a half-stepped 200-step motor: 10 steps/mm, 250 mm/s,
    /// 1500 mm/s², 320 mm travel, homing at 60 mm/s.
    pub const DEFAULT: AxisConfig = AxisConfig {
        steps_per_mm: 10.0,
        max_speed: 250.0,
        accel: 1500.0,
        travel_mm: 320.0,
        homing_speed: 60.0,
    };

    /// The time in ms a move of `steps` steps takes (trapezoidal profile).
    pub fn move_ms(&self, steps: u32) -> u32 {
        libm::ceilf(Profile::new(steps, self).total_ms) as u32
    }
}

/// A trapezoidal (or, when short, triangular) speed profile in steps and ms.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Profile {
    distance: u32,
    accel: f32,
    speed: f32,
    accel_ms: f32,
    cruise_ms: f32,
    total_ms: f32,
}

impl Profile {
    fn new(distance: u32, c: &AxisConfig) -> Profile {
        let accel = c.accel * c.steps_per_mm / 1.0e6; // steps / ms²
        let max_speed = c.max_speed * c.steps_per_mm / 1.0e3; // steps / ms
        let d = distance as f32;
        let (accel_ms, speed, cruise_ms) = if d >= max_speed * max_speed / accel {
            let t = max_speed / accel;
            (t, max_speed, (d - max_speed * t) / max_speed)
        } else {
            let t = libm::sqrtf(d / accel);
            (t, accel * t, 0.0)
        };
        Profile {
            distance,
            accel,
            speed,
            accel_ms,
            cruise_ms,
            total_ms: 2.0 * accel_ms + cruise_ms,
        }
    }

    /// Steps done `t` ms after the start.
    fn steps_at(&self, t: f32) -> u32 {
        if t >= self.total_ms {
            return self.distance;
        }
        let s = if t < self.accel_ms {
            0.5 * self.accel * t * t
        } else if t < self.accel_ms + self.cruise_ms {
            0.5 * self.accel * self.accel_ms * self.accel_ms + self.speed * (t - self.accel_ms)
        } else {
            let left = self.total_ms - t;
            self.distance as f32 - 0.5 * self.accel * left * left
        };
        (libm::floorf(s) as u32).min(self.distance)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum AxisState {
    Idle,
    Homing {
        started: u32,
        steps: u32,
    },
    Moving {
        started: u32,
        profile: Profile,
        done: u32,
        forward: bool,
    },
}

/// One stepper axis: STEP and DIR outputs and an active-low homing switch at 0.
#[derive(Debug)]
pub struct Axis<O, I> {
    id: AxisId,
    step: O,
    dir: O,
    limit: I,
    config: AxisConfig,
    position: i32,
    homed: bool,
    state: AxisState,
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
            position: 0,
            homed: false,
            state: AxisState::Idle,
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

    fn pulse(&mut self) -> Result<(), HwError> {
        self.step.set_high().map_err(pin)?;
        self.step.set_low().map_err(pin)
    }

    fn limit_pressed(&mut self) -> Result<bool, HwError> {
        self.limit.is_low().map_err(pin)
    }

    /// Starts homing: towards the switch at the homing speed.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        self.dir.set_low().map_err(pin)?;
        self.homed = false;
        self.state = AxisState::Homing {
            started: now_ms,
            steps: 0,
        };
        Ok(())
    }

    /// Starts a move to `target` steps.
    pub fn start_move(&mut self, target: i32, now_ms: u32) -> Result<(), MotionError> {
        if !self.homed {
            return Err(MotionError::NotHomed);
        }
        let max = (self.config.travel_mm * self.config.steps_per_mm) as i32;
        if !(0..=max).contains(&target) {
            return Err(MotionError::OutOfTravel(self.id));
        }
        let forward = target >= self.position;
        if forward {
            self.dir.set_high().map_err(pin)?;
        } else {
            self.dir.set_low().map_err(pin)?;
        }
        self.state = AxisState::Moving {
            started: now_ms,
            profile: Profile::new(target.abs_diff(self.position), &self.config),
            done: 0,
            forward,
        };
        Ok(())
    }

    /// Emits the steps due at `now_ms`; `Ok` once idle.
    pub fn poll(&mut self, now_ms: u32) -> nb::Result<(), MotionError> {
        match self.state {
            AxisState::Idle => Ok(()),
            AxisState::Homing { started, mut steps } => {
                let due = (elapsed_ms(now_ms, started) as f32
                    * self.config.homing_speed
                    * self.config.steps_per_mm
                    / 1000.0) as u32;
                let limit = (self.config.travel_mm * 1.1 * self.config.steps_per_mm) as u32;
                while steps < due {
                    if self.limit_pressed().map_err(MotionError::Hw)? {
                        self.position = 0;
                        self.homed = true;
                        self.state = AxisState::Idle;
                        return Ok(());
                    }
                    if steps >= limit {
                        self.state = AxisState::Idle;
                        return Err(nb::Error::Other(MotionError::HomingFailed(self.id)));
                    }
                    self.pulse().map_err(MotionError::Hw)?;
                    steps += 1;
                }
                self.state = AxisState::Homing { started, steps };
                Err(nb::Error::WouldBlock)
            }
            AxisState::Moving {
                started,
                profile,
                mut done,
                forward,
            } => {
                let due = profile.steps_at(elapsed_ms(now_ms, started) as f32);
                while done < due {
                    if !forward
                        && self.position > 0
                        && self.limit_pressed().map_err(MotionError::Hw)?
                    {
                        self.state = AxisState::Idle;
                        self.homed = false;
                        return Err(nb::Error::Other(MotionError::LimitHit(self.id)));
                    }
                    self.pulse().map_err(MotionError::Hw)?;
                    done += 1;
                    self.position += if forward { 1 } else { -1 };
                }
                if done == profile.distance {
                    self.state = AxisState::Idle;
                    Ok(())
                } else {
                    self.state = AxisState::Moving {
                        started,
                        profile,
                        done,
                        forward,
                    };
                    Err(nb::Error::WouldBlock)
                }
            }
        }
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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Raise,
    GoTo(Point),
    Lower,
    Grip,
    Release,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Job {
    Idle,
    Homing,
    Plan {
        steps: [Step; 9],
        len: u8,
        next: u8,
        waiting_until: Option<u32>,
        moving: bool,
    },
}

/// The whole head: gantry, lift, magnet; homes, moves, picks and places.
#[derive(Debug)]
pub struct Machine<O, I, L> {
    x: Axis<O, I>,
    y: Axis<O, I>,
    lift: L,
    magnet: O,
    timing: HeadTiming,
    job: Job,
    /// The lift position last commanded (`None` until the first command).
    lowered: Option<bool>,
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
            job: Job::Idle,
            lowered: None,
        }
    }

    /// Whether both axes are homed.
    pub fn is_homed(&self) -> bool {
        self.x.is_homed() && self.y.is_homed()
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.job != Job::Idle
    }

    /// The head position in mm.
    pub fn position(&self) -> Point {
        Point::new(
            self.x.position() as f32 / self.x.config().steps_per_mm,
            self.y.position() as f32 / self.y.config().steps_per_mm,
        )
    }

    fn steps(&self, p: Point) -> (i32, i32) {
        (
            libm::roundf(p.x * self.x.config().steps_per_mm) as i32,
            libm::roundf(p.y * self.y.config().steps_per_mm) as i32,
        )
    }

    /// Raises the head, switches the magnet off and homes both axes.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        self.lift.set_lowered(false)?;
        self.lowered = Some(false);
        self.magnet.set_low().map_err(pin)?;
        self.x.start_homing(now_ms)?;
        self.y.start_homing(now_ms)?;
        self.job = Job::Homing;
        Ok(())
    }

    fn check_travel(&self, p: Point) -> Result<(), MotionError> {
        let (x, y) = self.steps(p);
        let max = |a: &Axis<O, I>| (a.config().travel_mm * a.config().steps_per_mm) as i32;
        if !(0..=max(&self.x)).contains(&x) {
            return Err(MotionError::OutOfTravel(AxisId::X));
        }
        if !(0..=max(&self.y)).contains(&y) {
            return Err(MotionError::OutOfTravel(AxisId::Y));
        }
        Ok(())
    }

    fn start_plan(&mut self, plan: &[Step]) -> Result<(), MotionError> {
        if !self.is_homed() {
            return Err(MotionError::NotHomed);
        }
        for s in plan {
            if let Step::GoTo(p) = s {
                self.check_travel(*p)?;
            }
        }
        let mut steps = [Step::Raise; 9];
        steps[..plan.len()].copy_from_slice(plan);
        self.job = Job::Plan {
            steps,
            len: plan.len() as u8,
            next: 0,
            waiting_until: None,
            moving: false,
        };
        Ok(())
    }

    /// Starts moving the (raised) head to `to`.
    pub fn start_move(&mut self, to: Point) -> Result<(), MotionError> {
        self.start_plan(&[Step::Raise, Step::GoTo(to)])
    }

    /// Starts a pick-and-place: the piece at `from` is lifted and put down at `to`.
    pub fn start_transfer(&mut self, from: Point, to: Point) -> Result<(), MotionError> {
        self.start_plan(&[
            Step::Raise,
            Step::GoTo(from),
            Step::Lower,
            Step::Grip,
            Step::Raise,
            Step::GoTo(to),
            Step::Lower,
            Step::Release,
            Step::Raise,
        ])
    }

    /// The time in ms a transfer from the current position takes, from the model.
    pub fn transfer_ms(&self, from: Point, to: Point) -> u32 {
        let here = self.position();
        4 * self.timing.lift_ms
            + self.timing.grip_ms
            + self.timing.release_ms
            + self.travel_ms(here, from)
            + self.travel_ms(from, to)
    }

    /// The time in ms to travel between two points (both axes move at once).
    pub fn travel_ms(&self, a: Point, b: Point) -> u32 {
        let (ax, ay) = self.steps(a);
        let (bx, by) = self.steps(b);
        self.x
            .config()
            .move_ms(ax.abs_diff(bx))
            .max(self.y.config().move_ms(ay.abs_diff(by)))
    }

    /// Advances the current job; `Ok` when idle.
    pub fn poll(&mut self, now_ms: u32) -> nb::Result<(), MotionError> {
        match self.job {
            Job::Idle => Ok(()),
            Job::Homing => {
                let x = self.x.poll(now_ms);
                let y = self.y.poll(now_ms);
                match (x, y) {
                    (Err(nb::Error::Other(e)), _) | (_, Err(nb::Error::Other(e))) => {
                        self.job = Job::Idle;
                        Err(nb::Error::Other(e))
                    }
                    (Ok(()), Ok(())) => {
                        self.job = Job::Idle;
                        Ok(())
                    }
                    _ => Err(nb::Error::WouldBlock),
                }
            }
            Job::Plan {
                steps,
                len,
                mut next,
                mut waiting_until,
                mut moving,
            } => {
                let result = loop {
                    if moving {
                        let x = self.x.poll(now_ms);
                        let y = self.y.poll(now_ms);
                        match (x, y) {
                            (Err(nb::Error::Other(e)), _) | (_, Err(nb::Error::Other(e))) => {
                                break Err(nb::Error::Other(e))
                            }
                            (Ok(()), Ok(())) => moving = false,
                            _ => break Err(nb::Error::WouldBlock),
                        }
                    }
                    if let Some(until) = waiting_until {
                        if (now_ms.wrapping_sub(until) as i32) < 0 {
                            break Err(nb::Error::WouldBlock);
                        }
                        waiting_until = None;
                    }
                    if next >= len {
                        break Ok(());
                    }
                    let step = steps[next as usize];
                    next += 1;
                    let r: Result<(), MotionError> = match step {
                        Step::Raise | Step::Lower => {
                            let down = step == Step::Lower;
                            let moved = self.lowered != Some(down);
                            self.lift.set_lowered(down).map_err(Into::into).map(|_| {
                                self.lowered = Some(down);
                                // Waits only when the lift actually moves.
                                if moved {
                                    waiting_until = Some(now_ms.wrapping_add(self.timing.lift_ms));
                                }
                            })
                        }
                        Step::Grip => self.magnet.set_high().map_err(|e| pin(e).into()).map(|_| {
                            waiting_until = Some(now_ms.wrapping_add(self.timing.grip_ms));
                        }),
                        Step::Release => {
                            self.magnet.set_low().map_err(|e| pin(e).into()).map(|_| {
                                waiting_until = Some(now_ms.wrapping_add(self.timing.release_ms));
                            })
                        }
                        Step::GoTo(p) => {
                            let (x, y) = self.steps(p);
                            self.x
                                .start_move(x, now_ms)
                                .and_then(|_| self.y.start_move(y, now_ms))
                                .map(|_| moving = true)
                        }
                    };
                    if let Err(e) = r {
                        break Err(nb::Error::Other(e));
                    }
                };
                match result {
                    Err(nb::Error::WouldBlock) => {
                        self.job = Job::Plan {
                            steps,
                            len,
                            next,
                            waiting_until,
                            moving,
                        };
                        Err(nb::Error::WouldBlock)
                    }
                    Ok(()) => {
                        self.job = Job::Idle;
                        Ok(())
                    }
                    Err(e) => {
                        // Leave the magnet on: a held piece is not dropped mid-air.
                        self.job = Job::Idle;
                        Err(e)
                    }
                }
            }
        }
    }
}
