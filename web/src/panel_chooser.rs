//! The machine panel's move chooser: tic-tac-toe at the page's level (random ..
//! trap, a [`StrategyChooser`]), the other five games (misère, three men's morris,
//! tapatan, achi, hexapawn) perfect from their compiled best-move tables (a
//! [`TableChooser`], as the firmware's `games` image plays them). Because it plays
//! more than one game, the controller makes Level the game button
//! (`firmware/README.md`, "Games").

use crate::Rng;
use tictable::strategy::Strategy;
use tictable::{Board, Square};
use tictable_machine::controller::{
    Move, MoveChooser, Position, Rules, StrategyChooser, TableChooser,
};

/// Tic-tac-toe at a level, the other games from their tables.
#[derive(Clone, Debug)]
pub struct PanelChooser {
    /// Tic-tac-toe's player.
    level: StrategyChooser<Rng>,
    /// The other games' player (its own game when one of them is chosen).
    table: TableChooser<Rng>,
    /// The game played.
    rules: Rules,
}

impl PanelChooser {
    /// Tic-tac-toe at `strategy`'s level; the other games drawn among their best
    /// moves; both with randomness from `seed`. `None` when a compiled table does
    /// not read back (a build mistake).
    pub fn new(strategy: Strategy, seed: u64) -> Option<PanelChooser> {
        Some(PanelChooser {
            level: StrategyChooser {
                strategy,
                rng: Rng::new(seed, 0xD1CE),
            },
            table: TableChooser::new(Rules::Misere, Rng::new(seed, 0x7AB1))?,
            rules: Rules::TicTacToe,
        })
    }

    /// Tic-tac-toe's strategy (the page's level).
    pub fn strategy(&self) -> Strategy {
        self.level.strategy
    }
}

impl MoveChooser for PanelChooser {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        if self.rules == Rules::TicTacToe {
            self.level.choose(board)
        } else {
            self.table.choose(board)
        }
    }

    /// Nothing: Level is the game button in a build of several games (the
    /// controller never passes it here while this chooser plays several);
    /// tic-tac-toe's level is the page's selector.
    fn next_level(&mut self) {}

    fn observe(&mut self, board: &Board, square: Square) {
        if self.rules == Rules::TicTacToe {
            self.level.observe(board, square);
        }
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn set_rules(&mut self, rules: Rules) -> bool {
        let ok = rules == Rules::TicTacToe || self.table.set_rules(rules);
        if ok {
            self.rules = rules;
        }
        ok
    }

    /// Tic-tac-toe, and the table's five (Level is the game button).
    fn plays(&self, rules: Rules) -> bool {
        rules == Rules::TicTacToe || self.table.plays(rules)
    }

    fn choose_move(&mut self, position: &Position) -> Option<Move> {
        if self.rules == Rules::TicTacToe {
            self.level.choose(&position.board()).map(Move::Place)
        } else {
            self.table.choose_move(position)
        }
    }

    fn could_choose(&self, position: &Position, mv: Move) -> bool {
        self.rules != Rules::TicTacToe && self.table.could_choose(position, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable::strategy::Level;

    /// Every game can be chosen; tic-tac-toe plays at the page's level (random
    /// here: it does not always take the win), the others from their tables.
    #[test]
    fn plays_every_game_and_tic_tac_toe_at_its_level() {
        let mut c = PanelChooser::new(Strategy::new(Level::Random), 1).unwrap();
        c.next_level();
        assert_eq!(
            c.strategy().level(),
            Level::Random,
            "Level chooses games here"
        );
        for r in Rules::ALL {
            assert!(c.plays(r), "{r:?}");
            assert!(c.set_rules(r), "{r:?}");
            assert_eq!(c.rules(), r);
        }
        c.set_rules(Rules::TicTacToe);
        let b: Board = "XX.OO....".parse().unwrap();
        let picks: std::collections::HashSet<_> = (0..40).filter_map(|_| c.choose(&b)).collect();
        assert!(picks.len() > 1, "random takes more than the win: {picks:?}");
        c.set_rules(Rules::Misere);
        // Misère's best moves never complete X's line at square 3.
        assert!((0..40).all(|_| c.choose(&b) != Square::new(2)));
        c.set_rules(Rules::Hexapawn);
        let mv = c.choose_move(&Rules::Hexapawn.start());
        assert!(matches!(mv, Some(Move::Pawn { .. })), "{mv:?}");
    }
}
