//! The players of issue 36 (`sharp`, `gentle:F`, `adaptive`): they never lose, their
//! exact figures against a uniformly random opponent are the extremes an independent
//! dynamic programme finds, gentle is monotone in F, and adaptive's estimate converges.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rand_core::SeedableRng;
use std::collections::HashMap;
use tictable::selfplay::{exact, Sampler};
use tictable::strategy::{Level, Strategy};
use tictable::{Board, Player, Square};

fn s(text: &str) -> Strategy {
    text.parse().unwrap()
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// The never-losing players under test, including adaptive with a posterior already
/// moved far towards a careless and towards a careful opponent.
fn never_losing() -> Vec<Strategy> {
    let mut careless = s("adaptive");
    let mut careful = s("adaptive");
    // O to move wins at once on 5: playing 8 is a blunder, playing 5 keeps the value.
    let b: Board = "XX./OO./X..".parse().unwrap();
    for _ in 0..20 {
        careless.observe(&b, Square::new(8).unwrap());
        careful.observe(&b, Square::new(5).unwrap());
    }
    assert!(careless.estimate().unwrap().parts_per_10000() > 9000);
    assert!(careful.estimate().unwrap().parts_per_10000() < 1000);
    let mut all: Vec<Strategy> = ["sharp", "gentle:0", "gentle:0.3", "gentle:0.5", "gentle:1"]
        .map(s)
        .to_vec();
    all.extend([s("adaptive"), careless, careful]);
    all
}

/// Walks every game where `player` plays `me` and the opponent plays every legal move
/// (the player every move of its support, observing the opponent's); fails on a loss.
/// Returns the number of finished games.
fn games_without_loss(board: Board, player: Strategy, me: Player) -> u64 {
    if let Some(winner) = board.winner() {
        assert_eq!(winner, me, "{player} lost: {board}");
        return 1;
    }
    if board.is_full() {
        return 1;
    }
    let mut games = 0;
    if board.to_move() == me {
        let d = player.distribution(&board).unwrap();
        for square in d.support() {
            games += games_without_loss(board.play(square).unwrap(), player, me);
        }
    } else {
        for square in board.legal_moves() {
            let mut seen = player;
            seen.observe(&board, square);
            games += games_without_loss(board.play(square).unwrap(), seen, me);
        }
    }
    games
}

#[test]
fn the_new_levels_never_lose_against_any_reply_sequence() {
    for player in never_losing() {
        for me in [Player::X, Player::O] {
            let games = games_without_loss(Board::EMPTY, player, me);
            assert!(games > 100, "{player} as {me:?}: {games} games");
        }
    }
}

/// The game's value for the side to move by plain negamax (1 win, 0 draw, −1 loss),
/// written here independently of the engine's tables and search.
fn value(board: Board, memo: &mut HashMap<Board, i8>) -> i8 {
    if let Some(&v) = memo.get(&board) {
        return v;
    }
    let v = if board.winner().is_some() {
        -1 // the side that just moved won
    } else if board.is_full() {
        0
    } else {
        board
            .legal_moves()
            .into_iter()
            .map(|sq| -value(board.play(sq).unwrap(), memo))
            .max()
            .unwrap()
    };
    memo.insert(board, v);
    v
}

/// Which of its moves a class of never-losing players may make.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    /// The moves that keep the position's value (what sharp and gentle play).
    ValueKeeping,
    /// Every move that does not hand the opponent a forced win (a won position may be
    /// thrown away to a draw).
    NotLosing,
}

/// Memo of [`extreme`]: position, side, most, class, ε in 1/10 000.
type Extremes = HashMap<(Board, Player, bool, Class, u16), BigRational>;

/// The highest (`most`) or lowest win probability for `me`, against a uniformly
/// random opponent, over every player of `class`: a dynamic programme over all
/// positions in exact rationals.
fn extreme(
    board: Board,
    me: Player,
    most: bool,
    class: Class,
    memo: &mut Extremes,
    values: &mut HashMap<Board, i8>,
) -> BigRational {
    extreme_against(board, me, most, class, 10_000, memo, values)
}

/// Like [`extreme`] against the ε-random opponent, ε = `epsilon` / 10 000: with
/// probability ε a uniformly random legal move, otherwise a uniformly random one of
/// the moves that keep its value (by [`value`]).
fn extreme_against(
    board: Board,
    me: Player,
    most: bool,
    class: Class,
    epsilon: u16,
    memo: &mut Extremes,
    values: &mut HashMap<Board, i8>,
) -> BigRational {
    if let Some(v) = memo.get(&(board, me, most, class, epsilon)) {
        return v.clone();
    }
    let v = if let Some(winner) = board.winner() {
        if winner == me {
            BigRational::one()
        } else {
            BigRational::zero()
        }
    } else if board.is_full() {
        BigRational::zero()
    } else if board.to_move() == me {
        let here = value(board, values);
        let allowed: Vec<Square> = board
            .legal_moves()
            .into_iter()
            .filter(|&sq| {
                let after = -value(board.play(sq).unwrap(), values);
                match class {
                    Class::ValueKeeping => after == here,
                    Class::NotLosing => after >= here.min(0),
                }
            })
            .collect();
        let options = allowed.into_iter().map(|sq| {
            let child = board.play(sq).unwrap();
            extreme_against(child, me, most, class, epsilon, memo, values)
        });
        if most {
            options.max().unwrap()
        } else {
            options.min().unwrap()
        }
    } else {
        let legal = board.legal_moves();
        let here = value(board, values);
        let keeps: Vec<Square> = legal
            .into_iter()
            .filter(|&sq| -value(board.play(sq).unwrap(), values) == here)
            .collect();
        let e = ratio(epsilon.into(), 10_000);
        let mut sum = BigRational::zero();
        for sq in legal {
            let mut p = &e / BigRational::from_integer(BigInt::from(legal.len()));
            if keeps.contains(&sq) {
                p += (BigRational::one() - &e)
                    / BigRational::from_integer(BigInt::from(keeps.len()));
            }
            if !p.is_zero() {
                let child = board.play(sq).unwrap();
                sum += p * extreme_against(child, me, most, class, epsilon, memo, values);
            }
        }
        sum
    };
    memo.insert((board, me, most, class, epsilon), v.clone());
    v
}

/// `player`'s exact win probability as `me` against a uniformly random opponent.
fn win_against_random(player: &Strategy, me: Player) -> BigRational {
    let random = Strategy::new(Level::Random);
    match me {
        Player::X => exact(player, &random).unwrap().x_win,
        Player::O => exact(&random, player).unwrap().o_win,
    }
}

#[test]
fn sharp_and_gentle_0_reach_the_extremes_of_every_never_losing_player() {
    let (mut memo, mut values) = (HashMap::new(), HashMap::new());
    for (me, most, least, least_not_losing) in [
        (Player::X, ratio(191, 192), ratio(161, 192), ratio(1, 2)),
        (Player::O, ratio(866, 945), ratio(542, 945), ratio(67, 315)),
    ] {
        let e = |most, class, memo: &mut _, values: &mut _| {
            extreme(Board::EMPTY, me, most, class, memo, values)
        };
        // The independent programme: the best any value-keeping player reaches, and
        // the best any never-losing one reaches (the same: giving up a win never helps).
        let best = e(true, Class::ValueKeeping, &mut memo, &mut values);
        assert_eq!(best, e(true, Class::NotLosing, &mut memo, &mut values));
        assert_eq!(best, most, "{me:?}");
        assert_eq!(win_against_random(&s("sharp"), me), best, "sharp as {me:?}");
        assert_eq!(win_against_random(&s("gentle:1"), me), best);
        let worst = e(false, Class::ValueKeeping, &mut memo, &mut values);
        assert_eq!(worst, least, "{me:?}");
        assert_eq!(
            win_against_random(&s("gentle:0"), me),
            worst,
            "gentle:0 as {me:?}"
        );
        // A player that throws won positions away to draws could win still less.
        let lower = e(false, Class::NotLosing, &mut memo, &mut values);
        assert_eq!(lower, least_not_losing, "{me:?}");
    }
    // The figure for trap (95 of 96 as X) is below sharp's 191/192.
    assert_eq!(win_against_random(&s("trap"), Player::X), ratio(95, 96));
}

/// gentle:F's win probability against random as `me`, F = `f` / 10 000.
fn gentle(f: u16, me: Player) -> BigRational {
    win_against_random(&s(&format!("gentle:{}", f64::from(f) / 10_000.0)), me)
}

/// The coefficients (constant first) of the polynomial of degree < `points.len()`
/// through `points` (Lagrange, exact).
fn interpolate(points: &[(BigRational, BigRational)]) -> Vec<BigRational> {
    let n = points.len();
    let mut coefficients = vec![BigRational::zero(); n];
    for (i, (xi, yi)) in points.iter().enumerate() {
        // basis = Π_{j≠i} (x − xj) / (xi − xj)
        let mut basis = vec![BigRational::one()];
        let mut denominator = BigRational::one();
        for (j, (xj, _)) in points.iter().enumerate() {
            if i == j {
                continue;
            }
            let mut next = vec![BigRational::zero(); basis.len() + 1];
            for (k, c) in basis.iter().enumerate() {
                next[k + 1] += c;
                next[k] -= c * xj;
            }
            basis = next;
            denominator *= xi - xj;
        }
        for (k, c) in basis.iter().enumerate() {
            coefficients[k] += c * yi / &denominator;
        }
    }
    coefficients
}

fn binomial(n: usize, k: usize) -> BigRational {
    let mut b = BigRational::one();
    for i in 0..k {
        b = b * BigRational::from_integer(BigInt::from(n - i))
            / BigRational::from_integer(BigInt::from(i + 1));
    }
    b
}

#[test]
fn gentle_is_monotone_in_f_exactly() {
    // Per decision gentle:F plays sharp with probability F, so each game's probability
    // is a product of at most five factors linear in F: the win probability W(F) is a
    // polynomial of degree ≤ 5. Six values fix it (two more confirm it); W' has
    // nonnegative Bernstein coefficients on [0, 1], so W is nondecreasing there.
    for me in [Player::X, Player::O] {
        let at = |parts: u16| (ratio(parts as i64, 10_000), gentle(parts, me));
        let points: Vec<_> = [0, 2000, 4000, 6000, 8000, 10_000].map(at).to_vec();
        let w = interpolate(&points);
        for (x, y) in [2500, 7500].map(at) {
            let mut p = BigRational::zero();
            for c in w.iter().rev() {
                p = p * &x + c;
            }
            assert_eq!(p, y, "degree > 5 as {me:?}");
        }
        // W' = Σ k·w_k F^(k−1), degree m = 4; Bernstein b_i = Σ_{k≤i} C(i,k)/C(m,k) a_k.
        let derivative: Vec<BigRational> = (1..w.len())
            .map(|k| &w[k] * BigRational::from_integer(BigInt::from(k)))
            .collect();
        let m = derivative.len() - 1;
        for i in 0..=m {
            let b = (0..=i).fold(BigRational::zero(), |sum, k| {
                sum + binomial(i, k) / binomial(m, k) * &derivative[k]
            });
            assert!(
                !b.is_negative(),
                "W' Bernstein coefficient {i} < 0 as {me:?}: {b}"
            );
        }
        // And strictly: gentle:0 < gentle:0.5 < gentle:1.
        assert!(points[0].1 < gentle(5000, me) && gentle(5000, me) < points[5].1);
    }
}

/// Adaptive's estimate after `games` sampled games against the ε-random opponent.
fn estimate_after(epsilon: &str, games: u64, seed: u64) -> f64 {
    let mut sampler = Sampler::new(s("adaptive"), s(&format!("epsilon:{epsilon}")));
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let counts = sampler.run(games, &mut rng, |_| {}).unwrap();
    assert_eq!(counts.o_win, 0, "adaptive lost against epsilon:{epsilon}");
    let e = sampler.players().0.estimate().unwrap();
    f64::from(e.parts_per_10000()) / 10_000.0
}

#[test]
fn adaptive_estimate_converges_on_the_opponents_epsilon() {
    // 200 games (about 800 observed moves) per session; ten seeded sessions per ε.
    // The estimates' mean must lie within a 99% confidence interval (t = 3.25, 9
    // degrees of freedom) of the true ε, widened by the grid's half step (0.05), and
    // every session within 0.15.
    for (epsilon, truth) in [("0.1", 0.1), ("0.3", 0.3), ("0.7", 0.7)] {
        let estimates: Vec<f64> = (0..10)
            .map(|seed| estimate_after(epsilon, 200, seed))
            .collect();
        let n = estimates.len() as f64;
        let mean = estimates.iter().sum::<f64>() / n;
        let var = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half_width = 3.25 * (var / n).sqrt() + 0.05;
        assert!(
            (mean - truth).abs() <= half_width,
            "ε = {truth}: mean estimate {mean:.3} ± {half_width:.3} ({estimates:?})"
        );
        for e in &estimates {
            assert!(
                (e - truth).abs() <= 0.15,
                "ε = {truth}: a session estimated {e}"
            );
        }
    }
}

/// The levels of docs/players.md's table, and the opponents it plays them against.
const TABLE_LEVELS: [&str; 9] = [
    "perfect",
    "trap",
    "sharp",
    "gentle:0",
    "gentle:0.5",
    "gentle:1",
    "adaptive",
    "easy",
    "medium",
];
const TABLE_OPPONENTS: [&str; 4] = ["random", "epsilon:0.1", "epsilon:0.3", "perfect"];
/// The never-losing levels with a fixed policy, adaptive's yardstick: the table's
/// first six.
const FIXED_NEVER_LOSING: &[&str] = TABLE_LEVELS.split_at(6).0;

/// Win, draw and loss probabilities of `level` playing `me` against `opponent`.
fn wdl(level: &str, me: Player, opponent: &str) -> [BigRational; 3] {
    let (l, o) = (s(level), s(opponent));
    match me {
        Player::X => {
            let p = exact(&l, &o).unwrap();
            [p.x_win, p.draw, p.o_win]
        }
        Player::O => {
            let p = exact(&o, &l).unwrap();
            [p.o_win, p.draw, p.x_win]
        }
    }
}

/// `p` as `n/d (12.34 %)`.
fn cell(p: &BigRational) -> String {
    use num_traits::ToPrimitive;
    let percent = p.to_f64().unwrap() * 100.0;
    if p.is_integer() {
        format!("{p} ({percent:.2} %)")
    } else {
        format!("{}/{} ({percent:.2} %)", p.numer(), p.denom())
    }
}

/// The generated part of docs/players.md.
fn players_table() -> String {
    let mut out = String::new();
    out.push_str("| level | plays | against | win | draw | loss |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for level in TABLE_LEVELS {
        for (me, side) in [(Player::X, "X"), (Player::O, "O")] {
            for opponent in TABLE_OPPONENTS {
                let [w, d, l] = wdl(level, me, opponent);
                assert_eq!(&w + &d + &l, BigRational::one());
                out.push_str(&format!(
                    "| `{level}` | {side} | `{opponent}` | {} | {} | {} |\n",
                    cell(&w),
                    cell(&d),
                    cell(&l)
                ));
            }
        }
    }
    out.push_str(
        "\nAdaptive (fresh, uniform prior) against the best fixed never-losing level \
         (of perfect, trap, sharp, gentle:0, gentle:0.5, gentle:1) for each opponent, \
         by win probability (none of them loses):\n\n",
    );
    out.push_str(
        "| plays | against | best fixed level | its win | adaptive's win | adaptive − best | \
         adaptive after a session | the most any never-losing player wins |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    let (mut memo, mut values) = (HashMap::new(), HashMap::new());
    for (me, side) in [(Player::X, "X"), (Player::O, "O")] {
        for opponent in TABLE_OPPONENTS {
            let (best_level, best) = FIXED_NEVER_LOSING
                .iter()
                .map(|&l| (l, wdl(l, me, opponent)[0].clone()))
                .fold(None::<(&str, BigRational)>, |acc, (l, w)| match acc {
                    Some((bl, bw)) if bw >= w => Some((bl, bw)),
                    _ => Some((l, w)),
                })
                .unwrap();
            let adaptive = wdl("adaptive", me, opponent)[0].clone();
            let difference = &adaptive - &best;
            let sign = if difference.is_negative() { "−" } else { "+" };
            let magnitude = difference.abs();
            let session = after_session(me, opponent);
            let epsilon = match s(opponent).level() {
                Level::Random => Some(10_000),
                Level::Epsilon => Some(s(opponent).mistake_rate().parts_per_10000()),
                _ => None,
            };
            let optimum = epsilon.map_or("—".to_string(), |e| {
                let v = extreme_against(
                    Board::EMPTY,
                    me,
                    true,
                    Class::NotLosing,
                    e,
                    &mut memo,
                    &mut values,
                );
                // Adaptive, once it has watched the opponent, wins as much as
                // anyone can (the dynamic programme knows ε; adaptive estimates it).
                assert_eq!(
                    session, v,
                    "adaptive after a session as {me:?} vs {opponent}"
                );
                cell(&v)
            });
            out.push_str(&format!(
                "| {side} | `{opponent}` | `{best_level}` | {} | {} | {sign}{} | {} | {optimum} |\n",
                cell(&best),
                cell(&adaptive),
                cell(&magnitude),
                cell(&session),
            ));
        }
    }
    out
}

/// Adaptive's exact win probability in the next game after a session of
/// `SESSION` sampled games (seed 1) against `opponent`, its posterior carried over.
fn after_session(me: Player, opponent: &str) -> BigRational {
    let o = s(opponent);
    let (x, y) = match me {
        Player::X => (s("adaptive"), o),
        Player::O => (o, s("adaptive")),
    };
    let mut sampler = Sampler::new(x, y);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    sampler.run(SESSION, &mut rng, |_| {}).unwrap();
    let (x, y) = sampler.players();
    let p = exact(x, y).unwrap();
    match me {
        Player::X => p.x_win,
        Player::O => p.o_win,
    }
}

/// The games of a session in [`after_session`].
const SESSION: u64 = 100;

/// The web page's engine levels (its selector's order, `Level::ALL`'s) and the
/// variants whose figures the page shows beside the selector.
const PAGE_LEVELS: [(&str, &[&str]); 8] = [
    ("random", &["random"]),
    ("easy", &["easy"]),
    ("medium", &["medium"]),
    ("perfect", &["perfect"]),
    ("trap", &["trap"]),
    ("sharp", &["sharp"]),
    ("gentle", &["gentle:0", "gentle:0.5", "gentle:1"]),
    ("adaptive", &["adaptive"]),
];

/// The page's `WIN_RATES`: each level's (and gentle's F = 0, 0.5, 1) exact win, draw
/// and loss probabilities against a uniformly random player, as X and as O, in the
/// shape of docs/players.json's games (the page words them as it words the other
/// games' figures).
fn page_rates() -> String {
    let fraction = |p: &BigRational| {
        if p.is_integer() {
            format!("\"{p}\"")
        } else {
            format!("\"{}/{}\"", p.numer(), p.denom())
        }
    };
    let mut out = String::from("const WIN_RATES = {\n");
    for (_, variants) in PAGE_LEVELS {
        for &v in variants {
            let sides: Vec<String> = [(Player::X, "X"), (Player::O, "O")]
                .iter()
                .map(|&(me, side)| {
                    let figures: Vec<String> = wdl(v, me, "random").iter().map(fraction).collect();
                    format!("\"{side}\": [{}]", figures.join(", "))
                })
                .collect();
            out.push_str(&format!("  \"{v}\": {{ {} }},\n", sides.join(", ")));
        }
    }
    out.push_str("};\n");
    out
}

/// Replaces (or with `write` false, compares) the block between `begin` and `end` in
/// the file at `path` (relative to the repository) with `block`.
fn generated_block(path: &str, begin: &str, end: &str, block: &str, write: bool) {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = doc.split_once(begin).expect("the begin marker");
    let (shown, tail) = rest.split_once(end).expect("the end marker");
    if write {
        std::fs::write(&path, format!("{head}{begin}{block}{end}{tail}")).unwrap();
    } else {
        assert!(
            shown == block,
            "{path}: the generated block is stale: run scripts/players-table\n{block}"
        );
    }
}

/// docs/players.md's table and the web page's win rates are the ones computed now;
/// with `TICTABLE_WRITE_TABLE=1` (`scripts/players-table`) the test writes them.
/// 80 exact games trees: 9 s unoptimised, so `cargo test` leaves it to the release
/// run of `scripts/players-table --check` (.ci/run).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: scripts/players-table --check (9 s unoptimised)"
)]
fn players_table_in_the_docs_is_current() {
    let write = std::env::var_os("TICTABLE_WRITE_TABLE").is_some();
    generated_block(
        "docs/players.md",
        "<!-- players-table: begin (generated: scripts/players-table) -->\n",
        "<!-- players-table: end -->\n",
        &players_table(),
        write,
    );
    generated_block(
        "web/page/index.html",
        "// players-table: begin (generated: scripts/players-table)\n",
        "// players-table: end\n",
        &page_rates(),
        write,
    );
}
