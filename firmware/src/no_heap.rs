//! The `games` image's global allocator, which gives no memory: `tictable-games`
//! (the six games' best-move files and class keys) is built on `alloc`, so an image
//! that links it must declare one, but the games path allocates nothing (the files
//! read in place, the legal moves in fixed arrays:
//! `tictable_machine::controller::TableChooser`). An allocation would fail and stop
//! the machine in its safe state (the panic handler); `scripts/firmware-size --builds`
//! fails when the games image holds any allocating code (the `alloc` crate's error
//! paths, left in the image even when the allocator is inlined away).

/// The allocator that never gives memory.
struct NoHeap;

// SAFETY: `alloc` returns null, which `GlobalAlloc` allows (allocation failure);
// `dealloc` is never given a pointer `alloc` returned.
#[allow(unsafe_code)]
unsafe impl core::alloc::GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _: core::alloc::Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _: *mut u8, _: core::alloc::Layout) {}
}

#[global_allocator]
static HEAP: NoHeap = NoHeap;
