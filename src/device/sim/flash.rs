//! A NOR flash in memory (`embedded-storage` [`NorFlash`]), with power cuts during
//! an erase or a write on demand, standing in for the flash of the real board.
//!
//! It keeps the rules of real NOR flash that a caller can get wrong: erased bytes
//! read 0xFF, an erase clears whole erase units, and a write may only program
//! erased words (a word written twice without an erase between is refused, as
//! `NorFlash::write` forbids it), with `offset` and length multiples of `WRITE`.

use embedded_storage::nor_flash::{
    check_erase, check_read, check_write, ErrorType, NorFlash, NorFlashError, NorFlashErrorKind,
    ReadNorFlash,
};

/// Why a [`MemFlash`] operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFlashError {
    /// Misaligned or out of bounds (`embedded_storage::nor_flash::check_*`).
    Check(NorFlashErrorKind),
    /// A write to a word that is not erased (all 0xFF). Nothing was written.
    NotErased {
        /// The offset of the first such word.
        offset: u32,
    },
    /// The power went away during the operation ([`MemFlash::tear_erase`],
    /// [`MemFlash::tear_write`]): part of it was done.
    PowerCut,
}

impl NorFlashError for MemFlashError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            MemFlashError::Check(kind) => *kind,
            _ => NorFlashErrorKind::Other,
        }
    }
}

impl From<NorFlashErrorKind> for MemFlashError {
    fn from(kind: NorFlashErrorKind) -> MemFlashError {
        MemFlashError::Check(kind)
    }
}

/// Memory behaving as NOR flash: `N` bytes, erase units of `ERASE` bytes, writes
/// of whole `WRITE`-byte words (`N` a multiple of `ERASE`, `ERASE` of `WRITE`).
/// Reads take any offset and length (`READ_SIZE` 1).
///
/// ```
/// use embedded_storage::nor_flash::{NorFlash, NorFlashErrorKind, ReadNorFlash};
/// use tictable::device::sim::flash::{MemFlash, MemFlashError};
///
/// let mut f = MemFlash::<64, 16, 2>::new();
/// f.write(4, &[1, 2, 3, 4]).unwrap();
/// // Programming a word again without an erase is refused.
/// assert_eq!(f.write(6, &[0, 0]), Err(MemFlashError::NotErased { offset: 6 }));
/// assert_eq!(f.write(3, &[0, 0]), Err(MemFlashError::Check(NorFlashErrorKind::NotAligned)));
/// // A power cut two bytes into the next write.
/// f.tear_write = Some(2);
/// assert_eq!(f.write(8, &[5, 6, 7, 8]), Err(MemFlashError::PowerCut));
/// let mut b = [0; 8];
/// f.read(3, &mut b).unwrap();
/// assert_eq!(b, [0xFF, 1, 2, 3, 4, 5, 6, 0xFF]);
/// // An erase clears whole units: here bytes 0..16.
/// f.erase(0, 16).unwrap();
/// f.read(3, &mut b).unwrap();
/// assert_eq!(b, [0xFF; 8]);
/// assert_eq!((f.writes, f.erases), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct MemFlash<const N: usize, const ERASE: usize, const WRITE: usize> {
    /// The contents.
    pub bytes: [u8; N],
    /// Writes completed.
    pub writes: u32,
    /// Erases completed.
    pub erases: u32,
    /// Erases completed per erase unit (page), for the first [`PAGE_COUNTERS`]
    /// pages.
    pub page_erases: [u32; PAGE_COUNTERS],
    /// Page erases past the first [`PAGE_COUNTERS`] pages (not counted per page).
    pub untracked_erases: u32,
    /// If set (and shorter than the next write), the next write stops after this
    /// many bytes and fails with [`MemFlashError::PowerCut`]: the bytes before are
    /// written, the rest stay erased.
    pub tear_write: Option<usize>,
    /// If set (and shorter than the next erase), the next erase stops after this
    /// many bytes (from its start) and
    /// fails with [`MemFlashError::PowerCut`]: the bytes before are erased, the
    /// rest keep their contents.
    pub tear_erase: Option<usize>,
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> MemFlash<N, ERASE, WRITE> {
    /// `N` erased bytes.
    ///
    /// ```
    /// use tictable::device::sim::flash::MemFlash;
    /// assert!(MemFlash::<1024, 512, 2>::new().bytes.iter().all(|&b| b == 0xFF));
    /// ```
    pub fn new() -> MemFlash<N, ERASE, WRITE> {
        MemFlash {
            bytes: [0xFF; N],
            writes: 0,
            erases: 0,
            page_erases: [0; PAGE_COUNTERS],
            untracked_erases: 0,
            tear_write: None,
            tear_erase: None,
        }
    }
}

/// How many pages [`MemFlash::page_erases`] counts one by one.
pub const PAGE_COUNTERS: usize = 32;

impl<const N: usize, const ERASE: usize, const WRITE: usize> MemFlash<N, ERASE, WRITE> {
    /// Erases of the most erased page (the one that wears out first); `u32::MAX`
    /// when pages past the first [`PAGE_COUNTERS`] were erased (not counted).
    ///
    /// ```
    /// use embedded_storage::nor_flash::NorFlash;
    /// use tictable::device::sim::flash::MemFlash;
    /// let mut f = MemFlash::<64, 16, 2>::new();
    /// f.erase(0, 32).unwrap();
    /// f.erase(16, 32).unwrap();
    /// assert_eq!(f.page_erases[..4], [1, 2, 0, 0]);
    /// assert_eq!(f.max_page_erases(), 2);
    /// ```
    pub fn max_page_erases(&self) -> u32 {
        if self.untracked_erases > 0 {
            return u32::MAX;
        }
        self.page_erases.iter().copied().max().unwrap_or(0)
    }
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> Default for MemFlash<N, ERASE, WRITE> {
    fn default() -> MemFlash<N, ERASE, WRITE> {
        MemFlash::new()
    }
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> ErrorType
    for MemFlash<N, ERASE, WRITE>
{
    type Error = MemFlashError;
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> ReadNorFlash
    for MemFlash<N, ERASE, WRITE>
{
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), MemFlashError> {
        check_read(self, offset, bytes.len())?;
        let o = offset as usize;
        bytes.copy_from_slice(&self.bytes[o..o + bytes.len()]);
        Ok(())
    }

    fn capacity(&self) -> usize {
        N
    }
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> NorFlash
    for MemFlash<N, ERASE, WRITE>
{
    const WRITE_SIZE: usize = WRITE;
    const ERASE_SIZE: usize = ERASE;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), MemFlashError> {
        check_erase(self, from, to)?;
        let region = &mut self.bytes[from as usize..to as usize];
        match self.tear_erase.take() {
            Some(n) if n < region.len() => {
                region[..n].fill(0xFF);
                Err(MemFlashError::PowerCut)
            }
            _ => {
                region.fill(0xFF);
                self.erases += 1;
                for page in from as usize / ERASE..to as usize / ERASE {
                    match self.page_erases.get_mut(page) {
                        Some(n) => *n += 1,
                        None => self.untracked_erases += 1,
                    }
                }
                Ok(())
            }
        }
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), MemFlashError> {
        check_write(self, offset, bytes.len())?;
        let o = offset as usize;
        let target = &mut self.bytes[o..o + bytes.len()];
        if let Some(i) = target.iter().position(|&b| b != 0xFF) {
            // The first byte of a word that is not erased.
            let word = i / WRITE * WRITE;
            return Err(MemFlashError::NotErased {
                offset: (o + word) as u32,
            });
        }
        match self.tear_write.take() {
            Some(n) if n < bytes.len() => {
                target[..n].copy_from_slice(&bytes[..n]);
                Err(MemFlashError::PowerCut)
            }
            _ => {
                target.copy_from_slice(bytes);
                self.writes += 1;
                Ok(())
            }
        }
    }
}
