//! Faults that come together (found by `tictable simulate --faults all`): what the
//! machine shows and does when one fault lands on top of another.
#![cfg(feature = "sim")]

use tictable::device::controller::{BestMove, GameSetup, Problem, State};
use tictable::device::motion::Point;
use tictable::device::sim::faults::{FaultKind, FaultSet};
use tictable::device::sim::human::Style;
use tictable::{Square, Squares};

mod common;
use common::machine::{lights, machine};

/// A power cut drops the piece just placed a few mm off its square's centre
/// (here: pushed 6.5 mm along each axis, too far for the sensor to call it a
/// piece, near enough for a person to see it on its square). The restarted
/// machine must say which square it cannot read, not a plain "the board does not
/// match" that a person looking at a board as they remember it cannot act on;
/// once the piece is centred the game goes on.
#[test]
fn a_piece_left_off_centre_by_a_power_cut_is_named_and_centring_it_resumes() {
    let (mut m, mut h) = machine(12);
    let setup = GameSetup {
        device_first: true,
        first_square: Some(Square::CENTRE),
    };
    assert!(m.start_game(setup, &mut h, Style::Random));
    assert!(m.run_until(&mut h, 30_000, |m| m.controller.state() == State::HumanTurn));
    // Saved, then the cut; meanwhile the piece got nudged off its centre.
    m.run_until(&mut h, 500, |_| false);
    {
        let mut w = m.world.borrow_mut();
        let i = w.piece_on(Square::CENTRE).expect("the device's piece");
        let c = w.config.pose.square_centre(Square::CENTRE);
        w.pieces[i].at = Point::new(c.x + 6_500, c.y + 6_500);
    }
    m.power_cycle(BestMove).unwrap();
    let unclear = Problem::Unclear(Squares::from_bits(Square::CENTRE.bit()));
    assert!(
        m.run_until(&mut h, 20_000, |m| m.controller.state()
            == State::Error(unclear)),
        "{:?}",
        m.controller.state()
    );
    assert_eq!(lights(&m), unclear.lights());
    m.world.borrow_mut().centre_piece(Square::CENTRE, 0.0);
    assert!(m.run_until(&mut h, 10_000, |m| m.controller.state() == State::HumanTurn));
    assert_eq!(m.controller.record().board().piece_count(), 1);
}

/// At 0.3 failed transfers per I2C transaction (NACKs and timeouts each), a
/// start-up that needed all nine sensors at once failed for seconds, retrying
/// once a second (each retry a state change, and a poll of hundreds of
/// transactions). The sensors now start with the scans, one by one: the machine
/// homes and is ready without ever showing a sensor start-up error.
#[test]
fn start_up_at_a_high_bus_error_rate_does_not_wait_for_all_sensors_at_once() {
    let (mut m, mut h) = machine(5);
    let i2c = FaultSet::EMPTY.with(FaultKind::I2c);
    m.world.borrow_mut().config.set_faults(i2c, 0.3);
    let mut init_errors = 0;
    let ready = m.run_until(&mut h, 20_000, |m| {
        init_errors += u32::from(matches!(
            m.controller.state(),
            State::Error(Problem::SensorInit(..))
        ));
        m.controller.state() == State::Setup
    });
    assert!(ready, "{:?}", m.controller.state());
    assert_eq!(init_errors, 0);
    // A game then plays on the same noisy bus.
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Random));
    assert!(m.run_until(&mut h, 30_000, |m| m.controller.state() == State::HumanTurn));
}
