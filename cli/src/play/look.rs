//! How each game's board is drawn in the terminal, from the position's text
//! ([`Game::write_position`](tictable_games::Game::write_position): rows top first,
//! joined by `/`): a grid with the empty cells' numbers (tic-tac-toe, misère,
//! m,n,k-games), Connect Four's columns with their numbers above and the pieces
//! stacked from the bottom, the morris games' points joined by their lines, and
//! hexapawn's pawns; beside the last two, the points' numbers, since a slide or a pawn
//! move names the square a piece stands on.

use tictable_games::Player;

/// The kind of board a game has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A grid of cells, numbered from 1 left to right, top to bottom.
    Grid,
    /// Connect Four: columns numbered from 1, pieces drop to the lowest empty cell.
    Columns,
    /// 3x3 points joined along rows and columns (and the two diagonals).
    Morris {
        /// Pieces also slide along the diagonals (tapatan, achi).
        diagonals: bool,
    },
    /// Hexapawn's 3x3 board with White's and Black's pawns.
    Pawns,
}

impl Look {
    /// The look of the game with this id.
    pub fn of(id: &str) -> Look {
        match id {
            "three-mens-morris" => Look::Morris { diagonals: false },
            "tapatan" | "achi" => Look::Morris { diagonals: true },
            "hexapawn" => Look::Pawns,
            _ if id.starts_with("connect4:") => Look::Columns,
            _ => Look::Grid,
        }
    }

    /// What a side is called in this game: X and O, or White and Black in hexapawn.
    pub fn side(self, player: Player) -> &'static str {
        match (self, player) {
            (Look::Pawns, Player::X) => "White",
            (Look::Pawns, Player::O) => "Black",
            (_, Player::X) => "X",
            (_, Player::O) => "O",
        }
    }

    /// The piece a side's cell shows.
    fn piece(self, player: Player) -> char {
        match (self, player) {
            (Look::Pawns, Player::X) => 'W',
            (Look::Pawns, Player::O) => 'B',
            (_, p) => p.char(),
        }
    }

    /// The board of the position written as `text`, line by line.
    ///
    /// ```text
    ///  X │ 2 │ O        1 2 3 4        X───2───O   1───2───3
    /// ───┼───┼───      │. . . .│       │ ╲ │ ╱ │   │ ╲ │ ╱ │
    ///  4 │ X │ 6       │. X . .│       4───X───6   4───5───6
    /// ```
    pub fn draw(self, text: &str) -> Vec<String> {
        let board = text.split(' ').next().unwrap_or("");
        let rows: Vec<Vec<Option<Player>>> = board
            .split('/')
            .map(|row| {
                row.chars()
                    .map(|c| match c {
                        'X' => Some(Player::X),
                        'O' => Some(Player::O),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let columns = rows.first().map_or(0, Vec::len);
        let cells = rows.len() * columns;
        let width = cells.to_string().len();
        let cell = |r: usize, c: usize| -> String {
            match rows[r][c] {
                Some(p) => format!("{:>width$}", self.piece(p)),
                None => format!("{:>width$}", r * columns + c + 1),
            }
        };
        let mut lines = Vec::new();
        match self {
            Look::Grid => {
                for r in 0..rows.len() {
                    if r > 0 {
                        let bar = "─".repeat(width + 2);
                        lines.push(vec![bar; columns].join("┼"));
                    }
                    let row: Vec<String> =
                        (0..columns).map(|c| format!(" {} ", cell(r, c))).collect();
                    lines.push(row.join("│"));
                }
            }
            Look::Columns => {
                let numbers: Vec<String> = (1..=columns).map(|c| c.to_string()).collect();
                lines.push(format!(" {}", numbers.join(" ")));
                for row in &rows {
                    let row: Vec<String> = row
                        .iter()
                        .map(|p| p.map_or('.', |p| self.piece(p)).to_string())
                        .collect();
                    lines.push(format!("│{}│", row.join(" ")));
                }
                lines.push(format!("└{}┘", "─".repeat(2 * columns - 1)));
            }
            Look::Morris { .. } | Look::Pawns => {
                let morris = matches!(self, Look::Morris { .. });
                let diagonals = matches!(self, Look::Morris { diagonals: true });
                let key = |r: usize, c: usize| (r * columns + c + 1).to_string();
                let (join, link) = if morris {
                    ("───", "│")
                } else {
                    (" ", " ")
                };
                for r in 0..rows.len() {
                    if r > 0 {
                        let (a, b) = if r % 2 == 1 {
                            ("╲", "╱")
                        } else {
                            ("╱", "╲")
                        };
                        let gap = if diagonals {
                            format!("{link} {a} {link} {b} {link}")
                        } else if morris {
                            format!("{link}   {link}   {link}")
                        } else {
                            String::new()
                        };
                        let keys_gap = if morris { gap.clone() } else { String::new() };
                        if morris {
                            lines.push(format!("{gap}   {keys_gap}"));
                        }
                    }
                    let pieces: Vec<String> = (0..columns).map(|c| cell(r, c)).collect();
                    let keys: Vec<String> = (0..columns).map(|c| key(r, c)).collect();
                    lines.push(format!("{}   {}", pieces.join(join), keys.join(join)));
                }
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_draws_its_own_board() {
        assert_eq!(
            Look::Grid.draw("X.O/.X./..."),
            [
                " X │ 2 │ O ",
                "───┼───┼───",
                " 4 │ X │ 6 ",
                "───┼───┼───",
                " 7 │ 8 │ 9 "
            ]
        );
        assert_eq!(
            Look::Columns.draw("..../..../.X../OX.."),
            [
                " 1 2 3 4",
                "│. . . .│",
                "│. . . .│",
                "│. X . .│",
                "│O X . .│",
                "└───────┘"
            ]
        );
        assert_eq!(
            Look::Morris { diagonals: true }.draw("X.O/.X./... O"),
            [
                "X───2───O   1───2───3",
                "│ ╲ │ ╱ │   │ ╲ │ ╱ │",
                "4───X───6   4───5───6",
                "│ ╱ │ ╲ │   │ ╱ │ ╲ │",
                "7───8───9   7───8───9"
            ]
        );
        assert_eq!(
            Look::Pawns.draw("OOO/.../XXX X"),
            ["B B B   1 2 3", "4 5 6   4 5 6", "W W W   7 8 9"]
        );
        assert_eq!(Look::Grid.draw("..../..../....")[2], "  5 │  6 │  7 │  8 ");
        assert_eq!(Look::of("connect4:5x4"), Look::Columns);
        assert_eq!(Look::Pawns.side(Player::O), "Black");
    }
}
