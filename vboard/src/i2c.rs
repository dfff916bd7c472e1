//! I2C1 of the STM32F103, the "v1" peripheral, as a master (RM0008 §26.3.3,
//! §26.6; errata ES096 §2.13), timed byte by byte from CCR and the APB1 clock:
//! START (SB, cleared by reading SR1 then writing DR), the address byte (ADDR,
//! cleared by reading SR1 then SR2; AF on a NACK; ARLO when a slave holds SDA low),
//! transmission (TXE, BTF), reception (RXNE, BTF; ACK sampled at each byte's
//! acknowledge bit, or with POS for the next byte), STOP and repeated START after
//! the byte under way, BUSY while a transfer or a slave holds the bus, and the
//! errata's locked BUSY after glitches on the lines. The slaves are the world's,
//! on the simulator's byte-level [`Wire`].

use tictable::Square;
use tictable_machine::sensors::SENSOR_ADDRESS;
use tictable_machine::sim::wire::{Addressed, Wire, WireFault, BYTE_CLOCKS};
use tictable_machine::sim::world::World;

/// I2C1's base address.
pub const BASE: u32 = 0x4000_5400;

/// CR1 bits.
pub mod cr1 {
    /// Peripheral enable.
    pub const PE: u16 = 1 << 0;
    /// START generation.
    pub const START: u16 = 1 << 8;
    /// STOP generation.
    pub const STOP: u16 = 1 << 9;
    /// Acknowledge enable.
    pub const ACK: u16 = 1 << 10;
    /// ACK applies to the next byte.
    pub const POS: u16 = 1 << 11;
    /// Software reset.
    pub const SWRST: u16 = 1 << 15;
}

/// SR1 bits.
pub mod sr1 {
    /// START generated.
    pub const SB: u16 = 1 << 0;
    /// Address sent and acknowledged.
    pub const ADDR: u16 = 1 << 1;
    /// Byte transfer finished.
    pub const BTF: u16 = 1 << 2;
    /// Data register not empty (receiving).
    pub const RXNE: u16 = 1 << 6;
    /// Data register empty (transmitting).
    pub const TXE: u16 = 1 << 7;
    /// Bus error.
    pub const BERR: u16 = 1 << 8;
    /// Arbitration lost.
    pub const ARLO: u16 = 1 << 9;
    /// Acknowledge failure.
    pub const AF: u16 = 1 << 10;
    /// The error flags, cleared by writing 0.
    pub const ERRORS: u16 = 0xDF00;
}

/// How long a slave stretching SCL ([`WireFault::Stretch`]) holds it, ns: longer
/// than any master here waits for a flag; then it lets go without acknowledging.
pub const STRETCH_NS: u64 = 5_000_000;

/// The line sequence of ES096 §2.8.7's workaround for a locked BUSY (the pins as
/// open-drain GPIO outputs, PE clear), as (SCL, SDA) before and after each
/// change: SDA low while SCL is high, SCL low, SCL high, SDA high while SCL is
/// high (a START and a STOP the analog filter sees). Then SWRST (or an RCC reset)
/// clears BUSY.
pub const UNLOCK_STEPS: [((bool, bool), (bool, bool)); 4] = [
    ((true, true), (true, false)),
    ((true, false), (false, false)),
    ((false, false), (true, false)),
    ((true, false), (true, true)),
];

/// The time the bus is busy: each transaction from the master's START request to
/// its STOP on the bus (the master's waits for each flag included, a repeated START
/// inside), and its sum over each scan of the nine sensors: the transactions from
/// the end of the last scan until every sensor has been addressed for a read (the
/// multiplexer selects and the writes of the command byte are part of it).
#[derive(Clone, Debug, Default)]
pub struct BusTime {
    /// All transactions so far, ns.
    pub busy_ns: u64,
    /// Each complete scan's bus time, ns.
    pub scans_ns: Vec<u64>,
    /// The open transaction's START request, ns.
    since: Option<u64>,
    /// The sensors read in the scan under way (bit `i`: square index `i`).
    read: u16,
    /// The scan under way's bus time so far, ns.
    scan_ns: u64,
    /// The latest time the bus was run to, ns (when a reset ends a transaction).
    seen_ns: u64,
}

impl BusTime {
    /// Every sensor read.
    const ALL: u16 = (1 << 9) - 1;

    /// A START was asked for at `now` (a transaction opens unless one is).
    fn start(&mut self, now: u64) {
        self.since.get_or_insert(now);
    }

    /// The sensors `read` were addressed for a read.
    fn sensors_read(&mut self, read: impl Iterator<Item = Square>) {
        for s in read {
            self.read |= 1 << s.index();
        }
    }

    /// The transaction ended at `now` (a STOP, a reset, a lost arbitration): its
    /// time counts; a scan ends with it once every sensor was read.
    fn end(&mut self, now: u64) {
        if let Some(t) = self.since.take() {
            let d = now.saturating_sub(t);
            self.busy_ns += d;
            self.scan_ns += d;
        }
        if self.read == Self::ALL {
            self.scans_ns.push(std::mem::take(&mut self.scan_ns));
            self.read = 0;
        }
    }
}

/// What the shift register is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shift {
    Idle,
    /// Sending a byte.
    Sending,
    /// Receiving a byte; `Some(ack)`: its acknowledge was decided at its start
    /// (POS set).
    Receiving(Option<bool>),
    /// Holds a received byte, acknowledged or not, while DR is full (BTF: SCL
    /// stretched).
    Holding(u8, bool),
}

/// An event of the bus, due at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Started,
    Addressed(u8),
    /// The stretching slave lets go of SCL without acknowledging.
    Unstretched,
    Sent(u8),
    Received,
    Stopped,
}

/// I2C1.
#[derive(Clone, Debug)]
pub struct I2c {
    cr1: u16,
    cr2: u16,
    oar1: u16,
    oar2: u16,
    ccr: u16,
    trise: u16,
    sr1: u16,
    msl: bool,
    tra: bool,
    /// ES096 §2.8.7: BUSY locked by a glitch; a
    /// peripheral reset (RCC or SWRST) clears it only after the erratum's line
    /// sequence ([`UNLOCK_STEPS`]) has reset the analog filter.
    busy_lock: bool,
    /// How far the erratum's line sequence has come (`UNLOCK_STEPS.len()`: done).
    unlock: usize,
    /// SCL and SDA as the GPIO last drove them.
    gpio_lines: (bool, bool),
    /// SR1 was read since the last DR or SR2 access (the clearing sequences).
    sr1_read: bool,
    dr: Option<u8>,
    shift: Shift,
    event: Option<(u64, Event)>,
    start_req: bool,
    stop_req: bool,
    pclk1_hz: u64,
    wire: Wire,
    /// Bytes clocked (address bytes included).
    pub bytes: u64,
    /// Peripheral resets (RCC or SWRST).
    pub resets: u64,
    /// SCL clocks driven as a GPIO (bus recovery).
    pub recovery_clocks: u64,
    /// STOPs and STARTs that found a slave holding SDA because this master had
    /// acknowledged the last byte it read (no fault injected: a master's bug).
    pub master_hangs: u64,
    /// Resets (or PE cleared) in the middle of a byte: a slave left mid-byte.
    pub resets_mid_byte: u64,
    /// Bus recoveries seen (the pins given to the GPIO and back).
    pub recoveries: u64,
    /// Recoveries after which a slave was still out of step: the recovery did
    /// not free it in one call.
    pub recoveries_left_hung: u64,
    /// Bytes the master read wrong (ES096, "wrong data read into data
    /// register"): a STOP condition generated while a received byte waited in
    /// the shift register behind a full DR (DataN-1 not read before the STOP of
    /// the 2-byte or N-byte closing sequence) shifts that byte one bit left. The
    /// workaround (AN2824): interrupts masked between STOP programming and the
    /// read of DataN-1.
    pub wrong_reads: u64,
    /// An arbitration-lost storm from..until (ns): every address byte sent in it
    /// loses arbitration (another master, or noise on SDA, wins a bit; RM0008
    /// §26.3.3: ARLO, the peripheral drops to slave mode and releases the lines;
    /// the bus stays free). `None`: no storm.
    pub arlo_storm: Option<(u64, u64)>,
    /// Arbitrations lost in the storm, and bus recoveries ended inside it.
    pub storm_arlo: u64,
    /// See [`I2c::storm_arlo`].
    pub storm_recoveries: u64,
    /// SCL as the GPIO last drove it.
    wire_scl: bool,
    /// What the bus did, when a watcher asked (`Some`): the waveform's source.
    pub probe: Option<Vec<BusRecord>>,
    /// The time the bus was busy, and per scan.
    pub time: BusTime,
}

/// A condition or a byte on the bus, for a watcher (a waveform).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusEvent {
    /// A START (or repeated START) condition.
    Start,
    /// A byte and its acknowledge bit ended (`true`: acknowledged, SDA low).
    Byte(u8, bool),
    /// A STOP condition.
    Stop,
}

/// A [`BusEvent`] at its time, with the SCL period then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusRecord {
    /// When the condition was made or the byte's acknowledge bit ended, ns.
    pub at_ns: u64,
    /// What happened.
    pub event: BusEvent,
    /// One SCL period, ns.
    pub bit_ns: u64,
}

impl I2c {
    /// I2C1 after reset, on the bus `wire`, its APB1 clock at `pclk1_hz`.
    pub fn new(wire: Wire, pclk1_hz: u64) -> I2c {
        I2c {
            cr1: 0,
            cr2: 0,
            oar1: 0,
            oar2: 0,
            ccr: 0,
            trise: 2,
            sr1: 0,
            msl: false,
            tra: false,
            busy_lock: false,
            unlock: 0,
            gpio_lines: (true, true),
            sr1_read: false,
            dr: None,
            shift: Shift::Idle,
            event: None,
            start_req: false,
            stop_req: false,
            pclk1_hz,
            wire,
            bytes: 0,
            resets: 0,
            recovery_clocks: 0,
            master_hangs: 0,
            resets_mid_byte: 0,
            recoveries: 0,
            recoveries_left_hung: 0,
            wrong_reads: 0,
            arlo_storm: None,
            storm_arlo: 0,
            storm_recoveries: 0,
            wire_scl: true,
            probe: None,
            time: BusTime::default(),
        }
    }

    fn record(&mut self, at_ns: u64, event: BusEvent) {
        let bit_ns = self.bit_ns();
        if let Some(p) = &mut self.probe {
            p.push(BusRecord {
                at_ns,
                event,
                bit_ns,
            });
        }
    }

    /// The APB1 clock changed.
    pub fn set_pclk1(&mut self, hz: u64) {
        self.pclk1_hz = hz.max(1);
    }

    /// The peripheral is reset (RCC_APB1RSTR, or CR1.SWRST): every register to its
    /// reset value, its lines released where they were (mid-byte: the slave is
    /// left mid-byte, no STOP).
    pub fn reset(&mut self, w: &mut World, now: u64) {
        self.release_lines(w, now);
        self.wire.lines_released(w);
        self.time.end(self.time.seen_ns);
        let (wire, pclk1, bytes, resets, time) = (
            self.wire.clone(),
            self.pclk1_hz,
            self.bytes,
            self.resets + 1,
            std::mem::take(&mut self.time),
        );
        let probe = self.probe.take();
        // The locked BUSY survives a reset unless the erratum's sequence ran
        // (with PE clear) since it locked.
        let lock = self.busy_lock && self.unlock < UNLOCK_STEPS.len();
        let (clocks, hangs, mid, recoveries, left) = (
            self.recovery_clocks,
            self.master_hangs,
            self.resets_mid_byte,
            self.recoveries,
            self.recoveries_left_hung,
        );
        let (wrong, storm) = (
            self.wrong_reads,
            (self.arlo_storm, self.storm_arlo, self.storm_recoveries),
        );
        *self = I2c::new(wire, pclk1);
        self.bytes = bytes;
        self.resets = resets;
        // The run's counters outlive a peripheral reset (the firmware resets
        // I2C1 around a bus recovery).
        self.recovery_clocks = clocks;
        self.master_hangs = hangs;
        self.resets_mid_byte = mid;
        self.recoveries = recoveries;
        self.recoveries_left_hung = left;
        self.wrong_reads = wrong;
        (self.arlo_storm, self.storm_arlo, self.storm_recoveries) = storm;
        self.probe = probe;
        self.time = time;
        self.busy_lock = lock;
    }

    /// One SCL period, ns: standard mode, Thigh = Tlow = CCR × TPCLK1 (RM0008
    /// §26.6.8).
    fn bit_ns(&self) -> u64 {
        2 * u64::from((self.ccr & 0xFFF).max(4)) * 1_000_000_000 / self.pclk1_hz
    }

    /// A byte and its acknowledge bit, ns.
    fn byte_ns(&self) -> u64 {
        BYTE_CLOCKS * self.bit_ns()
    }

    fn schedule(&mut self, now: u64, after: u64, e: Event) {
        self.event = Some((now + after, e));
    }

    /// When the next flag changes, ns.
    pub fn next_event(&self) -> Option<u64> {
        self.event.map(|(t, _)| t)
    }

    /// Whether the bus is busy as SR2.BUSY says.
    fn busy(&self, w: &World) -> bool {
        self.msl || self.busy_lock || Wire::sda_held(w) || self.event.is_some()
    }

    /// The level the peripheral leaves on SDA (PB7): low while a slave holds it.
    pub fn sda(&self, w: &World) -> bool {
        !Wire::sda_held(w)
    }

    /// The lines glitched while the pins were not the peripheral's (ES096 §2.13.7:
    /// the analog filter may leave BUSY locked); only a reset clears it.
    pub fn lines_glitched(&mut self) {
        if self.cr1 & cr1::PE != 0 {
            self.busy_lock = true;
            self.unlock = 0;
        }
    }

    /// The erratum's sequence follows the lines driven as GPIOs with PE clear:
    /// each step must be the next of [`UNLOCK_STEPS`] (else it starts again).
    fn follow_unlock(&mut self, lines: (bool, bool)) {
        if self.cr1 & cr1::PE != 0 || lines == self.gpio_lines {
            return;
        }
        let n = UNLOCK_STEPS.len();
        if self.unlock < n {
            self.unlock = if UNLOCK_STEPS[self.unlock] == (self.gpio_lines, lines) {
                self.unlock + 1
            } else {
                usize::from(UNLOCK_STEPS[0] == (self.gpio_lines, lines))
            };
        }
        self.gpio_lines = lines;
    }

    /// The master's lines as it stops driving them (a reset, PE cleared): a STOP
    /// only between bytes; in the middle of one (its shift register busy) they are
    /// released where the byte was, and the slave is left mid-byte.
    fn release_lines(&mut self, w: &mut World, now: u64) {
        if !self.msl {
            return;
        }
        let mid = match (self.shift, self.event) {
            (Shift::Sending, Some((t, _))) => Some((false, t)),
            (Shift::Receiving(_), Some((t, _))) => Some((true, t)),
            _ => None,
        };
        match mid {
            Some((reads, end)) => {
                let left = end.saturating_sub(now);
                let bit = BYTE_CLOCKS.saturating_sub(left.div_ceil(self.bit_ns().max(1)));
                self.resets_mid_byte += 1;
                self.wire.master_reset_mid_byte(w, reads, bit.min(8) as u8);
            }
            None => {
                self.wire.stop(w);
            }
        }
    }

    /// The master drives SCL and SDA as GPIOs (bus recovery; `true`: released).
    pub fn set_lines(&mut self, w: &mut World, scl: bool, sda: bool) {
        self.recovery_clocks += u64::from(scl && !self.wire_scl);
        self.wire_scl = scl;
        self.follow_unlock((scl, sda));
        self.wire.set_lines(w, scl, sda);
    }

    /// The pins went back to the peripheral after a recovery: a slave still out
    /// of step (mid-byte, even one not driving SDA now) was not freed by it.
    pub fn recovery_ended(&mut self, w: &mut World) {
        self.wire.lines_released(w);
        self.wire_scl = true;
        self.gpio_lines = (true, true);
        self.recoveries += 1;
        self.recoveries_left_hung += u64::from(w.bus_hung.is_some());
        let now = self.time.seen_ns;
        self.storm_recoveries +=
            u64::from(self.arlo_storm.is_some_and(|(a, b)| (a..b).contains(&now)));
    }

    /// Runs the bus up to `now`.
    pub fn advance(&mut self, now: u64, w: &mut World) {
        self.time.seen_ns = self.time.seen_ns.max(now);
        while let Some((t, e)) = self.event {
            if t > now {
                break;
            }
            self.event = None;
            self.on(e, t, w);
        }
    }

    /// A START can be made now (the bus is free, or we are its master).
    fn try_start(&mut self, now: u64, w: &World) {
        if self.msl || !(self.busy_lock || Wire::sda_held(w)) {
            self.start_req = false;
            self.schedule(now, self.bit_ns(), Event::Started);
        } else {
            self.start_req = true;
        }
    }

    fn on(&mut self, e: Event, now: u64, w: &mut World) {
        match e {
            Event::Started => {
                let held = Wire::sda_held(w);
                let started = self.wire.start(w);
                self.master_hangs += u64::from(!held && Wire::sda_held(w));
                if started {
                    self.record(now, BusEvent::Start);
                    self.sr1 |= sr1::SB;
                    self.msl = true;
                    self.cr1 &= !cr1::START;
                    self.shift = Shift::Idle;
                    self.sr1 &= !(sr1::TXE | sr1::BTF);
                } else {
                    // A slave holds SDA low: the START waits for a free bus.
                    self.msl = false;
                    self.start_req = true;
                }
            }
            Event::Addressed(_) if self.arlo_storm.is_some_and(|(a, b)| (a..b).contains(&now)) => {
                // Lost in the storm: the winner's transfer ends with its STOP; the
                // lines are free again.
                self.bytes += 1;
                self.storm_arlo += 1;
                self.sr1 |= sr1::ARLO;
                self.msl = false;
                self.tra = false;
                self.wire.stop(w);
                self.time.end(now);
            }
            Event::Addressed(byte) => {
                self.bytes += 1;
                let read = byte & 1 != 0;
                let answer = self.wire.address(w, byte >> 1, read);
                self.record(now, BusEvent::Byte(byte, answer == Addressed::Ack));
                match answer {
                    Addressed::Ack => {
                        self.sr1 |= sr1::ADDR;
                        self.tra = !read;
                        if read && byte >> 1 == SENSOR_ADDRESS {
                            self.time.sensors_read(self.wire.selected(w));
                        }
                    }
                    Addressed::Nack | Addressed::Fault(WireFault::Nack) => self.sr1 |= sr1::AF,
                    Addressed::Fault(WireFault::Stretch) => {
                        self.schedule(now, STRETCH_NS, Event::Unstretched)
                    }
                    Addressed::Fault(WireFault::Hang) => {
                        // The slave's 0 beat our 1: arbitration lost, the master
                        // drops to slave mode; SDA stays low (BUSY).
                        self.sr1 |= sr1::ARLO;
                        self.msl = false;
                        self.tra = false;
                        self.time.end(now);
                    }
                }
            }
            Event::Unstretched => self.sr1 |= sr1::AF,
            Event::Sent(b) => {
                self.bytes += 1;
                self.shift = Shift::Idle;
                let acked = self.wire.write(w, b);
                self.record(now, BusEvent::Byte(b, acked));
                if !acked {
                    self.sr1 |= sr1::AF;
                    return;
                }
                if let Some(next) = self.dr.take() {
                    self.send(now, next);
                } else if self.stop_req {
                    self.schedule(now, self.bit_ns(), Event::Stopped);
                } else if self.start_req {
                    self.try_start(now, w);
                } else {
                    self.sr1 |= sr1::BTF;
                }
            }
            Event::Received => {
                self.bytes += 1;
                let Shift::Receiving(decided) = self.shift else {
                    return;
                };
                let ack = decided.unwrap_or(self.cr1 & cr1::ACK != 0);
                let b = self.wire.read(w, ack);
                self.record(now, BusEvent::Byte(b, ack));
                if self.dr.is_none() {
                    self.dr = Some(b);
                    self.sr1 |= sr1::RXNE;
                    self.shift = Shift::Idle;
                    self.after_byte(now, ack, w);
                } else {
                    self.shift = Shift::Holding(b, ack);
                    self.sr1 |= sr1::BTF;
                    if self.stop_req {
                        self.schedule(now, self.bit_ns(), Event::Stopped);
                    }
                }
            }
            Event::Stopped => {
                if let Shift::Holding(b, acked) = self.shift {
                    // ES096: DataN-1 still in DR at the STOP, DataN corrupted.
                    self.shift = Shift::Holding(b << 1, acked);
                    self.wrong_reads += 1;
                }
                let held = Wire::sda_held(w);
                self.record(now, BusEvent::Stop);
                self.wire.stop(w);
                self.time.end(now);
                self.master_hangs += u64::from(!held && Wire::sda_held(w));
                self.stop_req = false;
                self.cr1 &= !cr1::STOP;
                self.msl = false;
                self.tra = false;
                self.sr1 &= !(sr1::TXE | sr1::BTF);
                if self.start_req {
                    self.time.start(now);
                    self.try_start(now, w);
                }
            }
        }
    }

    /// After a received byte reached DR: a STOP or START asked for, or the next
    /// byte when this one was acknowledged.
    fn after_byte(&mut self, now: u64, acked: bool, w: &World) {
        if self.stop_req {
            self.schedule(now, self.bit_ns(), Event::Stopped);
        } else if self.start_req {
            self.try_start(now, w);
        } else if acked {
            self.receive(now);
        }
    }

    fn send(&mut self, now: u64, b: u8) {
        self.shift = Shift::Sending;
        self.sr1 |= sr1::TXE;
        self.schedule(now, self.byte_ns(), Event::Sent(b));
    }

    fn receive(&mut self, now: u64) {
        let decided = (self.cr1 & cr1::POS != 0).then_some(self.cr1 & cr1::ACK != 0);
        self.shift = Shift::Receiving(decided);
        self.schedule(now, self.byte_ns(), Event::Received);
    }

    /// Whether the peripheral is a master receiving (MSL set, TRA clear).
    pub fn master_receiving(&self) -> bool {
        self.msl && !self.tra
    }

    /// Reads a register; `None`: no such register.
    pub fn read(&mut self, offset: u32, now: u64, w: &mut World) -> Option<u32> {
        self.advance(now, w);
        let v = match offset {
            0x00 => self.cr1,
            0x04 => self.cr2,
            0x08 => self.oar1,
            0x0C => self.oar2,
            0x10 => {
                let v = self.dr.take().unwrap_or(0);
                self.sr1 &= !sr1::RXNE;
                if core::mem::take(&mut self.sr1_read) {
                    self.sr1 &= !sr1::BTF;
                }
                if let Shift::Holding(b, acked) = self.shift {
                    self.dr = Some(b);
                    self.sr1 = (self.sr1 & !sr1::BTF) | sr1::RXNE;
                    self.shift = Shift::Idle;
                    // SCL runs again: the byte's acknowledge was given already.
                    if self.msl {
                        self.after_byte(now, acked, w);
                    }
                }
                u16::from(v)
            }
            0x14 => {
                self.sr1_read = true;
                self.sr1
            }
            0x18 => {
                let v =
                    u16::from(self.msl) | u16::from(self.busy(w)) << 1 | u16::from(self.tra) << 2;
                if core::mem::take(&mut self.sr1_read) && self.sr1 & sr1::ADDR != 0 {
                    self.sr1 &= !sr1::ADDR;
                    if self.tra {
                        self.sr1 |= sr1::TXE;
                    } else {
                        self.receive(now);
                    }
                }
                v
            }
            0x1C => self.ccr,
            0x20 => self.trise,
            _ => return None,
        };
        Some(u32::from(v))
    }

    /// Writes a register; `None`: no such register.
    pub fn write(&mut self, offset: u32, value: u32, now: u64, w: &mut World) -> Option<()> {
        self.advance(now, w);
        let v = value as u16;
        match offset {
            0x00 => {
                if v & cr1::SWRST != 0 {
                    self.reset(w, now);
                    self.cr1 = cr1::SWRST;
                    return Some(());
                }
                let old = self.cr1;
                if v & cr1::PE == 0 {
                    self.release_lines(w, now);
                    self.time.end(now);
                    self.msl = false;
                    self.event = None;
                    self.shift = Shift::Idle;
                    self.sr1 = 0;
                    self.cr1 = v & !(cr1::START | cr1::STOP);
                    return Some(());
                }
                self.cr1 = v;
                if v & cr1::START != 0 && old & cr1::START == 0 {
                    self.time.start(now);
                    let busy_shift = matches!(self.shift, Shift::Sending | Shift::Receiving(_))
                        || self.dr.is_some() && self.tra;
                    if self.msl && busy_shift {
                        self.start_req = true;
                    } else if self.event.is_none() {
                        self.try_start(now, w);
                    } else {
                        self.start_req = true;
                    }
                }
                if v & cr1::STOP != 0 && old & cr1::STOP == 0 {
                    let busy_shift = matches!(self.shift, Shift::Sending | Shift::Receiving(_))
                        || self.dr.is_some() && self.tra;
                    if !self.msl {
                        // Not master: STOP only releases the lines.
                        self.cr1 &= !cr1::STOP;
                    } else if busy_shift {
                        self.stop_req = true;
                    } else {
                        self.schedule(now, self.bit_ns(), Event::Stopped);
                    }
                }
            }
            0x04 => self.cr2 = v & 0x1F3F,
            0x08 => self.oar1 = v,
            0x0C => self.oar2 = v,
            0x10 => {
                let b = v as u8;
                let sb = self.sr1 & sr1::SB != 0 && core::mem::take(&mut self.sr1_read);
                if sb {
                    self.sr1 &= !sr1::SB;
                    self.schedule(now, self.byte_ns(), Event::Addressed(b));
                } else if self.msl && self.tra && self.sr1 & sr1::ADDR == 0 {
                    self.sr1 &= !sr1::BTF;
                    if self.shift == Shift::Idle && self.event.is_none() {
                        self.send(now, b);
                    } else {
                        self.dr = Some(b);
                        self.sr1 &= !sr1::TXE;
                    }
                }
            }
            0x14 => self.sr1 &= v | !sr1::ERRORS,
            0x18 => {}
            0x1C => self.ccr = v,
            0x20 => self.trise = v & 0x3F,
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_machine::sensors::Wiring;
    use tictable_machine::sim::world::SimConfig;

    const PCLK1: u64 = 36_000_000;

    struct Bench {
        i2c: I2c,
        w: World,
        now: u64,
    }

    impl Bench {
        fn new() -> Bench {
            let mut b = Bench {
                i2c: I2c::new(Wire::new(Wiring::DEFAULT), PCLK1),
                w: World::new(SimConfig::standard(0.0, 0.0, 1).unwrap()),
                now: 0,
            };
            b.wr(0x04, 36);
            b.wr(0x1C, 180);
            b.wr(0x20, 37);
            b.wr(0x00, u32::from(cr1::PE));
            b
        }
        fn rd(&mut self, o: u32) -> u16 {
            self.i2c.read(o, self.now, &mut self.w).unwrap() as u16
        }
        fn wr(&mut self, o: u32, v: u32) {
            self.i2c.write(o, v, self.now, &mut self.w).unwrap();
        }
        fn cr1(&mut self, set: u16, clear: u16) {
            let v = self.rd(0) & !clear | set;
            self.wr(0, u32::from(v));
        }
        /// Polls SR1 until `flag` (or an error), at most 10 ms; whether it came.
        fn wait(&mut self, flag: u16) -> bool {
            for _ in 0..10_000 {
                let s = self.rd(0x14);
                if s & flag != 0 {
                    return true;
                }
                if s & (sr1::AF | sr1::ARLO) != 0 {
                    return false;
                }
                self.now += 1_000;
            }
            false
        }
        fn address(&mut self, byte: u8) -> bool {
            self.cr1(cr1::START, 0);
            assert!(self.wait(sr1::SB), "SB");
            self.wr(0x10, u32::from(byte));
            self.wait(sr1::ADDR)
        }
        fn clear_addr(&mut self) {
            self.rd(0x14);
            self.rd(0x18);
        }
        /// Writes `bytes` to `a7`, the firmware's way.
        fn write(&mut self, a7: u8, bytes: &[u8], end: u16) -> bool {
            if !self.address(a7 << 1) {
                return false;
            }
            self.clear_addr();
            for &b in bytes {
                assert!(self.wait(sr1::TXE));
                self.wr(0x10, u32::from(b));
            }
            assert!(self.wait(sr1::BTF));
            self.cr1(end, 0);
            true
        }
        /// Reads `n` (> 2) bytes the firmware's way.
        fn read_n(&mut self, a7: u8, n: usize) -> Vec<u8> {
            self.read_n_late(a7, n, 0)
        }
        /// As `read_n`, DataN-1 read `late` ns after STOP is asked for.
        fn read_n_late(&mut self, a7: u8, n: usize, late: u64) -> Vec<u8> {
            assert!(self.address(a7 << 1 | 1));
            self.cr1(cr1::ACK, cr1::POS);
            self.clear_addr();
            let mut out = vec![];
            for _ in 0..n - 3 {
                assert!(self.wait(sr1::RXNE));
                out.push(self.rd(0x10) as u8);
            }
            assert!(self.wait(sr1::BTF));
            self.cr1(0, cr1::ACK);
            out.push(self.rd(0x10) as u8);
            self.cr1(cr1::STOP, 0);
            self.now += late;
            out.push(self.rd(0x10) as u8);
            assert!(self.wait(sr1::RXNE));
            out.push(self.rd(0x10) as u8);
            out
        }
        fn idle(&mut self) -> bool {
            for _ in 0..100 {
                self.now += 10_000;
                if self.rd(0x18) & 2 == 0 {
                    return true;
                }
            }
            false
        }
    }

    #[test]
    fn a_byte_takes_90_us_at_100_khz() {
        let b = Bench::new();
        assert_eq!(b.i2c.byte_ns(), 90_000);
        // What the host bus charges a byte.
        assert_eq!(b.i2c.byte_ns(), tictable_machine::sim::wire::BYTE_US * 1000);
    }

    #[test]
    fn a_write_then_a_block_read_with_the_last_byte_nacked_leaves_the_bus_free() {
        let mut b = Bench::new();
        assert!(b.write(0x70, &[1 << 3], cr1::STOP));
        assert!(b.idle());
        assert_eq!(b.w.mux, [1 << 3, 0]);
        // ID (0x12) and STATUS (0x13) .. auto-increment from 0x12: 4 bytes.
        assert!(b.write(0x29, &[0xA0 | 0x12], cr1::START));
        let got = b.read_n(0x29, 4);
        assert_eq!(got[0], 0x44);
        assert!(b.idle(), "STOP made, bus free");
        assert_eq!(b.i2c.master_hangs, 0);
        assert!(!Wire::sda_held(&b.w));
        assert_eq!(b.i2c.bytes, 2 + 2 + 1 + 4);
    }

    #[test]
    fn data_n_minus_1_read_after_the_stop_corrupts_data_n() {
        let mut b = Bench::new();
        let mut read = |late| {
            assert!(b.write(0x70, &[1 << 3], cr1::STOP));
            assert!(b.idle());
            assert!(b.write(0x29, &[0xA0 | 0x12], cr1::START));
            let got = b.read_n_late(0x29, 4, late);
            assert!(b.idle());
            (got, b.i2c.wrong_reads)
        };
        let (good, wrong) = read(0);
        assert_eq!(wrong, 0);
        // Two byte times late: the STOP condition came before the read.
        let (late, wrong) = read(200_000);
        assert_eq!(wrong, 1);
        assert_eq!(late[..3], good[..3]);
        assert_eq!(late[3], good[3] << 1, "DataN shifted one bit left (ES096)");
    }

    #[test]
    fn a_last_byte_acknowledged_hangs_the_bus() {
        let mut b = Bench::new();
        assert!(b.write(0x70, &[1 << 3], cr1::STOP));
        assert!(b.idle());
        assert!(b.write(0x29, &[0x80 | 0x12], cr1::START));
        // One byte, but ACK left on (the NACK forgotten), then STOP.
        assert!(b.address(0x29 << 1 | 1));
        b.cr1(cr1::ACK, cr1::POS);
        b.clear_addr();
        b.cr1(cr1::STOP, 0);
        assert!(b.wait(sr1::RXNE));
        assert_eq!(b.rd(0x10), 0x44);
        b.now += 1_000_000;
        b.rd(0x18);
        assert!(Wire::sda_held(&b.w), "the slave sends on: SDA low");
        assert_eq!(b.i2c.master_hangs, 1);
        assert!(!b.idle(), "BUSY for good");
        // A START never completes now.
        b.cr1(cr1::START, 0);
        assert!(!b.wait(sr1::SB));
    }

    #[test]
    fn two_byte_read_with_pos_nacks_the_second() {
        let mut b = Bench::new();
        assert!(b.address(0x70 << 1 | 1));
        b.cr1(cr1::POS | cr1::ACK, 0);
        b.clear_addr();
        b.cr1(0, cr1::ACK);
        assert!(b.wait(sr1::BTF));
        b.cr1(cr1::STOP, 0);
        assert_eq!(b.rd(0x10), 0);
        assert_eq!(b.rd(0x10), 0);
        assert!(b.idle());
        assert!(!Wire::sda_held(&b.w));
    }

    #[test]
    fn a_scan_of_the_nine_sensors_is_timed_from_start_to_stop() {
        let mut b = Bench::new();
        let wiring = Wiring::DEFAULT;
        for (i, &square) in Square::ALL.iter().enumerate() {
            assert!(b.i2c.time.scans_ns.is_empty(), "no scan before the ninth");
            // As `SensorBank` reads a square: the other multiplexer off, this
            // one's channel on, STATUS and the four channels in one block.
            let ch = wiring.channel(square);
            for (mux, mask) in [(ch.mux.other(), 0), (ch.mux, 1 << ch.channel)] {
                assert!(b.write(mux.address(), &[mask], cr1::STOP));
                assert!(b.idle());
            }
            assert!(b.write(0x29, &[0xA0 | 0x13], cr1::START));
            b.read_n(0x29, 9);
            assert!(b.idle());
            // Idle time between transactions does not count.
            b.now += 1_000_000 * (i as u64 + 1);
        }
        assert_eq!(b.i2c.time.scans_ns.len(), 1);
        let scan = b.i2c.time.scans_ns[0];
        // 16 bytes of 9 bits at 100 kHz a square, with START and STOP bits and
        // the master's polling on top.
        let bytes_ns = 9 * 16 * 90_000;
        assert!(
            (bytes_ns..bytes_ns + bytes_ns / 8).contains(&scan),
            "{scan} ns"
        );
        assert_eq!(b.i2c.time.busy_ns, scan);
        // The next scan starts empty.
        assert!(b.write(0x70, &[0], cr1::STOP));
        assert!(b.idle());
        assert_eq!(b.i2c.time.scans_ns.len(), 1);
        assert!(b.i2c.time.busy_ns > scan);
    }

    #[test]
    fn a_nack_sets_af_and_a_hang_loses_arbitration_and_locks_busy() {
        let mut b = Bench::new();
        assert!(!b.address(0x42 << 1));
        assert_ne!(b.rd(0x14) & sr1::AF, 0);
        b.wr(0x14, u32::from(!sr1::AF));
        b.cr1(cr1::STOP, 0);
        assert!(b.idle());
        b.w.config.bus_hang_rate = 1.0;
        assert!(!b.address(0x70 << 1));
        assert_ne!(b.rd(0x14) & sr1::ARLO, 0);
        assert_eq!(b.rd(0x18) & 3, 2, "not master, BUSY");
        // A reset does not free a bus a slave holds.
        b.i2c.reset(&mut b.w, 0);
        b.wr(0x1C, 180);
        b.wr(0x00, u32::from(cr1::PE));
        assert!(!b.idle());
        // Clocks with SDA released do: 0x5A's first bit, then a 1, a 0, 1, 1, 0,
        // 1, 0, the acknowledge (a NACK: the slave stops).
        for _ in 0..9 {
            b.i2c.set_lines(&mut b.w, false, true);
            b.i2c.set_lines(&mut b.w, true, true);
        }
        b.i2c.recovery_ended(&mut b.w);
        assert_eq!(b.i2c.recoveries_left_hung, 0);
        assert!(b.idle());
    }

    #[test]
    fn a_stretched_clock_delays_the_address_beyond_any_timeout() {
        let mut b = Bench::new();
        b.w.config.timeout_rate = 1.0;
        b.cr1(cr1::START, 0);
        assert!(b.wait(sr1::SB));
        b.wr(0x10, 0x70 << 1);
        let t0 = b.now;
        assert!(!b.wait(sr1::ADDR));
        assert!(b.now - t0 >= STRETCH_NS);
    }

    /// SWRST set and cleared, then I2C1 configured and enabled again.
    fn swrst(b: &mut Bench) {
        b.wr(0x00, u32::from(cr1::SWRST));
        b.wr(0x00, 0);
        b.wr(0x1C, 180);
        b.wr(0x00, u32::from(cr1::PE));
    }

    /// The lines driven as GPIOs through `steps` (SCL, SDA), then back to I2C1.
    fn drive(b: &mut Bench, steps: &[(bool, bool)]) {
        for &(scl, sda) in steps {
            b.i2c.set_lines(&mut b.w, scl, sda);
        }
        b.i2c.recovery_ended(&mut b.w);
    }

    const ERRATUM: [(bool, bool); 5] = [
        (true, true),
        (true, false),
        (false, false),
        (true, false),
        (true, true),
    ];

    #[test]
    fn a_locked_busy_is_cleared_only_by_the_erratum_sequence_then_a_reset() {
        let mut b = Bench::new();
        b.i2c.lines_glitched();
        assert!(!b.idle());
        b.cr1(cr1::START, 0);
        assert!(!b.wait(sr1::SB), "no START while BUSY");
        swrst(&mut b);
        assert!(!b.idle(), "SWRST alone leaves BUSY locked");
        // The sequence with PE still set does not count (ES096: PE cleared first).
        drive(&mut b, &ERRATUM);
        swrst(&mut b);
        assert!(!b.idle(), "the sequence ran with PE set");
        // A recovery's clock pulses (SCL first, no START) are not the sequence.
        b.cr1(0, cr1::PE);
        drive(
            &mut b,
            &[(false, true), (false, false), (true, false), (true, true)],
        );
        swrst(&mut b);
        assert!(!b.idle(), "clock pulses without the erratum's START");
        b.cr1(0, cr1::PE);
        drive(&mut b, &ERRATUM);
        assert!(!b.idle(), "the sequence alone, no reset yet");
        b.cr1(0, cr1::PE);
        swrst(&mut b);
        assert!(b.idle(), "the sequence, then SWRST");
        assert!(b.write(0x70, &[1 << 3], cr1::STOP));
    }

    #[test]
    fn the_probe_records_each_condition_and_byte_as_it_ends() {
        let mut b = Bench::new();
        b.i2c.probe = Some(vec![]);
        assert!(b.write(0x70, &[1 << 3], cr1::STOP));
        assert!(b.idle());
        assert!(b.write(0x29, &[0xA0 | 0x12], cr1::START));
        b.read_n(0x29, 4);
        assert!(b.idle());
        let seen: Vec<BusEvent> = b.i2c.probe.iter().flatten().map(|r| r.event).collect();
        use BusEvent::{Byte, Start, Stop};
        assert_eq!(
            seen[..10],
            [
                Start,
                Byte(0xE0, true),
                Byte(1 << 3, true),
                Stop,
                Start,
                Byte(0x52, true),
                Byte(0xB2, true),
                Start,
                Byte(0x53, true),
                Byte(0x44, true),
            ]
        );
        // STATUS and two more, the last not acknowledged; then STOP.
        let acks: Vec<Option<bool>> = seen[10..]
            .iter()
            .map(|e| match e {
                Byte(_, ack) => Some(*ack),
                _ => None,
            })
            .collect();
        assert_eq!(acks, [Some(true), Some(true), Some(false), None]);
        assert_eq!(seen[13], Stop);
        let r = b.i2c.probe.as_deref().unwrap_or_default();
        assert!(r.iter().all(|r| r.bit_ns == 10_000));
        assert!(r.windows(2).all(|w| w[0].at_ns <= w[1].at_ns));
    }
}
