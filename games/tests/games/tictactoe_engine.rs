//! The generic solver against the `tictable` engine on every tic-tac-toe position.

use tictable_games::{solve, Outcome, TicTacToe};

#[test]
fn the_generic_solver_agrees_with_tictable_analyse_on_all_5478_positions() {
    let solution = solve(TicTacToe::normal()).unwrap();
    let mut compared = 0;
    for index in 0..19_683u16 {
        let Some(board) = tictable::Board::from_base3_index(index) else {
            continue;
        };
        if board.validate().is_err() {
            assert_eq!(solution.get(&board), None, "{board}");
            continue;
        }
        let analysis = tictable::analyse(&board).unwrap();
        let record = solution
            .get(&board)
            .unwrap_or_else(|| panic!("{board} missing"));
        let expected: Outcome = analysis.outcome();
        assert_eq!(record.outcome, expected, "{board}");
        // The engine counts a draw's plies as the moves left to fill the board; the
        // solver gives draws no remoteness.
        if expected != Outcome::Draw {
            assert_eq!(record.remoteness, analysis.plies(), "{board}");
        }
        // The optimal moves are the engine's best moves.
        let best: tictable::Squares = solution.best_moves(&board).into_iter().collect();
        assert_eq!(best, analysis.best(), "{board}");
        compared += 1;
    }
    assert_eq!(compared, 5478);
}
