//! Persistence: snapshots in two CRC-checked slots, and power cuts at every step of
//! games in the simulator.

use embedded_storage::nor_flash::{NorFlash, ReadNorFlash};
use tictable::device::controller::{
    BestMove, GameRecord, Mode, RandomBestMove, ResumeError, State, Task,
};
use tictable::device::persist::{PersistError, Snapshot, Store, ENCODED_LEN};
use tictable::device::sim::flash::{MemFlash, MemFlashError};
use tictable::device::sim::host::HostMachine;
use tictable::device::sim::human::{SimHuman, Style};
use tictable::device::sim::run::SimMachine;
use tictable::device::sim::scenario::{PowerCut, Scenario};
use tictable::device::sim::world::SimConfig;
use tictable::device::sim::SplitMix64;
use tictable::device::Colour;
use tictable::Square;

/// Two slots of one 512-byte page each (the simulator's flash).
type Flash = MemFlash<{ 2 * SLOT }, SLOT, 2>;
/// Four pages: two slots from a base one page in.
type Flash4 = MemFlash<{ 4 * SLOT }, SLOT, 2>;
/// Bytes from slot 0 to slot 1.
const SLOT: usize = 512;
const _: () = assert!(Store::<Flash>::SLOT_STRIDE == SLOT);

fn machine(seed: u64) -> HostMachine<BestMove> {
    SimMachine::new(SimConfig::standard(0.0, 0.0, seed).unwrap(), BestMove).unwrap()
}

#[test]
fn the_newest_valid_slot_wins_and_torn_writes_are_ignored() {
    let m = machine(1);
    let mut snap = m.controller.snapshot();
    let mut store = Store::new(Flash4::new(), SLOT as u32).unwrap();
    assert_eq!(store.load().unwrap(), None);
    snap.record = record(&[4]);
    store.save(&snap).unwrap();
    let first = store.load().unwrap().unwrap();
    assert_eq!(
        first,
        Snapshot {
            sequence: 1,
            ..snap
        }
    );
    // A second save goes to the other slot; a third one is cut by a power loss.
    snap.record = record(&[4, 0]);
    store.save(&snap).unwrap();
    let mut storage = store.destroy();
    storage.tear_write = Some(40);
    let mut store = Store::new(storage, SLOT as u32).unwrap();
    let mut third = snap;
    third.record = record(&[4, 0, 8]);
    assert_eq!(
        store.save(&third),
        Err(PersistError::Storage(MemFlashError::PowerCut))
    );
    let storage = store.destroy();
    assert!(
        storage.bytes[..SLOT].iter().all(|&b| b == 0xFF),
        "nothing before the base is touched"
    );
    let mut store = Store::new(storage, SLOT as u32).unwrap();
    let got = store.load().unwrap().unwrap();
    assert_eq!(
        got.record,
        record(&[4, 0]),
        "the torn third save is ignored"
    );
    // A flipped bit in the newest slot: the older one is used.
    let mut store = Store::new(Flash::new(), 0).unwrap();
    store.save(&first).unwrap(); // slot 0
    store.save(&got).unwrap(); // slot 1
    let mut storage = store.destroy();
    storage.bytes[SLOT + 10] ^= 0x04;
    let mut store = Store::new(storage, 0).unwrap();
    assert_eq!(store.load().unwrap().unwrap().record, record(&[4]));
    // Both slots bad: nothing, never a wrong snapshot.
    let mut storage = store.destroy();
    storage.bytes[10] ^= 0x01;
    let mut store = Store::new(storage, 0).unwrap();
    assert_eq!(store.load().unwrap(), None);
    assert!(matches!(
        Store::new(MemFlash::<SLOT, SLOT, 2>::new(), 0),
        Err(PersistError::TooSmall)
    ));
}

#[test]
fn an_unchanged_snapshot_is_not_written_again() {
    let m = machine(3);
    let snap = m.controller.snapshot();
    let mut store = Store::new(Flash::new(), 0).unwrap();
    store.save(&snap).unwrap();
    store.save(&snap).unwrap();
    let storage = store.destroy();
    assert_eq!(
        (storage.writes, storage.erases),
        (1, 1),
        "the same snapshot again spares the flash"
    );
    // After a reset (a fresh store over the same flash) too.
    let mut store = Store::new(storage, 0).unwrap();
    store.save(&snap).unwrap();
    let mut changed = snap;
    changed.record = record(&[4]);
    store.save(&changed).unwrap();
    let storage = store.destroy();
    assert_eq!(
        (storage.writes, storage.erases),
        (2, 2),
        "a changed snapshot is written"
    );
    // A corrupted newest slot is not mistaken for the snapshot: it is written again.
    let mut storage = storage;
    storage.bytes[SLOT + 7] ^= 0x10;
    let mut store = Store::new(storage, 0).unwrap();
    store.save(&changed).unwrap();
    let storage = store.destroy();
    assert_eq!(storage.writes, 3);
    let mut store = Store::new(storage, 0).unwrap();
    assert_eq!(store.load().unwrap().unwrap().record, record(&[4]));
}

/// A flash holding `older` in slot 0 (sequence 1) and `newer` in slot 1
/// (sequence 2), so the next save goes to slot 0.
fn two_saved(older: &Snapshot, newer: &Snapshot) -> Flash {
    let mut store = Store::new(Flash::new(), 0).unwrap();
    store.save(older).unwrap();
    store.save(newer).unwrap();
    store.destroy()
}

#[test]
fn a_power_cut_while_erasing_or_writing_one_slot_keeps_the_other() {
    let m = machine(5);
    let mut snap = m.controller.snapshot();
    snap.record = record(&[4]);
    let older = snap;
    snap.record = record(&[4, 0]);
    let newer = snap;
    snap.record = record(&[4, 0, 8]);
    let third = snap;
    let image = two_saved(&older, &newer);
    let expect = |flash: Flash, what: &str| {
        assert_eq!(
            flash.bytes[SLOT..],
            image.bytes[SLOT..],
            "{what}: the newest slot is untouched"
        );
        let got = Store::new(flash, 0).unwrap().load().unwrap().unwrap();
        assert_eq!((got.sequence, got.record), (2, newer.record), "{what}");
    };
    // A cut at every byte of the erase of slot 0 (which held the older copy).
    for n in 0..SLOT {
        let mut flash = image.clone();
        flash.tear_erase = Some(n);
        let mut store = Store::new(flash, 0).unwrap();
        assert_eq!(
            store.save(&third),
            Err(PersistError::Storage(MemFlashError::PowerCut))
        );
        expect(store.destroy(), &format!("erase cut after {n} bytes"));
    }
    // A cut at every byte of the write: the third snapshot is loaded only once
    // all of its frame (encoding and CRC) is in the flash.
    let mut whole = image.clone();
    let mut store = Store::new(whole, 0).unwrap();
    store.save(&third).unwrap();
    whole = store.destroy();
    let frame_len = ENCODED_LEN + 4;
    for n in 0..=frame_len {
        let mut flash = image.clone();
        flash.tear_write = Some(n);
        let mut store = Store::new(flash, 0).unwrap();
        let result = store.save(&third);
        let flash = store.destroy();
        assert_eq!(flash.bytes[..n], whole.bytes[..n], "cut after {n} bytes");
        if flash.bytes[..frame_len] == whole.bytes[..frame_len] {
            assert!(n >= frame_len - 1, "cut after {n} bytes");
            let got = Store::new(flash, 0).unwrap().load().unwrap().unwrap();
            assert_eq!((got.sequence, got.record), (3, third.record));
        } else {
            assert_eq!(
                result,
                Err(PersistError::Storage(MemFlashError::PowerCut)),
                "cut after {n} bytes"
            );
            expect(flash, &format!("write cut after {n} bytes"));
        }
    }
}

#[test]
fn a_save_erases_only_its_own_slot_and_writes_erased_words_only() {
    let m = machine(6);
    let mut snap = m.controller.snapshot();
    let mut store = Store::new(Flash4::new(), SLOT as u32).unwrap();
    let mut images = Vec::new();
    for moves in [&[4][..], &[4, 0], &[4, 0, 8], &[4, 0, 8, 2]] {
        snap.record = record(moves);
        store.save(&snap).unwrap();
        let flash = store.destroy();
        images.push(flash.bytes);
        // The model refuses writes to words that are not erased, so every save
        // erased the slot it wrote; the other slot and the rest are untouched.
        store = Store::new(flash, SLOT as u32).unwrap();
        store.load().unwrap();
    }
    for (k, pair) in images.windows(2).enumerate() {
        let written = SLOT + SLOT * ((k + 1) % 2); // slot 1, 0, 1 for saves 2, 3, 4
        for (i, (a, b)) in pair[0].iter().zip(&pair[1]).enumerate() {
            if !(written..written + SLOT).contains(&i) {
                assert_eq!(a, b, "save {}: byte {i} outside its slot changed", k + 2);
            }
        }
    }
    let flash = store.destroy();
    assert_eq!((flash.erases, flash.writes), (4, 4));
    assert!(flash.bytes[..SLOT].iter().all(|&b| b == 0xFF));
    assert!(flash.bytes[3 * SLOT..].iter().all(|&b| b == 0xFF));
    // Past the frame and its padding, a slot stays erased.
    for slot in 1..3 {
        let start = slot * SLOT + ENCODED_LEN + 4 + 1;
        assert!(flash.bytes[start..(slot + 1) * SLOT]
            .iter()
            .all(|&b| b == 0xFF));
    }
}

#[test]
fn the_flash_model_refuses_writes_to_words_that_are_not_erased() {
    let mut flash = Flash::new();
    flash.write(0, &[0xFF, 0x7F]).unwrap();
    // Even a write that would only clear bits: a word is written once per erase.
    assert_eq!(
        flash.write(0, &[0x0F, 0x0F]),
        Err(MemFlashError::NotErased { offset: 0 })
    );
    flash.write(2, &[1, 2]).unwrap();
    assert_eq!(
        flash.write(2, &[1, 2, 3, 4]),
        Err(MemFlashError::NotErased { offset: 2 })
    );
    assert_eq!(flash.bytes[..6], [0xFF, 0x7F, 1, 2, 0xFF, 0xFF]);
    // An erase of the page makes them writable again; the other page is kept.
    flash.write(SLOT as u32, &[9, 9]).unwrap();
    flash.erase(0, SLOT as u32).unwrap();
    flash.write(0, &[0x0F, 0x0F]).unwrap();
    let mut b = [0; 2];
    flash.read(SLOT as u32, &mut b).unwrap();
    assert_eq!(b, [9, 9]);
    // Misaligned or out-of-bounds erases and writes are refused, nothing changes.
    let before = flash.bytes;
    for result in [
        flash.erase(1, SLOT as u32),
        flash.erase(0, 100),
        flash.erase(SLOT as u32, 0),
        flash.erase(0, 3 * SLOT as u32),
        flash.write(5, &[0, 0]),
        flash.write(4, &[0]),
        flash.write(2 * SLOT as u32 - 2, &[0, 0, 0, 0]),
    ] {
        assert!(matches!(result, Err(MemFlashError::Check(_))), "{result:?}");
    }
    assert_eq!(flash.bytes, before);
    // A store over flash that keeps writing over programmed words would fail: the
    // store's saves never do (they erase first), see the other tests.
}

#[test]
fn slot_regions_follow_the_flash_geometry_and_bad_bases_are_refused() {
    let m = machine(7);
    let mut snap = m.controller.snapshot();
    snap.record = record(&[4, 0]);
    // A base that is not a multiple of the erase unit, whatever the room.
    for base in [1, 2, 100, 256, SLOT as u32 + 2] {
        assert!(
            matches!(
                Store::new(Flash4::new(), base),
                Err(PersistError::Misaligned)
            ),
            "base {base}"
        );
    }
    // Aligned, but the second slot would not fit.
    assert!(matches!(
        Store::new(Flash4::new(), 3 * SLOT as u32),
        Err(PersistError::TooSmall)
    ));
    assert!(matches!(
        Store::new(Flash4::new(), u32::MAX - 511),
        Err(PersistError::TooSmall)
    ));
    // Write units the frame cannot be padded to.
    assert!(matches!(
        Store::new(MemFlash::<4096, 1024, 128>::new(), 0),
        Err(PersistError::Unsupported)
    ));
    assert!(matches!(
        Store::new(MemFlash::<4096, 1024, 3>::new(), 0),
        Err(PersistError::Unsupported)
    ));
    // Small pages (a slot over three 128-byte pages) and 8-byte writes; 1 KiB pages.
    type Small = MemFlash<1024, 128, 8>;
    assert_eq!(Store::<Small>::SLOT_STRIDE, 384);
    let mut store = Store::new(Small::new(), 128).unwrap();
    store.save(&snap).unwrap();
    snap.record = record(&[4, 0, 8]);
    store.save(&snap).unwrap();
    let flash = store.destroy();
    assert!(flash.bytes[..128].iter().all(|&b| b == 0xFF));
    assert!(flash.bytes[128 + 2 * 384..].iter().all(|&b| b == 0xFF));
    let got = Store::new(flash, 128).unwrap().load().unwrap().unwrap();
    assert_eq!((got.sequence, got.record), (2, snap.record));
    type Big = MemFlash<4096, 1024, 2>;
    assert_eq!(Store::<Big>::SLOT_STRIDE, 1024);
    let mut store = Store::new(Big::new(), 2048).unwrap();
    store.save(&snap).unwrap();
    let got = Store::new(store.destroy(), 2048).unwrap().load().unwrap();
    assert_eq!(got.map(|s| s.record), Some(snap.record));
}

/// A game record of `moves` (squares 0..=8).
fn record(moves: &[u8]) -> GameRecord {
    let mut r = GameRecord::new();
    for &m in moves {
        r.push(Square::new(m).unwrap()).unwrap();
    }
    r
}

/// Offsets in the encoded layout (see `Snapshot::encode`).
const POSE: usize = 1 + 4 + 216 + 8;
const SETUP: usize = POSE + 20;
const MOVES: usize = SETUP + 3;
const TASK: usize = MOVES + 9;
const STOCK: usize = TASK + 20 + 1;
const PENDING: usize = STOCK + 4;

#[test]
fn corrupt_snapshots_are_refused() {
    let m = machine(2);
    let mut good = m.controller.snapshot();
    good.record = record(&[4, 0]);
    let bytes = good.encode();
    assert_eq!(Snapshot::decode(&bytes), Some(good));
    let refused = |what: &str, edit: &dyn Fn(&mut [u8; ENCODED_LEN])| {
        let mut bad = bytes;
        edit(&mut bad);
        assert_eq!(Snapshot::decode(&bad), None, "{what}");
    };
    refused("another format version", &|b| b[0] = 2);
    refused("a flag that is neither 0 nor 1", &|b| b[SETUP] = 7);
    refused("a board turned past 45 degrees (cos 0)", &|b| {
        b[POSE + 8..POSE + 12].copy_from_slice(&0i32.to_le_bytes())
    });
    refused("a square pitch of 0", &|b| {
        b[POSE + 16..POSE + 20].copy_from_slice(&0i32.to_le_bytes())
    });
    refused("a first square past 8", &|b| b[SETUP + 1] = 9);
    refused("more than 9 moves", &|b| b[SETUP + 2] = 10);
    refused("X twice on one square", &|b| b[MOVES + 1] = 4);
    refused("a move past square 8", &|b| b[MOVES] = 9);
    refused("a storage slot that does not exist", &|b| b[STOCK] = 0x20);
    refused("a pending placement from slot 5", &|b| {
        b[PENDING..PENDING + 3].copy_from_slice(&[0, 5, 4])
    });
    refused("a pending piece of colour 2", &|b| {
        b[PENDING..PENDING + 3].copy_from_slice(&[2, 0, 4])
    });
    // A task: two black pieces; a square given twice or more done than given fails.
    let task = Task::new(&[
        (Colour::Black, Square::CENTRE),
        (Colour::Black, Square::ALL[0]),
    ])
    .unwrap();
    let with_task = Snapshot {
        mode: Mode::Task { task, done: 1 },
        ..good
    };
    let bytes = with_task.encode();
    assert_eq!(Snapshot::decode(&bytes), Some(with_task));
    let mut bad = bytes;
    bad[TASK + 4 + 1] = 4; // the second placement on the centre again
    assert_eq!(Snapshot::decode(&bad), None, "a square given twice");
    let mut bad = bytes;
    bad[TASK + 1] = 3; // three done of two
    assert_eq!(
        Snapshot::decode(&bad),
        None,
        "more placements done than given"
    );
    // The controller refuses what a snapshot built in code can still hold.
    let mut fresh = machine(2);
    let overdone = Snapshot {
        mode: Mode::Task { task, done: 3 },
        ..good
    };
    assert_eq!(
        fresh.controller.resume(&overdone),
        Err(ResumeError::Corrupt)
    );
    let bad_slot = Snapshot {
        pending: Some((Colour::Black, 5, Square::CENTRE)),
        ..good
    };
    assert_eq!(
        fresh.controller.resume(&bad_slot),
        Err(ResumeError::Corrupt)
    );
    assert_eq!(fresh.controller.resume(&good), Ok(()));
    assert_eq!(fresh.controller.record(), &good.record);
}

/// Plays a game with a power cut `cut_after` ms after the `k`-th state change;
/// checks the game still ends correctly. Returns whether the cut happened.
fn game_with_power_cut(seed: u64, device_first: bool, k: u32, cut_after: u32) -> bool {
    let chooser = |s: u64| RandomBestMove(SplitMix64::new(s));
    let config = SimConfig::standard(0.0, 0.0, seed).unwrap();
    let mut m = SimMachine::new(config, chooser(seed)).unwrap();
    let mut h = SimHuman::new(Style::Erring(0.3), 0.2, seed ^ 77);
    let first_square = device_first.then_some((seed % 9) as u8);
    let game = Scenario {
        cheat_rate: 0.2,
        power_cut: Some(PowerCut::AfterChange {
            change: k,
            after_ms: cut_after,
        }),
        ..Scenario::game(device_first, first_square, Style::Erring(0.3))
    };
    let r = m.play_scenario(&game, &mut h, &mut || chooser(seed + 1), None);
    let what = format!("seed {seed} k {k} +{cut_after}");
    let w = m.world.borrow();
    assert!(
        r.finished,
        "{what}: stuck in {:?}, record {}, pieces {:?}",
        m.controller.state(),
        m.controller.record().board(),
        w.pieces
    );
    assert_ne!(r.device_won, Some(false), "{what}: the device lost");
    // A piece inside its square (22 mm piece, 32 mm square: within 5 mm); a piece
    // the power cut dropped where no sensor sees it is not part of the game.
    assert_eq!(r.pieces_lost, 0, "{what}: pieces {:?}", w.pieces);
    assert!(w.head.held.is_none());
    r.power_cuts > 0
}

#[test]
fn a_power_cut_at_every_step_of_a_game_resumes_it() {
    for (seed, device_first) in [(3, true), (4, false), (5, true), (6, false)] {
        // Cut right after the k-th state change, for every k until the game ends
        // first; and 0.7 s and 1.9 s later (in the middle of moves).
        let mut k = 1;
        while game_with_power_cut(seed, device_first, k, 1) {
            game_with_power_cut(seed, device_first, k, 700);
            game_with_power_cut(seed, device_first, k, 1900);
            k += 1;
        }
        assert!(k > 10, "seed {seed}: only {k} steps");
    }
}

#[test]
fn a_placement_task_resumes_after_power_cuts() {
    use tictable::device::controller::Task;
    use tictable::device::Colour::{Black, White};
    let s = |i| Square::new(i).unwrap();
    let items = [(Black, s(0)), (White, s(4)), (Black, s(8)), (White, s(2))];
    let mut cuts = 0;
    for cut_at in (500..14_000).step_by(650) {
        let mut m = machine(7);
        let mut h = SimHuman::new(Style::Perfect, 0.0, 3);
        assert!(m.run_until(&mut h, 60_000, |m| m.controller.state() == State::Setup));
        m.controller.start_task(Task::new(&items).unwrap()).unwrap();
        let cut = m.now + cut_at;
        m.run_until(&mut h, cut_at, |m| m.controller.state() == State::TaskDone);
        if m.now == cut {
            m.power_cycle(BestMove).unwrap();
            cuts += 1;
        }
        let done = m.run_until(&mut h, 120_000, |m| m.controller.state() == State::TaskDone);
        assert!(done, "cut at {cut_at}: stuck in {:?}", m.controller.state());
        let w = m.world.borrow();
        for (colour, square) in items {
            let i = w
                .piece_on(square)
                .unwrap_or_else(|| panic!("cut at {cut_at}: {square} empty"));
            assert_eq!(w.pieces[i].colour, colour, "cut at {cut_at}");
        }
    }
    assert!(cuts >= 15, "only {cuts} cuts fell inside the task");
}

#[test]
fn every_single_bit_flip_of_the_newest_slot_falls_back_to_the_older_one() {
    let m = machine(4);
    let mut snap = m.controller.snapshot();
    let mut store = Store::new(Flash::new(), 0).unwrap();
    snap.record = record(&[4]);
    store.save(&snap).unwrap(); // slot 0, sequence 1
    snap.record = record(&[4, 0]);
    store.save(&snap).unwrap(); // slot 1, sequence 2
    let image = store.destroy();
    // The frame: the encoded snapshot, then its CRC-32 (4 bytes).
    for byte in 0..ENCODED_LEN + 4 {
        for bit in 0..8 {
            let mut storage = image.clone();
            storage.bytes[SLOT + byte] ^= 1 << bit;
            let mut store = Store::new(storage, 0).unwrap();
            let got = store.load().unwrap().unwrap();
            assert_eq!(
                (got.sequence, got.record),
                (1, record(&[4])),
                "bit {bit} of byte {byte}"
            );
        }
    }
    // Unflipped, the newest wins.
    let mut store = Store::new(image, 0).unwrap();
    assert_eq!(store.load().unwrap().unwrap().record, record(&[4, 0]));
}
