//! How a test image ends: its status to QEMU over semihosting, and a panic as a
//! failed run that says where.

use cortex_m_semihosting::{debug, hprintln};

use crate::timing::CPU;

/// Ends the run: QEMU exits with status 0 when `success`, else 1.
pub fn exit(success: bool) -> ! {
    debug::exit(if success {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("on-target: FAIL {} panic: {}", CPU, info);
    exit(false)
}
