//! Every level, exhaustively over the 4520 decision positions.

use rand_core::SeedableRng;
use tictable::solve::board_of_index;
use tictable::strategy::{
    mistake_moves, rule_moves, trap_moves, ChooseError, Distribution, Level, MistakeRate,
    ParseStrategyError, Strategy,
};
use tictable::{analyse, move_values, Board, Outcome, Square, Squares};

/// Every reachable position where someone is to move.
fn decision_positions() -> Vec<Board> {
    let boards: Vec<Board> = (0..19683)
        .map(board_of_index)
        .filter(|b| b.validate().is_ok() && !b.is_over())
        .collect();
    assert_eq!(boards.len(), 4520);
    boards
}

fn strategies() -> Vec<Strategy> {
    let mut all: Vec<Strategy> = Level::ALL.into_iter().map(Strategy::new).collect();
    for text in [
        "perfect:0.15",
        "trap:0.3",
        "perfect:1",
        "trap@4",
        "random@0",
        "medium@8",
    ] {
        all.push(text.parse().unwrap());
    }
    all
}

#[test]
fn every_distribution_sums_to_one_over_legal_moves() {
    let boards = decision_positions();
    for strategy in strategies() {
        for board in &boards {
            let d = strategy.distribution(board).unwrap();
            let total: u64 = d.weights().iter().map(|&w| w as u64).sum();
            assert_eq!(
                total,
                Distribution::DENOMINATOR as u64,
                "{strategy} at {board}"
            );
            assert!(!d.support().is_empty());
            assert!(
                d.support().is_subset(board.legal_moves()),
                "{strategy} at {board}"
            );
        }
    }
}

#[test]
fn perfect_and_trap_never_leave_safe() {
    for board in decision_positions() {
        let a = analyse(&board).unwrap();
        let perfect = Strategy::new(Level::Perfect).distribution(&board).unwrap();
        assert_eq!(perfect.support(), a.best(), "{board}");
        // Uniform over best.
        let w = perfect.weight(a.best().first().unwrap());
        assert!(a.best().iter().all(|s| perfect.weight(s) == w));
        let trap = Strategy::new(Level::Trap).distribution(&board).unwrap();
        assert!(trap.support().is_subset(a.safe()), "{board}");
        assert_eq!(trap.support(), trap_moves(&board).unwrap());
        // A won position is won at the fastest pace.
        if a.outcome() == Outcome::Win {
            assert!(trap.support().is_subset(a.best()), "{board}");
        }
    }
}

#[test]
fn random_is_uniform_and_medium_easy_mix_the_rule_move() {
    for board in decision_positions() {
        let legal = board.legal_moves();
        let n = legal.len();
        let random = Strategy::new(Level::Random).distribution(&board).unwrap();
        for s in Square::ALL {
            let expected = if legal.contains(s) {
                Distribution::DENOMINATOR / n
            } else {
                0
            };
            assert_eq!(random.weight(s), expected);
        }
        let rule = rule_moves(&board);
        let (medium, easy) = (
            Strategy::new(Level::Medium).distribution(&board).unwrap(),
            Strategy::new(Level::Easy).distribution(&board).unwrap(),
        );
        for s in legal {
            // P(s) = r/n + (1 - r) [s in rule]/|rule|, in units of 1/DENOMINATOR.
            let part = |random_share: u64| {
                let d = Distribution::DENOMINATOR as u64;
                let mut p = d * random_share / 100 / n as u64;
                if rule.contains(s) {
                    p += d * (100 - random_share) / 100 / rule.len() as u64;
                }
                p as u32
            };
            assert_eq!(medium.weight(s), part(20), "{board} {s}");
            assert_eq!(easy.weight(s), part(44), "{board} {s}");
        }
    }
}

#[test]
fn rule_moves_follow_win_block_centre_corner_side() {
    let b = |t: &str| t.parse::<Board>().unwrap();
    let set = |squares: &[u8]| {
        squares
            .iter()
            .map(|&i| Square::new(i).unwrap())
            .collect::<Squares>()
    };
    assert_eq!(rule_moves(&b("XX.OO....")), set(&[2])); // win
    assert_eq!(rule_moves(&b("XX..O....")), set(&[2])); // block
    assert_eq!(rule_moves(&b("X........")), set(&[4])); // centre
    assert_eq!(rule_moves(&b("....X....")), set(&[0, 2, 6, 8])); // corner
    assert_eq!(rule_moves(&b("XOXXOOO.X")), set(&[7])); // nothing else left
    for board in decision_positions() {
        let r = rule_moves(&board);
        assert!(!r.is_empty() && r.is_subset(board.legal_moves()));
    }
}

#[test]
fn mistakes_are_the_next_worse_outcome() {
    for board in decision_positions() {
        let a = analyse(&board).unwrap();
        let values = move_values(&board).unwrap();
        let m = mistake_moves(&board).unwrap();
        assert!(!m.is_empty() && m.is_subset(board.legal_moves()));
        let outcomes: Vec<Outcome> = m
            .iter()
            .map(|s| values[s.index() as usize].unwrap().outcome)
            .collect();
        let worse: Vec<Outcome> = board
            .legal_moves()
            .iter()
            .map(|s| values[s.index() as usize].unwrap().outcome)
            .filter(|&o| o < a.outcome())
            .collect();
        match worse.iter().max() {
            Some(&next) => {
                assert!(outcomes.iter().all(|&o| o == next), "{board}");
                let all_next = board
                    .legal_moves()
                    .iter()
                    .filter(|s| values[s.index() as usize].unwrap().outcome == next)
                    .count();
                assert_eq!(m.len() as usize, all_next);
            }
            None => assert_eq!(m, a.best(), "{board}"),
        }
        // perfect:0.15 = 85% best + 15% mistakes.
        let d = "perfect:0.15"
            .parse::<Strategy>()
            .unwrap()
            .distribution(&board)
            .unwrap();
        for s in board.legal_moves() {
            let d_total = Distribution::DENOMINATOR as u64;
            let mut p = 0;
            if a.best().contains(s) {
                p += d_total * 85 / 100 / a.best().len() as u64;
            }
            if m.contains(s) {
                p += d_total * 15 / 100 / m.len() as u64;
            }
            assert_eq!(d.weight(s) as u64, p, "{board} {s}");
        }
    }
}

#[test]
fn a_forced_first_move_is_honoured() {
    for i in 0..9 {
        let square = Square::new(i).unwrap();
        for level in Level::ALL {
            let s = Strategy::new(level).with_first_move(Some(square));
            // As X on the empty board.
            assert_eq!(
                s.distribution(&Board::EMPTY).unwrap(),
                Distribution::point(square)
            );
            // As O after any X opening that leaves the square free.
            for j in (0..9).filter(|&j| j != i) {
                let board = Board::EMPTY.play(Square::new(j).unwrap()).unwrap();
                assert_eq!(s.distribution(&board).unwrap(), Distribution::point(square));
            }
            // Taken by the opponent: the level chooses; later moves are not forced.
            let taken = Board::EMPTY.play(square).unwrap();
            assert_eq!(
                s.distribution(&taken).unwrap(),
                Strategy::new(level).distribution(&taken).unwrap()
            );
            let later = Board::EMPTY
                .play(Square::new((i + 1) % 9).unwrap())
                .and_then(|b| b.play(Square::new((i + 2) % 9).unwrap()))
                .unwrap();
            assert_eq!(
                s.distribution(&later).unwrap(),
                Strategy::new(level).distribution(&later).unwrap()
            );
        }
    }
}

#[test]
fn finished_and_invalid_positions_are_errors() {
    let s = Strategy::new(Level::Trap);
    let won: Board = "XXXOO....".parse().unwrap();
    assert_eq!(s.distribution(&won), Err(ChooseError::GameOver));
    let bad = Board::from_bits(0b111, 0).unwrap();
    assert!(matches!(
        s.distribution(&bad),
        Err(ChooseError::Position(_))
    ));
    let mut rng = rand_pcg::Pcg32::seed_from_u64(0);
    assert_eq!(s.choose(&won, &mut rng), Err(ChooseError::GameOver));
}

#[test]
fn strategies_parse_and_print() {
    for text in [
        "random",
        "easy",
        "medium",
        "perfect",
        "trap",
        "perfect:0.15",
        "trap:0.0001",
        "perfect:1",
        "trap@0",
        "perfect:0.5@8",
        "medium@4",
    ] {
        let s: Strategy = text.parse().unwrap();
        assert_eq!(s.to_string(), text);
    }
    assert_eq!(
        "PERFECT".parse::<Strategy>().unwrap().to_string(),
        "perfect"
    );
    assert_eq!(
        "perfect:0".parse::<Strategy>().unwrap().to_string(),
        "perfect"
    );
    assert_eq!(
        "perfect:.5".parse::<Strategy>().unwrap().to_string(),
        "perfect:0.5"
    );
    let err = |t: &str| t.parse::<Strategy>().unwrap_err();
    assert_eq!(err("hard"), ParseStrategyError::UnknownLevel);
    assert_eq!(err(""), ParseStrategyError::UnknownLevel);
    assert_eq!(err("perfect:"), ParseStrategyError::BadRate);
    assert_eq!(err("perfect:1.1"), ParseStrategyError::BadRate);
    assert_eq!(err("perfect:-0.1"), ParseStrategyError::BadRate);
    assert_eq!(err("perfect:0.12345"), ParseStrategyError::BadRate);
    assert_eq!(err("perfect:abc"), ParseStrategyError::BadRate);
    assert_eq!(err("easy:0.1"), ParseStrategyError::RateNotAllowed);
    assert_eq!(err("perfect@9"), ParseStrategyError::BadSquare);
    assert_eq!(err("perfect@x"), ParseStrategyError::BadSquare);
    assert_eq!(
        "0.25".parse::<MistakeRate>().unwrap().parts_per_10000(),
        2500
    );
}

#[test]
fn sampling_follows_the_distribution() {
    let board: Board = "X...O....".parse().unwrap();
    let d = Strategy::new(Level::Medium).distribution(&board).unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
    let n = 100_000;
    let mut counts = [0u32; 9];
    for _ in 0..n {
        counts[d.sample(&mut rng).index() as usize] += 1;
    }
    for s in Square::ALL {
        let p = d.weight(s) as f64 / Distribution::DENOMINATOR as f64;
        let observed = counts[s.index() as usize] as f64 / n as f64;
        let sigma = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (observed - p).abs() <= 5.0 * sigma + 1e-12,
            "{s}: {observed} vs {p}"
        );
    }
}
