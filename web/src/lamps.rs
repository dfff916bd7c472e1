//! The panel's lights in words, as `firmware/README.md`'s tables ("Buttons and
//! lights", "Error light patterns") give them: what the lit lamps mean
//! together in the controller's state, never one by one when they form a
//! pattern (Error with Win and Loss is one message, not three).

use tictable_machine::controller::{Rules, State, CONFIRM_GAME_LIGHTS};
use tictable_machine::panel::Light;

/// A game's name for people, by its rules.
pub fn game_name(rules: Rules) -> &'static str {
    match rules {
        Rules::TicTacToe => "tic-tac-toe",
        Rules::Misere => "misère tic-tac-toe",
        Rules::ThreeMensMorris => "three men's morris",
        Rules::Tapatan => "tapatan",
        Rules::Achi => "achi",
        Rules::Hexapawn => "hexapawn",
    }
}

/// A light's name as printed on the panel.
pub fn name(light: Light) -> &'static str {
    match light {
        Light::Lamp => "Lamp",
        Light::DeviceTurn => "Device turn",
        Light::HumanTurn => "Human turn",
        Light::Win => "Win",
        Light::Draw => "Draw",
        Light::Loss => "Loss",
        Light::Error => "Error",
    }
}

/// What each light means on its own (`firmware/README.md`, "Buttons and lights").
const MEANING: [(Light, &str); 7] = [
    (Light::Lamp, "the machine's move is done"),
    (Light::DeviceTurn, "the machine is working"),
    (Light::HumanTurn, "waiting for your move and Done"),
    (Light::Win, "the machine won"),
    (Light::Draw, "a draw"),
    (Light::Loss, "the machine lost"),
    (Light::Error, "something needs a person"),
];

/// The names of the lights lit in `mask`, joined with " + " ("all off").
fn lit(mask: u8) -> String {
    let names: Vec<&str> = Light::ALL
        .iter()
        .filter(|l| mask & l.bit() != 0)
        .map(|&l| name(l))
        .collect();
    if names.is_empty() {
        "All lights off".into()
    } else {
        names.join(" + ")
    }
}

/// The number 0..=15 shown in binary on Lamp (1), Win (2), Draw (4), Loss (8).
fn number(mask: u8) -> u8 {
    let on = |l: Light| u8::from(mask & l.bit() != 0);
    on(Light::Lamp) | on(Light::Win) << 1 | on(Light::Draw) << 2 | on(Light::Loss) << 3
}

/// What the lights lit in `mask` say in `state`, for a person: the lit
/// lights' names, then their meaning.
pub fn say(state: State, mask: u8) -> String {
    let on = |l: Light| mask & l.bit() != 0;
    let square = match number(mask) {
        n @ 1..=9 => format!(", square {n} in binary (Lamp 1, Win 2, Draw 4, Loss 8)"),
        _ => String::new(),
    };
    let both_turns = on(Light::DeviceTurn) && on(Light::HumanTurn);
    let meaning = match state {
        // The game chosen with Level (firmware/README.md, "Games"): its number.
        State::Setup if both_turns => format!(
            "game {} in binary (Lamp 1, Win 2, Draw 4, Loss 8): {}; Level again: the next game",
            number(mask),
            Rules::from_code(number(mask)).map_or("no game", game_name)
        ),
        State::HumanTurn if mask == CONFIRM_GAME_LIGHTS => {
            "end the game? Level again ends it; another button or 10 s plays on".into()
        }
        State::HumanTurn if both_turns => {
            "set up your pawns on your home row, then press Done".into()
        }
        // The error pattern: one message, the controller's own words.
        State::Error(problem) if on(Light::Error) => format!("{problem}"),
        State::CalibratingSensors { .. } => {
            "sensor calibration: the step light says what to put on the board".into()
        }
        State::Setup if on(Light::DeviceTurn) => format!(
            "the machine moves first{}",
            if square.is_empty() {
                ", on the square the table chooses".to_string()
            } else {
                square
            }
        ),
        State::Setup => "you move first".into(),
        State::TaskEntry(_) => format!(
            "task entry: {} pieces{square}",
            if on(Light::DeviceTurn) {
                "black"
            } else {
                "white"
            }
        ),
        State::CalibratingPose(_) => "pose calibration: aim the head at the square shown".into(),
        _ => {
            let parts: Vec<&str> = MEANING
                .iter()
                .filter(|(l, _)| on(*l))
                .map(|&(_, m)| m)
                .collect();
            parts.join("; ")
        }
    };
    if meaning.is_empty() {
        lit(mask)
    } else {
        format!("{}: {meaning}", lit(mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable::Square;
    use tictable_machine::controller::Problem;

    #[test]
    fn an_error_pattern_is_one_message() {
        let p = Problem::StrayPiece(Square::CENTRE);
        let s = say(State::Error(p), p.lights());
        assert_eq!(
            s,
            "Win + Loss + Error: the piece for square 5 fell elsewhere: remove the stray piece"
        );
        assert!(!s.contains("the machine won"), "{s}");
        assert_eq!(
            say(State::HumanTurn, Light::HumanTurn.bit() | Light::Lamp.bit()),
            "Lamp + Human turn: the machine's move is done; waiting for your move and Done"
        );
        assert_eq!(
            say(State::Over(Some(true)), Light::Win.bit()),
            "Win: the machine won"
        );
        // Level in Setup: game 4 (Draw + Lamp) with both turn lights.
        let game = Light::DeviceTurn.bit() | Light::HumanTurn.bit();
        assert_eq!(
            say(State::Setup, game | Light::Draw.bit() | Light::Lamp.bit()),
            "Lamp + Device turn + Human turn + Draw: game 5 in binary (Lamp 1, Win 2, Draw 4, \
             Loss 8): achi; Level again: the next game"
        );
        assert!(say(State::HumanTurn, CONFIRM_GAME_LIGHTS).contains("Level again ends it"));
        assert!(say(State::HumanTurn, game).contains("set up your pawns"));
    }
}
