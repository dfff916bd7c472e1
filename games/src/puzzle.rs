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
//! The Connect Four boards too large to solve whole (`connect4:4x6`, `6x4`, `5x5`:
//! [`search::searched_live`](crate::search::searched_live)) get their puzzles from the
//! exact live search instead: [`find_live`] draws random positions (random games of a
//! random length, from a seed) and keeps the first the search finds to be a puzzle of
//! the chosen remoteness ([`puzzle_live`]), within a bound on the positions tried;
//! [`judge_live`] judges as the search does and [`hint_in`] needs no table.
//!
//! ```
//! use tictable_games::{puzzle, solve, TicTacToe};
//! let solution = solve(TicTacToe::normal()).unwrap();
//! let counts = puzzle::counts(&solution);
//! // Win in 1: a single winning square.
//! assert!(counts[&1].positions >= counts[&1].classes);
//! ```

use crate::connect_four::{Connect4Position, ConnectFour};
use crate::game::{Game, Outcome};
use crate::search::Searcher;
use crate::solver::{canonical, class_key, Record, Solution};
use crate::strategy::perfect_moves;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

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
    Some(failed(child))
}

/// The verdict on a move that does not keep the win: the record of the position it
/// leads to (`child`, for the opponent) as the mover's, the move counted.
fn failed(child: Record) -> Verdict {
    Verdict::Failed(Record::from((
        child.outcome.flip(),
        child.remoteness.saturating_add(1),
    )))
}

/// A hint: the answer and the legal moves after it in move order (round to the first),
/// half the legal moves (rounded up) but at least two when there are two, in move order:
/// "the winning move is one of these".
pub fn hint<G: Game>(solution: &Solution<G>, puzzle: &Puzzle<G>) -> Vec<G::Move> {
    hint_in(solution.game(), puzzle)
}

/// The [`hint`] of `puzzle` in `game`: it needs the answer only, not the table (the
/// live search's puzzles use it too).
pub fn hint_in<G: Game>(game: &G, puzzle: &Puzzle<G>) -> Vec<G::Move> {
    let mut legal = Vec::new();
    game.moves(&puzzle.position, &mut legal);
    let keep = legal.len().div_ceil(2).max(2).min(legal.len());
    let at = legal.iter().position(|&m| m == puzzle.answer).unwrap_or(0);
    let mut shown: Vec<G::Move> = legal.iter().cycle().skip(at).take(keep).copied().collect();
    shown.sort_by_key(|m| legal.iter().position(|l| l == m));
    shown
}

/// The puzzle `position` is by the live search, if it is one: the side to move wins
/// (its record from the search) and exactly one move leads to a position lost for the
/// opponent (Connect Four has no repeated positions, so any such move keeps the win,
/// as [`perfect_moves`] has it). Stops at the second winning move found.
pub fn puzzle_live(
    searcher: &mut Searcher,
    position: &Connect4Position,
) -> Option<Puzzle<ConnectFour>> {
    let game = *searcher.game();
    if game.primitive(position).is_some() {
        return None;
    }
    let record = searcher.record(position);
    if record.outcome != Outcome::Win {
        return None;
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut answer = None;
    for mv in moves {
        if searcher.record(&game.play(position, mv)).outcome == Outcome::Loss {
            if answer.is_some() {
                return None;
            }
            answer = Some(mv);
        }
    }
    Some(Puzzle {
        position: *position,
        answer: answer?,
        remoteness: record.remoteness,
    })
}

/// Why [`find_live`] served no puzzle: none of the positions it tried was one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotFound {
    /// The remoteness asked for (`None`: any).
    pub remoteness: Option<u8>,
    /// The random positions tried.
    pub tries: u32,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no puzzle")?;
        if let Some(r) = self.remoteness {
            write!(f, " won in {r} plies")?;
        }
        write!(
            f,
            " found within {} tries (random positions, each judged by the search)",
            self.tries
        )?;
        if self.remoteness.is_some_and(|r| r % 2 == 0) {
            // The winner makes the last move, so a win takes an odd number of plies.
            f.write_str("; in Connect Four a win always takes an odd number of plies")?;
        }
        Ok(())
    }
}

/// How many random positions [`find_live`] tries by default: enough for every
/// remoteness the large boards' puzzles commonly have (docs/puzzles.md has their
/// exact counts), bounded so a rare one ends in [`NotFound`] within seconds.
pub const LIVE_TRIES: u32 = 2_000;

/// A puzzle of `remoteness` plies (any when `None`) for a board searched live, found
/// at random: each try plays a random game from the start (uniform legal moves,
/// `rng`) for a random number of plies (uniform from 0 to the most that leave
/// `remoteness` plies on the board, or one), and the position reached is kept when
/// the search finds it a puzzle of that remoteness ([`puzzle_live`]). The same `rng`
/// state serves the same puzzle; at most `tries` positions are searched, then
/// [`NotFound`].
pub fn find_live<R: rand_core::Rng + ?Sized>(
    searcher: &mut Searcher,
    remoteness: Option<u8>,
    rng: &mut R,
    tries: u32,
) -> Result<Puzzle<ConnectFour>, NotFound> {
    let game = *searcher.game();
    let cells = (game.width() * game.height()) as u32;
    let not_found = NotFound { remoteness, tries };
    // A win needs at least one ply; a position with n pieces has cells - n left.
    let most = cells
        .checked_sub(u32::from(remoteness.unwrap_or(1)))
        .filter(|_| remoteness != Some(0))
        .ok_or(not_found)?;
    let mut moves = Vec::new();
    for _ in 0..tries {
        let plies = tictable::strategy::below(rng, most + 1);
        let mut position = game.start();
        for _ in 0..plies {
            if game.primitive(&position).is_some() {
                break;
            }
            moves.clear();
            game.moves(&position, &mut moves);
            let mv = moves[tictable::strategy::below(rng, moves.len() as u32) as usize];
            position = game.play(&position, mv);
        }
        if game.primitive(&position).is_some() {
            continue;
        }
        // The position's own record first: most candidates fail there, one search.
        let record = searcher.record(&position);
        if record.outcome != Outcome::Win || remoteness.is_some_and(|r| r != record.remoteness) {
            continue;
        }
        if let Some(p) = puzzle_live(searcher, &position) {
            return Ok(p);
        }
    }
    Err(not_found)
}

/// [`judge`] by the live search: solved when `answer` leads to a position lost for the
/// opponent in a position the side to move wins; otherwise what the position after it
/// is worth to the mover. `None` for a move that is not legal there.
pub fn judge_live(
    searcher: &mut Searcher,
    position: &Connect4Position,
    answer: u8,
) -> Option<Verdict> {
    let game = *searcher.game();
    let mut legal = Vec::new();
    if game.primitive(position).is_none() {
        game.moves(position, &mut legal);
    }
    if !legal.contains(&answer) {
        return None;
    }
    let child = searcher.record(&game.play(position, answer));
    if child.outcome == Outcome::Loss && searcher.record(position).outcome == Outcome::Win {
        return Some(Verdict::Solved);
    }
    Some(failed(child))
}
