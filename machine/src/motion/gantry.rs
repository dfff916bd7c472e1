//! The whole head ([`Machine`]): two axes, the lift and the magnet, running jobs
//! (homing, a move, a pick-and-place) as one polled state machine.
//!
//! Invariants: a job starts only when both axes are homed and both of its points are
//! within the travel; on a failure the job ends with the magnet left on (a held
//! piece is not dropped mid-air; the controller lets it go later with
//! [`Machine::release`], see `controller::MAGNET_HOLD_MS`).

use super::axis::{Axis, Mode, MotionError, SWITCH_SAMPLES};
use super::geometry::Point;
use super::lift::Lift;
use crate::hw::pin_error;
use crate::time::{wait_ticks, waited_ms};
use embedded_hal::digital::{InputPin, OutputPin};

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

/// The steps of a job, three bits each, the first in the low bits; the job ends
/// when no step is left (the plan is 0), so a job never ends with step 0.
///
/// Steps 0..=2 go to the point `targets[step]`: [`PROBE_FROM`] (always followed by
/// a probe), the first and the second point of the job.
const GO_PROBE: u32 = 0;
const GO_FROM: u32 = 1;
const GO_TO: u32 = 2;
const RAISE: u32 = 3;
const LOWER: u32 = 4;
const GRIP: u32 = 5;
const RELEASE: u32 = 6;
/// Probe both axes against their switches (see [`Axis::start_probe`]).
const PROBE: u32 = 7;

/// A job's steps in the form a [`Machine`] runs them. Up to ten steps, or eleven
/// when the last is below 4 (it has the two bits left); checked at build time by
/// reading the plan back, as is its last step not being 0.
const fn plan(steps: &[u32]) -> u32 {
    let (mut i, mut plan) = (steps.len(), 0u32);
    while i > 0 {
        i -= 1;
        plan = plan << 3 | steps[i];
    }
    let mut rest = plan;
    while i < steps.len() {
        assert!(rest != 0 && rest & 7 == steps[i]);
        rest >>= 3;
        i += 1;
    }
    assert!(rest == 0);
    plan
}

/// A pick-and-place.
const TRANSFER: u32 = plan(&[
    RAISE, GO_FROM, LOWER, GRIP, RAISE, GO_TO, LOWER, RELEASE, RAISE,
]);

/// A move of the raised head.
const MOVE: u32 = plan(&[RAISE, GO_TO]);

/// Parking with a check of both axes against their switches.
const PARK: u32 = plan(&[RAISE, GO_PROBE, PROBE, GO_TO]);

/// A pick-and-place after a check of both axes against their switches.
const CHECKED_TRANSFER: u32 = plan(&[
    RAISE, GO_PROBE, PROBE, GO_FROM, LOWER, GRIP, RAISE, GO_TO, LOWER, RELEASE, RAISE,
]);

/// Where a park's probe starts: 2 mm from both switches.
const PROBE_FROM: Point = Point::mm(2, 2);

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
    /// The job's steps left (see [`plan`]) and its points in steps: [`PROBE_FROM`]
    /// (from the axes' configs, fixed), the job's first and second.
    plan: u32,
    targets: [(i32, i32); 3],
    /// The last lift or magnet action: when it started and how long it lasts, ms.
    since: u32,
    wait: u32,
    /// The lift position last commanded: 2 lowered, 1 raised, 0 before the first
    /// command.
    lowered: u8,
}

impl<O: OutputPin, I: InputPin, L: Lift> Machine<O, I, L> {
    /// A machine from its axes, lift, magnet pin and timing.
    pub fn new(x: Axis<O, I>, y: Axis<O, I>, lift: L, magnet: O, timing: HeadTiming) -> Self {
        let probe = (
            x.config().steps(PROBE_FROM.x),
            y.config().steps(PROBE_FROM.y),
        );
        Machine {
            x,
            y,
            lift,
            magnet,
            timing,
            busy: false,
            plan: 0,
            targets: [probe, (0, 0), (0, 0)],
            since: 0,
            wait: 0,
            lowered: 0,
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
        self.check(self.steps(p)).is_ok()
    }

    /// Raises the head, switches the magnet off and homes both axes.
    pub fn start_homing(&mut self, now_ms: u32) -> Result<(), MotionError> {
        self.release()?;
        self.start_rehoming(now_ms)
    }

    /// Switches the magnet off where the head stands: a held piece drops.
    pub fn release(&mut self) -> Result<(), MotionError> {
        self.magnet.set_low().map_err(pin_error)?;
        Ok(())
    }

    /// Raises the head and homes both axes, the magnet left as it is (a piece
    /// held when steps were lost stays on it).
    pub fn start_rehoming(&mut self, now_ms: u32) -> Result<(), MotionError> {
        self.lift.set_lowered(false)?;
        self.lowered = 1;
        self.stop();
        self.x.start_homing(now_ms)?;
        self.y.start_homing(now_ms)?;
        self.busy = true;
        Ok(())
    }

    /// `(x, y)` (steps) within the travel of both axes, or the error (x's first).
    fn check(&self, (x, y): (i32, i32)) -> Result<(), MotionError> {
        self.x.check(x)?;
        self.y.check(y)
    }

    fn start_plan(&mut self, plan: u32, from: Point, to: Point) -> Result<(), MotionError> {
        if !self.is_homed() {
            return Err(MotionError::NotHomed);
        }
        let targets = [self.steps(from), self.steps(to)];
        for t in targets {
            self.check(t)?;
        }
        self.stop();
        self.busy = true;
        self.plan = plan;
        self.targets[1..].copy_from_slice(&targets);
        Ok(())
    }

    /// Starts moving the (raised) head to `to`.
    pub fn start_move(&mut self, to: Point) -> Result<(), MotionError> {
        self.start_plan(MOVE, to, to)
    }

    /// Starts parking at `to` by way of a check of both axes against their
    /// switches, 2 mm from them: lost steps are measured and corrected there
    /// (see [`Machine::corrections`]). A job started meanwhile cancels the rest
    /// (the position stays right).
    pub fn start_park(&mut self, to: Point) -> Result<(), MotionError> {
        self.start_plan(PARK, to, to)
    }

    /// Starts a pick-and-place by way of a check of both axes against their
    /// switches (as [`Machine::start_park`]): a retry after a miss that lost
    /// steps may have caused.
    pub fn start_checked_transfer(&mut self, from: Point, to: Point) -> Result<(), MotionError> {
        self.start_plan(CHECKED_TRANSFER, from, to)
    }

    /// Probes that found an axis off by more than a step (and corrected it).
    pub fn corrections(&self) -> u32 {
        self.x.corrections + self.y.corrections
    }

    /// Starts a pick-and-place: the piece at `from` is lifted and put down at `to`.
    pub fn start_transfer(&mut self, from: Point, to: Point) -> Result<(), MotionError> {
        self.start_plan(TRANSFER, from, to)
    }

    /// The time in ms a transfer from the current position takes, from the model
    /// (`checked`: by way of the switches, see [`Machine::start_checked_transfer`]).
    pub fn transfer_ms(&self, from: Point, to: Point, checked: bool) -> u32 {
        let t = &self.timing;
        let mut ms = 4 * wait_ticks(t.lift_ms) + wait_ticks(t.grip_ms) + wait_ticks(t.release_ms);
        let mut here = (self.x.position(), self.y.position());
        if checked {
            let p = self.targets[0];
            // There, the probe back to the switches at the homing speed (when no
            // step was lost) and its switch readings, and on from 0.
            ms += self.travel(0, here, p) + self.travel(1, p, (0, 0));
            ms += u32::from(SWITCH_SAMPLES);
            here = (0, 0);
        }
        let from = self.steps(from);
        ms + self.travel(0, here, from) + self.travel(0, from, self.steps(to))
    }

    /// The time in ms to travel between two points (both axes move at once).
    pub fn travel_ms(&self, a: Point, b: Point) -> u32 {
        self.travel(0, self.steps(a), self.steps(b))
    }

    /// The time in ms to travel between two positions in steps on the axes'
    /// `ramps[ramp]` (0: moves, 1: homing speed).
    fn travel(&self, ramp: usize, (ax, ay): (i32, i32), (bx, by): (i32, i32)) -> u32 {
        let x = self.x.ramps[ramp].duration(ax.abs_diff(bx));
        x.max(self.y.ramps[ramp].duration(ay.abs_diff(by)))
            .div_ceil(16)
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
            if !waited_ms(now_ms, self.since, self.wait) {
                return Err(nb::Error::WouldBlock);
            }
            if self.plan == 0 {
                return Ok(());
            }
            let step = self.plan & 7;
            self.plan >>= 3;
            let t = &self.timing;
            self.since = now_ms;
            self.wait = match step {
                RAISE | LOWER => {
                    let down = step == LOWER;
                    self.lift.set_lowered(down).map_err(MotionError::Hw)?;
                    // Waits only when the lift actually moves.
                    let at = 1 + u8::from(down);
                    let moved = self.lowered != at;
                    self.lowered = at;
                    if moved {
                        t.lift_ms
                    } else {
                        0
                    }
                }
                GRIP => {
                    self.magnet
                        .set_high()
                        .map_err(|e| MotionError::Hw(pin_error(e)))?;
                    t.grip_ms
                }
                RELEASE => {
                    self.magnet
                        .set_low()
                        .map_err(|e| MotionError::Hw(pin_error(e)))?;
                    t.release_ms
                }
                GO_PROBE | GO_FROM | GO_TO => {
                    let (x, y) = self.targets[step as usize];
                    // Checked by `start_plan`; a failure since ended the job.
                    self.x.go(x, now_ms)?;
                    self.y.go(y, now_ms)?;
                    0
                }
                _ => {
                    // PROBE.
                    // Both homed: checked by `start_plan`, and a failure since
                    // ended the job.
                    self.x.probe(now_ms)?;
                    self.y.probe(now_ms)?;
                    0
                }
            };
        }
    }
}
