//! Puzzles from the table: the reachable positions where the side to move wins and
//! exactly one move keeps the win ([`perfect_moves`]: in games without repeats, the one
//! move into a position lost for the opponent), grouped by remoteness ("win in 3": the
//! side to move wins on its second move from here, 3 plies).
//!
//! [`counts`] counts them exactly from the solved table, both ways: symmetry classes
//! (one per class of positions equal up to the board's symmetries: what the table
//! holds) and raw positions (every image counted). [`pick`] serves one at random within
//! a remoteness, [`judge`] judges an answer as the table does, [`hint`] narrows the
//! choice.
//!
//! ```
//! use tictable_games::{puzzle, solve, TicTacToe};
//! let solution = solve(TicTacToe::normal()).unwrap();
//! let counts = puzzle::counts(&solution);
//! // Win in 1: a single winning square.
//! assert!(counts[&1].positions >= counts[&1].classes);
//! ```

use crate::game::{Game, Outcome};
use crate::solver::{canonical, class_key, Record, Solution};
use crate::strategy::perfect_moves;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// How many puzzles of one remoteness a game has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Symmetry classes (one per class of positions equal up to a symmetry).
    pub classes: u64,
    /// Positions, every image of a class counted.
    pub positions: u64,
}

/// A puzzle: a position, its one winning move and the remoteness of the win.
#[derive(Debug, PartialEq, Eq)]
pub struct Puzzle<G: Game> {
    /// The position, the side to move winning.
    pub position: G::Position,
    /// The one move that keeps the win.
    pub answer: G::Move,
    /// Plies to the win under perfect play.
    pub remoteness: u8,
}

/// The puzzle `position` is, if it is one: the side to move wins and exactly one move
/// keeps the win.
pub fn puzzle_at<G: Game>(solution: &Solution<G>, position: &G::Position) -> Option<Puzzle<G>> {
    let record = solution.get(position)?;
    if record.outcome != Outcome::Win || solution.game().primitive(position).is_some() {
        return None;
    }
    match perfect_moves(solution, position).as_slice() {
        &[answer] => Some(Puzzle {
            position: *position,
            answer,
            remoteness: record.remoteness,
        }),
        _ => None,
    }
}

/// Calls `visit` once per reachable symmetry class (its first position met, from the
/// start) with the number of distinct positions in the class. Memory: one bit per key.
fn each_class<G: Game>(solution: &Solution<G>, mut visit: impl FnMut(&G::Position, u64)) {
    let game = solution.game();
    let mut seen = alloc::vec![0u64; (game.key_space() as usize).div_ceil(64)];
    let mut mark = |key: u64| {
        let (word, bit) = ((key / 64) as usize, key % 64);
        let new = seen[word] >> bit & 1 == 0;
        seen[word] |= 1 << bit;
        new
    };
    let start = game.start();
    mark(class_key(game, &start));
    let mut stack = Vec::from([start]);
    let mut moves = Vec::new();
    while let Some(position) = stack.pop() {
        let (_, orbit) = canonical(game, &position);
        visit(&position, orbit);
        if game.primitive(&position).is_some() {
            continue;
        }
        moves.clear();
        game.moves(&position, &mut moves);
        for &mv in &moves {
            let child = game.play(&position, mv);
            if mark(class_key(game, &child)) {
                stack.push(child);
            }
        }
    }
}

/// The puzzles of the game per remoteness, counted exactly over every reachable
/// position (classes and raw positions).
pub fn counts<G: Game>(solution: &Solution<G>) -> BTreeMap<u8, Count> {
    let mut counts: BTreeMap<u8, Count> = BTreeMap::new();
    each_class(solution, |position, orbit| {
        if let Some(p) = puzzle_at(solution, position) {
            let count = counts.entry(p.remoteness).or_default();
            count.classes += 1;
            count.positions += orbit;
        }
    });
    counts
}

/// Every puzzle of remoteness `remoteness` (every remoteness when `None`), one per
/// symmetry class, in the order met.
pub fn all<G: Game>(solution: &Solution<G>, remoteness: Option<u8>) -> Vec<Puzzle<G>> {
    let mut out = Vec::new();
    each_class(solution, |position, _| {
        if let Some(p) = puzzle_at(solution, position) {
            if remoteness.is_none_or(|r| r == p.remoteness) {
                out.push(p);
            }
        }
    });
    out
}

/// One puzzle of `remoteness` (any when `None`) drawn uniformly over the classes with
/// `rng`, shown under a random symmetry of the board; `None` when the game has none.
pub fn pick<G: Game, R: rand_core::Rng + ?Sized>(
    solution: &Solution<G>,
    remoteness: Option<u8>,
    rng: &mut R,
) -> Option<Puzzle<G>> {
    let mut puzzles = all(solution, remoteness);
    let n = u32::try_from(puzzles.len()).ok().filter(|&n| n > 0)?;
    let chosen = puzzles.swap_remove(tictable::strategy::below(rng, n) as usize);
    let game = solution.game();
    let symmetry = tictable::strategy::below(rng, game.symmetries() as u32) as usize;
    let shown = game.transform(&chosen.position, symmetry);
    puzzle_at(solution, &shown).or(Some(chosen))
}

/// What an answer to a puzzle did, judged by the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The one move that keeps the win.
    Solved,
    /// Another move: what it leaves the solver with (its record for the side that
    /// moved: a draw, or a loss in so many plies).
    Failed(Record),
}

/// Judges `answer` in the puzzle `position` as the table does: solved when the move
/// keeps the win; otherwise what the position after it is worth to the mover. `None`
/// for a move that is not legal there or a position not in the table.
pub fn judge<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    answer: G::Move,
) -> Option<Verdict> {
    let game = solution.game();
    let mut legal = Vec::new();
    if game.primitive(position).is_none() {
        game.moves(position, &mut legal);
    }
    if !legal.contains(&answer) {
        return None;
    }
    if perfect_moves(solution, position).contains(&answer)
        && solution.get(position)?.outcome == Outcome::Win
    {
        return Some(Verdict::Solved);
    }
    let child = solution.get(&game.play(position, answer))?;
    Some(Verdict::Failed(Record::from((
        child.outcome.flip(),
        child.remoteness.saturating_add(1),
    ))))
}

/// A hint: the answer and the legal moves after it in move order (round to the first),
/// half the legal moves (rounded up) but at least two when there are two, in move order:
/// "the winning move is one of these".
pub fn hint<G: Game>(solution: &Solution<G>, puzzle: &Puzzle<G>) -> Vec<G::Move> {
    let game = solution.game();
    let mut legal = Vec::new();
    game.moves(&puzzle.position, &mut legal);
    let keep = legal.len().div_ceil(2).max(2).min(legal.len());
    let at = legal.iter().position(|&m| m == puzzle.answer).unwrap_or(0);
    let mut shown: Vec<G::Move> = legal.iter().cycle().skip(at).take(keep).copied().collect();
    shown.sort_by_key(|m| legal.iter().position(|l| l == m));
    shown
}
