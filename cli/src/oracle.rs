//! Where `play --game G` and `analyse --game G` learn what a position is worth: a
//! position's record (win, draw or loss for the side to move, and its remoteness) and
//! each legal move's child record, from a solved table ([`Solution`]) or from the live
//! search of a board too large for one ([`crate::live::Live`]). The front ends ask
//! only this; the engines that look through the whole game (sharp, gentle, adaptive,
//! epsilon) also need the table itself ([`Oracle::table`]).

use tictable::strategy::{below, Level, MistakeRate};
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
/// legal move alike) and `perfect` (the best moves alike).
pub const WITHOUT_TABLE: [Level; 2] = [Level::Perfect, Level::Random];

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
    let moves = match engine.level() {
        Level::Perfect => oracle.best_moves(position),
        Level::Random => oracle
            .answer(position)
            .map(|(_, children)| children.into_iter().map(|(mv, _)| mv).collect())
            .unwrap_or_default(),
        _ => return Err(format!("`{engine}` needs the game's whole table")),
    };
    if moves.is_empty() {
        return Err("the game is over or the position is not reachable".into());
    }
    // The one part, weight 10 000: its draw is always below it.
    below(rng, u32::from(MistakeRate::SCALE));
    Ok(moves[below(rng, moves.len() as u32) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;
    use tictable_games::{solve, Hexapawn};

    /// Without the table, perfect and random draw the moves the table's engine draws
    /// for the same seed.
    #[test]
    fn perfect_and_random_draw_as_the_engine_does() {
        /// The solved table, answering as an oracle without its table.
        struct Bare(Solution<Hexapawn>);
        impl Oracle<Hexapawn> for Bare {
            fn game(&self) -> &Hexapawn {
                self.0.game()
            }
            fn answer(&self, p: &<Hexapawn as Game>::Position) -> Option<Answer<Hexapawn>> {
                self.0.answer(p)
            }
            fn record(&self, p: &<Hexapawn as Game>::Position) -> Option<Record> {
                self.0.get(p)
            }
            fn table(&self) -> Option<&Solution<Hexapawn>> {
                None
            }
        }
        let solution = solve(Hexapawn).unwrap();
        let start = solution.game().start();
        let bare = Bare(solve(Hexapawn).unwrap());
        for level in ["perfect", "random"] {
            let engine: Engine = level.parse().unwrap();
            for seed in 0..50 {
                let mut a = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut b = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut p = start;
                while solution.game().primitive(&p).is_none() {
                    let with = choose(&solution, &engine, &p, &mut a).unwrap();
                    let without = choose(&bare, &engine, &p, &mut b).unwrap();
                    assert_eq!(with, without, "{level} seed {seed}");
                    p = solution.game().play(&p, with);
                }
            }
        }
        let sharp: Engine = "sharp".parse().unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let e = choose(&bare, &sharp, &start, &mut rng).unwrap_err();
        assert!(e.contains("whole table"), "{e}");
        assert_eq!(bare.best_moves(&start), solution.best_moves(&start));
    }
}
