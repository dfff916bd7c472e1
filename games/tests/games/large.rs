//! The large boards, in release only (`.ci/run`: `cargo test --release -p
//! tictable-games --test games -- --ignored`).

use crate::common::solved;
use tictable_games::{ConnectFour, Mnk, Outcome};

#[test]
#[ignore = "release: slow"]
fn mnk_4_4_3_has_6036001_positions_and_is_a_first_player_win() {
    // 4x4 board, 3 in a line: 6,036,001 reachable positions, first player wins
    // (DESIGN.md verified facts; m,n,k-game results, Wikipedia "m,n,k-game").
    let s = solved(Mnk::new(4, 4, 3).unwrap()).summary();
    assert_eq!((s.positions, s.start.outcome), (6_036_001, Outcome::Win));
}

#[test]
#[ignore = "release: slow"]
fn mnk_4_4_4_has_9722011_positions_1217977_classes_and_is_a_draw() {
    // 4x4 tic-tac-toe: 9,722,011 reachable positions, 1,217,977 up to symmetry
    // (OEIS A156297 / DESIGN.md verified facts), a draw (m,n,k-game results).
    let solution = solved(Mnk::new(4, 4, 4).unwrap());
    let s = solution.summary();
    assert_eq!((s.positions, s.classes.total()), (9_722_011, 1_217_977));
    assert_eq!(s.start.outcome, Outcome::Draw);
    // Its table file (what `analyse --game mnk:4,4,4 --table` reads) reads back as it
    // was, and only for this game: 4,4,3 has the same board and key space.
    let bytes = tictable_games::file::to_postcard(&solution);
    let loaded = tictable_games::file::from_postcard(Mnk::new(4, 4, 4).unwrap(), &bytes).unwrap();
    assert!(loaded.table() == solution.table());
    let refused = tictable_games::file::from_postcard(Mnk::new(4, 4, 3).unwrap(), &bytes);
    assert_eq!(
        refused.err().map(|e| e.to_string()).as_deref(),
        Some("a table of mnk:4,4,4, not mnk:4,4,3")
    );
}

#[test]
#[ignore = "release: slow"]
fn connect_four_5x4_4x5_4x6_match_tromps_counts_and_are_draws() {
    // Tromp's table, recounted in markus7800/Connect4-Strong-Solver's README (height x
    // width): 5x4 3,945,711; 4x5 1,706,255; 4x6 15,835,683; all three draws in Tromp's
    // table of board sizes.
    for (w, h, count) in [(5, 4, 3_945_711), (4, 5, 1_706_255), (4, 6, 15_835_683)] {
        let solution = solved(ConnectFour::new(w, h).unwrap());
        let s = solution.summary();
        assert_eq!(
            (s.positions, s.start.outcome),
            (count, Outcome::Draw),
            "connect4:{w}x{h}"
        );
        if (w, h) == (4, 6) {
            // The live search the page uses for 4x6, on positions of random games.
            crate::search::sample(&solution, 1_000, 46);
        }
    }
}

#[test]
#[ignore = "release: slow"]
fn connect_four_5x5_matches_a_published_strong_solution() {
    // markus7800/Connect4-Strong-Solver, src/connect4/solution_w5_h5/results_solve_w5_h5.csv
    // (a BDD strong solution, independent of this solver): summed over the plies,
    // 27,296,634 won, 14,419,273 drawn and 28,047,793 lost for the side to move,
    // 69,763,700 positions (Tromp's count), the empty board a draw.
    let solution = solved(ConnectFour::new(5, 5).unwrap());
    let s = solution.summary();
    // The live search the page uses for 5x5, on positions of random games.
    crate::search::sample(&solution, 1_000, 55);
    assert_eq!(
        (s.all.win, s.all.draw, s.all.loss),
        (27_296_634, 14_419_273, 28_047_793)
    );
    assert_eq!((s.positions, s.start.outcome), (69_763_700, Outcome::Draw));
}

#[test]
#[ignore = "release: slow"]
fn connect_four_6x4_matches_tromps_count_and_is_a_second_player_win_at_move_24() {
    // Tromp's count (markus7800/Connect4-Strong-Solver README, height 4, width 6:
    // 94,910,577). The value and its length: ChristopheSteininger/c4 README's table of
    // outcomes by board size, width 6 height 4: "2nd (24)", the second player wins on
    // move 24 with perfect play (as Tromp's table of board sizes gives "-" for 6x4), so
    // the start is lost for the player to move, at remoteness 24.
    let solution = solved(ConnectFour::new(6, 4).unwrap());
    let s = solution.summary();
    // The live search the page uses for 6x4, on positions of random games.
    crate::search::sample(&solution, 1_000, 64);
    assert_eq!(s.positions, 94_910_577);
    assert_eq!(s.start.outcome, Outcome::Loss);
    assert_eq!(s.start.remoteness, 24);
}
