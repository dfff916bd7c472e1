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

/// Says what failed, as every error of the crate does.
///
/// ```
/// use embedded_storage::nor_flash::NorFlashErrorKind;
/// use tictable_machine::sim::flash::MemFlashError;
///
/// let e = MemFlashError::NotErased { offset: 6 };
/// assert_eq!(e.to_string(), "write to a word not erased at offset 6");
/// let e: &dyn core::error::Error = &MemFlashError::Check(NorFlashErrorKind::NotAligned);
/// assert!(e.to_string().starts_with("misaligned or out of bounds: "));
/// assert_eq!(MemFlashError::PowerCut.to_string(), "the power failed during the operation");
/// ```
impl core::fmt::Display for MemFlashError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MemFlashError::Check(kind) => write!(f, "misaligned or out of bounds: {kind}"),
            MemFlashError::NotErased { offset } => {
                write!(f, "write to a word not erased at offset {offset}")
            }
            MemFlashError::PowerCut => f.write_str("the power failed during the operation"),
        }
    }
}

impl core::error::Error for MemFlashError {}

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
/// use tictable_machine::sim::flash::{MemFlash, MemFlashError};
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
/// // Page 0 was erased once, the three others never.
/// assert_eq!(f.erases_per_page(), [1, 0, 0, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct MemFlash<const N: usize, const ERASE: usize, const WRITE: usize> {
    /// The contents.
    pub bytes: [u8; N],
    /// Reads done.
    pub reads: u32,
    /// Writes completed.
    pub writes: u32,
    /// Erases completed.
    pub erases: u32,
    /// Bytes written (the writes completed).
    pub written: u64,
    /// Erases begun on each erase unit (a torn one too: it wore the cells), see
    /// [`MemFlash::erases_per_page`]. Room for [`MAX_PAGES`] units.
    page_erases: [u32; MAX_PAGES],
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

/// The most erase units a [`MemFlash`] may have (`N / ERASE`), for its erase
/// counters.
pub const MAX_PAGES: usize = 32;

/// Erase cycles each 1 KiB page of the STM32F103's flash is rated for (its
/// datasheet: 10 kcycles).
pub const ERASE_CYCLES: u32 = 10_000;

/// Games until the most-worn page reaches [`ERASE_CYCLES`], at the rate of a run
/// of `games` games that erased that page `max_page_erases` times (`None` when it
/// erased no page: no wear measured).
///
/// ```
/// use tictable_machine::sim::flash::wear_games;
/// // 2000 games erased the most-worn page 120 times: 60 erases per 1000 games.
/// assert_eq!(wear_games(2000, 120), Some(166_666));
/// assert_eq!(wear_games(2000, 0), None);
/// ```
pub fn wear_games(games: u32, max_page_erases: u32) -> Option<u64> {
    u64::from(games)
        .checked_mul(u64::from(ERASE_CYCLES))?
        .checked_div(u64::from(max_page_erases))
}

impl<const N: usize, const ERASE: usize, const WRITE: usize> MemFlash<N, ERASE, WRITE> {
    /// `N` erased bytes.
    ///
    /// ```
    /// use tictable_machine::sim::flash::MemFlash;
    /// assert!(MemFlash::<1024, 512, 2>::new().bytes.iter().all(|&b| b == 0xFF));
    /// ```
    pub fn new() -> MemFlash<N, ERASE, WRITE> {
        const { assert!(ERASE > 0 && N / ERASE <= MAX_PAGES) };
        MemFlash {
            bytes: [0xFF; N],
            reads: 0,
            writes: 0,
            erases: 0,
            written: 0,
            page_erases: [0; MAX_PAGES],
            tear_write: None,
            tear_erase: None,
        }
    }

    /// Erases begun on each erase unit of `ERASE` bytes, in order (a torn erase
    /// counts: it wore the cells). The wear of the store: its most-erased page
    /// reaches the rated [`ERASE_CYCLES`] first.
    pub fn erases_per_page(&self) -> &[u32] {
        &self.page_erases[..N / ERASE]
    }

    /// The erases of the most-erased unit ([`MemFlash::erases_per_page`]).
    pub fn max_page_erases(&self) -> u32 {
        self.erases_per_page().iter().copied().max().unwrap_or(0)
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
        self.reads = self.reads.wrapping_add(1);
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
        for count in &mut self.page_erases[from as usize / ERASE..to as usize / ERASE] {
            *count = count.saturating_add(1);
        }
        let region = &mut self.bytes[from as usize..to as usize];
        match self.tear_erase.take() {
            Some(n) if n < region.len() => {
                region[..n].fill(0xFF);
                Err(MemFlashError::PowerCut)
            }
            _ => {
                region.fill(0xFF);
                self.erases += 1;
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
                self.written += bytes.len() as u64;
                Ok(())
            }
        }
    }
}
