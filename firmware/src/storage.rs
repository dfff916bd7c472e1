//! `embedded-storage` NOR flash over the last [`PAGES`] pages of the STM32F103C8's
//! flash, for `tictable_machine::persist::Store` (the HAL's `FlashWriter` does not
//! implement the traits itself).
//!
//! Offset 0 of this flash is the start of page 40 (0x0800_A000), 24 KiB in all:
//! erase unit one 1 KiB page, write unit one half-word at an even address (the
//! HAL programs half-words), read unit 2 (the HAL reads from even addresses).
//! The store appends snapshots to a log over the pages and erases one only when
//! it is full, round robin (17 saves per erase, see `persist`'s module docs), so
//! that each page wears a twenty-fourth as fast. `memory.x` keeps the program out of
//! these pages.
//!
//! Every request is checked against these 24 KiB and units first
//! (`embedded_storage::nor_flash::check_*`: a typed `FlashError::Check`, nothing
//! touched). The HAL then verifies each erase and write by reading it back (its
//! default; turning that off would save a little flash, but a cell that
//! fails to program would then go unreported and the next save could erase the
//! only good copy).

use embedded_storage::nor_flash::{
    check_erase, check_read, check_write, ErrorType, NorFlash, NorFlashError, NorFlashErrorKind,
    ReadNorFlash,
};
use stm32f1xx_hal::flash::{Error, FlashSize, FlashWriter, Parts, SectorSize};

/// Bytes per flash page on medium-density STM32F1 parts.
const PAGE: u32 = 1024;
/// Pages for snapshots: 24 of the 64, so that even a machine with many faults (1.3
/// erases a game under `simulate`'s 0.3 fault rate) plays over 100,000 games before
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
    /// The HAL reported an error (erase, programming, verification...).
    Hal(Error),
}

impl NorFlashError for FlashError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            FlashError::Check(kind) => *kind,
            FlashError::Hal(_) => NorFlashErrorKind::Other,
        }
    }
}

impl From<NorFlashErrorKind> for FlashError {
    fn from(kind: NorFlashErrorKind) -> FlashError {
        FlashError::Check(kind)
    }
}

impl From<Error> for FlashError {
    fn from(e: Error) -> FlashError {
        FlashError::Hal(e)
    }
}

/// The snapshot flash: the last [`PAGES`] 1 KiB pages.
pub struct FlashStorage {
    parts: Parts,
}

impl FlashStorage {
    /// The storage over the flash peripheral (after the clock setup, which only
    /// needs its `acr` while configuring).
    pub fn new(parts: Parts) -> Self {
        FlashStorage { parts }
    }

    /// The HAL's writer for 1 KiB pages and 64 KiB (made for each operation: a
    /// few register handles, and the sizes stay constants the checks fold).
    fn writer(&mut self) -> FlashWriter<'_> {
        self.parts.writer(SectorSize::Sz1K, FlashSize::Sz64K)
    }
}

impl ErrorType for FlashStorage {
    type Error = FlashError;
}

impl ReadNorFlash for FlashStorage {
    const READ_SIZE: usize = 2;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), FlashError> {
        check_read(self, offset, bytes.len())?;
        bytes.copy_from_slice(self.writer().read(FIRST_PAGE + offset, bytes.len())?);
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
            self.writer().page_erase(at)?;
            at += PAGE;
        }
        Ok(())
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), FlashError> {
        check_write(self, offset, bytes.len())?;
        // Half-word by half-word: the HAL's loop over a slice of constant length
        // folds to one programming step.
        let mut at = FIRST_PAGE + offset;
        for half_word in bytes.chunks_exact(2) {
            self.writer().write(at, half_word)?;
            at += 2;
        }
        Ok(())
    }
}
