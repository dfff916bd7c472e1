//! Peak stack use of the image: the free RAM between the statics (`_stack_end`) and
//! the current stack pointer is painted with a pattern at start-up; the lowest word
//! no longer holding it marks the deepest the stack went.

const PAINT: u32 = 0x5AA5_C33C;

extern "C" {
    static _stack_end: u32;
    static _stack_start: u32;
}

fn bounds() -> (usize, usize) {
    // Only the addresses of the linker-provided symbols are taken.
    (
        core::ptr::addr_of!(_stack_end) as usize,
        core::ptr::addr_of!(_stack_start) as usize,
    )
}

/// Paints the unused stack below the current stack pointer (minus a margin).
pub fn paint() {
    let (low, _) = bounds();
    let sp = cortex_m::register::msp::read() as usize;
    let mut p = low;
    while p + 4 <= sp.saturating_sub(64) {
        // SAFETY: [low, sp - 64) is RAM that no static and no live frame uses.
        unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The most stack used since [`paint`], bytes; and the stack's whole size.
pub fn peak() -> (usize, usize) {
    let (low, high) = bounds();
    let mut p = low;
    // SAFETY: reads of RAM words inside [low, high).
    while p < high && unsafe { core::ptr::read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    (high - p, high - low)
}
