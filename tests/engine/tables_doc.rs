//! docs/tables.md's prose figures (and `src/tactics.rs`'s rustdoc and tables/FORMAT.md,
//! which say the same counts) are the ones the crate computes: the analysis table's parts as
//! `tictable stats` prints them, the compact layout's slots, how many canonical
//! positions each tactics rule decides, the best-moves table's parts, the C header's
//! and the Python module's record sizes. The measured figures beside them (instruction
//! and cycle counts, RAM, times) are written by the scripts that measure them.

use std::path::Path;

use tictable::tactics::immediate_best;

/// A text with its line breaks (and the `//! ` of rustdoc lines) as single spaces, so
/// a phrase is found however the paragraph wraps.
fn flat(text: &str) -> String {
    text.lines()
        .map(|l| l.trim().trim_start_matches("//!").trim())
        .collect::<Vec<_>>()
        .join(" ")
}

fn read(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    flat(&std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}")))
}

/// How many canonical decision positions each rule of `immediate_best` decides:
/// (a line completed, the one threat blocked, two threats so every move loses, the
/// last square), and how many it leaves to the table.
fn rule_counts() -> [usize; 5] {
    let mut counts = [0; 5];
    for (board, _) in tictable::solve::solve().decisions {
        let mover = board.to_move();
        let rule = if immediate_best(board).is_none() {
            4
        } else if !board.winning_moves(mover).is_empty() {
            0
        } else {
            match board.winning_moves(mover.other()).len() {
                0 => 3,
                1 => 1,
                _ => 2,
            }
        };
        counts[rule] += 1;
    }
    counts
}

/// The phrases docs/tables.md and `src/tactics.rs` must hold, as the crate computes
/// them: (file, phrase).
fn expected_phrases() -> Vec<(&'static str, String)> {
    let size = tictable::table::size();
    let map = tictable::table::map();
    let decisions = tictable::solve::solve().decisions.len();
    let [won, block, lost, last, stored] = rule_counts();
    assert_eq!(stored, size.best_entries);
    let extras = size.entries - decisions;
    let record = 4; // a C / Python record: a 16-bit key and a 16-bit value
    let best_slots = size.best_entries + 1;
    let mut phrases = vec![
        format!("only {extras} canonical positions (wins in 3 plies"),
        format!("That makes {} entries of 4 bytes each", size.entries),
        format!(
            "keys {} B, values {} B, hash parameters {} B (the seed, {} pilots, {} remap slots)",
            size.key_bytes,
            size.value_bytes,
            size.hash_bytes,
            map.pilots.len(),
            map.remap.len()
        ),
        format!("the values alone in {} slots", size.entries + 1),
        format!(
            "complete your line if you can ({won} of the {decisions} canonical positions), \
             else block the opponent's single threat ({block}), else, facing two threats, \
             every move loses in 2 ({lost}), or the last square ({last})"
        ),
        format!("look the other {stored} positions up"),
        format!("the {stored} sets in {best_slots} slots"),
        format!("{stored} x {record} = {} B", stored * record),
        format!(
            "from the {} B analysis table: {} records of {record} bytes",
            size.entries * record,
            size.entries
        ),
        format!(
            "decide {} of the {decisions} canonical positions by rule and read the {} B \
             best-moves records for the other {stored}",
            decisions - stored,
            stored * record
        ),
        format!(
            "(the same {} B and {} B records as the C header)",
            size.entries * record,
            stored * record
        ),
    ];
    // "Verified facts": the position counts, from the solve and from every board by
    // base-3 index (valid, finished, whose turn).
    let solution = tictable::solve::solve();
    let (mut x_to_move, mut o_to_move) = (0, 0);
    for index in 0..19683u16 {
        let board = tictable::Board::from_base3_index(index).expect("below 3^9");
        if board.status() == Ok(tictable::board::Status::Ongoing) {
            match board.to_move() {
                tictable::Player::X => x_to_move += 1,
                tictable::Player::O => o_to_move += 1,
            }
        }
    }
    let canonical_finished = solution.canonical.len() - decisions;
    phrases.push(format!(
        "{} reachable positions ({} finished), {} up to symmetry ({canonical_finished} \
         finished); {} decision positions ({x_to_move} X to move, {o_to_move} O to move), \
         {decisions} up to symmetry",
        solution.reachable,
        solution.reachable_terminal,
        solution.canonical.len(),
        x_to_move + o_to_move
    ));
    // The map's header exists as the host sees it (pointer-sized slices).
    if cfg!(target_pointer_width = "64") {
        phrases.push(format!(
            "the map's header adds {} B that the sum leaves out",
            size.header_bytes
        ));
    }
    let mut all: Vec<_> = phrases.into_iter().map(|p| ("docs/tables.md", p)).collect();
    all.push((
        "src/tactics.rs",
        format!(
            "of the {decisions} canonical ones, {won} are won in one ply, {lost} lost in two, {block} \
             must block the opponent's one threat and {last} have one square left, so the \
             table of best moves that microcontrollers use ([`crate::table`]) stores only \
             the other {stored}"
        ),
    ));
    // tables/FORMAT.md describes the same rule step by step.
    for phrase in [
        format!("nothing is faster ({won} positions)"),
        format!("any other move loses at once; {block} positions"),
        format!("every move loses in 2 plies; {lost} positions"),
        format!("when one square is left, that square ({last} positions)"),
    ] {
        all.push(("tables/FORMAT.md", phrase));
    }
    all
}

/// The phrases missing from their files.
fn missing(read: impl Fn(&str) -> String) -> Vec<String> {
    expected_phrases()
        .into_iter()
        .filter(|(file, phrase)| !read(file).contains(phrase.as_str()))
        .map(|(file, phrase)| format!("{file} does not say \"{phrase}\""))
        .collect()
}

#[test]
fn the_tables_page_says_the_sizes_and_counts_the_crate_computes() {
    let wrong = missing(read);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The check itself: one edited figure (keys 1258 B -> 1259 B) is found.
    let size = tictable::table::size();
    let edited = |path: &str| {
        read(path).replacen(
            &format!("keys {} B", size.key_bytes),
            &format!("keys {} B", size.key_bytes + 1),
            1,
        )
    };
    assert_eq!(missing(edited).len(), 1, "{:?}", missing(edited));
}
