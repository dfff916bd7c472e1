//! The machine's move times of a `tictable simulate` run, from the states it
//! goes through: each placement (from its first attempt to the state after its
//! verification: the piece verified, or the error light) and each of its own
//! moves in the games whose pieces move (a slide or pawn move, two travels: to
//! its piece, then on to the point; a capture's carry to its place first), from
//! the state that starts it to the first state that is not carrying or checking
//! it. Placements are timed as the contract times them (`PLACEMENT_LIMIT_MS`);
//! a move starts where the record grew by it (a moved piece put back, or a
//! slide finished after a reset, is not timed).

use tictable_machine::controller::{GameRecord, State};

/// The times seen so far, ms of simulated time.
#[derive(Debug, Default)]
pub struct MoveTimes {
    /// Each placement's.
    pub placements: Vec<u32>,
    /// Each move's (the games whose pieces move).
    pub moves: Vec<u32>,
    placing_since: Option<u32>,
    moving_since: Option<u32>,
    last_len: usize,
}

/// Whether `state` places a piece (moving it, or checking it arrived).
fn placing(state: State) -> bool {
    matches!(state, State::Placing { .. } | State::Verifying { .. })
}

/// Whether `state` carries or checks a piece already on the board (a slide, a
/// pawn move, a capture's carry, a moved piece put back).
fn carrying(state: State) -> bool {
    matches!(
        state,
        State::Restoring { .. } | State::VerifyingRestore { .. } | State::Capturing { .. }
    )
}

impl MoveTimes {
    /// The machine entered `state` at `now_ms`, its record `record`.
    pub fn saw(&mut self, now_ms: u32, state: State, record: &GameRecord) {
        let first = matches!(state, State::Placing { attempt: 1, .. });
        if let Some(t0) = self.placing_since.filter(|_| !placing(state) || first) {
            self.placements.push(now_ms.wrapping_sub(t0));
            self.placing_since = None;
        }
        if placing(state) && self.placing_since.is_none() {
            self.placing_since = Some(now_ms);
        }
        if let Some(t0) = self.moving_since.filter(|_| !carrying(state)) {
            self.moves.push(now_ms.wrapping_sub(t0));
            self.moving_since = None;
        }
        let starts = match state {
            State::Capturing { attempt: 1, .. } => true,
            State::Restoring { attempt: 1, .. } => record.len() > self.last_len,
            _ => false,
        };
        if starts && self.moving_since.is_none() {
            self.moving_since = Some(now_ms);
        }
        self.last_len = record.len();
    }
}

/// The `q` quantile of `times` (nearest rank: the smallest time with at least
/// `q` of them at or below it), ms; `None` for no time.
pub fn quantile(times: &[u32], q: f64) -> Option<u32> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted.get(rank - 1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable::Square;
    use tictable_machine::Colour;

    #[test]
    fn quantiles_are_nearest_ranks() {
        let t: Vec<u32> = (1..=100).collect();
        assert_eq!(quantile(&t, 0.5), Some(50));
        assert_eq!(quantile(&t, 0.99), Some(99));
        assert_eq!(quantile(&[7], 0.99), Some(7));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn placements_in_a_row_are_timed_each_and_a_put_back_piece_is_no_move() {
        let s = Square::new(4).unwrap();
        let (placing, verifying) = (
            State::Placing {
                square: s,
                colour: Colour::Black,
                attempt: 1,
                slot: 0,
            },
            State::Verifying {
                square: s,
                colour: Colour::Black,
                attempt: 1,
                slot: 0,
            },
        );
        let restoring = State::Restoring {
            from: s,
            to: s,
            attempt: 1,
        };
        let mut grown = GameRecord::new();
        let mut t = MoveTimes::default();
        let empty = GameRecord::new();
        t.saw(0, placing, &empty);
        t.saw(2_000, verifying, &empty);
        t.saw(2_500, placing, &empty);
        t.saw(5_000, State::HumanTurn, &empty);
        assert_eq!(t.placements, [2_500, 2_500]);
        // A device piece put back: the record did not grow.
        t.saw(6_000, restoring, &empty);
        t.saw(8_000, State::HumanTurn, &empty);
        assert!(t.moves.is_empty());
        grown.push(s).unwrap();
        t.saw(9_000, restoring, &grown);
        t.saw(13_000, State::HumanTurn, &grown);
        assert_eq!(t.moves, [4_000]);
    }
}
