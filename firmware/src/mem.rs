//! Byte-at-a-time memory routines, in place of compiler-builtins' word-optimised ones.
//!
//! The compiler calls these for struct copies and clears (`__aeabi_memcpy*`,
//! `__aeabi_memclr*`, `memcmp`...). compiler-builtins defines them as weak symbols
//! with unrolled, alignment-aware loops, far larger, for copies of a few hundred
//! bytes at most that run a handful of times per controller pass. These simple loops
//! are a small fraction of that (figures: firmware/README.md, "Size") and fast
//! enough: a 345-byte snapshot frame is copied in about 2,000 cycles (28 µs at 72 MHz).
//!
//! Volatile accesses keep LLVM from recognising a loop as a memory copy and turning
//! it back into a call to the routine being defined (infinite recursion).
//!
//! This is the firmware's only `unsafe` code: raw-pointer routines with the C
//! library's contracts, which the compiler upholds at every call it emits.
#![allow(unsafe_code)]

use core::ptr::{read_volatile, write_volatile};

/// Copies `n` bytes from `src` to `dst`, forwards (also correct for overlapping
/// ranges with `dst` below `src`).
///
/// # Safety
/// `src` readable and `dst` writable for `n` bytes.
unsafe fn copy_forward(dst: *mut u8, src: *const u8, n: usize) {
    for i in 0..n {
        write_volatile(dst.add(i), read_volatile(src.add(i)));
    }
}

/// Sets `n` bytes at `dst` to `value`.
///
/// # Safety
/// `dst` writable for `n` bytes.
unsafe fn fill(dst: *mut u8, value: u8, n: usize) {
    for i in 0..n {
        write_volatile(dst.add(i), value);
    }
}

/// C `memcpy`. # Safety: as C's (non-overlapping, valid for `n` bytes).
#[no_mangle]
pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    copy_forward(dst, src, n);
    dst
}

/// C `memmove`. # Safety: as C's (valid for `n` bytes; may overlap).
#[no_mangle]
pub unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if (dst as usize) <= (src as usize) {
        copy_forward(dst, src, n);
    } else {
        for i in (0..n).rev() {
            write_volatile(dst.add(i), read_volatile(src.add(i)));
        }
    }
    dst
}

/// C `memset`. # Safety: as C's.
#[no_mangle]
pub unsafe extern "C" fn memset(dst: *mut u8, value: i32, n: usize) -> *mut u8 {
    fill(dst, value as u8, n);
    dst
}

/// C `memcmp`. # Safety: as C's (both readable for `n` bytes).
#[no_mangle]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    for i in 0..n {
        let (x, y) = (read_volatile(a.add(i)), read_volatile(b.add(i)));
        if x != y {
            return x as i32 - y as i32;
        }
    }
    0
}

/// C `bcmp` (zero when equal). # Safety: as C's.
#[no_mangle]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    memcmp(a, b, n)
}

/// ARM EABI copy (any alignment). # Safety: as `memcpy`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memcpy(dst: *mut u8, src: *const u8, n: usize) {
    copy_forward(dst, src, n);
}

/// ARM EABI copy (word-aligned). # Safety: as `memcpy`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memcpy4(dst: *mut u8, src: *const u8, n: usize) {
    copy_forward(dst, src, n);
}

/// ARM EABI copy (double-word-aligned). # Safety: as `memcpy`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memcpy8(dst: *mut u8, src: *const u8, n: usize) {
    copy_forward(dst, src, n);
}

/// ARM EABI move (any alignment). # Safety: as `memmove`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memmove(dst: *mut u8, src: *const u8, n: usize) {
    memmove(dst, src, n);
}

/// ARM EABI move (word-aligned). # Safety: as `memmove`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memmove4(dst: *mut u8, src: *const u8, n: usize) {
    memmove(dst, src, n);
}

/// ARM EABI fill; note the argument order (dst, n, value). # Safety: as `memset`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memset(dst: *mut u8, n: usize, value: i32) {
    fill(dst, value as u8, n);
}

/// ARM EABI fill (word-aligned). # Safety: as `memset`.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memset4(dst: *mut u8, n: usize, value: i32) {
    fill(dst, value as u8, n);
}

/// ARM EABI clear (any alignment). # Safety: `dst` writable for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memclr(dst: *mut u8, n: usize) {
    fill(dst, 0, n);
}

/// ARM EABI clear (word-aligned). # Safety: `dst` writable for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memclr4(dst: *mut u8, n: usize) {
    fill(dst, 0, n);
}

/// ARM EABI clear (double-word-aligned). # Safety: `dst` writable for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn __aeabi_memclr8(dst: *mut u8, n: usize) {
    fill(dst, 0, n);
}
