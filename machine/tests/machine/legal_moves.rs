//! The machine's move adapter (`Rules::children`, `Rules::result_of`, feature
//! `games`) against `tictable-games`' rules: in every position of each of the six
//! games reachable from its start, the same moves in the same order (the best-move
//! tables' bit order), the same children and the same end. The morris games and
//! hexapawn share their move generator with `tictable-games` (`Morris::each_move`,
//! `Hexapawn::each_move`), so here it checks the carrying (each move into the
//! machine's `Move`, each child into its `Position`, the outcome into a winner, at
//! most `MOST_MOVES` children) and tic-tac-toe's moves on the engine's board; the
//! rules themselves are checked by the games crate's tests (solved values and
//! position counts against published ones, the committed best-move tables byte for
//! byte). And every compiled best-move file read in place, and a lookup in a file
//! damaged after its check giving no move rather than a guess.

use std::collections::{HashSet, VecDeque};
use tictable::{Board, Square};
use tictable_games::{
    best_file, compiled, Game, Hexapawn, HexapawnPosition, Morris, MorrisMove, MorrisPosition,
    Outcome, PawnMove, TicTacToe,
};
use tictable_machine::controller::{best_moves_in, game_of, Move, Position, Rules, MOST_MOVES};

/// Walks every position of `game` reachable from its start and checks, in each, the
/// machine's children of `to_machine(p)` against `game`'s moves and children
/// (`same_move`: the machine's move is the game's) and its end against
/// `game.primitive`. The number of positions.
fn check_game<G: Game>(
    rules: Rules,
    game: &G,
    to_machine: impl Fn(&G::Position) -> Position,
    same_move: impl Fn(Move, G::Move) -> bool,
) -> usize
where
    G::Position: std::hash::Hash + Eq,
{
    let start = game.start();
    assert_eq!(rules.start(), to_machine(&start), "{}", rules.id());
    let (mut seen, mut queue) = (HashSet::from([start]), VecDeque::from([start]));
    let mut moves = Vec::new();
    while let Some(p) = queue.pop_front() {
        let machine = to_machine(&p);
        moves.clear();
        if game.primitive(&p).is_none() {
            game.moves(&p, &mut moves);
        }
        let children = rules.children(&machine);
        assert_eq!(children.len(), moves.len(), "{} {machine:?}", rules.id());
        assert!(children.len() <= MOST_MOVES);
        for (&(mv, child), &expected) in children.iter().zip(&moves) {
            assert!(
                same_move(mv, expected),
                "{} {machine:?}: {mv:?}",
                rules.id()
            );
            let next = game.play(&p, expected);
            assert_eq!(
                child,
                to_machine(&next),
                "{} {machine:?} {mv:?}",
                rules.id()
            );
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
        let winner = game.primitive(&p).map(|o| match o {
            Outcome::Win => Some(machine.to_move),
            Outcome::Loss => Some(machine.to_move.other()),
            Outcome::Draw => None,
        });
        assert_eq!(
            rules.result_of(&machine),
            winner,
            "{} {machine:?}",
            rules.id()
        );
    }
    seen.len()
}

#[test]
fn the_move_generator_is_tictable_games_rules_in_every_reachable_position() {
    let sq = |i: u8| Square::new(i).unwrap();
    let mut counts = Vec::new();
    for rules in Rules::ALL {
        let n = match rules {
            Rules::TicTacToe | Rules::Misere => {
                let game: TicTacToe = game_of(rules);
                check_game(
                    rules,
                    &game,
                    |b: &Board| Position::of_board(*b),
                    |mv, s| mv == Move::Place(s),
                )
            }
            Rules::ThreeMensMorris | Rules::Tapatan | Rules::Achi => {
                let game = match rules {
                    Rules::Tapatan => Morris::tapatan(),
                    Rules::Achi => Morris::achi(),
                    _ => Morris::three_mens_morris(),
                };
                let to_machine = |m: &MorrisPosition| Position {
                    x: m.x,
                    o: m.o,
                    to_move: m.to_move,
                };
                let same = |mv: Move, m: MorrisMove| match (mv, m.from) {
                    (Move::Place(to), None) => to == sq(m.to),
                    (Move::Slide { from, to }, Some(f)) => from == sq(f) && to == sq(m.to),
                    _ => false,
                };
                check_game(rules, &game, to_machine, same)
            }
            Rules::Hexapawn => {
                let to_machine = |h: &HexapawnPosition| Position {
                    x: h.white,
                    o: h.black,
                    to_move: h.to_move,
                };
                let same = |mv: Move, m: PawnMove| {
                    mv == Move::Pawn {
                        from: sq(m.from),
                        to: sq(m.to),
                    }
                };
                check_game(rules, &Hexapawn, to_machine, same)
            }
        };
        counts.push((rules.id(), n));
    }
    // Every reachable position, the ends included (the games crate's counts).
    let n = |id| counts.iter().find(|(g, _)| *g == id).map(|c| c.1);
    assert_eq!(n("tictactoe"), Some(5478));
    assert!(counts.iter().all(|&(_, n)| n > 100), "{counts:?}");
}

#[test]
fn every_compiled_best_move_file_reads_in_place() {
    for rules in Rules::ALL {
        let bytes = compiled::file(rules.id()).unwrap();
        let file = best_file::packed(bytes).unwrap();
        assert_eq!(file.game, rules.id());
        // The same entries the allocating reader gives, side by side.
        let tables = match rules {
            Rules::TicTacToe | Rules::Misere => best_file::from_postcard(&game_of(rules), bytes),
            Rules::Hexapawn => best_file::from_postcard(&Hexapawn, bytes),
            Rules::ThreeMensMorris => best_file::from_postcard(&Morris::three_mens_morris(), bytes),
            Rules::Tapatan => best_file::from_postcard(&Morris::tapatan(), bytes),
            Rules::Achi => best_file::from_postcard(&Morris::achi(), bytes),
        }
        .unwrap();
        for (side, table) in file.sides.iter().zip(&tables) {
            assert_eq!(side.bits, table.to_bits().as_slice(), "{}", rules.id());
            assert_eq!(side.entries, table.entries(), "{}", rules.id());
            for (key, mask) in table.iter() {
                assert_eq!(
                    file.lookup(table.player(), key),
                    Some(mask),
                    "{}",
                    rules.id()
                );
            }
        }
        // One flipped bit anywhere in the entries: the checksum refuses it.
        let mut damaged = bytes.to_vec();
        let at = bytes.len() - 10;
        damaged[at] ^= 0x10;
        assert!(best_file::packed(&damaged).is_err(), "{}", rules.id());
    }
}

/// Every position of `rules`' game reachable from its start.
fn reachable(rules: Rules) -> HashSet<Position> {
    let (mut seen, mut stack) = (HashSet::from([rules.start()]), vec![rules.start()]);
    while let Some(p) = stack.pop() {
        for (_, child) in rules.children(&p) {
            if seen.insert(child) {
                stack.push(child);
            }
        }
    }
    seen
}

#[test]
fn a_mask_damaged_after_the_files_check_gives_no_move() {
    for rules in Rules::ALL {
        let good = best_file::packed(compiled::file(rules.id()).unwrap()).unwrap();
        // Flash damaged after the chooser's CRC check: each entry's highest mask bit
        // set, in a copy of the checked file's bits.
        let key_bits = u64::BITS - (good.key_space - 1).leading_zeros();
        let bits: Vec<Vec<u8>> = good
            .sides
            .iter()
            .map(|side| {
                let mut bits = side.bits.to_vec();
                let width = (key_bits + u32::from(side.mask_bits)) as usize;
                for entry in 0..side.entries as usize {
                    let top = entry * width + width - 1;
                    bits[top / 8] |= 1 << (top % 8);
                }
                bits
            })
            .collect();
        let mut damaged = good;
        for (side, bits) in damaged.sides.iter_mut().zip(&bits) {
            side.bits = bits;
        }
        let (mut refused, mut kept) = (0, 0);
        for p in reachable(rules) {
            let moves = rules.children(&p);
            if moves.is_empty() {
                continue;
            }
            let got = best_moves_in(&damaged, rules, &p);
            let side = &good.sides[usize::from(p.to_move == tictable::Player::O)];
            if moves.len() < usize::from(side.mask_bits) {
                // The set bit names a move past the position's: no move.
                assert!(got.is_empty(), "{} {p:?}: {:?}", rules.id(), got.as_slice());
                refused += 1;
            } else {
                // The bit names the last move: a legal move still, perhaps not best.
                assert!(!got.is_empty(), "{} {p:?}", rules.id());
                assert!(got
                    .iter()
                    .all(|m| moves.iter().any(|(legal, _)| legal == m)));
                assert!(!best_moves_in(&good, rules, &p).is_empty());
                kept += 1;
            }
        }
        assert!(
            refused > 0,
            "{}: {refused} refused, {kept} kept",
            rules.id()
        );
    }
}
