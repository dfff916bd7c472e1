//! The virtual blue pill: the exact release image of `firmware/` on an emulated
//! STM32F103C8 (Unicorn's Cortex-M3 and the peripheral models here, each after
//! RM0008 and the errata ES096), with the simulator's world (`tictable_machine::sim`)
//! behind its pins and its I2C bus, and the simulator's people at the table.
//!
//! Unicorn is GPL-2.0: it stays in this unpublished test crate, never in the
//! library or the firmware.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod contest;
pub mod cpu;
pub mod differential;
pub mod dwt;
pub mod elf;
pub mod flash;
pub mod games;
pub mod gpio;
pub mod i2c;
pub mod iwdg;
pub mod mcu;
pub mod pins;
pub mod pwr;
pub mod rcc;
pub mod scb;
pub mod scenarios;
pub mod session;
pub mod systick;
pub mod vcd;
pub mod view;

/// Where the firmware's snapshot store begins in flash (its last 24 pages,
/// `firmware/memory.x`), bytes from the flash's base.
pub const STORE_OFFSET: usize = 40 * 1024;
