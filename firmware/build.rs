//! Puts memory.x and vectors.x where the linker finds them, writes irq0.o (see
//! vectors.x) and links with cortex-m-rt's link.x (only for binaries, so host-side
//! tooling keeps linking).
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("memory.x"), include_bytes!("memory.x")).expect("write memory.x");
    fs::write(out.join("vectors.x"), include_bytes!("vectors.x")).expect("write vectors.x");
    let irq0 = out.join("irq0.o");
    fs::write(&irq0, irq0_object()).expect("write irq0.o");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=vectors.x");
    println!("cargo:rustc-link-arg-bins={}", irq0.display());
    // TICTABLE_TEXT_SHIFT=N (bytes, a multiple of 4) moves the whole program N
    // bytes up in flash: the same code at other addresses, for the virtual board's
    // layout check (scripts/vboard-layouts). Unset, the image is the one shipped.
    // Given before link.x, whose PROVIDE(_stext) it overrides.
    println!("cargo:rerun-if-env-changed=TICTABLE_TEXT_SHIFT");
    if let Some(shift) = env::var("TICTABLE_TEXT_SHIFT")
        .ok()
        .filter(|s| !s.is_empty())
    {
        let n: u32 = shift
            .parse()
            .expect("TICTABLE_TEXT_SHIFT: a number of bytes");
        assert!(
            n.is_multiple_of(4),
            "TICTABLE_TEXT_SHIFT: a multiple of 4 bytes"
        );
        let x = out.join("shift.x");
        let script = format!(
            "_stext = ALIGN(ADDR(.vector_table) + SIZEOF(.vector_table), ALIGNOF(.text)) + {n};\n"
        );
        fs::write(&x, script).expect("write shift.x");
        println!("cargo:rustc-link-arg-bins=-T{}", x.display());
    }
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tvectors.x");
    if env::var_os("CARGO_FEATURE_DEFMT").is_some() {
        println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
    }
}

/// A relocatable ELF object (32-bit Arm, little-endian) holding only IRQ0's vector:
/// a section `.vector_table.interrupts` of one word, relocated (R_ARM_ABS32) to the
/// address of `DefaultHandler`. Written here rather than compiled so that it needs
/// neither an assembler nor the target's `core` (a build-std build has none
/// installed); it stays outside the LTO module, so vectors.x tells it apart from
/// the PAC's section of the same name by its file name.
fn irq0_object() -> Vec<u8> {
    const SECTION: &[u8] = b".vector_table.interrupts";
    // Section names: [1] the vector, [2] its relocations, [3] .symtab, [4] .strtab,
    // [5] .shstrtab.
    let mut shstrtab = vec![0u8];
    let mut name = |s: &[u8]| {
        let at = shstrtab.len() as u32;
        shstrtab.extend_from_slice(s);
        shstrtab.push(0);
        at
    };
    let names = [
        name(SECTION),
        name(&[b".rel", SECTION].concat()),
        name(b".symtab"),
        name(b".strtab"),
        name(b".shstrtab"),
    ];
    let strtab = b"\0DefaultHandler\0";
    let le = |v: u32| v.to_le_bytes();
    // Symbol 1: DefaultHandler, global, undefined (symbol 0 is the null symbol).
    let mut symtab = vec![0u8; 16];
    symtab.extend(le(1).into_iter().chain(le(0)).chain(le(0)));
    symtab.extend([0x10, 0, 0, 0]); // STB_GLOBAL, STT_NOTYPE; SHN_UNDEF
                                    // The word at offset 0 of section 1: R_ARM_ABS32 (2) against symbol 1.
    let rel: Vec<u8> = le(0).into_iter().chain(le(1 << 8 | 2)).collect();
    let vector = [0u8; 4];

    // Contents after the 52-byte header, each 4-byte aligned, then the section headers.
    let mut body = Vec::new();
    let mut place = |bytes: &[u8]| {
        while body.len() % 4 != 0 {
            body.push(0);
        }
        let at = 52 + body.len() as u32;
        body.extend_from_slice(bytes);
        (at, bytes.len() as u32)
    };
    let parts = [
        place(&vector),
        place(&rel),
        place(&symtab),
        place(strtab),
        place(&shstrtab),
    ];
    while body.len() % 4 != 0 {
        body.push(0);
    }
    let shoff = 52 + body.len() as u32;
    // (type, flags, link, info, align, entry size) of sections 1..=5.
    let kinds: [[u32; 6]; 5] = [
        [1, 2, 0, 0, 4, 0],    // PROGBITS, ALLOC
        [9, 0x40, 3, 1, 4, 8], // REL, INFO_LINK: applies to section 1, symbols in 3
        [2, 0, 4, 1, 4, 16],   // SYMTAB: names in 4, first global symbol 1
        [3, 0, 0, 0, 1, 0],    // STRTAB
        [3, 0, 0, 0, 1, 0],    // STRTAB
    ];

    let mut elf = vec![0x7F, b'E', b'L', b'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    elf.extend(1u16.to_le_bytes()); // ET_REL
    elf.extend(40u16.to_le_bytes()); // EM_ARM
    elf.extend(le(1)); // version
    elf.extend(le(0).into_iter().chain(le(0)).chain(le(shoff)));
    elf.extend(le(0x0500_0000)); // EABI version 5
    for half in [52u16, 0, 0, 40, 6, 5] {
        // header size, no program headers, section header size, count, .shstrtab
        elf.extend(half.to_le_bytes());
    }
    elf.extend(body);
    elf.extend([0u8; 40]); // section 0: null
    for ((name, (offset, size)), [kind, flags, link, info, align, entsize]) in
        names.into_iter().zip(parts).zip(kinds)
    {
        for word in [
            name, kind, flags, 0, offset, size, link, info, align, entsize,
        ] {
            elf.extend(le(word));
        }
    }
    elf
}
