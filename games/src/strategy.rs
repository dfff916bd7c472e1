//! A small perfect strategy for one side: the positions a player meets when it plays one
//! perfect strategy from the start against every reply of the opponent, with its
//! choices among equally good moves made to keep that set small.
//!
//! **Perfect** means value-preserving: in a won position the player moves to a position
//! lost for the opponent (in games whose positions repeat, to one lost exactly one ply
//! nearer, so the win cannot be put off for ever); in a drawn position to a drawn one;
//! in a lost position any move will do (every move loses against perfect play).
//!
//! **An entry** is a symmetry class of positions where the player is to move and the
//! game is not over, reached by the strategy against some sequence of opponent replies:
//! it is what a lookup table of the strategy must hold. [`Strategy::choices`] counts the
//! entries where the player has more than one legal move (the others need no table).
//!
//! **How it is minimised** (not proven minimal): in games without repeats, each
//! position gets the smallest size of its strategy *tree* (each occurrence counted, a
//! memoised minimum: one for the player's own position plus the smallest over its
//! perfect moves; the sum over all of the opponent's replies), and the player takes the
//! move of the smallest tree, the first in move order on ties. The set actually met is
//! then counted once per class, so positions shared by several lines count once: a
//! strategy that steers lines together can be smaller than the tree minimum suggests,
//! and an exact minimum of the union would need a search over every combination of
//! choices (exponential in general). In games with repeats (the tree is infinite), and
//! in games whose smallest-tree search would memoise more than [`TREE_BUDGET`] classes
//! (its memory and time bound: Connect Four 4x6, 6x4 and 5x5), the walk is greedy: it
//! prefers a perfect move into a class already met, else the one that leaves the
//! opponent the fewest replies. [`Strategy::method`] says which; neither is proven
//! minimal.
//!
//! ```
//! use tictable_games::{solve, strategy, Player, TicTacToe};
//! let solution = solve(TicTacToe::normal()).unwrap();
//! let x = strategy::minimal(&solution, Player::X);
//! assert!(x.entries() > 0 && x.choices() <= x.entries());
//! ```

use crate::game::{Game, Outcome, Player};
use crate::solver::{class_key, Record, Solution};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;

/// One side's strategy: a move for every position it meets.
pub struct Strategy<G: Game> {
    /// The side that follows it.
    pub player: Player,
    /// The positions met (one per class, where the side is to move and the game goes
    /// on), each with its move, in the order first met.
    pub moves: Vec<(G::Position, G::Move)>,
    choices: u64,
    method: Method,
}

impl<G: Game> Strategy<G> {
    /// The number of entries: classes where the side is to move and the game goes on.
    pub fn entries(&self) -> u64 {
        self.moves.len() as u64
    }

    /// The entries where the side has more than one legal move.
    pub fn choices(&self) -> u64 {
        self.choices
    }

    /// How it was made small.
    pub fn method(&self) -> Method {
        self.method
    }
}

/// The perfect moves of `position` for the side to move (see the module's definition).
///
/// ```
/// use tictable_games::{solve, strategy, Game, TicTacToe};
/// let solution = solve(TicTacToe::normal()).unwrap();
/// let start = solution.game().start();
/// // Every opening keeps tic-tac-toe's draw.
/// assert_eq!(strategy::perfect_moves(&solution, &start).len(), 9);
/// ```
pub fn perfect_moves<G: Game>(solution: &Solution<G>, position: &G::Position) -> Vec<G::Move> {
    let game = solution.game();
    let mut moves = Vec::new();
    let Some(record) = solution.get(position) else {
        return moves;
    };
    if game.primitive(position).is_some() {
        return moves;
    }
    game.moves(position, &mut moves);
    let repeats = game.repeats();
    moves.retain(|&mv| {
        let Some(child) = solution.get(&game.play(position, mv)) else {
            return false;
        };
        match record.outcome {
            Outcome::Win if repeats => {
                child == Record::from((Outcome::Loss, record.remoteness.wrapping_sub(1)))
            }
            Outcome::Win => child.outcome == Outcome::Loss,
            Outcome::Draw => child.outcome == Outcome::Draw,
            Outcome::Loss => true,
        }
    });
    moves
}

/// The small perfect strategy of `player` (see the module's definition and method).
pub fn minimal<G: Game>(solution: &Solution<G>, player: Player) -> Strategy<G> {
    minimal_within(solution, player, TREE_BUDGET)
}

/// The most classes the smallest-tree search of [`minimal`] may memoise; over it, the
/// greedy walk ([`Method::Greedy`]) is used instead.
pub const TREE_BUDGET: usize = 2_000_000;

/// How a strategy was made small. None is proven minimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The smallest strategy tree's move at each position, then a local search over
    /// other perfect moves when the strategy has at most 2,000 entries.
    TreeThenLocal,
    /// The greedy walk: a perfect move into a class already met, else the one that
    /// leaves the opponent the fewest replies (games whose positions repeat, and games
    /// whose smallest-tree search would memoise more classes than its budget).
    Greedy,
}

impl core::fmt::Display for Method {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Method::TreeThenLocal => "smallest tree, then local search; not proven minimal",
            Method::Greedy => "greedy walk (bounded); not proven minimal",
        })
    }
}

/// [`minimal`] with the smallest-tree search allowed at most `budget` memoised classes
/// (its memory and time bound): over it, the strategy comes from the greedy walk and
/// says so ([`Strategy::method`]).
///
/// ```
/// use tictable_games::{solve, strategy, Player, TicTacToe};
/// let solution = solve(TicTacToe::normal()).unwrap();
/// let bounded = strategy::minimal_within(&solution, Player::X, 10);
/// assert_eq!(bounded.method(), strategy::Method::Greedy);
/// assert_eq!(strategy::worst_result(&solution, &bounded).unwrap().1, bounded.entries());
/// ```
pub fn minimal_within<G: Game>(
    solution: &Solution<G>,
    player: Player,
    budget: usize,
) -> Strategy<G> {
    let game = solution.game();
    let mut tree = TreeCost {
        solution,
        player,
        memo: BTreeMap::new(),
        budget,
    };
    let greedy = game.repeats() || tree.cost(&game.start()).is_none();
    if greedy {
        tree.memo = BTreeMap::new();
    }
    let mut first = |position: &G::Position, perfect: &[G::Move], met: &BTreeSet<u64>| {
        if greedy {
            perfect.iter().copied().min_by_key(|&mv| {
                let child = game.play(position, mv);
                let known = met.contains(&class_key(game, &child));
                let mut replies = Vec::new();
                if game.primitive(&child).is_none() {
                    game.moves(&child, &mut replies);
                }
                (!known, replies.len())
            })
        } else {
            perfect
                .iter()
                .copied()
                .min_by_key(|&mv| tree.cost(&game.play(position, mv)).unwrap_or(u64::MAX))
        }
    };
    let mut best = walk(solution, player, &mut first);
    if greedy {
        best.method = Method::Greedy;
    }
    if greedy || best.entries() > LOCAL_SEARCH_ENTRIES {
        return best;
    }
    // Local search: each entry's choice is the class its move leads to; try every other
    // perfect move of every entry met and keep a change that makes the set smaller.
    let mut choice: BTreeMap<u64, u64> = best
        .moves
        .iter()
        .map(|(p, mv)| (class_key(game, p), class_key(game, &game.play(p, *mv))))
        .collect();
    let mut walks = 0u32;
    let mut improved = true;
    while improved && walks < LOCAL_SEARCH_WALKS {
        improved = false;
        let entries: Vec<G::Position> = best.moves.iter().map(|&(p, _)| p).collect();
        for position in entries {
            let key = class_key(game, &position);
            let Some(&current) = choice.get(&key) else {
                continue;
            };
            let mut options: Vec<u64> = perfect_moves(solution, &position)
                .into_iter()
                .map(|mv| class_key(game, &game.play(&position, mv)))
                .collect();
            options.sort_unstable();
            options.dedup();
            for option in options {
                if option == current || walks >= LOCAL_SEARCH_WALKS {
                    continue;
                }
                choice.insert(key, option);
                walks += 1;
                let candidate = walk(
                    solution,
                    player,
                    &mut |p: &G::Position, perfect: &[G::Move], met: &BTreeSet<u64>| match choice
                        .get(&class_key(game, p))
                    {
                        Some(&wanted) => perfect
                            .iter()
                            .copied()
                            .find(|&mv| class_key(game, &game.play(p, mv)) == wanted),
                        None => first(p, perfect, met),
                    },
                );
                if candidate.entries() < best.entries() {
                    best = candidate;
                    improved = true;
                    break;
                }
                choice.insert(key, current);
            }
            if improved {
                break;
            }
        }
        for (p, mv) in &best.moves {
            choice.insert(class_key(game, p), class_key(game, &game.play(p, *mv)));
        }
    }
    best
}

/// Strategies of at most this many entries are improved by local search.
const LOCAL_SEARCH_ENTRIES: u64 = 2_000;
/// The most strategies the local search walks.
const LOCAL_SEARCH_WALKS: u32 = 20_000;

/// How a walk picks a move: from the position, its perfect moves and the classes met.
type Chooser<'a, G> = dyn FnMut(&<G as Game>::Position, &[<G as Game>::Move], &BTreeSet<u64>) -> Option<<G as Game>::Move>
    + 'a;

/// The positions `player` meets choosing its moves with `choose` (given the position,
/// its perfect moves and the classes met so far), every opponent reply followed.
fn walk<G: Game>(
    solution: &Solution<G>,
    player: Player,
    choose: &mut Chooser<'_, G>,
) -> Strategy<G> {
    let game = solution.game();
    let start = game.start();
    let mut met: BTreeSet<u64> = BTreeSet::new();
    let mut stack = Vec::from([start]);
    met.insert(class_key(game, &start));
    let mut moves = Vec::new();
    let mut chosen = Vec::new();
    let mut choices = 0;
    while let Some(position) = stack.pop() {
        if game.primitive(&position).is_some() {
            continue;
        }
        moves.clear();
        if game.to_move(&position) == player {
            let perfect = perfect_moves(solution, &position);
            let Some(best) = choose(&position, &perfect, &met).or(perfect.first().copied()) else {
                continue;
            };
            game.moves(&position, &mut moves);
            if moves.len() > 1 {
                choices += 1;
            }
            chosen.push((position, best));
            moves.clear();
            moves.push(best);
        } else {
            game.moves(&position, &mut moves);
        }
        for &mv in &moves {
            let child = game.play(&position, mv);
            if met.insert(class_key(game, &child)) {
                stack.push(child);
            }
        }
    }
    Strategy {
        player,
        moves: chosen,
        choices,
        method: Method::TreeThenLocal,
    }
}

/// The memoised smallest strategy tree (games without repeats).
struct TreeCost<'a, G: Game> {
    solution: &'a Solution<G>,
    player: Player,
    memo: BTreeMap<u64, u64>,
    /// The most classes memoised.
    budget: usize,
}

impl<G: Game> TreeCost<'_, G> {
    /// The entries of the smallest strategy tree below `position`, each occurrence
    /// counted; `None` once the memo would grow over its budget.
    fn cost(&mut self, position: &G::Position) -> Option<u64> {
        let game = self.solution.game();
        if game.primitive(position).is_some() {
            return Some(0);
        }
        let key = class_key(game, position);
        if let Some(&cost) = self.memo.get(&key) {
            return Some(cost);
        }
        if self.memo.len() >= self.budget {
            return None;
        }
        let cost = if game.to_move(position) == self.player {
            let perfect = perfect_moves(self.solution, position);
            let mut best = u64::MAX;
            for mv in perfect {
                best = best.min(self.cost(&game.play(position, mv))?);
            }
            best.saturating_add(1)
        } else {
            let mut moves = Vec::new();
            game.moves(position, &mut moves);
            let mut sum = 0u64;
            for mv in moves {
                sum = sum.saturating_add(self.cost(&game.play(position, mv))?);
            }
            sum
        };
        self.memo.insert(key, cost);
        Some(cost)
    }
}

/// Plays `strategy` from the start against every reply of the opponent, position by
/// position (not class by class), and returns the worst result for the strategy's side
/// and the number of classes met where that side is to move and the game goes on; or
/// `None` when it meets a position it has no move for. Only for games without repeats.
/// An independent check that the strategy is perfect, complete, and of the size
/// [`Strategy::entries`] says.
///
/// ```
/// use tictable_games::{solve, strategy, Outcome, Player, TicTacToe};
/// let solution = solve(TicTacToe::normal()).unwrap();
/// let o = strategy::minimal(&solution, Player::O);
/// assert_eq!(strategy::worst_result(&solution, &o), Some((Outcome::Draw, o.entries())));
/// ```
pub fn worst_result<G: Game>(
    solution: &Solution<G>,
    strategy: &Strategy<G>,
) -> Option<(Outcome, u64)> {
    let game = solution.game();
    let table: BTreeMap<u64, (G::Position, G::Move)> = strategy
        .moves
        .iter()
        .map(|&(p, m)| (game.key(&p), (p, m)))
        .collect();
    let mut memo: BTreeMap<u64, Outcome> = BTreeMap::new();
    let mut met = BTreeSet::new();
    let outcome = worst(
        game,
        strategy.player,
        &table,
        (&mut memo, &mut met),
        &game.start(),
    )?;
    Some((outcome, met.len() as u64))
}

fn rank(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
    }
}

fn worst<G: Game>(
    game: &G,
    player: Player,
    table: &BTreeMap<u64, (G::Position, G::Move)>,
    (memo, met): (&mut BTreeMap<u64, Outcome>, &mut BTreeSet<u64>),
    position: &G::Position,
) -> Option<Outcome> {
    if let Some(outcome) = game.primitive(position) {
        return Some(if game.to_move(position) == player {
            outcome
        } else {
            outcome.flip()
        });
    }
    let key = game.key(position);
    if let Some(&o) = memo.get(&key) {
        return Some(o);
    }
    let moves: Vec<G::Move> = if game.to_move(position) == player {
        met.insert(class_key(game, position));
        // The entry of this position's class (stored under one of its images' keys):
        // here, the move into the class its move leads to.
        let (stored, mv) =
            (0..game.symmetries()).find_map(|s| table.get(&game.symmetric_key(position, s)))?;
        let target = game.play(stored, *mv);
        let mut own = Vec::new();
        game.moves(position, &mut own);
        let wanted = class_key(game, &target);
        let found = own
            .into_iter()
            .find(|&m| class_key(game, &game.play(position, m)) == wanted)?;
        Vec::from([found])
    } else {
        let mut all = Vec::new();
        game.moves(position, &mut all);
        all
    };
    let mut result: Option<Outcome> = None;
    for mv in moves {
        let o = worst(game, player, table, (memo, met), &game.play(position, mv))?;
        result = Some(match result {
            Some(r) if rank(r) <= rank(o) => r,
            _ => o,
        });
    }
    let result = result?;
    memo.insert(key, result);
    Some(result)
}
