//! Faults that come together (found by `tictable simulate --faults all`): what the
//! machine shows and does when one fault lands on top of another.
#![cfg(feature = "sim")]

use tictable::{Square, Squares};
use tictable_machine::controller::{BestMove, GameSetup, Problem, State};
use tictable_machine::motion::Point;
use tictable_machine::sim::batch::{Summary, Violation};
use tictable_machine::sim::faults::{FaultKind, FaultSet};
use tictable_machine::sim::human::Style;

use crate::common;
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
        init_errors += u32::from(matches!(m.controller.state(), State::Error(_)));
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

/// A power cut while the head goes for its piece: the restarted machine sees the
/// board as the game left it and places again, for the square it had chosen
/// (the one a person saw it head for), not for a move its chooser draws anew.
#[test]
fn a_placement_cut_short_starts_again_for_the_same_square() {
    use tictable_machine::controller::RandomBestMove;
    use tictable_machine::sim::SplitMix64;
    let world = std::rc::Rc::new(std::cell::RefCell::new(
        tictable_machine::sim::world::World::new(
            tictable_machine::sim::world::SimConfig::standard(0.0, 0.0, 3).unwrap(),
        ),
    ));
    let mut m = tictable_machine::sim::run::SimMachine::with_world(
        world,
        RandomBestMove(SplitMix64::new(1)),
    )
    .unwrap();
    let mut h = tictable_machine::sim::human::SimHuman::passive(3);
    // The device first, its square its chooser's (every square is best).
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Random));
    let placing = |s: State| match s {
        State::Placing { square, .. } => Some(square),
        _ => None,
    };
    assert!(m.run_until(&mut h, 10_000, |m| placing(m.controller.state()).is_some()));
    let chosen = placing(m.controller.state()).unwrap();
    // Saved with the placement under way; cut before the grip.
    m.run_until(&mut h, 200, |_| false);
    for seed in 10..16 {
        // Several restarts, each chooser drawing differently.
        m.power_cycle(RandomBestMove(SplitMix64::new(seed)))
            .unwrap();
        assert!(m.run_until(&mut h, 30_000, |m| placing(m.controller.state()).is_some()));
        assert_eq!(
            placing(m.controller.state()),
            Some(chosen),
            "restart {seed}"
        );
        m.run_until(&mut h, 200, |_| false);
    }
}

/// The board pushed 24 mm sideways (bumps add up): the device's pieces land next
/// to the neighbouring square's centre, not beside their own. The second such
/// stray in a row asks for the board pose, not again for the stray alone.
#[test]
fn strays_in_a_row_ask_for_the_board_pose() {
    let (mut m, mut h) = machine(8);
    let setup = GameSetup {
        device_first: true,
        first_square: Some(Square::ALL[0]),
    };
    m.world.borrow_mut().bump(-24.0, 0.0);
    assert!(m.start_game(setup, &mut h, Style::Random));
    let stray = State::Error(Problem::StrayPiece(Square::ALL[0]));
    assert!(m.run_until(&mut h, 30_000, |m| m.controller.state() == stray));
    // A person removes the stray piece, as the lights ask.
    {
        let mut w = m.world.borrow_mut();
        let i = (0..w.pieces.len())
            .find(|&i| !w.in_storage(&w.pieces[i]))
            .expect("the stray piece");
        let slot = w.free_slot(w.pieces[i].colour).unwrap();
        w.hand_move(i, slot, 0.0);
    }
    let recalibrate = State::Error(Problem::Recalibrate(Square::ALL[0]));
    assert!(
        m.run_until(&mut h, 30_000, |m| matches!(
            m.controller.state(),
            State::Error(Problem::Recalibrate(_) | Problem::StrayPiece(_))
        ) && m.controller.state() != stray),
        "{:?}",
        m.controller.state()
    );
    assert_eq!(m.controller.state(), recalibrate);
}

/// A cheat put back by a person counts only when the device could not put it
/// back itself: after a power cut that came while the piece was still off its
/// square, or after an error light the runner saw come between (its restore
/// failed, or another fault hid the move). Otherwise the run fails: the device
/// did not restore it. A power cut elsewhere in the game excuses nothing (with
/// that rule a controller that never restores passed the 0.3 contract run).
#[test]
fn a_cheat_put_back_by_hand_counts_only_after_an_error_or_a_cut() {
    use tictable_machine::sim::scenario::GameReport;
    let check = |r: &GameReport| {
        let mut s = Summary::default();
        s.add_game(r);
        s.check(FaultSet::EMPTY, 0)
    };
    let mut r = GameReport {
        finished: true,
        cheats: 1,
        ..GameReport::default()
    };
    assert_eq!(check(&r), Err(Violation::NotRestored(1, 0)));
    // A game with a power cut, but not between the cheat and its restore.
    r.power_cuts = 1;
    assert_eq!(check(&r), Err(Violation::NotRestored(1, 0)));
    r.cheats_fixed_after_cut = 1;
    assert_eq!(check(&r), Ok(()));
    r.cheats_fixed_after_cut = 0;
    r.cheats_fixed_after_error = 1;
    assert_eq!(check(&r), Ok(()));
    // Not in a game that did not end right.
    r.pieces_lost = 1;
    assert!(check(&r).is_err());
}

/// A board pushed a whole square along (bumps that added up): the device's piece
/// lands centred on the neighbouring square, where the person saw the head put
/// it. After a reset the restarted machine shows the stray again (pattern 10),
/// not a plain mismatch (pattern 0) that such a person cannot act on. The person
/// sees the piece where the head put it and presses on; the device then asks
/// for the board to be pushed back (pattern 12), the person does so and removes
/// the piece that missed, and the game goes on with the board where it belongs.
#[test]
fn a_board_pushed_a_whole_square_along_is_recovered_by_following_the_patterns() {
    use tictable_machine::sim::human::SimHuman;
    let (mut m, _) = machine(12);
    let mut h = SimHuman::new(Style::Perfect, 0.0, 12);
    let home = m.world.borrow().config.pose;
    m.world.borrow_mut().bump(32.0, 0.0);
    let setup = GameSetup {
        device_first: true,
        first_square: Some(Square::CENTRE),
    };
    assert!(m.start_game(setup, &mut h, Style::Perfect));
    let stray = State::Error(Problem::StrayPiece(Square::CENTRE));
    assert!(m.run_until(&mut h, 30_000, |m| m.controller.state() == stray));
    m.power_cycle(BestMove).unwrap();
    // Homed, it shows the mismatch until its first stable reading names the stray.
    assert!(
        m.run_until(&mut h, 20_000, |m| m.controller.state() == stray),
        "{:?}",
        m.controller.state()
    );
    assert!(
        m.run_until(&mut h, 120_000, |m| m.controller.state()
            == State::HumanTurn),
        "{:?}",
        m.controller.state()
    );
    let w = m.world.borrow();
    assert_eq!(w.config.pose, home);
    assert_eq!(w.game_board(), Some(m.controller.record().board()));
    assert_eq!(m.controller.record().board().to_string(), "....X....");
}
