//! Calibrating the board pose by jogging the head with the buttons, on the simulated
//! machine (real controller, panel debouncing, steppers): the world's board lies
//! elsewhere than the controller's configured pose; after jogging onto squares 1
//! and 9 and pressing Done, pieces land on the true square centres, a reset keeps
//! the calibrated pose, and bad pairs of points change nothing.

use crate::common;
use common::sq;

use tictable::Square;
use tictable_machine::controller::{
    BestMove, Jog, State, Task, CALIBRATE_HOLD_MS, JOG_REPEAT_MS, JOG_UM,
};
use tictable_machine::motion::{Point, Pose};
use tictable_machine::panel::{Button, Light};
use tictable_machine::persist::Snapshot;
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::SimHuman;
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::world::SimConfig;
use tictable_machine::Colour;

struct Rig {
    m: HostMachine<BestMove>,
    h: SimHuman,
}

impl Rig {
    /// A machine configured with the standard unrotated pose at (160, 130) mm,
    /// whose real board lies at `truth`; homed and in Setup.
    fn new(truth: Pose, seed: u64) -> Rig {
        let mut m =
            SimMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), BestMove).unwrap();
        m.world.borrow_mut().config.pose = truth;
        let mut h = SimHuman::passive(seed);
        assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
        assert_ne!(m.controller.layout().pose, truth);
        Rig { m, h }
    }

    fn press(&mut self, b: Button) {
        self.m.press(&mut self.h, b);
    }

    fn light(&self, l: Light) -> bool {
        self.m.world.borrow().lights[l.index()]
    }

    /// Holds `b` down for `ms`, then releases it and lets the head settle.
    fn hold(&mut self, b: Button, ms: u32) {
        self.m.world.borrow_mut().buttons[b.index()] = true;
        for _ in 0..ms {
            self.m.tick(&mut self.h);
        }
        self.m.world.borrow_mut().buttons[b.index()] = false;
        self.settle();
    }

    /// Lets the head finish its move (and 300 ms more).
    fn settle(&mut self) {
        let idle = |m: &HostMachine<BestMove>| !m.controller.hardware().machine.is_busy();
        assert!(self.m.run_until(&mut self.h, 10_000, idle));
        for _ in 0..300 {
            self.m.tick(&mut self.h);
        }
    }

    fn jog(&self) -> Jog {
        match self.m.controller.state() {
            State::CalibratingPose(j) => j,
            st => panic!("not calibrating: {st:?}"),
        }
    }

    fn head(&self) -> Point {
        self.m.world.borrow().head_um()
    }

    /// Press and hold Done from Setup: calibration, the head over square 1 of the
    /// configured pose.
    fn begin(&mut self) {
        self.hold(Button::Done, CALIBRATE_HOLD_MS + 100);
        let jog = self.jog();
        assert_eq!(jog.first, None);
        assert!(!jog.y_axis);
        assert!(self.light(Light::DeviceTurn) && self.light(Light::Lamp));
        assert!(!self.light(Light::Loss) && !self.light(Light::Error));
        let guess = self.m.controller.layout().pose.square_centre(sq(0));
        assert!(self.head().distance(guess) <= 100, "{:?}", self.head());
    }

    /// Jogs one press at a time to within half a millimetre of `target` on each
    /// axis, switching axes with Start.
    fn jog_to(&mut self, target: Point) {
        for y_axis in [false, true] {
            if self.jog().y_axis != y_axis {
                self.press(Button::Start);
            }
            assert_eq!(self.jog().y_axis, y_axis);
            assert_eq!(self.light(Light::HumanTurn), y_axis);
            assert_eq!(self.light(Light::DeviceTurn), !y_axis);
            let coord = |p: Point| if y_axis { p.y } else { p.x };
            let n = (coord(target) - coord(self.head())) as f64 / JOG_UM as f64;
            let button = if n > 0.0 {
                Button::FirstSquare
            } else {
                Button::Side
            };
            for _ in 0..n.abs().round() as u32 {
                let before = coord(self.head());
                self.press(button);
                let moved = coord(self.head()) - before;
                assert_eq!(moved.abs(), JOG_UM, "one press, one millimetre");
            }
            assert!(coord(self.head()).abs_diff(coord(target)) <= JOG_UM as u32 / 2);
        }
    }

    /// Jogs onto `p0`, Done, onto `p8`, Done.
    fn record(&mut self, p0: Point, p8: Point) {
        self.jog_to(p0);
        self.press(Button::Done);
        let jog = self.jog();
        assert!(jog.first.is_some_and(|f| f.distance(p0) <= 800));
        assert!(self.light(Light::Lamp) && self.light(Light::Loss));
        self.settle();
        self.jog_to(p8);
        self.press(Button::Done);
    }

    /// Runs a task filling all nine squares; every piece must lie within `tol`
    /// µm of its true square centre.
    fn fill_board(&mut self, tol: u32) {
        let items: Vec<(Colour, Square)> = Square::ALL
            .iter()
            .map(|&s| {
                let c = if s.index() % 2 == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                (c, s)
            })
            .collect();
        self.m
            .controller
            .start_task(Task::new(&items).unwrap())
            .unwrap();
        let done = self.m.run_until(&mut self.h, 300_000, |m| {
            m.controller.state() == State::TaskDone
        });
        assert!(done, "task stuck in {:?}", self.m.controller.state());
        let w = self.m.world.borrow();
        for (colour, s) in items {
            let centre = w.config.pose.square_centre(s);
            let i = w.piece_near(centre, 10.0).expect("a piece on the square");
            assert_eq!(w.pieces[i].colour, colour);
            let off = w.pieces[i].at.distance(centre);
            assert!(off <= tol, "square {s}: {off} µm off its centre");
        }
        assert!(self.m.controller.stats().max_placement_ms <= 15_000);
    }
}

/// A true board rotated by `decideg` tenths of a degree around (163, 127) mm.
fn truth(decideg: i32) -> Pose {
    Pose::new(Point::mm(163, 127), decideg, 32_000).unwrap()
}

fn calibrate_and_place(decideg: i32, seed: u64) {
    let truth = truth(decideg);
    let mut r = Rig::new(truth, seed);
    r.begin();
    r.record(truth.square_centre(sq(0)), truth.square_centre(sq(8)));
    assert_eq!(r.m.controller.state(), State::Setup);
    assert!(!r.light(Light::Error));
    let pose = r.m.controller.layout().pose;
    for s in Square::ALL {
        let off = pose.square_centre(s).distance(truth.square_centre(s));
        assert!(off <= 1_000, "{decideg}: square {s} {off} µm off");
    }
    // The pose is in the snapshot.
    let snap = r.m.controller.snapshot();
    assert_eq!(snap.pose, pose);
    assert_eq!(Snapshot::decode(&snap.encode()).map(|s| s.pose), Some(pose));
    r.fill_board(1_500);
}

#[test]
fn calibrating_a_board_turned_20_degrees_puts_pieces_on_the_true_centres() {
    calibrate_and_place(200, 41);
}

#[test]
fn calibrating_a_board_turned_minus_45_degrees_puts_pieces_on_the_true_centres() {
    calibrate_and_place(-450, 42);
}

#[test]
fn without_calibration_the_wrong_pose_misses_the_squares() {
    // The premise of the tests above: the configured pose is off by millimetres.
    let truth = truth(200);
    let r = Rig::new(truth, 43);
    let pose = r.m.controller.layout().pose;
    let worst = Square::ALL
        .iter()
        .map(|&s| pose.square_centre(s).distance(truth.square_centre(s)))
        .max()
        .unwrap();
    assert!(worst > 10_000, "{worst}");
}

#[test]
fn a_reset_after_calibration_resumes_with_the_calibrated_pose() {
    let truth = truth(-200);
    let mut r = Rig::new(truth, 44);
    r.begin();
    r.record(truth.square_centre(sq(0)), truth.square_centre(sq(8)));
    let calibrated = r.m.controller.layout().pose;
    r.settle();
    r.m.power_cycle(BestMove).unwrap();
    assert_eq!(r.m.controller.layout().pose, calibrated);
    assert!(r
        .m
        .run_until(&mut r.h, 60_000, |m| m.controller.state() == State::Setup));
    r.fill_board(1_500);
}

/// Calibration with a refused pair: Error lit, restarted at square 1, the pose
/// unchanged; Level then leaves, still unchanged.
fn refused(p0: impl Fn(Pose) -> Point, p8: impl Fn(Pose) -> Point, seed: u64) {
    let truth = truth(100);
    let mut r = Rig::new(truth, seed);
    let before = r.m.controller.layout().pose;
    let snap_before = r.m.controller.snapshot().pose;
    r.begin();
    r.record(p0(truth), p8(truth));
    let jog = r.jog();
    assert!(jog.refused && jog.first.is_none());
    assert!(r.light(Light::Error) && !r.light(Light::Loss));
    assert_eq!(r.m.controller.layout().pose, before);
    // Restarted: the head goes back to square 1 of the (unchanged) pose.
    r.settle();
    assert!(r.head().distance(before.square_centre(sq(0))) <= 100);
    // The next press clears the error light.
    r.press(Button::Start);
    assert!(!r.jog().refused && !r.light(Light::Error));
    r.press(Button::Level);
    assert_eq!(r.m.controller.state(), State::Setup);
    assert_eq!(r.m.controller.layout().pose, before);
    assert_eq!(r.m.controller.snapshot().pose, snap_before);
}

#[test]
fn the_same_point_twice_is_refused_and_changes_nothing() {
    let at = |t: Pose| t.square_centre(sq(0));
    refused(at, at, 45);
}

#[test]
fn a_pair_turned_more_than_45_degrees_is_refused_and_changes_nothing() {
    // Square 9 straight below and a little left of square 1: about -57 degrees.
    let p0 = |t: Pose| t.square_centre(sq(0));
    let p8 = |t: Pose| {
        let p = t.square_centre(sq(0));
        Point::new(p.x - 20_000, p.y - 85_000)
    };
    refused(p0, p8, 46);
}

#[test]
fn a_pitch_outside_20_to_60_mm_is_refused() {
    // Squares 1 and 9 only 20 mm apart: a 7 mm pitch.
    let p0 = |t: Pose| t.square_centre(sq(4));
    let p8 = |t: Pose| {
        let p = t.square_centre(sq(4));
        Point::new(p.x + 14_000, p.y - 14_000)
    };
    refused(p0, p8, 47);
}

#[test]
fn a_held_jog_button_repeats_and_level_cancels() {
    let mut r = Rig::new(truth(0), 48);
    let before = r.m.controller.layout().pose;
    r.begin();
    let x0 = r.head().x;
    r.hold(Button::FirstSquare, 1_000 + JOG_REPEAT_MS);
    let moved = r.head().x - x0;
    // One press, then about 20 mm/s of repeats for a second.
    assert!((10_000..=40_000).contains(&moved), "{moved}");
    r.press(Button::Level);
    assert_eq!(r.m.controller.state(), State::Setup);
    assert_eq!(r.m.controller.layout().pose, before);
}

#[test]
fn a_short_done_press_is_still_task_entry() {
    let mut r = Rig::new(truth(0), 49);
    r.press(Button::Done);
    for _ in 0..10 {
        r.settle(); // 3 s with the button released
    }
    assert!(matches!(r.m.controller.state(), State::TaskEntry(_)));
}

#[test]
fn level_while_the_head_moves_leaves_cleanly() {
    let mut r = Rig::new(truth(0), 50);
    let before = r.m.controller.layout().pose;
    r.m.world.borrow_mut().buttons[Button::Done.index()] = true;
    let calibrating =
        |m: &HostMachine<BestMove>| matches!(m.controller.state(), State::CalibratingPose(_));
    assert!(r
        .m
        .run_until(&mut r.h, CALIBRATE_HOLD_MS + 200, calibrating));
    r.m.world.borrow_mut().buttons[Button::Done.index()] = false;
    // The head is on its way to square 1 (homing left it at the switches).
    assert!(r.m.controller.hardware().machine.is_busy());
    r.press(Button::Level);
    assert_eq!(r.m.controller.state(), State::Setup);
    r.settle();
    assert_eq!(r.m.controller.state(), State::Setup);
    assert_eq!(r.m.controller.layout().pose, before);
    assert_eq!(r.m.controller.stats().errors, 0);
}
