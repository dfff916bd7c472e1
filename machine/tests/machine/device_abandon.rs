//! A way out for people: holding Start for 2 s abandons the game or task in any
//! state (also right after power-on), and every problem has its own light
//! pattern, the one `firmware/README.md`'s table documents.
#![cfg(feature = "sim")]

use tictable::{Square, Squares};
use tictable_machine::controller::{BestMove, GameSetup, Problem, State, Task, ABANDON_HOLD_MS};
use tictable_machine::motion::MotionError;
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::Colour;

use crate::common;
use common::machine::{lights, machine, M};

/// Holds Start for `ms`, then releases it (and lets the release settle).
fn hold_start(m: &mut M, h: &mut SimHuman, ms: u32) {
    m.world.borrow_mut().buttons[Button::Start.index()] = true;
    for _ in 0..ms {
        m.tick(h);
    }
    m.world.borrow_mut().buttons[Button::Start.index()] = false;
    for _ in 0..100 {
        m.tick(h);
    }
}

/// A game under way: the device (first) has placed its piece, the human's turn.
fn game_under_way(m: &mut M, h: &mut SimHuman) {
    let setup = GameSetup {
        device_first: true,
        first_square: Some(Square::CENTRE),
    };
    m.start_game(setup, h, Style::Random);
    assert!(m.run_until(h, 30_000, |m| m.controller.state() == State::HumanTurn));
    assert_eq!(m.controller.record().board().piece_count(), 1);
    // The loop's next pass saves what the poll left (the save comes before the
    // poll, as in the firmware).
    m.tick(h);
}

#[test]
fn holding_start_abandons_a_game_clears_the_record_and_waits_for_an_empty_board() {
    let (mut m, mut h) = machine(31);
    game_under_way(&mut m, &mut h);
    // A short press does nothing in the human's turn.
    hold_start(&mut m, &mut h, 300);
    assert_eq!(m.controller.state(), State::HumanTurn);
    hold_start(&mut m, &mut h, ABANDON_HOLD_MS + 100);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    assert_eq!(lights(&m), Problem::Abandoned.lights());
    assert_eq!(m.controller.record().board().piece_count(), 0);
    // Saved through the normal snapshot path: nothing left to resume.
    let snap = m.store.load().unwrap().unwrap();
    assert!(!snap.active && snap.record.board().piece_count() == 0);
    // Not before the board is empty.
    m.run_until(&mut h, 2_000, |_| false);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    m.world.borrow_mut().reset_pieces();
    assert!(m.run_until(&mut h, 5_000, |m| m.controller.state() == State::Setup));
    assert_eq!(m.controller.stats().abandons, 1);
    // And a new game starts normally.
    game_under_way(&mut m, &mut h);
}

#[test]
fn after_a_power_cut_and_a_swept_board_holding_start_is_the_way_out() {
    let (mut m, mut h) = machine(32);
    game_under_way(&mut m, &mut h);
    // The board is swept while the power is off.
    m.power_cycle(BestMove).unwrap();
    m.world.borrow_mut().reset_pieces();
    assert!(m.run_until(&mut h, 60_000, |m| matches!(
        m.controller.state(),
        State::Error(Problem::Mismatch)
    )));
    // Start pressed briefly is not enough in the mismatch.
    hold_start(&mut m, &mut h, 200);
    assert_eq!(m.controller.state(), State::Error(Problem::Mismatch));
    // Held, even before homing has ended after another power cut (the head
    // far from the switches: homing takes 5 s).
    m.world.borrow_mut().head.steps = [3000, 3000];
    m.power_cycle(BestMove).unwrap();
    m.tick(&mut h);
    assert_eq!(m.controller.state(), State::Starting);
    hold_start(&mut m, &mut h, ABANDON_HOLD_MS + 100);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    let snap = m.store.load().unwrap().unwrap();
    assert!(!snap.active && snap.record.board().piece_count() == 0);
}

#[test]
fn holding_start_abandons_a_task_while_the_head_moves() {
    let (mut m, mut h) = machine(33);
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    m.world.borrow_mut().reset_pieces();
    let task = Task::new(&[
        (Colour::Black, Square::CENTRE),
        (Colour::White, Square::ALL[0]),
    ])
    .unwrap();
    m.controller.start_task(task).unwrap();
    assert!(m.run_until(&mut h, 30_000, |m| matches!(
        m.controller.state(),
        State::Placing { .. }
    )));
    hold_start(&mut m, &mut h, ABANDON_HOLD_MS + 100);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    // The magnet let go; the head homes. A person clears the board.
    assert!(m.run_until(&mut h, 30_000, |m| !m
        .controller
        .hardware()
        .machine
        .is_busy()));
    assert!(!m.world.borrow().head.magnet);
    m.world.borrow_mut().reset_pieces();
    assert!(m.run_until(&mut h, 5_000, |m| m.controller.state() == State::Setup));
}

/// Every problem, with the squares the README's rows are written for.
fn problems() -> Vec<Problem> {
    let mut all = vec![
        Problem::Mismatch,
        Problem::BoardNotEmpty,
        Problem::StorageEmpty,
        Problem::Abandoned,
        Problem::Motion(MotionError::NotHomed),
        #[cfg(feature = "games")]
        Problem::UnknownGame(9),
    ];
    for s in Square::ALL {
        all.extend([
            Problem::SensorFault(Squares::from_bits(s.bit())),
            Problem::Unclear(Squares::from_bits(s.bit())),
            Problem::PlacementFailed(s),
            Problem::StrayPiece(s),
            Problem::Recalibrate(s),
        ]);
    }
    all
}

/// The pattern of a problem as a person tells it: the same for the problems
/// that ask for the same action (a stray piece on any square...).
fn kind(p: &Problem) -> (u8, Option<u8>) {
    let square = |s: Square| Some(s.index() + 1);
    let first = |s: &Squares| s.first().and_then(square);
    match p {
        Problem::SensorFault(s) => (1, first(s)),
        Problem::Unclear(s) => (2, first(s)),
        Problem::PlacementFailed(s) => (3, square(*s)),
        Problem::StrayPiece(_) => (5, None),
        Problem::Recalibrate(_) => (6, None),
        Problem::Mismatch => (7, None),
        Problem::BoardNotEmpty => (8, None),
        Problem::StorageEmpty => (9, None),
        Problem::Abandoned => (10, None),
        Problem::Motion(_) => (11, None),
        #[cfg(feature = "games")]
        Problem::UnknownGame(_) => (12, None),
        _ => (0, None),
    }
}

#[test]
fn every_problem_has_its_own_light_pattern_with_the_error_light() {
    let all = problems();
    for a in &all {
        assert_ne!(a.lights() & Light::Error.bit(), 0, "{a:?}");
        for b in &all {
            assert_eq!(a.lights() == b.lights(), kind(a) == kind(b), "{a:?} {b:?}");
        }
    }
}

/// The lights named in a cell of the README's table ("Error + Win + Loss").
fn parse_lights(cell: &str) -> Option<u8> {
    let mut mask = 0;
    for name in cell.split('+').map(str::trim) {
        let name = name.trim_matches('`');
        let l = Light::ALL.iter().find(|l| format!("{l:?}") == name)?;
        mask |= l.bit();
    }
    Some(mask)
}

#[test]
fn the_readme_table_matches_the_lights_of_every_problem() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../firmware/README.md"
    ))
    .unwrap();
    let start = readme
        .find("### Error light patterns")
        .expect("the table's section");
    let rows: Vec<u8> = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .filter_map(|l| parse_lights(l.split('|').nth(1)?))
        .collect();
    assert!(rows.len() >= 10, "{rows:?}");
    // The unknown saved game's row (Error + Lamp + Win) is the `games` build's.
    #[cfg(not(feature = "games"))]
    let rows: Vec<u8> = rows
        .into_iter()
        .filter(|&r| r != Light::Error.bit() | Light::Lamp.bit() | Light::Win.bit())
        .collect();
    // Each row's pattern is a problem's (square 5 for the rows with a square,
    // where the README writes the square 5 example: Lamp + Draw)...
    let five = Square::CENTRE;
    let all = problems();
    for r in &rows {
        assert!(all.iter().any(|p| p.lights() == *r), "README row {r:#09b}");
    }
    // ...and every kind of problem has its row (on square 5 where it has one).
    for p in all.iter().filter(|p| {
        let (_, s) = kind(p);
        s.is_none() || s == Some(five.index() + 1)
    }) {
        assert!(rows.contains(&p.lights()), "no README row for {p:?}");
    }
}

/// A person who messes the board up beyond repair gives the game up: sweeps
/// the board and holds Start. The runner sees the machine clear its record and
/// go back to Setup, counts the game as abandoned by a person (no violation,
/// its faults recovered from), and the next game plays on the same machine.
#[test]
fn a_person_who_sweeps_the_board_and_holds_start_abandons_the_game() {
    use tictable_machine::sim::batch::Summary;
    use tictable_machine::sim::faults::{FaultKind, FaultSet};
    use tictable_machine::sim::scenario::{Burst, Scenario, CERTAIN};
    let (mut m, _) = machine(41);
    let mut h = SimHuman::new(Style::Perfect, 0.0, 41);
    h.sweep_share = 1.0;
    // The person's first turn: the board swept instead of a move.
    let sweep = Scenario {
        faults: FaultSet::EMPTY.with(FaultKind::HumanExtra),
        fault_rate: CERTAIN,
        burst: Some(Burst {
            after_ms: 0,
            limit: 1,
        }),
        seed: Some(41),
        ..Scenario::game(true, Some(4), Style::Perfect)
    };
    let r = m.play_scenario(&sweep, &mut h, &mut || BestMove, None);
    assert!(r.given_up && !r.finished && !r.abandoned, "{r}");
    assert_eq!((r.pieces_lost, h.sweeps), (0, 1));
    assert_eq!(m.controller.state(), State::Setup);
    assert_eq!(m.controller.stats().abandons, 1);
    let mut s = Summary::default();
    s.add_game(&r);
    assert_eq!(
        (s.abandoned_games, s.stuck_games, s.unresumed_games),
        (1, 0, 0)
    );
    assert_eq!(s.check(sweep.faults, 0), Ok(()));
    // The next game, on the same machine.
    h.sweep_share = 0.0;
    let next = Scenario::game(false, None, Style::Perfect);
    let r = m.play_scenario(&next, &mut h, &mut || BestMove, None);
    assert!(r.finished && r.recovered(), "{r}");
}

/// A sensor that sticks while the machine waits for the abandoned game's board
/// to be cleared shows its own fault in place of the abandon's lights; once it
/// is replugged and the board is empty, the machine goes back to Setup. It must
/// not start a turn of a game nobody started (the device, first, would place).
#[test]
fn a_sensor_fault_after_an_abandon_ends_in_setup_not_in_a_new_turn() {
    let (mut m, mut h) = machine(43);
    game_under_way(&mut m, &mut h);
    m.world.borrow_mut().reset_pieces();
    hold_start(&mut m, &mut h, ABANDON_HOLD_MS + 100);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    m.world.borrow_mut().sensors[2].frozen = true;
    let fault = State::Error(Problem::SensorFault(Squares::from_bits(1 << 2)));
    assert!(m.run_until(&mut h, 5_000, |m| m.controller.state() == fault));
    m.world.borrow_mut().replug(Square::ALL[2]);
    let mut placed = false;
    let setup = m.run_until(&mut h, 10_000, |m| {
        placed |= matches!(m.controller.state(), State::Placing { .. });
        m.controller.state() == State::Setup
    });
    assert!(setup && !placed, "{:?}", m.controller.state());
}
