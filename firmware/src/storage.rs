//! `embedded-storage` over the last two pages of the STM32F103C8's flash, for
//! `tictable::device::persist::Store` (the HAL's `FlashWriter` does not implement
//! the traits itself).
//!
//! The store keeps two snapshot slots of `SLOT_SIZE` bytes so that a power cut while
//! one is written leaves the other intact. Each slot therefore gets its own 1 KiB
//! flash page (the logical window `k` lives at the start of page `k`): erasing one
//! slot's page never touches the other slot. A write reads its window, changes the
//! bytes, erases the page and programs the window back.

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

/// The snapshot storage: `2 * SLOT_SIZE` logical bytes in two flash pages.
pub struct FlashStorage<'a> {
    writer: FlashWriter<'a>,
}

impl<'a> FlashStorage<'a> {
    /// The storage over `writer` (configured for 1 KiB sectors and 64 KiB).
    pub fn new(writer: FlashWriter<'a>) -> Self {
        FlashStorage { writer }
    }

    /// Splits `offset..offset + len` into per-window runs:
    /// (window, offset in window, offset in the caller's buffer, length).
    fn runs(
        offset: u32,
        len: usize,
    ) -> Result<impl Iterator<Item = (u32, usize, usize, usize)>, Error> {
        if offset as usize + len > WINDOWS * SLOT_SIZE {
            return Err(Error::LengthTooLong);
        }
        let mut done = 0;
        Ok(core::iter::from_fn(move || {
            if done == len {
                return None;
            }
            let at = offset as usize + done;
            let (window, within) = (at / SLOT_SIZE, at % SLOT_SIZE);
            let n = (SLOT_SIZE - within).min(len - done);
            let run = (window as u32, within, done, n);
            done += n;
            Some(run)
        }))
    }

    /// Copies `out.len()` bytes of window `window` from `within`.
    fn read_window(&self, window: u32, within: usize, out: &mut [u8]) -> Result<(), Error> {
        // The HAL reads from even addresses only: start one byte early if needed.
        let skew = within & 1;
        let start = FIRST_PAGE + window * PAGE + (within - skew) as u32;
        let bytes = self.writer.read(start, out.len() + skew)?;
        out.copy_from_slice(&bytes[skew..]);
        Ok(())
    }
}

impl ReadStorage for FlashStorage<'_> {
    type Error = Error;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), Error> {
        for (window, within, at, n) in Self::runs(offset, bytes.len())? {
            self.read_window(window, within, &mut bytes[at..at + n])?;
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        WINDOWS * SLOT_SIZE
    }
}

impl Storage for FlashStorage<'_> {
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), Error> {
        for (window, within, at, n) in Self::runs(offset, bytes.len())? {
            let mut page = [0u8; SLOT_SIZE];
            self.read_window(window, 0, &mut page)?;
            if page[within..within + n] == bytes[at..at + n] {
                continue;
            }
            page[within..within + n].copy_from_slice(&bytes[at..at + n]);
            let start = FIRST_PAGE + window * PAGE;
            self.writer.page_erase(start)?;
            self.writer.write(start, &page)?;
        }
        Ok(())
    }
}
