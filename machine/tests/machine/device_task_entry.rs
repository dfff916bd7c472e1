//! Entering placement tasks (contest items 1 to 3) with the machine's buttons only,
//! on the simulated machine: the real controller, panel debouncing and drivers.

use crate::common;
use common::sq;

use tictable::Square;
use tictable_machine::controller::{BestMove, State, TaskEntry, TaskError};
use tictable_machine::motion::STORAGE_SLOTS;
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::SimHuman;
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::world::SimConfig;
use tictable_machine::Colour;

/// The four lights that show the selected square, in binary (Lamp = 1 ... Loss = 8).
const SQUARE_LIGHTS: [Light; 4] = [Light::Lamp, Light::Win, Light::Draw, Light::Loss];

struct Panel {
    m: HostMachine<BestMove>,
    h: SimHuman,
}

impl Panel {
    /// A machine homed and in Setup.
    fn new(config: SimConfig) -> Panel {
        let mut m = SimMachine::new(config, BestMove).unwrap();
        let mut h = SimHuman::passive(7);
        assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
        Panel { m, h }
    }

    fn press(&mut self, b: Button) {
        self.m.press(&mut self.h, b);
    }

    fn light(&self, l: Light) -> bool {
        self.m.world.borrow().lights[l.index()]
    }

    fn entry(&self) -> TaskEntry {
        match self.m.controller.state() {
            State::TaskEntry(e) => e,
            st => panic!("not in task entry: {st:?}"),
        }
    }

    /// The square shown by the lights (0 = none).
    fn shown_square(&self) -> u8 {
        SQUARE_LIGHTS
            .iter()
            .enumerate()
            .filter(|(_, l)| self.light(**l))
            .map(|(bit, _)| 1 << bit)
            .sum()
    }

    /// Done in Setup: task entry, empty, black, nothing selected.
    fn begin(&mut self) {
        self.press(Button::Done);
        assert_eq!(self.entry(), TaskEntry::new());
        assert!(self.light(Light::DeviceTurn) && !self.light(Light::HumanTurn));
        assert_eq!(self.shown_square(), 0);
        assert!(!self.light(Light::Error));
    }

    /// Selects `colour` and `square` with Side and First square (the selection is
    /// empty after an entry was added), checking the lights, then presses Done.
    fn select(&mut self, colour: Colour, square: Square) {
        if self.entry().colour != colour {
            self.press(Button::Side);
        }
        assert_eq!(self.entry().colour, colour);
        assert_eq!(self.light(Light::DeviceTurn), colour == Colour::Black);
        assert_eq!(self.light(Light::HumanTurn), colour == Colour::White);
        let from = self.entry().square.map_or(0, |s| s.index() + 1);
        for _ in from..square.index() + 1 {
            self.press(Button::FirstSquare);
        }
        assert_eq!(self.entry().square, Some(square));
        assert_eq!(self.shown_square(), square.index() + 1);
        self.press(Button::Done);
    }

    /// Adds (colour, square) and checks that it was taken.
    fn add(&mut self, colour: Colour, square: Square) {
        let before = self.entry().items().len();
        self.select(colour, square);
        let e = self.entry();
        assert_eq!(e.rejected, None);
        assert!(!self.light(Light::Error));
        assert_eq!(e.items().len(), before + 1);
        assert_eq!(e.items().last(), Some(&(colour, square)));
        // The selection is cleared: the square lights go off.
        assert_eq!(e.square, None);
        assert_eq!(self.shown_square(), 0);
    }

    /// Start, then the task runs; checks the pieces on the board against `items`.
    fn run(&mut self, items: &[(Colour, Square)]) {
        assert_eq!(self.entry().items(), items);
        self.press(Button::Start);
        let done = self.m.run_until(&mut self.h, 120_000, |m| {
            m.controller.state() == State::TaskDone
        });
        assert!(done, "task stuck in {:?}", self.m.controller.state());
        let w = self.m.world.borrow();
        assert!(w.lights[Light::Lamp.index()]);
        for &(colour, square) in items {
            let i = w.piece_on(square).expect("a piece on the square");
            assert_eq!(w.pieces[i].colour, colour);
        }
        let on_board = (0..w.pieces.len())
            .filter(|&i| !w.in_storage(&w.pieces[i]))
            .count();
        assert_eq!(on_board, items.len());
        assert_eq!(self.m.controller.stats().placements, items.len() as u32);
        assert!(self.m.controller.stats().max_placement_ms <= 15_000);
    }

    /// Enters and runs `items`.
    fn enter_and_run(&mut self, items: &[(Colour, Square)]) {
        self.begin();
        for &(c, s) in items {
            self.add(c, s);
        }
        self.run(items);
    }
}

#[test]
fn item1_one_black_piece_on_square_5_entered_with_the_buttons() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 31).unwrap());
    p.enter_and_run(&[(Colour::Black, sq(4))]);
}

#[test]
fn item2_two_black_and_two_white_entered_with_the_buttons() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 32).unwrap());
    p.enter_and_run(&[
        (Colour::Black, sq(0)),
        (Colour::White, sq(8)),
        (Colour::Black, sq(6)),
        (Colour::White, sq(2)),
    ]);
}

#[test]
fn item3_the_same_on_a_board_rotated_either_way() {
    for (angle, seed) in [(45.0, 33), (-45.0, 34), (20.0, 35)] {
        let mut p = Panel::new(SimConfig::standard(angle, 0.0, seed).unwrap());
        p.enter_and_run(&[
            (Colour::White, sq(3)),
            (Colour::Black, sq(1)),
            (Colour::White, sq(5)),
            (Colour::Black, sq(7)),
        ]);
    }
}

#[test]
fn a_second_task_can_be_entered_after_the_first() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 36).unwrap());
    p.enter_and_run(&[(Colour::Black, sq(4))]);
    // The board is cleared by hand; Done after the task starts the next entry.
    p.m.world.borrow_mut().reset_pieces();
    p.begin();
    p.add(Colour::White, sq(8));
    p.press(Button::Start);
    assert!(p.m.run_until(&mut p.h, 120_000, |m| m.controller.state()
        == State::TaskDone));
    let w = p.m.world.borrow();
    let i = w.piece_on(sq(8)).expect("a piece on square 9");
    assert_eq!(w.pieces[i].colour, Colour::White);
    assert!(w.piece_on(sq(4)).is_none());
}

#[test]
fn a_square_given_twice_lights_the_error_and_is_not_added() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 37).unwrap());
    p.begin();
    p.add(Colour::Black, sq(4));
    // The same square again, in the other colour.
    p.select(Colour::White, sq(4));
    assert_eq!(p.entry().rejected, Some(TaskError::SquareTwice(sq(4))));
    assert!(p.light(Light::Error));
    assert_eq!(p.entry().items(), &[(Colour::Black, sq(4))]);
    // The selection is kept; the next press clears the error.
    assert_eq!(p.entry().square, Some(sq(4)));
    p.press(Button::FirstSquare);
    assert!(!p.light(Light::Error));
    assert_eq!(p.entry().square, Some(sq(5)));
    p.press(Button::Done);
    assert_eq!(p.entry().items().len(), 2);
    p.run(&[(Colour::Black, sq(4)), (Colour::White, sq(5))]);
}

#[test]
fn more_pieces_of_a_colour_than_storage_holds_are_refused() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 38).unwrap());
    p.begin();
    for i in 0..STORAGE_SLOTS as u8 {
        p.add(Colour::Black, sq(i));
    }
    p.select(Colour::Black, sq(STORAGE_SLOTS as u8));
    assert_eq!(
        p.entry().rejected,
        Some(TaskError::TooManyOf(Colour::Black))
    );
    assert!(p.light(Light::Error));
    assert_eq!(p.entry().items().len(), STORAGE_SLOTS);
    // A white piece there is fine.
    p.press(Button::Side);
    assert!(!p.light(Light::Error));
    p.press(Button::Done);
    assert_eq!(p.entry().rejected, None);
    assert_eq!(p.entry().items().len(), STORAGE_SLOTS + 1);
}

#[test]
fn done_without_a_square_and_start_without_entries_are_errors() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 39).unwrap());
    p.begin();
    p.press(Button::Done);
    assert_eq!(p.entry().rejected, Some(TaskError::Empty));
    assert!(p.light(Light::Error));
    assert!(p.entry().items().is_empty());
    p.press(Button::Start);
    assert_eq!(p.entry().rejected, Some(TaskError::Empty));
    assert!(p.light(Light::Error));
    // Nothing moved.
    assert!(p.m.run_until(&mut p.h, 2_000, |m| matches!(
        m.controller.state(),
        State::TaskEntry(_)
    )));
    assert_eq!(p.m.controller.stats().placements, 0);
}

#[test]
fn first_square_wraps_from_9_to_1() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 40).unwrap());
    p.begin();
    for i in 0..9u8 {
        p.press(Button::FirstSquare);
        assert_eq!(p.entry().square, Some(sq(i)));
        assert_eq!(p.shown_square(), i + 1);
    }
    p.press(Button::FirstSquare);
    assert_eq!(p.entry().square, Some(sq(0)));
}

#[test]
fn level_cancels_back_to_setup_and_drops_the_entries() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 41).unwrap());
    let level = p.m.controller.setup();
    p.begin();
    p.add(Colour::Black, sq(4));
    p.press(Button::Level);
    assert_eq!(p.m.controller.state(), State::Setup);
    assert_eq!(p.m.controller.setup(), level);
    // Setup shows who moves first (the device: Device turn) and nothing else.
    assert!(level.device_first && level.first_square.is_none());
    for l in Light::ALL {
        assert_eq!(p.light(l), l == Light::DeviceTurn, "{l:?} in Setup");
    }
    // A new entry starts empty.
    p.begin();
    assert!(p.entry().items().is_empty());
    assert_eq!(p.m.controller.stats().placements, 0);
}

#[test]
fn setup_shows_who_moves_first_and_the_first_square() {
    let mut p = Panel::new(SimConfig::standard(0.0, 0.0, 43).unwrap());
    assert!(p.light(Light::DeviceTurn) && !p.light(Light::HumanTurn));
    for i in 0..9u8 {
        p.press(Button::FirstSquare);
        assert_eq!(p.m.controller.setup().first_square, Some(sq(i)));
        assert_eq!(p.shown_square(), i + 1, "square {} in binary", i + 1);
    }
    p.press(Button::FirstSquare); // back to the table's choice
    assert_eq!(p.shown_square(), 0);
    p.press(Button::Side);
    assert!(!p.m.controller.setup().device_first);
    assert!(p.light(Light::HumanTurn) && !p.light(Light::DeviceTurn));
    for l in SQUARE_LIGHTS {
        assert!(
            !p.light(l),
            "no first square shown when the person moves first"
        );
    }
}
