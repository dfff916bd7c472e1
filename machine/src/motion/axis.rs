//! One stepper axis ([`Axis`]): STEP and DIR outputs, an active-low homing switch
//! at 0, and the errors of motion ([`MotionError`]).
//!
//! Invariants: a move starts only when the axis is homed and its target lies within
//! the travel; [`Axis::poll_at`] emits only the steps due and never waits; the
//! switch is watched on every step towards it, so a lost step shows as
//! [`MotionError::LimitHit`] rather than a wrong position. The switch counts as
//! closed only after closed readings in a row, one per poll, at least
//! [`SWITCH_SAMPLES`] of them and over at least [`SWITCH_FILTER_US`] (a bounce, or
//! driver noise on the switch's weak internal pull-up read on passes tens of µs
//! apart while stepping, does not stop the axis); the axis holds meanwhile.
//! [`Axis::start_probe`] checks the position against the switch (lost steps
//! in either direction) and corrects it.

use super::profile::{AxisConfig, Profile, Ramp};
use crate::hw::{pin_error, HwError};
use embedded_hal::digital::{InputPin, OutputPin};

/// The two gantry axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AxisId {
    /// The X axis.
    X,
    /// The Y axis.
    Y,
}

/// A motion that cannot be done or went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
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
            MotionError::Hw(e) => write!(f, "hardware fault: {e}"),
        }
    }
}

impl core::error::Error for MotionError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            MotionError::Hw(e) => Some(e),
            _ => None,
        }
    }
}

/// Closed readings of a homing switch in a row (one per poll) before it counts as
/// closed (and they must span [`SWITCH_FILTER_US`]).
pub const SWITCH_SAMPLES: u8 = 3;

/// The shortest time a homing switch must read closed, without an open reading
/// between, before it counts as closed, µs (a noise burst while stepping lasts
/// tens of µs; a switch's bounce a few hundred).
pub const SWITCH_FILTER_US: u32 = 1000;

/// How far past the expected switch position a probe goes, steps (and so the
/// largest loss it can measure towards the switch).
pub const PROBE_MARGIN_STEPS: u32 = 200;

/// How late (sixteenths of a ms) a step may be, on an axis made with
/// [`Axis::send_no_bursts`], before the axis's profile changes: 125 µs. A step later
/// than that alone has the profile's start moved on until it is due within
/// `LATE_16` (the next step then keeps its spacing from it: a late step followed by
/// the next on time is a pair the motor cannot follow); with more than one step due
/// the profile starts again from rest (the late step its first) instead of sending
/// the steps due together. Two steps due at once mean the first is later than that,
/// at any rate below 8,000 steps/s (the moves' top speed is 2,500), so after any
/// stall (a flash erase, a bus transfer, a switch reading held) such an axis never
/// sends two steps together, which a real motor could not follow. A default axis (a
/// caller that polls every millisecond, as the host simulator does) never changes
/// its profile: its tolerance is `u32::MAX`, and a profile has no step due at its
/// start, so it sends a millisecond's steps together, as before.
pub const LATE_16: u32 = 2;

/// What an axis is doing; bit 0 picks its ramp (`Axis::ramp`): 0 the moves',
/// 1 homing's.
#[derive(Clone, Copy, Debug)]
pub(super) enum Mode {
    Idle = 0,
    Homing = 1,
    Moving = 2,
    /// Towards the switch, expecting it at 0 (homed and counting steps).
    Probing = 3,
}

/// One stepper axis: STEP and DIR outputs and an active-low homing switch at 0.
#[derive(Debug)]
pub struct Axis<O, I> {
    id: AxisId,
    step: O,
    dir: O,
    limit: I,
    config: AxisConfig,
    /// From the config: the travel in steps and the ramps of moves (0) and of
    /// homing and probing (1).
    max_steps: i32,
    pub(super) ramps: [Ramp; 2],
    position: i32,
    homed: bool,
    pub(super) mode: Mode,
    /// The direction of the current move (homing: backwards).
    forward: bool,
    /// When the current move or homing started (or its profile restarted, or
    /// moved on), sixteenths of a ms on the caller's clock, wrapping (a move
    /// lasts less than 2^32 of them, 74 hours).
    started_16: u32,
    /// The steps emitted since.
    done: u32,
    profile: Profile,
    /// Closed switch readings in a row.
    closed: u8,
    /// When the first of them was read: sixteenths of a ms since `started`.
    closed_at: u32,
    /// Where the last probe found the switch, in steps as counted (0: no loss).
    probe_error: i32,
    /// Probes that found the axis off by more than a step.
    pub(super) corrections: u32,
    /// See [`LATE_16`]; `u32::MAX` (the profile never changes) unless
    /// [`Axis::send_no_bursts`].
    late_16: u32,
}

impl<O: OutputPin, I: InputPin> Axis<O, I> {
    /// An axis, not homed.
    // Inlined: with a constant `config` (the firmware's) the ramps fold to
    // constants (out of line they are computed at run time: more flash).
    #[inline(always)]
    pub fn new(id: AxisId, step: O, dir: O, limit: I, config: AxisConfig) -> Axis<O, I> {
        Axis {
            id,
            step,
            dir,
            limit,
            config,
            max_steps: config.max_steps(),
            ramps: [Ramp::moves(&config), Ramp::homing(&config)],
            position: 0,
            homed: false,
            mode: Mode::Idle,
            forward: false,
            started_16: 0,
            done: 0,
            profile: Profile::default(),
            closed: 0,
            closed_at: 0,
            probe_error: 0,
            corrections: 0,
            late_16: u32::MAX,
        }
    }

    /// The axis never sends two steps together, nor a late step followed by the
    /// next on time: a step late alone moves the profile's start on, and when more
    /// than one step is due at a poll (the caller stalled) its profile starts again
    /// from rest there (see [`LATE_16`]). For a caller that polls at sub-millisecond times
    /// ([`Axis::poll_at`]), as the firmware does.
    ///
    /// ```
    /// use core::convert::Infallible;
    /// use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
    /// use tictable_machine::motion::{Axis, AxisConfig, AxisId};
    /// struct Pin;
    /// impl ErrorType for Pin {
    ///     type Error = Infallible;
    /// }
    /// impl OutputPin for Pin {
    ///     fn set_low(&mut self) -> Result<(), Infallible> { Ok(()) }
    ///     fn set_high(&mut self) -> Result<(), Infallible> { Ok(()) }
    /// }
    /// impl InputPin for Pin {
    ///     fn is_high(&mut self) -> Result<bool, Infallible> { Ok(true) }
    ///     fn is_low(&mut self) -> Result<bool, Infallible> { Ok(false) }
    /// }
    /// let axis = Axis::new(AxisId::X, Pin, Pin, Pin, AxisConfig::DEFAULT).send_no_bursts();
    /// assert!(!axis.is_homed());
    /// ```
    #[must_use]
    pub fn send_no_bursts(mut self) -> Self {
        self.late_16 = LATE_16;
        self
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
    pub(super) fn check(&self, target: i32) -> Result<(), MotionError> {
        if (0..=self.max_steps).contains(&target) {
            Ok(())
        } else {
            Err(MotionError::OutOfTravel(self.id))
        }
    }

    /// The ramp of the current mode: moves', or homing's (homing and probing).
    fn ramp(&self) -> &Ramp {
        // Bit 0 of the mode: 0 moving, 1 homing or probing (idle: not used).
        &self.ramps[self.mode as usize & 1]
    }

    /// Sets the direction and starts a move of `distance` steps (or homing).
    fn start(
        &mut self,
        mode: Mode,
        forward: bool,
        distance: u32,
        now_ms: u32,
    ) -> Result<(), MotionError> {
        if forward {
            self.dir.set_high()
        } else {
            self.dir.set_low()
        }
        .map_err(pin_error)?;
        self.mode = mode;
        self.forward = forward;
        self.profile = Profile::new(distance, self.ramp());
        self.started_16 = now_ms.wrapping_mul(16);
        self.done = 0;
        self.closed = 0;
        Ok(())
    }

    /// Starts homing: towards the switch at the homing speed, giving up after 110 %
    /// of the travel.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        let max = self.max_steps as u32;
        self.start(Mode::Homing, false, max + max / 10 + 1, now_ms)?;
        self.homed = false;
        Ok(())
    }

    /// Starts a probe of a homed axis: towards the switch at the homing speed,
    /// expecting it to close at 0. Where it closes becomes 0 (the axis is homed
    /// again) and the difference is kept ([`MotionError::HomingFailed`] when it
    /// does not close within [`PROBE_MARGIN_STEPS`] past 0).
    pub fn start_probe(&mut self, now_ms: u32) -> Result<(), MotionError> {
        if !self.homed {
            return Err(MotionError::NotHomed);
        }
        self.probe(now_ms)
    }

    /// Starts a probe of an axis known to be homed (see [`Axis::start_probe`]).
    pub(super) fn probe(&mut self, now_ms: u32) -> Result<(), MotionError> {
        let distance = self.position.unsigned_abs() + PROBE_MARGIN_STEPS;
        self.start(Mode::Probing, false, distance, now_ms)
    }

    /// Where the last probe found the switch, steps as counted: 0 when no step
    /// was lost, positive when the head was nearer the switch than counted.
    pub fn probe_error(&self) -> i32 {
        self.probe_error
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
    pub(super) fn go(&mut self, target: i32, now_ms: u32) -> Result<(), MotionError> {
        let distance = target.abs_diff(self.position);
        self.start(Mode::Moving, target >= self.position, distance, now_ms)
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
    /// every 400 µs; `machine/tests/machine/device_motion.rs` measures the spacing).
    pub fn poll_at(&mut self, now_ms: u32, sub_ms_us: u16) -> nb::Result<(), MotionError> {
        if matches!(self.mode, Mode::Idle) {
            return Ok(());
        }
        let mode = self.mode;
        let sub_16 = u32::from(sub_ms_us.min(999)) * 16 / 1000;
        let now_16 = now_ms.wrapping_mul(16).wrapping_add(sub_16);
        // (A clock that seems to step back makes this huge: every step due, which
        // an axis made with `send_no_bursts` takes as a backlog.)
        let mut t16 = now_16.wrapping_sub(self.started_16);
        let mut due = self.profile.steps_at(self.ramp(), t16);
        let result = loop {
            if self.done >= due {
                if self.done < self.profile.distance {
                    return Err(nb::Error::WouldBlock);
                }
                // Homing or probing: the switch never closed.
                break match mode {
                    Mode::Moving => Ok(()),
                    _ => Err(MotionError::HomingFailed(self.id)),
                };
            }
            // The switch is watched on the way back to it (homing too): every step
            // of a move back starts above 0. A closed reading holds the axis until
            // it has been read closed SWITCH_SAMPLES polls in a row spanning more
            // than SWITCH_FILTER_US: 16 sixteenths and one for the truncation of
            // both times, at least a full millisecond.
            if !self.forward
                && self
                    .limit
                    .is_low()
                    .map_err(|e| MotionError::Hw(pin_error(e)))?
            {
                if self.closed == 0 {
                    self.closed_at = t16;
                }
                self.closed = self.closed.saturating_add(1);
                if self.closed < SWITCH_SAMPLES
                    || t16.wrapping_sub(self.closed_at) <= SWITCH_FILTER_US * 16 / 1000
                {
                    return Err(nb::Error::WouldBlock);
                }
                match mode {
                    // The position is wrong: home again before the next move.
                    Mode::Moving => break Err(MotionError::LimitHit(self.id)),
                    Mode::Probing => {
                        self.probe_error = self.position;
                        if self.position.unsigned_abs() > 1 {
                            self.corrections += 1;
                        }
                    }
                    _ => {}
                }
                self.position = 0;
                break Ok(());
            }
            self.closed = 0;
            // Polled late (a flash stall, a bus transfer, a switch reading that
            // reopened): neither the steps due since sent together nor the late one
            // followed by the next on time, which the motor could not follow.
            while self
                .profile
                .steps_at(self.ramp(), t16.saturating_sub(self.late_16))
                > self.done
            {
                if due > self.done + 1 {
                    // A backlog: the profile starts again from rest here for the
                    // rest of the distance, this step its first.
                    self.profile = Profile::new(self.profile.distance - self.done, self.ramp());
                    self.started_16 = now_16;
                    self.done = 0;
                    due = 1;
                    t16 = 0;
                } else {
                    // This step alone: the profile's start moves on, a sixteenth
                    // of a ms at a time, until the step is due within LATE_16.
                    self.started_16 = self.started_16.wrapping_add(1);
                    t16 -= 1;
                }
            }
            self.step
                .set_high()
                .map_err(|e| MotionError::Hw(pin_error(e)))?;
            self.step
                .set_low()
                .map_err(|e| MotionError::Hw(pin_error(e)))?;
            self.done += 1;
            // (Meaningless while homing, which ends at 0 or not homed.)
            self.position = self
                .position
                .wrapping_add(if self.forward { 1 } else { -1 });
        };
        // Homed after homing or a probe that found the switch, still homed after a
        // move that ended (moves start homed), not homed after a failure.
        self.homed = result.is_ok();
        self.mode = Mode::Idle;
        result.map_err(nb::Error::Other)
    }
}
