//! `tictable::device::persist::SLOT_SIZE`, as in the real crate.
pub mod device {
    pub mod persist {
        pub const SLOT_SIZE: usize = 512;
    }
}
