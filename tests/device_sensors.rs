//! Driver-level tests of the sensor bank: the exact I2C transactions the real
//! `xca9548a` and `tcs3472` drivers send, checked with embedded-hal-mock.

mod common;
use common::sq;

use embedded_hal::i2c::ErrorKind;
use embedded_hal_mock::eh1::i2c::{Mock, Transaction as T};
use tictable::device::classify::{Calibrator, Margins, Reference, Rgbc, Sensed};
use tictable::device::scanner::{ScanSettings, Scanner};
use tictable::device::sensors::{Mux, SensorBank, SensorError, SensorSettings, Wiring};
use tictable::device::Colour;
use tictable::Square;

const A: u8 = 0x70;
const B: u8 = 0x71;
const TCS: u8 = 0x29;

/// The transactions of one successful read of the sensor of square `i`.
fn read_tx(i: u8, r: Rgbc) -> Vec<T> {
    let (mux, other, ch) = if i < 8 { (A, B, i) } else { (B, A, 0) };
    let le = |v: u16| v.to_le_bytes();
    let mut data = Vec::new();
    for v in [r.clear, r.red, r.green, r.blue] {
        data.extend_from_slice(&le(v));
    }
    vec![
        T::write(other, vec![0]),
        T::write(mux, vec![1 << ch]),
        T::write_read(TCS, vec![0x80 | 0x20 | 0x14], data),
    ]
}

/// Checks that no transaction to 0x29 happens while both multiplexers have a
/// channel on, by replaying the mux writes of a transaction list.
fn assert_never_two_channels(txs: &[(u8, Vec<u8>, bool)]) {
    let (mut a, mut b) = (0u8, 0u8);
    for (addr, bytes, is_sensor) in txs {
        match *addr {
            A => a = bytes[0],
            B => b = bytes[0],
            _ => {}
        }
        if *is_sensor {
            assert_eq!((a.count_ones() + b.count_ones()), 1, "a={a:#x} b={b:#x}");
        }
    }
}

#[test]
fn reads_every_square_through_the_right_mux_and_never_two_at_once() {
    let mut expected = Vec::new();
    let mut replay = Vec::new();
    for i in 0..9u8 {
        let r = Rgbc::new(1000 + i as u16, 2, 3, 4);
        let txs = read_tx(i, r);
        let (mux, other, ch) = if i < 8 { (A, B, i) } else { (B, A, 0) };
        replay.push((other, vec![0], false));
        replay.push((mux, vec![1 << ch], false));
        replay.push((TCS, vec![], true));
        expected.extend(txs);
    }
    assert_never_two_channels(&replay);
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    for i in 0..9u8 {
        assert_eq!(
            bank.read(sq(i)).unwrap(),
            Rgbc::new(1000 + i as u16, 2, 3, 4)
        );
    }
    i2c.done();
}

#[test]
fn init_checks_the_id_and_configures_each_sensor() {
    // Square 8: on multiplexer B channel 0; A is switched off first.
    let sel = || vec![T::write(A, vec![0]), T::write(B, vec![0x01])];
    let mut expected = sel();
    expected.push(T::write_read(TCS, vec![0x80 | 0x12], vec![0x44]));
    expected.extend(sel());
    expected.extend([
        T::write(TCS, vec![0x81, 256u16.wrapping_sub(10) as u8]), // ATIME
        T::write(TCS, vec![0x8F, 1]),                             // gain 4x
        T::write(TCS, vec![0x80, 0x01]),                          // PON
        T::write(TCS, vec![0x80, 0x03]),                          // PON | AEN
    ]);
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    bank.init_square(sq(8)).unwrap();
    i2c.done();
}

#[test]
fn wrong_id_is_reported() {
    let expected = [
        T::write(B, vec![0]),
        T::write(A, vec![0x10]),
        T::write_read(TCS, vec![0x92], vec![0x12]),
    ];
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    assert_eq!(bank.init_square(sq(4)), Err(SensorError::WrongId(0x12)));
    i2c.done();
}

#[test]
fn a_nack_is_retried_and_the_read_then_succeeds() {
    let nack = ErrorKind::NoAcknowledge(embedded_hal::i2c::NoAcknowledgeSource::Address);
    let r = Rgbc::new(10, 20, 30, 40);
    let mut expected = vec![
        T::write(B, vec![0]),
        T::write(A, vec![0x04]),
        T::write_read(TCS, vec![0xB4], vec![0; 8]).with_error(nack),
    ];
    // The mux write itself fails on the second attempt.
    expected.push(T::write(B, vec![0]).with_error(nack));
    expected.extend(read_tx(2, r));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    assert_eq!(bank.read(sq(2)), Ok(r));
    i2c.done();
}

#[test]
fn persistent_errors_give_the_last_error() {
    let nack = ErrorKind::NoAcknowledge(embedded_hal::i2c::NoAcknowledgeSource::Data);
    let mut expected = Vec::new();
    for _ in 0..3 {
        expected.push(T::write(A, vec![0]));
        expected.push(T::write(B, vec![0x01]));
        expected.push(T::write_read(TCS, vec![0xB4], vec![0; 8]).with_error(nack));
    }
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    assert_eq!(bank.read(sq(8)), Err(SensorError::Bus(nack)));
    i2c.done();
}

#[test]
fn deselect_all_switches_both_off() {
    let expected = [T::write(A, vec![0]), T::write(B, vec![0])];
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    bank.deselect_all().unwrap();
    i2c.done();
    assert_eq!(Mux::B.other(), Mux::A);
}

const EMPTY: Rgbc = Rgbc::new(1200, 450, 400, 350);
const BLACK: Rgbc = Rgbc::new(250, 90, 80, 70);
const WHITE: Rgbc = Rgbc::new(3500, 1200, 1200, 1100);

fn calibration() -> tictable::device::classify::Calibration {
    let mut c = Calibrator::new();
    for s in Square::ALL {
        c.record(Reference::Empty, s, EMPTY);
        c.record(Reference::Black, s, BLACK);
        c.record(Reference::White, s, WHITE);
    }
    c.finish(300, Margins::DEFAULT).unwrap()
}

/// Three identical frames, faults after five failed frames, unknowns after six.
const THREE: ScanSettings = ScanSettings {
    frame_period_ms: 30,
    stable_frames: 3,
    fault_frames: 5,
    unknown_frames: 6,
};

fn frame(view: [Rgbc; 9]) -> Vec<T> {
    (0..9u8)
        .flat_map(|i| read_tx(i, view[i as usize]))
        .collect()
}

#[test]
fn scanner_reports_a_view_only_after_three_identical_frames() {
    let mut board = [EMPTY; 9];
    board[4] = BLACK;
    board[0] = WHITE;
    let mut flicker = board;
    flicker[7] = Rgbc::new(700, 270, 240, 210); // between empty and black
    let mut expected = frame(board);
    expected.extend(frame(flicker));
    expected.extend(frame(board));
    expected.extend(frame(board));
    expected.extend(frame(board));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    let mut scan = Scanner::new(calibration(), THREE);
    let mut results = Vec::new();
    for t in 0..5u32 {
        results.push(scan.poll(t * 30, &mut bank).ok());
        // Polling again before the frame period is a no-op.
        assert!(scan.poll(t * 30 + 1, &mut bank).is_err());
    }
    i2c.done();
    assert_eq!(results[..4], [None, None, None, None]);
    let view = results[4].unwrap();
    assert_eq!(view.get(sq(4)), Sensed::Piece(Colour::Black));
    assert_eq!(view.get(sq(0)), Sensed::Piece(Colour::White));
    assert_eq!(view.pieces(Colour::Black).len(), 1);
    assert!(view.untrusted().is_empty());
}

#[test]
fn a_dead_sensor_becomes_a_fault_never_a_wrong_board() {
    let nack = ErrorKind::NoAcknowledge(embedded_hal::i2c::NoAcknowledgeSource::Address);
    let board = [EMPTY; 9];
    let mut expected = Vec::new();
    for _ in 0..7 {
        for i in 0..9u8 {
            if i == 5 {
                for _ in 0..3 {
                    expected.push(T::write(B, vec![0]));
                    expected.push(T::write(A, vec![1 << 5]));
                    expected.push(T::write_read(TCS, vec![0xB4], vec![0; 8]).with_error(nack));
                }
            } else {
                expected.extend(read_tx(i, board[i as usize]));
            }
        }
    }
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    let mut scan = Scanner::new(calibration(), THREE);
    let results: Vec<_> = (0..7u32)
        .map(|t| scan.poll(t * 30, &mut bank).ok())
        .collect();
    i2c.done();
    // Frames 1-4 are incomplete; frames 5, 6, 7 show the fault: stable at the 7th.
    assert_eq!(results[..6], [None; 6]);
    let view = results[6].unwrap();
    assert_eq!(view.get(sq(5)), Sensed::Fault);
    assert_eq!(view.faults().len(), 1);
}

#[test]
fn an_unknown_square_needs_a_longer_streak() {
    let mut board = [EMPTY; 9];
    board[3] = Rgbc::new(700, 270, 240, 210); // half covered: unknown
    let expected: Vec<T> = (0..6).flat_map(|_| frame(board)).collect();
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    let mut scan = Scanner::new(calibration(), THREE);
    let results: Vec<_> = (0..6u32)
        .map(|t| scan.poll(t * 30, &mut bank).ok())
        .collect();
    i2c.done();
    assert_eq!(results[..5], [None; 5]);
    let view = results[5].unwrap();
    assert_eq!(view.get(sq(3)), Sensed::Unknown);
    assert_eq!(view.untrusted().len(), 1);
    assert!(view.faults().is_empty());
}
