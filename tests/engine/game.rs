//! Game history, undo/redo, and validating save/load (JSON and postcard).

use crate::common;
use common::sq;

use tictable::game::{Game, GameError, GameResult};
use tictable::{Board, MoveError, Player, Square};

fn game_of(moves: &[u8]) -> Game {
    let mut game = Game::new();
    for &m in moves {
        game.play(sq(m)).unwrap();
    }
    game
}

#[test]
fn undo_and_redo_walk_the_history() {
    let mut game = game_of(&[4, 0, 8, 2, 1]);
    let boards: Vec<Board> = (0..=5)
        .map(|n| Game::from_moves(&game.history()[..n], n).unwrap().board())
        .collect();
    for n in (0..5).rev() {
        assert!(game.can_undo());
        game.undo().unwrap();
        assert_eq!(game.board(), boards[n]);
        assert_eq!(game.ply(), n);
    }
    assert_eq!(game.undo(), None);
    for board in &boards[1..] {
        game.redo().unwrap();
        assert_eq!(game.board(), *board);
    }
    assert_eq!(game.redo(), None);
    // A new move after undo forgets the rest; replaying the same move keeps it.
    game.undo();
    game.undo();
    game.play(sq(2)).unwrap();
    assert_eq!(game.history().len(), 5);
    game.play(sq(6)).unwrap();
    assert_eq!(game.history(), &[4, 0, 8, 2, 6].map(sq));
    assert!(!game.can_redo());
}

#[test]
fn results_and_winning_lines() {
    let won = game_of(&[0, 3, 1, 4, 2]);
    assert_eq!(won.result(), Some(GameResult::Win(Player::X)));
    assert_eq!(won.winning_line().bits(), 0b111);
    assert_eq!(won.last_move(), Some(sq(2)));
    let mut after = won;
    assert_eq!(after.play(sq(8)), Err(MoveError::GameOver));
    assert_eq!(after, won);
    let draw = game_of(&[4, 0, 8, 2, 1, 7, 6, 3, 5]);
    assert_eq!(draw.result(), Some(GameResult::Draw));
    assert!(draw.winning_line().is_empty());
    assert_eq!(game_of(&[4]).result(), None);
    // Two lines at once share the last move.
    let double = game_of(&[0, 1, 2, 3, 6, 5, 8, 7, 4]);
    assert_eq!(double.result(), Some(GameResult::Win(Player::X)));
    assert_eq!(double.winning_line().bits(), 0b101_010_101);
}

#[test]
fn json_round_trip_keeps_undone_moves() {
    let mut game = game_of(&[4, 0, 8, 2, 6]);
    game.undo();
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, r#"{"moves":[4,0,8,2,6],"cursor":4}"#);
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
    let mut redone = back;
    assert_eq!(redone.redo(), Some(sq(6)));
}

#[test]
fn postcard_round_trip() {
    for moves in [
        &[][..],
        &[4],
        &[4, 0, 8, 2, 1, 7, 6, 3, 5],
        &[0, 3, 1, 4, 2],
    ] {
        let mut game = game_of(moves);
        if moves.len() > 2 {
            game.undo();
        }
        let mut buf = [0u8; 64];
        let bytes = postcard::to_slice(&game, &mut buf).unwrap();
        assert!(bytes.len() <= 11);
        let back: Game = postcard::from_bytes(bytes).unwrap();
        assert_eq!(back, game);
    }
    let board: Board = "XX.OO....".parse().unwrap();
    let mut buf = [0u8; 16];
    let bytes = postcard::to_slice(&board, &mut buf).unwrap();
    assert_eq!(postcard::from_bytes::<Board>(bytes).unwrap(), board);
    // Tampered bitboards: three X, no O.
    let bad = postcard::to_slice(&(0b111u16, 0u16), &mut buf).unwrap();
    assert!(postcard::from_bytes::<Board>(bad).is_err());
    // A tampered postcard game: the same square twice.
    let mut buf = [0u8; 16];
    let bad = postcard::to_slice(&(&[4u8, 4][..], 2u8), &mut buf).unwrap();
    assert!(postcard::from_bytes::<Game>(bad).is_err());
}

#[test]
fn board_square_player_serde() {
    let board: Board = "XX.OO....".parse().unwrap();
    assert_eq!(serde_json::to_string(&board).unwrap(), r#""XX.OO....""#);
    assert_eq!(
        serde_json::from_str::<Board>(r#""XX./OO./...""#).unwrap(),
        board
    );
    assert!(serde_json::from_str::<Board>(r#""XXX......""#).is_err());
    assert_eq!(serde_json::to_string(&Player::O).unwrap(), r#""O""#);
    assert_eq!(serde_json::from_str::<Player>(r#""X""#).unwrap(), Player::X);
    assert!(serde_json::from_str::<Player>(r#""Z""#).is_err());
    assert_eq!(serde_json::from_str::<Square>("8").unwrap(), sq(8));
    assert!(serde_json::from_str::<Square>("9").is_err());
}

#[test]
fn bad_files_are_clear_errors() {
    let cases = [
        (
            r#"{"moves":[4,4],"cursor":2}"#,
            "move 2 (square 4) is illegal: square 4 is occupied",
        ),
        (
            r#"{"moves":[0,3,1,4,2,5],"cursor":6}"#,
            "move 6 (square 5) is illegal: the game is over",
        ),
        (
            r#"{"moves":[4,0],"cursor":3}"#,
            "current move 3 is past the 2 recorded moves",
        ),
        (r#"{"moves":[4,9],"cursor":2}"#, "a square 0..=8"),
        (
            r#"{"moves":[0,1,2,3,4,5,6,7,8,0],"cursor":1}"#,
            "at most 9 squares",
        ),
        (r#"{"moves":[4],"cursor":1,"extra":true}"#, "unknown field"),
        (r#"{"moves":[4]}"#, "missing field `cursor`"),
        (r#"{"moves":"4","cursor":1}"#, "invalid type"),
        (r#"not json"#, "expected"),
        (r#"{"moves":[-1],"cursor":1}"#, "invalid value"),
    ];
    for (text, message) in cases {
        let err = serde_json::from_str::<Game>(text).unwrap_err().to_string();
        assert!(err.contains(message), "{text}: {err}");
    }
    assert_eq!(
        Game::from_moves(&[sq(0); 10], 0),
        Err(GameError::TooManyMoves)
    );
}
