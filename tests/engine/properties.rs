//! Property tests (proptest): symmetry invariants, parse/print round trips, play never
//! reaching an invalid state, play/undo/redo round trips of a game, validity agreeing with reachability, and a parser that
//! never panics. (`tests/engine.rs` pins the same facts exhaustively over the reachable
//! positions; these check them on random inputs, including invalid ones.)

use crate::common;
use common::reachable;

use proptest::prelude::*;
use proptest::sample::select;
use std::collections::HashSet;
use std::sync::OnceLock;
use tictable::game::Game;
use tictable::{analyse, canonical, Board, MoveError, Player, PositionError, Square, Symmetry};

fn reachable_set() -> &'static HashSet<Board> {
    static SET: OnceLock<HashSet<Board>> = OnceLock::new();
    SET.get_or_init(|| reachable().iter().copied().collect())
}

/// A reachable position.
fn any_reachable() -> impl Strategy<Value = Board> {
    select(reachable())
}

/// A position with pieces on distinct squares, reachable or not.
fn any_board() -> impl Strategy<Value = Board> {
    (0u16..512, 0u16..512).prop_map(|(x, o)| Board::from_bits(x, o & !x).expect("disjoint"))
}

fn any_symmetry() -> impl Strategy<Value = Symmetry> {
    select(&Symmetry::ALL[..])
}

fn any_square() -> impl Strategy<Value = Square> {
    select(&Square::ALL[..])
}

/// One step of a game session.
#[derive(Clone, Copy, Debug)]
enum Step {
    Play(Square),
    Undo,
    Redo,
}

fn any_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => any_square().prop_map(Step::Play),
        1 => Just(Step::Undo),
        1 => Just(Step::Redo),
    ]
}

/// The symmetry equal to `second ∘ first` (first applied first), by its action on squares.
fn compose(first: Symmetry, second: Symmetry) -> Option<Symmetry> {
    Symmetry::ALL.into_iter().find(|s| {
        Square::ALL
            .iter()
            .all(|&q| s.apply_square(q) == second.apply_square(first.apply_square(q)))
    })
}

/// Writes `board` with a random spelling of each cell (`X`/`x`, `O`/`o`, `.`/`-`/`_`)
/// chosen by `spelling`, and `/` between rows when `rows` is set.
fn spell(board: Board, spelling: &[u8; 9], rows: bool) -> String {
    let mut text = String::new();
    for square in Square::ALL {
        if rows && square.index() > 0 && square.index() % 3 == 0 {
            text.push('/');
        }
        let choice = spelling[square.index() as usize] as usize;
        text.push(match board.get(square) {
            Some(Player::X) => ['X', 'x'][choice % 2],
            Some(Player::O) => ['O', 'o'][choice % 2],
            None => ['.', '-', '_'][choice % 3],
        });
    }
    text
}

proptest! {
    #[test]
    fn symmetry_is_a_bijection_with_its_inverse(board in any_board(), sym in any_symmetry()) {
        let image = sym.apply(board);
        prop_assert_eq!(sym.inverse().apply(image), board);
        prop_assert_eq!(sym.apply(sym.inverse().apply(board)), board);
        prop_assert_eq!(sym.inverse().inverse(), sym);
        // Pieces are moved, never created or lost.
        prop_assert_eq!(image.x().count_ones(), board.x().count_ones());
        prop_assert_eq!(image.o().count_ones(), board.o().count_ones());
        for square in Square::ALL {
            prop_assert_eq!(image.get(sym.apply_square(square)), board.get(square));
        }
        // Lines go to lines: validity and the winner are invariant.
        prop_assert_eq!(image.validate().is_ok(), board.validate().is_ok());
        prop_assert_eq!(image.winner(), board.winner());
        prop_assert_eq!(image.winning_lines(), sym.apply_squares(board.winning_lines()));
    }

    #[test]
    fn symmetries_are_closed_under_composition(
        board in any_board(),
        first in any_symmetry(),
        second in any_symmetry(),
    ) {
        let composed = compose(first, second);
        prop_assert!(composed.is_some(), "{} then {} is no symmetry", first, second);
        let composed = composed.unwrap();
        prop_assert_eq!(composed.apply(board), second.apply(first.apply(board)));
        let set = board.empty_squares();
        prop_assert_eq!(composed.apply_squares(set), second.apply_squares(first.apply_squares(set)));
    }

    #[test]
    fn canonical_form_is_shared_by_all_images(board in any_reachable(), sym in any_symmetry()) {
        let (image, to_image) = canonical(board);
        prop_assert_eq!(to_image.apply(board), image);
        prop_assert_eq!(canonical(sym.apply(board)).0, image);
        // The canonical image is the least of the eight images.
        for s in Symmetry::ALL {
            let other = s.apply(board);
            prop_assert!((image.x() as u32 | (image.o() as u32) << 16)
                <= (other.x() as u32 | (other.o() as u32) << 16));
        }
    }

    #[test]
    fn analysis_commutes_with_symmetry(board in any_reachable(), sym in any_symmetry()) {
        let a = analyse(&board).unwrap();
        let b = analyse(&sym.apply(board)).unwrap();
        prop_assert_eq!(b.to_move(), a.to_move());
        prop_assert_eq!(b.outcome(), a.outcome());
        prop_assert_eq!(b.plies(), a.plies());
        prop_assert_eq!(b.best(), sym.apply_squares(a.best()));
        prop_assert_eq!(b.safe(), sym.apply_squares(a.safe()));
    }

    #[test]
    fn print_parse_round_trip(
        board in any_reachable(),
        spelling in any::<[u8; 9]>(),
        rows in any::<bool>(),
    ) {
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
        let text = spell(board, &spelling, rows);
        prop_assert_eq!(text.parse::<Board>(), Ok(board), "{}", text);
    }

    #[test]
    fn parse_accepts_exactly_the_reachable_boards(
        board in any_board(),
        spelling in any::<[u8; 9]>(),
        rows in any::<bool>(),
    ) {
        let text = spell(board, &spelling, rows);
        match text.parse::<Board>() {
            Ok(parsed) => {
                prop_assert_eq!(parsed, board);
                prop_assert!(reachable_set().contains(&board));
            }
            Err(e) => {
                prop_assert_eq!(Err(e), board.validate());
                prop_assert!(!reachable_set().contains(&board));
            }
        }
    }

    #[test]
    fn misplaced_separators_are_rejected(board in any_reachable(), at in 0usize..=9) {
        // One '/' at a cell boundary: only a full set of two row separators is valid.
        let mut text = board.to_string();
        text.insert(at, '/');
        let refused = matches!(text.parse::<Board>(), Err(PositionError::BadSeparator { .. }));
        prop_assert!(refused, "{} was not refused", text);
    }

    #[test]
    fn the_parser_never_panics(text in "\\PC{0,24}") {
        check_parse(&text)?;
    }

    #[test]
    fn the_parser_never_panics_on_near_positions(text in "[XxOo._/ -]{0,14}") {
        check_parse(&text)?;
    }

    #[test]
    fn play_never_reaches_an_invalid_state(moves in prop::collection::vec(any_square(), 0..20)) {
        let mut board = Board::EMPTY;
        for square in moves {
            match board.play(square) {
                Ok(next) => {
                    prop_assert!(next.validate().is_ok(), "{} -> {}", board, next);
                    prop_assert!(reachable_set().contains(&next));
                    prop_assert_eq!(next.get(square), Some(board.to_move()));
                    prop_assert_eq!(next.to_move(), board.to_move().other());
                    // Taking the piece back gives the position before the move.
                    let (x, o) = (next.x() & !square.bit(), next.o() & !square.bit());
                    prop_assert_eq!(Board::from_bits(x, o), Ok(board));
                    board = next;
                }
                Err(MoveError::GameOver) => prop_assert!(board.is_over()),
                Err(MoveError::Occupied { square: s }) => {
                    prop_assert_eq!(s, square);
                    prop_assert!(board.get(square).is_some() && !board.is_over());
                }
            }
        }
    }

    #[test]
    fn game_play_undo_redo_round_trips(steps in prop::collection::vec(any_step(), 0..40)) {
        let mut game = Game::new();
        for step in steps {
            let before = game.board();
            match step {
                Step::Play(square) => match game.play(square) {
                    Ok(()) => {
                        prop_assert_eq!(Ok(game.board()), before.play(square));
                        // Play then undo gives the position back; redo replays the move.
                        prop_assert_eq!(game.undo(), Some(square));
                        prop_assert_eq!(game.board(), before);
                        prop_assert_eq!(game.redo(), Some(square));
                        prop_assert_eq!(game.last_move(), Some(square));
                    }
                    Err(e) => {
                        prop_assert_eq!(Err(e), before.play(square));
                        prop_assert_eq!(game.board(), before);
                    }
                },
                Step::Undo => match game.undo() {
                    Some(square) => prop_assert_eq!(game.board().play(square), Ok(before)),
                    None => prop_assert!(before == Board::EMPTY && game.moves().is_empty()),
                },
                Step::Redo => match game.redo() {
                    Some(square) => prop_assert_eq!(before.play(square), Ok(game.board())),
                    None => prop_assert_eq!(game.history().len(), game.moves().len()),
                },
            }
            // The position is always the replay of the moves played, and reachable.
            let replayed = game.moves().iter().try_fold(Board::EMPTY, |b, &s| b.play(s));
            prop_assert_eq!(replayed, Ok(game.board()));
            prop_assert!(reachable_set().contains(&game.board()));
            prop_assert!(game.history().starts_with(game.moves()));
            prop_assert_eq!(game.ply(), game.moves().len());
        }
    }

    #[test]
    fn from_bits_and_validate_agree_with_reachability(x in any::<u16>(), o in any::<u16>()) {
        check_bits(x, o)?;
    }
}

/// A string either parses to a valid board that prints and parses back, or is refused.
fn check_parse(text: &str) -> Result<(), TestCaseError> {
    if let Ok(board) = text.parse::<Board>() {
        prop_assert!(board.validate().is_ok());
        prop_assert!(reachable_set().contains(&board));
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }
    Ok(())
}

/// `from_bits` accepts exactly disjoint 9-bit boards, and `validate` exactly the
/// reachable ones among them.
fn check_bits(x: u16, o: u16) -> Result<(), TestCaseError> {
    match Board::from_bits(x, o) {
        Ok(board) => {
            prop_assert!((x | o) < 512 && x & o == 0);
            prop_assert_eq!((board.x(), board.o()), (x, o));
            prop_assert_eq!(
                board.validate().is_ok(),
                reachable_set().contains(&board),
                "{}",
                board
            );
        }
        Err(PositionError::BitsOutOfRange) => prop_assert!((x | o) >= 512),
        Err(PositionError::Overlap { square }) => {
            prop_assert!((x | o) < 512 && x & o & square.bit() != 0);
        }
        Err(e) => prop_assert!(false, "unexpected error {e:?}"),
    }
    Ok(())
}
