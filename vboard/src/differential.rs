//! The differential check: the same games played by the image and by the host
//! simulator (`tictable_machine::sim::run::SimMachine`, the controller compiled for
//! the host over the same world) give the same moves.
//!
//! The firmware draws among equally good moves with a clock-stirred generator
//! (`RandomBestMove` over `ClockRng`), and the two boards' clocks differ, so equal
//! draws cannot be expected. Instead the image's games are recorded (every move,
//! as the person saw it played), then played again on the host, with the same world
//! seed and the same people, by a controller whose chooser ([`Replay`]) answers each
//! position it is asked about with the image's move there, but only when that move
//! is one of the candidates the firmware draws from (`tictable::best_moves`); else it
//! answers nothing (the host's game stops there) and the check fails with the
//! position and both answers. Then the two games must be the same: every move of
//! both sides in order, the result light, every cheat put back.
//!
//! The people's moves depend on the position alone (`SimHuman::script`,
//! [`people`]): their other draws (press lengths, delays, cheats) follow the
//! timing, which differs between the boards.

use crate::scenarios::{self, Plan, Report};
use crate::session::{Bench, GameResult, GameSpec};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use tictable::{Board, Square, Squares};
use tictable_machine::controller::MoveChooser;
use tictable_machine::sim::human::{SimHuman, Style};
use tictable_machine::sim::run::SimMachine;
use tictable_machine::sim::scenario::Scenario;
use tictable_machine::sim::world::{SimConfig, World};

/// The scenario's name.
pub const NAME: &str = "differential";

/// People whose moves depend on the position alone.
pub mod people {
    use tictable::{Board, Square};

    /// A perfect person: the lowest-numbered best move.
    pub fn perfect(b: &Board) -> Option<Square> {
        tictable::best_move(b)
    }

    /// A careless person: the lowest-numbered empty square.
    pub fn careless(b: &Board) -> Option<Square> {
        b.legal_moves().first()
    }

    /// A person who errs now and then: the highest-numbered empty square in
    /// about one position of three (by the position), else the lowest-numbered
    /// best move.
    pub fn wavering(b: &Board) -> Option<Square> {
        let legal = b.legal_moves();
        let h = u32::from(b.x()).wrapping_mul(31) ^ u32::from(b.o()).wrapping_mul(7);
        if h % 3 == 0 && !legal.is_empty() {
            legal.nth(legal.len() as usize - 1)
        } else {
            tictable::best_move(b)
        }
    }
}

/// A person's moves.
type Script = fn(&Board) -> Option<Square>;

/// The games: who plays (in words), how, how often they cheat, and whether the
/// device moves first.
pub const GAMES: [(&str, Script, f64, bool); 6] = [
    ("a perfect person", people::perfect, 0.0, true),
    ("a perfect person", people::perfect, 0.0, false),
    ("a careless person", people::careless, 0.0, true),
    ("a careless person", people::careless, 0.0, false),
    ("a wavering person", people::wavering, 0.0, false),
    (
        "a perfect person cheating half their turns",
        people::perfect,
        0.5,
        true,
    ),
];

/// The scenario on the image: on the calibrated flash, the [`GAMES`].
pub fn plan() -> Plan {
    let games: Vec<GameSpec> = GAMES
        .iter()
        .map(|&(_, script, cheat_rate, device_first)| GameSpec {
            script: Some(script),
            cheat_rate,
            device_first: Some(device_first),
            ..GameSpec::plain(Style::Perfect)
        })
        .collect();
    Plan {
        name: NAME,
        calibrated: true,
        cold_boot: false,
        bursts: vec![None; games.len()],
        games,
        ..scenarios::first()
    }
}

/// The image's moves, game by game, as the host's chooser: each position's move
/// if it is one of the best there.
#[derive(Debug, Default)]
pub struct Replay {
    /// For each game, the image's move in each position it moved in.
    games: Vec<HashMap<Board, Square>>,
    /// The game being replayed.
    game: Cell<usize>,
    /// What the host asked that the image's games do not answer, in words.
    pub mismatches: RefCell<Vec<String>>,
}

impl Replay {
    /// The device's moves of `games`, each a game's moves in order (the device's
    /// are those of the side to move when it is the device's turn: `device_first`
    /// says which).
    pub fn new(games: &[(bool, Vec<Square>)]) -> Replay {
        let games = games
            .iter()
            .map(|(device_first, moves)| {
                let device = if *device_first {
                    tictable::Player::X
                } else {
                    tictable::Player::O
                };
                let mut map = HashMap::new();
                let mut b = Board::EMPTY;
                for &m in moves {
                    if b.to_move() == device {
                        map.insert(b, m);
                    }
                    match b.play(m) {
                        Ok(next) => b = next,
                        Err(_) => break,
                    }
                }
                map
            })
            .collect();
        Replay {
            games,
            ..Replay::default()
        }
    }

    /// Replays game `i` from now on.
    pub fn select(&self, i: usize) {
        self.game.set(i);
    }
}

/// The squares as people number them, `{1, 5, 9}`.
fn numbered(s: Squares) -> String {
    let v: Vec<String> = s.iter().map(|s| (s.index() + 1).to_string()).collect();
    format!("{{{}}}", v.join(", "))
}

impl MoveChooser for &Replay {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        let best = tictable::best_moves(board)?;
        let image = self
            .games
            .get(self.game.get())
            .and_then(|g| g.get(board))
            .copied();
        match image {
            Some(m) if best.contains(m) => Some(m),
            _ => {
                // Said once: the host's controller asks again on every poll.
                let said = format!(
                    "position {board}: the image played {}, the host's candidates are {}",
                    image.map_or("nothing here".into(), |m| format!(
                        "square {}",
                        m.index() + 1
                    )),
                    numbered(best)
                );
                let mut m = self.mismatches.borrow_mut();
                if m.last() != Some(&said) {
                    m.push(said);
                }
                None
            }
        }
    }
}

/// A game's moves as people number the squares: `5 1 9 ...`.
fn moves_string(moves: &[Square]) -> String {
    let v: Vec<String> = moves.iter().map(|s| (s.index() + 1).to_string()).collect();
    v.join(" ")
}
/// A host world for the differential's game (as calibrated as the image's): `None`,
/// the reason one more of `violations`, when it cannot be made.
pub(crate) fn host_world(plan: &Plan, violations: &mut Vec<String>) -> Option<RefCell<World>> {
    match SimConfig::standard(0.0, 0.0, plan.bench.seed) {
        Ok(c) => Some(RefCell::new(World::new(c))),
        Err(e) => {
            violations.push(format!("differential: the host world: {e:?}"));
            None
        }
    }
}

/// The host machine in `world` choosing with `chooser`, calibrated: `None`, the
/// reason one more of `violations`, when it cannot be made.
pub(crate) fn host_machine<'a, C: MoveChooser>(
    world: &'a RefCell<World>,
    chooser: C,
    violations: &mut Vec<String>,
) -> Option<SimMachine<C, &'a RefCell<World>>> {
    match SimMachine::with_world(world, chooser) {
        Ok(m) => Some(m),
        Err(e) => {
            violations.push(format!("differential: the host machine: {e}"));
            None
        }
    }
}

/// The result light: Win, Draw, Loss (the device's), or none.
pub(crate) fn result(finished: bool, device_won: Option<bool>) -> &'static str {
    match (finished, device_won) {
        (false, _) => "no result",
        (true, Some(true)) => "Win",
        (true, Some(false)) => "Loss",
        (true, None) => "Draw",
    }
}

/// Plays the image's games of `r` (the report of `plan` run on the image) on the
/// host and compares them: [`Report::differential`] counts the games alike, each
/// difference is a violation.
pub fn compare(plan: &Plan, r: &mut Report) {
    let games: Vec<&GameResult> = r.games.iter().collect();
    r.differential = (0, games.len() as u32);
    let replay = Replay::new(
        &games
            .iter()
            .map(|g| (g.device_first, g.moves.clone()))
            .collect::<Vec<_>>(),
    );
    let mut found = vec![];
    let mut agreed = 0;
    for (i, (g, spec)) in games.iter().zip(&plan.games).enumerate() {
        replay.select(i);
        replay.mismatches.borrow_mut().clear();
        let scenario = Scenario {
            cheat_rate: spec.cheat_rate,
            ..Scenario::game(g.device_first, None, spec.style)
        };
        // A machine of its own for each game (as calibrated as the image's): a
        // game the host could not go on with does not stop the next.
        let Some(world) = host_world(plan, &mut r.violations) else {
            return;
        };
        let Some(mut host) = host_machine(&world, &replay, &mut r.violations) else {
            return;
        };
        let mut human = SimHuman::new(spec.style, spec.cheat_rate, Bench::default().seed ^ 0x5EED);
        human.script = spec.script;
        let h = host.play_scenario(&scenario, &mut human, &mut || &replay, None);
        let host_moves: Vec<Square> = host.controller.record().moves().collect();
        let mut diffs: Vec<String> = replay.mismatches.borrow().clone();
        if host_moves != g.moves {
            diffs.push(format!(
                "moves: image {}, host {}",
                moves_string(&g.moves),
                moves_string(&host_moves)
            ));
        }
        let (image_result, host_result) = (
            result(g.finished, g.device_won),
            result(h.finished, h.device_won),
        );
        if image_result != host_result {
            diffs.push(format!(
                "result light: image {image_result}, host {host_result}"
            ));
        }
        if g.restored < g.cheats {
            diffs.push(format!(
                "image: {} of {} cheats put back",
                g.restored, g.cheats
            ));
        }
        if let Err(v) = scenario.check(&h) {
            diffs.push(format!("host: {v}"));
        }
        r.log.push(format!(
            "differential game {} ({}, device {}): image {} {image_result} ({}/{} cheats put back), host {} {host_result} ({}/{})",
            i + 1,
            GAMES.get(i).map_or("?", |g| g.0),
            if g.device_first { "first" } else { "second" },
            moves_string(&g.moves),
            g.restored,
            g.cheats,
            moves_string(&host_moves),
            h.restores,
            h.cheats
        ));
        if diffs.is_empty() {
            agreed += 1;
        } else {
            found.push(format!("game {}: {}", i + 1, diffs.join("; ")));
        }
    }
    r.differential.0 = agreed;
    r.violations
        .extend(found.into_iter().map(|d| format!("differential {d}")));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: u8) -> Square {
        Square::new(i).unwrap()
    }

    #[test]
    fn the_image_move_is_given_when_it_is_a_best_move() {
        // X (the device) took 5, O took 1; X's best moves include the corners.
        let replay = Replay::new(&[(true, vec![sq(4), sq(0), sq(8)])]);
        let b: Board = "O...X....".parse().unwrap();
        assert!(tictable::best_moves(&b).unwrap().contains(sq(8)));
        assert_eq!((&replay).choose(&b), Some(sq(8)));
        assert!(replay.mismatches.borrow().is_empty());
    }

    #[test]
    fn a_move_that_is_not_best_or_not_recorded_is_refused_with_both_answers() {
        // X 1, O 4, X 2, O 5: X wins on 3; any other move is not one of the best.
        let b: Board = "XX.OO....".parse().unwrap();
        let best = tictable::best_moves(&b).unwrap();
        let bad = Square::ALL
            .into_iter()
            .find(|s| b.get(*s).is_none() && !best.contains(*s));
        let bad = bad.expect("a position with a move that is not best");
        let replay = Replay::new(&[(true, vec![sq(0), sq(3), sq(1), sq(4), bad])]);
        assert_eq!((&replay).choose(&b), None);
        let m = replay.mismatches.borrow();
        assert!(
            m[0].contains(&format!("the image played square {}", bad.index() + 1))
                && m[0].contains("the host's candidates are {"),
            "{m:?}"
        );
        // A position the image never moved in.
        let other: Board = "X........".parse().unwrap();
        drop(m);
        assert_eq!((&replay).choose(&other), None);
        assert!(replay.mismatches.borrow()[1].contains("nothing here"));
    }

    #[test]
    fn the_people_play_legal_moves_by_the_position_alone() {
        for p in [people::perfect, people::careless, people::wavering] {
            let mut b = Board::EMPTY;
            while let Some(m) = p(&b) {
                assert_eq!(b.get(m), None);
                assert_eq!(p(&b), Some(m), "the same position, the same move");
                b = b.play(m).unwrap();
                if b.winner().is_some() {
                    break;
                }
            }
        }
    }
}
