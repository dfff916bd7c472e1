//! The waveform writer and the terminal view, without an image: the dump's
//! header, a pin sequence read back with the `vcd` crate's parser, an I2C
//! transfer's bit waveform decoded back, and a known world rendered.

use tictable::Square;
use tictable_machine::sim::world::{SimConfig, World};
use tictable_machine::Colour;
use tictable_vboard::i2c::{BusEvent, BusRecord};
use tictable_vboard::vcd::{BusWave, Change, Dump, Levels, SCL, SCOPE, SDA, SIGNALS};
use tictable_vboard::view::Snapshot;
use vcd::{Command, IdCode, Parser, TimescaleUnit, Value};

/// 100 kHz: one SCL period, ns.
const BIT_NS: u64 = 10_000;

fn dump(changes: &[Change], initial: &Levels) -> Vec<u8> {
    let mut out = vec![];
    let mut d = Dump::new(&mut out, "test", initial).expect("header");
    for &c in changes {
        d.push(c);
    }
    d.finish(0).expect("written");
    out
}

/// The header's id of each signal, by name, and the changes `(ns, signal, level)`
/// after the initial dump.
fn read(bytes: &[u8]) -> (Vec<IdCode>, Vec<(u64, usize, bool)>, Levels) {
    let mut p = Parser::new(bytes);
    let h = p.parse_header().expect("a header the parser reads");
    assert_eq!(h.timescale, Some((1, TimescaleUnit::NS)));
    let ids: Vec<IdCode> = SIGNALS
        .iter()
        .map(|s| {
            h.find_var(&[SCOPE, s])
                .unwrap_or_else(|| panic!("{s} not in the header"))
                .code
        })
        .collect();
    let (mut t, mut dumping, mut initial) = (0, false, [false; SIGNALS.len()]);
    let mut changes = vec![];
    for c in p {
        match c.expect("a command the parser reads") {
            Command::Timestamp(ts) => t = ts,
            Command::Begin(_) => dumping = true,
            Command::End(_) => dumping = false,
            Command::ChangeScalar(id, v) => {
                let i = ids.iter().position(|&x| x == id).expect("a known id");
                let level = match v {
                    Value::V1 => true,
                    Value::V0 => false,
                    other => panic!("{other:?} on {}", SIGNALS[i]),
                };
                if dumping {
                    initial[i] = level;
                } else {
                    changes.push((t, i, level));
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    (ids, changes, initial)
}

#[test]
fn the_header_lists_every_signal_once_with_its_initial_level() {
    let mut initial = [true; SIGNALS.len()];
    initial[0] = false;
    let (ids, changes, read_initial) = read(&dump(&[], &initial));
    assert_eq!(ids.len(), 23);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "one id a signal");
    let asked = "step_x dir_x step_y dir_y enable_n lift magnet lamp error done_n level_n limit_x_n limit_y_n scl sda";
    assert!(asked.split(' ').all(|n| SIGNALS.contains(&n)));
    assert!(changes.is_empty());
    assert_eq!(read_initial, initial);
}

#[test]
fn a_pin_sequence_reads_back_in_time_order_without_repeats() {
    let c = |at_ns, signal, level| Change {
        at_ns,
        signal,
        level,
    };
    // Pushed out of order (a byte's bits come after later pin changes), with a
    // change to the level a signal already has.
    let pushed = [
        c(1_000, 4, false), // ENABLE low: drivers on
        c(3_000, 0, true),  // STEP X up
        c(2_000, 1, true),  // DIR X, set up before it
        c(5_000, 0, false),
        c(5_000, 1, true), // no change: not written
        c(8_000, 14, false),
    ];
    let mut initial = [false; SIGNALS.len()];
    initial[4] = true;
    initial[14] = true;
    let (_, changes, _) = read(&dump(&pushed, &initial));
    assert_eq!(
        changes,
        vec![
            (1_000, 4, false),
            (2_000, 1, true),
            (3_000, 0, true),
            (5_000, 0, false),
            (8_000, 14, false)
        ]
    );
}

#[derive(Debug, PartialEq)]
enum Seen {
    Start,
    Byte(u8, bool),
    Stop,
}

/// A logic analyser's I2C decoder: START and STOP where SDA moves while SCL is
/// high, a bit on each SCL rising edge, nine to a byte.
fn decode(changes: &[(u64, usize, bool)]) -> Vec<Seen> {
    let (mut scl, mut sda) = (true, true);
    let (mut bits, mut n) = (0u16, 0);
    let mut out = vec![];
    for &(_, s, level) in changes {
        if s == SDA && scl {
            assert_ne!(level, sda, "a written change changes the level");
            out.push(if level { Seen::Stop } else { Seen::Start });
            (bits, n) = (0, 0);
        } else if s == SCL && level && !scl {
            bits = bits << 1 | u16::from(sda);
            n += 1;
            if n == 9 {
                out.push(Seen::Byte((bits >> 1) as u8, bits & 1 == 0));
                (bits, n) = (0, 0);
            }
        }
        if s == SCL {
            scl = level;
        } else if s == SDA {
            sda = level;
        }
    }
    out
}

fn bus(events: &[(u64, BusEvent)]) -> Vec<(u64, usize, bool)> {
    let mut wave = BusWave::default();
    let mut edges = vec![];
    for &(at_ns, event) in events {
        wave.feed(
            &BusRecord {
                at_ns,
                event,
                bit_ns: BIT_NS,
            },
            &mut edges,
        );
    }
    let (_, changes, _) = read(&dump(&edges, &[true; SIGNALS.len()]));
    changes
}

#[test]
fn an_i2c_transfer_is_drawn_as_the_peripheral_clocks_it() {
    // The colour sensor's ID register: write 0x92 to 0x29, repeated START, read
    // one byte (0x44) not acknowledged, STOP.
    let t0 = 100_000;
    let byte = 9 * BIT_NS;
    let events = [
        (t0, BusEvent::Start),
        (t0 + 1_000 + byte, BusEvent::Byte(0x29 << 1, true)),
        (t0 + 2_000 + 2 * byte, BusEvent::Byte(0x92, true)),
        (t0 + 2_000 + 2 * byte + BIT_NS, BusEvent::Start),
        (
            t0 + 4_000 + 3 * byte + BIT_NS,
            BusEvent::Byte(0x29 << 1 | 1, true),
        ),
        (t0 + 5_000 + 4 * byte + BIT_NS, BusEvent::Byte(0x44, false)),
        (t0 + 5_000 + 4 * byte + 2 * BIT_NS, BusEvent::Stop),
    ];
    let changes = bus(&events);
    assert_eq!(
        decode(&changes),
        vec![
            Seen::Start,
            Seen::Byte(0x52, true),
            Seen::Byte(0x92, true),
            Seen::Start,
            Seen::Byte(0x53, true),
            Seen::Byte(0x44, false),
            Seen::Stop
        ]
    );
    // START: SDA falls at the condition's time with SCL high, then SCL falls.
    assert_eq!(changes[0], (t0, SDA, false));
    assert_eq!(changes[1], (t0 + BIT_NS / 4, SCL, false));
    // The address byte, most significant bit first: 0x52 = 0101_0010, its first
    // bit low (SDA already low: no edge), SCL up half a period into the bit, the
    // second bit high.
    let first = t0 + 1_000;
    assert_eq!(changes[2], (first + BIT_NS / 2, SCL, true));
    assert_eq!(changes[3], (first + BIT_NS, SCL, false));
    assert_eq!(changes[4], (first + BIT_NS + BIT_NS / 4, SDA, true));
    // Its acknowledge bit: SDA low while SCL is high, ending with the byte.
    let ack_from = first + 8 * BIT_NS;
    let sda_at = |t: u64| {
        changes
            .iter()
            .rev()
            .find(|c| c.1 == SDA && c.0 <= t)
            .is_none_or(|c| c.2)
    };
    assert!(
        !sda_at(ack_from + BIT_NS / 2),
        "ACK: SDA low at the ninth clock"
    );
    // STOP: SDA rises last, with SCL high.
    let n = changes.len();
    assert_eq!(changes[n - 1], (events[6].0, SDA, true));
    assert_eq!(changes[n - 2].1, SCL);
    assert!(changes[n - 2].2);
    // Bus edges are in time order (and SDA moved while SCL was high only at
    // the START and STOP conditions: the decoder took any such move for one).
    assert!(changes.windows(2).all(|w| w[0].0 <= w[1].0));
}

#[test]
fn a_slave_holding_sda_low_holds_it_in_the_dump() {
    let mut wave = BusWave::default();
    let mut edges = vec![];
    wave.hold(5_000, true, &mut edges);
    wave.feed(
        &BusRecord {
            at_ns: 10_000,
            event: BusEvent::Stop,
            bit_ns: BIT_NS,
        },
        &mut edges,
    );
    wave.hold(50_000, false, &mut edges);
    let (_, changes, _) = read(&dump(&edges, &[true; SIGNALS.len()]));
    assert_eq!(changes, vec![(5_000, SDA, false), (50_000, SDA, true)]);
}

fn world() -> World {
    let mut w = World::new(SimConfig::standard(0.0, 0.0, 1).expect("config"));
    w.reset_pieces();
    let at = |w: &World, s: u8| w.config.pose.square_centre(Square::new(s).expect("square"));
    let (black, white) = (
        w.stored_piece(Colour::Black).expect("black"),
        w.stored_piece(Colour::White).expect("white"),
    );
    let to = at(&w, 0);
    w.hand_move(black, to, 0.0);
    let to = at(&w, 4);
    w.hand_move(white, to, 0.0);
    let stray = w.stored_piece(Colour::Black).expect("black");
    let mut to = at(&w, 8);
    to.x += 12_000; // 12 mm off square 9's centre
    w.hand_move(stray, to, 0.0);
    w.head.steps = [1_200, 455];
    w.head.lowered = true;
    w.head.magnet = true;
    w.lights[1] = true;
    w.buttons[0] = true;
    w
}

#[test]
fn the_view_renders_a_known_world() {
    let w = world();
    let log = vec![
        "    12000 ms game: Start pressed (device first)".to_string(),
        "    12345 ms lights [DeviceTurn]".to_string(),
    ];
    let s = Snapshot::of(&w, 12_345);
    let frame = s.frame("tictable-vboard: test", &log);
    let stray = s.off.first().expect("a piece off the squares");
    let expected = format!(
        "tictable-vboard: test   t = 12.345 s (virtual)

   X | 2 | 3    head (120.0, 45.5) mm, lift down, magnet on
  ---+---+---   lights  [ ] Lamp [#] DeviceTurn [ ] HumanTurn [ ] Win [ ] Draw [ ] Loss [ ] Error
   4 | O | 6    buttons Done
  ---+---+---   off the squares: X at ({:.1}, {:.1}) mm
   7 | 8 | 9

log:
  12000 ms game: Start pressed (device first)
  12345 ms lights [DeviceTurn]
",
        stray.1, stray.2
    );
    assert_eq!(frame, expected);
    assert_eq!(s.off.len(), 1);
    assert_eq!(
        s.line(),
        format!(
            "    12.345 s  X.. .O. ...  head (120.0, 45.5) mm, lift down, magnet on  lights: DeviceTurn  \
             buttons: Done  off: X at ({:.1}, {:.1}) mm",
            stray.1, stray.2
        )
    );
}
