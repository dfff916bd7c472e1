//! The players of every game (`tictable_games::players`): they never give away value
//! against any reply sequence, `sharp` wins the most and `gentle:0` the least any
//! value-keeping player can against a uniformly random opponent (an independent
//! dynamic programme over raw positions, its own notion of value-keeping), `gentle`
//! is monotone in F, and tic-tac-toe keeps the engine's figures. The larger boards
//! (mnk:4,3,3, connect4:4x4) are `#[ignore]`d here and run in release by `.ci/run`.

use crate::common::solved;
use num_bigint::BigInt;
use num_rational::BigRational;
use rand_core::SeedableRng;
use std::collections::{HashMap, HashSet};
use tictable_games::players::{outcome_probabilities, Player};
use tictable_games::{
    catalog, ConnectFour, Game, Hexapawn, Mnk, Outcome, Player as Side, Solution, TicTacToe,
};

fn player(text: &str) -> Player {
    text.parse().unwrap()
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Whether moving from a position of record `parent` to one of record `child` (for the
/// opponent) keeps the mover's value: written here from the table's records alone.
fn keeps(parent: Outcome, child: Outcome) -> bool {
    match parent {
        Outcome::Win => child == Outcome::Loss,
        Outcome::Draw => child == Outcome::Draw,
        Outcome::Loss => true,
    }
}

/// Walks every position `who` (playing `side`) meets against every reply, following
/// every move it may make, and checks that none of its moves lowers its value (the
/// table's record of the child against its own). Returns the positions walked.
fn never_gives_away_value<G: Game>(solution: &Solution<G>, who: &Player, side: Side) -> usize {
    let game = solution.game();
    let mut seen = HashSet::new();
    let mut stack = vec![game.start()];
    seen.insert(game.key(&game.start()));
    let mut moves = Vec::new();
    while let Some(position) = stack.pop() {
        if game.primitive(&position).is_some() {
            continue;
        }
        let next: Vec<G::Move> = if game.to_move(&position) == side {
            let record = solution.get(&position).unwrap();
            let chosen: Vec<G::Move> = who
                .distribution(solution, &position)
                .unwrap()
                .into_iter()
                .map(|(mv, _)| mv)
                .collect();
            for &mv in &chosen {
                let child = solution.get(&game.play(&position, mv)).unwrap();
                assert!(
                    keeps(record.outcome, child.outcome),
                    "{} {who} gave away value at {}: {} ({:?} -> {:?} for the opponent)",
                    game.id(),
                    game.write_position(&position, tictable_games::Notation::People),
                    game.write_move(mv, tictable_games::Notation::People),
                    record.outcome,
                    child.outcome
                );
            }
            chosen
        } else {
            moves.clear();
            game.moves(&position, &mut moves);
            moves.clone()
        };
        for mv in next {
            let child = game.play(&position, mv);
            if seen.insert(game.key(&child)) {
                stack.push(child);
            }
        }
    }
    seen.len()
}

/// The highest (`most`) or lowest win probability of `me` against a uniformly random
/// opponent over every player that keeps to value-keeping moves: an independent
/// dynamic programme over raw positions (no symmetry, no expectimax of the library).
fn extreme<G: Game>(
    solution: &Solution<G>,
    position: &G::Position,
    me: Side,
    most: bool,
    memo: &mut HashMap<u64, BigRational>,
) -> BigRational {
    let game = solution.game();
    if let Some(outcome) = game.primitive(position) {
        let won =
            (outcome == Outcome::Win) == (game.to_move(position) == me) && outcome != Outcome::Draw;
        return ratio(won as i64, 1);
    }
    if let Some(v) = memo.get(&game.key(position)) {
        return v.clone();
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let value = if game.to_move(position) == me {
        let record = solution.get(position).unwrap().outcome;
        moves
            .iter()
            .map(|&mv| game.play(position, mv))
            .filter(|child| keeps(record, solution.get(child).unwrap().outcome))
            .map(|child| extreme(solution, &child, me, most, memo))
            .reduce(|a, b| if (b > a) == most { b } else { a })
            .unwrap()
    } else {
        let n = moves.len() as i64;
        moves
            .iter()
            .map(|&mv| extreme(solution, &game.play(position, mv), me, most, memo))
            .fold(ratio(0, 1), |sum, v| sum + v)
            / BigInt::from(n)
    };
    memo.insert(game.key(position), value.clone());
    value
}

/// `sharp`'s exact win probability against a random opponent is the highest any
/// value-keeping player reaches, `gentle:0`'s the lowest, as X and as O; returns
/// (sharp as X, sharp as O).
fn sharp_and_gentle_are_the_extremes<G: Game>(
    solution: &Solution<G>,
) -> (BigRational, BigRational) {
    let start = solution.game().start();
    let random = player("random");
    let mut figures = Vec::new();
    for level in ["sharp", "gentle:0"] {
        let who = player(level);
        let most = level == "sharp";
        let as_x = outcome_probabilities(solution, &who, &random).unwrap()[0].clone();
        let as_o = outcome_probabilities(solution, &random, &who).unwrap()[2].clone();
        let best_x = extreme(solution, &start, Side::X, most, &mut HashMap::new());
        let best_o = extreme(solution, &start, Side::O, most, &mut HashMap::new());
        let id = solution.game().id();
        assert_eq!(as_x, best_x, "{id}: {level} as X against random");
        assert_eq!(as_o, best_o, "{id}: {level} as O against random");
        figures.push((as_x, as_o));
    }
    figures.swap_remove(0)
}

/// Each of the never-losing levels (and adaptive with a posterior pushed both ways),
/// as X and as O.
fn check_never_gives_away_value<G: Game>(solution: &Solution<G>) {
    let mut careless = player("adaptive");
    let mut careful = player("adaptive");
    let game = solution.game();
    let start = game.start();
    let mut moves = Vec::new();
    game.moves(&start, &mut moves);
    let safe = tictable_games::strategy::perfect_moves(solution, &start);
    for _ in 0..5 {
        // The same first move seen again and again: a value-keeping one (careful) and,
        // where there is one, one that is not (careless).
        careful.observe(solution, &start, safe[0]);
        if let Some(&bad) = moves.iter().find(|m| !safe.contains(m)) {
            careless.observe(solution, &start, bad);
        }
    }
    let levels = [
        player("perfect"),
        player("sharp"),
        player("gentle:0"),
        player("gentle:0.5"),
        player("gentle:1"),
        player("adaptive"),
        careless,
        careful,
    ];
    for who in &levels {
        for side in [Side::X, Side::O] {
            assert!(never_gives_away_value(solution, who, side) > 1);
        }
    }
}

#[test]
fn tictactoe_keeps_the_engines_figures() {
    // The engine's figures (docs/players.md, from tests/engine/players.rs's own DP):
    // sharp 191/192 as X and 866/945 as O, gentle:0 161/192 and 542/945.
    let solution = solved(TicTacToe::normal());
    let (x, o) = sharp_and_gentle_are_the_extremes(&solution);
    assert_eq!((x, o), (ratio(191, 192), ratio(866, 945)));
    let random = player("random");
    let gentle = player("gentle:0");
    assert_eq!(
        outcome_probabilities(&solution, &gentle, &random).unwrap()[0],
        ratio(161, 192)
    );
    assert_eq!(
        outcome_probabilities(&solution, &random, &gentle).unwrap()[2],
        ratio(542, 945)
    );
}

#[test]
fn the_players_never_give_away_value_on_misere_and_hexapawn() {
    check_never_gives_away_value(&solved(TicTacToe::misere()));
    check_never_gives_away_value(&solved(Hexapawn));
}

#[test]
#[ignore = "slow in debug (exact values over every position): release, .ci/run"]
fn the_players_never_give_away_value_on_mnk_433_and_connect4_4x4() {
    check_never_gives_away_value(&solved(Mnk::new(4, 3, 3).unwrap()));
    check_never_gives_away_value(&solved(ConnectFour::new(4, 4).unwrap()));
}

#[test]
fn sharp_and_gentle_reach_the_extremes_on_misere_and_hexapawn() {
    sharp_and_gentle_are_the_extremes(&solved(TicTacToe::misere()));
    sharp_and_gentle_are_the_extremes(&solved(Hexapawn));
}

#[test]
#[ignore = "slow in debug (exact values over every position): release, .ci/run"]
fn sharp_and_gentle_reach_the_extremes_on_mnk_433_and_connect4_4x4() {
    sharp_and_gentle_are_the_extremes(&solved(Mnk::new(4, 3, 3).unwrap()));
    sharp_and_gentle_are_the_extremes(&solved(ConnectFour::new(4, 4).unwrap()));
}

/// gentle:F's win probability against a random opponent, for F = 0, 0.1, ..., 1, is
/// non-decreasing, from gentle:0's to sharp's.
fn gentle_is_monotone<G: Game>(solution: &Solution<G>) {
    let random = player("random");
    for side in [Side::X, Side::O] {
        let win = |who: &Player| {
            let p = match side {
                Side::X => outcome_probabilities(solution, who, &random).unwrap(),
                Side::O => outcome_probabilities(solution, &random, who).unwrap(),
            };
            p[if side == Side::X { 0 } else { 2 }].clone()
        };
        let figures: Vec<BigRational> = (0..=10)
            .map(|tenths| win(&player(&format!("gentle:{}", f64::from(tenths) / 10.0))))
            .collect();
        for pair in figures.windows(2) {
            assert!(
                pair[0] <= pair[1],
                "{} as {side:?}: gentle not monotone: {} then {}",
                solution.game().id(),
                pair[0],
                pair[1]
            );
        }
        assert_eq!(figures[10], win(&player("sharp")));
    }
}

#[test]
fn gentle_is_monotone_in_f() {
    gentle_is_monotone(&solved(TicTacToe::misere()));
    gentle_is_monotone(&solved(Hexapawn));
}

#[test]
fn adaptive_learns_from_the_moves_it_sees_and_plays_them() {
    let solution = solved(TicTacToe::misere());
    let game = solution.game();
    let start = game.start();
    let mut rng = rand_pcg::Pcg32::seed_from_u64(9);
    let mut who = player("adaptive");
    assert_eq!(who.estimate().unwrap().to_string(), "0.5");
    // A random opponent's moves, many games' worth of first moves: in misère every
    // opening but the centre loses, so a random opener is seen to err.
    let random = player("random");
    for _ in 0..40 {
        let mv = random.choose(&solution, &start, &mut rng).unwrap();
        who.observe(&solution, &start, mv);
    }
    assert!(who.estimate().unwrap().parts_per_10000() > 7_000);
    let reply = who.choose(
        &solution,
        &game.play(
            &start,
            game.parse_move(&start, "1", tictable_games::Notation::People)
                .unwrap(),
        ),
        &mut rng,
    );
    assert!(reply.is_ok());
}

#[test]
fn the_levels_come_from_the_one_parser_and_the_tictactoe_only_ones_are_refused() {
    for level in ["easy", "medium", "trap", "perfect:0.1", "sharp@4"] {
        let e = level.parse::<Player>().unwrap_err().to_string();
        assert!(e.contains("tic-tac-toe only"), "{level}: {e}");
    }
    for bad in ["gentle:1.5", "gentle:-0.1", "gentle:x", "gentle:"] {
        let e = bad.parse::<Player>().unwrap_err().to_string();
        assert!(e.contains("from 0 to 1"), "{bad}: {e}");
    }
    let every = catalog::parse("connect4:4x4").unwrap();
    assert!(matches!(every, catalog::AnyGame::ConnectFour(_)));
}

/// A probability as a percentage, two decimals, rounded from the exact value.
fn percent(p: &BigRational) -> String {
    let hundredths = (p * BigInt::from(10_000) + ratio(1, 2))
        .floor()
        .to_integer();
    format!("{}.{:02}", &hundredths / 100, &hundredths % 100)
}

/// The exact fraction when its denominator is short, else only the percentage.
fn figure(p: &BigRational) -> String {
    if p.denom().to_string().len() <= 8 {
        format!("{p} ({} %)", percent(p))
    } else {
        format!("{} %", percent(p))
    }
}

/// The games players table of docs/players.md: each level as X and as O against four
/// opponents, win / draw / loss for the level, exact.
fn games_table() -> String {
    let mut out = String::from(
        "| game | level | plays | against `random` | `epsilon:0.1` | `epsilon:0.3` | `perfect` |\n|---|---|---|---|---|---|---|\n",
    );
    fn rows<G: Game>(solution: &Solution<G>, out: &mut String) {
        let opponents: Vec<Player> = ["random", "epsilon:0.1", "epsilon:0.3", "perfect"]
            .iter()
            .map(|o| player(o))
            .collect();
        for level in LEVELS {
            let who = player(level);
            for side in [Side::X, Side::O] {
                let cells: Vec<String> = opponents
                    .iter()
                    .map(|o| {
                        let [w, d, l] = win_draw_loss(solution, &who, o, side);
                        format!("{} / {} / {}", figure(&w), figure(&d), figure(&l))
                    })
                    .collect();
                out.push_str(&format!(
                    "| {} | `{level}` | {side:?} | {} |\n",
                    solution.game().id(),
                    cells.join(" | ")
                ));
            }
        }
    }
    rows(&solved(TicTacToe::misere()), &mut out);
    rows(&solved(Hexapawn), &mut out);
    rows(&solved(Mnk::new(4, 3, 3).unwrap()), &mut out);
    rows(&solved(ConnectFour::new(4, 4).unwrap()), &mut out);
    out
}

/// The levels of the games table and of docs/players.json (adaptive too: its exact
/// tree, which follows every line, takes under a second on each of these games).
const LEVELS: [&str; 6] = [
    "perfect",
    "sharp",
    "gentle:0",
    "gentle:0.5",
    "gentle:1",
    "adaptive",
];

/// `who`'s exact win, draw and loss probabilities playing `side` against `opponent`.
fn win_draw_loss<G: Game>(
    solution: &Solution<G>,
    who: &Player,
    opponent: &Player,
    side: Side,
) -> [BigRational; 3] {
    let [x, d, o] = match side {
        Side::X => outcome_probabilities(solution, who, opponent).unwrap(),
        Side::O => outcome_probabilities(solution, opponent, who).unwrap(),
    };
    match side {
        Side::X => [x, d, o],
        Side::O => [o, d, x],
    }
}

/// docs/players.json, the page's figures beside its level selector: per game (those
/// of the games table, and tic-tac-toe), each level's exact win, draw and loss
/// probabilities (fractions as strings) as X and as O against a uniformly random
/// opponent.
fn page_rates_json() -> String {
    fn game<G: Game>(solution: &Solution<G>, out: &mut Vec<String>) {
        let random = player("random");
        let rows: Vec<String> = LEVELS
            .iter()
            .map(|level| {
                let who = player(level);
                let sides: Vec<String> = [Side::X, Side::O]
                    .into_iter()
                    .map(|side| {
                        let wdl = win_draw_loss(solution, &who, &random, side);
                        format!(
                            "\"{side:?}\": [\"{}\", \"{}\", \"{}\"]",
                            wdl[0], wdl[1], wdl[2]
                        )
                    })
                    .collect();
                format!("      \"{level}\": {{ {} }}", sides.join(", "))
            })
            .collect();
        out.push(format!(
            "    \"{}\": {{\n{}\n    }}",
            solution.game().id(),
            rows.join(",\n")
        ));
    }
    let mut games = vec![];
    game(&solved(TicTacToe::normal()), &mut games);
    game(&solved(TicTacToe::misere()), &mut games);
    game(&solved(Hexapawn), &mut games);
    game(&solved(Mnk::new(4, 3, 3).unwrap()), &mut games);
    game(&solved(ConnectFour::new(4, 4).unwrap()), &mut games);
    format!(
        "{{\n  \"generated\": \"scripts/players-table\",\n  \"opponent\": \"random\",\n  \"order\": [\"win\", \"draw\", \"loss\"],\n  \"games\": {{\n{}\n  }}\n}}\n",
        games.join(",\n")
    )
}

/// docs/players.json is the one computed now; with `TICTABLE_WRITE_TABLE=1`
/// (`scripts/players-table`) the test writes it.
#[test]
#[ignore = "release only (exact trees of five games): scripts/players-table --check, .ci/run"]
fn games_players_json_for_the_page_is_current() {
    let path = format!("{}/../docs/players.json", env!("CARGO_MANIFEST_DIR"));
    let json = page_rates_json();
    if std::env::var_os("TICTABLE_WRITE_TABLE").is_some() {
        std::fs::write(&path, &json).unwrap();
    } else {
        let shown = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            shown == json,
            "{path} is stale: run scripts/players-table\n{json}"
        );
    }
}

/// docs/players.md's table of the games players is the one computed now; with
/// `TICTABLE_WRITE_TABLE=1` (`scripts/players-table`) the test writes it.
#[test]
#[ignore = "release only (exact trees of four games): scripts/players-table --check, .ci/run"]
fn games_players_table_in_the_docs_is_current() {
    crate::common::generated_block(
        "docs/players.md",
        "<!-- games-players-table: begin (generated: scripts/players-table) -->\n",
        "<!-- games-players-table: end -->\n",
        &games_table(),
        std::env::var_os("TICTABLE_WRITE_TABLE").is_some(),
        "scripts/players-table",
    );
}

#[test]
fn on_tictactoe_every_level_is_the_engines_player_exactly() {
    // The engine's tic-tac-toe levels (src/strategy.rs, src/opponent.rs: i128 integer
    // expectimax, no allocation, for the firmware) and these players over the games
    // crate's table give every reachable position the same exact distribution.
    use tictable::strategy::Strategy;
    let solution = solved(TicTacToe::normal());
    let game = solution.game();
    let (mut engine_adaptive, mut games_adaptive) =
        ("adaptive".parse::<Strategy>().unwrap(), player("adaptive"));
    // A careless opponent seen: a losing reply to the centre opening, twice.
    let centre: tictable::Board = ".../.X./...".parse().unwrap();
    let side = tictable::Square::new(1).unwrap();
    for _ in 0..2 {
        engine_adaptive.observe(&centre, side);
        games_adaptive.observe(&solution, &centre, side);
    }
    assert_ne!(engine_adaptive.estimate().unwrap().to_string(), "0.5");
    let mut pairs: Vec<(Strategy, Player)> = [
        "perfect",
        "sharp",
        "gentle:0",
        "gentle:0.3",
        "gentle:1",
        "adaptive",
        "random",
        "epsilon:0.1",
        "epsilon:0.3",
    ]
    .iter()
    .map(|l| (l.parse().unwrap(), player(l)))
    .collect();
    pairs.push((engine_adaptive, games_adaptive));
    let mut checked = 0;
    crate::common::each_reachable(game, |board| {
        if game.primitive(board).is_some() {
            return;
        }
        for (engine, ours) in &pairs {
            let theirs = engine.distribution(board).unwrap();
            let mine = ours.distribution(&solution, board).unwrap();
            for square in board.legal_moves() {
                let (n, d) = theirs.probability(square);
                let expected = ratio(i64::from(n), i64::from(d));
                let got = mine
                    .iter()
                    .find(|(m, _)| *m == square)
                    .map_or(ratio(0, 1), |(_, p)| p.clone());
                assert_eq!(got, expected, "{engine} at {board}, square {square}");
            }
            checked += 1;
        }
    });
    assert_eq!(checked, 10 * 4520);
}
