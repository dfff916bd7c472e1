//! The device-interrupt part of the vector table: IRQ0 only (see vectors.x). Compiled
//! by build.rs into an object of its own, outside the LTO module, so that vectors.x can
//! tell this input section from the PAC's `__INTERRUPTS` (same section name).
#![no_std]

extern "C" {
    fn DefaultHandler();
}

#[link_section = ".vector_table.interrupts"]
#[used]
static IRQ0: [unsafe extern "C" fn(); 1] = [DefaultHandler];
