//! The CRC-16 every generated Python module checks its tables with at import, as
//! Python source: one function, `_crc16(data, crc)` (CRC-16/IBM-3740, polynomial
//! 0x1021, four bits at a time; `binascii.crc_hqx(data, crc)` in CPython), written once
//! in `src/export/crc16.py.in` and pasted into tic-tac-toe's module
//! (`tables/tictactoe.py`) and into every game's module (`tictable-games`' `export`).
//!
//! ```
//! assert!(tictable::python_crc::FUNCTION.starts_with("def _crc16(data, crc):\n"));
//! ```

/// The function's source, ending with a newline.
pub const FUNCTION: &str = include_str!("export/crc16.py.in");
