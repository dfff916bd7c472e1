//! Each small game against a published, independent result (named at each test).

use crate::common::{first_moves, solved};
use tictable_games::{
    ConnectFour, Game, Hexapawn, Mnk, Morris, Outcome, Record, Solution, TicTacToe,
};

#[test]
fn tictactoe_has_5478_positions_765_classes_and_is_a_draw() {
    // Reachable positions 5,478, up to symmetry 765 (OEIS A008907 / the project's
    // verified facts in DESIGN.md); a draw (folklore, Gardner).
    let s = solved(TicTacToe::normal()).summary();
    assert_eq!((s.positions, s.classes.total()), (5478, 765));
    assert_eq!((s.all.terminal, s.classes.terminal), (958, 138));
    assert_eq!(s.start.outcome, Outcome::Draw);
}

#[test]
fn misere_is_a_draw_and_only_the_centre_does_not_lose() {
    // Misère tic-tac-toe: a draw, and the centre is the first player's only non-losing
    // opening (Weizmann Institute, "An Introduction to Recreational Math", step
    // "Toe-tac-tic" on FutureLearn: X draws by the centre and point symmetry; the
    // project's DESIGN.md verified facts: every other opening loses).
    let solution = solved(TicTacToe::misere());
    assert_eq!(solution.start().outcome, Outcome::Draw);
    for (mv, record) in first_moves(&solution) {
        // The child's record is for O: a draw keeps X's draw, an O win is X's loss.
        let expected = if mv == "5" {
            Outcome::Draw
        } else {
            Outcome::Win
        };
        assert_eq!(record.outcome, expected, "X opening at {mv}");
    }
    assert_eq!(solution.summary().positions, 5478);
}

#[test]
fn mnk_3_3_3_is_tictactoe() {
    // The m,n,k-game 3,3,3 is tic-tac-toe: the same counts and value.
    let s = solved(Mnk::new(3, 3, 3).unwrap()).summary();
    assert_eq!(
        (s.positions, s.classes.total(), s.start.outcome),
        (5478, 765, Outcome::Draw)
    );
}

#[test]
fn mnk_4_3_3_is_a_first_player_win() {
    // m,n,k-game results (Wikipedia "m,n,k-game", "4,3,3: first player wins"; Uiterwijk
    // and van den Herik, "The advantage of the initiative", 2000).
    let s = solved(Mnk::new(4, 3, 3).unwrap()).summary();
    assert_eq!(s.start.outcome, Outcome::Win);
}

#[test]
fn connect_four_4x4_has_161029_positions_and_is_a_draw() {
    // Tromp's table of Connect Four positions by board size (tromp.github.io/c4/c4.html),
    // independently recounted by markus7800/Connect4-Strong-Solver (README table,
    // height 4 / width 4: 161,029, the empty board included); the value: a draw in
    // Tromp's table of board sizes.
    let s = solved(ConnectFour::new(4, 4).unwrap()).summary();
    assert_eq!(s.positions, 161_029);
    assert_eq!(s.start.outcome, Outcome::Draw);
}

#[test]
fn connect_four_small_boards_match_the_position_counts() {
    // markus7800/Connect4-Strong-Solver README table (rows = height, columns = width):
    // 3x3 869, 4x3 12,031, 3x4 6,000, 1x4 5, 4x1 35, 2x2 18.
    for (w, h, count) in [
        (3, 3, 869),
        (4, 3, 12_031),
        (3, 4, 6_000),
        (1, 4, 5),
        (4, 1, 35),
        (2, 2, 18),
    ] {
        let s = solved(ConnectFour::new(w, h).unwrap()).summary();
        assert_eq!(s.positions, count, "connect4:{w}x{h}");
    }
}

#[test]
fn hexapawn_is_a_win_for_black() {
    // Martin Gardner, "How to build a game-learning machine", Scientific American,
    // March 1962: with best play the second player (Black) wins.
    let solution = solved(Hexapawn);
    assert_eq!(solution.start().outcome, Outcome::Loss);
    // Every opening loses for White.
    assert!(first_moves(&solution)
        .iter()
        .all(|(_, r)| r.outcome == Outcome::Win));
}

#[test]
fn three_mens_morris_is_won_by_the_centre_and_drawn_otherwise() {
    // Dudeney, "Amusements in Mathematics" (1917), problem "Ovid's Game": the first
    // player can always win provided he plays to the centre on his first move; barred
    // from the centre, the game should be a draw, the first player ensuring it with two
    // adjoining corners. Wikipedia "Three men's morris" (Murray's adjacent-move form):
    // a first-player win, and with the centre barred neither side can force a win.
    let solution = solved(Morris::three_mens_morris());
    assert_eq!(solution.start().outcome, Outcome::Win);
    let openings = first_moves(&solution);
    for (mv, record) in &openings {
        // The child's record is for O: a loss for O is X's win.
        match mv.as_str() {
            "5" => assert_eq!(record.outcome, Outcome::Loss, "the centre wins"),
            "1" | "3" | "7" | "9" => assert_eq!(record.outcome, Outcome::Draw, "corner {mv} draws"),
            _ => assert_ne!(record.outcome, Outcome::Loss, "edge {mv} does not win"),
        }
    }
}

#[test]
fn achi_is_a_first_player_win() {
    // Cornell Math Explorers' Club, "Answers to Achi"
    // (pi.math.cornell.edu/~mec/2003-2004/graphtheory/tictactoe/answer3.html): the first
    // player has a winning strategy, starting in the centre.
    let solution = solved(Morris::achi());
    assert_eq!(solution.start().outcome, Outcome::Win);
    let centre = first_moves(&solution)
        .into_iter()
        .find(|(mv, _)| mv == "5")
        .unwrap();
    assert_eq!(centre.1.outcome, Outcome::Loss);
}

/// GamesmanClassic's analysis of one game variant (`mGAME --nodb --option N --analyze`
/// writes bin/analysis/GAME/xml/mGAME_N.xml): the number of reachable positions at each
/// remoteness, as (remoteness, wins, losses), and the draws (its "tie", counted over
/// every remoteness: tictable gives a draw remoteness 0).
struct Gamesman {
    levels: &'static [(u8, usize, usize)],
    draws: usize,
}

/// Every reachable position's (value, remoteness) counted as GamesmanClassic counts
/// them, against its analysis; the solution, for further checks.
fn agrees_with_gamesman<G: Game>(game: G, expected: &Gamesman) -> Solution<G> {
    use std::collections::BTreeMap;
    let solution = solved(game);
    let mut levels: BTreeMap<u8, (usize, usize)> = BTreeMap::new();
    let mut draws = 0;
    crate::common::each_reachable(solution.game(), |p| {
        let record = solution
            .get(p)
            .expect("a reachable position is in the table");
        match record.outcome {
            Outcome::Win => levels.entry(record.remoteness).or_default().0 += 1,
            Outcome::Loss => levels.entry(record.remoteness).or_default().1 += 1,
            Outcome::Draw => draws += 1,
        }
    });
    let levels: Vec<(u8, usize, usize)> = levels.into_iter().map(|(r, (w, l))| (r, w, l)).collect();
    assert_eq!(levels, expected.levels);
    assert_eq!(draws, expected.draws);
    let positions = draws + levels.iter().map(|&(_, w, l)| w + l).sum::<usize>();
    assert_eq!(solution.summary().positions, positions as u64);
    solution
}

#[test]
fn tictactoe_agrees_with_gamesman_classic() {
    // GamesmanClassic (github.com/GamesCrafters/GamesmanClassic, commit b9dd2320),
    // src/mttt.c, its default option 3: `mttt --nodb --analyze` printed value Tie,
    // 2,836 wins, 1,574 losses, 1,068 ties, 5,478 positions, and the levels below.
    let solution = agrees_with_gamesman(
        TicTacToe::normal(),
        &Gamesman {
            levels: &[
                (0, 0, 942),
                (1, 2358, 0),
                (2, 0, 508),
                (3, 356, 0),
                (4, 0, 124),
                (5, 122, 0),
            ],
            draws: 1068,
        },
    );
    assert_eq!(solution.start().outcome, Outcome::Draw);
}

#[test]
fn misere_agrees_with_gamesman_classic() {
    // GamesmanClassic src/mttt.c option 1, "Misère game, without symmetries" (three in a
    // row loses for whoever made it, so the side to move at a finished position wins):
    // `mttt --nodb --option 1 --analyze` printed value Tie, 3,054 wins, 1,444 losses,
    // 980 ties, and the levels below. Commit b9dd2320.
    let solution = agrees_with_gamesman(
        TicTacToe::misere(),
        &Gamesman {
            levels: &[
                (0, 942, 0),
                (1, 0, 246),
                (2, 856, 0),
                (3, 0, 756),
                (4, 1024, 0),
                (5, 0, 410),
                (6, 224, 0),
                (7, 0, 32),
                (8, 8, 0),
            ],
            draws: 980,
        },
    );
    assert_eq!(solution.start().outcome, Outcome::Draw);
}

#[test]
fn hexapawn_agrees_with_gamesman_classic() {
    // GamesmanClassic src/mhexapawn.c option 0, "LENGTH 3, REGULAR" (3 rows, 3 columns;
    // its default option 3 is 3x6): `mhexapawn --nodb --option 0 --analyze` printed
    // value Lose, 55 wins, 80 losses, 135 positions, and the levels below (the one loss
    // in 6 is the start). Commit b9dd2320.
    let solution = agrees_with_gamesman(
        Hexapawn,
        &Gamesman {
            levels: &[
                (0, 0, 65),
                (1, 50, 0),
                (2, 0, 12),
                (3, 4, 0),
                (4, 0, 2),
                (5, 1, 0),
                (6, 0, 1),
            ],
            draws: 0,
        },
    );
    assert_eq!(solution.start(), Record::from((Outcome::Loss, 6)));
}

#[test]
fn connect_four_4x4_agrees_with_gamesman_classic() {
    // GamesmanClassic src/mwin4.c, its default 4 columns x 4 rows, option 1 (standard):
    // `mwin4 --nodb --notiers --analyze` printed value Tie, 38,675 wins, 32,234 losses,
    // 90,120 ties, 161,029 positions, and the levels below. Commit b9dd2320.
    let solution = agrees_with_gamesman(
        ConnectFour::new(4, 4).unwrap(),
        &Gamesman {
            levels: &[
                (0, 0, 21404),
                (1, 24685, 0),
                (2, 0, 4154),
                (3, 5117, 0),
                (4, 0, 3712),
                (5, 5106, 0),
                (6, 0, 2164),
                (7, 2865, 0),
                (8, 0, 655),
                (9, 756, 0),
                (10, 0, 138),
                (11, 138, 0),
                (12, 0, 7),
                (13, 8, 0),
            ],
            draws: 90120,
        },
    );
    assert_eq!(solution.start().outcome, Outcome::Draw);
}

#[test]
fn three_mens_morris_agrees_with_gamesman_classic() {
    // GamesmanClassic (github.com/GamesCrafters/GamesmanClassic, commit b9dd2320),
    // src/machi.c option 6, "Standard game with no diagonal moves": 3 pieces each
    // (placement while fewer than 6 are down), slides up, down, left and right, three in
    // a row, column or diagonal loses for the side to move, no legal move loses (its
    // solver's rule for a position without children). `machi --nodb --option 6
    // --analyze` printed: value Win, 2,877 wins, 1,201 losses, 1,312 ties (draws), 5,390
    // positions, and the levels below; `remoteness 0` under `--interact`: 9.
    let solution = agrees_with_gamesman(
        Morris::three_mens_morris(),
        &Gamesman {
            levels: &[
                (0, 0, 416),
                (1, 1492, 0),
                (2, 0, 424),
                (3, 1048, 0),
                (4, 0, 304),
                (5, 284, 0),
                (6, 0, 48),
                (7, 44, 0),
                (8, 0, 9),
                (9, 9, 0),
            ],
            draws: 1312,
        },
    );
    assert_eq!(solution.start(), Record::from((Outcome::Win, 9)));
}

#[test]
fn tapatan_agrees_with_gamesman_classic() {
    // GamesmanClassic's Achi is tapatan's rules: 3 pieces each, and its default option
    // 2, "Standard game with standard diagonal moves", slides also corner to centre and
    // back (src/machi.c, GenerateMoves). `machi --nodb --option 2 --analyze` printed:
    // value Win, 2,997 wins, 1,185 losses, 1,208 ties (draws), 5,390 positions, and the
    // levels below; `remoteness 0` under `--interact`: 9. (Commit b9dd2320, as above.)
    let solution = agrees_with_gamesman(
        Morris::tapatan(),
        &Gamesman {
            levels: &[
                (0, 0, 416),
                (1, 1860, 0),
                (2, 0, 368),
                (3, 688, 0),
                (4, 0, 184),
                (5, 300, 0),
                (6, 0, 92),
                (7, 92, 0),
                (8, 0, 109),
                (9, 57, 0),
                (10, 0, 16),
            ],
            draws: 1208,
        },
    );
    assert_eq!(solution.start(), Record::from((Outcome::Win, 9)));
}

#[test]
fn only_tapatan_slides_along_the_diagonals() {
    // Hand-checked: X on 2, 3 and 5, O on 4, 6 and 8, X to move. Tapatan: 5-1 along the
    // diagonal completes the top row, a win in 1. Three men's morris: 5 cannot reach 1
    // and X's only move is 2-1, which completes nothing.
    use tictable_games::Notation;
    let position = tictable_games::MorrisPosition {
        x: 1 << 1 | 1 << 2 | 1 << 4,
        o: 1 << 3 | 1 << 5 | 1 << 7,
        to_move: tictable_games::Player::X,
    };
    let tapatan = solved(Morris::tapatan());
    assert_eq!(
        tapatan.get(&position),
        Some(Record::from((Outcome::Win, 1)))
    );
    assert!(Morris::tapatan()
        .parse_move(&position, "5-1", Notation::People)
        .is_ok());
    let morris = solved(Morris::three_mens_morris());
    assert_ne!(morris.get(&position), Some(Record::from((Outcome::Win, 1))));
    let game = Morris::three_mens_morris();
    let error = game
        .parse_move(&position, "5-1", Notation::People)
        .unwrap_err();
    assert!(error.to_string().ends_with("legal: 2-1"), "{error}");
}
