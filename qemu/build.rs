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
    games(&out);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../games/src");
}

/// The games whose best-move table of each side fits in 16 KiB.
const GAMES: [&str; 7] = [
    "tictactoe",
    "misere",
    "mnk:3,3,3",
    "three-mens-morris",
    "tapatan",
    "achi",
    "hexapawn",
];

/// Writes `games.rs`: each small game's best-move tables (both sides) packed to exact
/// bits, as the postcard file and the exports hold them, and a
/// digest of the Rust answers (FNV-1a over every entry's key and mask, as
/// `tictable_games::best_move::BestMoveTable::mask` gives them).
fn games(out: &std::path::Path) {
    use tictable_games::{best_file, catalog, dispatch, solve};
    let mut file = std::fs::File::create(out.join("games.rs")).expect("create games.rs");
    let mut list = Vec::new();
    for id in GAMES {
        let game = catalog::parse(id).expect("a shipped game");
        let tables =
            dispatch!(game, g => best_file::tables(&solve(g).expect("solves")).expect("tables"));
        let name = id.replace([':', ',', '-'], "_").to_uppercase();
        for (side, table) in ["FIRST", "SECOND"].iter().zip(&tables) {
            assert!(table.bytes() <= 16 * 1024, "{id}: the table is over 16 KiB");
            let digest = table
                .iter()
                .fold(0x811c_9dc5u32, |h, (key, mask)| fnv(fnv(h, key), mask));
            let bits = table.to_bits();
            writeln!(
                file,
                "static {name}_{side}: [u8; {}] = {:?};\nconst {name}_{side}_DIGEST: u32 = {digest};",
                bits.len(),
                bits
            )
            .expect("write games.rs");
        }
        let side = |t: &tictable_games::best_move::BestMoveTable, which: &str| {
            format!(
                "Side {{ key_bits: {}, mask_bits: {}, entries: {}, table: &{name}_{which}, digest: {name}_{which}_DIGEST }}",
                t.key_bits(),
                t.mask_bits(),
                t.entries()
            )
        };
        list.push(format!(
            "GameTables {{ id: {id:?}, sides: [{}, {}] }}",
            side(&tables[0], "FIRST"),
            side(&tables[1], "SECOND"),
        ));
    }
    writeln!(
        file,
        "/// Every small game's best-move tables.\nstatic GAMES: [GameTables; {}] = [{}];",
        list.len(),
        list.join(", ")
    )
    .expect("write games.rs");
}

/// FNV-1a of `value`'s eight little-endian bytes, continuing from `hash`.
fn fnv(hash: u32, value: u64) -> u32 {
    value
        .to_le_bytes()
        .iter()
        .fold(hash, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}
