//! Where `play --game G` and `analyse --game G` learn what a position is worth: a
//! position's record (win, draw or loss for the side to move, and its remoteness) and
//! each legal move's child record, from a solved table ([`Solution`]) or from the live
//! search of a board too large for one ([`crate::live::Live`]). The front ends ask
//! only this; the engines that look through the whole game (sharp, gentle, adaptive,
//! epsilon) also need the table itself ([`Oracle::table`]).

use tictable::strategy::{below, Level, MistakeRate};
use tictable::Outcome;
use tictable_games::players::Player as Engine;
use tictable_games::{Game, Record, Solution};

/// A position's record and each legal move with the record of the position it leads
/// to (for the opponent, who moves there); no moves for a finished position.
pub type Answer<G> = (Record, Vec<(<G as Game>::Move, Record)>);

/// What a position is worth, from a solved table or from the live search.
pub trait Oracle<G: Game> {
    /// The game.
    fn game(&self) -> &G;

    /// `position`'s record and each legal move's child record; `None` when the
    /// position is not reachable from the start.
    fn answer(&self, position: &G::Position) -> Option<Answer<G>>;

    /// `position`'s record alone; `None` when it is not reachable.
    fn record(&self, position: &G::Position) -> Option<Record>;

    /// The whole solved table, when the answers come from one.
    fn table(&self) -> Option<&Solution<G>>;

    /// The best moves of `position` (the fastest win, the moves that keep a draw, the
    /// slowest loss), in the order of [`Game::moves`]; none when it is finished or not
    /// reachable.
    fn best_moves(&self, position: &G::Position) -> Vec<G::Move> {
        match self.answer(position) {
            Some((record, children)) => best(record, &children),
            None => Vec::new(),
        }
    }
}

impl<G: Game> Oracle<G> for Solution<G> {
    fn game(&self) -> &G {
        Solution::game(self)
    }

    fn answer(&self, position: &G::Position) -> Option<Answer<G>> {
        let game = Solution::game(self);
        let record = self.get(position)?;
        let mut moves = Vec::new();
        if game.primitive(position).is_none() {
            game.moves(position, &mut moves);
        }
        let children = moves
            .into_iter()
            .filter_map(|mv| Some((mv, self.get(&game.play(position, mv))?)))
            .collect();
        Some((record, children))
    }

    fn record(&self, position: &G::Position) -> Option<Record> {
        self.get(position)
    }

    fn table(&self) -> Option<&Solution<G>> {
        Some(self)
    }
}

/// The moves among `children` (each with its child's record) that keep `record`, the
/// position's own: the best moves.
pub fn best<M: Copy>(record: Record, children: &[(M, Record)]) -> Vec<M> {
    children
        .iter()
        .filter(|&&(_, child)| move_record(child) == record)
        .map(|&(mv, _)| mv)
        .collect()
}

/// The record of a move for the side that makes it, from its child's record (which is
/// for the opponent): the value flipped, one ply further.
pub fn move_record(child: Record) -> Record {
    match child.outcome {
        tictable::Outcome::Draw => child,
        outcome => (outcome.flip(), child.remoteness.saturating_add(1)).into(),
    }
}

/// The levels that play from an [`Oracle`] without its whole table: `random` (every
/// legal move alike), `perfect` (the best moves alike) and `epsilon:E` (with
/// probability E every legal move alike, else the value-keeping moves alike).
pub const WITHOUT_TABLE: [Level; 3] = [Level::Perfect, Level::Random, Level::Epsilon];

/// The moves among `children` (each with its child's record) that keep the value of
/// `record`, the position's own, as [`perfect_moves`](tictable_games::strategy::perfect_moves)
/// keeps it: in a won position the moves into a position lost for the opponent (in a
/// game with repeats, the fastest ones), in a drawn one those into a drawn one, in a
/// lost one every move.
pub fn keeping<M: Copy>(record: Record, children: &[(M, Record)], repeats: bool) -> Vec<M> {
    children
        .iter()
        .filter(|&&(_, child)| match record.outcome {
            Outcome::Win if repeats => move_record(child) == record,
            Outcome::Win => child.outcome == Outcome::Loss,
            Outcome::Draw => child.outcome == Outcome::Draw,
            Outcome::Loss => true,
        })
        .map(|&(mv, _)| mv)
        .collect()
}

/// `engine`'s move in `position`: drawn by the engine from the table when the oracle
/// has one ([`Engine::choose`]), else for the levels of [`WITHOUT_TABLE`] from the
/// oracle's answer, drawn as [`Engine::choose`] draws (a part below 10 000, then a move
/// of the part's set: the same seed gives the same move either way).
pub fn choose<G: Game, R: rand_core::Rng + ?Sized>(
    oracle: &dyn Oracle<G>,
    engine: &Engine,
    position: &G::Position,
    rng: &mut R,
) -> Result<G::Move, String> {
    if let Some(table) = oracle.table() {
        return engine
            .choose(table, position, rng)
            .map_err(|e| e.to_string());
    }
    if !WITHOUT_TABLE.contains(&engine.level()) {
        return Err(format!("`{engine}` needs the game's whole table"));
    }
    let over = || String::from("the game is over or the position is not reachable");
    let (record, children) = oracle.answer(position).ok_or_else(over)?;
    let legal: Vec<G::Move> = children.iter().map(|&(mv, _)| mv).collect();
    // The parts as `Engine::parts` makes them: (weight, moves), weights summing to
    // 10 000.
    let full = MistakeRate::SCALE;
    let parts = match engine.level() {
        Level::Perfect => vec![(full, best(record, &children))],
        Level::Random => vec![(full, legal)],
        _ => {
            let rate = engine.rate().parts_per_10000();
            let mut parts = Vec::new();
            if rate > 0 {
                parts.push((rate, legal));
            }
            if rate < full {
                let repeats = oracle.game().repeats();
                parts.push((full - rate, keeping(record, &children, repeats)));
            }
            parts
        }
    };
    if parts.iter().any(|(_, moves)| moves.is_empty()) {
        return Err(over());
    }
    let mut draw = below(rng, u32::from(full));
    for (weight, moves) in &parts {
        if draw < u32::from(*weight) {
            return Ok(moves[below(rng, moves.len() as u32) as usize]);
        }
        draw -= u32::from(*weight);
    }
    Err(over())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;
    use tictable_games::{solve, Hexapawn, Morris, TicTacToe};

    /// The solved table, answering as an oracle without its table.
    struct Bare<G: Game>(Solution<G>);

    impl<G: Game> Oracle<G> for Bare<G> {
        fn game(&self) -> &G {
            self.0.game()
        }
        fn answer(&self, p: &G::Position) -> Option<Answer<G>> {
            self.0.answer(p)
        }
        fn record(&self, p: &G::Position) -> Option<Record> {
            self.0.get(p)
        }
        fn table(&self) -> Option<&Solution<G>> {
            None
        }
    }

    /// Without the table, perfect, random and epsilon:E draw the moves the table's
    /// engine draws for the same seed (at most 60 plies of a game with repeats).
    fn draws_as_the_engine_does<G: Game + Clone>(game: G) {
        let solution = solve(game.clone()).unwrap();
        let start = solution.game().start();
        let bare = Bare(solve(game).unwrap());
        let levels = ["perfect", "random", "epsilon:0.3", "epsilon:0", "epsilon:1"];
        for level in levels {
            let engine: Engine = level.parse().unwrap();
            for seed in 0..50 {
                let mut a = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut b = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut p = start;
                for _ in 0..60 {
                    if solution.game().primitive(&p).is_some() {
                        break;
                    }
                    let with = choose(&solution, &engine, &p, &mut a).unwrap();
                    let without = choose(&bare, &engine, &p, &mut b).unwrap();
                    assert_eq!(with, without, "{level} seed {seed}");
                    p = solution.game().play(&p, with);
                }
            }
        }
        assert_eq!(bare.best_moves(&start), solution.best_moves(&start));
    }

    #[test]
    fn perfect_random_and_epsilon_draw_as_the_engine_does() {
        draws_as_the_engine_does(Hexapawn);
        draws_as_the_engine_does(TicTacToe::misere());
        draws_as_the_engine_does(Morris::tapatan());
        let bare = Bare(solve(Hexapawn).unwrap());
        let start = bare.0.game().start();
        let sharp: Engine = "sharp".parse().unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let e = choose(&bare, &sharp, &start, &mut rng).unwrap_err();
        assert!(e.contains("whole table"), "{e}");
    }
}
