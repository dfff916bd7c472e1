//! The STM32F103C8 around the core: its peripherals at their addresses (and the
//! peripheral bit-band alias), the pins wired to the simulated machine, and the
//! time base: core cycles from the instructions executed, turned into nanoseconds
//! at the clock the RCC runs.
//!
//! An access to an address no model knows is a [`Fault`]: the run ends there.

use crate::dwt::{self, Dwt};
use crate::flash::{self, Flash, Programmed};
use crate::gpio::{self, Mode, Port};
use crate::i2c::{self, I2c};
use crate::iwdg::{self, Iwdg};
use crate::pins::{self, Outputs, Pin, Wiring};
use crate::pwr::{self, Pwr};
use crate::rcc::{self, Effect, Oscillators, Rcc, ResetKind};
use crate::scb::{Request, Scb};
use crate::systick::{self, SysTick};
use std::fmt;
use tictable_machine::panel::Light;
use tictable_machine::sensors::Wiring as SensorWiring;
use tictable_machine::sim::wire::Wire;
use tictable_machine::sim::world::World;

/// Why a run ended abnormally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A read or write of an address no model knows.
    Unmapped {
        /// The instruction's address.
        pc: u32,
        /// The address accessed.
        addr: u32,
        /// A write.
        write: bool,
    },
    /// The CPU raised an exception (HardFault, an undefined instruction, ...).
    Cpu {
        /// Where.
        pc: u32,
        /// Unicorn's interrupt number or error.
        what: String,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Unmapped { pc, addr, write } => write!(
                f,
                "{} of {addr:#010x}, which no model knows, at pc {pc:#010x}",
                if *write { "write" } else { "read" }
            ),
            Fault::Cpu { pc, what } => write!(f, "CPU fault ({what}) at pc {pc:#010x}"),
        }
    }
}

/// The peripheral bit-band alias (ARM DDI 0403 §B3.1.3).
const BITBAND_BASE: u32 = 0x4200_0000;
/// DBGMCU_CR (the watchdog's debug freeze): kept, no effect without a debugger.
const DBGMCU_CR: u32 = 0xE004_2004;
/// AFIO: remaps (kept; the firmware uses none that matters here).
const AFIO: std::ops::Range<u32> = 0x4001_0000..0x4001_0020;
/// RCC_APB1RSTR's I2C1RST bit; RCC_APB2RSTR's IOPARST..IOPCRST.
const I2C1RST: u32 = 1 << 21;
const IOPRST: [u32; 3] = [1 << 2, 1 << 3, 1 << 4];

/// The core's time: cycles, and nanoseconds at the clock of each stretch.
#[derive(Clone, Copy, Debug)]
pub struct Time {
    /// Core cycles since power-on.
    pub cycles: u64,
    /// The core clock, Hz.
    pub hz: u64,
    /// ns and cycles at the last clock change.
    ns_at: u64,
    cycles_at: u64,
}

impl Time {
    /// At power-on: 8 MHz (the HSI's nominal frequency; [`Time::set_hz`] for a part's).
    pub fn new(ns: u64) -> Time {
        Time {
            cycles: 0,
            hz: rcc::OSC_HZ,
            ns_at: ns,
            cycles_at: 0,
        }
    }

    /// Now, ns.
    pub fn ns(&self) -> u64 {
        self.ns_at
            + ((self.cycles - self.cycles_at) as u128 * 1_000_000_000 / self.hz as u128) as u64
    }

    /// The time at cycle `c` (at the current clock), ns.
    pub fn ns_at_cycle(&self, c: u64) -> u64 {
        self.ns_at
            + ((c.saturating_sub(self.cycles_at)) as u128 * 1_000_000_000 / self.hz as u128) as u64
    }

    /// The cycle at which `ns` is reached (rounded up).
    pub fn cycles_at_ns(&self, ns: u64) -> u64 {
        if ns <= self.ns_at {
            return self.cycles_at;
        }
        self.cycles_at
            + ((ns - self.ns_at) as u128 * self.hz as u128).div_ceil(1_000_000_000) as u64
    }

    /// The clock changes to `hz` now.
    pub fn set_hz(&mut self, hz: u64) {
        self.ns_at = self.ns();
        self.cycles_at = self.cycles;
        self.hz = hz;
    }
}

/// The chip and the machine it drives.
pub struct Mcu {
    /// The simulated machine.
    pub world: World,
    /// The flash.
    pub flash: Flash,
    /// RCC.
    pub rcc: Rcc,
    /// The watchdog.
    pub iwdg: Iwdg,
    gpio: [Port; 3],
    /// SysTick.
    pub systick: SysTick,
    dwt: Dwt,
    /// The system control block and the NVIC.
    pub scb: Scb,
    /// The power controller (the PVD) and the supply.
    pub pwr: Pwr,
    /// I2C1.
    pub i2c: I2c,
    /// The board's wiring and the stepper drivers.
    pub wiring: Wiring,
    /// The time.
    pub time: Time,
    osc: Oscillators,
    lsi_hz: u64,
    dbgmcu: u32,
    afio: [u32; 8],
    /// The run must end.
    pub fault: Option<Fault>,
    /// A reset was asked for (AIRCR) or happened (the watchdog).
    pub reset: Option<ResetKind>,
    /// The core stalls (a flash operation) until this cycle.
    pub stall_until: Option<u64>,
    /// The last status register polled and where from: a second identical poll
    /// skips ahead to the peripheral's next event.
    poll: Option<(u32, u32)>,
    /// Skipping never goes past this cycle (the next SysTick, the end of the slice).
    pub skip_limit: u64,
    /// Cycles skipped in polls.
    pub skipped: u64,
    /// SCL and SDA as last driven by the GPIO (bus recovery; `true`: released).
    lines_gpio: (bool, bool),
    /// PB6 or PB7 is a GPIO output now (a bus recovery under way).
    recovering: bool,
    /// Saves started while VDD was below what flash needs
    /// ([`Pwr::too_low_for_flash`]): the firmware must start none. A save starts
    /// with its first flash operation after a PVD poll or after 1 ms without
    /// one, and is judged by that poll (PVDO read set), else by VDD at the
    /// operation's start. The later operations of a save that started above
    /// may fall below as VDD ramps down in a cut: DS5319 gives the flash down
    /// to 2.0 V, and a save the power-down reset cuts is torn, which the
    /// store's CRC'd log refuses on the next boot (no flash operation is
    /// judged alone).
    pub flash_ops_low: u64,
    /// The last PVD poll since the last flash operation: whether it read PVDO
    /// set.
    save_poll: Option<bool>,
    /// When the last flash operation ends, ns.
    flash_idle_at: u64,
    /// Flash operations started below this part's PVD level inside a save
    /// that started above it (VDD ramping down in a cut): allowed, counted.
    pub flash_ops_low_in_saves: u64,
    /// Saves a cut's power-down reset tore (a flash operation under way, or
    /// less than 100 µs since one ended: between two half-words of a save).
    pub saves_torn: u64,
    /// A power cut to make inside a flash operation to come.
    pub flash_cut: Option<FlashCut>,
    /// What the last such cut fell in (`"erase"`, `"write"`), or `"none"` when
    /// a cut for the next save's erase was dropped; taken by the session.
    pub flash_cut_made: Option<&'static str>,
    /// The homing after the last reset: the STEP edges counted at the reset, and
    /// `None` before it starts (the Device-turn light or a STEP edge), then which home switches have closed
    /// since (both: homed).
    homing: (u64, Option<[bool; 2]>),
    /// PRIMASK as the instruction making the current access left it (the core
    /// sets it before each peripheral access).
    pub primask: bool,
    /// An interrupt handler this long (ns) lands at the first I2C access with
    /// interrupts enabled after a STOP asked for while receiving, unless DR is
    /// read before it with them masked ([`I2c::wrong_reads`]: ES096's "wrong data
    /// read" sequence): `None`, no such interrupt.
    pub late_irq_ns: Option<u64>,
    /// A STOP was asked for while receiving: the late interrupt may land.
    irq_armed: bool,
    /// Flash operations between the first STEP edge after a reset and both home
    /// switches closing: a save in homing's first pass (its erase stalls the core
    /// with the gantry started). The save that starts homing must come before it.
    pub flash_ops_homing: u64,
}

/// A power cut inside the next flash operation of a kind: the core stalls (as
/// the operation stalls it) only until `fraction` of the operation, and the
/// power fails there (a reset of kind `PowerOn`: the flash keeps what the
/// operation left, [`Flash::power_cut`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlashCut {
    /// Inside a page erase (else a half-word write).
    pub erase: bool,
    /// A write only once the flash has counted more half-words than this.
    pub after: u64,
    /// An erase cut only for the next save: dropped when a half-word write
    /// starts first (that save erased nothing), as the host's runner drops it.
    pub next_save_only: bool,
    /// How far through the operation, 0..1.
    pub fraction: f64,
}

impl Mcu {
    /// The chip after a power-on with `flash_array` and the machine `world`.
    pub fn new(world: World, flash_array: Vec<u8>, osc: Oscillators, lsi_hz: u64) -> Mcu {
        let mut time = Time::new(0);
        time.set_hz(osc.hsi_hz);
        Mcu {
            world,
            flash: Flash::new(flash_array),
            rcc: Rcc::new(osc, ResetKind::PowerOn, None),
            iwdg: Iwdg::new(lsi_hz),
            gpio: Default::default(),
            systick: SysTick::default(),
            dwt: Dwt::default(),
            scb: Scb::default(),
            pwr: Pwr::default(),
            i2c: I2c::new(Wire::new(SensorWiring::DEFAULT), osc.hsi_hz),
            wiring: Wiring::default(),
            time,
            osc,
            lsi_hz,
            dbgmcu: 0,
            afio: [0; 8],
            fault: None,
            reset: None,
            stall_until: None,
            poll: None,
            skip_limit: 0,
            skipped: 0,
            lines_gpio: (true, true),
            recovering: false,
            flash_ops_low: 0,
            save_poll: None,
            flash_idle_at: 0,
            flash_ops_low_in_saves: 0,
            saves_torn: 0,
            flash_cut: None,
            flash_cut_made: None,
            homing: (0, None),
            flash_ops_homing: 0,
            primask: false,
            late_irq_ns: None,
            irq_armed: false,
        }
    }

    /// Resets the chip (`kind`): every peripheral to its reset state, the pins
    /// released; the flash array, the world and the time go on. A power-on also
    /// ends a flash operation under way (what it leaves: [`Flash::power_cut`]).
    pub fn reset_chip(&mut self, kind: ResetKind) {
        let now = self.time.ns();
        self.flash.advance(now);
        self.flash.power_cut(now);
        if kind == ResetKind::PowerOn {
            self.world.power_cut();
        } else {
            self.world.mcu_reset();
        }
        self.flash.reset();
        self.rcc = Rcc::new(self.osc, kind, Some(&self.rcc));
        self.iwdg = Iwdg::new(self.lsi_hz);
        self.gpio = Default::default();
        self.systick = SysTick::default();
        self.dwt = Dwt::default();
        self.scb = Scb::default();
        let (mut supply, low_reads, offset) =
            (self.pwr.supply_mv, self.pwr.low_reads, self.pwr.offset_mv);
        if self.pwr.ramp.is_some() {
            // A cut ended: the power comes back at the regulator's output.
            supply = pwr::NOMINAL_MV;
            self.saves_torn += u64::from(now < self.flash_idle_at.saturating_add(100_000));
        }
        self.pwr = Pwr::default();
        (self.pwr.supply_mv, self.pwr.low_reads, self.pwr.offset_mv) = (supply, low_reads, offset);
        self.i2c.reset(&mut self.world, now);
        if kind == ResetKind::PowerOn {
            // The slaves lost power with the chip: none is left mid-byte.
            self.world.bus_hung = None;
        }
        self.i2c.set_pclk1(self.osc.hsi_hz);
        self.time.set_hz(self.osc.hsi_hz);
        self.dbgmcu = 0;
        self.afio = [0; 8];
        self.reset = None;
        self.stall_until = None;
        self.poll = None;
        self.save_poll = None;
        self.wiring.release(now, &mut self.world);
        self.lines_gpio = (true, true);
        self.recovering = false;
        self.homing = (self.wiring.timing.steps(), None);
        self.irq_armed = false;
    }

    /// Now, ns.
    pub fn ns(&self) -> u64 {
        self.time.ns()
    }

    /// The flash array (for the core's memory after programming).
    pub fn flash_array(&self) -> &[u8] {
        self.flash.array()
    }

    /// Catches up with time: flash operations, the bus, the watchdog, SysTick.
    pub fn advance(&mut self) {
        let now = self.ns();
        self.flash.advance(now);
        self.pwr.settle(now);
        if self.pwr.pdr_at().is_some_and(|t| now >= t) {
            // VDD down to the power-down reset in a cut.
            self.reset.get_or_insert(ResetKind::PowerOn);
        }
        self.i2c.advance(now, &mut self.world);
        self.systick.advance(self.time.cycles);
        if self.iwdg.expires_at().is_some_and(|t| now >= t) {
            self.reset.get_or_insert(ResetKind::Watchdog);
        }
    }

    /// A second read of the same status register from the same instruction with
    /// nothing written in between: time skips to `event` (ns), or with no event
    /// to come (a flag that never comes) to the limit, which nothing passes
    /// unseen: the next SysTick, the watchdog, the world's next millisecond.
    fn skip_poll(&mut self, addr: u32, pc: u32, event: Option<u64>) {
        let repeated = self.poll == Some((addr, pc));
        self.poll = Some((addr, pc));
        if !repeated {
            return;
        }
        let t = event.unwrap_or(u64::MAX);
        let target = self.time.cycles_at_ns(t).min(self.skip_limit);
        if target > self.time.cycles {
            self.skipped += target - self.time.cycles;
            self.time.cycles = target;
        }
    }

    /// A read of `addr` by the instruction at `pc`.
    pub fn read(&mut self, addr: u32, pc: u32) -> u32 {
        self.advance();
        let now = self.ns();
        let value = match addr {
            0x4200_0000..=0x43FF_FFFF => {
                let (word, bit) = bitband(addr);
                Some((self.read(word, pc) >> bit) & 1)
            }
            _ if (rcc::BASE..rcc::BASE + 0x400).contains(&addr) => {
                let e = self.rcc.next_event(now);
                self.skip_poll(addr, pc, e);
                self.rcc.read(addr - rcc::BASE, self.ns())
            }
            _ if (flash::REG_BASE..flash::REG_BASE + 0x400).contains(&addr) => {
                let e = self.flash.busy_until();
                self.skip_poll(addr, pc, e);
                self.flash.advance(self.ns());
                self.flash.read(addr - flash::REG_BASE, self.ns())
            }
            _ if (iwdg::BASE..iwdg::BASE + 0x400).contains(&addr) => {
                self.iwdg.read(addr - iwdg::BASE, now)
            }
            _ if (pwr::BASE..pwr::BASE + 0x400).contains(&addr) => {
                if self.rcc.apb1_enabled(28) {
                    self.pwr.settle(now);
                    let r = self.pwr.read(addr - pwr::BASE);
                    if addr - pwr::BASE == 4 {
                        self.save_poll = r.map(|v| v & 1 << 2 != 0);
                    }
                    r
                } else {
                    Some(0)
                }
            }
            _ if (i2c::BASE..i2c::BASE + 0x400).contains(&addr) => {
                if self.rcc.apb1_enabled(21) {
                    let e = self.i2c.next_event();
                    self.skip_poll(addr, pc, e);
                    let mut now = self.ns();
                    if std::mem::take(&mut self.irq_armed) && !self.primask {
                        // The late interrupt lands before this access: the bus
                        // goes on meanwhile.
                        now += self.late_irq_ns.unwrap_or(0);
                        self.stall(now);
                    }
                    self.i2c.read(addr - i2c::BASE, now, &mut self.world)
                } else {
                    Some(0)
                }
            }
            _ if (systick::BASE..systick::BASE + 0x10).contains(&addr) => {
                self.systick.read(addr, self.time.cycles)
            }
            dwt::CTRL | dwt::CYCCNT | dwt::DEMCR => self.dwt.read(addr, self.time.cycles),
            DBGMCU_CR => Some(self.dbgmcu),
            _ if AFIO.contains(&addr) => Some(self.afio[((addr - AFIO.start) / 4) as usize]),
            _ => {
                if let Some(port) = gpio::BASES
                    .iter()
                    .position(|b| (*b..*b + 0x400).contains(&addr))
                {
                    let offset = addr - gpio::BASES[port];
                    let idr = if offset == 0x08 { self.idr(port) } else { 0 };
                    self.gpio[port].read(offset, || idr)
                } else {
                    self.scb.read(addr)
                }
            }
        };
        value.unwrap_or_else(|| {
            self.fault.get_or_insert(Fault::Unmapped {
                pc,
                addr,
                write: false,
            });
            0
        })
    }

    /// A write of `size` bytes (1, 2 or 4) of `value` to `addr` by the
    /// instruction at `pc`: the SCB's and the NVIC's priority registers are
    /// byte-wide (a byte write sets one exception's priority); the other
    /// registers as [`Mcu::write`].
    pub fn write_sized(&mut self, addr: u32, value: u32, size: usize, pc: u32) {
        if size < 4 && Scb::priority_byte(addr).is_some() {
            self.advance();
            self.poll = None;
            self.scb.write_sized(addr, value, size);
            return;
        }
        self.write(addr, value, pc)
    }

    /// A write of `value` to `addr` by the instruction at `pc`.
    pub fn write(&mut self, addr: u32, value: u32, pc: u32) {
        self.advance();
        self.poll = None;
        let now = self.ns();
        let done = match addr {
            0x4200_0000..=0x43FF_FFFF => {
                let (word, bit) = bitband(addr);
                // Read-modify-write of the word (write-only bits read as 0).
                let old = self.read(word, pc);
                let new = if value & 1 != 0 {
                    old | 1 << bit
                } else {
                    old & !(1 << bit)
                };
                self.poll = None;
                self.write(word, new, pc);
                Some(())
            }
            _ if (rcc::BASE..rcc::BASE + 0x400).contains(&addr) => {
                let effect = self.rcc.write(addr - rcc::BASE, value, now);
                if let Some(e) = effect {
                    self.rcc_effect(e);
                }
                effect.map(|_| ())
            }
            _ if (flash::REG_BASE..flash::REG_BASE + 0x400).contains(&addr) => {
                let r = self.flash.write(addr - flash::REG_BASE, value, now);
                if let Some(Some(until)) = r {
                    self.flash_op_started(now, until);
                    let until = self.cut_inside(true, now, until);
                    self.stall(until);
                }
                r.map(|_| ())
            }
            _ if (iwdg::BASE..iwdg::BASE + 0x400).contains(&addr) => {
                if addr == iwdg::BASE && value & 0xFFFF == 0xCCCC {
                    self.rcc.start_lsi(now);
                }
                self.iwdg.write(addr - iwdg::BASE, value, now)
            }
            _ if (pwr::BASE..pwr::BASE + 0x400).contains(&addr) => {
                if self.rcc.apb1_enabled(28) {
                    self.pwr.write(addr - pwr::BASE, value)
                } else {
                    Some(()) // no clock: the write is lost
                }
            }
            _ if (i2c::BASE..i2c::BASE + 0x400).contains(&addr) => {
                if self.rcc.apb1_enabled(21) {
                    // CR1's STOP while receiving: the closing sequence starts.
                    self.irq_armed |= self.late_irq_ns.is_some()
                        && addr - i2c::BASE == 0
                        && value & 1 << 9 != 0
                        && self.i2c.master_receiving();
                    self.i2c
                        .write(addr - i2c::BASE, value, now, &mut self.world)
                } else {
                    Some(())
                }
            }
            _ if (systick::BASE..systick::BASE + 0x10).contains(&addr) => {
                self.systick.write(addr, value, self.time.cycles)
            }
            dwt::CTRL | dwt::CYCCNT | dwt::DEMCR => self.dwt.write(addr, value, self.time.cycles),
            DBGMCU_CR => {
                self.dbgmcu = value;
                Some(())
            }
            _ if AFIO.contains(&addr) => {
                self.afio[((addr - AFIO.start) / 4) as usize] = value;
                Some(())
            }
            _ => {
                if let Some(port) = gpio::BASES
                    .iter()
                    .position(|b| (*b..*b + 0x400).contains(&addr))
                {
                    let r = if self.rcc.apb2_enabled(2 + port as u32) {
                        self.gpio[port].write(addr - gpio::BASES[port], value)
                    } else {
                        Some(()) // no clock: the write is lost
                    };
                    self.pins_changed();
                    r
                } else {
                    match self.scb.write(addr, value) {
                        Some(Request::Reset) => {
                            self.reset = Some(ResetKind::Software);
                            Some(())
                        }
                        r => r.map(|_| ()),
                    }
                }
            }
        };
        if done.is_none() {
            self.fault.get_or_insert(Fault::Unmapped {
                pc,
                addr,
                write: true,
            });
        }
    }

    /// A flash operation (an erase if `erase`) started at `now`, to end at
    /// `until`: the stall's end, or the moment of the power cut planned inside
    /// it ([`Mcu::flash_cut`]).
    fn cut_inside(&mut self, erase: bool, now: u64, until: u64) -> u64 {
        let Some(c) = self.flash_cut else {
            return until;
        };
        let hit = match (c.erase, erase) {
            (true, true) => true,
            (true, false) if c.next_save_only => {
                self.flash_cut = None;
                self.flash_cut_made = Some("none");
                return until;
            }
            (false, false) => self.flash.half_words > c.after,
            _ => false,
        };
        if !hit || until == u64::MAX {
            return until;
        }
        self.flash_cut = None;
        self.flash_cut_made = Some(if erase {
            "inside a flash erase"
        } else {
            "inside a flash write"
        });
        // The supply's input fails there: VDD ramps down to the power-down
        // reset, which ends the operation if it is still under way.
        self.pwr
            .start_ramp(now + ((until - now) as f64 * c.fraction.clamp(0.0, 1.0)) as u64);
        until
    }

    /// A flash operation started at `now`, to end at `until`: a save's start
    /// is judged ([`Mcu::flash_ops_low`]).
    fn flash_op_started(&mut self, now: u64, until: u64) {
        self.flash_ops_homing += u64::from(self.homing.1.is_some_and(|c| c != [true; 2]));
        self.pwr.settle(now);
        let poll = self.save_poll.take();
        if poll.is_some() || now >= self.flash_idle_at.saturating_add(1_000_000) {
            let low = poll.unwrap_or_else(|| self.pwr.too_low_for_flash());
            self.flash_ops_low += u64::from(low);
        } else {
            self.flash_ops_low_in_saves += u64::from(self.pwr.too_low_for_flash());
        }
        self.flash_idle_at = until;
    }

    /// The core stalls until `until` ns (every fetch waits for the flash).
    fn stall(&mut self, until: u64) {
        // The watchdog runs on the LSI and ends any stall, as does the
        // power-down reset of a cut.
        let until = until
            .min(self.iwdg.expires_at().unwrap_or(u64::MAX))
            .min(self.pwr.pdr_at().unwrap_or(u64::MAX))
            .min(self.ns() + 10_000_000_000);
        let c = self.time.cycles_at_ns(until);
        self.stall_until = Some(self.stall_until.map_or(c, |s| s.max(c)));
    }

    /// A write of `size` bytes to the flash array at `offset` (programming).
    pub fn program(&mut self, offset: usize, size: usize, value: u16) {
        self.advance();
        match self.flash.program(offset, size, value, self.ns()) {
            Programmed::Busy { until } => {
                self.flash_op_started(self.ns(), until);
                let until = self.cut_inside(false, self.ns(), until);
                self.stall(until)
            }
            Programmed::Error => {}
        }
    }

    fn rcc_effect(&mut self, e: Effect) {
        let now = self.ns();
        match e {
            Effect::None => {}
            Effect::Clock => {
                self.rcc.settle(now);
                self.time.set_hz(self.rcc.hclk_hz(now));
                self.i2c.set_pclk1(self.rcc.pclk1_hz(now));
            }
            Effect::Reset(apb1, apb2) => {
                if apb1 & I2C1RST != 0 {
                    self.i2c.reset(&mut self.world, now);
                    self.i2c.set_pclk1(self.rcc.pclk1_hz(now));
                }
                for (port, bit) in IOPRST.iter().enumerate() {
                    if apb2 & bit != 0 {
                        self.gpio[port] = Port::default();
                    }
                }
                self.pins_changed();
            }
        }
    }

    /// The level of pin `n` of `port` as the outside sees it.
    fn level(&self, port: usize, n: u32) -> bool {
        let p = &self.gpio[port];
        let pin = Pin(port, n);
        if pin == pins::SDA || pin == pins::SCL {
            // Open-drain with the board's 4.7 kΩ pull-ups: low when anybody pulls.
            let port_low = match p.mode(n) {
                Mode::Output { .. } => p.driven(n) == Some(false),
                Mode::Alternate { .. } => pin == pins::SDA && !self.i2c.sda(&self.world),
                _ => false,
            };
            let slave_low = pin == pins::SDA && !self.i2c.sda(&self.world);
            return !(port_low || slave_low);
        }
        if let Some(level) = p.driven(n) {
            return level;
        }
        let pulled_up = matches!(p.mode(n), Mode::Pull(true));
        let to_ground = pins::LIMIT
            .iter()
            .enumerate()
            .any(|(a, &l)| l == pin && self.world.limit_closed(a))
            || pins::BUTTONS
                .iter()
                .enumerate()
                .any(|(i, &b)| b == pin && self.world.buttons[i]);
        if to_ground {
            return false;
        }
        if pulled_up {
            return true;
        }
        // Released outputs: the board's resistors (ENABLE up, the rest down).
        pin == pins::ENABLE
    }

    fn idr(&mut self, port: usize) -> u32 {
        // A noisy homing switch reads closed now and then (the world's draw).
        let mut v = self.gpio[port].idr(|n| self.level(port, n));
        for (a, &l) in pins::LIMIT.iter().enumerate() {
            if l.0 == port
                && matches!(self.gpio[port].mode(l.1), Mode::Pull(true))
                && self.world.read_limit(a)
            {
                v &= !(1 << l.1);
            }
        }
        v
    }

    /// The port registers changed: the outputs go to the machine; SCL driven as a
    /// GPIO clocks the bus (recovery), and a line moved while the pins are not
    /// I2C1's can lock its BUSY (ES096 §2.13.7).
    fn pins_changed(&mut self) {
        let now = self.ns();
        let out = Outputs::from_ports(|p: Pin| self.gpio[p.0].driven(p.1));
        if out != self.wiring.outputs() {
            self.wiring.update(out, now, &mut self.world);
        }
        // Homing after a reset: from the controller's entering it (the Device-turn
        // light, which homing shows) or its first STEP edge until both switches
        // closed.
        if self.wiring.timing.steps() > self.homing.0 || out.lights[Light::DeviceTurn.index()] {
            let closed = self.homing.1.get_or_insert([false; 2]);
            for (a, c) in closed.iter_mut().enumerate() {
                *c |= self.world.limit_closed(a);
            }
        }
        let b = &self.gpio[1];
        let gpio = |pin: Pin| matches!(b.mode(pin.1), Mode::Output { .. });
        if gpio(pins::SCL) || gpio(pins::SDA) {
            let level = |pin: Pin| !gpio(pin) || b.driven(pin.1) != Some(false);
            let lines = (level(pins::SCL), level(pins::SDA));
            if lines != self.lines_gpio {
                self.lines_gpio = lines;
                self.i2c.lines_glitched();
                self.i2c.set_lines(&mut self.world, lines.0, lines.1);
            }
            self.recovering = true;
        } else {
            self.lines_gpio = (true, true);
            if core::mem::take(&mut self.recovering) {
                self.i2c.recovery_ended(&mut self.world);
            }
        }
    }

    /// The crystal stops oscillating now, for good (the resets to come find it
    /// dead): with the clock security system on, its NMI and the switch to HSI;
    /// without, the core's clock stops until the watchdog resets the chip.
    pub fn crystal_fails(&mut self) {
        let now = self.ns();
        self.osc.crystal_starts = false;
        match self.rcc.crystal_fails(now) {
            rcc::CrystalFailure::Css => {
                self.scb.write(0xE000_ED04, 1 << 31);
                self.rcc_effect(Effect::Clock);
            }
            rcc::CrystalFailure::ClockStopped => self.stall(u64::MAX),
            rcc::CrystalFailure::Unused => {}
        }
    }

    /// The level of a pin (for a watcher: a waveform, a test).
    pub fn pin(&self, pin: Pin) -> bool {
        self.level(pin.0, pin.1)
    }
}

/// The word and bit a peripheral bit-band alias address stands for.
fn bitband(addr: u32) -> (u32, u32) {
    let off = addr - BITBAND_BASE;
    let byte = 0x4000_0000 + off / 32;
    let bit = (off % 32) / 4 + 8 * (byte & 3);
    (byte & !3, bit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_machine::sim::wire::HungSlave;
    use tictable_machine::sim::world::SimConfig;

    fn mcu() -> Mcu {
        let w = World::new(SimConfig::standard(0.0, 0.0, 1).unwrap());
        Mcu::new(w, vec![0xFF; flash::SIZE], Oscillators::default(), 40_000)
    }

    #[test]
    fn the_bit_band_alias_reaches_the_peripheral_bit() {
        assert_eq!(bitband(0x4242_0300), (0x4002_1018, 0));
        let mut m = mcu();
        m.write(0x4242_0308, 1, 0); // RCC_APB2ENR bit 2: IOPAEN
        assert_eq!(m.read(rcc::BASE + 0x18, 0), 1 << 2);
        assert_eq!(m.read(0x4242_0308, 0), 1);
        assert!(m.fault.is_none());
    }

    #[test]
    fn an_unknown_address_is_a_fault_with_pc_and_address() {
        let mut m = mcu();
        m.read(0x4000_4400, 0x0800_0123);
        assert_eq!(
            m.fault,
            Some(Fault::Unmapped {
                pc: 0x0800_0123,
                addr: 0x4000_4400,
                write: false
            })
        );
        assert_eq!(
            m.fault.unwrap().to_string(),
            "read of 0x40004400, which no model knows, at pc 0x08000123"
        );
    }

    #[test]
    fn a_button_pressed_reads_low_through_the_pull_up() {
        let mut m = mcu();
        m.write(rcc::BASE + 0x18, 0xC, 0);
        // PB8 (Start): input with pull-up.
        m.write(gpio::BASES[1] + 4, 0x4444_4448, 0);
        m.write(gpio::BASES[1] + 0x10, 1 << 8, 0);
        assert_ne!(m.read(gpio::BASES[1] + 8, 0) & (1 << 8), 0);
        m.world.buttons[3] = true;
        assert_eq!(m.read(gpio::BASES[1] + 8, 0) & (1 << 8), 0);
    }

    #[test]
    fn a_slave_holding_sda_low_shows_on_pb7() {
        let mut m = mcu();
        m.write(rcc::BASE + 0x18, 0xC, 0);
        // PB7: open-drain output, released.
        m.write(gpio::BASES[1], 0x6444_4444, 0);
        m.write(gpio::BASES[1] + 0x10, 1 << 7, 0);
        assert_ne!(m.read(gpio::BASES[1] + 8, 0) & (1 << 7), 0);
        m.world.bus_hung = Some(HungSlave::sending(0x00, 0));
        assert_eq!(m.read(gpio::BASES[1] + 8, 0) & (1 << 7), 0);
    }

    /// Unlocks the FPEC and starts an erase of the page at `addr`.
    fn start_erase(m: &mut Mcu, addr: u32) {
        let r = flash::REG_BASE;
        m.write(r + 4, 0x4567_0123, 0);
        m.write(r + 4, 0xCDEF_89AB, 0);
        m.write(r + 0x10, 0x2, 0); // PER
        m.write(r + 0x14, addr, 0);
        m.write(r + 0x10, 0x42 /* PER | STRT */, 0);
    }

    #[test]
    fn a_cut_planned_inside_an_erase_resets_the_chip_part_way_through_it() {
        let mut m = mcu();
        start_erase(&mut m, 0x0800_A000);
        assert_eq!(m.reset, None, "no cut planned");
        let full = m.stall_until.take().unwrap();
        m.flash.advance(u64::MAX - 1);
        m.flash_cut = Some(FlashCut {
            erase: true,
            after: 0,
            next_save_only: false,
            fraction: 0.5,
        });
        let (t0, ns0) = (m.time.cycles, m.ns());
        start_erase(&mut m, 0x0800_A400);
        assert_eq!(m.flash_cut_made, Some("inside a flash erase"));
        assert_eq!(m.flash_cut, None);
        // The supply fails half-way through: VDD ramps down from 3.3 V at
        // 1 V/ms and the power-down reset (1.88 V) ends the erase 1.42 ms later.
        let (at, from) = m.pwr.ramp.expect("a ramp");
        assert_eq!(from, 3_300);
        let half = at - ns0;
        let whole = m.time.ns_at_cycle(full) - m.time.ns_at_cycle(t0);
        assert!(
            half * 2 <= whole + 1 && half * 2 + 1 >= whole,
            "{half} of {whole}"
        );
        let pdr = at + 1_420_000;
        assert_eq!(m.pwr.pdr_at(), Some(pdr));
        assert_eq!(m.stall_until, Some(m.time.cycles_at_ns(pdr)));
        assert_eq!(m.reset, None, "VDD still above the power-down reset");
        m.time.cycles = m.stall_until.unwrap();
        m.advance();
        assert_eq!(m.reset, Some(ResetKind::PowerOn));
        m.reset_chip(ResetKind::PowerOn);
        assert_eq!((m.pwr.supply_mv, m.pwr.ramp), (3_300, None), "power back");
    }

    #[test]
    fn a_cut_for_the_next_saves_erase_is_dropped_when_it_writes_first() {
        let mut m = mcu();
        m.flash_cut = Some(FlashCut {
            erase: true,
            after: 0,
            next_save_only: true,
            fraction: 0.5,
        });
        let r = flash::REG_BASE;
        m.write(r + 4, 0x4567_0123, 0);
        m.write(r + 4, 0xCDEF_89AB, 0);
        m.write(r + 0x10, 0x1, 0); // PG
        m.program(0xA000, 2, 0x1234);
        assert_eq!(
            (m.flash_cut, m.flash_cut_made, m.reset),
            (None, Some("none"), None)
        );
    }

    #[test]
    fn time_follows_the_clock() {
        let mut t = Time::new(0);
        t.cycles = 8_000;
        assert_eq!(t.ns(), 1_000_000);
        t.set_hz(72_000_000);
        t.cycles += 72_000;
        assert_eq!(t.ns(), 2_000_000);
        assert_eq!(t.cycles_at_ns(3_000_000), 8_000 + 144_000);
    }
}
