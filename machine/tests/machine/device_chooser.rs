//! A move chooser is trusted with nothing: an occupied square it returns is not
//! replaced by another move; the game stops with the error light.
#![cfg(feature = "sim")]

use std::cell::RefCell;
use std::rc::Rc;
use tictable::{Board, Square};
use tictable_machine::controller::{GameSetup, MoveChooser, Problem, State};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::world::{SimConfig, World};

/// Always the centre, even when it is taken.
struct AlwaysCentre;

impl MoveChooser for AlwaysCentre {
    fn choose(&mut self, _: &Board) -> Option<Square> {
        Some(Square::CENTRE)
    }
}

#[test]
fn an_occupied_square_from_the_chooser_stops_the_game_instead_of_playing_another_move() {
    let world = Rc::new(RefCell::new(World::new(
        SimConfig::standard(0.0, 0.0, 41).unwrap(),
    )));
    let mut m = SimMachine::with_world(world, AlwaysCentre).unwrap();
    let mut h = SimHuman::new(Style::Random, 0.0, 41);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    m.start_game(setup, &mut h, Style::Random);
    // The device's first move (the centre), the person's reply, then the chooser
    // asks for the centre again.
    let stopped = m.run_until(&mut h, 120_000, |m| {
        matches!(m.controller.state(), State::Error(_) | State::Over(_))
    });
    assert!(stopped, "{:?}", m.controller.state());
    assert_eq!(m.controller.state(), State::Error(Problem::Mismatch));
    let board = m.controller.record().board();
    assert_eq!(board.piece_count(), 2, "{board}");
    assert_eq!(
        m.controller.record().board(),
        m.world.borrow().game_board().unwrap()
    );
}
