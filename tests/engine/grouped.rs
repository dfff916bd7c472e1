//! Byte figures as the documents write them, shared by the engine's tests and
//! tictable-games' (`games/tests/games/main.rs` includes this file by path).

/// `n` with a comma every three digits (`1,352`, `1,077,542`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
