//! Choosing the game with the panel's buttons (feature `games`, the simulated
//! machine): Level shows the game in Setup and after a game, then cycles the games,
//! the lights saying which (both turn lights, the number in binary on Lamp, Win,
//! Draw, Loss), the setup's lights those of tic-tac-toe until Level, the choice
//! survives a power cut (the snapshot's game byte), and Level in the person's turn
//! asks for confirmation (every light) before it ends a game: never a silent reset.

use std::cell::Cell;
use std::rc::Rc;
use tictable::{Board, Square};
use tictable_machine::controller::{
    GameSetup, Move, MoveChooser, Position, Problem, Rules, State, TableChooser,
    CONFIRM_GAME_LIGHTS, CONFIRM_GAME_MS,
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

/// A game against a perfect person, the machine first, played to its end.
fn play_to_the_end<C: MoveChooser>(m: &mut HostMachine<C>, h: &mut SimHuman) {
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, h, Style::Perfect));
    assert!(m.run_until(h, 20 * 60_000, |m| matches!(
        m.controller.state(),
        State::Over(_)
    )));
}

#[test]
fn after_a_game_level_first_brings_the_setup_lights_back() {
    // The lights of a finished game give way to Setup's with Level, as in the
    // tic-tac-toe image (the virtual board's operator relies on it); then Level is
    // the game button.
    let (mut m, _) = machine(5);
    let mut h = SimHuman::new(Style::Perfect, 0.0, 5);
    play_to_the_end(&mut m, &mut h);
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

/// The six games' chooser on a flash that can be damaged while the machine runs: a
/// game whose bit is set in `damaged` no longer reads back (its choice refused, as
/// [`TableChooser`]'s CRC check refuses it, and no move from it); it counts the
/// level steps asked of it.
#[derive(Clone)]
struct Damaged {
    inner: TableChooser<SplitMix64>,
    damaged: Rc<Cell<u8>>,
    level_steps: Rc<Cell<u32>>,
}

impl Damaged {
    fn reads_back(&self, rules: Rules) -> bool {
        self.damaged.get() >> rules.code() & 1 == 0
    }
}

impl MoveChooser for Damaged {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        let rules = self.inner.rules();
        self.reads_back(rules).then(|| self.inner.choose(board))?
    }
    fn choose_move(&mut self, p: &Position) -> Option<Move> {
        let rules = self.inner.rules();
        self.reads_back(rules).then(|| self.inner.choose_move(p))?
    }
    fn next_level(&mut self) {
        self.level_steps.set(self.level_steps.get() + 1);
    }
    fn rules(&self) -> Rules {
        self.inner.rules()
    }
    fn set_rules(&mut self, rules: Rules) -> bool {
        self.reads_back(rules) && self.inner.set_rules(rules)
    }
    fn plays(&self, rules: Rules) -> bool {
        self.inner.plays(rules)
    }
}

/// A machine with a [`Damaged`] chooser on tic-tac-toe, in Setup; the damage and
/// level-step counters to steer and read.
fn damaged_machine(seed: u64) -> (HostMachine<Damaged>, Rc<Cell<u8>>, Rc<Cell<u32>>) {
    let (damaged, level_steps) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let chooser = Damaged {
        inner: TableChooser::new(Rules::TicTacToe, SplitMix64::new(seed)).unwrap(),
        damaged: damaged.clone(),
        level_steps: level_steps.clone(),
    };
    let mut m = HostMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), chooser).unwrap();
    let mut h = SimHuman::passive(seed);
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
    (m, damaged, level_steps)
}

/// The lights lit now (a [`Damaged`] machine).
fn lit_damaged(m: &HostMachine<Damaged>) -> u8 {
    Light::ALL
        .into_iter()
        .filter(|&l| m.controller.hardware().panel.is_lit(l))
        .fold(0, |bits, l| bits | l.bit())
}

#[test]
fn a_game_whose_table_no_longer_reads_back_is_skipped_with_the_error_light_and_the_chooser_never_leaves_the_record(
) {
    let (mut m, damaged, _) = damaged_machine(7);
    let mut h = SimHuman::passive(7);
    // The flash under tic-tac-toe's table is damaged after boot: the first Level
    // press finds it, and goes on to the next game that reads back (misère), said
    // with the Error light; the chooser and the record agree on it.
    damaged.set(1 << Rules::TicTacToe.code());
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::Misere);
    assert_eq!(m.controller.record().game(), m.controller.rules());
    assert_eq!(
        lit_damaged(&m),
        shows_game(Rules::Misere) | Light::Error.bit()
    );
    // Chosen again: the next game, no error.
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::ThreeMensMorris);
    assert_eq!(m.controller.record().game(), Rules::ThreeMensMorris);
    assert_eq!(lit_damaged(&m), shows_game(Rules::ThreeMensMorris));
    // Tapatan damaged: skipped to achi with the Error light; then hexapawn, and
    // round past the damaged tic-tac-toe to misère again.
    damaged.set(damaged.get() | 1 << Rules::Tapatan.code());
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::Achi);
    assert_eq!(m.controller.record().game(), Rules::Achi);
    assert_eq!(
        lit_damaged(&m),
        shows_game(Rules::Achi) | Light::Error.bit()
    );
    m.press(&mut h, Button::Level);
    assert_eq!(lit_damaged(&m), shows_game(Rules::Hexapawn));
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::Misere);
    assert_eq!(m.controller.record().game(), Rules::Misere);
    assert_eq!(
        lit_damaged(&m),
        shows_game(Rules::Misere) | Light::Error.bit()
    );
    // Side shows the setup again, the error gone with the game display.
    m.press(&mut h, Button::Side);
    let l = lit_damaged(&m);
    assert_eq!(l & Light::Error.bit(), 0, "{l:#x}");
    // The game in use is one whose table the machine really uses: a whole game of
    // misère plays to its end, no error light on the way.
    let mut h = SimHuman::new(Style::Perfect, 0.0, 7);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Perfect));
    assert!(m.run_until(&mut h, 20 * 60_000, |m| matches!(
        m.controller.state(),
        State::Over(_) | State::Error(_)
    )));
    assert!(
        matches!(m.controller.state(), State::Over(_)),
        "{:?}",
        m.controller.state()
    );
    assert_eq!(m.controller.rules(), Rules::Misere);
}

#[test]
fn asking_whether_level_is_the_game_button_never_switches_the_game_mid_game() {
    // Level in the person's turn asks whether the chooser plays other games: with
    // the game in use damaged meanwhile, that question must not move the chooser to
    // another game under the record's feet.
    let (mut m, damaged, _) = damaged_machine(9);
    let mut h = SimHuman::passive(9);
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    assert!(m.start_game(setup, &mut h, Style::Perfect));
    assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::HumanTurn));
    damaged.set(1 << Rules::TicTacToe.code());
    m.press(&mut h, Button::Level);
    assert_eq!(lit_damaged(&m), CONFIRM_GAME_LIGHTS);
    assert_eq!(m.controller.rules(), Rules::TicTacToe);
    assert_eq!(m.controller.record().game(), Rules::TicTacToe);
}

#[test]
fn after_a_game_level_steps_no_level_in_a_games_build() {
    // firmware/README.md: in a `games` build Level chooses the game; after a game
    // it brings Setup's lights back, and never asks the chooser for its next level.
    let (mut m, _, level_steps) = damaged_machine(11);
    let mut h = SimHuman::new(Style::Perfect, 0.0, 11);
    play_to_the_end(&mut m, &mut h);
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.state(), State::Setup);
    m.press(&mut h, Button::Level);
    m.press(&mut h, Button::Level);
    assert_eq!(m.controller.rules(), Rules::Misere);
    assert_eq!(level_steps.get(), 0, "Level stepped a level");
}
