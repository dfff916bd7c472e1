//! Helpers shared by the modules.

use tictable_games::{check, solve, Game, Solution};

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
