//! The guided sensor calibration through the simulated machine: the operator follows
//! the step lights, lays out pieces and presses Start; the controller reads the
//! sensors through the real drivers and uses the new calibration only when it is
//! good.

use tictable_machine::classify::Calibration;
use tictable_machine::classify::Reference;
use tictable_machine::controller::{BestMove, GameSetup, State};
use tictable_machine::guided::{STEPS, STEP_LIGHTS};
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::{build_controller, SimMachine};
use tictable_machine::sim::world::SimConfig;
use tictable_machine::Colour;

fn machine(seed: u64) -> (HostMachine<BestMove>, SimHuman) {
    let mut m = SimMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), BestMove).unwrap();
    let mut h = SimHuman::passive(seed);
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    (m, h)
}

fn lit(m: &HostMachine<BestMove>) -> Vec<Light> {
    let w = m.world.borrow();
    Light::ALL
        .into_iter()
        .filter(|l| w.lights[l.index()])
        .collect()
}

fn calibration(m: &HostMachine<BestMove>) -> Calibration {
    *m.controller.hardware().scanner.calibration()
}

/// Lays out what step `i` asks for (or an empty board when `wrong`), checks the
/// lights, and presses Start.
fn do_step(m: &mut HostMachine<BestMove>, h: &mut SimHuman, i: usize, wrong: bool) {
    assert_eq!(
        m.controller.state(),
        State::CalibratingSensors { step: i as u8 }
    );
    assert_eq!(lit(m), {
        let mut v = vec![STEPS[i].light, Light::Error];
        v.sort_by_key(|l| l.index());
        v
    });
    {
        let mut w = m.world.borrow_mut();
        w.reset_pieces();
        let colour = match STEPS[i].reference {
            Reference::Empty => None,
            Reference::Black => Some(Colour::Black),
            Reference::White => Some(Colour::White),
        };
        if let (Some(colour), false) = (colour, wrong) {
            for s in STEPS[i].squares {
                let piece = w.stored_piece(colour).unwrap();
                let to = w.config.pose.square_centre(s);
                w.hand_move(piece, to, 1.0);
            }
        }
    }
    m.press(h, Button::Start);
    // The step collects its samples over a few hundred ms (one per integration time).
    let step = State::CalibratingSensors { step: i as u8 };
    assert!(m.run_until(h, 5_000, |m| m.controller.state() != step));
}

#[test]
fn the_operator_follows_the_lights_and_the_new_calibration_plays() {
    // Start from a machine whose calibration is useless (all references equal).
    let (mut m, mut h) = machine(21);
    m.controller = build_controller(&m.world, Calibration::default(), BestMove);
    m.world.borrow_mut().reset_pieces();
    assert!(m.controller.calibrate_sensors(), "before the first poll");
    assert!(m.run_until(&mut h, 60_000, |m| matches!(
        m.controller.state(),
        State::CalibratingSensors { .. }
    )));
    for i in 0..STEPS.len() {
        do_step(&mut m, &mut h, i, false);
    }
    assert_eq!(m.controller.state(), State::Setup);
    assert_ne!(calibration(&m), Calibration::default());
    m.world.borrow_mut().reset_pieces();
    // A whole game on the new calibration.
    let mut human = SimHuman::new(Style::Erring(0.3), 0.0, 5);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut human, Style::Erring(0.3)));
    let over = m.run_until(&mut human, 10 * 60_000, |m| {
        matches!(m.controller.state(), State::Over(_))
    });
    assert!(
        over,
        "stuck in {:?}, record {}",
        m.controller.state(),
        m.controller.record().board()
    );
    assert_ne!(m.controller.state(), State::Over(Some(false)));
    let board = m.controller.record().board();
    assert_eq!(m.world.borrow().game_board(), Some(board));
}

#[test]
fn a_bad_calibration_is_refused_and_begins_again_and_level_cancels() {
    let (mut m, mut h) = machine(22);
    let before = calibration(&m);
    assert!(m.controller.calibrate_sensors());
    // Step 2 (black on squares 1-5) done with the board left empty: the black and
    // empty references of those squares cannot be told apart.
    for i in 0..STEPS.len() {
        do_step(&mut m, &mut h, i, i == 1);
    }
    assert_eq!(
        m.controller.state(),
        State::CalibratingSensors {
            step: STEPS.len() as u8
        }
    );
    let mut failed = STEP_LIGHTS.to_vec();
    failed.push(Light::Error);
    failed.sort_by_key(|l| l.index());
    assert_eq!(lit(&m), failed, "every step light and Error");
    assert_eq!(calibration(&m), before, "the calibration in use is kept");
    // Start begins again at step 1; Level cancels back to Setup.
    m.press(&mut h, Button::Start);
    assert_eq!(m.controller.state(), State::CalibratingSensors { step: 0 });
    do_step(&mut m, &mut h, 0, false);
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.state(), State::Setup);
    assert_eq!(calibration(&m), before);
}

#[test]
fn calibration_is_refused_during_a_game() {
    let (mut m, mut h) = machine(23);
    m.world.borrow_mut().reset_pieces();
    m.press(&mut h, Button::Start);
    assert!(!matches!(m.controller.state(), State::Setup));
    assert!(!m.controller.calibrate_sensors());
    assert!(!matches!(
        m.controller.state(),
        State::CalibratingSensors { .. }
    ));
}
