//! Puzzles from the table (`tictable_games::puzzle`): counted against a brute-force
//! count on tic-tac-toe (its own negamax over raw bitboards, no table, no symmetry),
//! one solved and one failed, judged as the table judges.

use crate::common::solved;
use rand_core::SeedableRng;
use std::collections::{BTreeMap, HashMap, HashSet};
use tictable_games::puzzle::{self, Verdict};
use tictable_games::{Game, Outcome, TicTacToe};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Whether the pieces `bits` hold a whole line.
fn has_line(bits: u16) -> bool {
    LINES.iter().filter(|&&l| bits & l == l).count() > 0
}

/// Outcome and remoteness for the side to move (`mine`) against `theirs`: the last
/// mover made a line (a loss now), a full board (a draw), else the best child.
fn negamax(mine: u16, theirs: u16, memo: &mut HashMap<(u16, u16), (Outcome, u8)>) -> (Outcome, u8) {
    if has_line(theirs) {
        return (Outcome::Loss, 0);
    }
    if (mine | theirs) == 0x1ff {
        return (Outcome::Draw, 0);
    }
    if let Some(&v) = memo.get(&(mine, theirs)) {
        return v;
    }
    let children: Vec<(Outcome, u8)> = (0..9)
        .filter(|i| (mine | theirs) >> i & 1 == 0)
        .map(|i| negamax(theirs, mine | 1 << i, memo))
        .collect();
    let v = if let Some(r) = children
        .iter()
        .filter(|c| c.0 == Outcome::Loss)
        .map(|c| c.1)
        .min()
    {
        (Outcome::Win, r + 1)
    } else if children.iter().any(|c| c.0 == Outcome::Draw) {
        (Outcome::Draw, 0)
    } else {
        (
            Outcome::Loss,
            children.iter().map(|c| c.1).max().unwrap() + 1,
        )
    };
    memo.insert((mine, theirs), v);
    v
}

/// Every reachable tic-tac-toe position where the mover wins and exactly one move
/// keeps the win, per remoteness, counted over raw positions.
fn brute_force_counts() -> BTreeMap<u8, u64> {
    let mut memo = HashMap::new();
    let mut seen = HashSet::new();
    let mut counts = BTreeMap::new();
    let mut stack = vec![(0u16, 0u16)];
    seen.insert((0u16, 0u16));
    while let Some((mine, theirs)) = stack.pop() {
        let (outcome, remoteness) = negamax(mine, theirs, &mut memo);
        let over = has_line(theirs) || (mine | theirs) == 0x1ff;
        if over {
            continue;
        }
        let free: Vec<u16> = (0..9).filter(|i| (mine | theirs) >> i & 1 == 0).collect();
        let winning = free
            .iter()
            .filter(|&&i| negamax(theirs, mine | 1 << i, &mut memo).0 == Outcome::Loss)
            .count();
        if outcome == Outcome::Win && winning == 1 {
            *counts.entry(remoteness).or_insert(0) += 1;
        }
        for i in free {
            let child = (theirs, mine | 1 << i);
            if seen.insert(child) {
                stack.push(child);
            }
        }
    }
    counts
}

#[test]
fn tictactoe_puzzle_counts_match_a_brute_force_count() {
    let solution = solved(TicTacToe::normal());
    let counts = puzzle::counts(&solution);
    let raw: BTreeMap<u8, u64> = counts.iter().map(|(&r, c)| (r, c.positions)).collect();
    assert_eq!(raw, brute_force_counts());
    assert!(counts
        .values()
        .all(|c| 0 < c.classes && c.classes <= c.positions));
    let listed: usize = counts.values().map(|c| c.classes as usize).sum();
    assert_eq!(puzzle::all(&solution, None).len(), listed);
}

#[test]
fn a_puzzle_solved_and_one_failed_are_judged_as_the_table_judges() {
    let solution = solved(TicTacToe::normal());
    let game = solution.game();
    let mut rng = rand_pcg::Pcg32::seed_from_u64(4);
    for remoteness in [1, 3, 5, 1, 3, 5, 1, 3, 5] {
        let p = puzzle::pick(&solution, Some(remoteness), &mut rng).unwrap();
        assert_eq!(p.remoteness, remoteness);
        assert_eq!(solution.best_moves(&p.position), vec![p.answer]);
        assert_eq!(
            puzzle::judge(&solution, &p.position, p.answer),
            Some(Verdict::Solved)
        );
        let mut moves = Vec::new();
        game.moves(&p.position, &mut moves);
        // Every other move fails, with what the table says it leaves the mover.
        for &wrong in moves.iter().filter(|&&m| m != p.answer) {
            let child = solution.get(&game.play(&p.position, wrong)).unwrap();
            assert_ne!(child.outcome, Outcome::Loss, "a second winning move");
            match puzzle::judge(&solution, &p.position, wrong) {
                Some(Verdict::Failed(r)) => assert_eq!(
                    (r.outcome, r.remoteness),
                    (child.outcome.flip(), child.remoteness + 1)
                ),
                other => panic!("{other:?}"),
            }
        }
        let hint = puzzle::hint(&solution, &p);
        assert!(
            hint.contains(&p.answer)
                && hint.len() == moves.len().div_ceil(2).max(2).min(moves.len())
        );
    }
    assert!(puzzle::pick(&solution, Some(2), &mut rng).is_none());
}

/// docs/puzzles.md's counts: per game, the puzzles per remoteness (classes / positions).
fn puzzles_table() -> String {
    let mut out = String::from(
        "| game | puzzles: classes | positions | per remoteness (win in N plies: classes / positions) |\n|---|---|---|---|\n",
    );
    for id in [
        "tictactoe",
        "misere",
        "mnk:4,3,3",
        "mnk:4,4,3",
        "mnk:4,4,4",
        "connect4:4x4",
        "connect4:5x4",
        "connect4:4x5",
        "three-mens-morris",
        "tapatan",
        "achi",
        "hexapawn",
    ] {
        let game = tictable_games::catalog::parse(id).unwrap();
        let counts = tictable_games::dispatch!(game, g => puzzle::counts(&solved(g)));
        out.push_str(&table_row(id, &counts));
    }
    out
}

/// A row of docs/puzzles.md's tables: the game, its puzzles (classes, positions) and
/// each remoteness's.
fn table_row(id: &str, counts: &BTreeMap<u8, puzzle::Count>) -> String {
    let classes: u64 = counts.values().map(|c| c.classes).sum();
    let positions: u64 = counts.values().map(|c| c.positions).sum();
    let each: Vec<String> = counts
        .iter()
        .map(|(r, c)| format!("{r}: {} / {}", c.classes, c.positions))
        .collect();
    format!("| {id} | {classes} | {positions} | {} |\n", each.join(", "))
}

/// docs/puzzles.md's counts are the ones computed now; with `TICTABLE_WRITE_TABLE=1`
/// (`scripts/puzzles-table`) the test writes them.
#[test]
#[ignore = "release only (every position of twelve games): scripts/puzzles-table --check, .ci/run"]
fn puzzle_counts_in_the_docs_are_current() {
    crate::common::generated_block(
        "docs/puzzles.md",
        "<!-- puzzles-table: begin (generated: scripts/puzzles-table) -->\n",
        "<!-- puzzles-table: end -->\n",
        &puzzles_table(),
        std::env::var_os("TICTABLE_WRITE_TABLE").is_some(),
        "scripts/puzzles-table",
    );
}

/// The live search's puzzles (`puzzle::find_live`, for the boards too large to solve
/// whole) are the table's: on Connect Four 4x4, for every remoteness the table has
/// puzzles of, the puzzle found is `puzzle::puzzle_at`'s (the same one winning move
/// and remoteness), every answer is judged as `puzzle::judge` judges it, and a
/// position with two winning moves or none is no puzzle.
#[test]
fn live_puzzles_are_the_tables_puzzles() {
    use tictable_games::search::Searcher;
    use tictable_games::ConnectFour;
    let game = ConnectFour::new(4, 4).unwrap();
    let solution = solved(game);
    let mut searcher = Searcher::new(game, 1 << 20).unwrap();
    let mut rng = rand_pcg::Pcg32::seed_from_u64(39);
    let counts = puzzle::counts(&solution);
    let mut found = 0;
    for &remoteness in counts.keys() {
        // The rare deep ones (4 classes of 13 plies) may stay unfound: said so.
        let p = match puzzle::find_live(&mut searcher, Some(remoteness), &mut rng, 2_000) {
            Ok(p) => p,
            Err(e) => {
                assert!(remoteness >= 11, "{e}");
                assert!(e.to_string().contains("within 2000 tries"), "{e}");
                continue;
            }
        };
        found += 1;
        let table = puzzle::puzzle_at(&solution, &p.position).expect("a puzzle in the table");
        assert_eq!((table.answer, table.remoteness), (p.answer, remoteness));
        let mut moves = Vec::new();
        game.moves(&p.position, &mut moves);
        for &mv in &moves {
            assert_eq!(
                puzzle::judge_live(&mut searcher, &p.position, mv),
                puzzle::judge(&solution, &p.position, mv),
                "{remoteness}: move {mv}"
            );
        }
        let hint = puzzle::hint_in(&game, &p);
        assert_eq!(hint, puzzle::hint(&solution, &p));
        assert!(hint.contains(&p.answer));
    }
    assert!(found >= 5, "{found} remotenesses found");
    // Every position on the way of a few random games: a puzzle by the search exactly
    // when it is one by the table.
    let mut moves = Vec::new();
    for _ in 0..30 {
        let mut p = game.start();
        while game.primitive(&p).is_none() {
            let live = puzzle::puzzle_live(&mut searcher, &p);
            assert_eq!(live, puzzle::puzzle_at(&solution, &p), "{p:?}");
            moves.clear();
            game.moves(&p, &mut moves);
            p = game.play(
                &p,
                moves[tictable::strategy::below(&mut rng, moves.len() as u32) as usize],
            );
        }
    }
    // Bounded: a win in an even number of plies does not exist in Connect Four.
    let none = puzzle::find_live(&mut searcher, Some(4), &mut rng, 50).unwrap_err();
    assert_eq!(none.tries, 50);
    assert!(none.to_string().contains("odd number of plies"), "{none}");
    assert!(puzzle::find_live(&mut searcher, Some(0), &mut rng, 50).is_err());
    assert!(puzzle::find_live(&mut searcher, Some(200), &mut rng, 50).is_err());
    // The same seed serves the same puzzle.
    let mut again = |seed| {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
        puzzle::find_live(&mut searcher, Some(5), &mut rng, 2_000).map(|p| p.position)
    };
    let first = again(7);
    assert_eq!(first, again(7));
    // Any remoteness: a puzzle of the table's.
    let any = puzzle::find_live(&mut searcher, None, &mut rng, 2_000).unwrap();
    let table = puzzle::puzzle_at(&solution, &any.position).expect("a puzzle in the table");
    assert_eq!(
        (table.answer, table.remoteness),
        (any.answer, any.remoteness)
    );
}

/// docs/puzzles.md's counts of the boards too large to solve in a test
/// (`connect4:4x6`, `6x4`, `5x5`), from their tables written by `tictable solve --game G
/// --out DIR` in the directory `TICTABLE_LARGE_TABLES` names (`scripts/puzzles-table
/// --large DIR`; `TICTABLE_WRITE_TABLE=1` writes them). Minutes and 1.1 GB for 5x5.
#[test]
#[ignore = "needs the large boards' tables (minutes to solve, 1 GB each): scripts/puzzles-table --large DIR"]
fn large_board_puzzle_counts_in_the_docs_are_current() {
    let dir = std::env::var("TICTABLE_LARGE_TABLES").expect(
        "TICTABLE_LARGE_TABLES=DIR: the tables of `tictable solve --game connect4:4x6 --out DIR` (also 6x4, 5x5)",
    );
    let mut out = String::from(
        "| game | puzzles: classes | positions | per remoteness (win in N plies: classes / positions) |\n|---|---|---|---|\n",
    );
    for (w, h) in [(4, 6), (6, 4), (5, 5)] {
        let game = tictable_games::ConnectFour::new(w, h).unwrap();
        let path = format!("{dir}/connect4-{w}x{h}.postcard");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let solution = tictable_games::file::from_postcard(game, &bytes).unwrap();
        drop(bytes);
        out.push_str(&table_row(&game.id(), &puzzle::counts(&solution)));
    }
    crate::common::generated_block(
        "docs/puzzles.md",
        "<!-- puzzles-large: begin (generated: scripts/puzzles-table --large DIR) -->\n",
        "<!-- puzzles-large: end -->\n",
        &out,
        std::env::var_os("TICTABLE_WRITE_TABLE").is_some(),
        "scripts/puzzles-table --large DIR",
    );
}

/// On the three boards searched live, `puzzle::find_live` (2,000 tries, seed = the
/// remoteness) finds a puzzle of every remoteness docs/puzzles.md's exact counts list,
/// each one a puzzle by `puzzle::puzzle_live`, and none of an odd remoteness the
/// counts do not list (docs/puzzles.md says so).
#[test]
#[ignore = "release: the live search of the three large boards (seconds; minutes in debug)"]
fn the_live_search_finds_every_remoteness_the_large_boards_have() {
    use tictable_games::search::{Searcher, DEFAULT_TABLE_BYTES};
    let path = format!("{}/../docs/puzzles.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(path).unwrap();
    let block = doc
        .split("<!-- puzzles-large: begin")
        .nth(1)
        .and_then(|b| b.split("<!-- puzzles-large: end").next())
        .expect("the large boards' counts");
    let mut boards = 0;
    for row in block.lines().filter(|l| l.starts_with("| connect4:")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (id, per) = (cells[1], cells[4]);
        let listed: Vec<u8> = per
            .split(", ")
            .map(|e| e.split(':').next().unwrap().parse().unwrap())
            .collect();
        let tictable_games::catalog::AnyGame::ConnectFour(game) =
            tictable_games::catalog::parse(id).unwrap()
        else {
            unreachable!()
        };
        let mut searcher = Searcher::new(game, DEFAULT_TABLE_BYTES).unwrap();
        let cells = (game.width() * game.height()) as u8;
        for r in (1..cells).step_by(2) {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(r.into());
            let found = puzzle::find_live(&mut searcher, Some(r), &mut rng, puzzle::LIVE_TRIES);
            match found {
                Ok(p) => {
                    assert!(
                        listed.contains(&r),
                        "{id}: a puzzle of {r} plies not counted"
                    );
                    let again = puzzle::puzzle_live(&mut searcher, &p.position).unwrap();
                    assert_eq!((again.answer, again.remoteness), (p.answer, r));
                }
                Err(e) => assert!(!listed.contains(&r), "{id}: {e}"),
            }
        }
        boards += 1;
    }
    assert_eq!(boards, 3);
}
