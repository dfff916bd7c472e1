//! Numbers people type on the command line, one parser each for every subcommand:
//! a number of games and a seed. Negative numbers reach these parsers (the arguments
//! allow hyphen values), so they get these messages, not clap's "unexpected argument".

/// A number of games: a whole number from 1 to `max` (no games say nothing).
pub fn games(text: &str, max: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a number of games: a whole number from 1 to {max}"
        )),
    }
}

/// A seed: a whole number from 0 to `u64::MAX`.
pub fn seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "`{text}` is not a seed: a whole number from 0 to {}",
            u64::MAX
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_start_at_one_and_stop_at_the_maximum() {
        assert_eq!(games("1", 10), Ok(1));
        assert_eq!(games(" 10 ", 10), Ok(10));
        for bad in ["0", "11", "-1", "+", "", "two"] {
            assert!(
                games(bad, 10).unwrap_err().contains("from 1 to 10"),
                "{bad}"
            );
        }
        assert_eq!(seed("0"), Ok(0));
        assert!(seed("-1").unwrap_err().contains("not a seed"));
    }
}
