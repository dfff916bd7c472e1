//! The flash program and erase controller's registers (FPEC, RM0008 §3.3.3 and
//! PM0075 §3) and the flash array, as `storage` uses them: one function per access,
//! so that `firmware/storage-check` can put its model of the FPEC in their place
//! (it includes `storage.rs` with a module of the same name).
//!
//! Why the raw accesses are sound: the FLASH register block is a set of volatile
//! cells at a fixed address; [`Flash`] is the peripheral, owned by the one
//! `storage::FlashStorage` (the clock start-up wrote FLASH_ACR before, through a
//! borrow that has ended), and only its key, status, control and address registers
//! are written here. The array is read at addresses inside the 64 KiB flash, and
//! written only while FLASH_CR.PG is set (a half-word program, the one write the
//! FPEC accepts then).
#![allow(unsafe_code)]

use stm32f1xx_hal::pac;

/// The FPEC, owned (the proof that nothing else programs the flash).
pub type Flash = pac::FLASH;

/// The flash array's base address.
const ARRAY: u32 = 0x0800_0000;

/// The FPEC's registers.
fn regs() -> &'static pac::flash::RegisterBlock {
    // SAFETY: see the module documentation.
    unsafe { &*pac::FLASH::ptr() }
}

/// FLASH_SR.
pub fn sr() -> u32 {
    regs().sr().read().bits()
}

/// Writes FLASH_SR (ones clear EOP, WRPRTERR, PGERR).
pub fn set_sr(value: u32) {
    // SAFETY: only the write-one-to-clear flags have an effect.
    regs().sr().write(|w| unsafe { w.bits(value) });
}

/// Writes FLASH_CR (PG, PER, STRT, LOCK).
pub fn set_cr(value: u32) {
    // SAFETY: the bits `storage` writes, one operation at a time.
    regs().cr().write(|w| unsafe { w.bits(value) });
}

/// Writes FLASH_AR: the page to erase, at `offset` of the array.
pub fn set_ar(offset: u32) {
    // SAFETY: any address is accepted; a page outside the array erases nothing.
    regs().ar().write(|w| unsafe { w.bits(ARRAY + offset) });
}

/// Writes FLASH_KEYR (the unlock sequence).
pub fn key(value: u32) {
    // SAFETY: a wrong key only locks the FPEC until the next reset.
    regs().keyr().write(|w| unsafe { w.bits(value) });
}

/// Copies the array's bytes from `offset` into `bytes` (inside the 64 KiB).
pub fn read(offset: u32, bytes: &mut [u8]) {
    // SAFETY: a range inside the flash array (the caller checks), which reads as
    // memory; nothing programs it meanwhile (the FPEC is `storage`'s, borrowed).
    let array = unsafe { core::slice::from_raw_parts((ARRAY + offset) as *const u8, bytes.len()) };
    bytes.copy_from_slice(array);
}

/// The half-word of the array at `offset` (even, below 64 KiB).
pub fn read_half(offset: u32) -> u16 {
    // SAFETY: an aligned address inside the flash array (the callers check).
    unsafe { core::ptr::read_volatile((ARRAY + offset) as *const u16) }
}

/// Programs the half-word at `offset` (even, below 64 KiB; FLASH_CR.PG set).
pub fn write_half(offset: u32, value: u16) {
    // SAFETY: an aligned address inside the flash array, written while PG is set
    // (the FPEC programs it; the array is not memory Rust owns).
    unsafe { core::ptr::write_volatile((ARRAY + offset) as *mut u16, value) }
}
