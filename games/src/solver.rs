//! The generic solver: a value and a remoteness for every reachable position of any
//! [`Game`], in a dense table of one byte per key of a symmetry class.
//!
//! Games without repeats are solved by a memoized depth-first search (each position
//! once); games whose positions repeat by retrograde analysis: the positions and their
//! children are enumerated once, the parents found by inverting the children, and values
//! propagate from the finished positions level by level (a position with a lost child is
//! won at the next level, a position whose children are all won is lost once the last of
//! them is decided); what no side can force is a draw.

use crate::game::{Game, Outcome};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The value of a position for the side to move and its remoteness: the plies to the
/// end with perfect play (the winner hurries, the loser delays); 0 for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Win, draw or loss for the side to move.
    pub outcome: Outcome,
    /// Plies to the end under perfect play (0 for draws and finished positions).
    pub remoteness: u8,
}

impl From<(Outcome, u8)> for Record {
    fn from((outcome, remoteness): (Outcome, u8)) -> Record {
        Record {
            outcome,
            remoteness,
        }
    }
}

/// The largest remoteness a table byte holds.
pub const MAX_REMOTENESS: u8 = 63;
/// A table byte of a position being searched (games without repeats detect a cycle).
const IN_PROGRESS: u8 = 1;

impl Record {
    /// The table byte: 0 for a position not reached, else `(outcome + 1) << 6 | remoteness`.
    ///
    /// ```
    /// use tictable_games::{Outcome, Record};
    /// let r = Record::from((Outcome::Win, 5));
    /// assert_eq!(Record::decode(r.encode()), Some(r));
    /// assert_eq!(Record::decode(0), None);
    /// ```
    pub const fn encode(self) -> u8 {
        ((self.outcome as u8) + 1) << 6 | (self.remoteness & MAX_REMOTENESS)
    }

    /// The record of a table byte, `None` for a position not reached.
    pub const fn decode(byte: u8) -> Option<Record> {
        let outcome = match byte >> 6 {
            1 => Outcome::Loss,
            2 => Outcome::Draw,
            3 => Outcome::Win,
            _ => return None,
        };
        Some(Record {
            outcome,
            remoteness: byte & MAX_REMOTENESS,
        })
    }
}

/// Why a game could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The table would need more memory than allowed.
    TooLarge {
        /// The bytes the table would take.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// A key at or above the game's key space.
    KeyOutOfRange {
        /// The key.
        key: u64,
        /// The key space.
        key_space: u64,
    },
    /// A game declared without repeats came back to a position being searched.
    Repeats,
    /// A position without legal moves that the game does not call finished.
    NoMovesNotFinished,
    /// A remoteness above what a table byte holds.
    RemotenessTooLarge,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge { needed, limit } => write!(
                f,
                "the table would need {needed} bytes ({:.1} GiB), more than the limit of {limit} bytes",
                *needed as f64 / (1u64 << 30) as f64
            ),
            SolveError::KeyOutOfRange { key, key_space } => {
                write!(f, "the game gave key {key}, not below its key space {key_space}")
            }
            SolveError::Repeats => f.write_str(
                "a position repeats in a game declared without repeats (declare `repeats`)",
            ),
            SolveError::NoMovesNotFinished => {
                f.write_str("a position has no legal move but the game does not call it finished")
            }
            SolveError::RemotenessTooLarge => {
                write!(f, "a remoteness above {MAX_REMOTENESS}, more than a table byte holds")
            }
        }
    }
}

impl core::error::Error for SolveError {}

/// How much the solver may use and whom it tells of its progress.
pub struct Options<'a> {
    /// The largest table, in bytes (one byte per key).
    pub memory_limit: u64,
    /// Called now and then with the number of positions (symmetry classes) solved.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            memory_limit: 4 << 30,
            progress: None,
        }
    }
}

/// Counts of reachable positions by value for the side to move, terminal ones included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won for the side to move.
    pub win: u64,
    /// Positions drawn.
    pub draw: u64,
    /// Positions lost for the side to move.
    pub loss: u64,
    /// Finished positions.
    pub terminal: u64,
}

impl Counts {
    /// All positions counted.
    pub const fn total(&self) -> u64 {
        self.win + self.draw + self.loss
    }

    fn add(&mut self, record: Record, terminal: bool, weight: u64) {
        match record.outcome {
            Outcome::Win => self.win += weight,
            Outcome::Draw => self.draw += weight,
            Outcome::Loss => self.loss += weight,
        }
        if terminal {
            self.terminal += weight;
        }
    }
}

/// What the solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Reachable positions.
    pub positions: u64,
    /// Reachable positions by value.
    pub all: Counts,
    /// Symmetry classes of reachable positions by value.
    pub classes: Counts,
    /// The start position's record.
    pub start: Record,
    /// The largest remoteness of a won or lost position.
    pub max_remoteness: u8,
    /// The table's size in bytes.
    pub table_bytes: u64,
}

/// A solved game: the record of every reachable position.
pub struct Solution<G: Game> {
    game: G,
    table: Vec<u8>,
    summary: Summary,
}

/// The smallest key among the images of `position` (its class's key) and the number of
/// distinct images (the class's size).
pub fn canonical<G: Game>(game: &G, position: &G::Position) -> (u64, u64) {
    let n = game.symmetries();
    let mut keys = [0u64; 16];
    let mut best = game.key(position);
    if n <= 1 {
        return (best, 1);
    }
    let mut distinct = 0usize;
    for s in 0..n {
        let key = if s == 0 {
            best
        } else {
            game.symmetric_key(position, s)
        };
        best = best.min(key);
        if distinct < keys.len() && !keys[..distinct].contains(&key) {
            keys[distinct] = key;
            distinct += 1;
        }
    }
    (best, distinct as u64)
}

/// The key of `position`'s symmetry class (the smallest key among its images).
#[inline]
pub fn class_key<G: Game>(game: &G, position: &G::Position) -> u64 {
    let mut best = game.key(position);
    for s in 1..game.symmetries() {
        best = best.min(game.symmetric_key(position, s));
    }
    best
}

/// The record of a position from its children's records (each for the opponent): a
/// lost child makes it won (the nearest), else a drawn child drawn, else it is lost
/// (the farthest). `None` without children.
pub fn combine(children: impl IntoIterator<Item = Record>) -> Option<Record> {
    let mut nearest_loss: Option<u8> = None;
    let mut draw = false;
    let mut farthest_win: Option<u8> = None;
    for child in children {
        match child.outcome {
            Outcome::Loss => {
                nearest_loss =
                    Some(nearest_loss.map_or(child.remoteness, |r| r.min(child.remoteness)))
            }
            Outcome::Draw => draw = true,
            Outcome::Win => {
                farthest_win =
                    Some(farthest_win.map_or(child.remoteness, |r| r.max(child.remoteness)))
            }
        }
    }
    if let Some(r) = nearest_loss {
        Some((Outcome::Win, r.saturating_add(1)).into())
    } else if draw {
        Some((Outcome::Draw, 0).into())
    } else {
        farthest_win.map(|r| (Outcome::Loss, r.saturating_add(1)).into())
    }
}

/// Solves `game` with the default [`Options`] (4 GiB at most, no progress report).
pub fn solve<G: Game>(game: G) -> Result<Solution<G>, SolveError> {
    solve_with(game, Options::default())
}

/// Solves `game`: every reachable position gets its [`Record`].
pub fn solve_with<G: Game>(game: G, options: Options<'_>) -> Result<Solution<G>, SolveError> {
    let key_space = game.key_space();
    if key_space > options.memory_limit {
        return Err(SolveError::TooLarge {
            needed: key_space,
            limit: options.memory_limit,
        });
    }
    let table = vec![0u8; key_space as usize];
    let mut solution = Solution {
        game,
        table,
        summary: Summary {
            positions: 0,
            all: Counts::default(),
            classes: Counts::default(),
            start: (Outcome::Draw, 0).into(),
            max_remoteness: 0,
            table_bytes: key_space,
        },
    };
    if solution.game.repeats() {
        retrograde(&mut solution, options.progress)?;
    } else {
        let mut search = Search {
            game: &solution.game,
            table: &mut solution.table,
            buffers: Vec::new(),
            records: Vec::new(),
            summary: &mut solution.summary,
            progress: options.progress,
        };
        let start = search.game.start();
        let (key, _) = canonical(search.game, &start);
        check_key(key, key_space)?;
        search.visit(start, key, 0)?;
        drop(search);
    }
    let start = solution.game.start();
    solution.summary.start = solution
        .get(&start)
        .ok_or(SolveError::KeyOutOfRange { key: 0, key_space })?;
    solution.summary.positions = solution.summary.all.total();
    Ok(solution)
}

fn check_key(key: u64, key_space: u64) -> Result<(), SolveError> {
    if key < key_space {
        Ok(())
    } else {
        Err(SolveError::KeyOutOfRange { key, key_space })
    }
}

fn record_stats(summary: &mut Summary, record: Record, terminal: bool, orbit: u64) {
    summary.all.add(record, terminal, orbit);
    summary.classes.add(record, terminal, 1);
    if record.outcome != Outcome::Draw {
        summary.max_remoteness = summary.max_remoteness.max(record.remoteness);
    }
}

/// The memoized depth-first search of games without repeats.
struct Search<'a, 'p, G: Game> {
    game: &'a G,
    table: &'a mut [u8],
    /// One move list per depth, reused.
    buffers: Vec<Vec<G::Move>>,
    /// One list of child records per depth, reused.
    records: Vec<Vec<Record>>,
    summary: &'a mut Summary,
    progress: Option<&'p mut dyn FnMut(u64)>,
}

impl<G: Game> Search<'_, '_, G> {
    /// Solves `position` (whose class key is `key`, not yet in the table).
    fn visit(&mut self, position: G::Position, key: u64, depth: usize) -> Result<u8, SolveError> {
        let key_space = self.table.len() as u64;
        let (record, terminal) = match self.game.primitive(&position) {
            Some(outcome) => (Record::from((outcome, 0)), true),
            None => {
                self.table[key as usize] = IN_PROGRESS;
                if self.buffers.len() <= depth {
                    self.buffers.resize_with(depth + 1, Vec::new);
                    self.records.resize_with(depth + 1, Vec::new);
                }
                let mut moves = core::mem::take(&mut self.buffers[depth]);
                moves.clear();
                self.game.moves(&position, &mut moves);
                let mut records = core::mem::take(&mut self.records[depth]);
                records.clear();
                for &mv in &moves {
                    let child = self.game.play(&position, mv);
                    let child_key = class_key(self.game, &child);
                    check_key(child_key, key_space)?;
                    let mut byte = self.table[child_key as usize];
                    if byte == 0 {
                        byte = self.visit(child, child_key, depth + 1)?;
                    }
                    // IN_PROGRESS: the child is an ancestor being searched.
                    records.push(Record::decode(byte).ok_or(SolveError::Repeats)?);
                }
                let record =
                    combine(records.iter().copied()).ok_or(SolveError::NoMovesNotFinished)?;
                self.buffers[depth] = moves;
                self.records[depth] = records;
                if record.remoteness > MAX_REMOTENESS {
                    return Err(SolveError::RemotenessTooLarge);
                }
                (record, false)
            }
        };
        let byte = record.encode();
        self.table[key as usize] = byte;
        let (_, orbit) = canonical(self.game, &position);
        record_stats(self.summary, record, terminal, orbit);
        if self.summary.classes.total() & 0xffff == 0 {
            if let Some(progress) = self.progress.as_mut() {
                progress(self.summary.classes.total());
            }
        }
        Ok(byte)
    }
}

/// Retrograde analysis of games whose positions repeat.
fn retrograde<G: Game>(
    solution: &mut Solution<G>,
    mut progress: Option<&mut dyn FnMut(u64)>,
) -> Result<(), SolveError> {
    let game = &solution.game;
    let key_space = game.key_space();
    // 1. Every reachable class, numbered in the order found.
    let mut index = vec![u32::MAX; key_space as usize];
    let mut positions: Vec<G::Position> = Vec::new();
    let mut child_start: Vec<u32> = vec![0];
    let mut children: Vec<u32> = Vec::new();
    let start = game.start();
    let (start_key, _) = canonical(game, &start);
    check_key(start_key, key_space)?;
    index[start_key as usize] = 0;
    positions.push(start);
    let mut moves = Vec::new();
    let mut next = 0usize;
    while next < positions.len() {
        let position = positions[next];
        moves.clear();
        if game.primitive(&position).is_none() {
            game.moves(&position, &mut moves);
            if moves.is_empty() {
                return Err(SolveError::NoMovesNotFinished);
            }
        }
        for &mv in &moves {
            let child = game.play(&position, mv);
            let key = class_key(game, &child);
            check_key(key, key_space)?;
            if index[key as usize] == u32::MAX {
                index[key as usize] = positions.len() as u32;
                positions.push(child);
            }
            children.push(index[key as usize]);
        }
        child_start.push(children.len() as u32);
        next += 1;
    }
    let n = positions.len();
    // 2. Parents: the children inverted (an edge per move, repeated moves kept).
    let mut parent_start = vec![0u32; n + 1];
    for &c in &children {
        parent_start[c as usize + 1] += 1;
    }
    for i in 0..n {
        parent_start[i + 1] += parent_start[i];
    }
    let mut fill = parent_start.clone();
    let mut parents = vec![0u32; children.len()];
    for p in 0..n {
        for &c in &children[child_start[p] as usize..child_start[p + 1] as usize] {
            parents[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    // 3. Levels: the finished positions first, then each level's parents.
    let mut undecided: Vec<u32> = (0..n)
        .map(|p| child_start[p + 1] - child_start[p])
        .collect();
    let mut value: Vec<Option<Record>> = vec![None; n];
    let mut level: Vec<u32> = Vec::new();
    for (p, position) in positions.iter().enumerate() {
        if let Some(outcome) = game.primitive(position) {
            value[p] = Some((outcome, 0).into());
            if outcome != Outcome::Draw {
                level.push(p as u32);
            }
        }
    }
    let mut remoteness = 0u8;
    while !level.is_empty() {
        if remoteness >= MAX_REMOTENESS {
            return Err(SolveError::RemotenessTooLarge);
        }
        let mut next_level = Vec::new();
        for &c in &level {
            let child = value[c as usize].map(|r| r.outcome);
            for &p in
                &parents[parent_start[c as usize] as usize..parent_start[c as usize + 1] as usize]
            {
                if value[p as usize].is_some() {
                    continue;
                }
                match child {
                    Some(Outcome::Loss) => {
                        value[p as usize] = Some((Outcome::Win, remoteness + 1).into());
                        next_level.push(p);
                    }
                    Some(Outcome::Win) => {
                        undecided[p as usize] -= 1;
                        if undecided[p as usize] == 0 {
                            value[p as usize] = Some((Outcome::Loss, remoteness + 1).into());
                            next_level.push(p);
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(progress) = progress.as_mut() {
            progress(next_level.len() as u64);
        }
        level = next_level;
        remoteness += 1;
    }
    // 4. What nobody can force is a draw; the table and the counts.
    for (p, position) in positions.iter().enumerate() {
        let record = value[p].unwrap_or((Outcome::Draw, 0).into());
        let (key, orbit) = canonical(game, position);
        solution.table[key as usize] = record.encode();
        record_stats(
            &mut solution.summary,
            record,
            game.primitive(position).is_some(),
            orbit,
        );
    }
    Ok(())
}

impl<G: Game> Solution<G> {
    /// A solution from its parts (a table file read back).
    pub(crate) fn from_parts(game: G, table: Vec<u8>, summary: Summary) -> Solution<G> {
        Solution {
            game,
            table,
            summary,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The counts, the start's record and the table size.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// The record of the start position.
    pub fn start(&self) -> Record {
        self.summary.start
    }

    /// The record of `position`, `None` when it is not reachable.
    pub fn get(&self, position: &G::Position) -> Option<Record> {
        let key = class_key(&self.game, position);
        self.table
            .get(usize::try_from(key).ok()?)
            .and_then(|&byte| Record::decode(byte))
    }

    /// The optimal moves of `position`, in the order of [`Game::moves`]: in a won
    /// position the ones that win fastest, in a drawn one those that keep the draw, in a
    /// lost one those that lose slowest. Empty for a finished or unreachable position.
    ///
    /// ```
    /// use tictable_games::{solve, Game, Notation, TicTacToe};
    /// let solution = solve(TicTacToe::normal()).unwrap();
    /// let game = solution.game();
    /// // X at 1 and 2, O at 4 and 5: X wins at 3 at once.
    /// let mut p = game.start();
    /// for square in ["1", "4", "2", "5"] {
    ///     p = game.play(&p, game.parse_move(&p, square, Notation::People).unwrap());
    /// }
    /// let best: Vec<String> = solution.best_moves(&p).into_iter().map(|m| game.write_move(m, Notation::People)).collect();
    /// assert_eq!(best, ["3"]);
    /// ```
    pub fn best_moves(&self, position: &G::Position) -> Vec<G::Move> {
        let game = &self.game;
        let Some(record) = self.get(position) else {
            return Vec::new();
        };
        if game.primitive(position).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        game.moves(position, &mut moves);
        // The child a best move leads to: lost for the opponent one ply nearer, drawn,
        // or won for the opponent one ply nearer.
        let wanted = match record.outcome {
            Outcome::Win => Record::from((Outcome::Loss, record.remoteness.wrapping_sub(1))),
            Outcome::Draw => Record::from((Outcome::Draw, 0)),
            Outcome::Loss => Record::from((Outcome::Win, record.remoteness.wrapping_sub(1))),
        };
        moves.retain(|&mv| self.get(&game.play(position, mv)) == Some(wanted));
        moves
    }

    /// The table: one byte per class key ([`Record::encode`]; 0 where no reachable
    /// class has that key).
    pub fn table(&self) -> &[u8] {
        &self.table
    }

    /// The table, writable: for tests that corrupt an entry and see a check fail.
    pub fn table_mut(&mut self) -> &mut [u8] {
        &mut self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_prefers_the_nearest_win_and_the_farthest_loss() {
        let w = |r| Record::from((Outcome::Win, r));
        let l = |r| Record::from((Outcome::Loss, r));
        let d = Record::from((Outcome::Draw, 0));
        assert_eq!(combine([w(3), l(4), l(2)]), Some((Outcome::Win, 3).into()));
        assert_eq!(combine([w(3), d]), Some(d));
        assert_eq!(combine([w(3), w(7)]), Some((Outcome::Loss, 8).into()));
        assert_eq!(combine([]), None);
    }
}
