//! The position parser (`Board: FromStr`) on arbitrary text: it never panics, and a
//! board it accepts is valid, prints in the canonical 9-character form and parses back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable::Board;

fuzz_target!(|text: &str| {
    if let Ok(board) = text.parse::<Board>() {
        assert_eq!(
            board.validate(),
            Ok(()),
            "{text:?} parsed to an invalid board"
        );
        let printed = board.to_string();
        assert_eq!(printed.len(), 9);
        assert_eq!(
            printed.parse::<Board>(),
            Ok(board),
            "{text:?} does not round-trip"
        );
        // Rows split by '/' parse to the same board.
        let rows = format!("{}/{}/{}", &printed[..3], &printed[3..6], &printed[6..]);
        assert_eq!(rows.parse::<Board>(), Ok(board));
    }
});
