//! The machine panel: the real controller (`tictable-machine`, the firmware's logic) against
//! the simulator's world, the visitor in the person's place (a passive
//! [`SimHuman`]: the page moves the pieces and presses the buttons), in any of
//! the six games the machine plays ([`PanelChooser`]; Level chooses the game).

use crate::advice::{advice, Act, Advice, Context, YourMove};
use crate::hands::{self, ASIDE};
use crate::panel_chooser::PanelChooser;
use crate::{answer, lamps};
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::rc::Rc;
use tictable::strategy::Strategy;
use tictable::{Square, Squares};
use tictable_machine::classify::Sensed;
use tictable_machine::controller::{
    Move, MoveChooser, Position, Rules, State, CONFIRM_GAME_LIGHTS,
};
use tictable_machine::model::{capture_slot, ResetCause, CAPTURE_SLOTS};
use tictable_machine::motion::Point;
use tictable_machine::panel::Button;
use tictable_machine::panel::Light;
use tictable_machine::sim::faults::{FaultKind, FaultSet};
use tictable_machine::sim::human::{SimHuman, ABANDON_PRESS_MS};
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::world::{SimConfig, World, BUMP_MM};
use tictable_machine::Colour;

type Machine = SimMachine<PanelChooser, Rc<RefCell<World>>>;

thread_local! {
    static MACHINE: RefCell<Option<(Machine, SimHuman)>> = const { RefCell::new(None) };
    /// When the machine was last switched on (its time, ms): the page shows the
    /// real board's boot signal from then (`firmware/README.md`, "Lights at boot").
    static SWITCHED_ON: Cell<u32> = const { Cell::new(0) };
}

/// Error-light blinks at a power-on: the reset cause's code.
const POWER_ON_BLINKS: u8 = ResetCause::PowerOn as u8;

/// Runs `f` on the machine; `None` when none was built.
fn with<T>(f: impl FnOnce(&mut Machine, &mut SimHuman) -> T) -> Option<T> {
    MACHINE.with(|m| m.borrow_mut().as_mut().map(|(m, h)| f(m, h)))
}

/// Builds a machine: the board turned by `angle_deg` (-45..=45), the device
/// playing tic-tac-toe at `level` (0 random .. 4 trap, as [`crate::choose`]; the
/// other games perfect), randomness from `seed`; the sensors are calibrated. 0
/// when built; otherwise 1 and the reason as text in the output buffer.
#[no_mangle]
pub extern "C" fn machine_new(seed: u32, angle_deg: i32, level: u32) -> i32 {
    let built = (|| {
        let config = SimConfig::standard(angle_deg as f32, 0.0, u64::from(seed))
            .map_err(|e| format!("board: {e}"))?;
        let strategy = crate::strategy(level, 0).ok_or("unknown level")?;
        let chooser = PanelChooser::new(strategy, u64::from(seed))
            .ok_or("a game's best-move table does not read back")?;
        let world = Rc::new(RefCell::new(World::new(config)));
        let machine = SimMachine::with_world(world, chooser).map_err(|e| e.to_string())?;
        machine
            .world
            .borrow_mut()
            .config
            .set_faults(FaultSet::EMPTY, 0.0);
        Ok::<_, String>((machine, SimHuman::passive(u64::from(seed) ^ 0xFACE)))
    })();
    match built {
        Ok(m) => {
            SWITCHED_ON.set(m.0.now);
            MACHINE.with(|slot| *slot.borrow_mut() = Some(m));
            0
        }
        Err(e) => {
            answer(e);
            1
        }
    }
}

/// Runs the machine for `ms` milliseconds of its time (one tick each); returns
/// how many state changes happened meanwhile (-1: no machine).
#[no_mangle]
pub extern "C" fn machine_run(ms: u32) -> i32 {
    with(|m, h| {
        let mut changes = 0;
        for _ in 0..ms {
            let before = m.controller.state();
            m.tick(h);
            changes += i32::from(m.controller.state() != before);
        }
        changes
    })
    .unwrap_or(-1)
}

/// The visitor's colour: the one the device does not play (in hexapawn the
/// device plays White when it moves first).
fn visitor(m: &Machine) -> Colour {
    m.controller.setup().colour_in(m.controller.rules()).other()
}

/// What the board should show now as the controller sees it (the game record,
/// hexapawn's set-up so far, the placement under way): the colour on each square.
fn expected(m: &Machine) -> [Option<Colour>; 9] {
    let v = m.controller.expected_view();
    Square::ALL.map(|s| match v.get(s) {
        Sensed::Piece(c) => Some(c),
        _ => None,
    })
}

/// The visitor's squares at the game's start (hexapawn's home row; empty in
/// the others).
fn home(m: &Machine) -> Squares {
    let start = m.controller.record().game().start();
    let theirs = if m.controller.setup().device_first {
        start.o
    } else {
        start.x
    };
    Squares::from_bits(theirs)
}

/// The panel's lights as a mask (bit i: `Light::ALL[i]`).
fn lights(m: &Machine) -> u8 {
    let w = m.world.borrow();
    Light::ALL
        .iter()
        .filter(|l| w.lights[l.index()])
        .fold(0, |b, l| b | l.bit())
}

/// Level pressed in the person's turn: every light asks to confirm the end of
/// the game.
fn confirming(m: &Machine) -> bool {
    m.controller.state() == State::HumanTurn && lights(m) == CONFIRM_GAME_LIGHTS
}

/// What the visitor's move is now: hexapawn's set-up (both turn lights in
/// their turn), else the kind of the game's legal moves (a placement, a slide,
/// a pawn's step or capture).
fn your_move(m: &Machine) -> YourMove {
    let c = &m.controller;
    let turns = Light::DeviceTurn.bit() | Light::HumanTurn.bit();
    if c.state() == State::HumanTurn && lights(m) & turns == turns && !confirming(m) {
        return YourMove::SetUp;
    }
    let rules = c.record().game();
    match rules.children(&c.record().position()).iter().next() {
        Some((Move::Slide { .. }, _)) => YourMove::Slide,
        Some((Move::Pawn { .. }, _)) => YourMove::Pawn,
        _ => YourMove::Place,
    }
}

/// The visitor puts a piece of their colour from storage on `square` (0..=8).
/// 0 done; 1 no machine; 2 no such square or it is taken, or no piece left.
#[no_mangle]
pub extern "C" fn machine_place(square: u32) -> i32 {
    with(|m, h| {
        let Some(s) = u8::try_from(square).ok().and_then(Square::new) else {
            return 2;
        };
        act(m, h, Act::Place(visitor(m), Some(s)))
    })
    .unwrap_or(1)
}

/// The visitor moves the piece on `from` to `to`: a slide or a pawn's step to an
/// empty square, a capture when `to` holds a piece of the other colour (taken
/// off the board first, into a free storage slot of its colour, as a person
/// sets a captured piece aside), or a cheat when it is one of the device's
/// pieces. Legal or not is the machine's to judge. 0 done; 1 no machine; 2 no
/// piece on `from`, or `to` holds one of the same colour.
#[no_mangle]
pub extern "C" fn machine_move(from: u32, to: u32) -> i32 {
    with(|m, _| {
        let square = |i: u32| u8::try_from(i).ok().and_then(Square::new);
        let (Some(from), Some(to)) = (square(from), square(to)) else {
            return 2;
        };
        let mut w = m.world.borrow_mut();
        let Some(i) = w.piece_seen_on(from) else {
            return 2;
        };
        if let Some(taken) = w.piece_seen_on(to) {
            if w.pieces[taken].colour == w.pieces[i].colour {
                return 2;
            }
            let aside = w.free_slot(w.pieces[taken].colour).unwrap_or(ASIDE);
            w.hand_move(taken, aside, 0.0);
        }
        let at = w.config.pose.square_centre(to);
        w.hand_move(i, at, 1.0);
        0
    })
    .unwrap_or(1)
}

/// Chooses the game numbered `code` (1 tic-tac-toe, 2 misère, 3 three men's
/// morris, 4 tapatan, 5 achi, 6 hexapawn) as a person does: Level pressed (and
/// the machine run ~0.3 s after each press) until the lights show that game
/// (after a game or task the first press brings the setup back). 0 done; 1 no
/// machine; 2 no such game, or the machine is neither in Setup nor after a game.
#[no_mangle]
pub extern "C" fn machine_game(code: u32) -> i32 {
    let Some(target) = u8::try_from(code).ok().and_then(Rules::from_code) else {
        return 2;
    };
    with(|m, h| {
        // The first press shows the game, each further one the next: at most two
        // presses more than there are games.
        for _ in 0..Rules::ALL.len() + 2 {
            let state = m.controller.state();
            if !matches!(state, State::Setup | State::Over(_) | State::TaskDone) {
                return 2;
            }
            let lights = m.world.borrow().lights;
            let shown = lights[Light::DeviceTurn.index()] && lights[Light::HumanTurn.index()];
            if state == State::Setup && shown && m.controller.rules() == target {
                return 0;
            }
            h.press(Button::Level, m.now);
            for _ in 0..300 {
                m.tick(h);
            }
        }
        2
    })
    .unwrap_or(1)
}

/// The advice for the machine as it is now.
fn advice_now(m: &Machine) -> Advice {
    let w = m.world.borrow();
    let cx = Context {
        visitor: visitor(m),
        your_move: your_move(m),
        home: home(m),
        confirming: confirming(m),
        faults_on: !w.config.faults.is_empty() && w.config.fault_rate > 0.0,
        board_used: (0..w.pieces.len()).any(|i| w.on_board_area(w.piece_at(i))),
        device_stocked: w.stored_piece(visitor(m).other()).is_some(),
    };
    advice(m.controller.state(), cx)
}

/// Does `a` at the machine (see [`machine_do`]).
fn act(m: &mut Machine, h: &mut SimHuman, a: Act) -> i32 {
    let done = |ok: bool| if ok { 0 } else { 2 };
    let expected = expected(m);
    let pending = m.controller.snapshot().pending;
    let (rules, setup, home) = (m.controller.record().game(), m.controller.setup(), home(m));
    let mut w = m.world.borrow_mut();
    match a {
        Act::Wait => 0,
        Act::Press(b) => {
            h.press(b, m.now);
            0
        }
        Act::HoldStart => {
            h.hold(Button::Start, m.now, ABANDON_PRESS_MS);
            0
        }
        Act::Place(c, Some(s)) => done(hands::place(&mut w, c, s)),
        Act::Place(_, None) => 2,
        Act::Remove(s) => done(hands::remove(&mut w, s)),
        Act::RemoveStrays => {
            // Where the game has a piece, and the placement under way's square.
            let target = |s: Square| match (expected[usize::from(s.index())], pending) {
                (Some(c), _) => Some(c),
                (None, Some((c, _, t))) if t == s => Some(c),
                _ => None,
            };
            hands::tidy(&mut w, target);
            0
        }
        Act::Centre(s) => done(hands::centre(&mut w, s)),
        Act::Replug(s) => {
            w.replug(s);
            0
        }
        Act::PushBack => {
            w.push_board_back();
            0
        }
        Act::Refill => {
            hands::refill(&mut w);
            0
        }
        Act::ClearBoard => {
            w.reset_pieces();
            0
        }
        Act::AsRecorded => done(hands::as_board(&mut w, |s| {
            expected[usize::from(s.index())]
        })),
        Act::SetUp => {
            // The visitor's pawns on their home squares of the game's start.
            let colour = setup.colour_in(rules).other();
            let mut ok = true;
            for s in home {
                if w.piece_seen_on(s).is_none() {
                    ok &= hands::place(&mut w, colour, s);
                }
            }
            done(ok)
        }
        Act::FaultsOff => {
            w.config.set_faults(FaultSet::EMPTY, 0.0);
            0
        }
        Act::FreeMechanism => {
            // The slip rate back to what the fault boxes ask (see trouble 5).
            let (faults, rate) = (w.config.faults, w.config.fault_rate);
            w.config.set_faults(faults, rate);
            0
        }
    }
}

/// Presses button `index` (0 Done, 1 Side, 2 FirstSquare, 3 Start, 4 Level) the
/// way a finger does (held about 0.1 s, bouncing). 0 done; 1 no machine or no
/// such button.
#[no_mangle]
pub extern "C" fn machine_press(index: u32) -> i32 {
    let Some(&button) = Button::ALL.get(index as usize) else {
        return 1;
    };
    with(|m, h| {
        h.press(button, m.now);
        0
    })
    .unwrap_or(1)
}

/// Does what a person does: act `code` with `arg` (a square 0..=8 or a button
/// index, see [`Act::code`]); the page's "What to do" buttons and its hands.
/// 0 done; 1 no machine; 2 no such act, or it cannot be done now (no piece
/// there, the square taken, no piece left in storage).
#[no_mangle]
pub extern "C" fn machine_do(code: u32, arg: u32) -> i32 {
    let Some(a) = Act::from_code(code, arg) else {
        return 2;
    };
    with(|m, h| act(m, h, a)).unwrap_or(1)
}

/// Fixes by hand what the machine asks for now: every step of its advice but
/// waiting and abandoning (a press last). 0 done; 1 no machine; 2 some step
/// could not be done.
#[no_mangle]
pub extern "C" fn machine_fix() -> i32 {
    with(|m, h| {
        let steps = advice_now(m).steps;
        let mut result = 0;
        for step in steps {
            if !matches!(step, Act::Wait | Act::HoldStart | Act::Place(_, None)) {
                result = result.max(act(m, h, step));
            }
        }
        result
    })
    .unwrap_or(1)
}

/// Something a visitor does to the machine to see it cope (`kind`, on square
/// `square` 0..=8 where it takes one): 0 pushes the piece on the square 9 mm
/// off its centre; 1 freezes the sensor of the square (its ADC stops, as a
/// stuck chip's); 2 bumps the board 8 mm; 3 knocks the piece the magnet
/// carries off onto the square; 4 takes the machine's pieces out of storage
/// and sets them aside; 5 jams the mechanism (the simulator's lost steps at
/// every STEP pulse: the motors turn, the axes do not, so the next homing never
/// finds its switch). 0 done; 1 no machine; 2 not possible now (no piece
/// there, nothing carried, the square taken).
#[no_mangle]
pub extern "C" fn machine_trouble(kind: u32, square: u32) -> i32 {
    let s = u8::try_from(square).ok().and_then(Square::new);
    with(|m, _| {
        let device = m.controller.setup().device_colour();
        let mut w = m.world.borrow_mut();
        match (kind, s) {
            (0, Some(s)) => {
                let Some(i) = w.piece_seen_on(s) else {
                    return 2;
                };
                let c = w.config.pose.square_centre(s);
                w.pieces[i].at = Point::new(c.x + 9_000, c.y);
            }
            (1, Some(s)) => w.sensors[usize::from(s.index())].frozen = true,
            (2, _) => w.bump(BUMP_MM, 0.0),
            (3, Some(s)) => {
                let Some(i) = w.head.held else {
                    return 2;
                };
                if w.piece_seen_on(s).is_some() {
                    return 2;
                }
                w.head.held = None;
                w.head.drop_in = None;
                w.pieces[i].at = w.config.pose.square_centre(s);
            }
            (4, _) => {
                while let Some(i) = w.stored_piece(device) {
                    w.pieces[i].at = ASIDE;
                }
            }
            (5, _) => w.config.lost_step_rate = 1.0,
            _ => return 2,
        }
        0
    })
    .unwrap_or(1)
}

/// Injects the fault kinds of `mask` (bit i: the simulator's i-th kind, see
/// [`FaultKind::ALL`]) at `rate` / 10 000 each. Returns the number of kinds set.
#[no_mangle]
pub extern "C" fn machine_faults(mask: u32, rate: u32) -> i32 {
    let set = FaultKind::ALL
        .iter()
        .filter(|k| mask >> k.index() & 1 == 1)
        .fold(FaultSet::EMPTY, |set, &k| set.with(k));
    with(|m, _| {
        let rate = f64::from(rate.min(10_000)) / 10_000.0;
        m.world.borrow_mut().config.set_faults(set, rate);
        set.iter().count() as i32
    })
    .unwrap_or(-1)
}

/// The fault kinds the world injects by itself, as `bit:name` pairs, comma
/// separated (`human-extra` and `power-cut` are played by the person and by
/// [`machine_power_cut`], not drawn by the world).
#[no_mangle]
pub extern "C" fn machine_fault_names() -> usize {
    let names: Vec<String> = FaultKind::ALL
        .iter()
        .filter(|k| !matches!(k, FaultKind::HumanExtra | FaultKind::PowerCut))
        .map(|k| format!("{}:{}", k.index(), k.name()))
        .collect();
    answer(names.join(","))
}

/// Cuts the power and switches it on again: the magnet drops what it holds, and
/// a fresh controller resumes from the snapshot in the simulated flash. 0 done;
/// 1 no machine; 2 it could not resume (the reason as text in the output buffer).
#[no_mangle]
pub extern "C" fn machine_power_cut() -> i32 {
    with(|m, _| {
        let Some(mut chooser) =
            PanelChooser::new(m.controller.chooser().strategy(), u64::from(m.now) ^ 0xC0DE)
        else {
            answer("a game's best-move table does not read back".into());
            return 2;
        };
        // The game as before the cut (the controller takes the saved one anyway).
        chooser.set_rules(m.controller.rules());
        SWITCHED_ON.set(m.now);
        match m.power_cycle(chooser) {
            Ok(()) => 0,
            Err(e) => {
                answer(e.to_string());
                2
            }
        }
    })
    .unwrap_or(1)
}

/// `text` escaped for a JSON string.
fn json_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A position as text: 9 cells `X` (the first mover's), `O` or `.`, square 1
/// first (in hexapawn X is White, as `tictable analyse --game hexapawn` has it).
fn cells(p: &Position) -> String {
    Square::ALL
        .iter()
        .map(|s| match (p.x & s.bit() != 0, p.o & s.bit() != 0) {
            (true, _) => 'X',
            (_, true) => 'O',
            _ => '.',
        })
        .collect()
}

/// Millimetres of a point, for the page.
fn mm(p: Point) -> String {
    format!(
        "[{:.2},{:.2}]",
        f64::from(p.x) / 1000.0,
        f64::from(p.y) / 1000.0
    )
}

/// What the page draws, as JSON in the output buffer (its length returned; 0
/// without a machine): the clock, the controller's state, the game (its id and
/// number) and its record's position (`record`: `X`/`O` cells, `to_move`;
/// `expect`: the colour each square should show, `B`/`W`), the visitor's move
/// kind (`place`, `slide`, `pawn`, `setup`), the head,
/// the pieces (colour 0 black / 1 white, x, y in mm), the square centres, each
/// sensor's latest clear count, the lights and buttons (bit masks), totals.
#[no_mangle]
pub extern "C" fn machine_view() -> usize {
    let view = with(|m, h| {
        let w = m.world.borrow();
        let c = &m.controller;
        let mut s = format!(
            "{{\"now\":{},\"state\":\"{:?}\",\"words\":\"{}\",\"device_first\":{},\"level\":\"{}\",\"game\":\"{}\",\"code\":{},\"record\":\"{}\",\"to_move\":\"{}\",\"expect\":\"{}\",\"your_move\":\"{}\"",
            m.now,
            c.state(),
            json_text(&c.state().to_string()),
            c.setup().device_first,
            Strategy::level(&c.chooser().strategy()),
            c.rules().id(),
            c.rules().code(),
            cells(&c.record().position()),
            c.record().position().to_move.char(),
            expected(m)
                .iter()
                .map(|e| match e {
                    Some(Colour::Black) => 'B',
                    Some(Colour::White) => 'W',
                    None => '.',
                })
                .collect::<String>(),
            your_move(m).id()
        );
        let _ = write!(
            s,
            ",\"head\":{},\"lowered\":{},\"magnet\":{},\"held\":{}",
            mm(w.head_um()),
            w.head.lowered,
            w.head.magnet,
            w.head.held.map_or(-1, |i| i as i32)
        );
        let pieces: Vec<String> = (0..w.pieces.len())
            .map(|i| {
                let p = w.piece_at(i);
                let colour = u8::from(w.pieces[i].colour == Colour::White);
                format!(
                    "[{colour},{:.2},{:.2}]",
                    f64::from(p.x) / 1e3,
                    f64::from(p.y) / 1e3
                )
            })
            .collect();
        let centres: Vec<String> = Square::ALL
            .iter()
            .map(|&q| mm(w.config.pose.square_centre(q)))
            .collect();
        let sensors: Vec<String> = w.sensors.iter().map(|t| t.adc[0].to_string()).collect();
        let bits = |levels: &[bool]| {
            levels
                .iter()
                .enumerate()
                .fold(0u32, |b, (i, &on)| b | u32::from(on) << i)
        };
        let seen: Vec<String> = Square::ALL
            .iter()
            .map(|&q| {
                w.piece_seen_on(q)
                    .map_or(0, |i| 1 + u8::from(w.pieces[i].colour == Colour::White))
                    .to_string()
            })
            .collect();
        let lights = bits(&w.lights) as u8;
        let faults_on = !w.config.faults.is_empty() && w.config.fault_rate > 0.0;
        let aside = (0..w.pieces.len())
            .filter(|&i| w.head.held != Some(i) && w.pieces[i].at.x < ASIDE.x / 2)
            .count();
        drop(w);
        let advice = advice_now(m);
        let steps: Vec<String> = advice
            .steps
            .iter()
            .map(|a| {
                let (code, arg) = a.code();
                format!("[{code},{arg},\"{}\"]", a.label())
            })
            .collect();
        let _ = write!(
            s,
            ",\"seen\":[{}],\"lights_say\":\"{}\",\"advice\":\"{}\",\"steps\":[{}],\"visitor\":{},\"faults_on\":{faults_on},\"aside\":{aside},\"boot\":[{POWER_ON_BLINKS},{}]",
            seen.join(","),
            json_text(&lamps::say(c.state(), lights)),
            json_text(&advice.say),
            steps.join(","),
            u8::from(visitor(m) == Colour::White),
            m.now.wrapping_sub(SWITCHED_ON.get())
        );
        let w = m.world.borrow();
        let st = m.stats();
        // The places beside the storage columns for the machine's captures.
        let captures: Vec<String> = [Colour::Black, Colour::White]
            .iter()
            .flat_map(|&c| (0..CAPTURE_SLOTS).map(move |k| (c, k)))
            .filter_map(|(c, k)| capture_slot(&w.config.storage, c, k).map(mm))
            .collect();
        let _ = write!(
            s,
            ",\"pieces\":[{}],\"squares\":[{}],\"storage\":[{},{},{}],\"park\":{},\"sensors\":[{}],\
             \"captures\":[{}],\"lights\":{},\"buttons\":{},\"restores\":{},\"faults\":{},\"pressing\":{}}}",
            pieces.join(","),
            centres.join(","),
            mm(w.config.storage.first[0]),
            mm(w.config.storage.first[1]),
            mm(w.config.storage.step),
            mm(w.config.park),
            sensors.join(","),
            captures.join(","),
            bits(&w.lights),
            bits(&w.buttons),
            st.restores,
            w.stats.faults(),
            h.pressing()
        );
        s
    });
    view.map_or(0, answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> String {
        machine_view();
        crate::OUT.with(|o| o.borrow().clone())
    }

    fn run_until(ms: u32, state: &str) -> bool {
        for _ in 0..ms / 10 {
            machine_run(10);
            if view().contains(state) {
                return true;
            }
        }
        false
    }

    /// A whole game as the page plays it: the visitor places pieces, presses
    /// Done, and once moves one of the device's pieces; the device puts it back.
    #[test]
    fn a_game_with_a_cheat_through_the_exports() {
        assert_eq!(machine_new(7, 0, 3), 0);
        assert!(run_until(60_000, "\"state\":\"Setup\""), "{}", view());
        assert_eq!(machine_press(3), 0);
        let mut cheated = false;
        for _ in 0..12 {
            assert!(
                run_until(120_000, "\"state\":\"HumanTurn\"") || view().contains("Over"),
                "{}",
                view()
            );
            let v = view();
            if v.contains("Over") {
                break;
            }
            let record = v.split("\"record\":\"").nth(1).unwrap()[..9].to_string();
            let empty: Vec<u32> = (0..9u32)
                .filter(|&i| &record[i as usize..i as usize + 1] == ".")
                .collect();
            if !cheated {
                let device = (0..9).find(|&i| &record[i..i + 1] == "X").unwrap() as u32;
                assert_eq!(machine_move(device, empty[0]), 0);
                cheated = true;
            } else {
                assert_eq!(machine_place(empty[0]), 0);
            }
            assert_eq!(machine_press(0), 0);
            machine_run(500);
        }
        let v = view();
        assert!(v.contains("\"state\":\"Over"), "{v}");
        assert!(v.contains("\"restores\":1"), "{v}");
    }

    /// Follows the machine's advice (every step but waiting, abandoning and
    /// a piece on a square of one's choice; the machine run a while after
    /// each) until it leaves the error state; returns the problem's words.
    fn follow_advice() -> String {
        let field = |v: &str, key: &str| v.split(key).nth(1).unwrap().to_string();
        let words = field(&view(), "\"words\":\"");
        let words = words.split('"').next().unwrap().to_string();
        for _ in 0..3 {
            let steps = field(&view(), "\"steps\":[");
            for step in steps.split("]]").next().unwrap().split("],[") {
                let mut f = step.trim_start_matches('[').split(',');
                let code: u32 = f.next().unwrap().parse().unwrap();
                let arg: u32 = f.next().unwrap().parse().unwrap();
                let skip = code == 0 || code == 2 || (code == 3 || code == 4) && arg == 9;
                if !skip {
                    assert_eq!(machine_do(code, arg), 0, "step {code},{arg}: {}", view());
                    machine_run(3_000);
                }
                if !view().contains("\"state\":\"Error") {
                    return words;
                }
            }
        }
        panic!("still in the error state after its advice: {}", view());
    }

    /// A machine (seed `seed`, perfect) past Start, at the person's first turn.
    fn game_started(seed: u32) {
        assert_eq!(machine_new(seed, 0, 3), 0);
        assert!(run_until(60_000, "\"state\":\"Setup\""), "{}", view());
        machine_press(3);
        assert!(run_until(120_000, "\"state\":\"HumanTurn\""), "{}", view());
    }

    /// The machine's pieces taken out of storage: the placement that follows
    /// fails, and the advice (refill, put the piece there) gets the game going.
    #[test]
    fn an_empty_storage_column_is_refilled_by_the_advice() {
        game_started(5);
        assert_eq!(machine_trouble(4, 0), 0);
        let record = view().split("\"record\":\"").nth(1).unwrap()[..9].to_string();
        machine_place(record.find('.').unwrap() as u32);
        machine_press(0);
        assert!(run_until(120_000, "\"state\":\"Error"), "{}", view());
        let words = follow_advice();
        assert!(words.contains("did not arrive"), "{words}");
        assert!(
            run_until(120_000, "\"state\":\"HumanTurn\""),
            "{words}: {}",
            view()
        );
    }

    /// The mechanism jammed at the person's turn: the device's placement finds
    /// nothing moved, its checked retry homes and never finds the switch (a
    /// motion problem), and the advice (free the mechanism, press Start) homes
    /// again and the game goes on.
    #[test]
    fn a_jammed_mechanism_is_freed_by_the_advice() {
        game_started(5);
        // The head parked first (a jam while it parks stops it there).
        machine_run(10_000);
        assert_eq!(machine_trouble(5, 0), 0);
        let record = view().split("\"record\":\"").nth(1).unwrap()[..9].to_string();
        machine_place(record.find('.').unwrap() as u32);
        machine_press(0);
        assert!(run_until(120_000, "\"state\":\"Error"), "{}", view());
        let words = follow_advice();
        assert!(
            words.contains("mechanism: X homing switch not found"),
            "{words}"
        );
        assert!(
            run_until(120_000, "\"state\":\"HumanTurn\""),
            "{words}: {}",
            view()
        );
        let v = view();
        let record = v.split("\"record\":\"").nth(1).unwrap()[..9].to_string();
        assert_eq!(record.matches('X').count(), 2, "{v}");
    }

    /// The field `key` of the view, as text (a string's without its quotes).
    fn field(key: &str) -> String {
        let v = view();
        let rest = v.split(&format!("\"{key}\":")).nth(1).unwrap().to_string();
        let end = rest.find([',', '}']).unwrap();
        rest[..end].trim_matches('"').to_string()
    }

    /// Every game chosen with Level through `machine_game` (round to
    /// tic-tac-toe), refused in the person's turn; then a hexapawn game played
    /// by hand to its end: the set-up by the advice's act, pawn moves and
    /// captures by `machine_move`, one illegal move refused and put back as the
    /// game has it.
    #[test]
    fn every_game_is_chosen_and_hexapawn_is_played_by_hand() {
        assert_eq!(machine_new(11, 0, 3), 0);
        assert!(run_until(60_000, "\"state\":\"Setup\""), "{}", view());
        for code in [3, 6, 1, 2, 4, 5, 6] {
            assert_eq!(machine_game(code), 0, "game {code}: {}", view());
            assert_eq!(field("code"), code.to_string());
            assert!(field("lights_say").contains(&format!("game {code} in binary")));
        }
        assert_eq!(machine_game(7), 2);
        assert_eq!(field("game"), "hexapawn");
        machine_press(3);
        assert!(run_until(120_000, "\"your_move\":\"setup\""), "{}", view());
        assert_eq!(field("state"), "HumanTurn");
        assert_eq!(machine_game(1), 2, "no game chosen mid-game");
        assert_eq!(machine_do(15, 0), 0);
        machine_press(0);
        // The machine's first pawn move, then the person's turn with pawns to move.
        assert!(run_until(120_000, "\"to_move\":\"O\""), "{}", view());
        let (mut illegal, mut captures) = (false, 0);
        for _ in 0..12 {
            assert!(
                run_until(120_000, "\"state\":\"HumanTurn\"") || view().contains("Over"),
                "{}",
                view()
            );
            if view().contains("\"state\":\"Over") {
                break;
            }
            let moves: Vec<(Move, bool)> = with(|m, _| {
                let p = m.controller.record().position();
                let taken = p.x | p.o;
                Rules::Hexapawn
                    .children(&p)
                    .iter()
                    .map(|(mv, _)| (*mv, taken & mv.to().bit() != 0))
                    .collect()
            })
            .unwrap();
            let record = field("record");
            if !illegal {
                // A pawn sideways or backwards, to an empty square: refused.
                let from = moves[0].0.from().unwrap();
                let to = (0..9u8)
                    .filter_map(Square::new)
                    .find(|&t| {
                        record.as_bytes()[usize::from(t.index())] == b'.'
                            && !moves
                                .iter()
                                .any(|(mv, _)| mv.from() == Some(from) && mv.to() == t)
                    })
                    .unwrap();
                assert_eq!(
                    machine_move(u32::from(from.index()), u32::from(to.index())),
                    0
                );
                machine_press(0);
                assert!(run_until(30_000, "does not match the game"), "{}", view());
                assert_eq!(machine_do(12, 0), 0);
                assert!(run_until(30_000, "\"state\":\"HumanTurn\""), "{}", view());
                assert_eq!(field("record"), record);
                illegal = true;
                continue;
            }
            let (mv, capture) = moves.iter().copied().find(|&(_, c)| c).unwrap_or(moves[0]);
            captures += usize::from(capture);
            let from = mv.from().unwrap();
            assert_eq!(
                machine_move(u32::from(from.index()), u32::from(mv.to().index())),
                0
            );
            machine_press(0);
            machine_run(500);
        }
        assert!(view().contains("\"state\":\"Over"), "{}", view());
        assert!(illegal && captures > 0, "{illegal} {captures}");
        // Level after the game brings the setup back and goes on to the next
        // game: tic-tac-toe's level stays the page's.
        assert_eq!(machine_game(1), 0, "{}", view());
        assert_eq!(field("level"), "perfect");
    }

    /// Hexapawn with a power cut while the machine carries a piece (its pawn, or
    /// the person's pawn it captures): the advice gets the game going again.
    #[test]
    fn hexapawn_survives_a_power_cut_mid_move() {
        let mut cuts = Vec::new();
        for seed in 1..=4 {
            assert_eq!(machine_new(seed, 0, 3), 0);
            assert!(run_until(60_000, "\"state\":\"Setup\""), "{}", view());
            assert_eq!(machine_game(6), 0);
            machine_press(3);
            assert!(run_until(120_000, "\"your_move\":\"setup\""), "{}", view());
            machine_do(15, 0);
            machine_press(0);
            assert!(run_until(120_000, "\"to_move\":\"O\""), "{}", view());
            assert!(run_until(120_000, "\"state\":\"HumanTurn\""), "{}", view());
            let mv = with(|m, _| {
                let p = m.controller.record().position();
                let children = Rules::Hexapawn.children(&p);
                let taken = p.x | p.o;
                let all: Vec<Move> = children.iter().map(|(mv, _)| *mv).collect();
                all.iter()
                    .copied()
                    .find(|mv| taken & mv.to().bit() != 0)
                    .unwrap_or(all[0])
            })
            .unwrap();
            let from = mv.from().unwrap();
            assert_eq!(
                machine_move(u32::from(from.index()), u32::from(mv.to().index())),
                0
            );
            machine_press(0);
            let mut carried = false;
            for _ in 0..6000 {
                machine_run(10);
                if !view().contains("\"held\":-1") {
                    carried = true;
                    break;
                }
            }
            if !carried {
                continue;
            }
            let state = field("state");
            cuts.push(state.clone());
            assert_eq!(machine_power_cut(), 0);
            for _ in 0..5 {
                machine_run(20_000);
                if view().contains("\"state\":\"Error") {
                    follow_advice();
                } else {
                    break;
                }
            }
            assert!(
                run_until(120_000, "\"state\":\"HumanTurn\"") || view().contains("Over"),
                "seed {seed}, cut in {state}: {}",
                view()
            );
        }
        assert!(cuts.len() >= 3, "cut while carrying: {cuts:?}");
    }

    /// A power cut in the middle of a game: the controller resumes from the
    /// flash and the game goes on to the person's turn with the same record.
    #[test]
    fn a_power_cut_resumes_from_the_flash() {
        game_started(3);
        machine_place(if view().contains("\"record\":\"....X") {
            0
        } else {
            4
        });
        machine_press(0);
        // Cut while the magnet carries the device's piece: it drops.
        assert!(run_until(60_000, "\"magnet\":true"), "{}", view());
        assert_eq!(machine_power_cut(), 0);
        assert!(
            view().contains("\"magnet\":false,\"held\":-1"),
            "{}",
            view()
        );
        assert!(run_until(120_000, "\"state\":\"HumanTurn\""), "{}", view());
        let v = view();
        let record = v.split("\"record\":\"").nth(1).unwrap()[..9].to_string();
        assert_eq!(record.matches('X').count(), 2, "{v}");
        assert_eq!(record.matches('O').count(), 1, "{v}");
    }
}
