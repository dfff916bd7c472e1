//! Puts memory.x and vectors.x where the linker finds them, compiles irq0.rs (see
//! vectors.x) and links with cortex-m-rt's link.x (only for binaries, so host-side
//! tooling keeps linking).
use std::{env, fs, path::PathBuf, process::Command};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("memory.x"), include_bytes!("memory.x")).expect("write memory.x");
    fs::write(out.join("vectors.x"), include_bytes!("vectors.x")).expect("write vectors.x");
    println!("cargo:rustc-link-search={}", out.display());
    for file in ["memory.x", "vectors.x", "irq0.rs"] {
        println!("cargo:rerun-if-changed={file}");
    }
    let irq0 = out.join("irq0.o");
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let status = Command::new(env::var_os("RUSTC").expect("cargo sets RUSTC"))
        .args([
            "--crate-type=lib",
            "--emit=obj",
            "-Copt-level=z",
            "-Cpanic=abort",
            "--edition=2021",
        ])
        .args(["--target", &target, "irq0.rs", "-o"])
        .arg(&irq0)
        .status()
        .expect("run rustc on irq0.rs");
    assert!(status.success(), "rustc failed on irq0.rs");
    println!("cargo:rustc-link-arg-bins={}", irq0.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tvectors.x");
    if env::var_os("CARGO_FEATURE_DEFMT").is_some() {
        println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
    }
}
