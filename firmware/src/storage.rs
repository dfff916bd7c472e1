//! `embedded-storage` NOR flash over the last [`PAGES`] pages of the STM32F103C8's
//! flash, for `tictable_machine::persist::Store`, on the flash program and erase
//! controller's registers (`fpec`: RM0008 §3.3.3, PM0075 §3; the HAL's `FlashWriter`
//! took more flash for the same steps: docs/firmware.md, "Size history").
//!
//! Offset 0 of this flash is the start of page 40 (0x0800_A000), 24 KiB in all:
//! erase unit one 1 KiB page, write unit one half-word at an even address (the
//! FPEC programs half-words), read unit 2. The store appends snapshots to a log
//! over the pages and erases one only when it is full, round robin (17 saves per
//! erase, see `persist`'s module docs), so that each page wears a twenty-fourth as
//! fast. `memory.x` keeps the program out of these pages.
//!
//! Every request is checked against these 24 KiB and units first
//! (`embedded_storage::nor_flash::check_*`: a typed `FlashError::Check`, nothing
//! touched). Each page erase and half-word program is one FPEC operation: unlock
//! (KEYR), PER with the page in AR then STRT, or PG and the half-word written; BSY
//! waited for; the error flags read and cleared; the FPEC locked again. Then every
//! erase and write is read back (a page must read 0xFFFF throughout, a half-word
//! what was written): a cell that fails to program is reported
//! (`FlashError::Failed`), so the next save cannot erase the only good copy.

use crate::fpec::{self, Flash};
use embedded_storage::nor_flash::{
    check_erase, check_read, check_write, ErrorType, NorFlash, NorFlashError, NorFlashErrorKind,
    ReadNorFlash,
};

/// Bytes per flash page on medium-density STM32F1 parts.
const PAGE: u32 = 1024;
/// Pages for snapshots: 24 of the 64, so that even a machine with many faults (up
/// to 1.6 erases a game under `simulate`'s 0.3 fault rate, any of the six games,
/// 500 games, seeds 1-3, 2026-12-07) plays over 100,000 games before
/// the most-worn page reaches the rated 10,000 erases (firmware README,
/// "Persistence"). The program needs under 18 KiB of the 40 KiB left to it.
pub const PAGES: u32 = 24;
/// Offset (from the start of flash) of the first storage page: the last [`PAGES`]
/// pages of 64 KiB. `memory.x` gives the program only the first 40 KiB.
const FIRST_PAGE: u32 = (64 - PAGES) * PAGE;
/// Bytes of this flash: [`PAGES`] pages.
const CAPACITY: usize = (PAGES * PAGE) as usize;

/// Why a flash operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashError {
    /// Misaligned or out of range (`embedded_storage::nor_flash::check_*`).
    Check(NorFlashErrorKind),
    /// An erase or a half-word program failed: FLASH_SR's error flags it set
    /// (PGERR 0x04: a half-word not erased; WRPRTERR 0x10: write-protected), or 0
    /// when the flags were clear but the flash does not read back what it should
    /// (a worn cell, a locked FPEC).
    Failed(u8),
}

impl NorFlashError for FlashError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            FlashError::Check(kind) => *kind,
            FlashError::Failed(_) => NorFlashErrorKind::Other,
        }
    }
}

impl From<NorFlashErrorKind> for FlashError {
    fn from(kind: NorFlashErrorKind) -> FlashError {
        FlashError::Check(kind)
    }
}

/// FLASH_SR bits (RM0008 §3.3.3): busy, programming error, write-protection error,
/// end of operation.
const BSY: u32 = 1 << 0;
const PGERR: u32 = 1 << 2;
const WRPRTERR: u32 = 1 << 4;
const EOP: u32 = 1 << 5;
/// FLASH_CR bits: programming, page erase, start (of an erase), lock.
const PG: u32 = 1 << 0;
const PER: u32 = 1 << 1;
const STRT: u32 = 1 << 6;
const LOCK: u32 = 1 << 7;
/// FLASH_KEYR's unlock sequence.
const KEY1: u32 = 0x4567_0123;
const KEY2: u32 = 0xCDEF_89AB;

/// One FPEC operation on the flash at `at` (an offset of the array): with `cr`
/// = [`PER`] the page erase, with [`PG`] `value` programmed. Unlocked (the FPEC is
/// locked between operations, so the key sequence always meets a locked FPEC), the
/// operation started (PER, AR, STRT; or PG and the half-word written), BSY waited
/// for, the error flags read and cleared, locked again; then the flash read back
/// must hold `value` throughout (0xFFFF: the whole page erased).
#[inline(never)]
fn operate(cr: u32, at: u32, value: u16) -> Result<(), FlashError> {
    fpec::key(KEY1);
    fpec::key(KEY2);
    fpec::set_cr(cr);
    let len = if cr == PER {
        fpec::set_ar(at);
        fpec::set_cr(PER | STRT);
        PAGE
    } else {
        fpec::write_half(at, value);
        2
    };
    while fpec::sr() & BSY != 0 {}
    let errors = fpec::sr() & (PGERR | WRPRTERR);
    fpec::set_sr(PGERR | WRPRTERR | EOP);
    fpec::set_cr(LOCK);
    if errors != 0
        || !(at..at + len)
            .step_by(2)
            .all(|a| fpec::read_half(a) == value)
    {
        return Err(FlashError::Failed(errors as u8));
    }
    Ok(())
}

/// The snapshot flash: the last [`PAGES`] 1 KiB pages.
pub struct FlashStorage {
    _fpec: Flash,
}

impl FlashStorage {
    /// The storage over the flash interface (after the clock setup, which only
    /// needs its ACR while configuring).
    pub fn new(fpec: Flash) -> Self {
        FlashStorage { _fpec: fpec }
    }
}

impl ErrorType for FlashStorage {
    type Error = FlashError;
}

impl ReadNorFlash for FlashStorage {
    const READ_SIZE: usize = 2;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), FlashError> {
        check_read(self, offset, bytes.len())?;
        fpec::read(FIRST_PAGE + offset, bytes);
        Ok(())
    }

    fn capacity(&self) -> usize {
        CAPACITY
    }
}

impl NorFlash for FlashStorage {
    const WRITE_SIZE: usize = 2;
    const ERASE_SIZE: usize = PAGE as usize;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), FlashError> {
        check_erase(self, from, to)?;
        // Page by page (both ends are whole pages, checked above).
        let mut at = FIRST_PAGE + from;
        while at < FIRST_PAGE + to {
            operate(PER, at, 0xFFFF)?;
            at += PAGE;
        }
        Ok(())
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), FlashError> {
        check_write(self, offset, bytes.len())?;
        let mut at = FIRST_PAGE + offset;
        for pair in bytes.chunks_exact(2) {
            operate(PG, at, u16::from_le_bytes([pair[0], pair[1]]))?;
            at += 2;
        }
        Ok(())
    }
}
