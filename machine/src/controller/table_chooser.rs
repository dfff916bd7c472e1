//! Perfect play of either game on the board ([`Rules`]) from `tictable-games`'
//! best-move tables (the files `games/tables/tictactoe.moves.postcard` and
//! `games/tables/misere.moves.postcard` compiled in, checked when read): no move
//! list written by hand, no search. Host builds only (feature `games`: the tables
//! are read into allocated memory); the firmware will need a no-alloc lookup of the
//! same bytes.

use super::position::{morris, morris_move, pawn_move};
use super::{Move, MoveChooser, Position, Rules};
use std::sync::OnceLock;
use std::vec::Vec;
use tictable::{Board, Square};
use tictable_games::best_move::BestMoveTable;
use tictable_games::{compiled, Hexapawn, TicTacToe};

/// The placing game of `rules` as `tictable-games` plays it (misère for misère,
/// tic-tac-toe for every other: the other games' types are [`Position`]'s).
pub const fn game_of(rules: Rules) -> TicTacToe {
    match rules {
        Rules::Misere => TicTacToe::misere(),
        _ => TicTacToe::normal(),
    }
}

/// Both sides' compiled tables of `rules`' game, read (and checked) once; `None`
/// when the embedded file does not read back (a build mistake: a test reads both).
fn tables(rules: Rules) -> Option<&'static [BestMoveTable; 2]> {
    static TABLES: [OnceLock<Option<[BestMoveTable; 2]>>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES
        .get(usize::from(rules.code()) - 1)?
        .get_or_init(|| {
            match rules {
                Rules::TicTacToe | Rules::Misere => compiled::tables(&game_of(rules)),
                Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
                    compiled::tables(&morris(rules))
                }
                Rules::Hexapawn => compiled::tables(&Hexapawn),
            }
            .and_then(Result::ok)
        })
        .as_ref()
}

/// Every best move of the side to move in `p` under `rules` (the moves that keep
/// the position's value, the fastest win or slowest loss), in the order of
/// [`Rules::children`]; empty when the game is over (or the table did not read
/// back). Any of the six games.
///
/// ```
/// use tictable_machine::controller::{best_moves_of, Move, Rules};
/// use tictable::Square;
/// // Hexapawn's start: White's three pushes; Black wins every line, so all three
/// // are equally slow losses or some are faster: at least one is best.
/// let best = best_moves_of(Rules::Hexapawn, &Rules::Hexapawn.start());
/// assert!(!best.is_empty() && best.iter().all(|m| matches!(m, Move::Pawn { .. })));
/// ```
pub fn best_moves_of(rules: Rules, p: &Position) -> Vec<Move> {
    let Some(tables) = tables(rules) else {
        return Vec::new();
    };
    let children = rules.children(p);
    match rules {
        Rules::TicTacToe | Rules::Misere => {
            let (game, board) = (game_of(rules), p.board());
            let best = tables.iter().find_map(|t| t.best_moves(&game, &board));
            let best = best.unwrap_or_default();
            moves_of(&children, |mv| best.contains(&mv.to()))
        }
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            let (game, m) = (morris(rules), p.morris());
            let best = tables.iter().find_map(|t| t.best_moves(&game, &m));
            let best = best.unwrap_or_default();
            moves_of(&children, |mv| best.contains(&morris_move(mv)))
        }
        Rules::Hexapawn => {
            let h = p.hexapawn();
            let best = tables.iter().find_map(|t| t.best_moves(&Hexapawn, &h));
            let best = best.unwrap_or_default();
            moves_of(&children, |mv| best.contains(&pawn_move(mv)))
        }
    }
}

/// Every best move of the side to move in `board` under `rules` (the moves that keep
/// the position's value, the fastest win or slowest loss), lowest square first;
/// empty when the game is over (or the table did not read back).
///
/// ```
/// use tictable_machine::controller::{best_moves, Rules};
/// use tictable::{Board, Square};
/// // X at 1 and 2, O at 4 and 5: tic-tac-toe wins at 3, misère must not play 3.
/// let b: Board = "XX.OO....".parse().unwrap();
/// assert_eq!(best_moves(Rules::TicTacToe, &b), [Square::new(2).unwrap()]);
/// assert!(!best_moves(Rules::Misere, &b).contains(&Square::new(2).unwrap()));
/// ```
pub fn best_moves(rules: Rules, board: &Board) -> Vec<Square> {
    if !rules.places_only() {
        return Vec::new();
    }
    let game = game_of(rules);
    let mut moves = tables(rules)
        .and_then(|t| t.iter().find_map(|t| t.best_moves(&game, board)))
        .unwrap_or_default();
    moves.sort_by_key(|s| s.index());
    moves
}

/// The moves of `children` that `keep` keeps, in their order.
fn moves_of(children: &[(Move, Position)], keep: impl Fn(Move) -> bool) -> Vec<Move> {
    children
        .iter()
        .map(|&(mv, _)| mv)
        .filter(|&mv| keep(mv))
        .collect()
}

/// Perfect play of `rules`' game from its table: a best move at random with `R`.
///
/// ```
/// use tictable_machine::controller::{MoveChooser, Rules, TableChooser};
/// # struct Counter(u32);
/// # impl rand_core::TryRng for Counter {
/// #     type Error = core::convert::Infallible;
/// #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { self.0 = self.0.wrapping_add(0x9E37_79B9); Ok(self.0) }
/// #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { Ok(self.try_next_u32()? as u64) }
/// #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> { d.fill(0); Ok(()) }
/// # }
/// let mut c = TableChooser::new(Rules::Misere, Counter(1)).unwrap();
/// assert_eq!(c.rules(), Rules::Misere);
/// // Misère's only value-keeping first move is the centre (square 5).
/// assert_eq!(c.choose(&tictable::Board::EMPTY).map(|s| s.index() + 1), Some(5));
/// ```
#[derive(Clone, Debug)]
pub struct TableChooser<R> {
    rules: Rules,
    /// Its randomness.
    pub rng: R,
}

impl<R> TableChooser<R> {
    /// Perfect play of `rules`' game, drawing among best moves with `rng`; `None`
    /// when its compiled table does not read back.
    pub fn new(rules: Rules, rng: R) -> Option<TableChooser<R>> {
        tables(rules).map(|_| TableChooser { rules, rng })
    }
}

impl<R: rand_core::Rng> MoveChooser for TableChooser<R> {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        let moves = best_moves(self.rules, board);
        if moves.is_empty() {
            return None;
        }
        let i = self.rng.next_u32() as usize % moves.len();
        moves.get(i).copied()
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    /// Any of the six games whose compiled table reads back.
    fn set_rules(&mut self, rules: Rules) -> bool {
        let ok = tables(rules).is_some();
        if ok {
            self.rules = rules;
        }
        ok
    }

    /// A best move of the side to move in `p` ([`best_moves_of`]) drawn at random;
    /// `None` when the game is over. Any of the six games.
    fn choose_move(&mut self, p: &Position) -> Option<Move> {
        let moves = best_moves_of(self.rules, p);
        if moves.is_empty() {
            return None;
        }
        let i = self.rng.next_u32() as usize % moves.len();
        moves.get(i).copied()
    }
}
