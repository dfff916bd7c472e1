//! The eight symmetries of the square on bitboards, squares and move sets, and the
//! canonical representative of a position.
//!
//! Every symmetry is `T^t ∘ V^v ∘ H^h` (applied right to left: first `H`, then `V`,
//! then `T`) where `H` mirrors left-right, `V` mirrors top-bottom and `T` transposes
//! (swaps rows and columns). Its index is `h | v << 1 | t << 2`. Each of the three
//! generators is two or three mask-and-shift operations, applied to X and O at once
//! (packed in one `u32`), so no loop over cells runs on the lookup path.

use crate::board::{Board, Square, Squares};
use core::fmt;

/// The left column and the top row, duplicated in both 16-bit lanes.
const COL_LEFT: u32 = 0x0049_0049;
const ROW_TOP: u32 = 0x0007_0007;

/// Mirror left-right (`H`): the left and right columns swap (a delta swap at
/// distance 2; the middle column stays).
#[inline(always)]
const fn mirror_columns(m: u32) -> u32 {
    let t = (m ^ (m >> 2)) & COL_LEFT;
    m ^ (t | (t << 2))
}

/// Mirror top-bottom (`V`): the top and bottom rows swap (a delta swap at
/// distance 6; the middle row stays).
#[inline(always)]
const fn mirror_rows(m: u32) -> u32 {
    let t = (m ^ (m >> 6)) & ROW_TOP;
    m ^ (t | (t << 6))
}

/// Transpose (`T`): square `3r + c` goes to `3c + r`, by two delta swaps
/// (1<->3 and 5<->7 at distance 2, then 2<->6 at distance 4).
#[inline(always)]
const fn transpose(mut m: u32) -> u32 {
    let t = (m ^ (m >> 2)) & 0x0022_0022;
    m ^= t | (t << 2);
    let t = (m ^ (m >> 4)) & 0x0004_0004;
    m ^ (t | (t << 4))
}

/// Packs a board as `x | o << 16`.
#[inline(always)]
const fn pack(board: Board) -> u32 {
    board.x() as u32 | (board.o() as u32) << 16
}

/// Unpacks `x | o << 16`.
#[inline(always)]
const fn unpack(m: u32) -> Board {
    Board::from_bits_unchecked(m as u16, (m >> 16) as u16)
}

/// One of the eight symmetries of the square.
///
/// ```
/// use tictable::{Board, Square, Symmetry};
/// let b: Board = "X........".parse().unwrap();
/// assert_eq!(Symmetry::ROTATE_CW.apply(b).to_string(), "..X......");
/// let s = Square::new(1).unwrap();
/// for sym in Symmetry::ALL {
///     assert_eq!(sym.inverse().apply_square(sym.apply_square(s)), s);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// Mirror left-right.
    pub const MIRROR_LEFT_RIGHT: Symmetry = Symmetry(1);
    /// Mirror top-bottom.
    pub const MIRROR_TOP_BOTTOM: Symmetry = Symmetry(2);
    /// Rotate by 180 degrees.
    pub const ROTATE_180: Symmetry = Symmetry(3);
    /// Reflect in the main diagonal (0-4-8).
    pub const TRANSPOSE: Symmetry = Symmetry(4);
    /// Rotate a quarter turn anticlockwise.
    pub const ROTATE_CCW: Symmetry = Symmetry(5);
    /// Rotate a quarter turn clockwise.
    pub const ROTATE_CW: Symmetry = Symmetry(6);
    /// Reflect in the anti-diagonal (2-4-6).
    pub const ANTI_TRANSPOSE: Symmetry = Symmetry(7);

    /// All eight, in index order.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The symmetry with this index (`h | v << 1 | t << 2`), if `index < 8`.
    pub const fn from_index(index: u8) -> Option<Symmetry> {
        if index < 8 {
            Some(Symmetry(index))
        } else {
            None
        }
    }

    /// The index 0..8 (`h | v << 1 | t << 2`).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The symmetry that undoes this one. Without a transpose each symmetry is its
    /// own inverse; with one, `H` and `V` swap roles (`(T V^v H^h)^-1 = T V^h H^v`).
    #[inline]
    pub const fn inverse(self) -> Symmetry {
        if self.0 & 4 == 0 {
            self
        } else {
            Symmetry(4 | (self.0 & 1) << 1 | (self.0 >> 1) & 1)
        }
    }

    /// Applies the symmetry to packed bitboards (`x | o << 16`).
    #[inline(always)]
    const fn apply_packed(self, mut m: u32) -> u32 {
        if self.0 & 1 != 0 {
            m = mirror_columns(m);
        }
        if self.0 & 2 != 0 {
            m = mirror_rows(m);
        }
        if self.0 & 4 != 0 {
            m = transpose(m);
        }
        m
    }

    /// Applies the symmetry to a 9-bit square mask.
    #[inline]
    pub const fn apply_bits(self, bits: u16) -> u16 {
        self.apply_packed(bits as u32 & 0x1ff) as u16
    }

    /// Applies the symmetry to a board.
    #[inline]
    pub const fn apply(self, board: Board) -> Board {
        unpack(self.apply_packed(pack(board)))
    }

    /// Where the symmetry sends `square`.
    #[inline]
    pub const fn apply_square(self, square: Square) -> Square {
        let bit = self.apply_bits(square.bit());
        match Square::new(bit.trailing_zeros() as u8) {
            Some(s) => s,
            None => square, // unreachable: a symmetry maps a bit to a bit
        }
    }

    /// Applies the symmetry to a set of squares.
    #[inline]
    pub const fn apply_squares(self, squares: Squares) -> Squares {
        Squares::from_bits(self.apply_bits(squares.bits()))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            0 => "identity",
            1 => "mirror left-right",
            2 => "mirror top-bottom",
            3 => "rotate 180",
            4 => "transpose",
            5 => "rotate anticlockwise",
            6 => "rotate clockwise",
            _ => "anti-transpose",
        })
    }
}

/// The canonical representative of `board` among its eight images and the symmetry
/// that maps `board` to it. The canonical image is the one whose packed value
/// `x | o << 16` is smallest (the first symmetry in index order on ties).
///
/// ```
/// use tictable::{canonical, Board};
/// let b: Board = "........X".parse().unwrap();
/// let (c, sym) = canonical(b);
/// assert_eq!(c.to_string(), "X........");
/// assert_eq!(sym.apply(b), c);
/// assert_eq!(sym.inverse().apply(c), b);
/// ```
#[inline]
pub fn canonical(board: Board) -> (Board, Symmetry) {
    let (best, index) = if cfg!(target_pointer_width = "64") {
        min_image_unrolled(pack(board))
    } else {
        min_image_looped(pack(board))
    };
    (unpack(best), Symmetry(index))
}

/// The smallest of the eight images of `m0` and its symmetry index (first index on
/// ties), in straight-line code: the fastest on 64-bit hosts (62 ns per lookup
/// through the canonical table against 77 ns for the loop, `cargo bench -p
/// tictable-bench`; `analyse` there reads the per-board layout and canonicalises
/// nothing).
#[inline(always)]
fn min_image_unrolled(m0: u32) -> (u32, u8) {
    let m1 = mirror_columns(m0);
    let m2 = mirror_rows(m0);
    let m3 = mirror_rows(m1);
    let (mut best, mut index) = (m0, 0);
    let mut consider = |image: u32, i: u8| {
        if image < best {
            (best, index) = (image, i);
        }
    };
    consider(m1, 1);
    consider(m2, 2);
    consider(m3, 3);
    consider(transpose(m0), 4);
    consider(transpose(m1), 5);
    consider(transpose(m2), 6);
    consider(transpose(m3), 7);
    (best, index)
}

/// The same minimum by a loop over the four mirror images and then their transposes
/// (symmetry `4 | i` is the transpose of image `i`): less flash on a Cortex-M3 than the
/// unrolled form, for a few more instructions per lookup (figures: firmware/README.md,
/// "Size"; scripts/firmware-size, scripts/qemu-test).
#[inline(always)]
fn min_image_looped(m0: u32) -> (u32, u8) {
    let m1 = mirror_columns(m0);
    let mirrors = [m0, m1, mirror_rows(m0), mirror_rows(m1)];
    let (mut best, mut index) = (m0, 0);
    for t in [0, 4] {
        for (i, &image) in mirrors.iter().enumerate() {
            let image = if t == 0 { image } else { transpose(image) };
            if image < best {
                (best, index) = (image, i as u8 | t);
            }
        }
    }
    (best, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the eight symmetries has a name of its own (a lost match arm
    /// would give two the same name; found by cargo-mutants).
    #[test]
    fn every_symmetry_has_its_own_name() {
        extern crate std;
        use std::string::ToString;
        let names: std::vec::Vec<_> = Symmetry::ALL.iter().map(|s| s.to_string()).collect();
        for (i, a) in names.iter().enumerate() {
            assert!(names[i + 1..].iter().all(|b| a != b), "{names:?}");
        }
        assert_eq!(names[5], "rotate anticlockwise");
    }

    /// The two ways of finding the canonical image agree on every pair of 9-bit
    /// masks (a superset of the reachable positions), symmetry index included.
    #[test]
    fn looped_and_unrolled_minimum_agree() {
        for x in 0..512u32 {
            for o in 0..512u32 {
                let m = x | o << 16;
                assert_eq!(min_image_looped(m), min_image_unrolled(m), "{x:#x} {o:#x}");
            }
        }
    }
}
