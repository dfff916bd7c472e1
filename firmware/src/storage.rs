//! `embedded-storage` over the last two pages of the STM32F103C8's flash, for
//! `tictable::device::persist::Store` (the HAL's `FlashWriter` does not implement
//! the traits itself).
//!
//! The store keeps two snapshot slots of `SLOT_SIZE` bytes so that a power cut while
//! one is written leaves the other intact. Each slot therefore gets its own 1 KiB
//! flash page (the logical window `k` lives at the start of page `k`): erasing one
//! slot's page never touches the other slot. A write goes window by window: it
//! reads the window, changes the bytes that fall in it, and only if that changed
//! anything erases the page and programs the window back.

use embedded_storage::{ReadStorage, Storage};
use stm32f1xx_hal::flash::{Error, FlashWriter};
use tictable::device::persist::SLOT_SIZE;

/// Bytes per flash page on medium-density STM32F1 parts.
const PAGE: u32 = 1024;
/// Offset (from the start of flash) of the first storage page: the last two pages
/// of 64 KiB. `memory.x` gives the program only the first 62 KiB.
const FIRST_PAGE: u32 = 62 * 1024;
/// Logical windows (one per page).
const WINDOWS: usize = 2;
/// Logical bytes.
const CAPACITY: usize = WINDOWS * SLOT_SIZE;

/// The snapshot storage: `2 * SLOT_SIZE` logical bytes in two flash pages.
pub struct FlashStorage<'a> {
    writer: FlashWriter<'a>,
}

impl<'a> FlashStorage<'a> {
    /// The storage over `writer` (configured for 1 KiB sectors and 64 KiB).
    pub fn new(writer: FlashWriter<'a>) -> Self {
        FlashStorage { writer }
    }

    /// The flash offset of logical window `window`'s page.
    const fn page(window: usize) -> u32 {
        FIRST_PAGE + window as u32 * PAGE
    }

    /// The `len` logical bytes at `offset`, or `LengthTooLong` past the capacity.
    fn check(offset: u32, len: usize) -> Result<usize, Error> {
        match (offset as usize).checked_add(len) {
            Some(end) if end <= CAPACITY => Ok(offset as usize),
            _ => Err(Error::LengthTooLong),
        }
    }
}

impl ReadStorage for FlashStorage<'_> {
    type Error = Error;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), Error> {
        let start = Self::check(offset, bytes.len())?;
        for window in 0..WINDOWS {
            // One aligned read of the whole window (the HAL reads from even
            // addresses only), then the bytes of the request that fall in it (a
            // logical address below the window wraps past its end).
            let page = self.writer.read(Self::page(window), SLOT_SIZE)?;
            for (i, b) in bytes.iter_mut().enumerate() {
                if let Some(v) = page.get((start + i).wrapping_sub(window * SLOT_SIZE)) {
                    *b = *v;
                }
            }
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        CAPACITY
    }
}

impl Storage for FlashStorage<'_> {
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), Error> {
        let start = Self::check(offset, bytes.len())?;
        let mut page = [0u8; SLOT_SIZE];
        for window in 0..WINDOWS {
            page.copy_from_slice(self.writer.read(Self::page(window), SLOT_SIZE)?);
            let mut changed = false;
            for (i, &v) in bytes.iter().enumerate() {
                // The page byte for the request's logical address `start + i`.
                if let Some(b) = page.get_mut((start + i).wrapping_sub(window * SLOT_SIZE)) {
                    changed |= *b != v;
                    *b = v;
                }
            }
            if changed {
                self.writer.page_erase(Self::page(window))?;
                self.writer.write(Self::page(window), &page)?;
            }
        }
        Ok(())
    }
}
