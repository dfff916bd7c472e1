//! A person's hands at the simulated machine: pieces put on squares, taken
//! away, centred, set aside and put back, as a person at the table does them
//! (the machine learns of it only through its sensors).

use tictable::Square;
use tictable_machine::motion::Point;
use tictable_machine::sim::world::{World, NO_COVER_MM};
use tictable_machine::Colour;

/// Where a piece set aside lies: on the table beside the machine, out of the
/// sensors' and the head's reach.
pub const ASIDE: Point = Point::new(-500_000, -500_000);

/// [`NO_COVER_MM`] in micrometres: a piece further from every square's centre
/// covers no sensor.
const NO_COVER_UM: u32 = NO_COVER_MM as u32 * 1000;

/// How far a hand-placed piece lands from the square's centre, mm each way.
const HAND_JITTER_MM: f32 = 1.5;

/// Whether piece `i` lies aside (see [`ASIDE`]).
fn aside(w: &World, i: usize) -> bool {
    w.head.held != Some(i) && w.pieces[i].at.x < ASIDE.x / 2
}

/// Puts piece `i` back into a free storage slot of its colour (aside when its
/// column is full).
fn to_storage(w: &mut World, i: usize) {
    let to = w.free_slot(w.pieces[i].colour).unwrap_or(ASIDE);
    w.hand_move(i, to, 0.0);
}

/// The pieces lying on the board area or beside it: not in storage, not held,
/// not aside.
fn loose(w: &World) -> Vec<usize> {
    (0..w.pieces.len())
        .filter(|&i| w.head.held != Some(i) && !w.in_storage(&w.pieces[i]) && !aside(w, i))
        .collect()
}

/// Puts a piece of `colour` from storage on `square`. `false` when the square
/// is taken or the column empty.
pub fn place(w: &mut World, colour: Colour, square: Square) -> bool {
    if w.piece_seen_on(square).is_some() {
        return false;
    }
    let Some(i) = w.stored_piece(colour) else {
        return false;
    };
    let to = w.config.pose.square_centre(square);
    w.hand_move(i, to, HAND_JITTER_MM);
    true
}

/// Takes the piece nearest to `square`'s centre (one that covers its sensor at
/// all) back to storage. `false` when none lies there.
pub fn remove(w: &mut World, square: Square) -> bool {
    let centre = w.config.pose.square_centre(square);
    let Some(i) = w.piece_near(centre, NO_COVER_MM) else {
        return false;
    };
    if w.in_storage(&w.pieces[i]) {
        return false;
    }
    to_storage(w, i);
    true
}

/// Centres the piece nearest to `square`'s centre on it. `false` when none
/// covers its sensor.
pub fn centre(w: &mut World, square: Square) -> bool {
    let c = w.config.pose.square_centre(square);
    let Some(i) = w.piece_near(c, NO_COVER_MM) else {
        return false;
    };
    w.hand_move(i, c, 0.5);
    true
}

/// Takes away every loose piece that does not belong where it lies: on a
/// square `target` gives its colour it stays (one per square); anything else
/// (between squares, beside the board, on a square it does not belong on) goes
/// back to storage. A piece hanging on the switched-off magnet is taken off
/// too. Returns how many pieces were moved.
pub fn tidy(w: &mut World, target: impl Fn(Square) -> Option<Colour>) -> usize {
    let mut kept = 0u16;
    let mut moved = 0;
    for i in loose(w) {
        let p = w.pieces[i];
        match w.config.pose.square_at(p.at, NO_COVER_UM) {
            Some(s) if target(s) == Some(p.colour) && kept & s.bit() == 0 => kept |= s.bit(),
            _ => {
                to_storage(w, i);
                moved += 1;
            }
        }
    }
    if let (Some(i), false) = (w.head.held, w.head.magnet) {
        w.head.held = None;
        to_storage(w, i);
        moved += 1;
    }
    moved
}

/// Puts the board as `colour_on` has it (the colour each square should show,
/// `None` empty): pieces that do not belong go back to storage, the missing ones
/// come from storage, every piece centred. `false` when a column ran out of
/// pieces.
pub fn as_board(w: &mut World, colour_on: impl Fn(Square) -> Option<Colour>) -> bool {
    tidy(w, &colour_on);
    let mut complete = true;
    for s in Square::ALL {
        let Some(colour) = colour_on(s) else {
            continue;
        };
        if w.piece_seen_on(s).is_some() {
            centre(w, s);
        } else {
            complete &= place(w, colour, s);
        }
    }
    complete
}

/// Puts the pieces set aside back into their storage columns.
pub fn refill(w: &mut World) {
    for i in 0..w.pieces.len() {
        if aside(w, i) {
            to_storage(w, i);
        }
    }
}
