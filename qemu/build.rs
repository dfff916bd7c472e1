//! Picks the memory layout of the emulated board for the target, and writes the list of
//! reachable decision positions (x, o) into the image so lookups can be timed without
//! enumerating them at run time.

use std::io::Write;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let target = std::env::var("TARGET").expect("TARGET");
    // lm3s6965evb (Cortex-M3): 256K flash, 64K RAM. microbit (nRF51822, Cortex-M0): 256K flash, 16K RAM.
    let ram = if target.starts_with("thumbv6m") {
        "16K"
    } else {
        "64K"
    };
    std::fs::write(
        out.join("memory.x"),
        format!(
            "MEMORY\n{{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  RAM : ORIGIN = 0x20000000, LENGTH = {ram}\n}}\n"
        ),
    )
    .expect("write memory.x");
    println!("cargo:rustc-check-cfg=cfg(armv6m)");
    if target.starts_with("thumbv6m") {
        println!("cargo:rustc-cfg=armv6m");
    }
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");

    let mut decisions = Vec::new();
    for index in 0..19683 {
        let board = tictable::solve::board_of_index(index);
        if board.validate().is_ok() && !board.is_over() {
            decisions.push((board.x(), board.o()));
        }
    }
    let mut file = std::fs::File::create(out.join("positions.rs")).expect("create positions.rs");
    writeln!(
        file,
        "/// Every reachable decision position as (x, o) bitboards.\npub static DECISIONS: [(u16, u16); {}] = {:?};",
        decisions.len(),
        decisions
    )
    .expect("write positions.rs");
    println!("cargo:rerun-if-changed=build.rs");
}
