//! The live search (`tictable_games::search`) against the solver's table: every
//! reachable position of Connect Four 4x4, samples of 5x4 and 4x5 (release), and the
//! start values of the boards the page searches against Tromp's table; `large.rs`
//! samples 4x6, 6x4 and 5x5 against their solved tables with [`sample`].

use crate::common::{each_reachable, solved};
use rand_core::{Rng, SeedableRng};
use tictable_games::search::{SearchError, Searcher};
use tictable_games::{ConnectFour, Game, Outcome, Record, Solution};

/// The search's record of `p` and of each of its moves' children equal the table's.
fn agrees(
    searcher: &mut Searcher,
    solution: &Solution<ConnectFour>,
    p: &tictable_games::Connect4Position,
) {
    let game = solution.game();
    let text = game.write_position(p, tictable_games::Notation::Api);
    let table = solution.get(p).expect("reachable");
    assert_eq!(searcher.record(p), table, "{text}");
    match searcher.moves(p) {
        None => assert!(game.primitive(p).is_some(), "{text}"),
        Some((record, children)) => {
            assert_eq!(record, table, "{text}: from the moves");
            for (mv, child) in children {
                assert_eq!(
                    Some(child),
                    solution.get(&game.play(p, mv)),
                    "{text} then {mv}"
                );
            }
        }
    }
}

#[test]
fn every_position_of_connect_four_4x4_agrees_with_the_solver() {
    let solution = solved(ConnectFour::new(4, 4).unwrap());
    let game = *solution.game();
    // A small table (64 KiB): its entries are overwritten often, which the answers
    // must survive.
    let mut searcher = Searcher::new(game, 64 << 10).unwrap();
    let mut count = 0;
    let visited = each_reachable(&game, |p| {
        // Every position's own record; each 7th with every move's too.
        let table = solution.get(p).unwrap();
        assert_eq!(searcher.record(p), table);
        if count % 7 == 0 {
            agrees(&mut searcher, &solution, p);
        }
        count += 1;
    });
    assert_eq!(visited, 161_029);
    assert_eq!(searcher.table_bytes(), 64 << 10);
}

/// `count` positions of `solution`'s game met on random games (seeded by `seed`), each
/// checked with its moves against the table; used by `large.rs` on the big boards.
pub fn sample(solution: &Solution<ConnectFour>, count: usize, seed: u64) {
    let game = *solution.game();
    let mut searcher = Searcher::new(game, 1 << 20).unwrap();
    let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
    let mut checked = 0;
    let mut moves = Vec::new();
    while checked < count {
        let mut p = game.start();
        while game.primitive(&p).is_none() && checked < count {
            agrees(&mut searcher, solution, &p);
            checked += 1;
            moves.clear();
            game.moves(&p, &mut moves);
            p = game.play(&p, moves[rng.next_u32() as usize % moves.len()]);
        }
    }
}

#[test]
#[ignore = "release: Connect Four 5x4 and 4x5 take seconds to solve in debug"]
fn samples_of_connect_four_5x4_and_4x5_agree_with_the_solver() {
    sample(&solved(ConnectFour::new(5, 4).unwrap()), 3_000, 1);
    sample(&solved(ConnectFour::new(4, 5).unwrap()), 3_000, 2);
}

#[test]
#[ignore = "release: slow"]
fn the_start_of_the_large_boards_is_tromps_value() {
    // John Tromp, "John's Connect Four Playground" (tromp.github.io/c4/c4.html), the
    // table of results by board size: 4x6 (width 4, height 6) and 5x5 are draws
    // ("="), 6x4 a second-player win ("-"); ChristopheSteininger/c4's README gives
    // 6x4 as "2nd (24)": the second player wins with the 24th piece, the board full.
    for (w, h, start) in [
        (4, 6, Record::from((Outcome::Draw, 0))),
        (6, 4, Record::from((Outcome::Loss, 24))),
        (5, 5, Record::from((Outcome::Draw, 0))),
    ] {
        let game = ConnectFour::new(w, h).unwrap();
        let mut searcher = Searcher::new(game, 32 << 20).unwrap();
        assert_eq!(searcher.record(&game.start()), start, "connect4:{w}x{h}");
    }
}

#[test]
fn the_tables_of_the_boards_the_page_searches_are_hundreds_of_megabytes() {
    // The module's and docs/web.md's words: 260, 888 and 992 MB (one byte per key).
    let bytes = |w, h| ConnectFour::new(w, h).unwrap().key_space();
    assert_eq!(bytes(4, 6), 260_144_641);
    assert_eq!(bytes(6, 4), 887_503_681);
    assert_eq!(bytes(5, 5), 992_436_543);
}

#[test]
fn boards_the_search_cannot_hold_are_refused() {
    let huge = ConnectFour::new(7, 7).unwrap();
    let refused = Searcher::new(huge, 1 << 20).err();
    assert_eq!(
        refused,
        Some(SearchError::BoardTooLarge {
            width: 7,
            height: 7
        })
    );
    assert!(refused.unwrap().to_string().contains("connect4:7x7"));
    let small = ConnectFour::new(4, 4).unwrap();
    assert_eq!(Searcher::new(small, 7).err(), Some(SearchError::NoMemory));
    // A finished position answers its outcome, no search.
    let mut searcher = Searcher::new(small, 8).unwrap();
    let won = small.parse_position("..../X.../XO../XO.O").unwrap();
    let mut p = small.start();
    for c in [0u8, 1, 0, 1, 0, 3] {
        p = small.play(&p, c);
    }
    assert_eq!(
        won,
        small
            .parse_position(&small.write_position(&p, tictable_games::Notation::Api))
            .unwrap()
    );
    let p = small.play(&p, 0);
    assert_eq!(searcher.record(&p), Record::from((Outcome::Loss, 0)));
    assert!(searcher.moves(&p).is_none());
}
