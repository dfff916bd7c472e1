//! Checks of a solved table that do not trust the solver: every reachable position's
//! record must agree with its children's ([`consistency`]), and, for games without
//! repeats, with a plain search from the position ([`live`]).

use crate::game::{Game, Outcome};
use crate::solver::{class_key, combine, Record, Solution};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// A table entry that its children (or the live search) contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// The position, as people write it.
    pub position: String,
    /// What the table holds (`None`: the position is missing).
    pub stored: Option<Record>,
    /// Why it is wrong.
    pub reason: &'static str,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stored {
            Some(r) => write!(
                f,
                "position {}: the table says {} in {}, but {}",
                self.position, r.outcome, r.remoteness, self.reason
            ),
            None => write!(f, "position {}: {}", self.position, self.reason),
        }
    }
}

impl core::error::Error for CheckError {}

/// Checks every reachable position (one per symmetry class, found by walking the game
/// from the start, not from the table) against its children:
/// - a finished position has its primitive value and remoteness 0;
/// - a won position has a child lost for the opponent at remoteness - 1 and none nearer;
/// - a lost position has only children won for the opponent, the farthest at
///   remoteness - 1;
/// - a drawn position has a drawn child and no lost one;
///
/// and the table holds no entry for a position that is not reachable. Returns the
/// number of classes checked.
///
/// ```
/// use tictable_games::{check, solve, TicTacToe};
/// let mut solution = solve(TicTacToe::normal()).unwrap();
/// assert_eq!(check::consistency(&solution), Ok(765));
/// solution.table_mut()[0] ^= 0x40; // the empty board: draw becomes loss
/// assert!(check::consistency(&solution).is_err());
/// ```
pub fn consistency<G: Game>(solution: &Solution<G>) -> Result<u64, CheckError> {
    let game = solution.game();
    let key_space = game.key_space();
    let mut seen = vec![0u64; key_space.div_ceil(64) as usize];
    let mut stack = vec![game.start()];
    let start_key = class_key(game, &stack[0]);
    seen[(start_key / 64) as usize] |= 1 << (start_key % 64);
    let mut moves = Vec::new();
    let mut children: Vec<Record> = Vec::new();
    let mut checked = 0u64;
    while let Some(position) = stack.pop() {
        checked += 1;
        let error = |stored, reason| CheckError {
            position: game.write_position(&position, crate::Notation::People),
            stored,
            reason,
        };
        let Some(record) = solution.get(&position) else {
            return Err(error(
                None,
                "a reachable position is missing from the table",
            ));
        };
        moves.clear();
        children.clear();
        if let Some(outcome) = game.primitive(&position) {
            if record != Record::from((outcome, 0)) {
                return Err(error(
                    Some(record),
                    "the game is over: its primitive value at remoteness 0",
                ));
            }
            continue;
        }
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let child = game.play(&position, mv);
            let Some(child_record) = solution.get(&child) else {
                return Err(error(Some(record), "a child is missing from the table"));
            };
            children.push(child_record);
            let key = class_key(game, &child);
            if seen[(key / 64) as usize] >> (key % 64) & 1 == 0 {
                seen[(key / 64) as usize] |= 1 << (key % 64);
                stack.push(child);
            }
        }
        let remoteness_of = |outcome| {
            children
                .iter()
                .filter(move |c| c.outcome == outcome)
                .map(|c| c.remoteness)
        };
        let r = record.remoteness;
        let ok = match record.outcome {
            Outcome::Win => r >= 1 && remoteness_of(Outcome::Loss).min() == Some(r - 1),
            Outcome::Loss => {
                !children.is_empty()
                    && children.iter().all(|c| c.outcome == Outcome::Win)
                    && remoteness_of(Outcome::Win).max() == Some(r.wrapping_sub(1))
            }
            Outcome::Draw => {
                r == 0
                    && remoteness_of(Outcome::Loss).next().is_none()
                    && remoteness_of(Outcome::Draw).next().is_some()
            }
        };
        if !ok {
            return Err(error(
                Some(record),
                match record.outcome {
                    Outcome::Win => "no child is lost at remoteness - 1, or one is lost nearer",
                    Outcome::Loss => {
                        "not every child is won, or the farthest is not at remoteness - 1"
                    }
                    Outcome::Draw => "a child is lost for the opponent, or none is drawn",
                },
            ));
        }
    }
    let stored = solution
        .table()
        .iter()
        .filter(|&&b| Record::decode(b).is_some())
        .count() as u64;
    if stored != checked {
        return Err(CheckError {
            position: String::from("(table)"),
            stored: None,
            reason: "the table holds entries for positions that are not reachable",
        });
    }
    Ok(checked)
}

/// The record of `position` by a plain minimax search of every line of play (no table,
/// no memory), or `None` when it would visit more than `budget` positions. Only for
/// games without repeats.
///
/// ```
/// use tictable_games::{check, Game, Outcome, TicTacToe};
/// let game = TicTacToe::normal();
/// let record = check::search(&game, &game.start(), &mut 1_000_000).unwrap();
/// assert_eq!((record.outcome, record.remoteness), (Outcome::Draw, 0));
/// ```
pub fn search<G: Game>(game: &G, position: &G::Position, budget: &mut u64) -> Option<Record> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Some(outcome) = game.primitive(position) {
        return Some((outcome, 0).into());
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut children = Vec::with_capacity(moves.len());
    for mv in moves {
        children.push(search(game, &game.play(position, mv), budget)?);
    }
    combine(children)
}

/// Compares the table with [`search`] from every reachable class whose search visits at
/// most `budget` positions. Returns how many were compared and how many skipped.
///
/// ```
/// use tictable_games::{check, solve, Hexapawn};
/// let solution = solve(Hexapawn).unwrap();
/// let (compared, skipped) = check::live(&solution, u64::MAX).unwrap();
/// assert_eq!(skipped, 0);
/// assert_eq!(compared, solution.summary().classes.total());
/// ```
pub fn live<G: Game>(solution: &Solution<G>, budget: u64) -> Result<(u64, u64), CheckError> {
    let game = solution.game();
    let mut seen = vec![0u64; game.key_space().div_ceil(64) as usize];
    let mut stack = vec![game.start()];
    let (mut compared, mut skipped) = (0, 0);
    let mut moves = Vec::new();
    while let Some(position) = stack.pop() {
        let key = class_key(game, &position);
        if seen[(key / 64) as usize] >> (key % 64) & 1 != 0 {
            continue;
        }
        seen[(key / 64) as usize] |= 1 << (key % 64);
        let stored = solution.get(&position);
        match search(game, &position, &mut budget.clone()) {
            Some(found) if Some(found) == stored => compared += 1,
            Some(_) => {
                return Err(CheckError {
                    position: game.write_position(&position, crate::Notation::People),
                    stored,
                    reason: "the live search finds another value or remoteness",
                })
            }
            None => skipped += 1,
        }
        moves.clear();
        if game.primitive(&position).is_none() {
            game.moves(&position, &mut moves);
        }
        stack.extend(moves.iter().map(|&mv| game.play(&position, mv)));
    }
    Ok((compared, skipped))
}
