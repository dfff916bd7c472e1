//! [`Analysis`]: what perfect play makes of a position. The table lookup and the live
//! search both return it, so they can be compared with `==`.

use crate::board::{Board, Player, Squares, Status};
use core::fmt;

/// The result of a game for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The player loses.
    Loss,
    /// Nobody wins.
    Draw,
    /// The player wins.
    Win,
}

impl Outcome {
    /// The outcome for the other player.
    ///
    /// ```
    /// use tictable::Outcome;
    /// assert_eq!(Outcome::Win.flip(), Outcome::Loss);
    /// assert_eq!(Outcome::Draw.flip(), Outcome::Draw);
    /// ```
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// `"win"`, `"draw"` or `"loss"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position solved under optimal play by both sides.
///
/// For a finished game, [`plies`](Analysis::plies) is 0, `best` and `safe` are empty,
/// and the outcome is the result for the side whose turn it would be (a loss when the
/// opponent completed a line, a draw for a full board).
///
/// Four bytes: the fields packed in one `u32` (bit 0 is the least significant):
/// best moves in bits 0..=8 (bit `i` = square `i`), plies in 9..=12, the side to
/// move in 13 (1 for O), safe moves in 14..=22, the outcome in 23..=24 (0 loss,
/// 1 draw, 2 win), the bits above 0. That form is also the per-board table entry of
/// 64-bit hosts, so a lookup there reads an analysis as it is stored.
///
/// ```
/// use tictable::{analyse, Board, Outcome, Player};
/// let a = analyse(&"XX.OO....".parse::<Board>().unwrap()).unwrap();
/// assert_eq!((a.to_move(), a.outcome(), a.plies()), (Player::X, Outcome::Win, 1));
/// assert_eq!(a.best().bits(), 1 << 2);
/// assert!(!a.is_terminal());
/// assert_eq!(core::mem::size_of_val(&a), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Analysis(u32);

const PLIES_SHIFT: u32 = 9;
const TO_MOVE_SHIFT: u32 = 13;
const SAFE_SHIFT: u32 = 14;
const OUTCOME_SHIFT: u32 = 23;
/// Every packed analysis is below this: outcome 0..=2 and no bit above it.
const PACKED_END: u32 = 3 << OUTCOME_SHIFT;

impl Analysis {
    /// Assembles an analysis (crate-internal: only solvers make them). `plies` is at
    /// most 9.
    pub(crate) const fn new(
        to_move: Player,
        outcome: Outcome,
        plies: u8,
        best: Squares,
        safe: Squares,
    ) -> Analysis {
        debug_assert!(plies <= 9, "at most 9 plies");
        Analysis(
            best.bits() as u32
                | ((plies & 0xf) as u32) << PLIES_SHIFT
                | (matches!(to_move, Player::O) as u32) << TO_MOVE_SHIFT
                | (safe.bits() as u32) << SAFE_SHIFT
                | (outcome as u32) << OUTCOME_SHIFT,
        )
    }

    /// The packed form (see the type's documentation).
    #[inline]
    pub(crate) const fn packed(self) -> u32 {
        self.0
    }

    /// The analysis whose packed form is `bits`, or `None` when none is (an outcome
    /// field of 3 or a bit above it): one comparison.
    #[inline(always)]
    pub(crate) const fn from_packed(bits: u32) -> Option<Analysis> {
        if bits < PACKED_END {
            Some(Analysis(bits))
        } else {
            None
        }
    }

    /// The analysis of a finished game of `status` on `board`, or `None` when play
    /// goes on.
    pub(crate) const fn finished(board: Board, status: Status) -> Option<Analysis> {
        let outcome = match status {
            // Only the player who just moved can have completed a line.
            Status::Won(_) => Outcome::Loss,
            Status::Drawn => Outcome::Draw,
            Status::Ongoing => return None,
        };
        Some(Analysis::new(
            board.to_move(),
            outcome,
            0,
            Squares::EMPTY,
            Squares::EMPTY,
        ))
    }

    /// The side to move (for a finished game, the side whose turn it would be).
    #[inline]
    pub const fn to_move(self) -> Player {
        if self.0 & 1 << TO_MOVE_SHIFT != 0 {
            Player::O
        } else {
            Player::X
        }
    }

    /// The outcome for the side to move under optimal play.
    #[inline]
    pub const fn outcome(self) -> Outcome {
        match self.0 >> OUTCOME_SHIFT {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            _ => Outcome::Win,
        }
    }

    /// Plies (single moves) to the end of the game under optimal play: the winner
    /// takes the shortest way, the loser the longest; a draw always fills the board.
    #[inline]
    pub const fn plies(self) -> u8 {
        ((self.0 >> PLIES_SHIFT) & 0xf) as u8
    }

    /// The optimal moves: best outcome, then fewest plies to a win / most plies to a loss.
    #[inline]
    pub const fn best(self) -> Squares {
        Squares::from_bits(self.0 as u16)
    }

    /// The moves that keep the outcome (a superset of [`best`](Analysis::best)).
    #[inline]
    pub const fn safe(self) -> Squares {
        Squares::from_bits((self.0 >> SAFE_SHIFT) as u16)
    }

    /// Whether the game is over.
    #[inline]
    pub const fn is_terminal(self) -> bool {
        self.plies() == 0
    }

    /// The player who wins under optimal play (for a finished game, who won); `None`
    /// for a draw.
    pub const fn winner(self) -> Option<Player> {
        match self.outcome() {
            Outcome::Win => Some(self.to_move()),
            Outcome::Loss => Some(self.to_move().other()),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Debug for Analysis {
    /// The fields by name, as a derived `Debug` of a struct with these fields prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Analysis")
            .field("to_move", &self.to_move())
            .field("outcome", &self.outcome())
            .field("plies", &self.plies())
            .field("best", &self.best())
            .field("safe", &self.safe())
            .finish()
    }
}

/// The value of one move for the player who makes it: the outcome and the plies to
/// the end of the game counting the move itself.
///
/// ```
/// use tictable::{analysis::MoveValue, Outcome};
/// assert_eq!(MoveValue { outcome: Outcome::Win, plies: 3 }.to_string(), "win in 3");
/// assert_eq!(MoveValue { outcome: Outcome::Draw, plies: 5 }.to_string(), "draw");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The outcome for the mover.
    pub outcome: Outcome,
    /// Plies to the end, this move included.
    pub plies: u8,
}

impl MoveValue {
    /// The value of a move that leads to a position analysed as `child`.
    pub const fn from_child(child: &Analysis) -> MoveValue {
        MoveValue {
            outcome: child.outcome().flip(),
            plies: child.plies() + 1,
        }
    }
}

impl fmt::Display for MoveValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            Outcome::Draw => f.write_str("draw"),
            outcome => write!(f, "{outcome} in {}", self.plies),
        }
    }
}
