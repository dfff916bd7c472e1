//! Whether a Connect Four position given by a person can arise in a game, for the
//! boards answered by the live search (which has no table of reachable positions).

use std::collections::HashSet;
use tictable_games::{Connect4Position, ConnectFour, Game};

/// Whether `position` (already well formed: no floating piece, X as many pieces as O or
/// one more) is reached by some game from the start: the pieces can be taken off the
/// column tops, last mover's first, back to the empty board without passing a finished
/// position. The positions met are prefixes of the columns, at most
/// `(height + 1) ^ width` of them (15,625 for 6x4), each tried once.
pub fn connect_four(game: &ConnectFour, position: &Connect4Position) -> bool {
    let mut failed = HashSet::new();
    back_to_start(game, *position, &mut failed)
}

/// [`connect_four`]'s search: `failed` holds the masks already known not to reach back.
fn back_to_start(game: &ConnectFour, p: Connect4Position, failed: &mut HashSet<u64>) -> bool {
    let n = p.mask.count_ones();
    if n == 0 {
        return true;
    }
    if failed.contains(&p.mask) {
        return false;
    }
    // X moves first, so X made the last move when the count is odd.
    let last = if n % 2 == 1 { p.x } else { p.x ^ p.mask };
    let stride = game.height() + 1;
    let column = (1u64 << stride) - 1;
    for c in 0..game.width() {
        let cells = p.mask >> (c * stride) & column;
        if cells == 0 {
            continue;
        }
        let top = 1u64 << (c * stride + (u64::BITS - 1 - cells.leading_zeros()) as usize);
        if last & top == 0 {
            continue;
        }
        let parent = Connect4Position {
            x: p.x & !top,
            mask: p.mask & !top,
        };
        if game.primitive(&parent).is_none() && back_to_start(game, parent, failed) {
            return true;
        }
    }
    failed.insert(p.mask);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_games::Game;

    /// On connect4:4x4, the check agrees with the solved table on every well-formed
    /// position (every mask of full column prefixes, every colouring).
    #[test]
    fn agrees_with_the_table_on_4x4() {
        let game = ConnectFour::new(4, 4).unwrap();
        let solution = tictable_games::solve(game).unwrap();
        let (mut reachable, mut unreachable) = (0u64, 0u64);
        // Every column height 0..=4, every colouring of the pieces.
        for heights in 0..5u32.pow(4) {
            let hs: Vec<usize> = (0..4)
                .map(|c| (heights / 5u32.pow(c) % 5) as usize)
                .collect();
            let cells: Vec<usize> = (0..4)
                .flat_map(|c| (0..hs[c]).map(move |r| c * 5 + r))
                .collect();
            let mask = cells.iter().fold(0u64, |m, &i| m | 1 << i);
            for colours in 0..1u32 << cells.len() {
                let x = cells
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| colours >> j & 1 != 0)
                    .fold(0u64, |m, (_, &i)| m | 1 << i);
                let (nx, no) = (x.count_ones(), (mask ^ x).count_ones());
                if nx != no && nx != no + 1 {
                    continue;
                }
                let p = Connect4Position { x, mask };
                let known = solution.get(&p).is_some();
                assert_eq!(
                    connect_four(&game, &p),
                    known,
                    "{}",
                    game.write_position(&p, tictable_games::Notation::People)
                );
                if known {
                    reachable += 1;
                } else {
                    unreachable += 1;
                }
            }
        }
        assert!(
            reachable > 100_000 && unreachable > 1_000,
            "{reachable} {unreachable}"
        );
    }
}
