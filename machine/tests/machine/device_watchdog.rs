//! The firmware's independent watchdog, as the simulator models it: each pass of
//! the loop (the controller's poll and a snapshot save) spends bus time (bytes at
//! 100 kHz, 1 ms per flag that never comes, the bus recovery's clocks) and flash
//! time (a page erase up to 40 ms, 70 µs a half-word); a pass longer than the
//! watchdog's timeout resets the microcontroller, and the game resumes from flash.
#![cfg(feature = "sim")]

use tictable_machine::controller::BestMove;
use tictable_machine::sim::batch::{Summary, Violation};
use tictable_machine::sim::faults::{FaultKind, FaultSet};
use tictable_machine::sim::human::Style;
use tictable_machine::sim::run::{ERASE_US, WATCHDOG_MS};
use tictable_machine::sim::scenario::Scenario;

use crate::common;
use common::machine::machine;

/// A game with bus errors: every pass well within the watchdog's 1 s, no reset.
#[test]
fn no_pass_of_the_loop_comes_near_the_watchdog() {
    let (mut m, _) = machine(7);
    let mut h = tictable_machine::sim::human::SimHuman::new(Style::Perfect, 0.0, 7);
    let game = Scenario {
        faults: FaultSet::EMPTY
            .with(FaultKind::I2c)
            .with(FaultKind::BusHang),
        fault_rate: 0.3,
        ..Scenario::game(true, None, Style::Perfect)
    };
    let r = m.play_scenario(&game, &mut h, &mut || BestMove, None);
    assert!(r.finished && r.watchdog_resets == 0, "{r}");
    // A page erase is the longest thing a pass does: far below the timeout.
    assert!(m.longest_pass_us >= ERASE_US, "{}", m.longest_pass_us);
    assert!(m.longest_pass_us < u64::from(WATCHDOG_MS) * 1000 / 10);
}

/// The same machine with a watchdog shorter than a flash erase (as a loop that
/// did too much in one pass would be): the pass that erases a page resets the
/// microcontroller, the game resumes from flash and still ends right, and the
/// run's contract fails on the resets.
#[test]
fn a_pass_longer_than_the_watchdog_resets_and_the_game_resumes_from_flash() {
    let (mut m, _) = machine(7);
    m.watchdog_ms = 30;
    let mut h = tictable_machine::sim::human::SimHuman::new(Style::Perfect, 0.0, 7);
    let r = m.play_scenario(
        &Scenario::game(true, None, Style::Perfect),
        &mut h,
        &mut || BestMove,
        None,
    );
    assert!(r.watchdog_resets > 0, "{r}");
    assert!(r.finished && r.recovered(), "{r}");
    let mut s = Summary::default();
    s.add_game(&r);
    assert_eq!(
        s.check(FaultSet::EMPTY, 0),
        Err(Violation::Watchdog(r.watchdog_resets))
    );
}
