//! No step bursts: an axis polled finely (every 1/16 ms, as the firmware's loop
//! polls it) that stalls in the middle of a move (a 40 ms flash erase) must not send
//! the steps due meanwhile together; the motor model
//! (`tictable_machine::sim::motor`, pull-in rate and acceleration limit) follows
//! every step it sends. The default axis (for callers polling each ms) sends up to
//! a millisecond's backlog together, and the motor loses it: the check can fail.

use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tictable_machine::motion::{Axis, AxisConfig, AxisId};
use tictable_machine::sim::motor::Motor;

/// The axis's world: the time, the position the pulses gave, DIR, STEP's rising
/// edges.
#[derive(Default)]
struct Bench {
    now_ns: Cell<u64>,
    pos: Cell<i32>,
    dir: Cell<bool>,
    steps: RefCell<Vec<u64>>,
}

/// STEP (`true`) or DIR.
struct Out(Rc<Bench>, bool);
/// The homing switch: closed at 0 and below.
struct Limit(Rc<Bench>);

impl ErrorType for Out {
    type Error = Infallible;
}
impl ErrorType for Limit {
    type Error = Infallible;
}

impl OutputPin for Out {
    fn set_low(&mut self) -> Result<(), Infallible> {
        if !self.1 {
            self.0.dir.set(false);
        }
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        let b = &self.0;
        if self.1 {
            b.steps.borrow_mut().push(b.now_ns.get());
            b.pos.set(b.pos.get() + if b.dir.get() { 1 } else { -1 });
        } else {
            b.dir.set(true);
        }
        Ok(())
    }
}

impl InputPin for Limit {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.0.pos.get() > 0)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(self.0.pos.get() <= 0)
    }
}

/// Homes an axis, then moves it 2,000 steps polled every 62.5 µs except for
/// `stall_ms` from 300 ms into the move (cruising); the STEP edges of the move.
fn move_with_stall(no_bursts: bool, stall_ms: u64) -> Vec<u64> {
    let b = Rc::new(Bench::default());
    b.pos.set(50);
    let axis = Axis::new(
        AxisId::X,
        Out(b.clone(), true),
        Out(b.clone(), false),
        Limit(b.clone()),
        AxisConfig::DEFAULT,
    );
    let mut axis = if no_bursts {
        axis.send_no_bursts()
    } else {
        axis
    };
    let mut t_us = 0u64;
    let poll = |axis: &mut Axis<Out, Limit>, t_us: u64| {
        b.now_ns.set(t_us * 1000);
        axis.poll_at((t_us / 1000) as u32, (t_us % 1000) as u16)
    };
    axis.start_homing(0).unwrap();
    while poll(&mut axis, t_us).is_err() {
        t_us += 62;
        assert!(t_us < 10_000_000, "homing never ended");
    }
    assert_eq!(b.pos.get(), 0);
    b.steps.borrow_mut().clear();
    let start = t_us;
    axis.start_move(2_000, (t_us / 1000) as u32).unwrap();
    loop {
        let stalled = (start + 300_000..start + 300_000 + stall_ms * 1000).contains(&t_us);
        if !stalled && poll(&mut axis, t_us).is_ok() {
            break;
        }
        t_us += 62;
        assert!(t_us < start + 10_000_000, "the move never ended");
    }
    assert_eq!((axis.position(), b.pos.get()), (2_000, 2_000));
    let steps = b.steps.borrow().clone();
    steps
}

/// The motor's verdict on a move's STEP edges: steps lost.
fn lost(steps: &[u64]) -> u64 {
    let mut m = Motor::default();
    for &t in steps {
        m.step(t);
    }
    m.lost
}

#[test]
fn a_stall_mid_move_restarts_the_profile_instead_of_a_burst() {
    for stall in [0, 1, 3, 40] {
        let steps = move_with_stall(true, stall);
        let gap = steps.windows(2).map(|w| w[1] - w[0]).min().unwrap();
        // At 2,500 steps/s a step every 400 µs, its time to a sixteenth of a ms.
        assert!(gap >= 330_000, "stall {stall} ms: two steps {gap} ns apart");
        assert_eq!(lost(&steps), 0, "stall {stall} ms");
    }
}

#[test]
fn without_it_a_ms_of_backlog_goes_out_together_and_the_motor_loses_it() {
    // The default axis (a caller polling each ms) restarts its profile only when
    // more than a ms late: a 1 ms stall sends the steps due together.
    let steps = move_with_stall(false, 1);
    let gap = steps.windows(2).map(|w| w[1] - w[0]).min().unwrap();
    assert!(gap < 10_000, "the backlog's steps {gap} ns apart");
    assert!(lost(&steps) > 0);
}
