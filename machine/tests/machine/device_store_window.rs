//! The `games` layout's delta window: a game longer than nine plies (achi's
//! slides) is saved in deltas that keep a prefix of their page's base plies and
//! hold the plies after it in a window of nine, so a long game erases a page only
//! once a page's worth of saves or nine plies past its base, not at every save past
//! the ninth ply (format 7). Power cuts at every byte, bit flips of the new
//! records, and deltas the window cannot hold refused.

use super::device_store::{
    self, boot, cut_everywhere, same, DELTA, DELTA_IO, PER_KIB_PAGE, WHOLE_IO,
};
use tictable::Square;
use tictable_machine::controller::{GameRecord, Move, Rules};
use tictable_machine::persist::{Snapshot, Store, ENCODED_LEN};
use tictable_machine::sim::flash::MemFlash;

/// Twelve 1 KiB pages, half-word writes (the firmware's geometry).
type Kib12 = MemFlash<12288, 1024, 2>;

// A page takes more than ten saves: in a game of one save per ply the window,
// not the page, sets when a page is erased.
const _: () = assert!(PER_KIB_PAGE > 10);

/// Offsets in the `games` encoding: the base plies (after the reset cause), the
/// number of plies, the window, and `keep` (the last byte).
const BASE: usize = 1 + 4 + 216 + 8 + 20 + 1;
const LEN: usize = BASE + 55 + 2;
const WINDOW: usize = LEN + 1;
const KEEP: usize = ENCODED_LEN - 1;

/// The records of an achi game of `n` plies, from the empty one: the first
/// game in depth-first order (moves by their record byte, those reaching the
/// position seen least so far first) that goes on for `n` plies without ending,
/// so that slides go on well past the placing phase.
fn achi(n: usize) -> Vec<GameRecord> {
    fn extend(records: &mut Vec<GameRecord>, n: usize) -> bool {
        if records.len() > n {
            return true;
        }
        let last = records.last().unwrap();
        let mut next: Vec<GameRecord> = (0..=0x9Fu8)
            .filter_map(|b| Move::from_byte(b, Rules::Achi))
            .filter_map(|mv| {
                let mut r = *last;
                r.push_move(mv).ok()?;
                r.outcome().is_none().then_some(r)
            })
            .collect();
        next.sort_by_key(GameRecord::occurrences);
        for r in next {
            records.push(r);
            if extend(records, n) {
                return true;
            }
            records.pop();
        }
        false
    }
    let mut records = vec![GameRecord::of_game(Rules::Achi)];
    assert!(extend(&mut records, n), "no achi game of {n} plies");
    records
}

/// A tic-tac-toe record of `moves`.
fn tictactoe(moves: &[u8]) -> GameRecord {
    let mut r = GameRecord::new();
    for &m in moves {
        r.push(Square::new(m).unwrap()).unwrap();
    }
    r
}

/// A snapshot of `record` in a game under way, the rest as in the store's tests.
fn snapshot(record: GameRecord) -> Snapshot {
    Snapshot {
        record,
        active: true,
        ..device_store::snapshot(0, &[])
    }
}

/// A save per ply of a 60-ply achi game, then a new tic-tac-toe game.
fn long_run() -> Vec<Snapshot> {
    let mut run: Vec<Snapshot> = achi(60).into_iter().map(snapshot).collect();
    for k in 0..=4 {
        run.push(snapshot(tictactoe(&[4, 0, 8, 2, 6][..k])));
    }
    run
}

#[test]
fn a_long_game_is_saved_in_deltas_past_the_ninth_ply() {
    let run = long_run();
    let mut store = Store::new(Kib12::new(), 0).unwrap();
    for (k, snap) in run.iter().enumerate() {
        store.save(snap).unwrap();
        assert!(same(boot(store.flash()), Some(snap)), "save {k}");
    }
    let flash = store.destroy();
    let saves = run.len();
    // A whole snapshot at plies 0, 10, 20, ..., 60 (its base holds the game so
    // far), nine deltas after each: seven erases for the 61 saves of the game. The
    // new game's five saves are deltas of the page of ply 60 (no ply of it kept):
    // its slots are not full.
    assert_eq!(flash.erases, 7);
    assert_eq!(flash.writes as usize, saves);
    assert_eq!(
        flash.written as usize,
        7 * WHOLE_IO + (saves - 7) * DELTA_IO
    );
    // Bytes per save: 78 B (7 x 352 + 59 x 46 = 5,178 B over 66 saves). Format 7
    // held only the first nine plies in a delta: a whole snapshot (350 B) and an
    // erase at each of plies 10 to 60 and at the new game's first save, 53 erases
    // and 19,148 B in all, 290 B a save.
    assert_eq!(flash.written as usize / saves, 78);
}

#[test]
fn a_power_cut_at_every_byte_of_a_long_game_keeps_the_newest_snapshot() {
    // Three pages: every save of a 30-ply achi game (whole snapshots at plies 0, 10,
    // 20, 30: a round of the pages and one more) and a new game, cut at every byte
    // of every erase and write.
    let mut run: Vec<Snapshot> = achi(30).into_iter().map(snapshot).collect();
    run.extend((0..=3).map(|k| snapshot(tictactoe(&[4, 0, 8][..k]))));
    let cuts = cut_everywhere::<3072, 1024>(&run);
    assert!(cuts > 5_000, "{cuts} cuts");
}

#[test]
fn every_bit_flip_of_a_window_delta_falls_back_to_the_one_before() {
    // Plies 0..=13: the whole snapshot of ply 10 starts page 1 (base of 10 plies),
    // the deltas of plies 11, 12, 13 follow it; the newest keeps 10 plies and
    // holds 3 in its window.
    let run: Vec<Snapshot> = achi(13).into_iter().map(snapshot).collect();
    let mut store = Store::new(MemFlash::<3072, 1024, 2>::new(), 0).unwrap();
    for snap in &run {
        store.save(snap).unwrap();
    }
    let image = store.destroy();
    assert!(same(boot(&image), run.last()));
    let at = 1024 + WHOLE_IO + 2 * DELTA_IO;
    // The delta's game fields start at the side; its number of plies is 13 and it
    // keeps 10 (its second-last byte before the CRC).
    assert_eq!(image.bytes[at + (LEN - (BASE + 55))], 13);
    assert_eq!(image.bytes[at + DELTA - 5], 10);
    for byte in at..at + DELTA {
        for bit in 0..8 {
            let mut flash = image.clone();
            flash.bytes[byte] ^= 1 << bit;
            assert!(
                same(boot(&flash), Some(&run[12])),
                "bit {bit} of byte {byte}"
            );
        }
    }
}

#[test]
fn a_window_that_cannot_hold_the_plies_past_keep_is_refused() {
    let records = achi(20);
    let snap = snapshot(records[20]);
    let bytes = snap.encode();
    // A whole snapshot keeps its 20 plies in the base, the window empty.
    assert_eq!((bytes[LEN], bytes[KEEP]), (20, 20));
    assert_eq!(bytes[WINDOW..WINDOW + 9], [0; 9]);
    assert_eq!(Snapshot::decode(&bytes), Some(snap));
    // The same game with 12 kept and plies 12..20 in the window: the same snapshot.
    let mut moved = bytes;
    moved[KEEP] = 12;
    moved.copy_within(BASE + 12..BASE + 20, WINDOW);
    assert_eq!(Snapshot::decode(&moved), Some(snap));
    let refused = |what: &str, edit: &dyn Fn(&mut [u8; ENCODED_LEN])| {
        let mut bad = moved;
        edit(&mut bad);
        assert_eq!(Snapshot::decode(&bad), None, "{what}");
    };
    refused("ten plies past keep", &|b| b[KEEP] = 10);
    refused("no ply kept", &|b| b[KEEP] = 0);
    refused("keep past the base", &|b| b[KEEP] = 56);
    refused("keep 255", &|b| b[KEEP] = 0xFF);
    refused("a window ply that is no move", &|b| b[WINDOW] = 0xFF);
    refused("a window ply that is illegal there", &|b| {
        b[WINDOW] = b[WINDOW + 1]
    });
}
