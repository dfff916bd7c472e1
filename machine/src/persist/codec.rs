//! The snapshot's encoding: every field at a constant offset of a fixed-size
//! frame, little-endian, sealed with a CRC-32 (the layout is in the module docs of
//! [`persist`](super)).

use crate::classify::{Calibration, Margins, SquareCalibration};
use crate::hw::Rgbc;
use crate::model::{GameRecord, GameSetup, Mode, ResetCause, Task, FULL_STOCK, RECORD_CAPACITY};
use crate::motion::{Point, Pose, STORAGE_SLOTS};
use crate::Colour;
use tictable::Square;

use crate::model::Snapshot;

/// The CRC-32 of the slots (ISO-HDLC, as in zip and Ethernet), computed bit by bit
/// by the `crc` crate: no lookup table in flash.
static CRC: crc::Crc<u32, crc::NoTable> = crc::Crc::<u32, crc::NoTable>::new(&crc::CRC_32_ISO_HDLC);

/// CRC-32 (ISO-HDLC) of `data`, as stored after each snapshot.
///
/// ```
/// assert_eq!(tictable_machine::persist::crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub fn crc32(data: &[u8]) -> u32 {
    CRC.checksum(data)
}

/// Where each field of an encoded [`Snapshot`] starts (little-endian integers).
pub(super) mod at {
    pub const VERSION: usize = 0;
    pub const SEQUENCE: usize = 1;
    /// 9 squares x empty/black/white x clear/red/green/blue, `u16` each.
    pub const CALIBRATION: usize = 5;
    /// Ratio and spread percent, `u32` each.
    pub const MARGINS: usize = CALIBRATION + 9 * 3 * 4 * 2;
    /// Centre x, y (µm), cos, sin (Q16), pitch (µm): `i32` each.
    pub const POSE: usize = MARGINS + 8;
    /// [`ResetCause`](super::ResetCause)'s code.
    pub const RESET_CAUSE: usize = POSE + 5 * 4;
    /// The base plies (`games` feature: [`BASE_MOVES_LEN`](super::BASE_MOVES_LEN),
    /// 55 bytes; none in the default layout), before the game fields a delta
    /// holds: the game's first [`KEEP`] plies, the rest in the window at
    /// [`MOVES`]. A whole snapshot keeps as many plies here as it can; a delta
    /// keeps a prefix of its page's base plies (it cannot rewrite them) and puts
    /// the plies after it, up to nine, in its window.
    pub const BASE_MOVES: usize = RESET_CAUSE + 1;
    pub const DEVICE_FIRST: usize = BASE_MOVES + super::BASE_MOVES_LEN;
    pub const FIRST_SQUARE: usize = DEVICE_FIRST + 1;
    pub const MOVES_LEN: usize = FIRST_SQUARE + 1;
    /// The window: the nine plies from the [`KEEP`]-th on (from the first in the
    /// default layout), unused ones 0.
    pub const MOVES: usize = MOVES_LEN + 1;
    pub const TASK_LEN: usize = MOVES + 9;
    pub const TASK_DONE: usize = TASK_LEN + 1;
    /// (colour, square) pairs.
    pub const TASK_ITEMS: usize = TASK_DONE + 1;
    pub const ACTIVE: usize = TASK_ITEMS + 18;
    /// Stock, then suspect: one slot mask per colour each.
    pub const STOCK: usize = ACTIVE + 1;
    /// Colour, slot, square.
    pub const PENDING: usize = STOCK + 4;
    /// The game's number ([`Rules::code`](crate::controller::Rules::code)):
    /// `games` feature only.
    #[cfg(feature = "games")]
    pub const GAME: usize = PENDING + 3;
    #[cfg(not(feature = "games"))]
    pub const END: usize = PENDING + 3;
    /// How many plies come from the base plies at [`BASE_MOVES`], the window's
    /// first ply's number: `games` feature only (0 in the default layout).
    #[cfg(feature = "games")]
    pub const KEEP: usize = GAME + 1;
    #[cfg(feature = "games")]
    pub const END: usize = KEEP + 1;
}

/// Plies in the window of the encoding (at [`at::MOVES`], in every delta).
const WINDOW: usize = 9;

/// Base plies of the encoding (before the game fields, not in a delta): the
/// plies that do not fit the window (55 with the `games` feature, none in the
/// default layout).
pub(super) const BASE_MOVES_LEN: usize = RECORD_CAPACITY - WINDOW;

/// Bytes of an encoded [`Snapshot`] (without the slot's CRC).
pub const ENCODED_LEN: usize = at::END;

/// Bytes of a slot's frame: the encoded snapshot, then its CRC-32 (LE u32).
pub(super) const FRAME_LEN: usize = ENCODED_LEN + 4;

/// The frame buffer's length: [`FRAME_LEN`] rounded up to 32 bytes, room for the
/// padding to any write or read unit of up to 32 bytes.
pub(super) const FRAME_BUF: usize = FRAME_LEN.div_ceil(32) * 32;

/// A slot's bytes: the encoded snapshot, its CRC-32 (LE u32), then room for the
/// zero padding. The codec works on whole frames, so every field sits at a
/// constant offset of a fixed-size array (no bounds checks).
pub(super) type Frame = [u8; FRAME_BUF];

/// The format version written in every snapshot: 6 in the default build (9
/// plies, no game byte), 8 with the `games` feature (64 plies, the game byte and
/// the window's first ply; version 7, whose deltas held the first nine plies
/// only, is refused: a fresh start).
#[cfg(not(feature = "games"))]
pub const FORMAT_VERSION: u8 = 6;

/// The format version written in every snapshot: 6 in the default build (9
/// plies, no game byte), 8 with the `games` feature (64 plies, the game byte and
/// the window's first ply; version 7, whose deltas held the first nine plies
/// only, is refused: a fresh start).
#[cfg(feature = "games")]
pub const FORMAT_VERSION: u8 = 8;

/// Written for an absent optional value (a square, a colour).
pub(super) const NONE: u8 = 0xFF;

#[inline(always)]
fn u16_at(b: &Frame, offset: usize) -> u16 {
    u16::from_le_bytes([b[offset], b[offset + 1]])
}

pub(super) fn u32_at(b: &Frame, offset: usize) -> u32 {
    u32::from_le_bytes([b[offset], b[offset + 1], b[offset + 2], b[offset + 3]])
}

/// Writes `value` (LE) at `offset`, byte by byte: stores, not a copy call.
#[inline(always)]
pub(super) fn put_u32(b: &mut Frame, offset: usize, value: u32) {
    let [v0, v1, v2, v3] = value.to_le_bytes();
    [b[offset], b[offset + 1], b[offset + 2], b[offset + 3]] = [v0, v1, v2, v3];
}

#[inline(always)]
pub(super) fn put(b: &mut Frame, offset: usize, value: &[u8]) {
    b[offset..offset + value.len()].copy_from_slice(value);
}

/// A colour as stored: 0 black, 1 white.
pub(super) fn colour_of_code(code: u8) -> Option<Colour> {
    if code > 1 {
        return None;
    }
    Some(if code == 0 {
        Colour::Black
    } else {
        Colour::White
    })
}

impl Snapshot {
    /// The snapshot in the fixed layout: version, sequence (LE u32), calibration (9
    /// squares x empty/black/white x clear/red/green/blue, LE u16), margins (2 x LE
    /// u32), pose (centre x, centre y in µm, cos, sin in Q16, pitch in µm: 5 x LE
    /// i32), the reset cause ([`ResetCause`]'s code, 1..=7), with the `games` feature
    /// the base plies (55 bytes: the first `keep` plies, unused ones 0), device_first
    /// (0/1), first square (0..=8 or 0xFF), number of moves, the window of nine
    /// moves from the `keep`-th on (a byte each, unused ones 0), task length (0 in a
    /// game), placements done, the task's (colour, square) pairs (9, unused ones 0),
    /// active (0/1), stock (2), suspect (2), pending colour (0 black / 1 white / 0xFF
    /// none), slot, square; with `games` the game's number and `keep` last. `keep` is
    /// as many plies as the base holds (all of a game of 55 plies or fewer); a delta
    /// written by the [`Store`](super::Store) may keep fewer: the longest prefix
    /// of its page's base plies that its game shares, the plies after it, up to
    /// nine, in the window.
    ///
    /// ```
    /// use tictable_machine::controller::{GameRecord, GameSetup, Mode};
    /// use tictable_machine::classify::Calibration;
    /// use tictable_machine::model::ResetCause;
    /// use tictable_machine::motion::{Point, Pose};
    /// use tictable_machine::persist::{Snapshot, ENCODED_LEN};
    /// use tictable_machine::Colour;
    /// use tictable::Square;
    /// let mut record = GameRecord::new();
    /// record.push(Square::CENTRE).unwrap();
    /// let s = Snapshot {
    ///     sequence: 7, calibration: Calibration::default(),
    ///     pose: Pose::new(Point::mm(160, 130), -200, 32_000).unwrap(),
    ///     reset_cause: ResetCause::Watchdog,
    ///     setup: GameSetup { device_first: true, first_square: Some(Square::CENTRE) },
    ///     record, mode: Mode::Game, active: true, stock: [0b11110, 0b11111], suspect: [0, 0],
    ///     pending: Some((Colour::Black, 1, Square::ALL[8])),
    /// };
    /// let bytes: [u8; ENCODED_LEN] = s.encode();
    /// assert_eq!(Snapshot::decode(&bytes), Some(s));
    /// assert_eq!(Snapshot::decode(&bytes[..ENCODED_LEN - 1]), None);
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8 + 20] = 0; // no reset cause has code 0
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// // The plies past the ninth (none in the default layout) come first.
    /// let side = 1 + 4 + 216 + 8 + 20 + 1 + (tictable_machine::controller::RECORD_CAPACITY - 9);
    /// let mut bad = bytes;
    /// bad[side] = 2; // device_first is neither 0 nor 1
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// // The first ply: in the window of the default layout, in the base plies of
    /// // the `games` layout (a whole snapshot keeps all it can there).
    /// let first = if side > 250 { 250 } else { side + 3 };
    /// let mut bad = bytes;
    /// bad[first] = 9; // the first move on a square that does not exist
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// ```
    pub fn encode(&self) -> [u8; ENCODED_LEN] {
        let mut frame = [0; FRAME_BUF];
        self.encode_into(&mut frame);
        let mut bytes = [0; ENCODED_LEN];
        bytes.copy_from_slice(&frame[..ENCODED_LEN]);
        bytes
    }

    /// Writes [`Snapshot::encode`]'s layout at the start of `b` (the CRC is left).
    pub(super) fn encode_into(&self, b: &mut Frame) {
        b[at::VERSION] = FORMAT_VERSION;
        put(b, at::SEQUENCE, &self.sequence.to_le_bytes());
        for (s, square) in self.calibration.squares().iter().enumerate() {
            for (r, v) in square.references().iter().enumerate() {
                let at = at::CALIBRATION + 24 * s + 8 * r;
                let [c0, c1] = v.clear.to_le_bytes();
                let [r0, r1] = v.red.to_le_bytes();
                let [g0, g1] = v.green.to_le_bytes();
                let [b0, b1] = v.blue.to_le_bytes();
                put(b, at, &[c0, c1, r0, r1, g0, g1, b0, b1]);
            }
        }
        let margins = self.calibration.margins();
        put(b, at::MARGINS, &margins.ratio_percent.to_le_bytes());
        put(b, at::MARGINS + 4, &margins.spread_percent.to_le_bytes());
        let (cos, sin) = self.pose.rotation();
        let c = self.pose.centre();
        put(b, at::POSE, &c.x.to_le_bytes());
        put(b, at::POSE + 4, &c.y.to_le_bytes());
        put(b, at::POSE + 8, &cos.to_le_bytes());
        put(b, at::POSE + 12, &sin.to_le_bytes());
        put(b, at::POSE + 16, &self.pose.pitch_um().to_le_bytes());
        b[at::RESET_CAUSE] = self.reset_cause as u8;
        b[at::DEVICE_FIRST] = self.setup.device_first.into();
        b[at::FIRST_SQUARE] = self.setup.first_square.map_or(NONE, Square::index);
        b[at::MOVES_LEN] = self.record.len;
        #[cfg(not(feature = "games"))]
        put(b, at::MOVES, self.record.move_indices());
        #[cfg(feature = "games")]
        self.put_plies(b);
        if let Mode::Task { task, done } = &self.mode {
            b[at::TASK_LEN] = task.len;
            b[at::TASK_DONE] = *done;
            let pairs = b[at::TASK_ITEMS..at::ACTIVE].chunks_exact_mut(2);
            for (dst, &(colour, square)) in pairs.zip(task.all_items()) {
                if let [c, s] = dst {
                    (*c, *s) = (colour.index() as u8, square.index());
                }
            }
        }
        b[at::ACTIVE] = self.active.into();
        let [s0, s1] = self.stock;
        let [e0, e1] = self.suspect;
        put(b, at::STOCK, &[s0, s1, e0, e1]);
        let pending = match self.pending {
            Some((colour, slot, square)) => [colour.index() as u8, slot, square.index()],
            None => [NONE; 3],
        };
        put(b, at::PENDING, &pending);
        #[cfg(feature = "games")]
        {
            b[at::GAME] = self.record.game().code();
        }
    }

    /// Writes the plies as a whole snapshot holds them: every ply the base holds
    /// there (the record's unused plies are 0), `keep` that many, the rest in the
    /// window. A frame [`Snapshot::encode_after`] made a delta becomes the whole
    /// encoding again.
    #[cfg(feature = "games")]
    pub(super) fn put_plies(&self, b: &mut Frame) {
        let plies = self.record.move_indices();
        let keep = usize::from(self.record.len).min(BASE_MOVES_LEN);
        b[at::KEEP] = keep as u8;
        put(b, at::BASE_MOVES, &plies[..BASE_MOVES_LEN]);
        put(b, at::MOVES, &plies[keep..keep + WINDOW]);
    }

    /// [`Snapshot::encode_into`]'s layout made a delta of `newest` (the frame on
    /// flash that a delta would follow) where it can: with the `games` feature the
    /// base plies are `newest`'s, `keep` the longest prefix of this game's plies that
    /// they share (at most `newest`'s own `keep`), and the window the plies after it,
    /// when there are nine or fewer. A new game, or a game that went on by a few
    /// plies, then differs from `newest` in the game fields only and is saved as a
    /// delta; a game more than nine plies past the base keeps the whole encoding,
    /// which differs in the base and is saved whole. The default layout has no base
    /// plies: the plain encoding.
    pub(super) fn encode_after(&self, b: &mut Frame, newest: &Frame) {
        self.encode_into(b);
        #[cfg(feature = "games")]
        {
            let plies = self.record.move_indices();
            let len = usize::from(self.record.len);
            let base = &newest[at::BASE_MOVES..at::BASE_MOVES + BASE_MOVES_LEN];
            let most = usize::from(newest[at::KEEP]).min(BASE_MOVES_LEN).min(len);
            let keep = plies[..most]
                .iter()
                .zip(base)
                .take_while(|(a, b)| a == b)
                .count();
            if len - keep <= WINDOW {
                put(b, at::BASE_MOVES, base);
                b[at::KEEP] = keep as u8;
                // The record's unused plies are 0: the window's too.
                put(b, at::MOVES, &plies[keep..keep + WINDOW]);
            }
        }
        #[cfg(not(feature = "games"))]
        let _ = newest;
    }

    /// A snapshot back from [`Snapshot::encode`]'s layout: `None` unless `bytes` is
    /// exactly [`ENCODED_LEN`] long, of this [`FORMAT_VERSION`], and every field is
    /// valid (flags 0 or 1, a pose [`Pose::from_parts`] accepts, squares 0..=8, the
    /// moves a legal game, the task one that [`Task::new`] accepts with at most its
    /// length done, slots that exist).
    pub fn decode(bytes: &[u8]) -> Option<Snapshot> {
        if bytes.len() != ENCODED_LEN {
            return None;
        }
        let mut frame = [0; FRAME_BUF];
        frame[..ENCODED_LEN].copy_from_slice(bytes);
        Snapshot::decode_frame(&frame)
    }

    /// [`Snapshot::decode`] on the encoding at the start of a frame.
    pub(super) fn decode_frame(b: &Frame) -> Option<Snapshot> {
        // The plain fields are checked first and read again where the snapshot is
        // built: four slot masks at once (no bit past the last slot), the flags.
        let masks = u32_at(b, at::STOCK);
        if b[at::VERSION] != FORMAT_VERSION
            || masks & !u32::from_le_bytes([FULL_STOCK; 4]) != 0
            || b[at::DEVICE_FIRST] > 1
            || b[at::ACTIVE] > 1
        {
            return None;
        }
        let [colour, slot, square] = [b[at::PENDING], b[at::PENDING + 1], b[at::PENDING + 2]];
        let pending = if colour == NONE {
            None
        } else if (slot as usize) < STORAGE_SLOTS {
            Some((colour_of_code(colour)?, slot, Square::new(square)?))
        } else {
            return None;
        };
        let p = |k: usize| u32_at(b, at::POSE + 4 * k);
        let centre = Point::new(p(0) as i32, p(1) as i32);
        let pose = Pose::from_parts(centre, p(2) as i32, p(3) as i32, p(4)).ok()?;
        let mut squares: [SquareCalibration; 9] = Default::default();
        for (s, square) in squares.iter_mut().enumerate() {
            for (r, v) in square.references_mut().iter_mut().enumerate() {
                // Stored calibrations were checked when made; keep them as they are.
                let at = at::CALIBRATION + 24 * s + 8 * r;
                *v = Rgbc::new(
                    u16_at(b, at),
                    u16_at(b, at + 2),
                    u16_at(b, at + 4),
                    u16_at(b, at + 6),
                );
            }
        }
        let mut snapshot = Snapshot {
            sequence: u32_at(b, at::SEQUENCE),
            calibration: Calibration::new(
                squares,
                Margins {
                    ratio_percent: u32_at(b, at::MARGINS),
                    spread_percent: u32_at(b, at::MARGINS + 4),
                },
            ),
            pose,
            reset_cause: ResetCause::from_code(b[at::RESET_CAUSE])?,
            setup: GameSetup {
                device_first: b[at::DEVICE_FIRST] != 0,
                first_square: match b[at::FIRST_SQUARE] {
                    NONE => None,
                    s => Some(Square::new(s)?),
                },
            },
            record: GameRecord::new(),
            mode: Mode::Game,
            active: b[at::ACTIVE] != 0,
            stock: [b[at::STOCK], b[at::STOCK + 1]],
            suspect: [b[at::STOCK + 2], b[at::STOCK + 3]],
            pending,
        };
        // At most nine: the tenth move finds the game over.
        #[cfg(not(feature = "games"))]
        for k in 0..b[at::MOVES_LEN] as usize {
            let m = Square::new(*b.get(at::MOVES + k)?)?;
            snapshot.record.push(m).ok()?;
        }
        #[cfg(feature = "games")]
        {
            use crate::controller::{Move, Rules};
            let Some(game) = Rules::from_code(b[at::GAME]) else {
                // A game this build does not know: refused, the rest kept (the
                // calibration, the pose, the setup); a fresh tic-tac-toe game
                // instead, which the controller says with its lights.
                snapshot.record = GameRecord::refused(b[at::GAME]);
                snapshot.active = false;
                snapshot.pending = None;
                return Some(snapshot);
            };
            snapshot.record = GameRecord::of_game(game);
            let (len, keep) = (b[at::MOVES_LEN] as usize, b[at::KEEP] as usize);
            if keep > BASE_MOVES_LEN || len > keep + WINDOW {
                return None;
            }
            for k in 0..len {
                let at = if k < keep {
                    at::BASE_MOVES + k
                } else {
                    at::MOVES + k - keep
                };
                let mv = Move::from_byte(b[at], game)?;
                snapshot.record.push_move(mv).ok()?;
            }
        }
        let (len, done) = (b[at::TASK_LEN], b[at::TASK_DONE]);
        if len != 0 {
            if len > 9 || done > len {
                return None;
            }
            // Item by item through `Task::push`, as `Task::new` builds it.
            let mut task = Task::NONE;
            for k in 0..len as usize {
                let at = at::TASK_ITEMS + 2 * k;
                task.push(colour_of_code(b[at])?, Square::new(b[at + 1])?)
                    .ok()?;
            }
            snapshot.mode = Mode::Task { task, done };
        }
        Some(snapshot)
    }
}
