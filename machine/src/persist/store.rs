//! [`Store`]: the append-only snapshot log over the pages of a NOR flash (the layout
//! is in the module docs of [`persist`](super)).

use super::codec::*;
use super::Snapshot;
use embedded_storage::nor_flash::NorFlash;

/// Why a save or a load failed.
///
/// ```
/// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
/// use tictable_machine::persist::{PersistError, Store};
/// use tictable_machine::sim::flash::MemFlash;
///
/// // 512-byte erase units, 2-byte writes: a page of the store is one unit, and the
/// // store needs at least two of them from a base that is a multiple of 512.
/// type Flash = MemFlash<2048, 512, 2>;
/// assert!(Store::new(Flash::new(), 1024).is_ok());
/// assert!(matches!(Store::new(Flash::new(), 1536), Err(PersistError::TooSmall)));
/// assert!(matches!(Store::new(Flash::new(), 100), Err(PersistError::Misaligned)));
/// // Writes of 128 bytes at once: the frame cannot be padded to that.
/// assert!(matches!(
///     Store::new(MemFlash::<2048, 512, 128>::new(), 0),
///     Err(PersistError::Unsupported)
/// ));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PersistError<E> {
    /// The flash reported an error (a power cut, a failed erase or write...).
    Storage(E),
    /// The flash holds fewer than two pages ([`Store::PAGE_STRIDE`] bytes each)
    /// from the base offset.
    TooSmall,
    /// The base offset is not a multiple of the flash's `ERASE_SIZE`, so erasing
    /// a page could touch something else.
    Misaligned,
    /// The flash's read or write unit is not one the store can pad a record to:
    /// one of the two units must be a multiple of the other, the erase unit a
    /// multiple of both, and the frame padded to them must fit the store's buffer
    /// (true of units of up to 32 bytes that are powers of two, as on common NOR
    /// flash).
    Unsupported,
}

impl<E: core::fmt::Debug> core::fmt::Display for PersistError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PersistError::Storage(e) => write!(f, "flash error: {e:?}"),
            PersistError::TooSmall => f.write_str("the flash is too small for two pages"),
            PersistError::Misaligned => f.write_str("base offset not on an erase unit"),
            PersistError::Unsupported => f.write_str("unsupported flash read or write unit"),
        }
    }
}

impl<E: core::fmt::Debug> core::error::Error for PersistError<E> {}

/// Where the fields a game changes start in the encoding: the setup, the moves
/// (the window of nine), the task, the flags, the stock and the pending placement
/// (with `games`, the game byte and `keep`). Everything before (version,
/// sequence, calibration, pose, reset cause, with `games` the base plies) changes
/// only when the machine is calibrated or reset or a game outgrows the window, so
/// a save between those writes only these fields and their CRC-32 (a delta: 44 B;
/// 46 B with `games`).
pub(super) const DELTA_START: usize = at::DEVICE_FIRST;

/// Seals the encoding's bytes from `from` (0: a whole snapshot, [`DELTA_START`]: a
/// delta) with their CRC-32, LE at [`ENCODED_LEN`].
pub(super) fn seal(frame: &mut Frame, from: usize) {
    let crc = crc32(&frame[from..ENCODED_LEN]);
    put_u32(frame, ENCODED_LEN, crc);
}

/// Whether the encoding's bytes from `from` are followed by their CRC-32 and the
/// frame decodes: a record the scan may take.
fn valid(frame: &Frame, from: usize) -> bool {
    u32_at(frame, ENCODED_LEN) == crc32(&frame[from..ENCODED_LEN])
        && Snapshot::decode_frame(frame).is_some()
}

/// Where the next save goes: the newest frame (its CRC is not kept up to date),
/// the page holding it, that page's sequence and its next free delta slot.
#[derive(Clone, Debug)]
struct Head {
    /// The fields below describe the flash (after a load or a save that worked).
    known: bool,
    page: u32,
    /// The sequence of the page's whole snapshot; its delta in slot `k` has
    /// `sequence + k + 1`.
    sequence: u32,
    /// The next free delta slot (`usize::MAX` with no valid snapshot on the flash:
    /// none, the next save writes a whole one).
    next: usize,
    frame: Frame,
}

/// Snapshots appended to a log over two or more pages of a NOR flash, from `base`
/// (see the module docs for the layout): a page is erased only once it is full.
///
/// ```
/// # #[cfg(all(feature = "sim", not(feature = "games")))] { // the simulator's machine and flash; the default layout's figures
/// use tictable_machine::controller::GameRecord;
/// use tictable_machine::persist::{Snapshot, Store};
/// use tictable_machine::sim::flash::MemFlash;
/// use tictable_machine::sim::run::SimMachine;
/// use tictable_machine::sim::world::SimConfig;
/// use tictable_machine::controller::BestMove;
/// use tictable::Square;
///
/// let m = SimMachine::new(SimConfig::standard(0.0, 0.0, 1).unwrap(), BestMove).unwrap();
/// let mut snap = m.controller.snapshot();
/// // Two pages of 1 KiB, as on the STM32F103: 17 saves each.
/// type Flash = MemFlash<2048, 1024, 2>;
/// assert_eq!(Store::<Flash>::SAVES_PER_PAGE, 17);
/// let mut store = Store::new(Flash::new(), 0).unwrap();
/// assert_eq!(store.load().unwrap(), None); // erased flash: nothing saved yet
/// store.save(&snap).unwrap(); // page 0 erased, the whole snapshot, sequence 1
/// snap.record.push(Square::CENTRE).unwrap();
/// store.save(&snap).unwrap(); // the same calibration: a delta, sequence 2
/// store.save(&snap).unwrap(); // unchanged: not written again
/// assert_eq!((store.flash().erases, store.flash().writes), (1, 2));
/// // After a reset: the newest snapshot.
/// let got = Store::new(store.destroy(), 0).unwrap().load().unwrap().unwrap();
/// assert_eq!((got.sequence, got.record), (2, snap.record));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Store<S> {
    flash: S,
    base: u32,
    /// Pages of [`Store::PAGE_STRIDE`] bytes from `base`: at least 2.
    pages: u32,
    /// Where the next save goes.
    head: Head,
}

impl<S: NorFlash> Store<S> {
    /// The unit a record is padded to: the larger of the read and write units (0
    /// if one is not a multiple of the other).
    const UNIT: usize = {
        let (r, w) = (S::READ_SIZE, S::WRITE_SIZE);
        let unit = if r > w { r } else { w };
        if r == 0 || w == 0 || unit % r != 0 || unit % w != 0 {
            0
        } else {
            unit
        }
    };

    /// Bytes read and written for a whole snapshot: the frame padded with zeros to
    /// a whole number of read and write units (0 if the units are unsupported).
    pub(super) const FULL_IO: usize = match FRAME_LEN.checked_next_multiple_of(Self::UNIT) {
        Some(len) if len <= FRAME_BUF => len,
        _ => 0,
    };

    /// Bytes read and written for a delta: the game fields and their CRC, padded
    /// the same way (0 if unsupported).
    pub(super) const DELTA_IO: usize =
        match (ENCODED_LEN + 4 - DELTA_START).checked_next_multiple_of(Self::UNIT) {
            Some(len) if DELTA_START + len <= FRAME_BUF => len,
            _ => 0,
        };

    /// Bytes of a page of the store: a whole snapshot rounded up to whole erase
    /// units of the flash (0 if unsupported). The store uses every whole page from
    /// the base to the end of the flash.
    ///
    /// ```
    /// # #[cfg(all(feature = "sim-core", not(feature = "games")))] { // the simulator's flash; the default layout's figures
    /// use tictable_machine::persist::Store;
    /// use tictable_machine::sim::flash::MemFlash;
    /// // 1 KiB erase units (STM32F103): one per page. 128-byte units: three.
    /// assert_eq!(Store::<MemFlash<4096, 1024, 2>>::PAGE_STRIDE, 1024);
    /// assert_eq!(Store::<MemFlash<4096, 128, 8>>::PAGE_STRIDE, 384);
    /// # }
    /// ```
    pub const PAGE_STRIDE: usize = match Self::FULL_IO.checked_next_multiple_of(S::ERASE_SIZE) {
        Some(stride) if Self::FULL_IO != 0 && Self::DELTA_IO != 0 && stride % Self::UNIT == 0 => {
            stride
        }
        _ => 0,
    };

    /// Delta slots after a page's whole snapshot.
    const DELTAS: usize = match Self::PAGE_STRIDE {
        0 => 0,
        stride => (stride - Self::FULL_IO) / Self::DELTA_IO,
    };

    /// Saves a page takes between two erases when the calibration does not change:
    /// a whole snapshot, then as many deltas as fit (0 if unsupported).
    ///
    /// ```
    /// # #[cfg(all(feature = "sim-core", not(feature = "games")))] { // the simulator's flash; the default layout's figures
    /// use tictable_machine::persist::Store;
    /// use tictable_machine::sim::flash::MemFlash;
    /// assert_eq!(Store::<MemFlash<8192, 1024, 2>>::SAVES_PER_PAGE, 17);
    /// assert_eq!(Store::<MemFlash<1024, 512, 2>>::SAVES_PER_PAGE, 5);
    /// # }
    /// ```
    pub const SAVES_PER_PAGE: usize = match Self::PAGE_STRIDE {
        0 => 0,
        _ => 1 + Self::DELTAS,
    };

    /// A store over every whole page ([`Store::PAGE_STRIDE`] bytes) of `flash`
    /// from `base`, which must be a multiple of the flash's `ERASE_SIZE`: the
    /// number of pages is the flash's capacity past `base` (the firmware's flash
    /// exposes only the pages it reserves). Nothing is read or written yet.
    ///
    /// # Errors
    ///
    /// [`PersistError::Unsupported`] for read/write units the records cannot be
    /// padded to, [`PersistError::Misaligned`] for a `base` that is not a multiple
    /// of `ERASE_SIZE`, [`PersistError::TooSmall`] for fewer than two pages (see
    /// [`PersistError`] for an example).
    pub fn new(flash: S, base: u32) -> Result<Store<S>, PersistError<S::Error>> {
        if Self::PAGE_STRIDE == 0 {
            return Err(PersistError::Unsupported);
        }
        if !(base as usize).is_multiple_of(S::ERASE_SIZE) {
            return Err(PersistError::Misaligned);
        }
        let end = flash.capacity().min(u32::MAX as usize);
        let pages = end.saturating_sub(base as usize) / Self::PAGE_STRIDE;
        if pages < 2 {
            return Err(PersistError::TooSmall);
        }
        Ok(Store {
            flash,
            base,
            pages: pages as u32,
            head: Head {
                known: false,
                page: 0,
                sequence: 0,
                next: 0,
                frame: [0; FRAME_BUF],
            },
        })
    }

    /// The flash (for its counters in the simulator).
    pub fn flash(&self) -> &S {
        &self.flash
    }

    /// The flash, to change under the store (a power cut the simulator asks
    /// for, a test's corruption). The store still assumes that it alone writes
    /// the flash: call [`Store::load`] after writing to it.
    pub fn flash_mut(&mut self) -> &mut S {
        &mut self.flash
    }

    /// Gives the flash back.
    ///
    /// ```
    /// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
    /// use tictable_machine::persist::Store;
    /// use tictable_machine::sim::flash::MemFlash;
    /// let store = Store::new(MemFlash::<1024, 512, 2>::new(), 0).unwrap();
    /// assert_eq!(store.destroy().writes, 0);
    /// # }
    /// ```
    pub fn destroy(self) -> S {
        self.flash
    }

    /// Pages the store uses.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// Finds the newest snapshot and makes it the head: the page whose whole
    /// snapshot has the highest sequence (and decodes), then the last delta in it
    /// that is sealed and decodes. Reads each page's first frame and the newest
    /// page's delta slots: bounded work. With nothing valid, a head whose next save
    /// starts page 0 (its zero frame never decodes). Works on the head in place (no
    /// copy of it): the head is known only once the scan has read everything.
    #[inline(never)]
    fn scan(&mut self) -> Result<(), PersistError<S::Error>> {
        let Store {
            flash,
            base,
            pages,
            head,
        } = self;
        let page_at = |page: u32| *base + page * Self::PAGE_STRIDE as u32;
        let mut read = |at: u32, buf: &mut [u8]| flash.read(at, buf).map_err(PersistError::Storage);
        head.known = false;
        // `next` 0 once a page's whole snapshot is found; none yet: no delta slot.
        (head.page, head.sequence, head.next) = (*pages - 1, 0, usize::MAX);
        head.frame = [0; FRAME_BUF];
        let mut frame = [0; FRAME_BUF];
        for page in 0..*pages {
            read(page_at(page), &mut frame[..Self::FULL_IO])?;
            let sequence = u32_at(&frame, at::SEQUENCE);
            if (head.next != 0 || sequence > head.sequence) && valid(&frame, 0) {
                (head.page, head.sequence, head.next) = (page, sequence, 0);
                head.frame = frame;
            }
        }
        if head.next == 0 {
            let mut at = page_at(head.page) + Self::FULL_IO as u32;
            // Each delta read over the page's whole snapshot: a slot's read replaces
            // every byte the one before it left (the game fields, their CRC, padding).
            frame = head.frame;
            for slot in 0..Self::DELTAS {
                let record = &mut frame[DELTA_START..DELTA_START + Self::DELTA_IO];
                read(at, record)?;
                if record.iter().any(|&b| b != 0xFF) {
                    // Written, whole or torn: the next delta goes after it.
                    head.next = slot + 1;
                }
                let sequence = head.sequence.wrapping_add(slot as u32 + 1);
                put_u32(&mut frame, at::SEQUENCE, sequence);
                if valid(&frame, DELTA_START) {
                    head.frame = frame;
                }
                at += Self::DELTA_IO as u32;
            }
        }
        head.known = true;
        Ok(())
    }

    /// The newest valid snapshot, or `None` when the flash holds none (erased,
    /// torn or corrupted records are skipped). See [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails to read.
    pub fn load(&mut self) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        self.scan()?;
        Ok(Snapshot::decode_frame(&self.head.frame))
    }

    /// Saves `snapshot` (its sequence is set past the newest): as a delta in the
    /// newest page when the calibration and pose are those of the page's whole
    /// snapshot and a delta slot is free, else as a whole snapshot at the start
    /// of the next page (the oldest), erased first. A snapshot equal to the newest
    /// one saved (apart from the sequence) is not written again, which spares the
    /// flash: call it as often as you like. See [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails (or the power is cut): the
    /// newest snapshot saved before is still the one [`Store::load`] returns, and
    /// the next save reads the flash again.
    #[inline(never)]
    pub fn save(&mut self, snapshot: &Snapshot) -> Result<(), PersistError<S::Error>> {
        if !self.head.known {
            self.scan()?;
        }
        // Zeros past the encoding: the padding (and the unused moves and task items).
        let mut frame = [0; FRAME_BUF];
        snapshot.encode_after(&mut frame, &self.head.frame);
        let head = &mut self.head;
        let newest = u32_at(&head.frame, at::SEQUENCE);
        put_u32(&mut frame, at::SEQUENCE, newest);
        // The first byte that differs from the newest frame's (their sequences are
        // the same now): none, unchanged; none before the game fields, a delta.
        let first = frame[..ENCODED_LEN]
            .iter()
            .zip(&head.frame)
            .take_while(|(a, b)| a == b)
            .count();
        if first == ENCODED_LEN {
            return Ok(());
        }
        // Unknown again until the record is written.
        head.known = false;
        let page_at = self.base + head.page * Self::PAGE_STRIDE as u32;
        let (at, from, len) = if head.next < Self::DELTAS && first >= DELTA_START {
            let slot = head.next;
            head.next += 1;
            let sequence = head.sequence.wrapping_add(head.next as u32);
            put_u32(&mut frame, at::SEQUENCE, sequence);
            let at = page_at + (Self::FULL_IO + slot * Self::DELTA_IO) as u32;
            (at, DELTA_START, Self::DELTA_IO)
        } else {
            // A whole snapshot keeps as many plies in its base as it holds.
            #[cfg(feature = "games")]
            snapshot.put_plies(&mut frame);
            head.page = (head.page + 1) % self.pages;
            (head.sequence, head.next) = (newest.wrapping_add(1), 0);
            put_u32(&mut frame, at::SEQUENCE, head.sequence);
            let at = self.base + head.page * Self::PAGE_STRIDE as u32;
            self.flash
                .erase(at, at + Self::PAGE_STRIDE as u32)
                .map_err(PersistError::Storage)?;
            (at, 0, Self::FULL_IO)
        };
        seal(&mut frame, from);
        // Always there (the lengths fit the frame by their definitions): a check
        // that costs less flash than the slice's panic.
        let Some(record) = frame.get(from..from + len) else {
            return Err(PersistError::Unsupported);
        };
        self.flash
            .write(at, record)
            .map_err(PersistError::Storage)?;
        head.frame = frame;
        head.known = true;
        Ok(())
    }
}
