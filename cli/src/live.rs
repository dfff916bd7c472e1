//! The live search as an [`Oracle`]: Connect Four boards whose whole table would take
//! more than [`LIVE_ABOVE_BYTES`](tictable_games::search::LIVE_ABOVE_BYTES) (connect4:4x6,
//! 6x4, 5x5) answered position by position by [`Searcher`] (its table of
//! [`DEFAULT_TABLE_BYTES`], the page's),
//! every answer the solved table's (`analyse`'s test compares them on 4x4 and 5x4). A
//! position given is first checked to be reachable ([`crate::reachable`]); the answers
//! are kept, so a screen drawn again asks the search nothing.

use crate::oracle::{Answer, Oracle};
use std::cell::RefCell;
use std::collections::HashMap;
use tictable_games::catalog::AnyGame;
use tictable_games::search::{searched_live, Searcher, DEFAULT_TABLE_BYTES};
use tictable_games::{Connect4Position, ConnectFour, Record, Solution};

/// At most this many answers are kept; then they are forgotten and asked again
/// (`analyse -` may read any number of positions).
const KEPT: usize = 1 << 16;

/// The live search of one Connect Four board, with the answers it gave.
pub struct Live {
    game: ConnectFour,
    searcher: RefCell<Searcher>,
    /// Each position's answer (`None`: not reachable).
    answers: RefCell<HashMap<Connect4Position, Option<Answer<ConnectFour>>>>,
    /// Each position's record (`None`: not reachable).
    records: RefCell<HashMap<Connect4Position, Option<Record>>>,
}

impl Live {
    /// The live search of `game`.
    pub fn new(game: ConnectFour) -> Result<Live, String> {
        let searcher = Searcher::new(game, DEFAULT_TABLE_BYTES).map_err(|e| e.to_string())?;
        Ok(Live {
            game,
            searcher: RefCell::new(searcher),
            answers: RefCell::new(HashMap::new()),
            records: RefCell::new(HashMap::new()),
        })
    }
}

/// The board `game` is, when it is searched live rather than solved: a Connect Four
/// board over [`LIVE_ABOVE_BYTES`](tictable_games::search::LIVE_ABOVE_BYTES) and no
/// `--table` given.
pub fn searched(game: &AnyGame, table: Option<&std::path::Path>) -> Option<ConnectFour> {
    match (game, table) {
        (AnyGame::ConnectFour(g), None) if searched_live(g) => Some(*g),
        _ => None,
    }
}

/// `map[key]`, computed by `f` when not kept yet (all forgotten past [`KEPT`]).
fn kept<V: Clone>(
    map: &RefCell<HashMap<Connect4Position, V>>,
    key: &Connect4Position,
    f: impl FnOnce() -> V,
) -> V {
    if let Some(v) = map.borrow().get(key) {
        return v.clone();
    }
    let v = f();
    let mut map = map.borrow_mut();
    if map.len() >= KEPT {
        map.clear();
    }
    map.insert(*key, v.clone());
    v
}

impl Oracle<ConnectFour> for Live {
    fn game(&self) -> &ConnectFour {
        &self.game
    }

    fn answer(&self, position: &Connect4Position) -> Option<Answer<ConnectFour>> {
        kept(&self.answers, position, || {
            if !crate::reachable::connect_four(&self.game, position) {
                return None;
            }
            let mut searcher = self.searcher.borrow_mut();
            Some(match searcher.moves(position) {
                Some(found) => found,
                None => (searcher.record(position), Vec::new()),
            })
        })
    }

    fn record(&self, position: &Connect4Position) -> Option<Record> {
        if let Some(Some((record, _))) = self.answers.borrow().get(position) {
            return Some(*record);
        }
        kept(&self.records, position, || {
            crate::reachable::connect_four(&self.game, position)
                .then(|| self.searcher.borrow_mut().record(position))
        })
    }

    fn table(&self) -> Option<&Solution<ConnectFour>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::session::Session;
    use rand_core::SeedableRng;
    use std::rc::Rc;
    use tictable_games::Game;

    /// One solved table shared by the sessions of a test.
    struct Shared(Rc<Solution<ConnectFour>>);

    impl Oracle<ConnectFour> for Shared {
        fn game(&self) -> &ConnectFour {
            self.0.game()
        }
        fn answer(&self, p: &Connect4Position) -> Option<Answer<ConnectFour>> {
            self.0.answer(p)
        }
        fn record(&self, p: &Connect4Position) -> Option<Record> {
            self.0.get(p)
        }
        fn table(&self) -> Option<&Solution<ConnectFour>> {
            Some(&self.0)
        }
    }

    /// A game from the live search reads as the same game from the solved table on
    /// connect4:4x4 and 5x4: the same seed gives the same engine moves (perfect, random,
    /// epsilon:E), said with the
    /// same values, and every position the same value, hints, reasons and mistakes.
    #[test]
    fn the_live_search_plays_as_the_table_does() {
        for (w, h) in [(4, 4), (5, 4)] {
            let game = ConnectFour::new(w, h).unwrap();
            let solution = Rc::new(tictable_games::solve(game).unwrap());
            for (seed, seats) in (0..9).zip([
                ["perfect", "perfect"],
                ["random", "perfect"],
                ["perfect", "random"],
                ["human", "perfect"],
                ["perfect", "human"],
                ["random", "random"],
                ["epsilon:0.3", "epsilon:0.6"],
                ["human", "epsilon:0.2"],
                ["epsilon:0.5", "perfect"],
            ]) {
                let seats = seats.map(|s| (s != "human").then(|| s.parse().unwrap()));
                let mut table = Session::new(
                    Box::new(Shared(solution.clone())),
                    seats.clone(),
                    "g.json".into(),
                );
                let mut live =
                    Session::new(Box::new(Live::new(game).unwrap()), seats, "g.json".into());
                let mut a = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut b = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut person = rand_pcg::Pcg64Mcg::seed_from_u64(seed + 100);
                let mut mistakes = 0;
                while table.result().is_none() {
                    let at = format!("connect4:{w}x{h} seed {seed} {:?}", table.played());
                    assert_eq!(live.value(), table.value(), "{at}");
                    assert_eq!(live.hints(), table.hints(), "{at}");
                    assert_eq!(live.why(), table.why(), "{at}");
                    if table.engine_to_move() {
                        assert_eq!(live.engine_step(&mut b), table.engine_step(&mut a), "{at}");
                    } else {
                        let mut moves = Vec::new();
                        game.moves(&table.position(), &mut moves);
                        let mv = moves
                            [tictable::strategy::below(&mut person, moves.len() as u32) as usize];
                        table.play(mv);
                        live.play(mv);
                        let mistake = table.last_mistake();
                        mistakes += usize::from(mistake.is_some());
                        assert_eq!(live.last_mistake(), mistake, "{at}");
                    }
                }
                assert_eq!(live.played(), table.played());
                assert_eq!(live.result(), table.result());
                if seed == 3 {
                    assert!(mistakes > 0, "connect4:{w}x{h}: no mistake compared");
                }
            }
        }
    }
}
