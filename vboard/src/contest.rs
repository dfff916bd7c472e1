//! The contest items on the image, entered by a person through the panel's buttons
//! as `firmware/README.md` ("The contest items in use", "Calibration") tells one to:
//! item 1 (a black piece on square 5), item 2 (two black and two white pieces on
//! set squares), item 3 (item 2 on the board turned by +45° and by -45°, after the
//! pose calibration by jogging the head onto squares 1 and 9), item 4 (the device
//! first on a set square), item 5 (the person first) and item 6 (a person moving
//! the device's pieces, each put back).
//!
//! The games are the host runner's data ([`Scenario`]: who moves first, the first
//! square, how the person plays) played by the simulator's person (`SimHuman`); the
//! tasks are [`Task`]s (the controller's own checks), the turned boards the host
//! simulator's poses (`SimConfig::standard`). Each task placement must lie inside
//! its square (the world's piece positions, within `ON_SQUARE_MM` of its centre,
//! the piece let go) within [`PLACEMENT_LIMIT_MS`] of the previous one (of Start
//! for the first).

use crate::session::{GameResult, GameSpec, RunError, Session, READY_LIMIT_MS};
use tictable::Square;
use tictable_machine::controller::{Task, CALIBRATE_HOLD_MS, JOG_UM};
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::human::Style;
use tictable_machine::sim::scenario::{Scenario, PLACEMENT_LIMIT_MS};
use tictable_machine::sim::world::{SimConfig, ON_SQUARE_MM};
use tictable_machine::Colour;

/// Items 4, 5 and 6 as the host runner's data: the device first on square 5
/// against an erring person (a reply that gives a forced win is punished), the
/// person first, playing at random; and the person first moving one of the
/// device's pieces at every turn they can (the device must put each back).
pub const GAMES: [(&str, Scenario); 3] = [
    ("item 4", Scenario::game(true, Some(4), Style::Erring(0.3))),
    ("item 5", Scenario::game(false, None, Style::Random)),
    (
        "item 6",
        Scenario {
            cheat_rate: 1.0,
            ..Scenario::game(false, None, Style::Random)
        },
    ),
];

/// Item 1: one black piece on square 5 (index 4).
pub const ITEM_1: [(Colour, u8); 1] = [(Colour::Black, 4)];

/// Item 2 (and 3): black 1, white 9, black 7, white 3 (`firmware/README.md`'s
/// example), as square indices.
pub const ITEM_2: [(Colour, u8); 4] = [
    (Colour::Black, 0),
    (Colour::White, 8),
    (Colour::Black, 6),
    (Colour::White, 2),
];

/// The board's turns of item 3, degrees.
pub const TURNS: [f32; 2] = [45.0, -45.0];

/// What the contest items gave.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Items passed, items played (item 3 counts once per turn).
    pub items: (u32, u32),
    /// Task placements inside their square in time, task placements.
    pub placements: (u32, u32),
    /// Task placement times (the previous placement or Start to the piece lying
    /// inside its square), ms.
    pub placement_ms: Vec<u32>,
    /// The games of items 4, 5 and 6.
    pub games: Vec<GameResult>,
    /// Rule violations, in words.
    pub violations: Vec<String>,
}

/// The lights that show a square in binary (Lamp = 1 ... Loss = 8).
const SQUARE_LIGHTS: [Light; 4] = [Light::Lamp, Light::Win, Light::Draw, Light::Loss];

/// The square number (1..=9, 0 = none) the lights show.
fn shown_square(l: &[bool; 7]) -> u8 {
    SQUARE_LIGHTS
        .iter()
        .enumerate()
        .filter(|(_, x)| l[x.index()])
        .map(|(bit, _)| 1 << bit)
        .sum()
}

/// A task from `(colour, square index)` pairs, through the controller's checks.
fn task(items: &[(Colour, u8)]) -> Result<Task, RunError> {
    let pairs: Vec<(Colour, Square)> = items
        .iter()
        .filter_map(|&(c, i)| Square::new(i).map(|s| (c, s)))
        .collect();
    Task::new(&pairs).map_err(|e| RunError::Stuck(format!("task refused on the host: {e}")))
}

/// Presses `b` as the person does (80..150 ms, bouncing) and lets the firmware
/// take it.
fn press(s: &mut Session, b: Button) -> Result<(), RunError> {
    let now = s.ms;
    s.human.press(b, now);
    s.run_until(2_000, |s| !s.human.pressing())?;
    s.run_for(80)
}

/// Runs until no STEP edge came for `quiet_ms` (the head rests); at most 20 s.
fn settle(s: &mut Session, quiet_ms: u32) -> Result<(), RunError> {
    let mut last = (u64::MAX, s.ms);
    let ok = s.run_until(20_000, |s| {
        let e = s.edges();
        if e != last.0 {
            last = (e, s.ms);
        }
        s.ms >= last.1 + quiet_ms
    })?;
    if ok {
        Ok(())
    } else {
        Err(RunError::Stuck("the head never came to rest".into()))
    }
}

/// Plays the contest items into `o`: 4, 5 and 6, 1, 2, then 3 on the board turned
/// each way. After an item fails the rest are not played (the machine waits for
/// a person); what was played stays in `o` when the run stops with an error.
pub fn play(s: &mut Session, o: &mut Outcome) -> Result<(), RunError> {
    for (name, sc) in GAMES {
        o.items.1 += 1;
        let before = o.violations.len();
        game(s, name, &sc, o)?;
        if o.violations.len() > before {
            return Ok(());
        }
        o.items.0 += 1;
    }
    for (name, items) in [("item 1", &ITEM_1[..]), ("item 2", &ITEM_2[..])] {
        o.items.1 += 1;
        let before = o.violations.len();
        run_task(s, name, items, o)?;
        if o.violations.len() > before {
            return Ok(());
        }
        o.items.0 += 1;
    }
    for turn in TURNS {
        o.items.1 += 1;
        let before = o.violations.len();
        let name = if turn > 0.0 {
            "item 3 (+45°)"
        } else {
            "item 3 (-45°)"
        };
        calibrate_pose(s, name, turn, o)?;
        if o.violations.len() == before {
            run_task(s, name, &ITEM_2, o)?;
        }
        if o.violations.len() > before {
            return Ok(());
        }
        o.items.0 += 1;
    }
    Ok(())
}

/// Back to the setup lights after a game or task (a result or the Lamp alone):
/// Level, which the default build has no other use for in setup.
fn to_setup(s: &mut Session) -> Result<(), RunError> {
    s.wait_ready(READY_LIMIT_MS)?;
    let l = s.lights();
    if [Light::Win, Light::Draw, Light::Loss, Light::Lamp]
        .iter()
        .any(|x| l[x.index()])
        && !l[Light::DeviceTurn.index()]
        && !l[Light::HumanTurn.index()]
    {
        press(s, Button::Level)?;
    }
    Ok(())
}

/// Items 4, 5 and 6: the operator selects the scenario's setup with Side and First
/// square, the person plays it (`Session::play`).
fn game(s: &mut Session, name: &str, sc: &Scenario, o: &mut Outcome) -> Result<(), RunError> {
    to_setup(s)?;
    let setup = sc.setup();
    let want = setup.first_square.map_or(0, |q| q.index() + 1);
    for _ in 0..3 {
        let l = s.lights();
        let device_first = l[Light::DeviceTurn.index()] && !l[Light::HumanTurn.index()];
        if device_first == setup.device_first {
            break;
        }
        press(s, Button::Side)?;
    }
    for _ in 0..11 {
        if shown_square(&s.lights()) == want {
            break;
        }
        press(s, Button::FirstSquare)?;
    }
    let l = s.lights();
    let device_first = l[Light::DeviceTurn.index()] && !l[Light::HumanTurn.index()];
    if device_first != setup.device_first || shown_square(&l) != want {
        o.violations.push(format!(
            "{name}: the setup lights {:?} do not show {sc}",
            crate::session::lit(&l)
        ));
        return Ok(());
    }
    s.log.push(format!("{:8} ms {name}: {sc}", s.ms));
    let spec = GameSpec {
        cheat_rate: sc.cheat_rate,
        ..GameSpec::plain(sc.style)
    };
    let g = s.play(&spec)?;
    for v in g.violations() {
        o.violations.push(format!("{name}: {v}"));
    }
    if let Some(q) = setup.first_square {
        let black = s.human.memory().x();
        if black & (1 << q.index()) == 0 {
            o.violations.push(format!(
                "{name}: no device piece on square {}",
                q.index() + 1
            ));
        }
    }
    for &ms in &g.placements_ms {
        if ms > PLACEMENT_LIMIT_MS {
            o.violations.push(format!(
                "{name}: a placement took {ms} ms (limit {PLACEMENT_LIMIT_MS})"
            ));
        }
    }
    if sc.cheat_rate > 0.0 && g.cheats == 0 {
        o.violations
            .push(format!("{name}: the person never moved a device piece"));
    }
    o.games.push(g);
    Ok(())
}

/// Enters `items` with the buttons (Done; Side and First square, Done for each;
/// Start) on an empty board and checks each placement on the world.
fn run_task(
    s: &mut Session,
    name: &str,
    items: &[(Colour, u8)],
    o: &mut Outcome,
) -> Result<(), RunError> {
    let t = task(items)?;
    to_setup(s)?;
    s.world().reset_pieces();
    press(s, Button::Done)?;
    let mut colour = Colour::Black;
    for &(c, sq) in t.items() {
        if c != colour {
            press(s, Button::Side)?;
            colour = c;
        }
        for _ in 0..=sq.index() {
            press(s, Button::FirstSquare)?;
        }
        let l = s.lights();
        if shown_square(&l) != sq.index() + 1 || l[Light::Error.index()] {
            o.violations.push(format!(
                "{name}: task entry shows {:?}, not square {}",
                crate::session::lit(&l),
                sq.index() + 1
            ));
            press(s, Button::Level)?;
            return Ok(());
        }
        press(s, Button::Done)?;
    }
    let start = s.ms;
    press(s, Button::Start)?;
    s.log.push(format!(
        "{start:8} ms {name}: task of {} entered, Start pressed",
        t.items().len()
    ));
    let mut from = start;
    let (mut want_x, mut want_o) = (0u16, 0u16);
    for (k, &(c, sq)) in t.items().iter().enumerate() {
        let bit = 1u16 << sq.index();
        match c {
            Colour::Black => want_x |= bit,
            Colour::White => want_o |= bit,
        }
        o.placements.1 += 1;
        let lies = |s: &mut Session| {
            s.world()
                .board_within(ON_SQUARE_MM)
                .is_some_and(|(x, w)| x == want_x && w == want_o)
        };
        if s.run_until(PLACEMENT_LIMIT_MS + from - s.ms, lies)? {
            o.placements.0 += 1;
            o.placement_ms.push(s.ms - from);
            from = s.ms;
        } else {
            o.violations.push(format!(
                "{name}: placement {} ({c:?} on square {}) not inside its square within {PLACEMENT_LIMIT_MS} ms; lights {:?}",
                k + 1,
                sq.index() + 1,
                crate::session::lit(&s.lights())
            ));
            return Ok(());
        }
    }
    // The task over: the Lamp alone, the board as the task.
    let over = |s: &mut Session| {
        let l = s.lights();
        l[Light::Lamp.index()] && !l[Light::Error.index()] && !l[Light::DeviceTurn.index()]
    };
    if !s.run_until(PLACEMENT_LIMIT_MS, over)? {
        o.violations.push(format!(
            "{name}: no Lamp after the last placement; lights {:?}",
            crate::session::lit(&s.lights())
        ));
    }
    settle(s, 300)?;
    let lying = s.world().board_within(ON_SQUARE_MM);
    if lying != Some((want_x, want_o)) {
        o.violations.push(format!(
            "{name}: the board at the end is {lying:?}, not the task"
        ));
    }
    s.log.push(format!("{:8} ms {name}: task done", s.ms));
    Ok(())
}

/// Turns the board by `deg` about its centre (the host simulator's pose for that
/// turn) and calibrates the pose as a person does: Done held 2 s, the head jogged
/// onto square 1's centre (First square +1 mm, Side -1 mm, Start switches the
/// axis), Done, onto square 9's, Done.
fn calibrate_pose(s: &mut Session, name: &str, deg: f32, o: &mut Outcome) -> Result<(), RunError> {
    to_setup(s)?;
    let seed = s.world().config.seed;
    let pose = SimConfig::standard(deg, 0.0, seed)
        .map_err(|e| RunError::Fault(format!("{e:?}")))?
        .pose;
    s.world().reset_pieces();
    s.world().config.pose = pose;
    let now = s.ms;
    s.human.hold(Button::Done, now, CALIBRATE_HOLD_MS + 300);
    s.run_until(CALIBRATE_HOLD_MS + 2_000, |s| !s.human.pressing())?;
    s.log
        .push(format!("{:8} ms {name}: board turned, Done held", s.ms));
    for (k, sq) in [0u8, 8].into_iter().enumerate() {
        let aim = if k == 0 { 1 } else { 9 };
        let shown = |s: &mut Session| shown_square(&s.lights()) == aim;
        if !s.run_until(5_000, shown)? {
            o.violations.push(format!(
                "{name}: the pose calibration does not aim at square {aim}; lights {:?}",
                crate::session::lit(&s.lights())
            ));
            return Ok(());
        }
        settle(s, 300)?;
        let target = pose.square_centre(Square::new(sq).unwrap_or(Square::ALL[0]));
        for y_axis in [false, true] {
            let axis_light = if y_axis {
                Light::HumanTurn
            } else {
                Light::DeviceTurn
            };
            if !s.lights()[axis_light.index()] {
                press(s, Button::Start)?;
            }
            let coord = |s: &mut Session| {
                let h = s.world().head_um();
                if y_axis {
                    h.y
                } else {
                    h.x
                }
            };
            let target = if y_axis { target.y } else { target.x };
            for _ in 0..200 {
                let d = target - coord(s);
                if d.abs() <= JOG_UM / 2 {
                    break;
                }
                press(
                    s,
                    if d > 0 {
                        Button::FirstSquare
                    } else {
                        Button::Side
                    },
                )?;
                settle(s, 60)?;
            }
        }
        press(s, Button::Done)?;
        settle(s, 300)?;
    }
    if s.wait_ready(READY_LIMIT_MS).is_err() || s.lights()[Light::Error.index()] {
        o.violations.push(format!(
            "{name}: the pose was not taken; lights {:?}",
            crate::session::lit(&s.lights())
        ));
    }
    s.log.push(format!("{:8} ms {name}: pose calibrated", s.ms));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_items_are_tasks_the_controller_takes_and_the_games_their_setups() {
        assert_eq!(task(&ITEM_1).map(|t| t.items().len()), Ok(1));
        assert_eq!(task(&ITEM_2).map(|t| t.items().len()), Ok(4));
        let s = GAMES[0].1.setup();
        assert!(s.device_first);
        assert_eq!(s.first_square.map(|q| q.index()), Some(4));
        assert!(!GAMES[1].1.setup().device_first);
    }

    #[test]
    fn the_square_lights_read_in_binary() {
        let mut l = [false; 7];
        assert_eq!(shown_square(&l), 0);
        l[Light::Lamp.index()] = true;
        l[Light::Draw.index()] = true;
        assert_eq!(shown_square(&l), 5);
        l[Light::Draw.index()] = false;
        l[Light::Loss.index()] = true;
        assert_eq!(shown_square(&l), 9);
    }
}
