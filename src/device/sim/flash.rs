//! A byte-addressable storage in memory (`embedded-storage`), with torn writes on
//! demand, standing in for the flash of the real board.

use core::convert::Infallible;
use embedded_storage::{ReadStorage, Storage};

/// Memory pretending to be flash: `N` bytes, erased bytes read 0xFF.
///
/// ```
/// use embedded_storage::{ReadStorage, Storage};
/// use tictable::device::sim::flash::MemStorage;
///
/// let mut m = MemStorage::<16>::new();
/// m.tear_next = Some(2);
/// m.write(4, &[1, 2, 3]).unwrap(); // cut after two bytes
/// let mut b = [0; 4];
/// m.read(3, &mut b).unwrap();
/// assert_eq!(b, [0xFF, 1, 2, 0xFF]);
/// assert_eq!(m.capacity(), 16);
/// ```
#[derive(Clone, Debug)]
pub struct MemStorage<const N: usize> {
    /// The contents.
    pub bytes: [u8; N],
    /// Writes done.
    pub writes: u32,
    /// If set, the next write stops after this many bytes (a power cut).
    pub tear_next: Option<usize>,
}

impl<const N: usize> MemStorage<N> {
    /// `N` erased bytes.
    pub fn new() -> MemStorage<N> {
        MemStorage {
            bytes: [0xFF; N],
            writes: 0,
            tear_next: None,
        }
    }
}

impl<const N: usize> Default for MemStorage<N> {
    fn default() -> MemStorage<N> {
        MemStorage::new()
    }
}

impl<const N: usize> ReadStorage for MemStorage<N> {
    type Error = Infallible;
    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), Infallible> {
        let o = offset as usize;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = self.bytes.get(o + i).copied().unwrap_or(0xFF);
        }
        Ok(())
    }
    fn capacity(&self) -> usize {
        self.bytes.len()
    }
}

impl<const N: usize> Storage for MemStorage<N> {
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), Infallible> {
        let n = self
            .tear_next
            .take()
            .unwrap_or(bytes.len())
            .min(bytes.len());
        let o = offset as usize;
        for (i, &b) in bytes[..n].iter().enumerate() {
            if let Some(slot) = self.bytes.get_mut(o + i) {
                *slot = b;
            }
        }
        self.writes += 1;
        Ok(())
    }
}
