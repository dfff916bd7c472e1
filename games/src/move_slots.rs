//! A game's moves as cell changes, **derived from the game's Rust definition** for the
//! C and Python exports, so that they give the best moves of the position asked (not
//! only of its class's representative) and list its legal moves, with no move rule
//! written twice.
//!
//! Every move of a shipped game puts a piece of the mover on one cell (`to`), either
//! new (a placement, a Connect Four drop) or from another cell that it leaves empty
//! (`from`: a slide, a pawn's step). Each such move is a **slot**: a placement or drop
//! onto cell `c` is slot `c`; the moves from one cell to another are numbered after
//! the cells, in order of (`from`, `to`). A slot is legal when:
//! - `from` (if any) holds the mover's piece and `to` is empty, or holds an enemy piece
//!   for a capturing slot;
//! - every cell of its `support` is occupied (Connect Four: the cells below);
//! - placements while the mover has fewer than `placing` pieces on the board, moves
//!   from a cell once it has that many (the morris games' two phases).
//!
//! The legal slots are listed in one fixed `order`, which gives each position's
//! moves in the game's own order. [`MoveSlots::derive`] finds all of this from the
//! game's `moves` and `play` over positions played from the start (as
//! [`crate::cell_key`] finds the key) and checks it on every one of them.
//!
//! ```
//! use tictable_games::{move_slots::MoveSlots, Game, Player, Morris};
//! let game = Morris::three_mens_morris();
//! let slots = MoveSlots::derive(&game).unwrap();
//! assert_eq!(slots.placing, 3);
//! // X's pieces on 0, 4, 8 (a line would have ended the game: here 0, 1, 5), O's on 2, 6, 7.
//! let cells = [1, 1, 2, 0, 0, 1, 2, 2, 0];
//! let legal: Vec<_> = slots.legal(&cells, Player::X).iter().map(|&s| slots.slots[s as usize]).collect();
//! assert_eq!(legal.iter().map(|s| (s.from, s.to)).collect::<Vec<_>>(),
//!            [(Some(0), 3), (Some(1), 4), (Some(5), 4), (Some(5), 8)]);
//! ```

use crate::cell_key::{samples, CellKey};
use crate::game::{Game, Player};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// One kind of move: a piece of the mover onto `to`, from `from` or new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The cell the piece leaves, `None` for a placement or a drop.
    pub from: Option<u8>,
    /// The cell it lands on.
    pub to: u8,
    /// Whether `to` holds an enemy piece (taken), not an empty cell.
    pub captures: bool,
    /// Cells that must be occupied for a placement (bit `i` = cell `i`).
    pub support: u64,
    /// Who may make it: bit 0 the first player, bit 1 the second.
    pub sides: u8,
}

/// A game's moves as slots (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSlots {
    /// The cells of the board.
    pub cells: usize,
    /// Every slot by number (a number below `cells` that no placement uses is there
    /// with no `sides`: never legal).
    pub slots: Vec<Slot>,
    /// The slot numbers in the order the game lists its moves.
    pub order: Vec<u8>,
    /// Placements while the mover has fewer pieces on the board, moves from a cell
    /// once it has this many.
    pub placing: u8,
}

/// Why a game's moves are not slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSlotsError {
    /// A position is not written as a grid of `X`, `O` and `.` (64 cells at most).
    NotAGrid,
    /// A move changes cells otherwise than one piece of the mover onto one cell.
    NotACellMove,
    /// More than 64 slots: a mask of them does not fit 64 bits.
    TooMany,
    /// The slots' rules or order give another list of legal moves than the game on a
    /// position it was derived from.
    Disagrees,
}

impl fmt::Display for MoveSlotsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveSlotsError::NotAGrid => "positions are not written as a grid of X, O and .",
            MoveSlotsError::NotACellMove => "a move is not one piece of the mover onto a cell",
            MoveSlotsError::TooMany => "more than 64 kinds of move",
            MoveSlotsError::Disagrees => "the derived move rules disagree with the game's moves",
        })
    }
}

impl core::error::Error for MoveSlotsError {}

/// A move's (`from`, `to`) cells.
type Cells = (Option<u8>, u8);

/// What a slot was seen with while deriving.
struct Seen {
    captures: bool,
    support: u64,
    sides: u8,
}

/// The occupied cells of `cells` (bit `i` = cell `i`).
fn occupied(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The mover's piece (1 or 2) for `side`.
fn piece(side: Player) -> u8 {
    if side == Player::O {
        2
    } else {
        1
    }
}

/// The (`from`, `to`, captures) of the move from `before` to `after` by `mover`.
fn change(
    before: &[u8],
    after: &[u8],
    mover: u8,
) -> Result<(Option<u8>, u8, bool), MoveSlotsError> {
    let (mut from, mut to) = (None, None);
    for (i, (&b, &a)) in before.iter().zip(after).enumerate() {
        match (b, a) {
            _ if a == b => {}
            (m, 0) if m == mover && from.is_none() => from = Some(i as u8),
            (b, m) if m == mover && b != mover && to.is_none() => to = Some(i as u8),
            _ => return Err(MoveSlotsError::NotACellMove),
        }
    }
    let to = to.ok_or(MoveSlotsError::NotACellMove)?;
    Ok((from, to, before[usize::from(to)] != 0))
}

impl MoveSlots {
    /// The slot of the move that turns `position` into `child` (the game's `play`), or
    /// `None` when no slot is that move.
    pub fn slot_of<G: Game>(
        &self,
        game: &G,
        position: &G::Position,
        child: &G::Position,
    ) -> Option<u8> {
        let before = CellKey::cells_of(game, position)?;
        let after = CellKey::cells_of(game, child)?;
        let (from, to, _) = change(&before, &after, piece(game.to_move(position))).ok()?;
        self.number(from, to)
    }

    /// The number of the slot from `from` to `to`.
    pub fn number(&self, from: Option<u8>, to: u8) -> Option<u8> {
        match from {
            None => (usize::from(to) < self.cells && self.slots[usize::from(to)].sides != 0)
                .then_some(to),
            Some(_) => self
                .slots
                .iter()
                .skip(self.cells)
                .position(|s| s.from == from && s.to == to)
                .map(|i| (i + self.cells) as u8),
        }
    }

    /// The legal slots of `cells` with `side` to move (a position where the game goes
    /// on), in the game's move order.
    pub fn legal(&self, cells: &[u8], side: Player) -> Vec<u8> {
        let mine = piece(side);
        let own = cells.iter().filter(|&&c| c == mine).count();
        let full = occupied(cells);
        self.order
            .iter()
            .copied()
            .filter(|&s| {
                let slot = &self.slots[usize::from(s)];
                let phase = match slot.from {
                    None => own < usize::from(self.placing),
                    Some(f) => own >= usize::from(self.placing) && cells[usize::from(f)] == mine,
                };
                let want = if slot.captures { 3 - mine } else { 0 };
                phase
                    && slot.sides & mine != 0
                    && cells[usize::from(slot.to)] == want
                    && full & slot.support == slot.support
            })
            .collect()
    }

    /// The slots of `game` (see the module), checked on every position they were
    /// derived from.
    pub fn derive<G: Game>(game: &G) -> Result<MoveSlots, MoveSlotsError> {
        let positions = samples(game);
        let mut seen: BTreeMap<Cells, Seen> = BTreeMap::new();
        let mut lists: Vec<(Vec<u8>, Player, Vec<Cells>)> = Vec::new();
        let (mut placing, mut cells_n) = (0u8, None);
        let mut moves = Vec::new();
        for p in &positions {
            if game.primitive(p).is_some() {
                continue;
            }
            let cells = CellKey::cells_of(game, p).ok_or(MoveSlotsError::NotAGrid)?;
            if *cells_n.get_or_insert(cells.len()) != cells.len() {
                return Err(MoveSlotsError::NotAGrid);
            }
            let side = game.to_move(p);
            let mine = piece(side);
            let own = cells.iter().filter(|&&c| c == mine).count() as u8;
            moves.clear();
            game.moves(p, &mut moves);
            let mut list = Vec::new();
            for &m in &moves {
                let after =
                    CellKey::cells_of(game, &game.play(p, m)).ok_or(MoveSlotsError::NotAGrid)?;
                let (from, to, captures) = change(&cells, &after, mine)?;
                if from.is_none() {
                    placing = placing.max(own + 1);
                }
                let entry = seen.entry((from, to)).or_insert(Seen {
                    captures,
                    support: u64::MAX,
                    sides: 0,
                });
                entry.sides |= mine;
                if entry.captures != captures {
                    return Err(MoveSlotsError::Disagrees);
                }
                entry.support &= occupied(&cells);
                list.push((from, to));
            }
            lists.push((cells, side, list));
        }
        let cells = cells_n.ok_or(MoveSlotsError::NotAGrid)?;
        let moving: Vec<(Option<u8>, u8)> =
            seen.keys().filter(|(f, _)| f.is_some()).copied().collect();
        if cells + moving.len() > 64 {
            return Err(MoveSlotsError::TooMany);
        }
        let mut slots: Vec<Slot> = (0..cells as u8)
            .map(|to| Slot {
                from: None,
                to,
                captures: false,
                support: 0,
                sides: 0,
            })
            .collect();
        for (&(from, to), s) in &seen {
            // A placement's support: the cells always occupied when it was legal (a
            // moving piece needs only its two cells).
            let slot = Slot {
                from,
                to,
                captures: s.captures,
                support: if from.is_none() { s.support } else { 0 },
                sides: s.sides,
            };
            match from {
                None => slots[usize::from(to)] = slot,
                Some(_) => slots.push(slot),
            }
        }
        let mut result = MoveSlots {
            cells,
            slots,
            order: Vec::new(),
            placing,
        };
        // The order: every pair seen in a position's list, sorted topologically (the
        // smallest number first among the slots free to come next).
        let n = result.slots.len();
        let mut after = vec![BTreeSet::new(); n];
        let mut before_count = vec![0usize; n];
        let mut used = vec![false; n];
        let numbered: Vec<(Vec<u8>, Player, Vec<u8>)> = lists
            .into_iter()
            .map(|(c, side, list)| {
                let list: Vec<u8> = list
                    .into_iter()
                    .map(|(f, t)| result.number(f, t).ok_or(MoveSlotsError::Disagrees))
                    .collect::<Result<_, _>>()?;
                Ok((c, side, list))
            })
            .collect::<Result<_, MoveSlotsError>>()?;
        for (_, _, list) in &numbered {
            for w in list.windows(2) {
                if after[usize::from(w[0])].insert(w[1]) {
                    before_count[usize::from(w[1])] += 1;
                }
            }
            for &s in list {
                used[usize::from(s)] = true;
            }
        }
        let mut free: BTreeSet<u8> = (0..n as u8)
            .filter(|&s| used[usize::from(s)] && before_count[usize::from(s)] == 0)
            .collect();
        while let Some(s) = free.pop_first() {
            result.order.push(s);
            for &t in &after[usize::from(s)] {
                before_count[usize::from(t)] -= 1;
                if before_count[usize::from(t)] == 0 {
                    free.insert(t);
                }
            }
        }
        if result.order.len() != used.iter().filter(|&&u| u).count() {
            return Err(MoveSlotsError::Disagrees);
        }
        for (c, side, list) in &numbered {
            if result.legal(c, *side) != *list {
                return Err(MoveSlotsError::Disagrees);
            }
        }
        Ok(result)
    }
}
