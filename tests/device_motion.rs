//! The motion layer: geometry, trapezoidal moves, homing, lift, timing; the steppers
//! drive the simulated pins (pulses counted with DIR).

use embedded_hal_mock::eh1::pwm::{Mock as PwmMock, Transaction as PwmT};
use std::cell::RefCell;
use std::rc::Rc;
use tictable::device::motion::{
    Axis, AxisConfig, AxisId, HeadTiming, Lift, Machine, MotionError, PinLift, Point, Pose,
    ServoLift, STORAGE_SLOTS,
};
use tictable::device::sim::pins::{Role, SimPin};
use tictable::device::sim::world::{SimConfig, World};
use tictable::device::Colour;
use tictable::Square;

#[test]
fn every_square_centre_maps_back_to_its_square_at_every_rotation() {
    for tenth in -450..=450 {
        if tenth % 25 != 0 {
            continue;
        }
        let angle = tenth as f32 / 10.0;
        let pose = Pose::new(Point::new(160.0, 130.0), angle, 31.0).unwrap();
        for s in Square::ALL {
            let c = pose.square_centre(s);
            assert_eq!(pose.square_at(c, 0.01), Some(s), "{angle} {s}");
            // Neighbouring centres are exactly one pitch apart.
            if s.column() < 2 {
                let right = pose.square_centre(Square::new(s.index() + 1).unwrap());
                assert!((c.distance(right) - 31.0).abs() < 1e-3);
            }
            // A point on the line between two squares belongs to neither.
            let local = pose.to_board(c);
            let edge = pose.to_machine(Point::new(local.x + 15.5, local.y));
            assert_eq!(pose.square_at(edge, 5.0), None);
        }
        let back = Pose::from_corners(
            pose.square_centre(Square::new(0).unwrap()),
            pose.square_centre(Square::new(8).unwrap()),
        )
        .unwrap();
        assert!((back.angle_deg() - angle).abs() < 0.01);
        assert!((back.pitch_mm() - 31.0).abs() < 0.01);
    }
    assert!(Pose::new(Point::new(0.0, 0.0), 45.5, 31.0).is_err());
    assert!(Pose::new(Point::new(0.0, 0.0), f32::NAN, 31.0).is_err());
    assert!(Pose::new(Point::new(0.0, 0.0), 0.0, 10.0).is_err());
}

type Pin = SimPin<Rc<RefCell<World>>>;
type SimMachine = Machine<Pin, Pin, PinLift<Pin>>;

fn machine(limit_x: Role) -> (Rc<RefCell<World>>, SimMachine) {
    let config = SimConfig::standard(0.0, 0.0, 3);
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
    assert_eq!(
        m.start_move(Point::new(10.0, 10.0)),
        Err(MotionError::NotHomed)
    );
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
    let target = Point::new(250.0, 37.3);
    let predicted = m.travel_ms(Point::new(0.0, 0.0), target);
    m.start_move(target).unwrap();
    let cfg = AxisConfig::DEFAULT;
    let vmax = cfg.max_speed * cfg.steps_per_mm / 1000.0; // steps per ms
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
        let a = cfg.accel * cfg.steps_per_mm / 1e6;
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
    assert!(m.start_move(Point::new(400.0, 0.0)).is_err());
    assert_eq!(
        m.start_move(Point::new(-1.0, 0.0)),
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
    let predicted = m.transfer_ms(from, to);
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
        let c = SimConfig::standard(angle, 0.0, 1);
        let mut worst = 0;
        for colour in [Colour::Black, Colour::White] {
            for k in 0..STORAGE_SLOTS {
                for s in Square::ALL {
                    let from = c.storage.slot(colour, k).unwrap();
                    let to = c.pose.square_centre(s);
                    // From the farthest point of the frame to the slot, then the square.
                    let here = Point::new(320.0, 320.0);
                    let t = m.travel_ms(here, from)
                        + m.travel_ms(from, to)
                        + 4 * HeadTiming::DEFAULT.lift_ms
                        + HeadTiming::DEFAULT.grip_ms
                        + HeadTiming::DEFAULT.release_ms;
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
