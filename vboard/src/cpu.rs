//! The Cortex-M3 core (Unicorn's emulator) in the STM32F103C8's memory map: 64 KiB
//! of flash at 0x0800_0000 and its alias at 0, 20 KiB of RAM at 0x2000_0000, the
//! system memory's flash-size word, the peripherals through [`Mcu`]. Time comes from
//! the instructions executed (`cpi` core cycles each; a register access lands at
//! its instruction's cycle). Unicorn takes no exceptions by itself: they are
//! entered here, each through its vector, as ARMv7-M ARM B1.5 gives them. The
//! pending exception of the highest priority ([`crate::scb::Scb::next_pending`]: the NMI,
//! SysTick, a device interrupt enabled and pending in the NVIC) is taken when
//! its group priority is above the execution priority (that of the active
//! exceptions, 0 with PRIMASK set). IPSR holds the active exception's number (0
//! in thread mode). A handler is left through EXC_RETURN; a pending exception
//! that may preempt what it returns to is then tail-chained (the frame neither
//! popped nor pushed again). Cycles (Cortex-M3 TRM, zero wait states): 12 for
//! an entry, 6 for a tail-chain, 10 for a return (ARM knowledge article
//! 103489845: the TRM's 12 for the return is a typographical error). Exceptions
//! are taken between run slices: a slice ends at SysTick's next interrupt (also
//! when a write enables or moves it), at a `cpsie i` or `msr primask` with an
//! exception pending, and after a write that pends one that may preempt. Any
//! other CPU exception ends the run as a [`Fault`].

use crate::elf::Image;
use crate::flash;
use crate::mcu::{Fault, Mcu};
use crate::rcc::ResetKind;
use crate::scb::{HARD_FAULT, SYSTICK};
use unicorn_engine::{Arch, ArmCpuModel, HookType, MemType, Mode, Prot, RegisterARM, Unicorn};

/// RAM: 20 KiB at 0x2000_0000.
pub const RAM_BASE: u32 = 0x2000_0000;
/// RAM's size.
pub const RAM_SIZE: u32 = 20 * 1024;
/// The word painted into RAM at power-on (the stack's high-water mark is where
/// it was overwritten).
pub const PAINT: u32 = 0xDEAD_C0DE;
/// The handler's return to thread mode with the main stack.
const EXC_RETURN: u32 = 0xFFFF_FFF9;
/// The return of a handler that preempted another, to handler mode.
const EXC_RETURN_HANDLER: u32 = 0xFFFF_FFF1;

/// An exception a scenario raises from outside the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exception {
    /// The NMI, pended through ICSR.NMIPENDSET (as the clock security system
    /// or the NMI pin would).
    Nmi,
    /// Device interrupt `n` enabled in the NVIC (ISER) and pended (ISPR): a
    /// stray interrupt the program has no handler for.
    Irq(u32),
}
/// xPSR's IT/ICI bits: ITSTATE[1:0] at 26:25, ITSTATE[7:2] at 15:10.
const XPSR_IT: u32 = 0x0600_FC00;
/// xPSR's IPSR: the active exception's number.
const XPSR_IPSR: u32 = 0x1FF;
/// The stacked xPSR's bit 9: the frame was aligned to 8 bytes with a pad word.
const XPSR_ALIGNED: u32 = 1 << 9;
/// Unicorn's interrupt number for an M-profile exception return.
const EXCP_EXCEPTION_EXIT: u32 = 8;
/// Cycles of an exception entry, to the handler's first instruction (Cortex-M3
/// TRM, "Interrupt latency"; zero wait states).
const ENTRY_CYCLES: u64 = 12;
/// Cycles from a handler's return to the next handler, tail-chained (TRM).
const TAIL_CHAIN_CYCLES: u64 = 6;
/// Cycles of an exception return, to the interrupted code's next instruction
/// (ARM knowledge article 103489845: 10 on the Cortex-M3, as on the M4).
const RETURN_CYCLES: u64 = 10;
/// `cpsie i`: PRIMASK cleared, a pending exception may be taken.
const CPSIE_I: u16 = 0xB662;

/// The core's bookkeeping, with the chip.
pub struct Core {
    /// The chip.
    pub mcu: Mcu,
    /// Core cycles per instruction.
    pub cpi: u64,
    /// Instructions executed.
    pub instructions: u64,
    block_addr: u32,
    block_start: u64,
    block_cycles: u64,
    /// Emulation stops at this cycle.
    stop_at: u64,
    /// The exceptions active, innermost last (an NMI may preempt a handler).
    active: Vec<u32>,
    /// Instructions per block, by the block's address: (size, count).
    blocks: std::collections::HashMap<u32, (u32, u32)>,
    /// Flash contents last copied into the core's memory.
    flash_copy: Vec<u8>,
    /// SysTick exceptions taken.
    pub ticks: u64,
    /// Exceptions taken while a handler ran (an NMI preempting it).
    pub preemptions: u64,
    /// Exceptions tail-chained at a handler's return.
    pub tail_chains: u64,
}

impl Core {
    /// The cycle of the instruction at `pc` in the current block.
    fn sync(&mut self, pc: u32) {
        let k = self.count(
            self.block_addr,
            pc.saturating_sub(self.block_addr).min(0x1000),
        );
        let t = self.block_start + u64::from(k) * self.cpi;
        if t > self.mcu.time.cycles {
            self.mcu.time.cycles = t;
        }
    }

    /// Thumb instructions in `len` bytes from `addr` (16- or 32-bit encodings).
    fn count(&self, addr: u32, len: u32) -> u32 {
        let mem = self.mcu.flash_array();
        let base = addr & 0x00FF_FFFF;
        if addr >> 24 != 0x08 && addr >> 24 != 0 || base as usize + len as usize > mem.len() {
            return len / 2;
        }
        let (mut o, end, mut n) = (base as usize, (base + len) as usize, 0);
        while o < end {
            let hw = u16::from_le_bytes([mem[o], mem[o + 1]]);
            o += if hw >> 11 >= 0b11101 { 4 } else { 2 };
            n += 1;
        }
        n
    }

    /// A new block of `size` bytes at `addr` begins.
    fn block(&mut self, addr: u32, size: u32) -> bool {
        let end = self.block_start + self.block_cycles;
        if end > self.mcu.time.cycles {
            self.mcu.time.cycles = end;
        }
        let n = match self.blocks.get(&addr) {
            Some(&(s, n)) if s == size => n,
            _ => {
                let n = self.count(addr, size).max(1);
                self.blocks.insert(addr, (size, n));
                n
            }
        };
        self.block_addr = addr;
        self.block_start = self.mcu.time.cycles;
        if self.mcu.time.cycles >= self.stop_at {
            // The emulation stops before the block: it runs in the next slice.
            self.block_cycles = 0;
            return true;
        }
        self.block_cycles = u64::from(n) * self.cpi;
        self.instructions += u64::from(n);
        false
    }

    /// Whether a branch to `pc` is the return of the innermost active exception:
    /// EXC_RETURN to thread mode from the only one, to handler mode from a nested one.
    fn returning(&self, pc: u32) -> bool {
        match self.active.len() {
            0 => false,
            1 => pc | 1 == EXC_RETURN,
            _ => pc | 1 == EXC_RETURN_HANDLER,
        }
    }

    /// The execution priority (ARMv7-M ARM B1.5.4): the highest (lowest value)
    /// group priority of the active exceptions, raised to 0 by PRIMASK; 256 in
    /// thread mode with nothing masked.
    fn execution_priority(&self, primask: bool) -> i16 {
        let active = self
            .active
            .iter()
            .map(|&n| self.mcu.scb.group_priority(n))
            .min()
            .unwrap_or(256);
        if primask {
            active.min(0)
        } else {
            active
        }
    }

    /// The pending exception that preempts now, if any.
    fn preempting(&self, primask: bool) -> Option<u32> {
        let n = self.mcu.scb.next_pending(self.mcu.systick.pending)?;
        (self.mcu.scb.group_priority(n) < self.execution_priority(primask)).then_some(n)
    }

    /// After an access: a stall (the flash busy) moves time on, and a fault, a
    /// reset or a stall ends the emulation at the next block (an access cannot
    /// stop it: Unicorn would run the instruction again), as does an exception
    /// the access pended that preempts; SysTick enabled or moved by the access
    /// ends the slice at its next interrupt, and no poll skips past it; whether
    /// the flash changed (to be copied into the core's memory).
    fn after_access(&mut self) -> bool {
        if let Some(t) = self.mcu.systick.next_interrupt() {
            let t = t.max(self.mcu.time.cycles + 1);
            self.stop_at = self.stop_at.min(t);
            self.mcu.skip_limit = self.mcu.skip_limit.min(t);
        }
        if self.preempting(self.mcu.primask).is_some() {
            self.stop_at = 0;
        }
        if let Some(until) = self.mcu.stall_until.take() {
            if until > self.mcu.time.cycles {
                let d = until - self.mcu.time.cycles;
                self.mcu.time.cycles = until;
                self.block_start += d;
            }
            self.stop_at = 0;
        }
        if self.mcu.fault.is_some() || self.mcu.reset.is_some() {
            self.stop_at = 0;
        }
        self.mcu.flash.dirty
    }
}

type Uc<'a> = Unicorn<'a, Core>;

fn reg(uc: &Uc, r: RegisterARM) -> u32 {
    uc.reg_read(r).unwrap_or(0) as u32
}

/// Copies the flash array into the core's memory where it changed.
fn sync_flash(uc: &mut Uc) {
    let core = uc.get_data_mut();
    if !std::mem::take(&mut core.mcu.flash.dirty) {
        return;
    }
    let new = core.mcu.flash_array().to_vec();
    let changed: Vec<usize> = (0..flash::SIZE / flash::PAGE)
        .filter(|p| {
            let r = p * flash::PAGE..(p + 1) * flash::PAGE;
            new[r.clone()] != core.flash_copy[r]
        })
        .collect();
    core.flash_copy = new.clone();
    for p in changed {
        let r = p * flash::PAGE..(p + 1) * flash::PAGE;
        for base in [u64::from(flash::BASE), 0] {
            uc.mem_write(base + r.start as u64, &new[r.clone()])
                .expect("flash mapped");
        }
    }
}

/// The board: the core, the chip, the machine.
pub struct Board<'a> {
    uc: Uc<'a>,
    image: Image,
}

impl<'a> Board<'a> {
    /// A board running `image` on `mcu` (powered on), `cpi` cycles per instruction.
    pub fn new(image: Image, mcu: Mcu, cpi: u64) -> Result<Board<'a>, String> {
        fn e(what: &'static str) -> impl Fn(unicorn_engine::uc_error) -> String {
            move |err| format!("{what}: {err:?}")
        }
        let flash_copy = mcu.flash_array().to_vec();
        let core = Core {
            mcu,
            cpi: cpi.max(1),
            instructions: 0,
            block_addr: 0,
            block_start: 0,
            block_cycles: 0,
            stop_at: 0,
            active: Vec::new(),
            blocks: Default::default(),
            flash_copy: flash_copy.clone(),
            ticks: 0,
            preemptions: 0,
            tail_chains: 0,
        };
        let mut uc = Unicorn::new_with_data(Arch::ARM, Mode::THUMB | Mode::MCLASS, core)
            .map_err(e("Unicorn"))?;
        uc.ctl_set_cpu_model(ArmCpuModel::CORTEX_M3 as i32)
            .map_err(e("CPU model"))?;
        for base in [u64::from(flash::BASE), 0] {
            uc.mem_map(base, flash::SIZE as u64, Prot::READ | Prot::EXEC)
                .map_err(e("flash"))?;
            uc.mem_write(base, &flash_copy).map_err(e("flash"))?;
        }
        uc.mem_map(u64::from(RAM_BASE), u64::from(RAM_SIZE), Prot::ALL)
            .map_err(e("RAM"))?;
        // System memory: the flash size in KiB (F_SIZE) and the unique ID.
        uc.mem_map(0x1FFF_F000, 0x1000, Prot::READ)
            .map_err(e("system memory"))?;
        uc.mem_write(0x1FFF_F7E0, &64u16.to_le_bytes())
            .map_err(e("F_SIZE"))?;
        for (base, size) in [
            (0x4000_0000u64, 0x2_4000u64),
            (0x4200_0000, 0x200_0000),
            (0xE000_0000, 0x10_0000),
        ] {
            uc.mmio_map(
                base,
                size,
                Some(move |uc: &mut Uc, off: u64, _size: usize| {
                    let pc = reg(uc, RegisterARM::PC);
                    let primask = reg(uc, RegisterARM::PRIMASK) & 1 != 0;
                    let core = uc.get_data_mut();
                    core.sync(pc);
                    core.mcu.primask = primask;
                    let v = core.mcu.read((base + off) as u32, pc);
                    if core.after_access() {
                        sync_flash(uc);
                    }
                    u64::from(v)
                }),
                Some(move |uc: &mut Uc, off: u64, size: usize, value: u64| {
                    let pc = reg(uc, RegisterARM::PC);
                    let primask = reg(uc, RegisterARM::PRIMASK) & 1 != 0;
                    let core = uc.get_data_mut();
                    core.sync(pc);
                    core.mcu.primask = primask;
                    core.mcu
                        .write_sized((base + off) as u32, value as u32, size, pc);
                    if core.after_access() {
                        sync_flash(uc);
                    }
                }),
            )
            .map_err(e("peripherals"))?;
        }
        // Writes to the flash array: programming through the FPEC.
        uc.add_mem_hook(
            HookType::MEM_WRITE_PROT,
            0,
            u64::from(flash::BASE) + flash::SIZE as u64 - 1,
            |uc, _t: MemType, addr, size, value| {
                let pc = reg(uc, RegisterARM::PC);
                let core = uc.get_data_mut();
                let offset = (addr as u32 & 0x00FF_FFFF) as usize;
                if addr as u32 >> 24 != 0x08 && addr >= flash::SIZE as u64 {
                    core.mcu.fault.get_or_insert(Fault::Unmapped {
                        pc,
                        addr: addr as u32,
                        write: true,
                    });
                    return false;
                }
                core.sync(pc);
                core.mcu.program(offset, size, value as u16);
                core.after_access();
                true
            },
        )
        .map_err(e("flash hook"))?;
        uc.add_mem_hook(
            HookType::MEM_UNMAPPED,
            1,
            0,
            |uc, t: MemType, addr, _size, _v| {
                let pc = reg(uc, RegisterARM::PC);
                let write = matches!(t, MemType::WRITE_UNMAPPED);
                uc.get_data_mut().mcu.fault.get_or_insert(Fault::Unmapped {
                    pc,
                    addr: addr as u32,
                    write,
                });
                false
            },
        )
        .map_err(e("unmapped hook"))?;
        uc.add_intr_hook(|uc, intno| {
            let pc = reg(uc, RegisterARM::PC);
            if intno == EXCP_EXCEPTION_EXIT && uc.get_data().returning(pc) {
                exception_return(uc);
            } else {
                let what = format!("exception {intno}");
                uc.get_data_mut()
                    .mcu
                    .fault
                    .get_or_insert(Fault::Cpu { pc, what });
                let _ = uc.emu_stop();
            }
        })
        .map_err(e("interrupt hook"))?;
        // `cpsie i` (and `msr primask, rN`) with an exception pending: the slice
        // ends at the next block, where the exception is taken (QEMU ends the
        // translation block after either).
        for addr in unmasking(&flash_copy) {
            let a = u64::from(flash::BASE) + addr as u64;
            uc.add_code_hook(a, a, |uc, _addr, _size| {
                let core = uc.get_data_mut();
                if core
                    .mcu
                    .scb
                    .next_pending(core.mcu.systick.pending)
                    .is_some()
                {
                    core.stop_at = 0;
                }
            })
            .map_err(e("cpsie hook"))?;
        }
        uc.add_block_hook(1, 0, |uc, addr, size| {
            if uc.get_data_mut().block(addr as u32, size) {
                let _ = uc.emu_stop();
            }
        })
        .map_err(e("block hook"))?;
        let mut board = Board { uc, image };
        board.reset_core(true);
        Ok(board)
    }

    /// The chip.
    pub fn mcu(&mut self) -> &mut Mcu {
        &mut self.uc.get_data_mut().mcu
    }

    /// The core's counters.
    pub fn core(&self) -> &Core {
        self.uc.get_data()
    }

    /// Raises `e` through the NVIC's and the SCB's registers; the core takes it
    /// at the start of the next slice of [`Board::run_until`].
    pub fn raise(&mut self, e: Exception) {
        let scb = &mut self.mcu().scb;
        match e {
            Exception::Nmi => {
                scb.write(0xE000_ED04, 1 << 31);
            }
            Exception::Irq(n) => {
                let (word, bit) = (4 * (n / 32), 1 << (n % 32));
                scb.write(0xE000_E100 + word, bit);
                scb.write(0xE000_E200 + word, bit);
            }
        }
    }

    /// The program counter.
    pub fn pc(&self) -> u32 {
        reg(&self.uc, RegisterARM::PC)
    }

    /// The image.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// The core's registers at reset: SP and PC from the vector table; RAM
    /// painted when `paint` (a power-on: RAM's contents are lost).
    fn reset_core(&mut self, paint: bool) {
        if paint {
            let words: Vec<u8> = (0..RAM_SIZE / 4)
                .flat_map(|_| PAINT.to_le_bytes())
                .collect();
            self.uc
                .mem_write(u64::from(RAM_BASE), &words)
                .expect("RAM mapped");
        }
        let sp = self.image.initial_sp();
        let pc = self.image.reset_vector();
        for (r, v) in [
            (RegisterARM::PRIMASK, 0),
            (RegisterARM::CONTROL, 0),
            (RegisterARM::XPSR, 0x0100_0000),
            (RegisterARM::MSP, sp),
            (RegisterARM::SP, sp),
            (RegisterARM::LR, 0xFFFF_FFFF),
            (RegisterARM::PC, pc),
        ] {
            self.uc.reg_write(r, u64::from(v)).expect("register");
        }
        let core = self.uc.get_data_mut();
        core.active.clear();
        core.block_cycles = 0;
        core.block_start = core.mcu.time.cycles;
    }

    /// Resets the chip and the core: `kind` (RAM painted again at a power-on).
    pub fn reset(&mut self, kind: ResetKind) {
        self.mcu().reset_chip(kind);
        sync_flash(&mut self.uc);
        self.reset_core(kind == ResetKind::PowerOn);
    }

    /// The stack's high-water mark, bytes: from the top of RAM down to the lowest
    /// word no longer painted, above the statics (`__sheap`, else `__ebss`).
    pub fn stack_high_water(&self) -> u32 {
        let top = self.image.initial_sp();
        let bottom = self
            .image
            .symbol("__sheap")
            .or_else(|| self.image.symbol("__ebss"))
            .unwrap_or(RAM_BASE)
            .max(RAM_BASE);
        let Ok(ram) = self
            .uc
            .mem_read_as_vec(u64::from(bottom), (top - bottom) as usize)
        else {
            return 0;
        };
        let first = ram
            .chunks_exact(4)
            .position(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) != PAINT)
            .unwrap_or(ram.len() / 4);
        top - (bottom + 4 * first as u32)
    }

    /// Runs until `end_ns` (or a reset, which is carried out and returned, or a
    /// fault).
    pub fn run_until(&mut self, end_ns: u64) -> Result<Option<ResetKind>, Fault> {
        loop {
            let (done, reset) = self.slice(end_ns)?;
            if let Some(kind) = reset {
                self.reset(kind);
                return Ok(Some(kind));
            }
            if done {
                return Ok(None);
            }
        }
    }

    /// Runs up to `end_ns` at most, stopping early for SysTick, the watchdog, a
    /// flash change; whether `end_ns` was reached, and a reset that came.
    fn slice(&mut self, end_ns: u64) -> Result<(bool, Option<ResetKind>), Fault> {
        let core = self.uc.get_data_mut();
        let m = &mut core.mcu;
        m.advance();
        if let Some(kind) = m.reset.take() {
            return Ok((false, Some(kind)));
        }
        let mut stop = m.time.cycles_at_ns(end_ns);
        if let Some(t) = m.systick.next_interrupt() {
            stop = stop.min(t.max(m.time.cycles + 1));
        }
        if let Some(t) = m.iwdg.expires_at() {
            stop = stop.min(m.time.cycles_at_ns(t).max(m.time.cycles + 1));
        }
        if let Some(t) = m.pwr.pdr_at() {
            stop = stop.min(m.time.cycles_at_ns(t).max(m.time.cycles + 1));
        }
        m.skip_limit = stop;
        core.stop_at = stop;
        let primask = reg(&self.uc, RegisterARM::PRIMASK) & 1 != 0;
        if let Some(n) = self.uc.get_data().preempting(primask) {
            take_exception(&mut self.uc, n, false);
        }
        let pc = reg(&self.uc, RegisterARM::PC);
        let r = self.uc.emu_start(u64::from(pc | 1), 0xFFFF_FFFF, 0, 0);
        sync_flash(&mut self.uc);
        let core = self.uc.get_data_mut();
        let end = core.block_start + core.block_cycles;
        if end > core.mcu.time.cycles {
            core.mcu.time.cycles = end;
        }
        core.block_start = core.mcu.time.cycles;
        core.block_cycles = 0;
        if let Err(e) = r {
            let pc = reg(&self.uc, RegisterARM::PC);
            let core = self.uc.get_data_mut();
            if core.returning(pc) {
                exception_return(&mut self.uc);
            } else {
                let lr = reg(&self.uc, RegisterARM::LR);
                let sp = reg(&self.uc, RegisterARM::SP);
                let core = self.uc.get_data_mut();
                let f = core.mcu.fault.take().unwrap_or(Fault::Cpu {
                    pc,
                    what: format!("{e:?} lr {lr:#x} sp {sp:#x}"),
                });
                return Err(f);
            }
        }
        let core = self.uc.get_data_mut();
        if let Some(f) = core.mcu.fault.take() {
            return Err(f);
        }
        core.mcu.advance();
        if let Some(kind) = core.mcu.reset.take() {
            return Ok((false, Some(kind)));
        }
        Ok((core.mcu.ns() >= end_ns, None))
    }
}

/// The registers an exception frame holds before PC and xPSR, in stack order.
const FRAME_REGS: [RegisterARM; 6] = [
    RegisterARM::R0,
    RegisterARM::R1,
    RegisterARM::R2,
    RegisterARM::R3,
    RegisterARM::R12,
    RegisterARM::LR,
];

/// The addresses (offsets in the flash) of the halfwords that may unmask
/// interrupts: `cpsie i`, and `msr primask, rN` (0xF38n 0x8810). A halfword of
/// data that matches is harmless: no instruction starts there.
fn unmasking(flash: &[u8]) -> Vec<usize> {
    let hw = |o: usize| u16::from_le_bytes([flash[o], flash[o + 1]]);
    (0..flash.len().saturating_sub(3))
        .step_by(2)
        .filter(|&o| hw(o) == CPSIE_I || hw(o) & 0xFFF0 == 0xF380 && hw(o + 2) == 0x8810)
        .collect()
}

/// Exception entry (ARMv7-M ARM B1.5.6): exception `n`'s pending bit cleared;
/// the frame (R0-R3, R12, LR, PC, xPSR) pushed on the main stack, 8-byte
/// aligned, unless `tail` (tail-chained at a handler's return: the frame it
/// would have popped stays); IPSR = `n`, ITSTATE cleared, LR = EXC_RETURN (to
/// thread mode, or to handler mode when a handler is active below it), PC = the
/// handler.
fn take_exception(uc: &mut Uc, n: u32, tail: bool) {
    let sp = reg(uc, RegisterARM::SP);
    let xpsr = reg(uc, RegisterARM::XPSR);
    let pc = reg(uc, RegisterARM::PC);
    let core = uc.get_data_mut();
    core.mcu.scb.clear_pending(n);
    if n == SYSTICK {
        core.mcu.systick.pending = false;
        core.ticks += 1;
    }
    let align = sp & 4;
    let frame_sp = if tail {
        sp
    } else {
        sp.wrapping_sub(32 + align)
    };
    let mut frame = Vec::with_capacity(32);
    if !tail {
        for r in FRAME_REGS {
            frame.extend_from_slice(&reg(uc, r).to_le_bytes());
        }
        frame.extend_from_slice(&(pc & !1).to_le_bytes());
        let aligned = if align != 0 { XPSR_ALIGNED } else { 0 };
        frame.extend_from_slice(&(xpsr | 1 << 24 | aligned).to_le_bytes());
    }
    let core = uc.get_data_mut();
    // The vector at 4n of the table (VTOR is 0: the table at the flash's start).
    let vector = |n: u32| {
        u32::from_le_bytes(
            core.mcu.flash_array()[4 * n as usize..4 * n as usize + 4]
                .try_into()
                .expect("4"),
        )
    };
    // A vector without the Thumb bit is an INVSTATE UsageFault on the
    // handler's first instruction, escalated to HardFault (UsageFault is
    // disabled): entered here as HardFault at once.
    let (n, handler) = match vector(n) {
        h if h & 1 == 0 => (HARD_FAULT, vector(HARD_FAULT)),
        h => (n, h),
    };
    let exc_return = if core.active.is_empty() {
        EXC_RETURN
    } else {
        EXC_RETURN_HANDLER
    };
    core.preemptions += u64::from(!tail && !core.active.is_empty());
    core.tail_chains += u64::from(tail);
    core.active.push(n);
    core.mcu.time.cycles += if tail {
        TAIL_CHAIN_CYCLES
    } else {
        ENTRY_CYCLES
    };
    core.block_start = core.mcu.time.cycles;
    core.block_cycles = 0;
    if !tail && uc.mem_write(u64::from(frame_sp), &frame).is_err() {
        uc.get_data_mut().mcu.fault.get_or_insert(Fault::Cpu {
            pc,
            what: "stack overflow on exception entry".into(),
        });
        return;
    }
    let _ = uc.reg_write(RegisterARM::SP, u64::from(frame_sp));
    // ITSTATE = 0 (ExceptionTaken, ARMv7-M ARM B1.5.6): the interrupted IT
    // block's state is in the frame's xPSR only; the handler runs
    // unconditionally. (Unicorn keeps a slice from stopping inside an IT block
    // except where QEMU splits one across translation blocks at a 1 KiB page
    // boundary: code layouts with such a block took the handler's first
    // instructions conditionally.) IPSR = n: `mrs rN, ipsr` reads it.
    let _ = uc.reg_write(
        RegisterARM::XPSR,
        u64::from(xpsr & !XPSR_IT & !XPSR_IPSR | n),
    );
    let _ = uc.reg_write(RegisterARM::LR, u64::from(exc_return));
    let _ = uc.reg_write(RegisterARM::PC, u64::from(handler | 1));
}

/// Exception return (ARMv7-M ARM B1.5.8): the returning exception is no longer
/// active; a pending exception that preempts what remains is tail-chained;
/// otherwise the frame is popped (xPSR with the IPSR of what was interrupted:
/// 0, thread mode, or the handler below).
fn exception_return(uc: &mut Uc) {
    let primask = reg(uc, RegisterARM::PRIMASK) & 1 != 0;
    let core = uc.get_data_mut();
    // The handler's last block (its return instruction's) ran whole.
    let end = core.block_start + core.block_cycles;
    if end > core.mcu.time.cycles {
        core.mcu.time.cycles = end;
    }
    core.active.pop();
    if let Some(n) = core.preempting(primask) {
        take_exception(uc, n, true);
        return;
    }
    let sp = reg(uc, RegisterARM::SP);
    let Ok(f) = uc.mem_read_as_vec(u64::from(sp), 32) else {
        uc.get_data_mut().mcu.fault.get_or_insert(Fault::Cpu {
            pc: EXC_RETURN,
            what: "bad stack at exception return".into(),
        });
        return;
    };
    let w = |i: usize| u32::from_le_bytes(f[4 * i..4 * i + 4].try_into().expect("4"));
    for (i, r) in FRAME_REGS.into_iter().enumerate() {
        let _ = uc.reg_write(r, u64::from(w(i)));
    }
    let xpsr = w(7);
    let pad = if xpsr & XPSR_ALIGNED != 0 { 4 } else { 0 };
    let _ = uc.reg_write(RegisterARM::SP, u64::from(sp + 32 + pad));
    let _ = uc.reg_write(RegisterARM::XPSR, u64::from(xpsr & !XPSR_ALIGNED));
    let _ = uc.reg_write(RegisterARM::PC, u64::from(w(6) | 1));
    let core = uc.get_data_mut();
    core.mcu.time.cycles += RETURN_CYCLES;
    core.block_start = core.mcu.time.cycles;
    core.block_cycles = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rcc::Oscillators;
    use tictable_machine::sim::world::{SimConfig, World};

    /// Places the Thumb halfwords `code` at `offset` of `flash`.
    fn put(flash: &mut [u8], offset: usize, code: &[u16]) {
        for (i, h) in code.iter().enumerate() {
            flash[offset + 2 * i..offset + 2 * i + 2].copy_from_slice(&h.to_le_bytes());
        }
    }

    /// A board running a hand-assembled program (arm-none-eabi-as, checked with
    /// objdump): SysTick every 200 cycles, its handler `push {r4, lr}; adds r5,
    /// #1`, a delay loop, `pop {r4, pc}`; the NMI's `adds r6, #1; bx lr`; a thread loop whose IT block straddles a 1 KiB
    /// page boundary (QEMU's M-profile translation page), so that a translation
    /// block, and a slice of the emulation, can begin inside the IT block.
    fn it_block_board() -> Board<'static> {
        let mut flash = vec![0xFF; 0x800];
        let words = [
            (0x00, 0x2000_5000u32), // initial SP
            (0x04, 0x0800_0101),    // reset
            (0x08, 0x0800_02C1),    // NMI
            (0x0C, 0x0800_0281),    // HardFault
            (0x3C, 0x0800_0201),    // SysTick
            (0x118, 0xE000_E010),   // literal: SYST_CSR
        ];
        for (o, w) in words {
            flash[o..o + 4].copy_from_slice(&w.to_le_bytes());
        }
        #[rustfmt::skip]
        put(&mut flash, 0x100, &[
            0x4805,         // ldr   r0, [pc, #20]  (SYST_CSR)
            0x21C7,         // movs  r1, #199       (RVR: 200 cycles)
            0x6041,         // str   r1, [r0, #4]
            0x2107,         // movs  r1, #7         (ENABLE, TICKINT, core clock)
            0x6001,         // str   r1, [r0]
            0x2100,         // movs  r1, #0         (a frame's R1: a bad return's PC)
            0x2200,         // movs  r2, #0
            0x2500,         // movs  r5, #0         (SysTick handler runs)
            0x2600,         // movs  r6, #0         (NMI handler runs)
            0xF000, 0xB973, // b.w   0x3FC
        ]);
        #[rustfmt::skip]
        put(&mut flash, 0x200, &[
            0xB510, // push  {r4, lr}
            0x3501, // adds  r5, #1
            0x241E, // movs  r4, #30
            0x3C01, // subs  r4, #1
            0xD1FD, // bne   0x206
            0xBD10, // pop   {r4, pc}
        ]);
        put(&mut flash, 0x280, &[0xE7FE]); // b .   (HardFault)
        put(&mut flash, 0x2C0, &[0x3601, 0x4770]); // adds r6, #1; bx lr  (NMI)
        #[rustfmt::skip]
        put(&mut flash, 0x3FC, &[
            0x2A01, // cmp   r2, #1         (r2 = 0: NE)
            0xBF08, // it    eq             (at 0x3FE, the page's last halfword)
            0x2301, // moveq r3, #1         (at 0x400, the next page)
            0xE7FB, // b     0x3FC
        ]);
        board(flash)
    }

    /// A board running `flash` at 1 cycle per instruction, on the 8 MHz HSI.
    fn board(flash: Vec<u8>) -> Board<'static> {
        let image = Image::from_flash(&flash);
        let world = World::new(SimConfig::standard(0.0, 0.0, 1).expect("config"));
        let mcu = Mcu::new(world, image.flash.clone(), Oscillators::default(), 40_000);
        Board::new(image, mcu, 1).expect("board")
    }

    /// Flash with the vector table's `words` and the Thumb halfwords of `code`
    /// at their offsets.
    fn flash_of(words: &[(usize, u32)], code: &[(usize, &[u16])]) -> Vec<u8> {
        let mut flash = vec![0xFF; 0x800];
        for &(o, w) in words {
            flash[o..o + 4].copy_from_slice(&w.to_le_bytes());
        }
        for &(o, c) in code {
            put(&mut flash, o, c);
        }
        flash
    }

    /// A record the exceptions' handler of [`records_board`] stores: SYST_CVR
    /// read at its start, which handler (its exception number, from its own
    /// stub), IPSR read in it, the thread's last SYST_CVR read (r5).
    #[derive(Debug, PartialEq)]
    struct Record {
        cvr: u32,
        handler: u32,
        ipsr: u32,
        thread_cvr: u32,
    }

    /// A board (hand-assembled, arm-none-eabi-as, checked with objdump) whose
    /// thread starts SysTick counting core cycles down from 0xFFFFFF (no
    /// interrupt), sets IRQ0's and IRQ2's priority to 0x40 and IRQ1's to 0x30
    /// with byte stores to the NVIC's IPR, then reads SYST_CVR into r5 until a
    /// handler has run (r7), and then reads IPSR into r6 for ever. The NMI's
    /// and IRQ0-2's handlers, each `movs r2, #n; b common`, then `ldr r0,
    /// [r1]` (SYST_CVR), `mrs r3, ipsr`, `stmia r4!, {r0, r2, r3, r5}` (RAM
    /// from 0x2000_0000), `adds r7, #1`, `bx lr`. Run 100 µs (the thread set
    /// up), then the NMI and IRQ0-2 raised together and run 100 µs more: the
    /// records, and r5 and r6 at the end.
    fn records_board() -> (Board<'static>, Vec<Record>, u32, u32) {
        #[rustfmt::skip]
        let flash = flash_of(
            &[
                (0x00, 0x2000_5000), // initial SP
                (0x04, 0x0800_0101), // reset
                (0x08, 0x0800_0201), // NMI
                (0x0C, 0x0800_0281), // HardFault
                (0x40, 0x0800_0205), // IRQ0
                (0x44, 0x0800_0209), // IRQ1
                (0x48, 0x0800_020D), // IRQ2
                (0x130, 0xE000_E018), // literal: SYST_CVR
                (0x134, 0xE000_E400), // literal: NVIC_IPR0
            ],
            &[
                (0x100, &[
                    0x490B,         // ldr    r1, [pc, #44]  (SYST_CVR)
                    0xF06F, 0x407F, // mvn.w  r0, #0xFF000000
                    0xF841, 0x0C04, // str.w  r0, [r1, #-4]  (RVR)
                    0x2005,         // movs   r0, #5         (ENABLE, core clock)
                    0xF841, 0x0C08, // str.w  r0, [r1, #-8]  (CSR)
                    0x4A08,         // ldr    r2, [pc, #32]  (NVIC_IPR0)
                    0x2040,         // movs   r0, #0x40
                    0x7010,         // strb   r0, [r2, #0]   (IRQ0)
                    0x7090,         // strb   r0, [r2, #2]   (IRQ2)
                    0x2030,         // movs   r0, #0x30
                    0x7050,         // strb   r0, [r2, #1]   (IRQ1)
                    0xF04F, 0x5400, // mov.w  r4, #0x20000000
                    0x2700,         // movs   r7, #0
                    0x680D,         // loop: ldr r5, [r1, #0]
                    0x2F00,         // cmp    r7, #0
                    0xD0FC,         // beq.n  loop
                    0xF3EF, 0x8605, // done: mrs r6, IPSR
                    0xE7FC,         // b.n    done
                ]),
                (0x200, &[
                    0x2202, 0xE005, // movs r2, #2;  b.n common  (NMI)
                    0x2210, 0xE003, // movs r2, #16; b.n common  (IRQ0)
                    0x2211, 0xE001, // movs r2, #17; b.n common  (IRQ1)
                    0x2212, 0xE7FF, // movs r2, #18; b.n common  (IRQ2)
                    0x6808,         // common: ldr r0, [r1, #0]
                    0xF3EF, 0x8305, // mrs    r3, IPSR
                    0xC42D,         // stmia  r4!, {r0, r2, r3, r5}
                    0x3701,         // adds   r7, #1
                    0x4770,         // bx     lr
                ]),
                (0x280, &[0xE7FE]), // b .  (HardFault)
            ],
        );
        let mut board = board(flash);
        assert_eq!(board.run_until(100_000), Ok(None));
        for e in [
            Exception::Irq(0),
            Exception::Irq(1),
            Exception::Irq(2),
            Exception::Nmi,
        ] {
            board.raise(e);
        }
        assert_eq!(board.run_until(200_000), Ok(None));
        let n = reg(&board.uc, RegisterARM::R7) as usize;
        let ram = board
            .uc
            .mem_read_as_vec(u64::from(RAM_BASE), 16 * n)
            .expect("RAM");
        let w = |i: usize| u32::from_le_bytes(ram[4 * i..4 * i + 4].try_into().expect("4"));
        let records = (0..n)
            .map(|r| Record {
                cvr: w(4 * r),
                handler: w(4 * r + 1),
                ipsr: w(4 * r + 2),
                thread_cvr: w(4 * r + 3),
            })
            .collect();
        let (r5, r6) = (
            reg(&board.uc, RegisterARM::R5),
            reg(&board.uc, RegisterARM::R6),
        );
        (board, records, r5, r6)
    }

    /// ARMv7-M ARM B1.4.2, B1.5.6: IPSR holds the active exception's number
    /// (`mrs rN, ipsr`), 0 in thread mode again after the return.
    #[test]
    fn ipsr_reads_the_active_exception_and_zero_in_thread_mode() {
        let (_, records, _, thread_ipsr) = records_board();
        assert_eq!(records.len(), 4, "{records:?}");
        for r in &records {
            assert_eq!(r.ipsr, r.handler, "{r:?}");
        }
        assert_eq!(thread_ipsr, 0);
    }

    /// ARMv7-M ARM B1.5.4; PM0056 §4.3.7: of the exceptions pending together
    /// the NMI (-2) first, then the lowest priority value (IRQ1 at 0x30), then
    /// of equal priority the lowest exception number (IRQ0 before IRQ2, both
    /// at 0x40).
    #[test]
    fn pending_exceptions_are_taken_by_priority_then_exception_number() {
        let (_, records, _, _) = records_board();
        let order: Vec<u32> = records.iter().map(|r| r.handler).collect();
        assert_eq!(order, [2, 17, 16, 18]);
    }

    /// Cortex-M3 TRM "Interrupt latency" and ARM knowledge article 103489845
    /// (cpi 1, zero wait states): entry 12 cycles, tail-chain 6, return 10.
    /// The four exceptions pending together run back to back: one entry,
    /// three tail-chains (no frame popped and pushed again), one return.
    #[test]
    fn pending_exceptions_are_tail_chained_with_the_trms_cycle_counts() {
        let (board, records, thread_cvr, _) = records_board();
        assert_eq!(records.len(), 4, "{records:?}");
        assert_eq!(board.core().tail_chains, 3);
        assert_eq!(board.core().preemptions, 0);
        // SYST_CVR counts the cycles down. The thread's loop (3 instructions)
        // was preempted at its start: 3 + 12 (entry) + 2 (the stub) to the
        // first handler's read.
        assert_eq!(records[0].thread_cvr - records[0].cvr, 3 + 12 + 2);
        // Each handler: 5 instructions from its read to its return, 6 to the
        // next (tail-chained), 2 of its stub.
        for p in records.windows(2) {
            assert_eq!(p[0].cvr - p[1].cvr, 5 + 6 + 2, "{p:?}");
        }
        // The last: 5 + 10 (return) to the thread's next read.
        assert_eq!(records[3].cvr - thread_cvr, 5 + 10);
    }

    /// ARMv7-M ARM B3.3.1: SysTick counts from the write that enables it; the
    /// run slice under way ends at its first interrupt, so one run of 2 ms
    /// (16,000 cycles at 8 MHz, SysTick every 200) takes its exceptions as
    /// they come, not one at the end.
    #[test]
    fn enabling_systick_takes_effect_at_once() {
        let mut board = it_block_board();
        assert_eq!(board.run_until(2_000_000), Ok(None));
        let ticks = board.core().ticks;
        assert!(ticks >= 40, "{ticks} SysTick exceptions in one run");
    }

    /// A thread that, interrupts masked, starts SysTick (every 2,000 cycles),
    /// waits 2,500 cycles (the tick pends), reads SYST_CVR (r5) and unmasks
    /// them with `unmask` (at most 3 halfwords, `b .` after it); the SysTick
    /// handler reads SYST_CVR (r6) and stops SysTick. Run 1 ms: the cycles
    /// from the thread's read to the handler's.
    fn unmasking_delay(unmask: &[u16]) -> u32 {
        let mut code = vec![
            0xB672, // cpsid  i
            0x4909, // ldr    r1, [pc, #36]  (SYST_CVR)
            0xF240, 0x70CF, // movw   r0, #1999      (RVR)
            0xF841, 0x0C04, // str.w  r0, [r1, #-4]
            0x2007, // movs   r0, #7         (ENABLE, TICKINT, core clock)
            0xF841, 0x0C08, // str.w  r0, [r1, #-8]
            0x2600, // movs   r6, #0
            0x3E01, // subs   r6, #1         (r6 = -1: no handler yet)
            0xF240, 0x42E2, // movw   r2, #1250
            0x3A01, // d: subs r2, #1
            0xD1FD, // bne.n  d
            0x680D, // ldr    r5, [r1, #0]
        ];
        code.extend_from_slice(unmask);
        code.push(0xE7FE); // b .
        assert!(code.len() <= 20, "the literal at 0x128");
        #[rustfmt::skip]
        let flash = flash_of(
            &[
                (0x00, 0x2000_5000), // initial SP
                (0x04, 0x0800_0101), // reset
                (0x3C, 0x0800_0201), // SysTick
                (0x128, 0xE000_E018), // literal: SYST_CVR
            ],
            &[
                (0x100, &code),
                (0x200, &[
                    0x680E,         // ldr    r6, [r1, #0]  (SysTick)
                    0x2000,         // movs   r0, #0
                    0xF841, 0x0C08, // str.w  r0, [r1, #-8]  (SysTick off)
                    0x4770,         // bx     lr
                ]),
            ],
        );
        let mut board = board(flash);
        assert_eq!(board.run_until(1_000_000), Ok(None));
        let (r5, r6) = (
            reg(&board.uc, RegisterARM::R5),
            reg(&board.uc, RegisterARM::R6),
        );
        assert!(r6 < 2_000, "the handler ran: r6 {r6:#x}");
        (r5 + 2_000 - r6) % 2_000
    }

    /// ARMv7-M ARM B1.5.4: PRIMASK holds a pending exception off; `cpsie i`
    /// lets it in at once: the handler's read 14 cycles after the thread's
    /// (the block's 2 instructions, then the entry's 12).
    #[test]
    fn cpsie_takes_the_pending_exception_at_once() {
        assert_eq!(unmasking_delay(&[0xB662 /* cpsie i */]), 2 + 12);
    }

    /// The same with `msr primask, r0` (r0 = 0), as `cortex-m`'s critical
    /// section restores PRIMASK in the image: 3 instructions, then 12.
    #[test]
    fn msr_primask_takes_the_pending_exception_at_once() {
        #[rustfmt::skip]
        let unmask = [
            0x2000,         // movs  r0, #0
            0xF380, 0x8810, // msr   PRIMASK, r0
        ];
        assert_eq!(unmasking_delay(&unmask), 3 + 12);
    }

    /// ARMv7-M ARM B1.5.6 (ExceptionTaken): ITSTATE is cleared on exception entry;
    /// the interrupted IT state is kept in the stacked xPSR and restored at the
    /// return. A handler entered with the thread's IT state would run its first
    /// instructions conditionally: here `push {r4, lr}` skipped under EQ, then
    /// `pop {r4, pc}` returns through the frame's R1 = 0, the "CPU fault at pc
    /// 0x00000000, lr 0xfffffff9" the firmware image met when its layout put an
    /// IT block across a 1 KiB boundary.
    #[test]
    fn an_exception_taken_inside_an_it_block_runs_its_handler_unconditionally() {
        let mut board = it_block_board();
        // 2 ms (16,000 cycles at 8 MHz: about 70 ticks) in steps, as a session
        // runs the board (a slice stops for SysTick only once it counts).
        for step in 1..=100 {
            assert_eq!(board.run_until(step * 20_000), Ok(None), "at step {step}");
        }
        let ticks = board.core().ticks;
        assert!(ticks >= 40, "{ticks} SysTick exceptions");
        let runs = reg(&board.uc, RegisterARM::R5);
        // The handler's count may lag by the one being handled at the stop.
        assert!(
            runs + 1 >= u32::try_from(ticks).unwrap(),
            "{runs} handler runs for {ticks} exceptions"
        );
    }

    /// An NMI that preempts the SysTick handler returns to it (EXC_RETURN
    /// 0xFFFFFFF1, handler mode), and the handler then returns to the thread
    /// (ARMv7-M ARM B1.5.8): the NMIs raised run, no fault.
    #[test]
    fn an_nmi_preempting_a_handler_returns_to_it() {
        let mut board = it_block_board();
        for step in 1..=200 {
            board.raise(Exception::Nmi);
            assert_eq!(board.run_until(step * 10_000), Ok(None), "at step {step}");
        }
        // One raised while the last is active stays pending (and one raised
        // while that one is still pending merges with it, as NMIPENDSET does).
        assert_eq!(board.run_until(2_100_000), Ok(None));
        let runs = reg(&board.uc, RegisterARM::R6);
        assert!((195..=200).contains(&runs), "{runs} NMI handler runs");
        let p = board.core().preemptions;
        assert!(p >= 10, "{p} NMIs taken inside the SysTick handler");
        assert!(board.core().active.is_empty());
    }
}
