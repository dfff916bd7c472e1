//! Perfect play of any game on the board ([`Rules`]) from `tictable-games`'
//! best-move files (`games/tables/`, e.g. `games/tables/tapatan.moves.postcard`,
//! compiled in): no move list
//! written by hand, no search, no allocation. Each file is read in place
//! ([`best_file::packed`]: magic, version, game and CRC-32 checked on every read), a
//! position's class key ([`representative`]) looked up by binary search over the
//! packed entries ([`PackedFile::lookup`]), and the mask's moves (the representative's legal
//! moves in `tictable-games`' order, `legal_moves.rs`) carried back to the position
//! through their children's classes. The firmware's `games` image plays this way.

use super::legal_moves::List;
use super::position::morris;
use super::{Move, MoveChooser, Position, Rules};
use tictable::{Board, Square};
use tictable_games::best_file::{self, PackedFile};
use tictable_games::best_move::representative;
use tictable_games::{compiled, Hexapawn, TicTacToe};

/// The placing game of `rules` as `tictable-games` plays it (misère for misère,
/// tic-tac-toe for every other: the other games' types are [`Position`]'s).
pub const fn game_of(rules: Rules) -> TicTacToe {
    match rules {
        Rules::Misere => TicTacToe::misere(),
        _ => TicTacToe::normal(),
    }
}

/// `rules`' compiled best-move file read in place; `None` when it does not read
/// back or is another game's (a build mistake: a test reads every one).
fn file(rules: Rules) -> Option<PackedFile<'static>> {
    let file = best_file::packed(compiled::file(rules.id())?).ok()?;
    (file.game == rules.id()).then_some(file)
}

/// The class key of `p` under `rules` (the smallest key among its symmetric images,
/// the tables' index) and its representative, the image with that key.
fn class(rules: Rules, p: &Position) -> (u64, Position) {
    match rules {
        Rules::TicTacToe | Rules::Misere => {
            let (key, b) = representative(&game_of(rules), &p.board());
            (key, Position::of_board(b))
        }
        Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
            let (key, m) = representative(&morris(rules), &p.morris());
            (key, Position::of_morris(m))
        }
        Rules::Hexapawn => {
            let (key, h) = representative(&Hexapawn, &p.hexapawn());
            (key, Position::of_hexapawn(h))
        }
    }
}

/// Every best move of the side to move in `p` under `rules` (the moves that keep
/// the position's value, the fastest win or slowest loss), in the order of
/// [`Rules::children`]; empty when the game is over (or the table did not read
/// back). Any of the six games; no allocation.
///
/// ```
/// use tictable_machine::controller::{best_moves_of, Move, Rules};
/// use tictable::Square;
/// // Hexapawn's start: White's three pushes; Black wins every line, so all three
/// // are equally slow losses or some are faster: at least one is best.
/// let best = best_moves_of(Rules::Hexapawn, &Rules::Hexapawn.start());
/// assert!(!best.is_empty() && best.iter().all(|m| matches!(m, Move::Pawn { .. })));
/// ```
pub fn best_moves_of(rules: Rules, p: &Position) -> List<Move> {
    let mut best = List::new(Move::Place(Square::CENTRE));
    let Some(file) = file(rules) else {
        return best;
    };
    let (key, canonical) = class(rules, p);
    let Some(mask) = file.lookup(p.to_move, key) else {
        return best;
    };
    // The classes the representative's best moves lead to; a move of `p` is best
    // when it leads to one of them (symmetric moves lead to symmetric children).
    let mut best_classes = List::new(0u64);
    for (i, (_, child)) in rules.children(&canonical).iter().enumerate() {
        if mask >> i & 1 != 0 {
            best_classes.push(class(rules, child).0);
        }
    }
    for (mv, child) in rules.children(p) {
        if best_classes.contains(&class(rules, &child).0) {
            best.push(mv);
        }
    }
    best
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
pub fn best_moves(rules: Rules, board: &Board) -> List<Square> {
    let mut squares = List::new(Square::CENTRE);
    if rules.places_only() {
        // A placing game's children come lowest square first.
        for mv in best_moves_of(rules, &Position::of_board(*board)) {
            squares.push(mv.to());
        }
    }
    squares
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
    /// when its compiled best-move file does not read back.
    pub fn new(rules: Rules, rng: R) -> Option<TableChooser<R>> {
        file(rules).map(|_| TableChooser { rules, rng })
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
        let ok = file(rules).is_some();
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
