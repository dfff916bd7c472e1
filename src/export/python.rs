//! `tables/tictactoe.py`: the Python / MicroPython module, rendered from the template
//! `tictactoe.py.in` with the two tables as `bytes` literals and their CRC-16.

use super::{best_entries, entries, record_bytes};
use crate::portable::VERSION;
use crate::solve::Solution;
use std::string::{String, ToString};

/// The module's code and documentation, with `@VERSION@`, `@COUNT@`, `@DATA_BYTES@`,
/// `@RECORDS@` (the analysis table), `@BEST_COUNT@`, `@BEST_DATA_BYTES@`, `@BEST@` (the
/// best-moves table), `@CRC@` and `@CRC16@` (the shared [`crate::python_crc::FUNCTION`])
/// to fill in.
const TEMPLATE: &str = include_str!("tictactoe.py.in");

/// Bytes per line of a `bytes` literal: four records.
const LINE_BYTES: usize = 16;

/// The CRC the module checks at import: CRC-16/IBM-3740 (`binascii.crc_hqx(data,
/// 0xffff)` in CPython), small enough for MicroPython's small integers.
const CRC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_IBM_3740);

/// `bytes` literals, one per line of [`LINE_BYTES`], each indented by 4 spaces and
/// joined by Python's literal concatenation: printable ASCII as itself (but `"` and
/// `\`), every other byte as `\xNN`.
fn bytes_literal(bytes: &[u8]) -> String {
    let lines: std::vec::Vec<String> = bytes
        .chunks(LINE_BYTES)
        .map(|line| {
            let mut text = String::from("    b\"");
            for &byte in line {
                match byte {
                    b'"' | b'\\' => text.push_str(&std::format!("\\x{byte:02x}")),
                    0x20..=0x7e => text.push(char::from(byte)),
                    _ => text.push_str(&std::format!("\\x{byte:02x}")),
                }
            }
            text.push('"');
            text
        })
        .collect();
    lines.join("\n")
}

/// The Python module `tables/tictactoe.py`: `analyse`, `best_moves` and `best_move`
/// over the analysis table ([`entries`]) and the best-moves table ([`best_entries`]),
/// which it checks at import by length and CRC-16. Runs under CPython 3 and
/// MicroPython; imports nothing.
///
/// ```
/// let module = tictable::export::python_module(&tictable::solve::solve());
/// assert!(module.contains("def best_move(x, o):"));
/// assert_eq!(module.as_bytes(), include_bytes!("../../tables/tictactoe.py"));
/// ```
pub fn python_module(solution: &Solution) -> String {
    let records = record_bytes(&entries(solution));
    let best = record_bytes(&best_entries(solution));
    let mut digest = CRC.digest();
    digest.update(&records);
    digest.update(&best);
    TEMPLATE
        .replace("@VERSION@", &VERSION.to_string())
        .replace("@COUNT@", &(records.len() / 4).to_string())
        .replace("@DATA_BYTES@", &records.len().to_string())
        .replace("@RECORDS@", &bytes_literal(&records))
        .replace("@BEST_COUNT@", &(best.len() / 4).to_string())
        .replace("@BEST_DATA_BYTES@", &best.len().to_string())
        .replace("@BEST@", &bytes_literal(&best))
        .replace("@CRC16@\n", crate::python_crc::FUNCTION)
        .replace("@CRC@", &std::format!("{:#06x}", digest.finalize()))
}
