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
//!
//! The parts, one file each, all re-exported here (`tictable_machine::motion::X`):
//! `geometry.rs` ([`Point`], [`Pose`], [`Storage`]), `profile.rs` ([`AxisConfig`]
//! and the speed ramp), `axis.rs` ([`Axis`], [`MotionError`]), `gantry.rs`
//! ([`Machine`], [`HeadTiming`]) and `lift.rs` ([`Lift`], [`PinLift`], [`ServoLift`]).

mod axis;
mod gantry;
mod geometry;
mod lift;
mod profile;

/// Moved to [`crate::hw::HwError`]; this path stays for one release.
pub use crate::hw::HwError;
pub use axis::{
    Axis, AxisId, MotionError, LATE_16, PROBE_MARGIN_STEPS, SWITCH_FILTER_US, SWITCH_SAMPLES,
};
pub use gantry::{HeadTiming, Machine};
pub use geometry::{Point, Pose, PoseError, Storage, PITCH_UM, ROT_ONE, STORAGE_SLOTS};
pub use lift::{Lift, PinLift, ServoLift};
pub use profile::AxisConfig;
