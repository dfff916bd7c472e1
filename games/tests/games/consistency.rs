//! Every position of every small game agrees with its children; games without repeats
//! also agree with a plain search; each check fails on a broken table or rule.

use crate::common::solved;
use tictable_games::{
    check, solve, ConnectFour, Game, Hexapawn, Mnk, Morris, Outcome, Record, TicTacToe,
};

#[test]
fn small_games_agree_with_a_live_search_from_every_position() {
    // Every class of the game, searched from scratch (no table, no memory).
    fn all<G: Game>(game: G) {
        let solution = solved(game);
        let (compared, skipped) = check::live(&solution, u64::MAX).unwrap();
        assert_eq!((compared, skipped), (solution.summary().classes.total(), 0));
    }
    all(TicTacToe::normal());
    all(TicTacToe::misere());
    all(Hexapawn);
    all(ConnectFour::new(3, 4).unwrap());
}

#[test]
fn larger_games_agree_with_a_live_search_where_it_is_short() {
    // Positions whose whole game tree has at most 300 positions.
    for (solution_classes, (compared, _)) in [
        {
            let s = solved(Mnk::new(4, 3, 3).unwrap());
            (s.summary().classes.total(), check::live(&s, 300).unwrap())
        },
        {
            let s = solved(ConnectFour::new(4, 4).unwrap());
            (s.summary().classes.total(), check::live(&s, 300).unwrap())
        },
    ] {
        assert!(
            compared * 4 > solution_classes,
            "{compared} of {solution_classes} compared"
        );
    }
}

#[test]
fn morris_games_are_consistent() {
    for game in [
        Morris::three_mens_morris(),
        Morris::tapatan(),
        Morris::achi(),
    ] {
        let solution = solved(game);
        assert!(solution.summary().classes.total() > 700);
    }
}

#[test]
fn a_corrupted_entry_fails_both_checks() {
    let mut solution = solve(Hexapawn).unwrap();
    check::consistency(&solution).unwrap();
    // A position lost in 2 for the side to move made lost in 4.
    let key = solution
        .table()
        .iter()
        .position(|&b| Record::decode(b) == Some((Outcome::Loss, 2).into()))
        .unwrap();
    solution.table_mut()[key] = Record::from((Outcome::Loss, 4)).encode();
    let error = check::consistency(&solution).unwrap_err();
    assert!(error.to_string().contains("farthest"), "{error}");
    let error = check::live(&solution, u64::MAX).unwrap_err();
    assert!(error.to_string().contains("live search"), "{error}");
}

#[test]
fn a_corrupted_morris_entry_fails_the_check() {
    let mut solution = solve(Morris::tapatan()).unwrap();
    let key = solution
        .table()
        .iter()
        .position(|&b| Record::decode(b).is_some_and(|r| r.outcome == Outcome::Draw))
        .unwrap();
    solution.table_mut()[key] = Record::from((Outcome::Win, 3)).encode();
    assert!(check::consistency(&solution).is_err());
}

#[test]
fn an_entry_for_an_unreachable_position_fails_the_check() {
    let mut solution = solve(TicTacToe::normal()).unwrap();
    // Key 3^9 - 1: every square O, not reachable.
    solution.table_mut()[19_682] = Record::from((Outcome::Draw, 0)).encode();
    let error = check::consistency(&solution).unwrap_err();
    assert!(error.to_string().contains("not reachable"), "{error}");
}

#[test]
fn symmetric_keys_are_the_keys_of_the_transformed_positions() {
    // Games that compute `symmetric_key` themselves agree with `key(transform(..))`
    // on every reachable position (walked by the live check's order: all children).
    fn agree<G: Game>(game: G) {
        crate::common::each_reachable(&game, |p| {
            for s in 0..game.symmetries() {
                assert_eq!(
                    game.symmetric_key(p, s),
                    game.key(&game.transform(p, s)),
                    "{p:?} {s}"
                );
            }
        });
    }
    agree(Mnk::new(4, 3, 3).unwrap());
    agree(Mnk::new(3, 3, 3).unwrap());
    agree(ConnectFour::new(4, 4).unwrap());
}
