//! Players as people write them on the command line: a level name (`hard` is
//! `perfect`), an optional number (the mistake rate of `perfect` and `trap`, F of
//! `gentle`, ε of `epsilon`), and an optional forced first move numbered 1-9 left to
//! right, top to bottom (the library's text form numbers it 0-8). Every subcommand
//! reads its levels here, and [`for_game`] turns one into the player of any other game.

use std::fmt;
use tictable::strategy::{Level, Strategy};
use tictable::Square;
use tictable_games::players::Player;

/// Parses `LEVEL[:RATE][@SQUARE]` with `SQUARE` in 1-9 and `hard` for `perfect`.
pub fn parse(text: &str) -> Result<Strategy, String> {
    let (rest, first_move) = match text.split_once('@') {
        Some((rest, square)) => match square.trim().parse::<u8>() {
            Ok(n @ 1..=9) => (rest, Square::new(n - 1)),
            _ => {
                return Err(format!(
                    "bad first move `{square}`: expected a square 1-9 (left to right, top to \
                     bottom), e.g. perfect@5"
                ))
            }
        },
        None => (text, None),
    };
    let (level, rate) = rest
        .split_once(':')
        .map_or((rest, None), |(l, r)| (l, Some(r)));
    let level = if level.eq_ignore_ascii_case("hard") {
        "perfect"
    } else {
        level
    };
    let library_form = match rate {
        Some(rate) => format!("{level}:{rate}"),
        None => level.to_string(),
    };
    library_form
        .parse::<Strategy>()
        .map(|s| s.with_first_move(first_move))
        .map_err(|e| match e {
            tictable::strategy::ParseStrategyError::UnknownLevel => {
                let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                format!(
                    "unknown level `{level}` (expected {}, or hard for perfect)",
                    names.join(", ")
                )
            }
            e => e.to_string(),
        })
}

/// A player as the person wrote it on the command line: the strategy [`parse`]
/// read, and the text itself (`hard@5` stays `hard@5` where output names the
/// player as written, such as `selfplay --json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The strategy.
    pub strategy: Strategy,
    /// The text as typed.
    pub text: String,
}

/// Reads a player as [`parse`] does, keeping the text.
pub fn parse_written(text: &str) -> Result<Written, String> {
    Ok(Written {
        strategy: parse(text)?,
        text: text.to_string(),
    })
}

/// A strategy written as [`parse`] reads it (first move 1-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named(pub Strategy);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.with_first_move(None))?;
        match self.0.first_move() {
            Some(square) => write!(f, "@{}", square.index() + 1),
            None => Ok(()),
        }
    }
}

/// The player of a game other than tic-tac-toe for a level [`parse`] read
/// (`--game G` in `play` and `selfplay`): perfect, sharp, gentle:F, adaptive, random
/// or epsilon:E ([`tictable_games::players`]); in a game whose positions `repeat`
/// (the morris games) perfect or random only. The error says which levels work.
pub fn for_game(strategy: Strategy, repeats: bool) -> Result<Player, String> {
    let named = Named(strategy);
    let player = Player::new(strategy).map_err(|_| {
        format!(
            "`{named}` plays tic-tac-toe only: with --game, a level is perfect (or hard), \
             sharp, gentle:F, adaptive, random or epsilon:E, without a mistake rate or a \
             first move"
        )
    })?;
    if repeats && !matches!(strategy.level(), Level::Perfect | Level::Random) {
        return Err(format!(
            "`{named}` looks ahead to the end of the game, and in a game whose positions \
             repeat (three-mens-morris, tapatan, achi) play may never end: there a level is \
             perfect (or hard) or random"
        ));
    }
    Ok(player)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_takes_the_players_levels_and_the_morris_games_two() {
        for level in [
            "perfect",
            "hard",
            "sharp",
            "gentle:0.3",
            "adaptive",
            "random",
            "epsilon:0.1",
        ] {
            let player = for_game(parse(level).unwrap(), false).unwrap();
            assert_eq!(player.level(), parse(level).unwrap().level(), "{level}");
        }
        for level in ["trap", "easy", "medium", "perfect:0.1", "sharp@5"] {
            let e = for_game(parse(level).unwrap(), false).unwrap_err();
            assert!(
                e.contains("tic-tac-toe only") && e.contains("epsilon:E"),
                "{level}: {e}"
            );
        }
        assert!(for_game(parse("random").unwrap(), true).is_ok());
        assert!(for_game(parse("perfect").unwrap(), true).is_ok());
        let e = for_game(parse("sharp").unwrap(), true).unwrap_err();
        assert!(e.contains("perfect (or hard) or random"), "{e}");
    }

    #[test]
    fn people_number_the_first_move_1_to_9_and_hard_is_perfect() {
        let s = parse("hard:0.15@5").unwrap();
        assert_eq!(s.level(), Level::Perfect);
        assert_eq!(s.first_move(), Square::new(4));
        assert_eq!(Named(s).to_string(), "perfect:0.15@5");
        assert_eq!(parse("trap@1").unwrap().first_move(), Square::new(0));
        assert_eq!(Named(parse("Trap@9").unwrap()).to_string(), "trap@9");
        assert!(parse("perfect@0").unwrap_err().contains("1-9"));
        assert!(parse("perfect@10").is_err());
        assert!(parse("robot").unwrap_err().contains("hard"));
        assert!(parse("easy:0.2").is_err());
        let hard = parse_written("hard@5").unwrap();
        assert_eq!(
            (hard.strategy, hard.text.as_str()),
            (parse("perfect@5").unwrap(), "hard@5")
        );
    }

    #[test]
    fn gentle_takes_f_from_0_to_1_and_says_so() {
        assert_eq!(Named(parse("gentle").unwrap()).to_string(), "gentle:0.5");
        assert_eq!(Named(parse("gentle:0").unwrap()).to_string(), "gentle:0");
        assert_eq!(
            Named(parse("Gentle:1@5").unwrap()).to_string(),
            "gentle:1@5"
        );
        for bad in ["gentle:1.5", "gentle:-0.1", "gentle:x", "gentle:"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("F from 0 to 1"), "{bad}: {e}");
        }
        assert!(parse("epsilon:2").unwrap_err().contains("ε from 0 to 1"));
        assert!(parse("sharp:0.5").is_err());
        assert!(parse("robot").unwrap_err().contains("adaptive"));
    }
}
