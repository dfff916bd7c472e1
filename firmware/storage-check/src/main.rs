//! Checks firmware/src/storage.rs (the snapshot NOR flash over the last
//! `storage::PAGES` flash pages) on the host, against a model of the flash's
//! program and erase controller (`fpec.rs`, in place of the firmware's registers):
//! 20,000 random erases, writes and reads (aligned or not, in range or past the
//! end) compared with a plain NOR model of the pages (erase sets a page to 0xFF, a
//! write programs erased half-words only); the physical layout (offset k at flash
//! offset 40 KiB + k, all other flash untouched); which pages an erase touches
//! (exactly the addressed ones); and the persist::Store on top of it (two rounds
//! over the 24 pages: each page erased once per 17 saves, round robin from page 40,
//! the newest snapshot loaded back after every save). Run: scripts/storage-check.
mod fpec;
#[path = "../../src/storage.rs"]
mod storage;

use embedded_storage::nor_flash::{NorFlash, NorFlashErrorKind, ReadNorFlash};
use fpec::{Flash, ERASES, MEM};
use storage::{FlashError, FlashStorage};
use tictable::Square;
use tictable_machine::classify::Calibration;
use tictable_machine::controller::{GameRecord, GameSetup, Mode};
use tictable_machine::model::ResetCause;
use tictable_machine::motion::{Point, Pose};
use tictable_machine::persist::{Snapshot, Store};

const PAGE: usize = 1024;
const PAGES: usize = storage::PAGES as usize;
const FIRST_PAGE: usize = (64 - PAGES) * PAGE;
const SIZE: usize = PAGES * PAGE;

/// What the storage must do with a request: the NOR rules of `embedded-storage`.
fn expected(offset: usize, len: usize, unit: usize) -> Result<(), NorFlashErrorKind> {
    if len > SIZE || offset > SIZE - len {
        Err(NorFlashErrorKind::OutOfBounds)
    } else if !offset.is_multiple_of(unit) || !len.is_multiple_of(unit) {
        Err(NorFlashErrorKind::NotAligned)
    } else {
        Ok(())
    }
}

/// A random read or write request `(offset, len)`: mostly half-word aligned with up
/// to `half_words` half-words, one time in four anything (misaligned, past the end).
fn request(below: &mut impl FnMut(usize) -> usize, half_words: usize) -> (usize, usize) {
    let offset = if below(4) == 0 {
        below(SIZE + 150)
    } else {
        2 * below(SIZE / 2)
    };
    let len = if below(4) == 0 {
        below(40)
    } else {
        2 * below(half_words)
    };
    (offset, len)
}

fn main() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut model = vec![0xFFu8; SIZE];
    let (mut reads, mut writes, mut erases, mut refused) = (0, 0, 0, 0);
    for round in 0..20_000 {
        let mut s = FlashStorage::new(Flash);
        assert_eq!(s.capacity(), SIZE);
        ERASES.lock().unwrap().clear();
        match below(3) {
            0 => {
                // Mostly whole pages, sometimes anything.
                let (from, to) = if below(4) == 0 {
                    (below(SIZE + 150), below(SIZE + 150))
                } else {
                    let a = below(PAGES + 1) * PAGE;
                    (a, a + below(PAGES + 1 - a / PAGE) * PAGE)
                };
                let result = s.erase(from as u32, to as u32);
                let want = if from > to {
                    Err(NorFlashErrorKind::OutOfBounds)
                } else {
                    expected(from, to - from, 1).and(if from % PAGE != 0 || to % PAGE != 0 {
                        Err(NorFlashErrorKind::NotAligned)
                    } else {
                        Ok(())
                    })
                };
                match want {
                    Ok(()) => {
                        result.unwrap();
                        model[from..to].fill(0xFF);
                        let pages: Vec<u32> = (from..to)
                            .step_by(PAGE)
                            .map(|p| (FIRST_PAGE + p) as u32)
                            .collect();
                        assert_eq!(*ERASES.lock().unwrap(), pages, "round {round}");
                        erases += 1;
                    }
                    Err(kind) => {
                        assert_eq!(result, Err(FlashError::Check(kind)), "round {round}");
                        assert!(ERASES.lock().unwrap().is_empty(), "round {round}");
                        refused += 1;
                    }
                }
            }
            1 => {
                let (offset, len) = request(&mut below, 20);
                let data: Vec<u8> = (0..len).map(|_| below(256) as u8).collect();
                let result = s.write(offset as u32, &data);
                match expected(offset, len, 2) {
                    Ok(()) if model[offset..offset + len].iter().all(|&b| b == 0xFF) => {
                        result.unwrap();
                        model[offset..offset + len].copy_from_slice(&data);
                        writes += 1;
                    }
                    Ok(()) => {
                        // Programming a half-word that is not erased: PGERR,
                        // and the half-words before it are written.
                        assert_eq!(result, Err(FlashError::Failed(0x04)), "round {round}");
                        let first = (0..len)
                            .step_by(2)
                            .find(|&i| model[offset + i..offset + i + 2] != [0xFF, 0xFF])
                            .unwrap();
                        model[offset..offset + first].copy_from_slice(&data[..first]);
                        refused += 1;
                    }
                    Err(kind) => {
                        assert_eq!(result, Err(FlashError::Check(kind)), "round {round}");
                        refused += 1;
                    }
                }
            }
            _ => {
                let (offset, len) = request(&mut below, 300);
                let mut out = vec![0x5A; len];
                let result = s.read(offset as u32, &mut out);
                match expected(offset, len, 2) {
                    Ok(()) => {
                        result.unwrap();
                        assert_eq!(out[..], model[offset..offset + len], "round {round}");
                        reads += 1;
                    }
                    Err(kind) => {
                        assert_eq!(result, Err(FlashError::Check(kind)), "round {round}");
                        refused += 1;
                    }
                }
            }
        }
        let mem = MEM.lock().unwrap();
        assert_eq!(mem[FIRST_PAGE..], model[..], "round {round}");
        assert!(
            mem[..FIRST_PAGE].iter().all(|&b| b == 0xFF),
            "round {round}: flash outside the store's pages changed"
        );
    }

    // The store on top: 17 saves per page, the pages in turn, the newest wins.
    MEM.lock().unwrap().fill(0xFF);
    assert_eq!(Store::<FlashStorage>::PAGE_STRIDE, PAGE);
    let per_page = Store::<FlashStorage>::SAVES_PER_PAGE;
    assert_eq!(per_page, 17);
    let squares = [4u8, 0, 2, 6, 3, 5, 7, 1, 8]; // a drawn game
    let mut snap = Snapshot {
        sequence: 0,
        calibration: Calibration::default(),
        pose: Pose::new(Point::mm(160, 130), -200, 32_000).unwrap(),
        reset_cause: ResetCause::PowerOn,
        setup: GameSetup {
            device_first: true,
            first_square: None,
        },
        record: GameRecord::new(),
        mode: Mode::Game,
        active: true,
        stock: [0b11111, 0b11111],
        suspect: [0, 0],
        pending: None,
    };
    let saves = 2 * PAGES * per_page;
    for k in 0..saves {
        // Games of 1 to 9 moves, one save per move.
        let mut record = GameRecord::new();
        for &square in &squares[..k % 9 + 1] {
            record.push(Square::new(square).unwrap()).unwrap();
        }
        snap.record = record;
        let mut store = Store::new(FlashStorage::new(Flash), 0).unwrap();
        assert_eq!(store.pages(), PAGES as u32);
        ERASES.lock().unwrap().clear();
        store.save(&snap).unwrap();
        store.save(&snap).unwrap(); // unchanged: not written again
        let page = FIRST_PAGE + (k / per_page % PAGES) * PAGE;
        let erased: &[u32] = if k % per_page == 0 {
            &[page as u32]
        } else {
            &[]
        };
        assert_eq!(*ERASES.lock().unwrap(), erased, "save {k}");
        let got = store.load().unwrap().unwrap();
        assert_eq!((got.sequence, got.record), (k as u32 + 1, record));
        let mem = MEM.lock().unwrap();
        assert_eq!(mem[page], 6, "save {k}: the format version starts the page");
    }
    println!(
        "storage-check: PASS ({erases} erases, {writes} writes and {reads} reads checked \
         against the model, {refused} refused as expected; {saves} store saves over \
         {PAGES} pages)"
    );
}
