//! Moves as people (1-based) and programs (0-based) write them, and the errors.

use tictable_games::{
    catalog, ConnectFour, Game, Hexapawn, Morris, MoveError, Notation, TicTacToe,
};

#[test]
fn moves_are_numbered_from_1_for_people_and_from_0_for_programs() {
    let game = TicTacToe::normal();
    let start = game.start();
    let centre = game.parse_move(&start, "5", Notation::People).unwrap();
    assert_eq!(game.write_move(centre, Notation::Api), "4");
    let c4 = ConnectFour::new(5, 4).unwrap();
    let mv = c4.parse_move(&c4.start(), "0", Notation::Api).unwrap();
    assert_eq!(c4.write_move(mv, Notation::People), "1");
    let hexapawn = Hexapawn;
    let mv = hexapawn
        .parse_move(&hexapawn.start(), "8-5", Notation::People)
        .unwrap();
    assert_eq!(hexapawn.write_move(mv, Notation::Api), "7-4");
}

#[test]
fn a_bad_move_names_the_syntax_and_the_legal_moves() {
    let game = Morris::three_mens_morris();
    let error = game
        .parse_move(&game.start(), "1-2", Notation::People)
        .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("`1-2` is not a legal move"), "{text}");
    assert!(text.contains("a point 1-9 to place a piece"), "{text}");
    assert!(text.contains("legal: 1, 2, 3"), "{text}");
    let c4 = ConnectFour::new(4, 4).unwrap();
    let text = c4
        .parse_move(&c4.start(), "x", Notation::People)
        .unwrap_err()
        .to_string();
    assert!(text.contains("a column 1-4"), "{text}");
}

#[test]
fn a_finished_game_has_no_moves() {
    let game = TicTacToe::normal();
    let mut p = game.start();
    for square in ["1", "4", "2", "5", "3"] {
        p = game.play(&p, game.parse_move(&p, square, Notation::People).unwrap());
    }
    assert_eq!(game.write_position(&p, Notation::People), "XXX/OO./...");
    assert_eq!(
        game.parse_move(&p, "9", Notation::People),
        Err(MoveError::GameOver)
    );
}

#[test]
fn unknown_and_oversized_games_are_refused_with_the_reason() {
    let text = catalog::parse("chess").unwrap_err().to_string();
    assert!(
        text.contains("unknown game `chess`") && text.contains("connect4:WxH"),
        "{text}"
    );
    let text = catalog::parse("mnk:9,9,9").unwrap_err().to_string();
    assert!(text.contains("3^81"), "{text}");
    let text = catalog::parse("connect4:9x9").unwrap_err().to_string();
    assert!(text.contains("bytes"), "{text}");
    assert!(catalog::parse("mnk:4,4").is_err());
    assert!(catalog::parse("connect4:0x4").is_err());
    assert!(catalog::parse("mnk:3,3,4").is_err());
}

#[test]
fn every_listed_game_parses_to_its_id() {
    for any in catalog::all() {
        assert_eq!(catalog::parse(&any.id()).unwrap(), any);
    }
    assert_eq!(catalog::all().len(), 16);
}

#[test]
fn positions_are_written_row_by_row_top_row_first() {
    let game = ConnectFour::new(4, 4).unwrap();
    let mut p = game.start();
    for column in ["1", "1", "2"] {
        p = game.play(&p, game.parse_move(&p, column, Notation::People).unwrap());
    }
    assert_eq!(
        game.write_position(&p, Notation::People),
        "..../..../O.../XX.."
    );
    let morris = Morris::tapatan();
    let mut p = morris.start();
    for point in ["5", "1"] {
        p = morris.play(&p, morris.parse_move(&p, point, Notation::People).unwrap());
    }
    assert_eq!(morris.write_position(&p, Notation::People), "O../.X./... X");
    let p = Hexapawn.start();
    assert_eq!(
        Hexapawn.write_position(&p, Notation::People),
        "OOO/.../XXX X"
    );
}

/// Every reachable position of `game` reads back from its text.
fn round_trip<G: Game>(game: G) -> usize {
    crate::common::each_reachable(&game, |p| {
        let text = game.write_position(p, Notation::People);
        assert_eq!(game.parse_position(&text).as_ref(), Ok(p), "{text}");
    })
}

#[test]
fn every_reachable_position_reads_back_from_its_text() {
    assert_eq!(round_trip(TicTacToe::normal()), 5478);
    assert_eq!(round_trip(TicTacToe::misere()), 5478);
    assert_eq!(
        round_trip(tictable_games::Mnk::new(4, 3, 3).unwrap()),
        111_973
    );
    assert_eq!(round_trip(ConnectFour::new(4, 4).unwrap()), 161_029);
    assert_eq!(round_trip(Morris::achi()), 5716);
    assert_eq!(round_trip(Hexapawn), 135);
}

#[test]
fn a_position_in_the_wrong_notation_names_the_expected_one() {
    let c4 = ConnectFour::new(4, 4).unwrap();
    let text = c4
        .parse_position("X.../..../..../....")
        .unwrap_err()
        .to_string();
    assert!(text.contains("a piece above an empty cell"), "{text}");
    assert!(
        text.contains("expected 4 rows of 4 cells (X, O or .) joined by /"),
        "{text}"
    );
    let text = c4.parse_position("XX../").unwrap_err().to_string();
    assert!(text.contains("the wrong number of rows or cells"), "{text}");
    let morris = Morris::three_mens_morris();
    let text = morris
        .parse_position("XX./.../...")
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("no side to move") && text.contains("e.g. `.../.../... X`"),
        "{text}"
    );
    let text = morris
        .parse_position("XX./.../... X")
        .unwrap_err()
        .to_string();
    assert!(text.contains("while placing"), "{text}");
    let text = TicTacToe::normal()
        .parse_position("XXX/OO./OOO")
        .unwrap_err()
        .to_string();
    assert!(text.starts_with("`XXX/OO./OOO`: "), "{text}");
    let text = Hexapawn
        .parse_position("XXX/X../OOO Z")
        .unwrap_err()
        .to_string();
    assert!(text.contains("the side to move is X or O"), "{text}");
}
