//! Waveforms: the blue pill's pins as a Value Change Dump (IEEE 1364 §18) that
//! PulseView and GTKWave open, written with the `vcd` crate, 1 ns a unit of the
//! virtual clock.
//!
//! The outputs (STEP/DIR X and Y, ENABLE, the lift, the magnet, the seven lights)
//! are dumped at the instants the port changed them, the homing switches with
//! them (they change as the head steps), the buttons at the world's millisecond
//! the person pressed them. I2C1 is modelled byte by byte ([`crate::i2c`]), so
//! SCL and SDA are drawn from its conditions and bytes as the peripheral clocks
//! them: a START is SDA falling while SCL is high; each byte is eight data bits,
//! most significant first, and an acknowledge bit (SDA low: acknowledged), each
//! bit set on SDA while SCL is low and sampled while SCL is high, one SCL period
//! from CCR a bit (10 µs at 100 kHz); a STOP is SDA rising while SCL is high. A
//! slave holding SDA low holds it in the dump too. The buttons, the switches and
//! ENABLE are active low, as the pins see them (`_n` in their names).

use crate::i2c::{BusEvent, BusRecord};
use crate::pins::{Outputs, PinRecord};
use crate::session::{Observer, Session};
use ::vcd::{IdCode, TimescaleUnit, Value};
use std::io::{self, Write};
use tictable_machine::sim::wire::Wire;

/// The signals, in the dump's order, by their names in it.
pub const SIGNALS: [&str; 23] = [
    "step_x",
    "dir_x",
    "step_y",
    "dir_y",
    "enable_n",
    "lift",
    "magnet",
    "lamp",
    "device_turn",
    "human_turn",
    "win",
    "draw",
    "loss",
    "error",
    "done_n",
    "side_n",
    "first_square_n",
    "start_n",
    "level_n",
    "limit_x_n",
    "limit_y_n",
    "scl",
    "sda",
];

/// The index of SCL in [`SIGNALS`].
pub const SCL: usize = 21;
/// The index of SDA in [`SIGNALS`].
pub const SDA: usize = 22;
/// The index of the first button in [`SIGNALS`].
const BUTTON0: usize = 14;
/// The index of the first homing switch in [`SIGNALS`].
const LIMIT0: usize = 19;

/// The scope the signals are in.
pub const SCOPE: &str = "bluepill";

/// How long the dump holds changes back before writing them, ns: a byte's bits
/// are drawn when its acknowledge bit ends (90 µs after its first at 100 kHz),
/// and the bus model catches up with time at least every millisecond.
const HOLD_NS: u64 = 5_000_000;

/// Levels of every signal, in [`SIGNALS`] order.
pub type Levels = [bool; SIGNALS.len()];

/// A signal's new level at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// When, ns.
    pub at_ns: u64,
    /// Which, an index in [`SIGNALS`].
    pub signal: usize,
    /// The level.
    pub level: bool,
}

/// The levels of the pins but SCL and SDA (left released, high): `outputs`, the
/// homing switches (`true`: closed) and the buttons (`true`: pressed).
pub fn pin_levels(outputs: &Outputs, limits_closed: [bool; 2], buttons: [bool; 5]) -> Levels {
    let mut l = [true; SIGNALS.len()];
    l[0] = outputs.step[0];
    l[1] = outputs.dir[0];
    l[2] = outputs.step[1];
    l[3] = outputs.dir[1];
    l[4] = outputs.enable;
    l[5] = outputs.lift;
    l[6] = outputs.magnet;
    l[7..14].copy_from_slice(&outputs.lights);
    for (i, b) in buttons.iter().enumerate() {
        l[BUTTON0 + i] = !b;
    }
    for (a, c) in limits_closed.iter().enumerate() {
        l[LIMIT0 + a] = !c;
    }
    l
}

/// SCL and SDA drawn from the bus's conditions and bytes.
#[derive(Clone, Debug)]
pub struct BusWave {
    scl: bool,
    /// SDA as the master (or the slave sending a byte) drives it.
    sda: bool,
    /// A slave holds SDA low whatever is driven.
    held: bool,
    /// The last edge drawn, ns: edges never go back before it.
    cursor: u64,
}

impl Default for BusWave {
    fn default() -> BusWave {
        BusWave {
            scl: true,
            sda: true,
            held: false,
            cursor: 0,
        }
    }
}

impl BusWave {
    fn edge(&mut self, at_ns: u64, signal: usize, level: bool, out: &mut Vec<Change>) {
        let at_ns = at_ns.max(self.cursor);
        self.cursor = at_ns;
        if signal == SCL {
            self.scl = level;
        } else {
            self.sda = level;
        }
        let level = level && !(signal == SDA && self.held);
        out.push(Change {
            at_ns,
            signal,
            level,
        });
    }

    /// The edges of `r` into `out`, in time order.
    pub fn feed(&mut self, r: &BusRecord, out: &mut Vec<Change>) {
        let t = r.bit_ns.max(4);
        let q = t / 4;
        match r.event {
            BusEvent::Start => {
                let at = r.at_ns;
                if !self.scl {
                    // Repeated START: SDA released while SCL is low, SCL released.
                    self.edge(at.saturating_sub(2 * q), SDA, true, out);
                    self.edge(at.saturating_sub(q), SCL, true, out);
                }
                self.edge(at, SDA, false, out);
                self.edge(at + q, SCL, false, out);
            }
            BusEvent::Byte(b, ack) => {
                let first = r.at_ns.saturating_sub(9 * t);
                if self.scl {
                    self.edge(first, SCL, false, out);
                }
                for i in 0..9u64 {
                    let bit = if i < 8 { b >> (7 - i) & 1 == 1 } else { !ack };
                    let from = first + i * t;
                    self.edge(from + q, SDA, bit, out);
                    self.edge(from + 2 * q, SCL, true, out);
                    self.edge(from + t, SCL, false, out);
                }
            }
            BusEvent::Stop => {
                let at = r.at_ns;
                if !self.scl {
                    self.edge(at.saturating_sub(2 * q), SDA, false, out);
                    self.edge(at.saturating_sub(q), SCL, true, out);
                }
                self.edge(at, SDA, true, out);
            }
        }
    }

    /// A slave holds SDA low (`held`) or lets it go, at `at_ns`.
    pub fn hold(&mut self, at_ns: u64, held: bool, out: &mut Vec<Change>) {
        if held != self.held {
            self.held = held;
            let sda = self.sda;
            self.edge(at_ns, SDA, sda, out);
        }
    }
}

/// A dump being written: the header, the levels at time 0, then the changes in
/// time order (held back 5 ms of virtual time to sort the bus's edges in).
pub struct Dump<W: Write> {
    w: ::vcd::Writer<W>,
    ids: Vec<IdCode>,
    written: Levels,
    pending: Vec<(u64, u64, usize, bool)>,
    seq: u64,
    last_ts: Option<u64>,
    /// Changes that came after later ones were written (drawn at the last
    /// time written instead).
    pub late: u64,
    /// Changes written.
    pub changes: u64,
}

impl<W: Write> Dump<W> {
    /// Writes the header of a dump to `out`, with `comment` and every signal at
    /// its level in `initial` at time 0.
    pub fn new(out: W, comment: &str, initial: &Levels) -> io::Result<Dump<W>> {
        let mut w = ::vcd::Writer::new(out);
        w.comment(comment)?;
        w.version(concat!("tictable-vboard ", env!("CARGO_PKG_VERSION")))?;
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module(SCOPE)?;
        let ids = SIGNALS
            .iter()
            .map(|s| w.add_wire(1, s))
            .collect::<io::Result<Vec<_>>>()?;
        w.upscope()?;
        w.enddefinitions()?;
        w.timestamp(0)?;
        w.begin(::vcd::SimulationCommand::Dumpvars)?;
        for (id, &l) in ids.iter().zip(initial) {
            w.change_scalar(*id, Value::from(l))?;
        }
        w.end()?;
        Ok(Dump {
            w,
            ids,
            written: *initial,
            pending: vec![],
            seq: 0,
            last_ts: Some(0),
            late: 0,
            changes: 0,
        })
    }

    /// A change to write.
    pub fn push(&mut self, c: Change) {
        self.pending.push((c.at_ns, self.seq, c.signal, c.level));
        self.seq += 1;
    }

    /// Writes the changes up to `ns` (all of them: `u64::MAX`), in time order.
    pub fn write_until(&mut self, ns: u64) -> io::Result<()> {
        self.pending.sort_unstable_by_key(|&(t, s, _, _)| (t, s));
        let n = self.pending.partition_point(|&(t, ..)| t <= ns);
        let mut ready = std::mem::take(&mut self.pending);
        self.pending = ready.split_off(n);
        for (t, _, signal, level) in ready {
            if self.written[signal] == level {
                continue;
            }
            self.written[signal] = level;
            let last = self.last_ts.unwrap_or(0);
            if t < last {
                self.late += 1;
            }
            let t = t.max(last);
            if self.last_ts != Some(t) {
                self.w.timestamp(t)?;
                self.last_ts = Some(t);
            }
            self.w.change_scalar(self.ids[signal], Value::from(level))?;
            self.changes += 1;
        }
        Ok(())
    }

    /// Writes what is left, the end at `end_ns` at the latest, and flushes.
    pub fn finish(mut self, end_ns: u64) -> io::Result<()> {
        self.write_until(u64::MAX)?;
        if self.last_ts.is_none_or(|t| t < end_ns) {
            self.w.timestamp(end_ns)?;
        }
        self.w.flush()
    }
}

/// Records a session's pins into a [`Dump`]: an [`Observer`].
pub struct Recorder<W: Write> {
    dump: Option<Dump<W>>,
    out: Option<W>,
    comment: String,
    levels: Levels,
    buttons: [bool; 5],
    bus: BusWave,
    changes: Vec<Change>,
    now_ns: u64,
    /// The first write error (the recording stops there).
    pub error: Option<io::Error>,
}

impl<W: Write> Recorder<W> {
    /// A recorder into `out`, with `comment` in the header (say, the scenario).
    pub fn new(out: W, comment: &str) -> Recorder<W> {
        Recorder {
            dump: None,
            out: Some(out),
            comment: comment.into(),
            levels: [true; SIGNALS.len()],
            buttons: [false; 5],
            bus: BusWave::default(),
            changes: vec![],
            now_ns: 0,
            error: None,
        }
    }

    fn diff(&mut self, at_ns: u64, new: Levels) {
        for (i, (&n, o)) in new.iter().zip(self.levels.iter_mut()).enumerate() {
            if i < SCL && n != *o {
                *o = n;
                self.changes.push(Change {
                    at_ns,
                    signal: i,
                    level: n,
                });
            }
        }
    }

    fn pins(&mut self, r: &PinRecord) {
        let l = pin_levels(&r.outputs, r.limits_closed, self.buttons);
        self.diff(r.at_ns, l);
    }

    fn collect(&mut self, s: &mut Session<'_>) {
        let m = s.mcu();
        let now = m.ns();
        let pins = m.wiring.probe.as_mut().map(std::mem::take);
        let bus = m.i2c.probe.as_mut().map(std::mem::take);
        let buttons = m.world.buttons;
        let held = Wire::sda_held(&m.world);
        let limits = [0, 1].map(|a| m.world.limit_closed(a));
        let outputs = m.wiring.outputs();
        for r in pins.unwrap_or_default() {
            self.pins(&r);
        }
        let mut edges = vec![];
        for r in bus.unwrap_or_default() {
            self.bus.feed(&r, &mut edges);
        }
        self.bus.hold(now, held, &mut edges);
        self.changes.extend(edges);
        if buttons != self.buttons {
            self.buttons = buttons;
            self.diff(now, pin_levels(&outputs, limits, buttons));
        }
        self.now_ns = now;
    }

    fn write(&mut self, until: u64) {
        let Some(d) = &mut self.dump else {
            return;
        };
        for c in self.changes.drain(..) {
            d.push(c);
        }
        if let Err(e) = d.write_until(until) {
            self.error = Some(e);
            self.dump = None;
        }
    }

    /// Writes what is left; the changes written and, of them, the late ones.
    pub fn finish(mut self) -> io::Result<(u64, u64)> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.write(u64::MAX);
        let d = self
            .dump
            .take()
            .ok_or_else(|| io::Error::other("the recording never started"))?;
        let (changes, late) = (d.changes, d.late);
        d.finish(self.now_ns)?;
        Ok((changes, late))
    }
}

impl<W: Write> Observer for Recorder<W> {
    fn start(&mut self, s: &mut Session<'_>) {
        let m = s.mcu();
        m.wiring.probe = Some(vec![]);
        m.i2c.probe = Some(vec![]);
        self.buttons = m.world.buttons;
        let limits = [0, 1].map(|a| m.world.limit_closed(a));
        self.levels = pin_levels(&m.wiring.outputs(), limits, self.buttons);
        self.now_ns = m.ns();
        let Some(out) = self.out.take() else {
            return;
        };
        match Dump::new(out, &self.comment, &self.levels) {
            Ok(d) => self.dump = Some(d),
            Err(e) => self.error = Some(e),
        }
    }

    fn tick(&mut self, s: &mut Session<'_>) {
        self.collect(s);
        let until = self.now_ns.saturating_sub(HOLD_NS);
        self.write(until);
    }
}
