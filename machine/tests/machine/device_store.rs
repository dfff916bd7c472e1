//! The snapshot store: a log over the pages of a NOR flash. Power cuts at every
//! byte of every erase and write over several rounds of the pages, wear spread
//! evenly, bounded work at boot, bit flips, geometry, and flash written by the
//! earlier two-slot store.

use embedded_storage::nor_flash::{NorFlash, ReadNorFlash};
use tictable::Square;
use tictable_machine::classify::Calibration;
use tictable_machine::controller::{GameRecord, GameSetup, Mode, RECORD_CAPACITY};
use tictable_machine::model::ResetCause;
use tictable_machine::motion::{Point, Pose};
use tictable_machine::persist::{crc32, PersistError, Snapshot, Store, ENCODED_LEN};
use tictable_machine::sim::flash::{wear_games, MemFlash, MemFlashError};

/// The firmware's geometry: 1 KiB pages, half-word writes; 3 pages here.
type Kib3 = MemFlash<3072, 1024, 2>;
/// Twelve 1 KiB pages (the firmware has 24: the same geometry, twice the pages).
type Kib12 = MemFlash<12288, 1024, 2>;
/// Small pages (5 saves each; 4 in the `games` layout): many rounds of the pages in
/// few saves.
type Small = MemFlash<1536, 512, 2>;

/// A whole snapshot's record: the snapshot and its CRC (294 B; 351 B in the
/// `games` layout).
pub(crate) const WHOLE: usize = ENCODED_LEN + 4;
/// A whole snapshot as written: padded to the 2-byte write unit (294 B; 352 B
/// with `games`), where the page's first delta starts.
pub(crate) const WHOLE_IO: usize = WHOLE.next_multiple_of(2);
/// A delta's record: the game fields from the side (offset 250; 305 in the `games`
/// layout, past the base plies) on and the CRC (44 B; 46 B with `games`: the
/// game byte and the window's first ply too).
pub(crate) const DELTA: usize = WHOLE - 250 - (RECORD_CAPACITY - 9);
/// A delta as written: padded to the 2-byte write unit (44 B; 46 B with `games`).
pub(crate) const DELTA_IO: usize = DELTA.next_multiple_of(2);
/// Saves per 1 KiB page: a whole snapshot and as many deltas as fit (17; 15 in the
/// `games` layout).
pub(crate) const PER_KIB_PAGE: usize = 1 + (1024 - WHOLE_IO) / DELTA_IO;
const _: () = assert!(Store::<Kib3>::SAVES_PER_PAGE == PER_KIB_PAGE);
const _: () = assert!(Store::<Small>::SAVES_PER_PAGE == 1 + (512 - WHOLE_IO) / DELTA_IO);
#[cfg(not(feature = "games"))]
const _: () = assert!(WHOLE == 294 && DELTA == 44 && PER_KIB_PAGE == 17);
#[cfg(feature = "games")]
const _: () = assert!(WHOLE_IO == 352 && DELTA == 46 && PER_KIB_PAGE == 15);

/// A drawn game: every prefix is a legal game.
const GAME: [u8; 9] = [4, 0, 2, 6, 3, 5, 7, 1, 8];

/// The `k`-th snapshot of a run: games of 0 to 9 moves, one save per move, the
/// board pose recalibrated (a change of the part before the game fields) at each
/// `k` in `recalibrated`.
pub(crate) fn snapshot(k: usize, recalibrated: &[usize]) -> Snapshot {
    let shift = recalibrated.iter().filter(|&&r| r <= k).count() as i32;
    let mut record = GameRecord::new();
    for &m in &GAME[..k % 10] {
        record.push(Square::new(m).unwrap()).unwrap();
    }
    Snapshot {
        sequence: 0,
        calibration: Calibration::default(),
        pose: Pose::new(Point::mm(160 + shift, 130), -200, 32_000).unwrap(),
        reset_cause: ResetCause::PowerOn,
        setup: GameSetup {
            device_first: k % 20 < 10,
            first_square: None,
        },
        record,
        mode: Mode::Game,
        active: !k.is_multiple_of(10),
        stock: [0b11111, 0b11111],
        suspect: [0, 0],
        pending: None,
    }
}

/// What a fresh store (after a reset) loads from `flash`.
pub(crate) fn boot<F: NorFlash + Clone>(flash: &F) -> Option<Snapshot> {
    Store::new(flash.clone(), 0).unwrap().load().unwrap()
}

/// Whether `got` is `want` (apart from the sequence, which the store sets).
pub(crate) fn same(got: Option<Snapshot>, want: Option<&Snapshot>) -> bool {
    match (got, want) {
        (Some(g), Some(w)) => Snapshot { sequence: 0, ..g } == *w,
        (None, None) => true,
        _ => false,
    }
}

/// Saves `run[..]` one by one on `Flash` and cuts the power at every byte of
/// every erase and every write of each save: after the cut the newest completed
/// snapshot loads (the new one only when its record is whole), the store goes on
/// saving (the retry and the next snapshot load back), with the same store
/// object and after a reset. Returns the cuts made.
pub(crate) fn cut_everywhere<const N: usize, const E: usize>(run: &[Snapshot]) -> usize {
    let mut store = Store::new(MemFlash::<N, E, 2>::new(), 0).unwrap();
    let mut cuts = 0;
    for (k, snap) in run.iter().enumerate() {
        let before = store.flash().clone();
        let previous = k.checked_sub(1).map(|p| &run[p]);
        // The save without a cut: which operations it does, and the flash after.
        let mut whole = store.clone();
        whole.save(snap).unwrap();
        let after = whole.destroy();
        let erased = after.erases > before.erases;
        assert_eq!(after.writes, before.writes + 1, "save {k}: one record");
        let erase_cuts = if erased { E } else { 0 };
        let write_len = if erased { WHOLE_IO } else { DELTA_IO };
        for cut in 0..erase_cuts + write_len {
            // The running store (it knows where the next save goes), or a fresh
            // one after a reset (its save scans the flash first), in turn.
            let mut s = if cut % 2 == 0 {
                store.clone()
            } else {
                Store::new(before.clone(), 0).unwrap()
            };
            if cut < erase_cuts {
                s.flash_mut().tear_erase = Some(cut);
            } else {
                s.flash_mut().tear_write = Some(cut - erase_cuts);
            }
            let result = s.save(snap);
            let torn = s.flash().clone();
            // Whole once its meaningful bytes are (the padding after a whole
            // snapshot's CRC does not count), or when the bytes the cut left
            // erased were to be 0xFF anyway.
            let meaningful = if erased { WHOLE } else { DELTA };
            let complete = cut >= erase_cuts + meaningful || torn.bytes == after.bytes;
            let what = format!("save {k}, cut {cut} (erase unit {E})");
            if complete {
                assert!(result.is_ok() || cut >= erase_cuts, "{what}");
                assert!(same(boot(&torn), Some(snap)), "{what}: the new one");
            } else {
                assert_eq!(
                    result,
                    Err(PersistError::Storage(MemFlashError::PowerCut)),
                    "{what}"
                );
                assert!(same(boot(&torn), previous), "{what}: the previous one");
            }
            // The machine goes on: the retry and the next save work and load back.
            assert_eq!(s.save(snap), Ok(()), "{what}: retry");
            assert!(same(boot(s.flash()), Some(snap)), "{what}: retried");
            if let Some(next) = run.get(k + 1) {
                assert_eq!(s.save(next), Ok(()), "{what}: next");
                assert!(same(boot(s.flash()), Some(next)), "{what}: next");
            }
            cuts += 1;
        }
        store.save(snap).unwrap();
        assert!(same(boot(store.flash()), Some(snap)), "save {k}");
    }
    cuts
}

#[test]
fn a_power_cut_at_every_byte_of_every_erase_and_write_keeps_the_newest_snapshot() {
    // Small pages: 5 saves each (4 with `games`), 3 pages: 4 rounds of the pages (5 with `games`), recalibrated
    // mid-page twice (a whole snapshot before the page is full).
    let run: Vec<Snapshot> = (0..60).map(|k| snapshot(k, &[7, 23])).collect();
    let cuts = cut_everywhere::<1536, 512>(&run);
    assert!(cuts > 10_000, "{cuts} cuts");
}

#[test]
fn a_power_cut_in_every_save_of_a_firmware_sized_page_round_keeps_the_newest() {
    // The firmware's 1 KiB pages: 17 saves each (15 in the `games` layout), 3 pages
    // and then some.
    let run: Vec<Snapshot> = (0..3 * PER_KIB_PAGE + 5)
        .map(|k| snapshot(k, &[]))
        .collect();
    let cuts = cut_everywhere::<3072, 1024>(&run);
    assert!(cuts > 6_000, "{cuts} cuts");
}

#[test]
fn pages_wear_evenly_one_erase_per_page_of_saves() {
    // 12 pages of 1 KiB (the firmware's geometry): 5 rounds of the pages, one save per move.
    let mut store = Store::new(Kib12::new(), 0).unwrap();
    assert_eq!(store.pages(), 12);
    let saves = 5 * 12 * PER_KIB_PAGE;
    for k in 0..saves {
        store.save(&snapshot(k, &[])).unwrap();
        let flash = store.flash();
        assert_eq!(flash.writes as usize, k + 1);
        // A page erased at the first save into it: every 17th save.
        assert_eq!(flash.erases as usize, k / PER_KIB_PAGE + 1, "save {k}");
    }
    let flash = store.destroy();
    assert_eq!(flash.erases_per_page(), [5; 12]);
    assert_eq!(flash.max_page_erases(), 5);
    // At 12.6 saves per game (the simulator's 2000-game goal run), 1020 saves are
    // 81 games, and the most worn page would reach 10,000 erases after
    // 81 * 10,000 / 5 games.
    assert_eq!(wear_games(81, 5), Some(162_000));
    // A recalibration mid-page starts the next page at once.
    let mut store = Store::new(flash, 0).unwrap();
    for k in saves..saves + 3 {
        store.save(&snapshot(k, &[])).unwrap();
    }
    assert_eq!(
        store.flash().erases_per_page(),
        [6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
    );
    store.save(&snapshot(saves + 3, &[saves + 3])).unwrap();
    assert_eq!(
        store.flash().erases_per_page(),
        [6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
    );
}

#[test]
fn a_load_reads_each_page_start_and_one_page_of_deltas() {
    // Nothing saved: the 12 page starts only.
    let mut store = Store::new(Kib12::new(), 0).unwrap();
    assert_eq!(store.load().unwrap(), None);
    assert_eq!(store.flash().reads, 12);
    let n = 3 * PER_KIB_PAGE + 4;
    for k in 0..n {
        store.save(&snapshot(k, &[])).unwrap();
    }
    // Boot: the 12 page starts and the newest page's 16 delta slots (14 in the
    // `games` layout).
    let mut flash = store.destroy();
    flash.reads = 0;
    let mut store = Store::new(flash, 0).unwrap();
    assert!(same(store.load().unwrap(), Some(&snapshot(n - 1, &[]))));
    let deltas = (PER_KIB_PAGE - 1) as u32;
    assert_eq!(store.flash().reads, 12 + deltas);
    // A save after a load reads nothing more: the store keeps the newest frame.
    store.save(&snapshot(n, &[])).unwrap();
    assert_eq!(store.flash().reads, 12 + deltas);
}

#[test]
fn an_unchanged_snapshot_is_not_written_again() {
    let mut store = Store::new(Kib3::new(), 0).unwrap();
    store.save(&snapshot(1, &[])).unwrap();
    store.save(&snapshot(1, &[])).unwrap();
    assert_eq!((store.flash().writes, store.flash().erases), (1, 1));
    // After a reset (a fresh store over the same flash) too.
    let mut store = Store::new(store.destroy(), 0).unwrap();
    store.save(&snapshot(1, &[])).unwrap();
    assert_eq!(store.flash().writes, 1);
    store.save(&snapshot(2, &[])).unwrap();
    assert_eq!(
        (store.flash().writes, store.flash().erases),
        (2, 1),
        "a delta"
    );
    // A corrupted newest record is not mistaken for the snapshot: written again.
    let mut flash = store.destroy();
    flash.bytes[WHOLE_IO + 7] ^= 0x10;
    let mut store = Store::new(flash, 0).unwrap();
    assert!(same(store.load().unwrap(), Some(&snapshot(1, &[]))));
    store.save(&snapshot(2, &[])).unwrap();
    assert_eq!(store.flash().writes, 3);
    assert!(same(boot(store.flash()), Some(&snapshot(2, &[]))));
}

/// A flash holding snapshots 0..n (the last one the newest).
fn saved(n: usize, recalibrated: &[usize]) -> Kib3 {
    let mut store = Store::new(Kib3::new(), 0).unwrap();
    for k in 0..n {
        store.save(&snapshot(k, recalibrated)).unwrap();
    }
    store.destroy()
}

#[test]
fn every_single_bit_flip_of_the_newest_record_falls_back_to_the_one_before() {
    // The newest record a delta (page 1, slot 2), then a whole snapshot (page 2).
    for (n, at, len) in [
        (PER_KIB_PAGE + 4, 1024 + WHOLE_IO + 2 * DELTA_IO, DELTA),
        (2 * PER_KIB_PAGE + 1, 2048, ENCODED_LEN + 4),
    ] {
        let image = saved(n, &[]);
        assert!(same(boot(&image), Some(&snapshot(n - 1, &[]))));
        for byte in at..at + len {
            for bit in 0..8 {
                let mut flash = image.clone();
                flash.bytes[byte] ^= 1 << bit;
                assert!(
                    same(boot(&flash), Some(&snapshot(n - 2, &[]))),
                    "bit {bit} of byte {byte}"
                );
            }
        }
    }
    // Every record bad: nothing, never a wrong snapshot.
    let mut flash = saved(3, &[]);
    for at in [10, WHOLE_IO + 10, WHOLE_IO + DELTA_IO + 10] {
        flash.bytes[at] ^= 1;
    }
    assert_eq!(boot(&flash), None);
}

#[test]
fn the_newest_page_wins_by_sequence_whatever_its_place() {
    // Four rounds over three pages: the newest page is 0, 1 or 2, after any wrap.
    for n in 1..4 * 3 * PER_KIB_PAGE {
        let flash = saved(n, &[5, 40]);
        let got = boot(&flash).unwrap();
        assert!(
            same(Some(got), Some(&snapshot(n - 1, &[5, 40]))),
            "{n} saves"
        );
        assert_eq!(got.sequence as usize, n);
    }
}

#[test]
fn flash_written_by_the_two_slot_store_loads_and_is_appended_to() {
    // The earlier store: a whole snapshot at the start of each of two pages (the
    // older in page 1 here), zero padding, the rest erased.
    let mut flash = Kib3::new();
    for (page, k, sequence) in [(0, 2, 8u32), (1, 1, 7)] {
        let mut bytes = [0; WHOLE_IO];
        let snap = Snapshot {
            sequence,
            ..snapshot(k, &[])
        };
        bytes[..ENCODED_LEN].copy_from_slice(&snap.encode());
        let crc = crc32(&bytes[..ENCODED_LEN]);
        bytes[ENCODED_LEN..ENCODED_LEN + 4].copy_from_slice(&crc.to_le_bytes());
        flash.write(page * 1024, &bytes).unwrap();
    }
    let mut store = Store::new(flash, 0).unwrap();
    let got = store.load().unwrap().unwrap();
    assert_eq!(got.sequence, 8);
    assert!(same(Some(got), Some(&snapshot(2, &[]))));
    store.save(&snapshot(3, &[])).unwrap();
    assert_eq!(
        store.flash().erases,
        0,
        "a delta after the newest, no erase"
    );
    let got = boot(store.flash()).unwrap();
    assert_eq!(got.sequence, 9);
    assert!(same(Some(got), Some(&snapshot(3, &[]))));
}

#[test]
fn pages_follow_the_flash_geometry_and_bad_bases_are_refused() {
    type Kib4 = MemFlash<4096, 1024, 2>;
    for base in [1, 2, 100, 512, 1026] {
        assert!(
            matches!(Store::new(Kib4::new(), base), Err(PersistError::Misaligned)),
            "base {base}"
        );
    }
    // Aligned, but fewer than two pages from the base.
    for base in [3072, 4096, u32::MAX - 1023] {
        assert!(
            matches!(Store::new(Kib4::new(), base), Err(PersistError::TooSmall)),
            "base {base}"
        );
    }
    assert!(matches!(
        Store::new(MemFlash::<1024, 1024, 2>::new(), 0),
        Err(PersistError::TooSmall)
    ));
    // Write units the records cannot be padded to.
    assert!(matches!(
        Store::new(MemFlash::<4096, 1024, 128>::new(), 0),
        Err(PersistError::Unsupported)
    ));
    assert!(matches!(
        Store::new(MemFlash::<4096, 1024, 3>::new(), 0),
        Err(PersistError::Unsupported)
    ));
    // From a base one page in: pages 1, 2, 3; page 0 is never touched.
    let mut store = Store::new(Kib4::new(), 1024).unwrap();
    assert_eq!(store.pages(), 3);
    for k in 0..3 * PER_KIB_PAGE + 2 {
        store.save(&snapshot(k, &[])).unwrap();
    }
    let flash = store.destroy();
    assert_eq!(flash.erases_per_page(), [0, 2, 1, 1]);
    assert!(flash.bytes[..1024].iter().all(|&b| b == 0xFF));
    let got = Store::new(flash, 1024).unwrap().load().unwrap();
    assert!(same(got, Some(&snapshot(3 * PER_KIB_PAGE + 1, &[]))));
    // 128-byte erase units and 8-byte writes: pages of three units (384 B), the
    // frame padded to 296 B, deltas (44 B) to 48 B; the 256 B past the last whole page
    // stay erased (the default layout's figures).
    #[cfg(not(feature = "games"))]
    small_units_and_wide_writes();
    // Past the records, a page stays erased.
    let flash = saved(3, &[]);
    assert!(flash.bytes[WHOLE_IO + 2 * DELTA_IO..]
        .iter()
        .all(|&b| b == 0xFF));
}

#[test]
fn the_flash_model_refuses_writes_to_words_that_are_not_erased() {
    type Flash = MemFlash<1024, 512, 2>;
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
    flash.write(512, &[9, 9]).unwrap();
    flash.erase(0, 512).unwrap();
    flash.write(0, &[0x0F, 0x0F]).unwrap();
    let mut b = [0; 2];
    flash.read(512, &mut b).unwrap();
    assert_eq!(b, [9, 9]);
    assert_eq!(flash.erases_per_page(), [1, 0]);
    // Misaligned or out-of-bounds erases and writes are refused, nothing changes.
    let before = flash.bytes;
    for result in [
        flash.erase(1, 512),
        flash.erase(0, 100),
        flash.erase(512, 0),
        flash.erase(0, 3 * 512),
        flash.write(5, &[0, 0]),
        flash.write(4, &[0]),
        flash.write(2 * 512 - 2, &[0, 0, 0, 0]),
    ] {
        assert!(matches!(result, Err(MemFlashError::Check(_))), "{result:?}");
    }
    assert_eq!(flash.bytes, before);
    assert_eq!(
        flash.erases_per_page(),
        [1, 0],
        "refused erases wear nothing"
    );
    // A torn erase wore the page too.
    flash.tear_erase = Some(10);
    assert_eq!(flash.erase(512, 1024), Err(MemFlashError::PowerCut));
    assert_eq!(flash.erases_per_page(), [1, 1]);
    assert_eq!(flash.erases, 1);
}

#[test]
fn a_save_works_on_any_flash_image_and_loads_back() {
    // Garbage (a flash never used by the store, worn cells), and a used log with
    // bytes sprayed over it: a save writes only erased words (the flash model
    // refuses anything else) and the next load returns it.
    use tictable_machine::sim::SplitMix64;
    let mut rng = SplitMix64::new(17);
    let used = saved(2 * PER_KIB_PAGE + 7, &[9]);
    for round in 0..300 {
        let flash = if round % 2 == 0 {
            let mut f = Kib3::new();
            f.bytes.iter_mut().for_each(|b| *b = rng.next() as u8);
            f
        } else {
            let mut f = used.clone();
            for _ in 0..rng.below(40) {
                let at = rng.below(f.bytes.len());
                f.bytes[at] = rng.next() as u8;
            }
            f
        };
        let mut store = Store::new(flash, 0).unwrap();
        let before = store.load().unwrap();
        let want = snapshot(round % 10 + 30, &[]);
        assert_eq!(store.save(&want), Ok(()), "round {round}");
        if before.is_none_or(|b| b.sequence != u32::MAX) {
            assert!(same(boot(store.flash()), Some(&want)), "round {round}");
        }
    }
}

/// A flash whose reads fail from the `fail_from`-th on (counting from 1), until
/// `fail_from` is cleared: a read error in the middle of a store's scan.
#[derive(Clone)]
struct FailingReads {
    flash: Kib3,
    reads: u32,
    fail_from: Option<u32>,
}

impl embedded_storage::nor_flash::ErrorType for FailingReads {
    type Error = MemFlashError;
}

impl ReadNorFlash for FailingReads {
    const READ_SIZE: usize = Kib3::READ_SIZE;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), MemFlashError> {
        self.reads += 1;
        if self.fail_from.is_some_and(|k| self.reads >= k) {
            return Err(MemFlashError::PowerCut);
        }
        self.flash.read(offset, bytes)
    }

    fn capacity(&self) -> usize {
        self.flash.capacity()
    }
}

impl NorFlash for FailingReads {
    const WRITE_SIZE: usize = Kib3::WRITE_SIZE;
    const ERASE_SIZE: usize = Kib3::ERASE_SIZE;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), MemFlashError> {
        self.flash.erase(from, to)
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), MemFlashError> {
        self.flash.write(offset, bytes)
    }
}

#[test]
fn a_read_error_in_any_read_of_a_scan_leaves_the_store_to_scan_again() {
    // Page 0: snapshot 1 whole, 2 and 3 as deltas; page 1: snapshot 4 whole (the
    // pose changed), page 2 erased. A scan reads the 3 page starts and page 1's
    // 16 delta slots (14 in the `games` layout).
    let run: Vec<Snapshot> = (1..5).map(|k| snapshot(k, &[4])).collect();
    let mut store = Store::new(Kib3::new(), 0).unwrap();
    for s in &run {
        store.save(s).unwrap();
    }
    let flash = store.destroy();
    for fail_from in 1..=3 + PER_KIB_PAGE as u32 - 1 {
        let failing = FailingReads {
            flash: flash.clone(),
            reads: 0,
            fail_from: Some(fail_from),
        };
        let mut store = Store::new(failing, 0).unwrap();
        assert!(store.load().is_err(), "read {fail_from}");
        // The flash reads again: the next save scans it first and appends to the
        // newest page, whatever the failed scan had seen.
        store.flash_mut().fail_from = None;
        let next = snapshot(5, &[4]);
        store.save(&next).unwrap();
        let got = Store::new(store.destroy().flash, 0)
            .unwrap()
            .load()
            .unwrap();
        assert!(same(got, Some(&next)), "read {fail_from}");
        assert_eq!(got.map(|s| s.sequence), Some(5), "read {fail_from}");
    }
}

/// The reset cause is kept with the game: a save after a reset of another cause
/// writes a whole snapshot (the cause sits before the game fields, with the
/// calibration and the pose), the next saves are deltas again, and a fresh store
/// loads the cause back.
#[test]
fn the_reset_cause_round_trips_through_the_flash() {
    let mut store = Store::new(MemFlash::<{ 4 * 1024 }, 1024, 2>::new(), 0).unwrap();
    let mut snap = snapshot(3, &[]);
    store.save(&snap).unwrap();
    let erases = store.flash().erases;
    for (k, cause) in ResetCause::ALL.into_iter().enumerate() {
        snap.reset_cause = cause;
        snap.record = snapshot(k % 9 + 1, &[]).record;
        store.save(&snap).unwrap();
        let loaded = boot(store.flash()).unwrap();
        assert_eq!(loaded.reset_cause, cause);
        assert!(same(Some(loaded), Some(&snap)), "{cause:?}");
        // The same cause again with the next move: a delta, no erase.
        let erased = store.flash().erases;
        snap.record = snapshot(k % 9 + 2, &[]).record;
        store.save(&snap).unwrap();
        assert_eq!(store.flash().erases, erased, "{cause:?}: a delta");
        assert_eq!(boot(store.flash()).unwrap().reset_cause, cause);
    }
    // Each cause differs from the one before it (the first snapshot's is PowerOn,
    // the loop starts with Pin): one whole snapshot, one page erase, per cause.
    assert_eq!(store.flash().erases, erases + ResetCause::ALL.len() as u32);
}

/// 128-byte erase units and 8-byte writes (the default layout's figures).
#[cfg(not(feature = "games"))]
fn small_units_and_wide_writes() {
    type Small8 = MemFlash<4096, 128, 8>;
    assert_eq!(Store::<Small8>::PAGE_STRIDE, 384);
    assert_eq!(Store::<Small8>::SAVES_PER_PAGE, 2);
    let mut store = Store::new(Small8::new(), 0).unwrap();
    assert_eq!(store.pages(), 10);
    for k in 0..25 {
        store.save(&snapshot(k, &[])).unwrap();
    }
    let flash = store.destroy();
    assert!(flash.bytes[3840..].iter().all(|&b| b == 0xFF));
    assert_eq!(flash.erases, 13);
    assert!(same(boot(&flash), Some(&snapshot(24, &[]))));
}
