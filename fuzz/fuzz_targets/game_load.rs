//! Saved-game loading (`Game: Deserialize`, JSON on the desktop and postcard on the
//! device) on arbitrary bytes: it never panics; a game it accepts holds exactly the
//! moves and cursor the input says (read back independently here: the JSON as a
//! generic value, which must be the documented object `{"moves":[...],"cursor":N}`;
//! the postcard bytes by their layout), every position is valid, and it saves back to
//! a file that loads to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::game::Game;

fn check(game: &Game, moves: &[u8], cursor: usize) {
    let history: Vec<u8> = game.history().iter().map(|s| s.index()).collect();
    assert_eq!(history, moves, "loaded moves differ from the input");
    assert_eq!(
        game.moves().len(),
        cursor,
        "loaded cursor differs from the input"
    );
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

/// The moves and cursor of a JSON save, read as a generic value: only the object
/// with exactly `moves` (integers) and `cursor`.
fn json_fields(data: &[u8]) -> Option<(Vec<u8>, usize)> {
    let value: serde_json::Value = serde_json::from_slice(data).ok()?;
    let object = value.as_object()?;
    if object.len() != 2 {
        return None;
    }
    let moves = object.get("moves")?.as_array()?;
    let moves: Option<Vec<u8>> = moves
        .iter()
        .map(|m| m.as_u64().and_then(|m| u8::try_from(m).ok()))
        .collect();
    Some((
        moves?,
        usize::try_from(object.get("cursor")?.as_u64()?).ok()?,
    ))
}

fuzz_target!(|data: &[u8]| {
    if let Ok(game) = serde_json::from_slice::<Game>(data) {
        let (moves, cursor) = json_fields(data).expect("only the documented object form loads");
        check(&game, &moves, cursor);
    }
    if let Ok(game) = postcard::from_bytes::<Game>(data) {
        // Postcard: a LEB128 varint count (postcard also takes an overlong one,
        // e.g. 0x80 0x00 for 0), the squares as bytes, then the cursor byte.
        let (mut n, mut at) = (0usize, 0usize);
        while let Some(&b) = data.get(at) {
            n |= usize::from(b & 0x7f) << (7 * at);
            at += 1;
            if b < 0x80 {
                break;
            }
        }
        check(&game, &data[at..at + n], usize::from(data[at + n]));
    }
});
