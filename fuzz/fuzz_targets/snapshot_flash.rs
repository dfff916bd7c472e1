//! What the machine reads back from flash at power-up, on arbitrary bytes: a
//! snapshot patched anywhere (torn writes, worn cells, another format), and a whole
//! flash image of the store's pages. Decoding never panics; a snapshot it accepts
//! encodes and decodes back to itself, and a fresh controller resumes from it or
//! refuses it with a typed error, without panicking. Whatever the image, a save
//! works (into erased flash only: the flash model refuses anything else) and the
//! next load returns what it saved.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable_machine::classify::{Calibration, Margins, Rgbc, SquareCalibration};
use tictable_machine::controller::{BestMove, GameRecord, GameSetup, Mode, Task};
use tictable_machine::model::ResetCause;
use tictable_machine::persist::{Snapshot, Store, ENCODED_LEN};
use tictable_machine::sim::run::{build_controller, SimFlash, FLASH_BYTES, FLASH_PAGES};
use tictable_machine::sim::world::{SimConfig, World};
use tictable_machine::Colour;
use tictable::Square;

/// A realistic snapshot: a calibration, a game of three moves, a task of two pieces.
fn valid() -> Snapshot {
    let square = SquareCalibration::new(
        Rgbc::new(1000, 400, 300, 300),
        Rgbc::new(200, 70, 60, 60),
        Rgbc::new(3000, 1000, 1000, 900),
        300,
    )
    .unwrap_or_default();
    let mut record = GameRecord::new();
    for i in [4, 0, 8] {
        if let Some(s) = Square::new(i) {
            let _ = record.push(s);
        }
    }
    let mode = match Task::new(&[
        (Colour::Black, Square::CENTRE),
        (Colour::White, Square::ALL[0]),
    ]) {
        Ok(task) => Mode::Task { task, done: 1 },
        Err(_) => Mode::Game,
    };
    let config = SimConfig::standard(20.0, 0.0, 1).unwrap();
    Snapshot {
        sequence: 9,
        calibration: Calibration::new([square; 9], Margins::DEFAULT),
        setup: GameSetup {
            device_first: true,
            first_square: Some(Square::CENTRE),
        },
        record,
        mode,
        active: true,
        stock: [0b11100, 0b11110],
        suspect: [0b00010, 0],
        pending: Some((Colour::White, 0, Square::ALL[2])),
        pose: config.pose,
        reset_cause: ResetCause::Watchdog,
    }
}

fn check(snapshot: Snapshot) {
    assert_eq!(Snapshot::decode(&snapshot.encode()), Some(snapshot));
    let world = core::cell::RefCell::new(World::new(SimConfig::standard(0.0, 0.0, 1).unwrap()));
    let mut controller = build_controller(&&world, snapshot.calibration, BestMove);
    let _ = controller.resume(&snapshot);
}

fuzz_target!(|input: (u16, Vec<u8>, Vec<u8>)| {
    let (at, patch, image) = input;
    // A valid encoding with `patch` XORed in at `at`.
    let mut bytes = valid().encode();
    for (i, p) in patch.iter().enumerate() {
        if let Some(b) = bytes.get_mut((at as usize + i) % ENCODED_LEN) {
            *b ^= p;
        }
    }
    if let Some(s) = Snapshot::decode(&bytes) {
        check(s);
    }
    // The same patch as a whole slot image, and arbitrary flash.
    let mut flash = SimFlash::new();
    for (b, v) in flash.bytes.iter_mut().zip(image.iter().chain(patch.iter())) {
        *b = *v;
    }
    if let Ok(mut store) = Store::new(flash, 0) {
        let loaded = store.load();
        if let Ok(Some(s)) = loaded {
            check(s);
        }
        let mut saved = valid();
        saved.record = GameRecord::new();
        assert_eq!(store.save(&saved), Ok(()));
        // Unless the sequence wrapped (past u32::MAX: forged images only).
        if !matches!(loaded, Ok(Some(s)) if s.sequence == u32::MAX) {
            let got = Store::new(store.destroy(), 0).ok().map(|mut s| s.load());
            assert!(matches!(got, Some(Ok(Some(g))) if g.record == saved.record));
        }
    }
    assert!(FLASH_PAGES * Store::<SimFlash>::PAGE_STRIDE <= FLASH_BYTES);
});
