//! [`Position`]: a position of any game the machine plays (the `games` feature),
//! its legal moves and children from `tictable-games`' rules (no move list by
//! hand), its end, the view the sensors should show, and the person's move read
//! from a view: "the view equals exactly one legal child's view" (design:
//! docs/machine.md, "Sliding games and hexapawn").

use super::legal_moves::Children;
use super::{Move, Rules};
use crate::classify::Sensed;
use crate::scanner::BoardView;
use crate::Colour;
use tictable::{Board, Player, Square};
#[cfg(feature = "std")]
use tictable_games::Outcome;
use tictable_games::{HexapawnPosition, Morris, MorrisPosition};

/// A position: the first mover's (X's) and the second mover's (O's) squares (bit
/// `i` = square `i`) and the side to move. In tic-tac-toe, misère and the morris
/// games X plays black; in hexapawn X is White and plays white ([`Rules::colour`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// X's squares.
    pub x: u16,
    /// O's squares.
    pub o: u16,
    /// The side to move.
    pub to_move: Player,
}

impl Rules {
    /// The colour of `player`'s pieces: black for X, except in hexapawn, whose
    /// first player is White.
    pub const fn colour(self, player: Player) -> Colour {
        match (self, player) {
            (Rules::Hexapawn, Player::X) => Colour::White,
            (Rules::Hexapawn, Player::O) => Colour::Black,
            (_, p) => Colour::of(p),
        }
    }

    /// The start's value for the first player by `tictable-games`' solve:
    /// `Some(true)` a win, `Some(false)` a loss, `None` a draw (solved on each call:
    /// milliseconds).
    ///
    /// ```
    /// use tictable_machine::controller::Rules;
    /// assert_eq!(Rules::TicTacToe.first_player_wins(), None);
    /// assert_eq!(Rules::Hexapawn.first_player_wins(), Some(false));
    /// ```
    #[cfg(feature = "std")]
    pub fn first_player_wins(self) -> Option<bool> {
        use tictable_games::{solve, Hexapawn};
        let outcome = match self {
            Rules::TicTacToe | Rules::Misere => solve(super::game_of(self)).ok()?.start().outcome,
            Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
                solve(morris(self)).ok()?.start().outcome
            }
            Rules::Hexapawn => solve(Hexapawn).ok()?.start().outcome,
        };
        match outcome {
            Outcome::Win => Some(true),
            Outcome::Loss => Some(false),
            Outcome::Draw => None,
        }
    }

    /// The game's start.
    pub fn start(self) -> Position {
        match self {
            Rules::Hexapawn => {
                Position::of_hexapawn(tictable_games::Game::start(&tictable_games::Hexapawn))
            }
            _ => Position {
                x: 0,
                o: 0,
                to_move: Player::X,
            },
        }
    }

    /// Every legal move of the side to move with its child, in `tictable-games`'
    /// order (the best-move tables' order); empty once the game is over. No
    /// allocation (`legal_moves.rs`).
    pub fn children(self, p: &Position) -> Children {
        super::legal_moves::children(self, p)
    }

    /// `p` after `mv`, when `mv` is a legal move there.
    pub fn play(self, p: &Position, mv: Move) -> Option<Position> {
        self.children(p)
            .into_iter()
            .find_map(|(m, child)| (m == mv).then_some(child))
    }

    /// `None` while the game goes on; when its rules end it, `Some` of the winner
    /// (`None`: a draw). (The machine's draws by repetition and length are the
    /// record's: `GameRecord::outcome`.)
    pub fn result_of(self, p: &Position) -> Option<Option<Player>> {
        super::legal_moves::result(self, p)
    }

    /// What the sensors show for `p`: each piece in its player's colour.
    pub fn view(self, p: &Position) -> BoardView {
        let mut v = BoardView::EMPTY;
        for s in Square::ALL {
            if p.x & s.bit() != 0 {
                v.set(s, Sensed::Piece(self.colour(Player::X)));
            } else if p.o & s.bit() != 0 {
                v.set(s, Sensed::Piece(self.colour(Player::O)));
            }
        }
        v
    }

    /// The person's move read from `view`: the legal move of `p` whose child looks
    /// exactly like `view` (two children never look alike, so at most one does);
    /// `None` for anything else (no move yet, an illegal slide or capture, a piece
    /// moved twice, an extra piece, a swept board).
    pub fn move_seen(self, p: &Position, view: &BoardView) -> Option<Move> {
        self.children(p)
            .into_iter()
            .find_map(|(mv, child)| (self.view(&child) == *view).then_some(mv))
    }
}

/// The morris game of `rules` (three men's morris for a game that is none).
pub(super) fn morris(rules: Rules) -> Morris {
    match rules {
        Rules::Tapatan => Morris::tapatan(),
        Rules::Achi => Morris::achi(),
        _ => Morris::three_mens_morris(),
    }
}

impl Position {
    /// The tic-tac-toe position.
    pub const fn of_board(b: Board) -> Position {
        Position {
            x: b.x(),
            o: b.o(),
            to_move: b.to_move(),
        }
    }

    /// As a tic-tac-toe board (a placing game's position; `Board::EMPTY` when the
    /// squares are no tic-tac-toe position).
    pub fn board(&self) -> Board {
        Board::from_bits(self.x, self.o).unwrap_or(Board::EMPTY)
    }

    pub(super) fn of_morris(m: MorrisPosition) -> Position {
        Position {
            x: m.x,
            o: m.o,
            to_move: m.to_move,
        }
    }

    pub(super) fn morris(&self) -> MorrisPosition {
        MorrisPosition {
            x: self.x,
            o: self.o,
            to_move: self.to_move,
        }
    }

    pub(super) fn of_hexapawn(h: HexapawnPosition) -> Position {
        Position {
            x: h.white,
            o: h.black,
            to_move: h.to_move,
        }
    }

    pub(super) fn hexapawn(&self) -> HexapawnPosition {
        HexapawnPosition {
            white: self.x,
            black: self.o,
            to_move: self.to_move,
        }
    }
}
