//! What a person does next at the machine: for every [`State`] the controller
//! can be in (and every [`Problem`] behind its error light) the steps the page
//! offers, each one an [`Act`] the page performs with [`crate::machine`]'s
//! `machine_do` (the "What to do" buttons). The controller's own words (its
//! `Display`) say what is wrong; these steps name the page's buttons that fix
//! it, following `firmware/README.md`'s "Error light patterns" table.

use tictable::{Square, Squares};
use tictable_machine::controller::{Problem, State};
use tictable_machine::panel::Button;
use tictable_machine::Colour;

/// One thing a person does with their hands or the buttons (its index is the
/// page's action code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Nothing: the machine is working (watch the head).
    Wait,
    /// Presses a button (about 0.1 s).
    Press(Button),
    /// Holds Start for 2.3 s: abandons the game or task in any state.
    HoldStart,
    /// Puts a piece of the colour from storage on a square (`None`: one the
    /// person clicks).
    Place(Colour, Option<Square>),
    /// Takes the piece lying on a square back to storage.
    Remove(Square),
    /// Takes back to storage every piece that lies where neither the game nor
    /// the placement under way has one (between squares, beside the board, on a
    /// square it does not belong on), and a piece hanging on the magnet.
    RemoveStrays,
    /// Centres the piece lying nearest to a square's centre on it.
    Centre(Square),
    /// Unplugs the sensor of a square and plugs it back in.
    Replug(Square),
    /// Pushes the board back against its marks.
    PushBack,
    /// Puts the pieces set aside back into their storage columns.
    Refill,
    /// Every piece back into storage.
    ClearBoard,
    /// Puts the board back as the game record has it.
    AsRecorded,
    /// Sets the person's pawns from storage on their home squares (hexapawn's
    /// set-up).
    SetUp,
    /// Switches the simulated faults off (the page's fault boxes).
    FaultsOff,
    /// Frees a jammed mechanism: the motors turn the axes again (a slip only
    /// as often as the fault boxes ask).
    FreeMechanism,
}

impl Act {
    /// The page's code for the act and its argument (a square 0..=8 or a
    /// button index; 0 when it has none).
    pub fn code(self) -> (u32, u32) {
        let sq = |s: Square| u32::from(s.index());
        match self {
            Act::Wait => (0, 0),
            Act::Press(b) => (1, b.index() as u32),
            Act::HoldStart => (2, 0),
            Act::Place(Colour::Black, s) => (3, s.map_or(9, sq)),
            Act::Place(Colour::White, s) => (4, s.map_or(9, sq)),
            Act::Remove(s) => (5, sq(s)),
            Act::RemoveStrays => (6, 0),
            Act::Centre(s) => (7, sq(s)),
            Act::Replug(s) => (8, sq(s)),
            Act::PushBack => (9, 0),
            Act::Refill => (10, 0),
            Act::ClearBoard => (11, 0),
            Act::AsRecorded => (12, 0),
            Act::FaultsOff => (13, 0),
            Act::FreeMechanism => (14, 0),
            Act::SetUp => (15, 0),
        }
    }

    /// The act of a page code (the inverse of [`Act::code`]); `None` for an
    /// unknown code or argument.
    pub fn from_code(code: u32, arg: u32) -> Option<Act> {
        let square = || u8::try_from(arg).ok().and_then(Square::new);
        let place = |c| {
            if arg == 9 {
                Some(Act::Place(c, None))
            } else {
                square().map(|s| Act::Place(c, Some(s)))
            }
        };
        Some(match code {
            0 => Act::Wait,
            1 => Act::Press(*Button::ALL.get(arg as usize)?),
            2 => Act::HoldStart,
            3 => return place(Colour::Black),
            4 => return place(Colour::White),
            5 => Act::Remove(square()?),
            6 => Act::RemoveStrays,
            7 => Act::Centre(square()?),
            8 => Act::Replug(square()?),
            9 => Act::PushBack,
            10 => Act::Refill,
            11 => Act::ClearBoard,
            12 => Act::AsRecorded,
            13 => Act::FaultsOff,
            14 => Act::FreeMechanism,
            15 => Act::SetUp,
            _ => return None,
        })
    }

    /// The button's words (squares 1-9).
    pub fn label(self) -> String {
        let colour = |c: Colour| match c {
            Colour::Black => "black",
            Colour::White => "white",
        };
        match self {
            Act::Wait => "Wait: the machine is working".into(),
            Act::Press(b) => format!("Press {}", button_name(b)),
            Act::HoldStart => "Hold Start 2 s (abandon)".into(),
            Act::Place(c, Some(s)) => {
                format!("Put a {} piece on square {}", colour(c), s.index() + 1)
            }
            Act::Place(c, None) => format!("Put a {} piece on a square", colour(c)),
            Act::Remove(s) => format!("Remove the piece on square {}", s.index() + 1),
            Act::RemoveStrays => "Remove the stray piece".into(),
            Act::Centre(s) => format!("Centre the piece on square {}", s.index() + 1),
            Act::Replug(s) => format!("Replug the sensor of square {}", s.index() + 1),
            Act::PushBack => "Push the board back".into(),
            Act::Refill => "Refill the storage".into(),
            Act::ClearBoard => "Clear the board".into(),
            Act::AsRecorded => "Put the board back as the game has it".into(),
            Act::FaultsOff => "Switch the simulated faults off".into(),
            Act::FreeMechanism => "Free the jammed mechanism".into(),
            Act::SetUp => "Set up your pawns".into(),
        }
    }
}

/// A button's name as printed on the machine (`firmware/README.md`).
pub fn button_name(b: Button) -> &'static str {
    match b {
        Button::Done => "Done",
        Button::Side => "Side",
        Button::FirstSquare => "First square",
        Button::Start => "Start",
        Button::Level => "Level",
    }
}

/// What the machine needs from a person, for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// One sentence for a person: what to do and which buttons do it.
    pub say: String,
    /// The steps, in order (the page shows a button for each but [`Act::Wait`]).
    pub steps: Vec<Act>,
}

/// What kind of move the person makes in their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YourMove {
    /// A piece from storage onto an empty square (tic-tac-toe, misère, the
    /// morris games until every piece is down).
    Place,
    /// One of their pieces slid to an adjacent empty point (the morris games).
    Slide,
    /// A pawn one square forward, or diagonally forward onto a machine's pawn,
    /// which is taken off (hexapawn).
    Pawn,
    /// Hexapawn's set-up: their pawns on their home row (both turn lights).
    SetUp,
}

impl YourMove {
    /// Its name for the page (`place`, `slide`, `pawn`, `setup`).
    pub fn id(self) -> &'static str {
        match self {
            YourMove::Place => "place",
            YourMove::Slide => "slide",
            YourMove::Pawn => "pawn",
            YourMove::SetUp => "setup",
        }
    }
}

/// What the page knows of the machine beyond its state.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The person's colour (the device plays the other).
    pub visitor: Colour,
    /// The kind of the person's move in their turn.
    pub your_move: YourMove,
    /// The person's squares at the game's start (hexapawn's home row).
    pub home: Squares,
    /// Level was pressed in the person's turn: every light asks to confirm the
    /// end of the game.
    pub confirming: bool,
    /// The simulated faults are switched on.
    pub faults_on: bool,
    /// Some piece lies on the board area (not in storage).
    pub board_used: bool,
    /// The machine's storage column holds a piece.
    pub device_stocked: bool,
}

/// The advice for `state`.
pub fn advice(state: State, cx: Context) -> Advice {
    let device = cx.visitor.other();
    let a = |say: &str, steps: &[Act]| Advice {
        say: say.into(),
        steps: steps.to_vec(),
    };
    let mut advice = match state {
        State::Starting
        | State::Placing { .. }
        | State::Verifying { .. }
        | State::Checking
        | State::Restoring { .. }
        | State::VerifyingRestore { .. }
        | State::Capturing { .. } => a(
            "The machine is working: watch the head. (Hold Start 2 s to abandon.)",
            &[Act::Wait],
        ),
        State::Setup => {
            let mut steps = vec![
                Act::Press(Button::Side),
                Act::Press(Button::FirstSquare),
                Act::Press(Button::Level),
            ];
            if cx.board_used {
                steps.push(Act::ClearBoard);
            }
            steps.push(Act::Press(Button::Start));
            Advice {
                say: "Press Start to play (Side: who moves first; First square: the \
                      machine's first square; Level: the game, its number on the lights)."
                    .into(),
                steps,
            }
        }
        State::WaitEmpty => a(
            "Clear the board: the game starts once it is empty.",
            &[Act::ClearBoard],
        ),
        State::HumanTurn if cx.confirming => a(
            "Every light: Level again ends the game; Done (any other button, or 10 s) \
             plays on.",
            &[Act::Press(Button::Level), Act::Press(Button::Done)],
        ),
        State::HumanTurn => your_turn(cx),
        State::Over(_) | State::TaskDone => a(
            "Clear the board, then press Start for a new game.",
            &[Act::ClearBoard, Act::Press(Button::Start)],
        ),
        State::TaskEntry(_) => a(
            "Task entry: Side picks the colour, First square the square, Done adds it, \
             Start runs the task, Level leaves.",
            &[
                Act::Press(Button::Side),
                Act::Press(Button::FirstSquare),
                Act::Press(Button::Done),
                Act::Press(Button::Start),
                Act::Press(Button::Level),
            ],
        ),
        State::CalibratingSensors { .. } => a(
            "Sensor calibration: set the board as the step light asks and press Start; \
             Level cancels.",
            &[Act::Press(Button::Start), Act::Press(Button::Level)],
        ),
        State::CalibratingPose(_) => a(
            "Pose calibration: Level leaves without changing anything.",
            &[Act::Press(Button::Level)],
        ),
        State::Error(problem) => problem_advice(problem, device),
    };
    // A piece of the machine's colour to put down by hand comes from its
    // storage column: refilled first when it is empty.
    let places_device = |a: &Act| matches!(a, Act::Place(c, _) if *c == device);
    if !cx.device_stocked && advice.steps.iter().any(places_device) {
        advice
            .say
            .insert_str(0, "Refill the machine's storage first. ");
        advice.steps.insert(0, Act::Refill);
    }
    if cx.faults_on && matches!(state, State::Error(_)) {
        advice.say.push_str(
            " If it comes back again and again, the simulated faults cause it: switch them off.",
        );
        advice.steps.push(Act::FaultsOff);
    }
    advice
}

/// The person's turn: their move by its kind, then Done.
fn your_turn(cx: Context) -> Advice {
    let colour = colour_word(cx.visitor);
    let (say, first) = match cx.your_move {
        YourMove::Place => (
            format!("Your move: click an empty square to put your {colour} piece there, then press Done."),
            Some(Act::Place(cx.visitor, None)),
        ),
        YourMove::Slide => (
            format!(
                "Your move: slide one of your {colour} pieces to an adjacent empty point \
                 (click it, then the point), then press Done."
            ),
            None,
        ),
        YourMove::Pawn => (
            format!(
                "Your move: a {colour} pawn one square forward, or diagonally forward onto \
                 one of the machine's (it is taken off): click it, then where it goes; then \
                 press Done."
            ),
            None,
        ),
        YourMove::SetUp => {
            let squares: Vec<String> = cx.home.iter().map(|s| (s.index() + 1).to_string()).collect();
            (
                format!(
                    "Both turn lights: set your {colour} pawns on squares {}, then press Done.",
                    squares.join(", ")
                ),
                Some(Act::SetUp),
            )
        }
    };
    Advice {
        say,
        steps: first
            .into_iter()
            .chain([Act::Press(Button::Done)])
            .collect(),
    }
}

/// "black" or "white".
fn colour_word(c: Colour) -> &'static str {
    match c {
        Colour::Black => "black",
        Colour::White => "white",
    }
}

/// The squares of a set, one act each.
fn each(squares: Squares, act: fn(Square) -> Act) -> Vec<Act> {
    squares.iter().map(act).collect()
}

/// The advice for the error light's `problem` (`device`: the machine's colour),
/// after `firmware/README.md`'s "Error light patterns".
fn problem_advice(problem: Problem, device: Colour) -> Advice {
    let sq = |s: Square| s.index() + 1;
    let (say, steps) = match problem {
        Problem::SensorFault(s) => (
            "Replug the sensor named (check its wiring): the machine rechecks by itself."
                .to_string(),
            each(s, Act::Replug),
        ),
        Problem::Unclear(s) => (
            "Centre the piece on the square named (or take the hand away): the machine \
             rechecks by itself."
                .to_string(),
            each(s, Act::Centre),
        ),
        Problem::BoardNotEmpty => (
            "Clear the board: the game starts once it is empty.".to_string(),
            vec![Act::ClearBoard],
        ),
        Problem::Mismatch => (
            "Put the board back as the game has it (or hold Start 2 s to abandon the game)."
                .to_string(),
            vec![Act::AsRecorded, Act::HoldStart],
        ),
        Problem::PlacementFailed(s) => (
            format!(
                "Take a piece off the magnet, then put a {} piece on square {} by hand: \
                 the machine goes on by itself.",
                colour_word(device),
                sq(s)
            ),
            vec![Act::RemoveStrays, Act::Place(device, Some(s))],
        ),
        Problem::StrayPiece(s) => (
            format!(
                "Remove the stray piece (do not place it): the machine places again; if its \
                 piece already stands on square {}, press Done.",
                sq(s)
            ),
            vec![Act::RemoveStrays, Act::Press(Button::Done)],
        ),
        Problem::Recalibrate(s) => (
            format!(
                "Push the board back, then remove the piece that missed square {}: the \
                 machine places again.",
                sq(s)
            ),
            vec![Act::PushBack, Act::RemoveStrays],
        ),
        Problem::Abandoned => (
            "Clear the board: the setup comes back.".to_string(),
            vec![Act::ClearBoard],
        ),
        Problem::StorageEmpty => (
            "Refill the storage, then press Start.".to_string(),
            vec![Act::Refill, Act::Press(Button::Start)],
        ),
        Problem::Motion(_) => (
            "Free the jammed mechanism (an axis that does not turn, a switch that does not \
             close), then press Start: the machine homes again."
                .to_string(),
            vec![Act::FreeMechanism, Act::Press(Button::Start)],
        ),
        // A problem this page does not know yet: the way out that always works.
        _ => (
            "Hold Start 2 s to abandon, then clear the board.".to_string(),
            vec![Act::HoldStart, Act::ClearBoard],
        ),
    };
    Advice { say, steps }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_machine::motion::{AxisId, MotionError};

    /// Every problem the controller can show, one of each kind.
    pub(crate) fn every_problem() -> Vec<Problem> {
        let s = Square::CENTRE;
        vec![
            Problem::SensorFault(Squares::from_bits(s.bit())),
            Problem::Unclear(Squares::from_bits(s.bit())),
            Problem::BoardNotEmpty,
            Problem::Mismatch,
            Problem::PlacementFailed(s),
            Problem::StrayPiece(s),
            Problem::Recalibrate(s),
            Problem::Abandoned,
            Problem::StorageEmpty,
            Problem::Motion(MotionError::HomingFailed(AxisId::X)),
        ]
    }

    /// Every problem gets at least one step a person can take (not Wait), every
    /// step survives the page's code round trip, and Done is named where it is
    /// a step.
    #[test]
    fn every_problem_has_steps_the_page_offers() {
        let cx = Context {
            visitor: Colour::White,
            your_move: YourMove::Place,
            home: Squares::EMPTY,
            confirming: false,
            faults_on: false,
            board_used: true,
            device_stocked: true,
        };
        for p in every_problem() {
            let a = advice(State::Error(p), cx);
            assert!(
                !a.steps.is_empty() && !a.steps.contains(&Act::Wait),
                "{p}: {a:?}"
            );
            for step in &a.steps {
                let (code, arg) = step.code();
                assert_eq!(Act::from_code(code, arg), Some(*step), "{step:?}");
                if let Act::Press(b) = step {
                    assert!(
                        a.say.contains(button_name(*b)),
                        "{p}: {} names no {b:?}",
                        a.say
                    );
                }
            }
        }
        let with_faults = advice(
            State::Error(Problem::Mismatch),
            Context {
                faults_on: true,
                ..cx
            },
        );
        assert_eq!(with_faults.steps.last(), Some(&Act::FaultsOff));
        let failed = State::Error(Problem::PlacementFailed(Square::CENTRE));
        let empty = advice(
            failed,
            Context {
                device_stocked: false,
                ..cx
            },
        );
        assert_eq!(empty.steps[0], Act::Refill, "{empty:?}");
        assert_eq!(Act::from_code(99, 0), None);
        assert_eq!(Act::from_code(5, 9), None);
    }
}
