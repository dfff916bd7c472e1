//! A byte-addressable storage in memory (`embedded-storage`), with torn writes on
//! demand, standing in for the flash of the real board.

use core::convert::Infallible;
use embedded_storage::{ReadStorage, Storage};
use std::vec::Vec;

/// Memory pretending to be flash: erased bytes read 0xFF.
#[derive(Clone, Debug)]
pub struct MemStorage {
    /// The contents.
    pub bytes: Vec<u8>,
    /// Writes done.
    pub writes: u32,
    /// If set, the next write stops after this many bytes (a power cut).
    pub tear_next: Option<usize>,
}

impl MemStorage {
    /// `capacity` erased bytes.
    pub fn new(capacity: usize) -> MemStorage {
        MemStorage {
            bytes: std::vec![0xFF; capacity],
            writes: 0,
            tear_next: None,
        }
    }
}

impl ReadStorage for MemStorage {
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

impl Storage for MemStorage {
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
