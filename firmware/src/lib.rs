//! Board support for the tic-tac-toe playing machine on an STM32F103C8 ("blue pill"):
//! everything between the chip and `tictable_machine`. `src/main.rs` builds the
//! device logic's `Controller` from a [`board::Board`] and polls it.
//!
//! | module | what |
//! |---|---|
//! | [`board`] | the wiring (every pin) and the bring-up in order; boot lights; Level at power-on |
//! | [`safety`] | safe state, panic, HardFault and default (NMI, stray) handlers, watchdog, reset cause, supply check |
//! | [`clock`] | clock start-up (crystal or internal), cycle counter, ms clock, random numbers |
//! | [`startup`] | the clock start-up sequence with bounded waits (host-tested: `host-check/`) |
//! | [`pins`] | the output and input pin types the library drives |
//! | [`pulse`] | STEP/DIR timing for the stepper drivers (host-tested: `host-check/`) |
//! | [`bus`] | I2C1 with bus recovery |
//! | [`i2c`] | the polled I2C master's register sequences (host-tested: `host-check/`) |
//! | [`storage`] | the snapshot flash (`embedded-storage` over the last flash pages) |
//! | `fpec` | the flash program/erase controller's registers and the flash array, for [`storage`] |
//! | `mem` | small memory routines replacing compiler-builtins' (flash size) |
//! | `no_heap` | `games` feature: the allocator that gives no memory (nothing allocates) |
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod bus;
pub mod clock;
mod fpec;
pub mod i2c;
mod mem;
#[cfg(feature = "games")]
mod no_heap;
#[cfg(feature = "levels")]
pub mod opening;
pub mod pins;
pub mod pulse;
mod regs;
pub mod safety;
pub mod startup;
pub mod storage;

#[cfg(feature = "defmt")]
use defmt_rtt as _;
