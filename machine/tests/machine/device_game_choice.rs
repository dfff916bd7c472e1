//! Choosing the game with the panel's buttons (feature `games`, the simulated
//! machine): Level shows the game in Setup and after a game, then cycles the games,
//! the lights saying which (both turn lights, the number in binary on Lamp, Win,
//! Draw, Loss), the setup's lights those of tic-tac-toe until Level, the choice
//! survives a power cut (the snapshot's game byte), and Level in the person's turn
//! asks for confirmation (every light) before it ends a game: never a silent reset.

use tictable_machine::controller::{
    GameSetup, Problem, Rules, State, TableChooser, CONFIRM_GAME_LIGHTS, CONFIRM_GAME_MS,
};
use tictable_machine::panel::{Button, Light};
use tictable_machine::sim::host::HostMachine;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::world::SimConfig;
use tictable_machine::sim::SplitMix64;

type Machine = HostMachine<TableChooser<SplitMix64>>;

fn machine(seed: u64) -> (Machine, SimHuman) {
    let chooser = TableChooser::new(Rules::TicTacToe, SplitMix64::new(seed)).unwrap();
    let m = HostMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), chooser).unwrap();
    (m, SimHuman::passive(seed))
}

/// The lights lit now, as a mask.
fn lit(m: &Machine) -> u8 {
    Light::ALL
        .into_iter()
        .filter(|&l| m.controller.hardware().panel.is_lit(l))
        .fold(0, |bits, l| bits | l.bit())
}

/// The game display: both turn lights, the number in binary on Lamp (1), Win (2),
/// Draw (4), Loss (8), as firmware/README.md's light table says.
fn shows_game(rules: Rules) -> u8 {
    let n = rules.code();
    let number = [Light::Lamp, Light::Win, Light::Draw, Light::Loss]
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| n >> i & 1 != 0)
        .fold(0, |bits, (_, l)| bits | l.bit());
    Light::DeviceTurn.bit() | Light::HumanTurn.bit() | number
}

#[test]
fn level_cycles_the_games_the_lights_say_which_and_a_power_cut_keeps_the_choice() {
    let (mut m, mut h) = machine(1);
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    // At power-on the setup's lights (the tic-tac-toe image's); Level shows the game.
    let setup = lit(&m);
    assert_ne!(setup, shows_game(Rules::TicTacToe));
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::TicTacToe);
    assert_eq!(lit(&m), shows_game(Rules::TicTacToe));
    for rules in [
        Rules::Misere,
        Rules::ThreeMensMorris,
        Rules::Tapatan,
        Rules::Achi,
    ] {
        m.press(&mut h, Button::Level);
        assert_eq!(m.controller.rules(), rules);
        assert_eq!(m.controller.record().game(), rules);
        assert_eq!(lit(&m), shows_game(rules), "{}", rules.id());
    }
    // Saved (the record's game byte), then the power cut: achi again, shown.
    m.run_until(&mut h, 3_000, |_| false);
    let chooser = TableChooser::new(Rules::TicTacToe, SplitMix64::new(2)).unwrap();
    m.power_cycle(chooser).unwrap();
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    assert_eq!(m.controller.rules(), Rules::Achi);
    assert_eq!(lit(&m), setup);
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), shows_game(Rules::Achi));
    // Side shows the setup again (and changes it, as always); Level the game, again.
    m.press(&mut h, Button::Side);
    assert_ne!(lit(&m), shows_game(Rules::Achi));
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), shows_game(Rules::Achi));
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), shows_game(Rules::Hexapawn));
    m.press(&mut h, Button::Level);
    assert_eq!(
        m.controller.rules(),
        Rules::TicTacToe,
        "round to tic-tac-toe"
    );
    assert_eq!(lit(&m), shows_game(Rules::TicTacToe));
    // No game's display is another's, nor the confirmation's.
    for a in Rules::ALL {
        assert_ne!(shows_game(a), CONFIRM_GAME_LIGHTS);
        for b in Rules::ALL {
            assert_eq!(shows_game(a) == shows_game(b), a == b);
        }
    }
}

#[test]
fn level_in_the_persons_turn_asks_for_confirmation_and_never_resets_silently() {
    let (mut m, mut h) = machine(3);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Perfect));
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::HumanTurn));
    let record = *m.controller.record();
    let turn = lit(&m);
    assert_eq!(record.len(), 1);
    // Level: every light on, the game kept.
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), CONFIRM_GAME_LIGHTS);
    assert_eq!(m.controller.state(), State::HumanTurn);
    assert_eq!(*m.controller.record(), record);
    // Done is only the answer "go on": no move read, the turn's lights back.
    m.press(&mut h, Button::Done);
    assert_eq!(m.controller.state(), State::HumanTurn);
    assert_eq!(lit(&m), turn);
    // Asked again and left alone: after the time-out the game goes on.
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), CONFIRM_GAME_LIGHTS);
    m.run_until(&mut h, CONFIRM_GAME_MS + 500, |_| false);
    assert_eq!(lit(&m), turn);
    assert_eq!(*m.controller.record(), record);
    // Level twice: the game ends, as holding Start ends it (the board to clear).
    m.press(&mut h, Button::Level);
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.state(), State::Error(Problem::Abandoned));
    assert!(m.controller.record().is_empty());
    // Cleared: Setup. After a game's end (here the abandoned one's lights gone) the
    // game is chosen in Setup: Level shows it, then switches.
    m.world.borrow_mut().reset_pieces();
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), shows_game(Rules::TicTacToe));
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::Misere);
}

#[test]
fn after_a_game_level_first_brings_the_setup_lights_back() {
    // The lights of a finished game give way to Setup's with Level, as in the
    // tic-tac-toe image (the virtual board's operator relies on it); then Level is
    // the game button.
    let (mut m, _) = machine(5);
    let mut h = SimHuman::new(Style::Perfect, 0.0, 5);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Perfect));
    assert!(m.run_until(&mut h, 20 * 60_000, |m| matches!(
        m.controller.state(),
        State::Over(_)
    )));
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.state(), State::Setup);
    assert_eq!(m.controller.rules(), Rules::TicTacToe);
    let l = lit(&m);
    assert!(
        l & Light::DeviceTurn.bit() != 0 && l & Light::HumanTurn.bit() == 0,
        "{l:#x}"
    );
    m.press(&mut h, Button::Level);
    assert_eq!(lit(&m), shows_game(Rules::TicTacToe));
}
