//! A model of `stm32f1xx_hal::flash` (0.11: `Parts::writer`, `FlashWriter`) on
//! 64 KiB of 1 KiB pages, with the rules of the real one that matter to a caller:
//! reads from even addresses only, writes of whole half-words to erased cells
//! only, erases by page. The flash contents are the global [`flash::MEM`].
pub mod flash {
    use std::sync::{Mutex, MutexGuard};

    /// The HAL's flash errors.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Error {
        AddressLargerThanFlash,
        AddressMisaligned,
        LengthNotMultiple2,
        LengthTooLong,
        EraseError,
        ProgrammingError,
        WriteError,
        VerifyError,
        UnlockError,
        LockError,
    }

    /// Pages erased so far (their offsets), for the checks.
    pub static ERASES: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    const SIZE: u32 = 64 * 1024;

    /// The whole 64 KiB of flash (erased at start).
    pub static MEM: Mutex<[u8; SIZE as usize]> = Mutex::new([0xFF; SIZE as usize]);

    /// The HAL's page size choice (only 1 KiB is modelled).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SectorSize {
        Sz1K = 1,
    }

    /// The HAL's flash size choice (only 64 KiB is modelled).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum FlashSize {
        Sz64K = 64,
    }

    /// The constrained FLASH peripheral.
    pub struct Parts;

    impl Parts {
        /// A writer over [`MEM`] (held locked while the writer lives).
        pub fn writer(&mut self, sector_sz: SectorSize, flash_sz: FlashSize) -> FlashWriter<'_> {
            assert_eq!((sector_sz, flash_sz), (SectorSize::Sz1K, FlashSize::Sz64K));
            FlashWriter {
                mem: MEM.lock().unwrap(),
                _parts: self,
            }
        }
    }

    /// The flash: `mem` is the whole 64 KiB.
    pub struct FlashWriter<'a> {
        mem: MutexGuard<'static, [u8; SIZE as usize]>,
        _parts: &'a mut Parts,
    }

    impl FlashWriter<'_> {
        fn valid_address(&self, offset: u32) -> Result<(), Error> {
            if offset > SIZE {
                Err(Error::AddressLargerThanFlash)
            } else if offset & 1 != 0 {
                Err(Error::AddressMisaligned)
            } else {
                Ok(())
            }
        }

        pub fn page_erase(&mut self, start: u32) -> Result<(), Error> {
            self.valid_address(start)?;
            let page = (start & !1023) as usize;
            ERASES.lock().unwrap().push(page as u32);
            self.mem[page..page + 1024].fill(0xFF);
            Ok(())
        }

        pub fn read(&self, offset: u32, length: usize) -> Result<&[u8], Error> {
            self.valid_address(offset)?;
            if offset + length as u32 > SIZE {
                return Err(Error::LengthTooLong);
            }
            Ok(&self.mem[offset as usize..offset as usize + length])
        }

        pub fn write(&mut self, offset: u32, data: &[u8]) -> Result<(), Error> {
            if offset + data.len() as u32 > SIZE {
                return Err(Error::LengthTooLong);
            }
            if data.len() & 1 != 0 {
                return Err(Error::LengthNotMultiple2);
            }
            for i in (0..data.len()).step_by(2) {
                self.valid_address(offset + i as u32)?;
                let a = offset as usize + i;
                if self.mem[a] != 0xFF || self.mem[a + 1] != 0xFF {
                    return Err(Error::ProgrammingError);
                }
                self.mem[a] = data[i];
                self.mem[a + 1] = data[i + 1];
            }
            Ok(())
        }
    }
}
