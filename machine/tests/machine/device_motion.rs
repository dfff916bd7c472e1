//! The motion layer: geometry, trapezoidal moves, homing, lift, timing; the steppers
//! drive the simulated pins (pulses counted with DIR).

use embedded_hal_mock::eh1::pwm::{Mock as PwmMock, Transaction as PwmT};
use std::cell::RefCell;
use std::rc::Rc;
use tictable::Square;
use tictable_machine::motion::{
    Axis, AxisConfig, AxisId, HeadTiming, Lift, Machine, MotionError, PinLift, Point, Pose,
    PoseError, ServoLift, ROT_ONE, STORAGE_SLOTS,
};
use tictable_machine::sim::pins::{Role, SimPin};
use tictable_machine::sim::world::{SimConfig, World};
use tictable_machine::{wait_ticks, Colour};

/// Q16 cos and sin of `decideg` tenths of a degree, from f64.
fn exact(decideg: i32) -> (f64, f64) {
    let a = (decideg as f64 / 10.0).to_radians();
    (a.cos(), a.sin())
}

/// A square centre computed in f64 (µm).
fn exact_centre(centre: Point, decideg: i32, pitch: f64, s: Square) -> (f64, f64) {
    let (c, si) = exact(decideg);
    let lx = (s.column() as f64 - 1.0) * pitch;
    let ly = -(s.row() as f64 - 1.0) * pitch;
    (
        centre.x as f64 + lx * c - ly * si,
        centre.y as f64 + lx * si + ly * c,
    )
}

#[test]
fn every_square_centre_maps_back_to_its_square_at_every_rotation() {
    for angle in (-450..=450).step_by(25) {
        let pose = Pose::new(Point::mm(160, 130), angle, 31_000).unwrap();
        for s in Square::ALL {
            let c = pose.square_centre(s);
            assert_eq!(pose.square_at(c, 10), Some(s), "{angle} {s}");
            // Neighbouring centres are one pitch apart (to a few µm).
            if s.column() < 2 {
                let right = pose.square_centre(Square::new(s.index() + 1).unwrap());
                assert!(c.distance(right).abs_diff(31_000) <= 3, "{angle} {s}");
            }
            // A point on the line between two squares belongs to neither.
            let local = pose.to_board(c);
            let edge = pose.to_machine(Point::new(local.x + 15_500, local.y));
            assert_eq!(pose.square_at(edge, 5_000), None);
        }
        let back = Pose::from_corners(
            pose.square_centre(Square::new(0).unwrap()),
            pose.square_centre(Square::new(8).unwrap()),
        )
        .unwrap();
        let (c, s) = back.rotation();
        let (ec, es) = exact(angle);
        assert!((c as f64 / ROT_ONE as f64 - ec).abs() < 2e-4, "{angle}");
        assert!((s as f64 / ROT_ONE as f64 - es).abs() < 2e-4, "{angle}");
        assert!(back.pitch_um().abs_diff(31_000) <= 2);
    }
    assert_eq!(
        Pose::new(Point::mm(0, 0), 451, 31_000),
        Err(PoseError::Rotation)
    );
    assert_eq!(
        Pose::new(Point::mm(0, 0), i32::MIN, 31_000),
        Err(PoseError::Rotation)
    );
    assert_eq!(
        Pose::new(Point::mm(0, 0), 0, 10_000),
        Err(PoseError::Pitch(10_000))
    );
}

#[test]
fn integer_rotation_matches_floating_point_at_0_20_and_45_degrees() {
    let centre = Point::mm(160, 130);
    for angle in [0, 200, -200, 450, -450] {
        let pose = Pose::new(centre, angle, 32_000).unwrap();
        let (c, s) = pose.rotation();
        let (ec, es) = exact(angle);
        assert!(
            (c as f64 - ec * ROT_ONE as f64).abs() <= 1.0,
            "cos {angle}: {c}"
        );
        assert!(
            (s as f64 - es * ROT_ONE as f64).abs() <= 1.0,
            "sin {angle}: {s}"
        );
        // Exactly 45 degrees is within the limit either way.
        if angle.abs() == 450 {
            assert_eq!(c, s.abs());
        }
        for sq in Square::ALL {
            let got = pose.square_centre(sq);
            let (x, y) = exact_centre(centre, angle, 32_000.0, sq);
            assert!(
                (got.x as f64 - x).abs() <= 2.0 && (got.y as f64 - y).abs() <= 2.0,
                "{angle} {sq}: {got:?} vs ({x}, {y})"
            );
        }
        // The calibration's corners (rounded to whole µm) give the pose back.
        let corner = |i| {
            let (x, y) = exact_centre(centre, angle, 32_000.0, Square::new(i).unwrap());
            Point::new(x.round() as i32, y.round() as i32)
        };
        let back = Pose::from_corners(corner(0), corner(8)).unwrap();
        assert_eq!(back.centre(), centre, "{angle}");
        assert!(back.pitch_um().abs_diff(32_000) <= 1, "{angle}");
        for sq in Square::ALL {
            assert!(back.square_centre(sq).distance(pose.square_centre(sq)) <= 10);
        }
    }
}

#[test]
fn corners_turned_beyond_45_degrees_or_too_close_are_refused() {
    let centre = Point::mm(160, 130);
    let corners = |decideg: i32, pitch: f64| {
        let at = |i| {
            let (x, y) = exact_centre(centre, decideg, pitch, Square::new(i).unwrap());
            Point::new(x.round() as i32, y.round() as i32)
        };
        Pose::from_corners(at(0), at(8))
    };
    for angle in [451, 460, 900, 1800, -452, -460, -900] {
        assert_eq!(
            corners(angle, 32_000.0),
            Err(PoseError::Rotation),
            "{angle}"
        );
    }
    for angle in [449, -449, 0] {
        assert!(corners(angle, 32_000.0).is_ok(), "{angle}");
    }
    // The same point twice, a tiny board, a huge one, far-apart extremes.
    let p = Point::mm(100, 100);
    assert_eq!(Pose::from_corners(p, p), Err(PoseError::Pitch(0)));
    assert!(matches!(
        corners(0, 15_000.0),
        Err(PoseError::Pitch(15_000))
    ));
    assert!(matches!(corners(100, 70_000.0), Err(PoseError::Pitch(_))));
    let far = Pose::from_corners(
        Point::new(i32::MIN, i32::MAX),
        Point::new(i32::MAX, i32::MIN),
    );
    assert!(matches!(far, Err(PoseError::Pitch(_))));
    // Stored parts that are no rotation.
    assert_eq!(
        Pose::from_parts(p, ROT_ONE / 2, 0, 32_000),
        Err(PoseError::Rotation)
    );
    assert_eq!(
        Pose::from_parts(p, -ROT_ONE, 0, 32_000),
        Err(PoseError::Rotation)
    );
}

#[test]
fn distances_are_exact_integer_square_roots() {
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 32) as i32
    };
    let mut pairs: Vec<(i32, i32)> = (0..20_000).map(|_| (next(), next())).collect();
    pairs.extend(
        (0..2_000)
            .map(|i| (i, 0))
            .chain([(i32::MAX, i32::MAX), (3, 4)]),
    );
    for (a, b) in pairs {
        let d = Point::new(0, 0).distance(Point::new(a, b)) as u128;
        let n = (a as i128 * a as i128 + b as i128 * b as i128) as u128;
        assert!(d * d <= n && (d + 1) * (d + 1) > n, "({a}, {b}): {d}");
    }
}

#[test]
fn machine_and_board_frames_round_trip_within_a_step() {
    for angle in (-450..=450).step_by(50) {
        let pose = Pose::new(Point::new(161_234, 129_876), angle, 32_500).unwrap();
        for x in (0..=320_000).step_by(7_919) {
            for y in (0..=320_000).step_by(7_919) {
                let p = Point::new(x, y);
                let back = pose.to_machine(pose.to_board(p));
                // One step is 100 µm; the Q16 rotation keeps it within a few µm.
                assert!(back.distance(p) <= 10, "{angle} {p:?} -> {back:?}");
                let local = Point::new(x - 160_000, y - 160_000);
                let again = pose.to_board(pose.to_machine(local));
                assert!(
                    again.distance(local) <= 10,
                    "{angle} {local:?} -> {again:?}"
                );
            }
        }
    }
    // Far out of any machine nothing overflows: it saturates.
    let pose = Pose::new(Point::new(i32::MAX, i32::MIN), 450, 60_000).unwrap();
    let _ = pose.to_board(Point::new(i32::MIN, i32::MAX));
    let _ = pose.to_machine(Point::new(i32::MAX, i32::MAX));
    assert_eq!(
        pose.square_at(Point::new(i32::MIN, i32::MAX), u32::MAX),
        None
    );
    assert_eq!(
        Point::new(i32::MIN, i32::MIN).distance(Point::new(i32::MAX, i32::MAX)),
        3_037_000_498
    );
}

#[test]
fn the_profile_is_monotone_speed_and_acceleration_limited_and_ends_exactly() {
    let cfg = AxisConfig::DEFAULT;
    let vmax = (cfg.max_speed * cfg.steps_per_mm) as f64 / 1000.0; // steps per ms
    let a = (cfg.accel * cfg.steps_per_mm) as f64 / 1e6; // steps per ms²
    let travel = cfg.travel_mm * cfg.steps_per_mm;
    let distances = (0..=travel)
        .step_by(17)
        .chain([1, 2, 3, 5, travel - 1, travel]);
    for d in distances {
        let total = cfg.move_ms(d);
        // The time model: the ideal trapezoid or triangle, rounded up by a few ms.
        let ideal = if d as f64 >= vmax * vmax / a {
            d as f64 / vmax + vmax / a
        } else {
            2.0 * (d as f64 / a).sqrt()
        };
        assert!(
            total as f64 >= ideal - 0.01 && total as f64 <= ideal + 3.0,
            "{d}: {total} ms, ideal {ideal}"
        );
        let (mut last, mut last_v) = (0u32, 0i64);
        for t in 0..=total + 2 {
            let s = cfg.steps_due(d, t);
            assert!(s >= last, "{d} at {t}: {s} < {last}");
            let v = (s - last) as i64;
            assert!(v as f64 <= vmax + 1.0, "{d} at {t}: {v} steps/ms");
            assert!(
                ((v - last_v).abs() as f64) <= a + 2.0,
                "{d} at {t}: {last_v} -> {v}"
            );
            // The move ends exactly at its duration, not before.
            assert_eq!(s == d, t >= total || d == 0, "{d} at {t}");
            (last, last_v) = (s, v);
        }
        assert_eq!(cfg.steps_due(d, total), d);
        assert_eq!(cfg.steps_due(d, u32::MAX), d);
    }
}

#[test]
fn nothing_overflows_at_any_distance_time_or_configuration() {
    let cfg = AxisConfig::DEFAULT;
    for d in [0, 1, 3200, u32::MAX / 2, u32::MAX] {
        let total = cfg.move_ms(d);
        let mut last = 0;
        for t in [
            0,
            1,
            total / 2,
            total.saturating_sub(1),
            total,
            u32::MAX - 1,
            u32::MAX,
        ] {
            let s = cfg.steps_due(d, t);
            assert!(s >= last && s <= d, "{d} at {t}");
            last = s;
        }
        assert_eq!(cfg.steps_due(d, u32::MAX), d);
    }
    let extreme = AxisConfig {
        steps_per_mm: u32::MAX,
        max_speed: u32::MAX,
        accel: u32::MAX,
        travel_mm: u32::MAX,
        homing_speed: u32::MAX,
    };
    let slow = AxisConfig {
        steps_per_mm: 1,
        max_speed: 1,
        accel: 1,
        travel_mm: 1,
        homing_speed: 1,
    };
    for c in [extreme, slow] {
        for d in [0, 1, 1000, u32::MAX] {
            let total = c.move_ms(d);
            assert_eq!(c.steps_due(d, total), d);
            assert!(c.steps_due(d, total / 2) <= d);
        }
    }
}

type Pin = SimPin<Rc<RefCell<World>>>;
type SimMachine = Machine<Pin, Pin, PinLift<Pin>>;

fn machine(limit_x: Role) -> (Rc<RefCell<World>>, SimMachine) {
    let config = SimConfig::standard(0.0, 0.0, 3).unwrap();
    let axis = config.axis;
    let world = Rc::new(RefCell::new(World::new(config)));
    let pin = |r| SimPin::new(world.clone(), r);
    let x = Axis::new(
        AxisId::X,
        pin(Role::Step(0)),
        pin(Role::Dir(0)),
        pin(limit_x),
        axis,
    );
    let y = Axis::new(
        AxisId::Y,
        pin(Role::Step(1)),
        pin(Role::Dir(1)),
        pin(Role::Limit(1)),
        axis,
    );
    let m = Machine::new(
        x,
        y,
        PinLift(pin(Role::Lift)),
        pin(Role::Magnet),
        HeadTiming::DEFAULT,
    );
    (world, m)
}

/// Polls every ms until done; the time it took.
fn run(world: &Rc<RefCell<World>>, m: &mut SimMachine, start: u32) -> Result<u32, MotionError> {
    for t in start..start + 120_000 {
        world.borrow_mut().now_ms = t;
        match m.poll(t) {
            Ok(()) => return Ok(t - start),
            Err(nb::Error::WouldBlock) => {}
            Err(nb::Error::Other(e)) => return Err(e),
        }
    }
    panic!("never finished");
}

#[test]
fn homing_finds_the_switches_from_anywhere() {
    let (world, mut m) = machine(Role::Limit(0));
    let start = world.borrow().head.steps;
    assert!(start[0] > 0 || start[1] > 0);
    assert_eq!(m.start_move(Point::mm(10, 10)), Err(MotionError::NotHomed));
    m.start_homing(0).unwrap();
    let took = run(&world, &mut m, 0).unwrap();
    assert_eq!(world.borrow().head.steps, [0, 0]);
    assert!(m.is_homed());
    // At 60 mm/s, 10 steps/mm: 600 steps/s.
    let longest = start[0].max(start[1]) as u32;
    assert!(
        took >= longest * 1000 / 600 && took <= longest * 1000 / 600 + 5,
        "{took}"
    );
}

#[test]
fn homing_fails_when_the_switch_never_closes() {
    // The X "switch" is an unpressed button: it never closes.
    let (world, mut m) = machine(Role::Button(0));
    m.start_homing(0).unwrap();
    assert_eq!(
        run(&world, &mut m, 0),
        Err(MotionError::HomingFailed(AxisId::X))
    );
}

#[test]
fn moves_are_exact_acceleration_limited_and_take_the_model_time() {
    let (world, mut m) = machine(Role::Limit(0));
    m.start_homing(0).unwrap();
    let t0 = run(&world, &mut m, 0).unwrap() + 1;
    let target = Point::new(250_000, 37_300);
    let predicted = m.travel_ms(Point::mm(0, 0), target);
    m.start_move(target).unwrap();
    let cfg = AxisConfig::DEFAULT;
    let vmax = (cfg.max_speed * cfg.steps_per_mm) as f32 / 1000.0; // steps per ms
    let mut last = world.borrow().head.steps[0];
    let mut last_v = 0.0f32;
    let mut took = None;
    for t in t0..t0 + 10_000 {
        world.borrow_mut().now_ms = t;
        let r = m.poll(t);
        let now = world.borrow().head.steps[0];
        let v = (now - last) as f32;
        assert!(v <= vmax + 1.0, "speed {v} steps/ms at {t}");
        // Speed changes by at most a * 1 ms (plus rounding of whole steps).
        let a = (cfg.accel * cfg.steps_per_mm) as f32 / 1e6;
        assert!(
            (v - last_v).abs() <= a + 2.0,
            "jerk at {t}: {last_v} -> {v}"
        );
        last = now;
        last_v = v;
        if r.is_ok() {
            took = Some(t - t0);
            break;
        }
    }
    let took = took.expect("the move ended");
    assert_eq!(world.borrow().head.steps, [2500, 373]);
    assert!(
        took.abs_diff(predicted) <= 2,
        "took {took}, model {predicted}"
    );
    assert!(m.start_move(Point::mm(400, 0)).is_err());
    assert_eq!(
        m.start_move(Point::mm(-1, 0)),
        Err(MotionError::OutOfTravel(AxisId::X))
    );
}

#[test]
fn a_transfer_picks_and_places_the_piece_within_the_time_model() {
    let (world, mut m) = machine(Role::Limit(0));
    m.start_homing(0).unwrap();
    let t0 = run(&world, &mut m, 0).unwrap() + 1;
    let (from, to, square) = {
        let w = world.borrow();
        let sq = Square::new(4).unwrap();
        (
            w.config.storage.slot(Colour::Black, 0).unwrap(),
            w.config.pose.square_centre(sq),
            sq,
        )
    };
    let predicted = m.transfer_ms(from, to, false);
    m.start_transfer(from, to).unwrap();
    let took = run(&world, &mut m, t0).unwrap();
    assert!(
        took.abs_diff(predicted) <= 5,
        "took {took}, model {predicted}"
    );
    let w = world.borrow();
    let i = w.piece_on(square).expect("the piece arrived");
    assert_eq!(w.pieces[i].colour, Colour::Black);
    assert!(!w.head.magnet && !w.head.lowered && w.head.held.is_none());
}

#[test]
fn worst_case_placement_time_from_the_model_is_under_15_s() {
    let (world, mut m) = machine(Role::Limit(0));
    m.start_homing(0).unwrap();
    run(&world, &mut m, 0).unwrap();
    for angle in [-45.0, 0.0, 45.0] {
        let c = SimConfig::standard(angle, 0.0, 1).unwrap();
        let mut worst = 0;
        for colour in [Colour::Black, Colour::White] {
            for k in 0..STORAGE_SLOTS {
                for s in Square::ALL {
                    let from = c.storage.slot(colour, k).unwrap();
                    let to = c.pose.square_centre(s);
                    // From the farthest point of the frame to the slot, then the square.
                    let here = Point::mm(320, 320);
                    let t = m.travel_ms(here, from)
                        + m.travel_ms(from, to)
                        + 4 * wait_ticks(HeadTiming::DEFAULT.lift_ms)
                        + wait_ticks(HeadTiming::DEFAULT.grip_ms)
                        + wait_ticks(HeadTiming::DEFAULT.release_ms);
                    worst = worst.max(t);
                }
            }
        }
        // Three attempts (two missed grips) plus sensor checks must fit in 15 s.
        assert!(
            3 * worst + 3 * 400 <= 15_000,
            "angle {angle}: {worst} ms per attempt"
        );
    }
}

#[test]
fn servo_lift_sets_the_duty_cycles() {
    let expected = [
        PwmT::max_duty_cycle(20_000),
        PwmT::set_duty_cycle(1_000),
        PwmT::max_duty_cycle(20_000),
        PwmT::set_duty_cycle(2_000),
    ];
    let mut pwm = PwmMock::new(&expected);
    let mut lift = ServoLift {
        pwm: pwm.clone(),
        up_permille: 50,
        down_permille: 100,
    };
    lift.set_lowered(false).unwrap();
    lift.set_lowered(true).unwrap();
    pwm.done();
}

/// The time a [`TimedPin`] reads, µs.
type Clock = Rc<std::cell::Cell<u64>>;
/// The times of a [`TimedPin`]'s rising edges, µs.
type Edges = Rc<RefCell<Vec<u64>>>;

/// A STEP/DIR pin that logs the time of every rising edge, and a limit switch that
/// is always closed (homing ends at once; a move away from it never reads it).
#[derive(Clone)]
struct TimedPin {
    now_us: Clock,
    edges: Option<Edges>,
    high: bool,
}

impl embedded_hal::digital::ErrorType for TimedPin {
    type Error = core::convert::Infallible;
}

impl embedded_hal::digital::OutputPin for TimedPin {
    fn set_high(&mut self) -> Result<(), Self::Error> {
        if !self.high {
            if let Some(edges) = &self.edges {
                edges.borrow_mut().push(self.now_us.get());
            }
        }
        self.high = true;
        Ok(())
    }
    fn set_low(&mut self) -> Result<(), Self::Error> {
        self.high = false;
        Ok(())
    }
}

impl embedded_hal::digital::InputPin for TimedPin {
    fn is_high(&mut self) -> Result<bool, Self::Error> {
        Ok(false)
    }
    fn is_low(&mut self) -> Result<bool, Self::Error> {
        Ok(true) // active low: closed
    }
}

/// An X axis on [`TimedPin`]s, at time 0: the clock both read (µs), the STEP
/// pin's rising edges, and the axis (DIR and the switch log nothing).
fn timed_axis() -> (Clock, Edges, Axis<TimedPin, TimedPin>) {
    let now = Rc::new(std::cell::Cell::new(0u64));
    let edges = Rc::new(RefCell::new(Vec::new()));
    let pin = |log: bool| TimedPin {
        now_us: now.clone(),
        edges: log.then(|| edges.clone()),
        high: false,
    };
    let axis = Axis::new(
        AxisId::X,
        pin(true),
        pin(false),
        pin(false),
        AxisConfig::DEFAULT,
    );
    (now, edges, axis)
}

/// The gaps between the steps of a 3000-step move polled every `period_us`, with
/// the sub-millisecond time (`fine`) or the millisecond alone.
fn step_gaps(period_us: u64, fine: bool) -> Vec<u64> {
    let (now, edges, mut axis) = timed_axis();
    axis.start_homing(0).unwrap();
    // The switch is closed from the start: homed once it has been read closed
    // SWITCH_SAMPLES polls in a row, without a step.
    let polls = (100..110).position(|t| axis.poll(t) == Ok(())).unwrap();
    assert_eq!(
        polls + 1,
        usize::from(tictable_machine::motion::SWITCH_SAMPLES)
    );
    assert!(axis.is_homed() && axis.position() == 0 && edges.borrow().is_empty());
    now.set(100_000);
    axis.start_move(3000, 100).unwrap();
    loop {
        let t = now.get();
        let (ms, us) = ((t / 1000) as u32, (t % 1000) as u16);
        let r = if fine {
            axis.poll_at(ms, us)
        } else {
            axis.poll(ms)
        };
        match r {
            Ok(()) => break,
            Err(nb::Error::WouldBlock) => now.set(t + period_us),
            Err(nb::Error::Other(e)) => panic!("{e:?}"),
        }
    }
    let edges = edges.borrow();
    assert_eq!(edges.len(), 3000);
    edges.windows(2).map(|w| w[1] - w[0]).collect()
}

#[test]
fn with_the_sub_millisecond_time_steps_come_out_evenly_not_in_bursts() {
    // Top speed: 250 mm/s at 10 steps/mm, a step due every 400 µs.
    let cruise = |gaps: &[u64]| gaps[gaps.len() / 2 - 200..gaps.len() / 2 + 200].to_vec();
    // Millisecond polls: two or three steps at each tick, then a gap of a millisecond.
    let coarse = cruise(&step_gaps(10, false));
    assert!(coarse.contains(&0), "bursts at each ms tick");
    assert!(coarse.iter().any(|&g| g >= 1000));
    // Sub-millisecond polls every 10 µs: every gap within 400 µs ± 62.5 µs (the
    // profile's sixteenth of a ms) + the poll period.
    let fine = cruise(&step_gaps(10, true));
    for g in &fine {
        assert!((320..=480).contains(g), "gap {g} µs: {fine:?}");
    }
    let mean = fine.iter().sum::<u64>() as f64 / fine.len() as f64;
    assert!((mean - 400.0).abs() < 5.0, "{mean}");
}

/// The changes of the head's pins: (µs, level).
type HeadLog = Rc<RefCell<Vec<(u64, bool)>>>;

/// A pin of the head test: the lift's and the magnet's log their changes; the
/// axes' pins log nothing, and read as closed switches.
struct HeadPin {
    now_us: Rc<std::cell::Cell<u64>>,
    log: Option<HeadLog>,
    high: bool,
}

impl embedded_hal::digital::ErrorType for HeadPin {
    type Error = core::convert::Infallible;
}

impl embedded_hal::digital::OutputPin for HeadPin {
    fn set_high(&mut self) -> Result<(), Self::Error> {
        self.set(true);
        Ok(())
    }
    fn set_low(&mut self) -> Result<(), Self::Error> {
        self.set(false);
        Ok(())
    }
}

impl embedded_hal::digital::InputPin for HeadPin {
    fn is_high(&mut self) -> Result<bool, Self::Error> {
        Ok(false)
    }
    fn is_low(&mut self) -> Result<bool, Self::Error> {
        Ok(true) // active low: closed
    }
}

impl HeadPin {
    fn set(&mut self, high: bool) {
        if let (true, Some(log)) = (high != self.high, &self.log) {
            log.borrow_mut().push((self.now_us.get(), high));
        }
        self.high = high;
    }
}

/// A transfer polled every `period_us` from `start_us` with the millisecond tick
/// alone: the real time in µs between each change of the head (lift or magnet)
/// and the next, and to the end of the job, with the wait each needs, ms.
fn head_gaps(start_us: u64, period_us: u64) -> Vec<(u64, u32)> {
    let now = Rc::new(std::cell::Cell::new(start_us));
    let log: HeadLog = Rc::default();
    let pin = |log: Option<&HeadLog>| HeadPin {
        now_us: now.clone(),
        log: log.cloned(),
        high: false,
    };
    // Switches closed from the start: homed without a step.
    let axis = |id| Axis::new(id, pin(None), pin(None), pin(None), AxisConfig::DEFAULT);
    let t = HeadTiming::DEFAULT;
    let mut m = Machine::new(
        axis(AxisId::X),
        axis(AxisId::Y),
        PinLift(pin(Some(&log))),
        pin(Some(&log)),
        t,
    );
    let poll = |m: &mut Machine<HeadPin, HeadPin, PinLift<HeadPin>>| loop {
        let r = m.poll((now.get() / 1000) as u32);
        match r {
            Ok(()) => return now.get(),
            Err(nb::Error::WouldBlock) => now.set(now.get() + period_us),
            Err(nb::Error::Other(e)) => panic!("{e:?}"),
        }
    };
    m.start_homing((now.get() / 1000) as u32).unwrap();
    poll(&mut m);
    log.borrow_mut().clear();
    m.start_transfer(Point::mm(10, 10), Point::mm(20, 20))
        .unwrap();
    let end = poll(&mut m);
    let log = log.borrow();
    // Lift down, magnet on, lift up, lift down, magnet off, lift up: the lift and
    // the magnet alternate, so the pins' logs merge in order of time.
    let needs = [
        t.lift_ms,
        t.grip_ms,
        t.lift_ms,
        t.lift_ms,
        t.release_ms,
        t.lift_ms,
    ];
    assert_eq!(log.len(), needs.len(), "{log:?}");
    let times: Vec<u64> = log.iter().map(|&(at, _)| at).chain([end]).collect();
    times.windows(2).map(|w| w[1] - w[0]).zip(needs).collect()
}

#[test]
fn the_head_waits_last_their_length_in_real_time_whatever_the_tick_phase() {
    // Polls every 0.7 ms (a slow loop pass), begun at every phase of a tick.
    for start_us in (0..1000).step_by(50) {
        for (gap_us, ms) in head_gaps(100_000 + start_us, 700) {
            assert!(
                gap_us >= u64::from(ms) * 1000,
                "begun {start_us} µs into a tick: a {ms} ms wait lasted {gap_us} µs"
            );
        }
    }
}

/// The pins of one axis whose switch closes after `switch_at` steps back, and
/// which reads low by noise on the `noise` reads that follow step `noisy_step`
/// (driver noise on a weak pull-up, coupled in by the step). Keeps the time the
/// real switch was first read closed.
#[derive(Clone)]
struct NoisyAxis {
    now_us: Rc<std::cell::Cell<u64>>,
    steps: Rc<std::cell::Cell<u32>>,
    noise_left: Rc<std::cell::Cell<u32>>,
    first_closed_us: Rc<std::cell::Cell<Option<u64>>>,
    noisy_step: u32,
    noise: u32,
    switch_at: u32,
}

impl embedded_hal::digital::ErrorType for NoisyAxis {
    type Error = core::convert::Infallible;
}

/// STEP (DIR ignored: homing only goes back): counts the steps.
impl embedded_hal::digital::OutputPin for NoisyAxis {
    fn set_high(&mut self) -> Result<(), Self::Error> {
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() == self.noisy_step {
            self.noise_left.set(self.noise);
        }
        Ok(())
    }
    fn set_low(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// The switch, active low.
impl embedded_hal::digital::InputPin for NoisyAxis {
    fn is_high(&mut self) -> Result<bool, Self::Error> {
        let noisy = self.noise_left.get() > 0;
        self.noise_left.set(self.noise_left.get().saturating_sub(1));
        let closed = self.steps.get() >= self.switch_at;
        if closed && self.first_closed_us.get().is_none() {
            self.first_closed_us.set(Some(self.now_us.get()));
        }
        Ok(!noisy && !closed)
    }
    fn is_low(&mut self) -> Result<bool, Self::Error> {
        self.is_high().map(|h| !h)
    }
}

/// Homes an axis whose switch closes after 500 steps, with `noise` low readings
/// after step 100, polled every `period_us` with the sub-millisecond time: the
/// steps taken, and the time from the first closed reading of the real switch to
/// the end of homing, µs (`None`: homed before the real switch).
fn home_noisy(noise: u32, period_us: u64) -> (u32, Option<u64>) {
    let pins = NoisyAxis {
        now_us: Rc::default(),
        steps: Rc::default(),
        noise_left: Rc::default(),
        first_closed_us: Rc::default(),
        noisy_step: 100,
        noise,
        switch_at: 500,
    };
    let (dir, limit) = (pins.clone(), pins.clone());
    let mut axis = Axis::new(AxisId::X, pins.clone(), dir, limit, AxisConfig::DEFAULT);
    axis.start_homing(0).unwrap();
    loop {
        let t = pins.now_us.get();
        match axis.poll_at((t / 1000) as u32, (t % 1000) as u16) {
            Ok(()) => break,
            Err(nb::Error::WouldBlock) => pins.now_us.set(t + period_us),
            Err(nb::Error::Other(e)) => panic!("{e:?}"),
        }
    }
    assert!(axis.is_homed() && axis.position() == 0);
    let first = pins.first_closed_us.get();
    (pins.steps.get(), first.map(|t| pins.now_us.get() - t))
}

#[test]
fn a_limit_switch_counts_as_closed_only_after_a_millisecond_of_closed_readings() {
    // Three low readings on consecutive passes 40 µs apart while stepping: noise,
    // not the switch. Homing goes on to the real switch at 500 steps.
    let (steps, _) = home_noisy(3, 40);
    assert_eq!(steps, 500, "homed on noise");
    // Even 20 low readings (800 µs) are filtered.
    assert_eq!(home_noisy(20, 40).0, 500);
    // The real switch: closed once it has read closed for at least 1 ms, on fast
    // passes and on slow ones (then at the first pass after the millisecond).
    for period in [10, 40, 700] {
        let (steps, filter_us) = home_noisy(0, period);
        assert_eq!(steps, 500);
        let filter_us = filter_us.unwrap();
        assert!(
            (1000..1126 + period).contains(&filter_us),
            "{period} µs: {filter_us}"
        );
    }
}

/// The most steps of a 3000-step move (polled every 10 µs with the sub-millisecond
/// time) within any millisecond after a 40 ms flash stall at 700 ms into it: the
/// clock pausing through the stall as the firmware's does (SysTick's exception pends
/// once while the core cannot fetch: one millisecond counted for the whole stall),
/// or, with `catch_up`, a clock that counts the stall.
fn busiest_ms_after_a_stall(catch_up: bool) -> usize {
    let (now, edges, mut axis) = timed_axis();
    axis.start_homing(0).unwrap();
    assert!((0..10).any(|t| axis.poll(t) == Ok(())));
    axis.start_move(3000, 100).unwrap();
    now.set(100_000);
    let (stall_at, stall_us) = (800_000, 40_000);
    let mut lost = 0;
    loop {
        let t = now.get();
        if (stall_at..stall_at + stall_us).contains(&t) {
            // The core fetches nothing: no poll; one tick is counted after it.
            now.set(stall_at + stall_us);
            lost = if catch_up { 0 } else { stall_us - 1000 };
            continue;
        }
        let seen = t - lost;
        match axis.poll_at((seen / 1000) as u32, (seen % 1000) as u16) {
            Ok(()) => break,
            Err(nb::Error::WouldBlock) => now.set(t + 10),
            Err(nb::Error::Other(e)) => panic!("{e:?}"),
        }
    }
    let edges = edges.borrow();
    assert_eq!(edges.len(), 3000);
    let after: Vec<u64> = edges.iter().copied().filter(|&e| e >= stall_at).collect();
    (0..after.len())
        .map(|i| {
            after[i..]
                .iter()
                .take_while(|&&e| e < after[i] + 1000)
                .count()
        })
        .max()
        .unwrap()
}

#[test]
fn a_flash_stall_pauses_a_move_without_a_burst_of_steps_after_it() {
    // The firmware's millisecond clock across a flash stall (firmware/src/clock.rs):
    // it pauses, so the move resumes where it stopped. The one millisecond it counts
    // for the stall brings that millisecond's steps (2 or 3 at top speed, one every
    // 400 µs) at once: at most 6 in a millisecond.
    let paused = busiest_ms_after_a_stall(false);
    assert!(paused <= 6, "{paused}");
    // A clock that caught up would have the stalled steps due at once: a burst no
    // stepper follows.
    assert!(busiest_ms_after_a_stall(true) > 50);
}

/// The motor's losses (and the first lost step's time, µs) over a 3000-step move of
/// an axis made with `send_no_bursts`, polled every 10 µs with the sub-millisecond
/// time, but once not polled for `pause_us` from `at_us` into the move (the loop
/// busy elsewhere: a bus transfer, a switch reading that reopened), or, with
/// `paused_clock`, stalled with the clock counting one millisecond of it (the
/// firmware's clock across a flash erase).
fn losses_after_a_pause(at_us: u64, pause_us: u64, paused_clock: bool) -> (u64, Option<u64>) {
    use tictable_machine::sim::motor::Motor;
    let (now, edges, axis) = timed_axis();
    let mut axis = axis.send_no_bursts();
    axis.start_homing(0).unwrap();
    assert!((0..10).any(|t| axis.poll(t) == Ok(())));
    now.set(100_000);
    axis.start_move(3000, 100).unwrap();
    let pause_at = 100_000 + at_us;
    let mut uncounted = 0;
    loop {
        let t = now.get();
        let seen = t - uncounted;
        match axis.poll_at((seen / 1000) as u32, (seen % 1000) as u16) {
            Ok(()) => break,
            Err(nb::Error::WouldBlock) if (t..t + 10).contains(&pause_at) => {
                now.set(pause_at + pause_us);
                if paused_clock {
                    uncounted = pause_us.saturating_sub(1000);
                }
            }
            Err(nb::Error::WouldBlock) => now.set(t + 10),
            Err(nb::Error::Other(e)) => panic!("{e:?}"),
        }
    }
    let edges = edges.borrow();
    assert_eq!(edges.len(), 3000);
    let mut motor = Motor::default();
    for &e in edges.iter() {
        motor.step(e * 1000);
    }
    (motor.lost, motor.first_loss.map(|(ns, _)| ns / 1000))
}

#[test]
fn after_a_pause_the_profile_moves_on_and_the_motor_follows() {
    // Pauses from 20 µs to a flash erase's 40 ms, while accelerating (0 to 167 ms),
    // at top speed and while braking, each at 4 phases of a step; the clock running
    // through the pause, or paused (flash stalls from 1 ms on).
    let mut lost = vec![];
    for at_us in [3_000, 20_000, 60_000, 150_000, 400_000, 1_150_000] {
        for phase in 0..4 {
            let at = at_us + phase * 57;
            for pause_us in (20..=2_000).step_by(60).chain([5_000, 12_000, 40_000]) {
                for paused_clock in [false, true] {
                    if paused_clock && pause_us < 1000 {
                        continue;
                    }
                    let (n, first) = losses_after_a_pause(at, pause_us, paused_clock);
                    if n > 0 {
                        lost.push((at, pause_us, paused_clock, n, first));
                    }
                }
            }
        }
    }
    assert!(
        lost.is_empty(),
        "(pause at µs, pause µs, clock paused, steps lost, first loss µs): {lost:?}"
    );
}
