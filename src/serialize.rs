//! `serde` support (feature `serde`, no_std): [`Square`], [`Player`], [`Board`] and
//! [`Game`] serialize and deserialize, and deserializing **validates**: a square above
//! 8, a board no game reaches, or a game whose moves cannot be played in order is a
//! deserialization error, so a tampered file never yields a bad value.
//!
//! Formats:
//! - `Square`: its index, a number 0..=8.
//! - `Player`: the character `X` or `O`.
//! - `Board`: in human-readable formats (JSON) the 9-character text `XX.OO....`;
//!   in binary formats (postcard) the pair of bitboards `(x, o)`.
//! - `Game`: `{"moves": [4, 0, 8], "cursor": 3}`: every recorded move in order (square
//!   indices), and how many of them are played (the rest can be redone). Unknown
//!   fields are rejected.
//!
//! ```
//! use tictable::{game::Game, Square};
//! let mut game = Game::new();
//! game.play(Square::CENTRE).unwrap();
//! let json = serde_json::to_string(&game).unwrap();
//! assert_eq!(json, r#"{"moves":[4],"cursor":1}"#);
//! assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
//! let err = serde_json::from_str::<Game>(r#"{"moves":[4,4],"cursor":2}"#).unwrap_err();
//! assert!(err.to_string().contains("move 2 (square 4) is illegal"));
//! ```

use crate::board::{Board, Player, Square};
use crate::game::Game;
use core::fmt;
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.index())
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let index = u8::deserialize(deserializer)?;
        Square::new(index).ok_or_else(|| {
            de::Error::invalid_value(de::Unexpected::Unsigned(index.into()), &"a square 0..=8")
        })
    }
}

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.char())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        match char::deserialize(deserializer)? {
            'X' | 'x' => Ok(Player::X),
            'O' | 'o' => Ok(Player::O),
            other => Err(de::Error::invalid_value(
                de::Unexpected::Char(other),
                &"X or O",
            )),
        }
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(self)
        } else {
            (self.x(), self.o()).serialize(serializer)
        }
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(BoardText)
        } else {
            let (x, o) = <(u16, u16)>::deserialize(deserializer)?;
            let board = Board::from_bits(x, o).map_err(de::Error::custom)?;
            board.validate().map_err(de::Error::custom)?;
            Ok(board)
        }
    }
}

/// Parses a board from its text, validating it.
struct BoardText;

impl Visitor<'_> for BoardText {
    type Value = Board;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a position such as \"XX.OO....\"")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Board, E> {
        text.parse().map_err(E::custom)
    }
}

/// The saved form of a game, borrowed for serializing.
#[derive(serde::Serialize)]
#[serde(rename = "Game")]
struct GameOut<'a> {
    moves: &'a [Square],
    cursor: u8,
}

/// The fields of a saved game, in their order.
const GAME_FIELDS: &[&str] = &["moves", "cursor"];

/// Reads the saved form of a game, before validation: in a human-readable format
/// (JSON) only the documented object `{"moves":[...],"cursor":N}` (serde's derive
/// would also take the array form `[[...],N]`); in a binary one (postcard) the
/// fields in order, which is how those formats write a struct.
struct GameVisitor {
    human_readable: bool,
}

impl<'de> Visitor<'de> for GameVisitor {
    type Value = (Moves, u8);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"a saved game {"moves": [squares 0..=8], "cursor": N}"#)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(Moves, u8), A::Error> {
        let (mut moves, mut cursor) = (None, None);
        while let Some(key) = map.next_key::<GameField>()? {
            match key {
                GameField::Moves if moves.is_none() => moves = Some(map.next_value()?),
                GameField::Cursor if cursor.is_none() => cursor = Some(map.next_value()?),
                GameField::Moves => return Err(de::Error::duplicate_field("moves")),
                GameField::Cursor => return Err(de::Error::duplicate_field("cursor")),
            }
        }
        Ok((
            moves.ok_or_else(|| de::Error::missing_field("moves"))?,
            cursor.ok_or_else(|| de::Error::missing_field("cursor"))?,
        ))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(Moves, u8), A::Error> {
        if self.human_readable {
            return Err(de::Error::invalid_type(de::Unexpected::Seq, &self));
        }
        let moves = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let cursor = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((moves, cursor))
    }
}

/// A field name of a saved game; any other name is an error.
enum GameField {
    Moves,
    Cursor,
}

impl<'de> Deserialize<'de> for GameField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameField, D::Error> {
        deserializer.deserialize_identifier(GameFieldVisitor)
    }
}

struct GameFieldVisitor;

impl Visitor<'_> for GameFieldVisitor {
    type Value = GameField;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`moves` or `cursor`")
    }
    fn visit_str<E: de::Error>(self, name: &str) -> Result<GameField, E> {
        match name {
            "moves" => Ok(GameField::Moves),
            "cursor" => Ok(GameField::Cursor),
            // The name is not echoed: it may be arbitrarily long.
            _ => Err(E::custom(format_args!(
                "unknown field ({} bytes), expected `moves` or `cursor`",
                name.len()
            ))),
        }
    }
    fn visit_u64<E: de::Error>(self, index: u64) -> Result<GameField, E> {
        match index {
            0 => Ok(GameField::Moves),
            1 => Ok(GameField::Cursor),
            _ => Err(E::invalid_value(de::Unexpected::Unsigned(index), &self)),
        }
    }
}

/// Up to nine squares read from a sequence, without allocation.
struct Moves {
    squares: [Square; 9],
    len: usize,
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Moves, D::Error> {
        deserializer.deserialize_seq(MovesVisitor)
    }
}

struct MovesVisitor;

impl<'de> Visitor<'de> for MovesVisitor {
    type Value = Moves;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of at most 9 squares 0..=8")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Moves, A::Error> {
        let mut moves = Moves {
            squares: [Square::CENTRE; 9],
            len: 0,
        };
        while let Some(square) = seq.next_element::<Square>()? {
            if moves.len == 9 {
                return Err(de::Error::invalid_length(10, &self));
            }
            moves.squares[moves.len] = square;
            moves.len += 1;
        }
        Ok(moves)
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GameOut {
            moves: self.history(),
            cursor: self.ply() as u8,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let human_readable = deserializer.is_human_readable();
        let (moves, cursor) =
            deserializer.deserialize_struct("Game", GAME_FIELDS, GameVisitor { human_readable })?;
        Game::from_moves(&moves.squares[..moves.len], cursor.into()).map_err(de::Error::custom)
    }
}
