//! A model of the STM32F103's flash program and erase controller (FPEC, RM0008
//! §3.3.3, PM0075 §3) and its 64 KiB array of 1 KiB pages, in place of the
//! firmware's `fpec` (register accesses): the key sequence (a wrong one locks the
//! FPEC until the next reset), LOCK, PER with AR and STRT erasing the page, PG with
//! a half-word written programming it (PGERR, nothing written, for a half-word not
//! erased unless the value is 0), the write-one-to-clear flags. BSY is never seen
//! set (each operation ends at once). The array is the global [`MEM`].
use std::sync::Mutex;

/// Pages erased so far (their offsets), for the checks.
pub static ERASES: Mutex<Vec<u32>> = Mutex::new(Vec::new());

const SIZE: usize = 64 * 1024;

/// The whole 64 KiB of flash (erased at start).
pub static MEM: Mutex<[u8; SIZE]> = Mutex::new([0xFF; SIZE]);

/// The FPEC's registers: SR, CR, AR, and where the key sequence is.
struct Regs {
    sr: u32,
    cr: u32,
    ar: u32,
    key1: bool,
    locked_out: bool,
}

static REGS: Mutex<Regs> = Mutex::new(Regs {
    sr: 0,
    cr: LOCK,
    ar: 0,
    key1: false,
    locked_out: false,
});

const PG: u32 = 1 << 0;
const PER: u32 = 1 << 1;
const STRT: u32 = 1 << 6;
const LOCK: u32 = 1 << 7;
const PGERR: u32 = 1 << 2;
const WRPRTERR: u32 = 1 << 4;
const EOP: u32 = 1 << 5;

/// The FPEC, owned.
pub struct Flash;

/// FLASH_SR.
pub fn sr() -> u32 {
    REGS.lock().unwrap().sr
}

/// Writes FLASH_SR: ones clear the flags.
pub fn set_sr(value: u32) {
    REGS.lock().unwrap().sr &= !(value & (PGERR | WRPRTERR | EOP));
}

/// Writes FLASH_CR: ignored while locked, except nothing; LOCK sets the lock; PER
/// with STRT erases the page AR is in.
pub fn set_cr(value: u32) {
    let mut r = REGS.lock().unwrap();
    if r.cr & LOCK != 0 {
        return;
    }
    r.cr = value & (PG | PER | LOCK);
    if value & (PER | STRT) == PER | STRT {
        let page = (r.ar.wrapping_sub(0x0800_0000) as usize) & !1023;
        if page < SIZE {
            ERASES.lock().unwrap().push(page as u32);
            MEM.lock().unwrap()[page..page + 1024].fill(0xFF);
        }
        r.sr |= EOP;
    }
}

/// Writes FLASH_AR (an array address).
pub fn set_ar(offset: u32) {
    REGS.lock().unwrap().ar = 0x0800_0000 + offset;
}

/// Writes FLASH_KEYR: KEY1 then KEY2 unlocks; anything else locks the FPEC out
/// until the next reset (here: for good).
pub fn key(value: u32) {
    let mut r = REGS.lock().unwrap();
    match (r.key1, value) {
        (false, 0x4567_0123) if r.cr & LOCK != 0 && !r.locked_out => r.key1 = true,
        (true, 0xCDEF_89AB) => {
            r.key1 = false;
            r.cr &= !LOCK;
        }
        _ => {
            r.key1 = false;
            r.locked_out = true;
            r.cr |= LOCK;
        }
    }
}

/// Copies the array's bytes from `offset`.
pub fn read(offset: u32, bytes: &mut [u8]) {
    let at = offset as usize;
    bytes.copy_from_slice(&MEM.lock().unwrap()[at..at + bytes.len()]);
}

/// The half-word at `offset` (even).
pub fn read_half(offset: u32) -> u16 {
    assert_eq!(offset % 2, 0, "a half-word read at an odd address");
    let m = MEM.lock().unwrap();
    u16::from_le_bytes([m[offset as usize], m[offset as usize + 1]])
}

/// A half-word write to the array: programmed when PG is set (unlocked), a
/// half-word not erased only to 0 (else PGERR); without PG nothing happens.
pub fn write_half(offset: u32, value: u16) {
    assert_eq!(offset % 2, 0, "a half-word write at an odd address");
    let mut r = REGS.lock().unwrap();
    if r.cr & (PG | LOCK) != PG {
        return;
    }
    let mut m = MEM.lock().unwrap();
    let at = offset as usize;
    if [m[at], m[at + 1]] != [0xFF, 0xFF] && value != 0 {
        r.sr |= PGERR;
        return;
    }
    [m[at], m[at + 1]] = value.to_le_bytes();
    r.sr |= EOP;
}
