//! Helpers shared by the modules.

use tictable_games::{check, solve, Game, Outcome, Player, Solution};

/// Solves `game` and checks every reachable position against its children.
pub fn solved<G: Game>(game: G) -> Solution<G> {
    let solution = solve(game).expect("the game solves");
    let checked = check::consistency(&solution).expect("every position agrees with its children");
    assert_eq!(checked, solution.summary().classes.total());
    solution
}

/// The record of each child of the start, in the order of the legal moves, with the
/// move written for people.
pub fn first_moves<G: Game>(solution: &Solution<G>) -> Vec<(String, tictable_games::Record)> {
    let game = solution.game();
    let start = game.start();
    let mut moves = Vec::new();
    game.moves(&start, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let child = game.play(&start, mv);
            (
                game.write_move(mv, tictable_games::Notation::People),
                solution
                    .get(&child)
                    .expect("a child of the start is reachable"),
            )
        })
        .collect()
}

/// Calls `visit` once on every reachable position of `game` (depth first from the
/// start, each key once); the number of positions visited.
pub fn each_reachable<G: Game>(game: &G, mut visit: impl FnMut(&G::Position)) -> usize {
    let mut stack = vec![game.start()];
    let mut seen = std::collections::HashSet::new();
    let mut moves = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(game.key(&p)) {
            continue;
        }
        visit(&p);
        moves.clear();
        if game.primitive(&p).is_none() {
            game.moves(&p, &mut moves);
        }
        stack.extend(moves.iter().map(|&m| game.play(&p, m)));
    }
    seen.len()
}

/// The block of `path` between `begin` and `end` is `block`; with `write`, made so.
pub fn generated_block(path: &str, begin: &str, end: &str, block: &str, write: bool, script: &str) {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = doc.split_once(begin).expect("the begin marker");
    let (shown, tail) = rest.split_once(end).expect("the end marker");
    if write {
        std::fs::write(&path, format!("{head}{begin}{block}{end}{tail}")).unwrap();
    } else {
        assert!(
            shown == block,
            "{path}: the generated block is stale: run {script}\n{block}"
        );
    }
}

/// A game with its symmetries ignored (positions, not classes), its key passed through
/// a function (the identity, or a scramble that a test needs).
pub struct Plain<G>(pub G, pub fn(u64) -> u64);

impl<G: Game> Game for Plain<G> {
    type Position = G::Position;
    type Move = G::Move;
    fn id(&self) -> String {
        self.0.id()
    }
    fn rules(&self) -> String {
        self.0.rules()
    }
    fn start(&self) -> G::Position {
        self.0.start()
    }
    fn moves(&self, p: &G::Position, out: &mut Vec<G::Move>) {
        self.0.moves(p, out)
    }
    fn play(&self, p: &G::Position, mv: G::Move) -> G::Position {
        self.0.play(p, mv)
    }
    fn primitive(&self, p: &G::Position) -> Option<Outcome> {
        self.0.primitive(p)
    }
    fn to_move(&self, p: &G::Position) -> Player {
        self.0.to_move(p)
    }
    fn key_space(&self) -> u64 {
        self.0.key_space()
    }
    fn key(&self, p: &G::Position) -> u64 {
        (self.1)(self.0.key(p))
    }
    fn write_move(&self, mv: G::Move, n: tictable_games::Notation) -> String {
        self.0.write_move(mv, n)
    }
    fn move_syntax(&self, n: tictable_games::Notation) -> String {
        self.0.move_syntax(n)
    }
    fn write_position(&self, p: &G::Position, n: tictable_games::Notation) -> String {
        self.0.write_position(p, n)
    }
}
