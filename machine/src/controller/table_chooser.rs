//! Perfect play of any game on the board ([`Rules`]) from `tictable-games`'
//! best-move files (`games/tables/`, e.g. `games/tables/tapatan.moves.postcard`,
//! compiled in): no move list written by hand, no search, no allocation. Each file
//! is read in place ([`best_file::packed`]: magic, version, game and CRC-32), a
//! position's class key ([`representative`]) looked up by binary search over the
//! packed entries ([`PackedFile::lookup`]), and the mask's moves (the
//! representative's legal moves in `tictable-games`' order, `legal_moves.rs`)
//! carried back to the position through their children's classes. The firmware's
//! `games` image plays this way.
//!
//! **The file's CRC-32 once per game choice.** [`TableChooser`] reads and checks its
//! game's file when it is made (at boot), when the game is chosen or switched
//! ([`MoveChooser::set_rules`]: a game choice, and the resume of a saved game), and
//! keeps it; a move's lookup reads only the few bytes of its binary search (the CRC
//! pass read the whole file, up to 2.3 KB, on every move before). What protects a
//! lookup after that check: the tables are in the program's flash, which nothing
//! writes after flashing (the snapshot store erases and programs only its own last
//! 24 KiB, every request bounds-checked: `firmware/src/storage.rs`); every move it
//! plays is one of the position's legal moves generated from the rules, never read
//! from the table; and an entry that no table can hold (a mask naming no move or a
//! move past the position's, a class missing) gives no move, so the controller
//! stops with the error light ([`Problem::Mismatch`](super::Problem::Mismatch))
//! rather than guess. A damaged mask that still names legal moves would play a
//! legal move that may not be best, until the next game choice or boot finds the
//! damage (the chooser refuses the game: at boot the firmware stops, in a game
//! choice the game is skipped). [`best_moves_of`] and [`best_moves`], for hosts and
//! tests, read and check the file on every call.

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

/// `rules`' compiled best-move file read in place and checked (magic, version,
/// CRC-32, entry widths); `None` when it does not read back or is another game's (a
/// build mistake, or flash damage: a test reads every one).
fn file(rules: Rules) -> Option<PackedFile<'static>> {
    let file = best_file::packed(compiled::file(rules.id())?).ok()?;
    (file.game == rules.id()).then_some(file)
}

/// No move (the fill of an empty list).
const NO_MOVES: List<Move> = List::new(Move::Place(Square::CENTRE));

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
/// back). Any of the six games; no allocation. Reads and checks the file on each
/// call ([`best_moves_in`] with a file checked once).
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
    file(rules).map_or(NO_MOVES, |file| best_moves_in(&file, rules, p))
}

/// Every best move of the side to move in `p` under `rules` by `file`, `rules`'
/// best-move file read and checked beforehand ([`best_file::packed`]): the
/// representative's mask carried to `p`, in the order of [`Rules::children`]. Empty
/// when the game is over, and when the entry is none a table holds: the class
/// missing, or its mask naming no move or a move past the representative's (flash
/// damaged since the check: no move rather than a guess). No allocation.
///
/// ```
/// use tictable_machine::controller::{best_moves_in, best_moves_of, Rules};
/// use tictable_games::{best_file, compiled};
/// let file = best_file::packed(compiled::file("achi").unwrap()).unwrap();
/// let start = Rules::Achi.start();
/// let (kept, checked) = (best_moves_in(&file, Rules::Achi, &start), best_moves_of(Rules::Achi, &start));
/// assert!(!kept.is_empty() && kept.as_slice() == checked.as_slice());
/// ```
pub fn best_moves_in(file: &PackedFile<'_>, rules: Rules, p: &Position) -> List<Move> {
    let mut best = NO_MOVES;
    let (key, canonical) = class(rules, p);
    let Some(mask) = file.lookup(p.to_move, key) else {
        return best;
    };
    let moves = rules.children(&canonical);
    if mask == 0 || mask.checked_shr(moves.len() as u32).unwrap_or(0) != 0 {
        return best;
    }
    // The classes the representative's best moves lead to; a move of `p` is best
    // when it leads to one of them (symmetric moves lead to symmetric children).
    let mut best_classes = List::new(0u64);
    for (i, (_, child)) in moves.iter().enumerate() {
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
/// empty when the game is over (or the table did not read back). Reads and checks
/// the file on each call.
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
    if let Some(file) = file(rules) {
        squares = best_squares(&file, rules, board);
    }
    squares
}

/// [`best_moves`] by `file`, checked beforehand.
fn best_squares(file: &PackedFile<'_>, rules: Rules, board: &Board) -> List<Square> {
    let mut squares = List::new(Square::CENTRE);
    if rules.places_only() {
        // A placing game's children come lowest square first.
        for mv in best_moves_in(file, rules, &Position::of_board(*board)) {
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
    /// `rules`' best-move file, checked when the game was chosen (module docs).
    file: PackedFile<'static>,
    /// Its randomness.
    pub rng: R,
}

impl<R> TableChooser<R> {
    /// Perfect play of `rules`' game, drawing among best moves with `rng`; `None`
    /// when its compiled best-move file does not read back (checked here, once:
    /// module docs).
    pub fn new(rules: Rules, rng: R) -> Option<TableChooser<R>> {
        file(rules).map(|file| TableChooser { rules, file, rng })
    }
}

impl<R> TableChooser<R> {
    /// A best move of the chooser's game in `moves` drawn at random.
    fn draw<T: Copy>(&mut self, moves: &[T]) -> Option<T>
    where
        R: rand_core::Rng,
    {
        if moves.is_empty() {
            return None;
        }
        let i = self.rng.next_u32() as usize % moves.len();
        moves.get(i).copied()
    }
}

impl<R: rand_core::Rng> MoveChooser for TableChooser<R> {
    fn choose(&mut self, board: &Board) -> Option<Square> {
        let moves = best_squares(&self.file, self.rules, board);
        self.draw(&moves)
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    /// Any of the six games whose compiled table reads back: the game's file is
    /// read and checked (CRC-32 and all) here, at each game choice, and kept.
    fn set_rules(&mut self, rules: Rules) -> bool {
        let Some(file) = file(rules) else {
            return false;
        };
        (self.rules, self.file) = (rules, file);
        true
    }

    /// The six games whose best-move files are compiled in (checked only when
    /// chosen, [`MoveChooser::set_rules`]).
    fn plays(&self, rules: Rules) -> bool {
        compiled::file(rules.id()).is_some()
    }

    /// A best move of the side to move in `p` ([`best_moves_in`], the file checked
    /// at the game's choice) drawn at random; `None` when the game is over (or the
    /// table's entry is damaged). Any of the six games.
    fn choose_move(&mut self, p: &Position) -> Option<Move> {
        let moves = best_moves_in(&self.file, self.rules, p);
        self.draw(&moves)
    }

    /// Whether `mv` is one of the best moves in `p` ([`best_moves_in`]).
    fn could_choose(&self, p: &Position, mv: Move) -> bool {
        best_moves_in(&self.file, self.rules, p).contains(&mv)
    }
}
