//! Driver-level tests of the sensor bank: the exact I2C transactions the real
//! `xca9548a` and `tcs3472` drivers (and the bank's block reads) send, checked with
//! embedded-hal-mock; the chip's timing (warm-up, one sample per integration time,
//! AVALID), brown-outs, stuck sensors and a hung bus.

use crate::common;
use common::sq;

use embedded_hal::i2c::{ErrorKind, ErrorType, I2c, NoAcknowledgeSource, Operation};
use embedded_hal_mock::eh1::i2c::{Mock, Transaction as T};
use std::cell::Cell;
use std::rc::Rc;
use tictable::Square;
use tictable_machine::classify::{Calibrator, Margins, Reference, Rgbc, Sensed};
use tictable_machine::scanner::{ScanSettings, Scanner};
use tictable_machine::sensors::{
    BusRecovery, Mux, SensorBank, SensorError, SensorSettings, Wiring, DARK_COUNTS, DARK_FLOOR,
    STUCK_DARK_SAMPLES, STUCK_SAMPLES, WARMUP_MS,
};
use tictable_machine::Colour;

const A: u8 = 0x70;
const B: u8 = 0x71;
const TCS: u8 = 0x29;
/// Auto-increment block read from STATUS (0x13): STATUS and the four channels.
const BLOCK: u8 = 0x80 | 0x20 | 0x13;
/// Fresh-sample spacing of the default settings (24 ms integration, +25 %).
const FRESH: u32 = 30;

fn wb<T: core::fmt::Debug>(r: nb::Result<T, SensorError>) {
    assert!(matches!(r, Err(nb::Error::WouldBlock)), "{r:?}");
}

/// The multiplexer of square `i`, the other one, the channel.
fn wiring(i: u8) -> (u8, u8, u8) {
    if i < 8 {
        (A, B, i)
    } else {
        (B, A, 0)
    }
}

/// Selecting square `i`: the other multiplexer off, then the channel on.
fn sel(i: u8) -> Vec<T> {
    let (mux, other, ch) = wiring(i);
    vec![T::write(other, vec![0]), T::write(mux, vec![1 << ch])]
}

/// ID check, then ENABLE = PON and ATIME (10 cycles) in one auto-increment write,
/// then gain 4x: one initialisation of square `i`.
fn init_tx(i: u8) -> Vec<T> {
    let mut v = sel(i);
    v.extend([
        T::write_read(TCS, vec![0x80 | 0x12], vec![0x44]),
        T::write(TCS, vec![0xA0, 0x01, 256u16.wrapping_sub(10) as u8]),
        T::write(TCS, vec![0x8F, 1]),
    ]);
    v
}

/// AEN after the warm-up: ENABLE = PON | AEN with ATIME, and the gain, again.
fn enable_tx(i: u8) -> Vec<T> {
    let mut v = sel(i);
    v.push(T::write(
        TCS,
        vec![0xA0, 0x03, 256u16.wrapping_sub(10) as u8],
    ));
    v.push(T::write(TCS, vec![0x8F, 1]));
    v
}

/// The block STATUS + CDATA..BDATAH.
fn block(status: u8, r: Rgbc) -> Vec<u8> {
    let mut data = vec![status];
    for v in [r.clear, r.red, r.green, r.blue] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data
}

/// One read of square `i` showing STATUS `status` and `r`.
fn read_status_tx(i: u8, status: u8, r: Rgbc) -> Vec<T> {
    let mut v = sel(i);
    v.push(T::write_read(TCS, vec![BLOCK], block(status, r)));
    v
}

/// One read of square `i` with a valid sample `r`.
fn read_tx(i: u8, r: Rgbc) -> Vec<T> {
    read_status_tx(i, 0x01, r)
}

/// The start-up of `squares` through reads at `t0` (init) and `t0 + WARMUP_MS` (AEN).
fn start_tx(squares: &[u8]) -> Vec<T> {
    let mut v: Vec<T> = squares.iter().flat_map(|&i| init_tx(i)).collect();
    v.extend(squares.iter().flat_map(|&i| enable_tx(i)));
    v
}

fn start<I: I2c>(bank: &mut SensorBank<I>, squares: &[u8], t0: u32) {
    for &i in squares {
        wb(bank.read(sq(i), t0));
    }
    for &i in squares {
        wb(bank.read(sq(i), t0 + WARMUP_MS));
    }
}

const ALL: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

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
    let mut expected = start_tx(&ALL);
    let mut replay = Vec::new();
    for i in ALL {
        let (mux, other, ch) = wiring(i);
        replay.push((other, vec![0], false));
        replay.push((mux, vec![1 << ch], false));
        replay.push((TCS, vec![], true));
        expected.extend(read_tx(i, Rgbc::new(1000 + i as u16, 2, 3, 4)));
    }
    assert_never_two_channels(&replay);
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &ALL, 0);
    for i in ALL {
        let r = bank.read(sq(i), WARMUP_MS + FRESH).unwrap();
        assert_eq!(r, Rgbc::new(1000 + i as u16, 2, 3, 4));
    }
    i2c.done();
}

#[test]
fn init_checks_the_id_configures_and_powers_on_without_starting_rgbc() {
    // Square 8: on multiplexer B channel 0; A is switched off first. AEN is not
    // written: the datasheet wants 2.4 ms between PON and AEN.
    let mut i2c = Mock::new(&init_tx(8));
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    bank.init_square(sq(8)).unwrap();
    i2c.done();
}

#[test]
fn init_keeps_the_sensors_that_succeeded_and_goes_on_with_the_others() {
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
    let mut expected = Vec::new();
    for i in ALL {
        if i == 3 {
            // Nine attempts (three times the configured three), all NACKed.
            for _ in 0..9 {
                let mut v = sel(3);
                v.push(T::write_read(TCS, vec![0x92], vec![0]).with_error(nack));
                expected.extend(v);
            }
        } else {
            expected.extend(init_tx(i));
        }
    }
    // The second call initialises square 4 (index 3) alone.
    expected.extend(init_tx(3));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    assert_eq!(bank.init(), Err((sq(3), SensorError::Bus(nack))));
    assert_eq!(bank.init(), Ok(()));
    i2c.done();
}

#[test]
fn impossible_settings_are_refused_not_written() {
    let mut expected = sel(0);
    expected.push(T::write_read(TCS, vec![0x92], vec![0x4D]));
    let mut i2c = Mock::new(&expected);
    let settings = SensorSettings {
        integration_cycles: 257,
        ..SensorSettings::DEFAULT
    };
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, settings);
    assert_eq!(bank.init_square(sq(0)), Err(SensorError::InvalidSettings));
    i2c.done();
}

#[test]
fn wrong_id_is_reported() {
    let mut expected = sel(4);
    expected.push(T::write_read(TCS, vec![0x92], vec![0x12]));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    assert_eq!(bank.init_square(sq(4)), Err(SensorError::WrongId(0x12)));
    i2c.done();
}

#[test]
fn rgbc_starts_after_the_warm_up_and_a_sample_is_read_only_once_due() {
    let (r1, r2) = (Rgbc::new(900, 300, 280, 260), Rgbc::new(905, 301, 279, 262));
    let mut expected = init_tx(2);
    expected.extend(enable_tx(2));
    // The first block read: AVALID still clear (the sample is not complete).
    expected.extend(read_status_tx(2, 0, Rgbc::default()));
    expected.extend(read_tx(2, r1));
    expected.extend(read_tx(2, r2));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    wb(bank.read(sq(2), 100)); // init, PON
    wb(bank.read(sq(2), 100 + WARMUP_MS - 1)); // warming up: nothing sent
    wb(bank.read(sq(2), 100 + WARMUP_MS)); // AEN
    wb(bank.read(sq(2), 104 + FRESH - 1)); // no sample can be complete: nothing sent
    wb(bank.read(sq(2), 104 + FRESH)); // AVALID clear: no data taken
    assert_eq!(bank.read(sq(2), 104 + FRESH + 1), Ok(r1));
    // The same sample is not read twice: the next one is due a period later.
    wb(bank.read(sq(2), 135 + 10));
    assert_eq!(bank.read(sq(2), 135 + FRESH), Ok(r2));
    assert_eq!(bank.stats().reinits, 0);
    i2c.done();
}

#[test]
fn a_browned_out_sensor_is_reinitialised_and_read_again() {
    let r = Rgbc::new(1200, 420, 400, 380);
    let mut expected = start_tx(&[0]);
    expected.extend(read_tx(0, r));
    // The sensor browned out: registers at reset values, no sample, zero data.
    expected.extend(read_status_tx(0, 0, Rgbc::default()));
    expected.extend(read_status_tx(0, 0, Rgbc::default()));
    // Re-initialised, warmed up, started again, read.
    expected.extend(start_tx(&[0]));
    expected.extend(read_tx(0, r));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[0], 0);
    assert_eq!(bank.read(sq(0), 34), Ok(r));
    // Not yet two cycles without a sample: it may still come.
    wb(bank.read(sq(0), 64));
    // Two cycles (2 x 27 ms) without a sample: the sensor lost its settings.
    wb(bank.read(sq(0), 88));
    assert_eq!(bank.stats().reinits, 1);
    start(&mut bank, &[0], 89);
    assert_eq!(bank.read(sq(0), 93 + FRESH), Ok(r));
    i2c.done();
}

#[test]
fn bit_identical_fresh_samples_make_a_stuck_sensor_until_one_differs() {
    let r = Rgbc::new(1200, 420, 400, 380);
    let other = Rgbc::new(1201, 420, 400, 380);
    let n = STUCK_SAMPLES as usize;
    let mut expected = start_tx(&[6]);
    for _ in 0..n + 1 {
        expected.extend(read_tx(6, r));
    }
    expected.extend(read_tx(6, other));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[6], 0);
    let mut t = 4;
    for k in 1..=n + 2 {
        t += FRESH;
        let got = bank.read(sq(6), t);
        if k < n {
            assert_eq!(got, Ok(r), "sample {k}");
        } else if k <= n + 1 {
            assert_eq!(got, Err(nb::Error::Other(SensorError::Stuck)), "sample {k}");
        } else {
            assert_eq!(got, Ok(other), "a new value: alive again");
        }
    }
    assert_eq!(bank.stats().stuck, 1);
    i2c.done();
}

#[test]
fn saturated_samples_repeat_exactly_and_are_not_a_stuck_sensor() {
    // A bright white piece: every channel at the full scale of 24 ms, 1024 x 10.
    let full = SensorSettings::DEFAULT.saturation();
    assert_eq!(full, 10_240);
    let r = Rgbc::new(full, full, full, full);
    let n = usize::from(STUCK_SAMPLES) * 2;
    let mut expected = start_tx(&[6]);
    for _ in 0..n {
        expected.extend(read_tx(6, r));
    }
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[6], 0);
    for k in 1..=n as u32 {
        assert_eq!(bank.read(sq(6), 4 + k * FRESH), Ok(r), "sample {k}");
    }
    assert_eq!(bank.stats().stuck, 0);
    i2c.done();
}

#[test]
fn dark_samples_repeat_exactly_and_are_not_a_stuck_sensor() {
    // The LEDs off: the datasheet's dark count, at most DARK_FLOOR counts, whole
    // counts that a live sensor may repeat for ever. Never a stuck sensor; dim
    // counts just above it are one after STUCK_DARK_SAMPLES identical ones.
    let dark = Rgbc::new(DARK_FLOOR, 3, 2, 2);
    let dim = Rgbc::new(DARK_FLOOR + 1, 3, 2, 2);
    let n = usize::from(STUCK_DARK_SAMPLES) * 2;
    let mut expected = start_tx(&[6]);
    for _ in 0..n {
        expected.extend(read_tx(6, dark));
    }
    for _ in 0..STUCK_DARK_SAMPLES {
        expected.extend(read_tx(6, dim));
    }
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[6], 0);
    let mut t = 4;
    for k in 1..=n {
        t += FRESH;
        assert_eq!(bank.read(sq(6), t), Ok(dark), "dark sample {k}");
    }
    for _ in 1..STUCK_DARK_SAMPLES {
        t += FRESH;
        assert_eq!(bank.read(sq(6), t), Ok(dim));
    }
    t += FRESH;
    let got = bank.read(sq(6), t);
    assert_eq!(got, Err(nb::Error::Other(SensorError::Stuck)));
    assert_eq!(bank.stats().stuck, 1);
    i2c.done();
}

#[test]
fn dim_samples_make_a_stuck_sensor_after_the_longer_run_bright_ones_after_the_short() {
    // At DARK_COUNTS clear (a black piece under dim LEDs) a live sensor repeats its
    // sample now and then, four in a row too: not yet stuck. STUCK_DARK_SAMPLES in a
    // row it never gives, a frozen one does. One count above, STUCK_SAMPLES do.
    for (clear, run) in [
        (DARK_COUNTS, STUCK_DARK_SAMPLES),
        (DARK_COUNTS + 1, STUCK_SAMPLES),
    ] {
        let r = Rgbc::new(clear, 42, 40, 38);
        let mut expected = start_tx(&[6]);
        for _ in 0..run {
            expected.extend(read_tx(6, r));
        }
        let mut i2c = Mock::new(&expected);
        let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
        start(&mut bank, &[6], 0);
        let mut t = 4;
        for k in 1..run {
            t += FRESH;
            assert_eq!(bank.read(sq(6), t), Ok(r), "clear {clear}, sample {k}");
        }
        t += FRESH;
        let got = bank.read(sq(6), t);
        assert_eq!(
            got,
            Err(nb::Error::Other(SensorError::Stuck)),
            "clear {clear}"
        );
        assert_eq!(bank.stats().stuck, 1);
        assert_eq!(bank.stats().longest_repeat, run);
        i2c.done();
    }
}

#[test]
fn a_nack_is_retried_and_the_read_then_succeeds() {
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
    let r = Rgbc::new(10, 20, 30, 40);
    let mut expected = start_tx(&[2]);
    expected.extend(sel(2));
    expected.push(T::write_read(TCS, vec![BLOCK], vec![0; 9]).with_error(nack));
    // The mux write itself fails on the second attempt.
    expected.push(T::write(B, vec![0]).with_error(nack));
    expected.extend(read_tx(2, r));
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[2], 0);
    assert_eq!(bank.read(sq(2), 34), Ok(r));
    i2c.done();
}

#[test]
fn persistent_errors_give_the_last_error() {
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Data);
    let mut expected = start_tx(&[8]);
    for _ in 0..3 {
        expected.extend(sel(8));
        expected.push(T::write_read(TCS, vec![BLOCK], vec![0; 9]).with_error(nack));
    }
    let mut i2c = Mock::new(&expected);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[8], 0);
    assert_eq!(
        bank.read(sq(8), 34),
        Err(nb::Error::Other(SensorError::Bus(nack)))
    );
    i2c.done();
}

/// A mock bus that can be freed: counts the recoveries.
struct Recovering {
    mock: Mock,
    recoveries: Rc<Cell<u32>>,
}

impl ErrorType for Recovering {
    type Error = ErrorKind;
}

/// Every access as the mock expects it (plain writes and write-reads).
impl I2c for Recovering {
    fn transaction(&mut self, address: u8, ops: &mut [Operation<'_>]) -> Result<(), ErrorKind> {
        self.mock.transaction(address, ops)
    }
    fn write(&mut self, address: u8, bytes: &[u8]) -> Result<(), ErrorKind> {
        self.mock.write(address, bytes)
    }
    fn write_read(&mut self, address: u8, w: &[u8], r: &mut [u8]) -> Result<(), ErrorKind> {
        self.mock.write_read(address, w, r)
    }
}

impl BusRecovery for Recovering {
    fn recover_bus(&mut self) -> bool {
        self.recoveries.set(self.recoveries.get() + 1);
        true
    }
}

/// Square 1's start-up, then two attempts of a read that fail at once with `kind`
/// (SDA held low), then `then`.
fn hung_tx(kind: ErrorKind, then: Vec<T>) -> Vec<T> {
    let mut expected = start_tx(&[0]);
    for _ in 0..2 {
        expected.push(T::write(B, vec![0]).with_error(kind));
    }
    expected.extend(then);
    expected
}

/// A bank with recovery whose first read of square 1 fails twice with `kind`, then
/// sees `then`: the read's result and the recoveries.
fn read_after_two(kind: ErrorKind, then: Vec<T>) -> (nb::Result<Rgbc, SensorError>, u32) {
    let mut mock = Mock::new(&hung_tx(kind, then));
    let recoveries = Rc::new(Cell::new(0));
    let bus = Recovering {
        mock: mock.clone(),
        recoveries: recoveries.clone(),
    };
    let mut bank = SensorBank::new(bus, Wiring::DEFAULT, SensorSettings::DEFAULT).with_recovery();
    start(&mut bank, &[0], 0);
    let result = bank.read(sq(0), 34);
    assert_eq!(bank.stats().recoveries, recoveries.get());
    mock.done();
    (result, recoveries.get())
}

#[test]
fn a_hung_bus_is_freed_after_two_bus_errors_in_a_row() {
    let r = Rgbc::new(700, 200, 210, 190);
    assert_eq!(read_after_two(ErrorKind::Bus, read_tx(0, r)), (Ok(r), 1));
}

#[test]
fn a_bus_that_times_out_is_freed_as_well() {
    // The firmware's master (firmware/src/i2c.rs) reports SB or BUSY that never
    // clears, a slave holding SDA low, as `Other`: a timeout.
    let r = Rgbc::new(700, 200, 210, 190);
    assert_eq!(read_after_two(ErrorKind::Other, read_tx(0, r)), (Ok(r), 1));
}

#[test]
fn a_sensor_that_only_nacks_never_starts_a_recovery() {
    // Unplugged: every attempt is answered with a NACK, which no bus clear cures.
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
    let then = vec![T::write(B, vec![0]).with_error(nack)];
    assert_eq!(
        read_after_two(nack, then),
        (Err(nb::Error::Other(SensorError::Bus(nack))), 0)
    );
}

#[test]
fn without_recovery_a_hung_bus_stays_hung() {
    let mut mock = Mock::new(&hung_tx(
        ErrorKind::Bus,
        vec![T::write(B, vec![0]).with_error(ErrorKind::Bus)],
    ));
    let recoveries = Rc::new(Cell::new(0));
    let bus = Recovering {
        mock: mock.clone(),
        recoveries: recoveries.clone(),
    };
    let mut bank = SensorBank::new(bus, Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &[0], 0);
    assert_eq!(
        bank.read(sq(0), 34),
        Err(nb::Error::Other(SensorError::Bus(ErrorKind::Bus)))
    );
    assert_eq!(recoveries.get(), 0);
    mock.done();
}

#[test]
fn each_mux_names_the_other() {
    assert_eq!((Mux::A.other(), Mux::B.other()), (Mux::B, Mux::A));
}

const EMPTY: Rgbc = Rgbc::new(1200, 450, 400, 350);
const BLACK: Rgbc = Rgbc::new(250, 90, 80, 70);
const WHITE: Rgbc = Rgbc::new(3500, 1200, 1200, 1100);

fn calibration() -> tictable_machine::classify::Calibration {
    let mut c = Calibrator::new();
    for s in Square::ALL {
        c.record(Reference::Empty, s, EMPTY);
        c.record(Reference::Black, s, BLACK);
        c.record(Reference::White, s, WHITE);
    }
    c.finish(300, Margins::DEFAULT).unwrap()
}

/// Three identical frames, faults after five frame periods, unknowns after six.
const THREE: ScanSettings = ScanSettings {
    frame_period_ms: 30,
    stable_frames: 3,
    fault_frames: 5,
    unknown_frames: 6,
};

/// Readings that differ in the last bit from frame to frame, as a live sensor's
/// do (bit-identical frames would make the sensors stuck after a few).
fn jitter(view: [Rgbc; 9], k: usize) -> [Rgbc; 9] {
    view.map(|r| Rgbc::new(r.clear + (k % 2) as u16, r.red, r.green, r.blue))
}

fn frame(view: [Rgbc; 9]) -> Vec<T> {
    ALL.iter()
        .flat_map(|&i| read_tx(i, view[i as usize]))
        .collect()
}

/// A bank and scanner with the sensors started at 0 and 4 ms; frames from 40 ms.
fn scanning(expected: Vec<T>) -> (Mock, SensorBank<Mock>, Scanner) {
    let mut all = start_tx(&ALL);
    all.extend(expected);
    let i2c = Mock::new(&all);
    let mut bank = SensorBank::new(i2c.clone(), Wiring::DEFAULT, SensorSettings::DEFAULT);
    start(&mut bank, &ALL, 0);
    (i2c, bank, Scanner::new(calibration(), THREE))
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
    for k in 0..3 {
        expected.extend(frame(jitter(board, k)));
    }
    let (mut i2c, mut bank, mut scan) = scanning(expected);
    let mut results = Vec::new();
    for t in 0..5u32 {
        results.push(scan.poll(40 + t * 30, &mut bank).ok());
        // Polling again before the frame period is a no-op.
        assert!(scan.poll(40 + t * 30 + 1, &mut bank).is_err());
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
fn a_failed_read_is_read_again_at_the_next_poll_not_a_frame_later() {
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
    let mut expected = Vec::new();
    for k in 0..3 {
        for i in ALL {
            if i == 5 && k == 2 {
                // Read 71 ms: its next sample is due 30 ms later, at the next poll.
                continue;
            }
            if i == 5 && k == 1 {
                // All three attempts of this poll fail...
                for _ in 0..3 {
                    expected.extend(sel(5));
                    expected.push(T::write_read(TCS, vec![BLOCK], vec![0; 9]).with_error(nack));
                }
            } else {
                expected.extend(read_tx(i, jitter([EMPTY; 9], k)[i as usize]));
            }
        }
        if k >= 1 {
            // ...and the next poll reads it.
            expected.extend(read_tx(5, jitter([EMPTY; 9], k)[5]));
        }
    }
    let (mut i2c, mut bank, mut scan) = scanning(expected);
    assert!(scan.poll(40, &mut bank).is_err());
    assert!(scan.poll(70, &mut bank).is_err());
    let view = scan.poll(71, &mut bank);
    assert!(view.is_err(), "two frames so far");
    assert!(
        scan.poll(100, &mut bank).is_err(),
        "square 6's sample is not due"
    );
    assert_eq!(
        scan.poll(101, &mut bank),
        Ok(tictable_machine::scanner::BoardView::EMPTY)
    );
    i2c.done();
}

#[test]
fn a_dead_sensor_becomes_a_fault_never_a_wrong_board() {
    let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
    let fail = || {
        let mut v = Vec::new();
        for _ in 0..3 {
            v.extend(sel(5));
            v.push(T::write_read(TCS, vec![BLOCK], vec![0; 9]).with_error(nack));
        }
        v
    };
    // Three frames at 40, 190, 340 ms: square 6 fails all along, each frame ends
    // 150 ms after it began with the fault.
    let mut expected = Vec::new();
    for k in 0..3 {
        for i in ALL {
            if i == 5 {
                expected.extend(fail());
            } else {
                expected.extend(read_tx(i, jitter([EMPTY; 9], k)[i as usize]));
            }
        }
        expected.extend(fail());
        expected.extend(fail());
    }
    let (mut i2c, mut bank, mut scan) = scanning(expected);
    let mut results = Vec::new();
    for k in 0..3 {
        let t = 40 + 150 * k;
        results.push(scan.poll(t, &mut bank).ok());
        results.push(scan.poll(t + 149, &mut bank).ok());
        results.push(scan.poll(t + 150, &mut bank).ok());
    }
    i2c.done();
    assert_eq!(results[..8], [None; 8]);
    let view = results[8].unwrap();
    assert_eq!(view.get(sq(5)), Sensed::Fault);
    assert_eq!(view.faults().len(), 1);
}

#[test]
fn an_unknown_square_needs_a_longer_streak() {
    let mut board = [EMPTY; 9];
    board[3] = Rgbc::new(700, 270, 240, 210); // half covered: unknown
    let expected: Vec<T> = (0..6).flat_map(|k| frame(jitter(board, k))).collect();
    let (mut i2c, mut bank, mut scan) = scanning(expected);
    let results: Vec<_> = (0..6u32)
        .map(|t| scan.poll(40 + t * 30, &mut bank).ok())
        .collect();
    i2c.done();
    assert_eq!(results[..5], [None; 5]);
    let view = results[5].unwrap();
    assert_eq!(view.get(sq(3)), Sensed::Unknown);
    assert_eq!(view.untrusted().len(), 1);
    assert!(view.faults().is_empty());
}

/// A board view (packed sets) holds exactly what was last set on each square, and
/// its sets and equality follow: random sets of every kind on every square, checked
/// against a plain array after each.
#[test]
fn a_board_view_keeps_what_each_square_shows() {
    use tictable_machine::scanner::BoardView;
    let kinds = [
        Sensed::Empty,
        Sensed::Piece(Colour::Black),
        Sensed::Piece(Colour::White),
        Sensed::Unknown,
        Sensed::Fault,
    ];
    let mut view = BoardView::EMPTY;
    let mut model = [Sensed::Empty; 9];
    let mut seed = 12_345u32;
    for _ in 0..5000 {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let (s, k) = ((seed >> 8) % 9, (seed >> 20) as usize % kinds.len());
        view.set(sq(s as u8), kinds[k]);
        model[s as usize] = kinds[k];
        let set = |f: &dyn Fn(Sensed) -> bool| -> u16 {
            (0..9).filter(|&i| f(model[i])).map(|i| 1 << i).sum()
        };
        for i in 0..9 {
            assert_eq!(view.get(sq(i)), model[i as usize], "square {i}");
        }
        for c in [Colour::Black, Colour::White] {
            assert_eq!(view.pieces(c).bits(), set(&|m| m == Sensed::Piece(c)));
        }
        let untrusted = set(&|m| matches!(m, Sensed::Unknown | Sensed::Fault));
        assert_eq!(view.untrusted().bits(), untrusted);
        assert_eq!(view.faults().bits(), set(&|m| m == Sensed::Fault));
        let mut rebuilt = BoardView::EMPTY;
        for (i, &m) in model.iter().enumerate() {
            rebuilt.set(sq(i as u8), m);
        }
        assert_eq!(rebuilt, view);
        assert_eq!(view == BoardView::EMPTY, set(&|m| m != Sensed::Empty) == 0);
    }
}
