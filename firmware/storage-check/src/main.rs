//! Checks firmware/src/storage.rs (the snapshot NOR flash over the last two flash
//! pages) on the host, against a model of the HAL's flash: 20,000 random erases,
//! writes and reads (aligned or not, in range or past the end) compared with a
//! plain NOR model of the 2 KiB (erase sets a page to 0xFF, a write programs
//! erased half-words only); the physical layout (offset k at flash offset
//! 62 KiB + k, all other flash untouched); which pages an erase touches (exactly
//! the addressed ones); and the persist::Store on top of it (saves alternate
//! between page 62 and page 63, the newest is loaded back). Run:
//! scripts/storage-check.
#[path = "../../src/storage.rs"]
mod storage;

use embedded_storage::nor_flash::{NorFlash, NorFlashErrorKind, ReadNorFlash};
use stm32f1xx_hal::flash::{Error, Parts, ERASES, MEM};
use storage::{FlashError, FlashStorage};
use tictable::device::classify::Calibration;
use tictable::device::controller::{GameRecord, GameSetup, Mode};
use tictable::device::motion::{Point, Pose};
use tictable::device::persist::{Snapshot, Store};
use tictable::Square;

const PAGE: usize = 1024;
const FIRST_PAGE: usize = 62 * PAGE;
const SIZE: usize = 2 * PAGE;

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
        below(2200)
    } else {
        2 * below(1024)
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
        let mut s = FlashStorage::new(Parts);
        assert_eq!(s.capacity(), SIZE);
        ERASES.lock().unwrap().clear();
        match below(3) {
            0 => {
                // Mostly whole pages, sometimes anything.
                let (from, to) = if below(4) == 0 {
                    (below(2200), below(2200))
                } else {
                    let a = below(3) * PAGE;
                    (a, a + below(3 - a / PAGE) * PAGE)
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
                        // Programming a half-word that is not erased: the HAL's
                        // error, and the half-words before it are written.
                        assert_eq!(
                            result,
                            Err(FlashError::Hal(Error::ProgrammingError)),
                            "round {round}"
                        );
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
            "round {round}: flash outside the two pages changed"
        );
    }

    // The store on top: one slot per page, saves alternate, the newest wins.
    MEM.lock().unwrap().fill(0xFF);
    assert_eq!(Store::<FlashStorage>::SLOT_STRIDE, PAGE);
    let mut record = GameRecord::new();
    let mut snap = Snapshot {
        sequence: 0,
        calibration: Calibration::default(),
        pose: Pose::new(Point::mm(160, 130), -200, 32_000).unwrap(),
        setup: GameSetup {
            device_first: true,
            first_square: None,
        },
        record,
        mode: Mode::Game,
        active: true,
        stock: [0b11111, 0b11111],
        suspect: [0, 0],
        pending: None,
    };
    for (k, square) in [4u8, 0, 8, 2].into_iter().enumerate() {
        record.push(Square::new(square).unwrap()).unwrap();
        snap.record = record;
        let mut store = Store::new(FlashStorage::new(Parts), 0).unwrap();
        ERASES.lock().unwrap().clear();
        store.save(&snap).unwrap();
        store.save(&snap).unwrap(); // unchanged: not written again
        let page = FIRST_PAGE + (k % 2) * PAGE;
        assert_eq!(*ERASES.lock().unwrap(), [page as u32], "save {k}");
        let got = store.load().unwrap().unwrap();
        assert_eq!((got.sequence, got.record), (k as u32 + 1, record));
        let mem = MEM.lock().unwrap();
        assert_eq!(mem[page], 5, "save {k}: the format version starts the page");
    }
    println!(
        "storage-check: PASS ({erases} erases, {writes} writes and {reads} reads checked \
         against the model, {refused} refused as expected; 4 store saves)"
    );
}
