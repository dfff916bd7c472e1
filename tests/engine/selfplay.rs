//! Exact and sampled self-play statistics.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rand_core::SeedableRng;
use tictable::selfplay::{exact, Sampler};
use tictable::strategy::{Level, Strategy};

fn s(text: &str) -> Strategy {
    text.parse().unwrap()
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Every strategy the matrix tests play against: all levels, a mistake rate and a
/// forced first move.
fn opponents() -> Vec<Strategy> {
    let mut all: Vec<Strategy> = Level::ALL.into_iter().map(Strategy::new).collect();
    all.extend(["perfect:0.15", "trap:0.3", "random@0", "medium@1"].map(s));
    all
}

#[test]
fn random_against_random_is_the_known_fraction() {
    let random = Strategy::new(Level::Random);
    let p = exact(&random, &random).unwrap();
    assert_eq!(p.x_win, ratio(737, 1260));
    assert_eq!(p.o_win, ratio(121, 420));
    assert_eq!(p.draw, ratio(8, 63));
}

/// The exact probabilities of `x` against `o` sum to one.
fn sums_to_one(x: &Strategy, o: &Strategy) {
    let p = exact(x, o).unwrap();
    assert_eq!(p.x_win + p.o_win + p.draw, ratio(1, 1), "{x} vs {o}");
}

/// Every strategy as X and as O: against itself and against the next one in
/// `opponents()` (cheap in debug). Every pair: [`probabilities_sum_to_one`].
#[test]
fn probabilities_sum_to_one_on_both_sides() {
    let all = opponents();
    for (i, x) in all.iter().enumerate() {
        sums_to_one(x, x);
        sums_to_one(x, &all[(i + 1) % all.len()]);
    }
}

/// Every pair of `opponents()`: seconds in debug, so release only (`.ci/run` runs it).
#[test]
#[ignore = "release only (every pair of strategies): .ci/run runs it"]
fn probabilities_sum_to_one() {
    for x in opponents() {
        for o in opponents() {
            sums_to_one(&x, &o);
        }
    }
}

/// `engine` never loses as X against any level, nor as O when `as_o`.
fn never_loses(engine: &str, as_o: bool) {
    for other in opponents() {
        let as_x = exact(&s(engine), &other).unwrap();
        assert!(
            as_x.o_win.is_zero(),
            "{engine} as X loses to {other}: {}",
            as_x.o_win
        );
        if as_o {
            let as_o = exact(&other, &s(engine)).unwrap();
            assert!(
                as_o.x_win.is_zero(),
                "{engine} as O loses to {other}: {}",
                as_o.x_win
            );
        }
    }
}

#[test]
fn perfect_and_trap_never_lose_against_any_level() {
    for engine in ["perfect", "trap"] {
        never_loses(engine, true);
    }
    // Every opening draws, so a forced first move as X keeps the no-loss guarantee
    // (as O a forced reply can be a losing move: it overrides the engine on purpose).
    for engine in ["perfect@0", "trap@1", "trap@4", "perfect@7"] {
        never_loses(engine, false);
    }
}

#[test]
fn a_mistake_rate_can_lose() {
    // perfect:0.5 as O against perfect X: X exploits the mistakes.
    let p = exact(&s("perfect"), &s("perfect:0.5")).unwrap();
    assert!(p.x_win > BigRational::zero());
    assert!(p.o_win.is_zero());
}

#[test]
fn trap_wins_more_often_than_perfect() {
    for weak in ["random", "easy", "medium"].map(s) {
        for (trap, perfect, trap_wins, perfect_wins) in [
            {
                let (t, p) = (
                    exact(&s("trap"), &weak).unwrap(),
                    exact(&s("perfect"), &weak).unwrap(),
                );
                ("X", "X", t.x_win.clone(), p.x_win.clone())
            },
            {
                let (t, p) = (
                    exact(&weak, &s("trap")).unwrap(),
                    exact(&weak, &s("perfect")).unwrap(),
                );
                ("O", "O", t.o_win.clone(), p.o_win.clone())
            },
        ] {
            println!(
                "vs {weak:<6} as {trap}: trap wins {:.4} ({trap_wins}), perfect wins {:.4} ({perfect_wins}) [{perfect}]",
                trap_wins.to_f64().unwrap(),
                perfect_wins.to_f64().unwrap()
            );
            if weak.level() == Level::Random {
                assert!(
                    trap_wins > perfect_wins,
                    "trap does not beat perfect against {weak} as {trap}"
                );
            }
        }
    }
}

#[test]
fn sampled_figures_converge_to_exact_ones() {
    for (x, o) in [
        ("random", "random"),
        ("trap", "easy"),
        ("medium", "perfect:0.2"),
    ] {
        let (x, o) = (s(x), s(o));
        let p = exact(&x, &o).unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(42);
        let n = 200_000u64;
        let counts = Sampler::new(x, o).run(n, &mut rng, |_| {}).unwrap();
        assert_eq!(counts.games(), n);
        for (count, exact) in [
            (counts.x_win, &p.x_win),
            (counts.o_win, &p.o_win),
            (counts.draw, &p.draw),
        ] {
            let q = exact.to_f64().unwrap();
            let sigma = (q * (1.0 - q) / n as f64).sqrt();
            let observed = count as f64 / n as f64;
            // Five standard deviations (plus a hair for q = 0 or 1): fails by chance
            // with probability below 1e-6, and the seed is fixed.
            assert!(
                (observed - q).abs() <= 5.0 * sigma + 1e-9,
                "{x} vs {o}: observed {observed}, exact {q}"
            );
        }
    }
}

/// The trap model recomputed in big rationals with a memo: the integer scores of
/// `trap_scores` are exact (every division by the per-decision base is exact).
#[test]
fn trap_scores_are_the_exact_expected_scores() {
    use std::collections::HashMap;
    use tictable::solve::board_of_index;
    use tictable::strategy::{trap_scores, TRAP_EPSILON, TRAP_SCALE};
    use tictable::{analyse, Board, Player};

    fn value(
        board: Board,
        me: Player,
        memo: &mut HashMap<(Board, Player), BigRational>,
    ) -> BigRational {
        if let Some(v) = memo.get(&(board, me)) {
            return v.clone();
        }
        let v = if let Some(winner) = board.winner() {
            ratio(if winner == me { 1 } else { -1 }, 1)
        } else if board.is_full() {
            BigRational::zero()
        } else {
            let a = analyse(&board).unwrap();
            let children = |set: tictable::Squares, memo: &mut HashMap<_, _>| -> Vec<BigRational> {
                set.iter()
                    .map(|s| value(board.play(s).unwrap(), me, memo))
                    .collect()
            };
            if board.to_move() == me {
                children(a.safe(), memo).into_iter().max().unwrap()
            } else {
                let eps = ratio(TRAP_EPSILON.0, TRAP_EPSILON.1);
                let legal = board.legal_moves();
                let careless: BigRational = children(legal, memo).into_iter().sum::<BigRational>()
                    / ratio(legal.len() as i64, 1);
                let careful: BigRational =
                    children(a.best(), memo).into_iter().sum::<BigRational>()
                        / ratio(a.best().len() as i64, 1);
                &eps * careless + (ratio(1, 1) - eps) * careful
            }
        };
        memo.insert((board, me), v.clone());
        v
    }

    let mut memo = HashMap::new();
    let mut checked = 0;
    for index in 0..19683 {
        let board = board_of_index(index);
        if board.validate().is_err() || board.is_over() {
            continue;
        }
        let scores = trap_scores(&board).unwrap();
        for square in board.legal_moves() {
            let expected = value(board.play(square).unwrap(), board.to_move(), &mut memo);
            let got = ratio(scores[square.index() as usize].unwrap(), TRAP_SCALE);
            assert_eq!(got, expected, "{board} {square}");
            checked += 1;
        }
    }
    assert!(checked > 4520);
}
