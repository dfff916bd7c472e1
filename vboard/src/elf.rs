//! The firmware image: the ELF the firmware's release build links, its loadable
//! segments placed by their load (physical) addresses into a 64 KiB flash array,
//! and its symbols (for the report of a fault, and the stack's bounds).

use crate::flash;
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use object::{Endianness, Object, ObjectSymbol, SymbolKind};
use std::fmt;
use std::path::Path;

/// Why an image cannot be loaded.
#[derive(Debug)]
pub enum ElfError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not a 32-bit ELF.
    Parse(object::Error),
    /// A segment outside the STM32F103C8's flash.
    OutsideFlash {
        /// Its load address.
        paddr: u32,
        /// Its length, bytes.
        len: usize,
    },
    /// No vector table (the first words of flash are erased).
    NoVectors,
    /// A segment's data lies outside the file.
    Truncated,
}

impl fmt::Display for ElfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElfError::Io(e) => write!(f, "cannot read the image: {e}"),
            ElfError::Parse(e) => write!(f, "not a 32-bit ELF: {e}"),
            ElfError::OutsideFlash { paddr, len } => write!(
                f,
                "a segment of {len} B at {paddr:#010x} lies outside the 64 KiB flash at 0x08000000"
            ),
            ElfError::NoVectors => f.write_str("no vector table at 0x08000000"),
            ElfError::Truncated => f.write_str("a segment's data lies outside the file"),
        }
    }
}

impl std::error::Error for ElfError {}

/// A loaded image.
#[derive(Clone, Debug)]
pub struct Image {
    /// The flash contents: the segments, 0xFF elsewhere.
    pub flash: Vec<u8>,
    /// Function and object symbols, sorted by address: (address, size, name).
    symbols: Vec<(u32, u32, String)>,
}

impl Image {
    /// Loads the ELF at `path`.
    pub fn load(path: &Path) -> Result<Image, ElfError> {
        let data = std::fs::read(path).map_err(ElfError::Io)?;
        Image::parse(&data)
    }

    /// Loads an ELF from its bytes.
    pub fn parse(data: &[u8]) -> Result<Image, ElfError> {
        let elf = ElfFile32::<Endianness>::parse(data).map_err(ElfError::Parse)?;
        let endian = elf.endian();
        let mut flash = vec![0xFF; flash::SIZE];
        let headers = elf
            .elf_header()
            .program_headers(endian, data)
            .map_err(ElfError::Parse)?;
        for ph in headers {
            if ph.p_type(endian) != object::elf::PT_LOAD {
                continue;
            }
            let bytes = ph.data(endian, data).map_err(|()| ElfError::Truncated)?;
            if bytes.is_empty() {
                continue;
            }
            let paddr = ph.p_paddr(endian);
            let offset = paddr.wrapping_sub(flash::BASE) as usize;
            if paddr < flash::BASE || offset + bytes.len() > flash::SIZE {
                return Err(ElfError::OutsideFlash {
                    paddr,
                    len: bytes.len(),
                });
            }
            flash[offset..offset + bytes.len()].copy_from_slice(bytes);
        }
        if flash[..8].iter().all(|&b| b == 0xFF) {
            return Err(ElfError::NoVectors);
        }
        let mut symbols: Vec<(u32, u32, String)> = elf
            .symbols()
            .filter(|s| {
                matches!(
                    s.kind(),
                    SymbolKind::Text | SymbolKind::Data | SymbolKind::Unknown
                )
            })
            .filter_map(|s| {
                Some((
                    s.address() as u32 & !1,
                    s.size() as u32,
                    s.name().ok()?.to_string(),
                ))
            })
            .filter(|(a, _, n)| *a != 0 || n == "__vector_table")
            .collect();
        symbols.sort();
        Ok(Image { flash, symbols })
    }

    /// An image of raw flash contents without symbols (0xFF past `bytes`), e.g. a
    /// hand-assembled test program; its first words are the vector table.
    pub fn from_flash(bytes: &[u8]) -> Image {
        let mut flash = vec![0xFF; flash::SIZE];
        let n = bytes.len().min(flash::SIZE);
        flash[..n].copy_from_slice(&bytes[..n]);
        Image {
            flash,
            symbols: vec![],
        }
    }

    /// The word at `offset` of flash.
    pub fn word(&self, offset: usize) -> u32 {
        u32::from_le_bytes(self.flash[offset..offset + 4].try_into().expect("4 bytes"))
    }

    /// The initial stack pointer (vector 0).
    pub fn initial_sp(&self) -> u32 {
        self.word(0)
    }

    /// The reset vector (vector 1).
    pub fn reset_vector(&self) -> u32 {
        self.word(4)
    }

    /// The address of a symbol.
    pub fn symbol(&self, name: &str) -> Option<u32> {
        self.symbols
            .iter()
            .find(|(_, _, n)| n == name)
            .map(|(a, _, _)| *a)
    }

    /// `function+0xoffset` for an address (the nearest symbol at or below it).
    pub fn describe(&self, addr: u32) -> String {
        let i = self.symbols.partition_point(|(a, _, _)| *a <= addr);
        match i.checked_sub(1).map(|i| &self.symbols[i]) {
            Some((a, _, n)) if addr - a < 0x1_0000 => {
                let n: String = n.chars().take(90).collect();
                format!("{n}+{:#x}", addr - a)
            }
            _ => format!("{addr:#010x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let e = Image::parse(b"not an elf at all").unwrap_err();
        assert!(e.to_string().starts_with("not a 32-bit ELF"), "{e}");
    }
}
