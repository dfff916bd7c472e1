//! Saved-game loading (`Game: Deserialize`, JSON on the desktop and postcard on the
//! device) on arbitrary bytes: it never panics, and a game it accepts is consistent
//! (every position valid, the cursor within the history) and saves back to a file
//! that loads to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::game::Game;

fn check(game: &Game) {
    assert!(game.moves().len() <= game.history().len());
    assert_eq!(game.board().validate(), Ok(()));
    let json = serde_json::to_vec(game).expect("a game serializes");
    assert_eq!(
        serde_json::from_slice::<Game>(&json).ok().as_ref(),
        Some(game)
    );
    let mut buffer = [0u8; 64];
    let bytes = postcard::to_slice(game, &mut buffer).expect("a game fits 64 bytes");
    assert_eq!(
        postcard::from_bytes::<Game>(bytes).ok().as_ref(),
        Some(game)
    );
}

fuzz_target!(|data: &[u8]| {
    if let Ok(game) = serde_json::from_slice::<Game>(data) {
        check(&game);
    }
    if let Ok(game) = postcard::from_bytes::<Game>(data) {
        check(&game);
    }
});
