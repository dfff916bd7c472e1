//! Persistence: the calibration and the game in progress, in a fixed little-endian
//! layout plus a CRC-32, appended to a log over the pages of a NOR flash (any
//! `embedded-storage` [`NorFlash`]: erased bytes read 0xFF, erases by whole erase
//! units, each word written once between erases).
//!
//! [`Snapshot`] (a [`model`](super::model) type) holds only checked values, so
//! there is one representation of the state: [`Snapshot::encode`] writes it field
//! by field and [`Snapshot::decode`] rebuilds the game record move by move through
//! [`GameRecord::push`], the task item by item as [`Task::new`] does and the pose through
//! [`Pose::from_parts`], refusing anything they refuse. The calibration is the one
//! exception: its references are restored as stored, not checked again (they were
//! checked when the calibration was made, and the CRC guards the bytes). The
//! layout is written by hand rather than through serde + postcard, whose visitors
//! cost the firmware several KiB more flash. Both directions work on a whole slot
//! frame (a fixed-size array), every field at a constant offset, so the firmware
//! reads and writes each field with one instruction and no bounds check.
//!
//! # Flash layout
//!
//! [`Store`] keeps an append-only log over every whole page of
//! [`Store::PAGE_STRIDE`] bytes from `base` (a multiple of the flash's
//! `ERASE_SIZE`) to the end of the flash: at least two pages; the firmware's flash
//! reserves twelve 1 KiB pages of the STM32F103 (`firmware/src/storage.rs`). A page
//! is the whole snapshot's bytes rounded up to whole erase units, so erasing one
//! never touches another. A page holds, from its start:
//!
//! | bytes | contents |
//! |---|---|
//! | [`ENCODED_LEN`] | a whole snapshot ([`Snapshot::encode`]) |
//! | 4 | CRC-32 of the encoding, little-endian ([`crc32`]) |
//! | 0 or more | zeros, padding to whole write and read units of the flash |
//! | `d` × delta slot | deltas, each: the encoding's 40 bytes from the game setup on (setup, moves, task, flags, stock, pending), their CRC-32, zero padding |
//! | rest of the page | erased (0xFF), never written |
//!
//! A delta stands for the page's whole snapshot with its game fields replaced
//! and the sequence of the page plus its slot number plus one: the calibration
//! the pose and the reset cause (the first 250 bytes of the encoding) change
//! only when the machine is calibrated or reset, the game fields with every move. On 1 KiB pages with
//! half-word writes a whole snapshot takes 294 B and a delta slot 44 B: 16 deltas
//! fit after it, 17 saves per erase ([`Store::SAVES_PER_PAGE`]).
//!
//! A save appends a delta to the newest page when its calibration and pose are
//! the page's and a slot is free; otherwise it erases the next page in turn (the
//! oldest: pages are used round robin, so they wear evenly) and writes the whole
//! snapshot at its start. Each record is written once, in one `write`, into
//! erased flash, and the newest completed snapshot is never erased: a power cut
//! during an erase or a write leaves a torn record, which fails its CRC (or
//! decoding) and is skipped; an erased record fails both. [`Store::load`] reads
//! the whole snapshot at the start of each page, takes the valid one with the
//! highest sequence, then the deltas of that page in order, keeping the last
//! valid one: bounded work at boot (one frame per page and one page of deltas).
//! A flash written by the earlier two-slot store (a whole snapshot at the start
//! of a page, the rest erased) reads the same way.

use super::classify::{Calibration, Margins, SquareCalibration};
use super::hw::Rgbc;
use super::model::{GameRecord, GameSetup, Mode, ResetCause, Task, FULL_STOCK};
use super::motion::{Point, Pose, STORAGE_SLOTS};
use super::Colour;
use crate::Square;
use embedded_storage::nor_flash::NorFlash;

/// The snapshot type, defined in [`model`](super::model); re-exported here.
pub use super::model::Snapshot;

/// The CRC-32 of the slots (ISO-HDLC, as in zip and Ethernet), computed bit by bit
/// by the `crc` crate: no lookup table in flash.
static CRC: crc::Crc<u32, crc::NoTable> = crc::Crc::<u32, crc::NoTable>::new(&crc::CRC_32_ISO_HDLC);

/// CRC-32 (ISO-HDLC) of `data`, as stored after each snapshot.
///
/// ```
/// assert_eq!(tictable::device::persist::crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub fn crc32(data: &[u8]) -> u32 {
    CRC.checksum(data)
}

/// Where each field of an encoded [`Snapshot`] starts (little-endian integers).
mod at {
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
    pub const DEVICE_FIRST: usize = RESET_CAUSE + 1;
    pub const FIRST_SQUARE: usize = DEVICE_FIRST + 1;
    pub const MOVES_LEN: usize = FIRST_SQUARE + 1;
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
    pub const END: usize = PENDING + 3;
}

/// Bytes of an encoded [`Snapshot`] (without the slot's CRC).
pub const ENCODED_LEN: usize = at::END;

/// Bytes of a slot's frame: the encoded snapshot, then its CRC-32 (LE u32).
const FRAME_LEN: usize = ENCODED_LEN + 4;

/// The frame buffer's length: [`FRAME_LEN`] rounded up to 32 bytes, room for the
/// padding to any write or read unit of up to 32 bytes.
const FRAME_BUF: usize = FRAME_LEN.div_ceil(32) * 32;

/// A slot's bytes: the encoded snapshot, its CRC-32 (LE u32), then room for the
/// zero padding. The codec works on whole frames, so every field sits at a
/// constant offset of a fixed-size array (no bounds checks).
type Frame = [u8; FRAME_BUF];

/// The format version written in every snapshot.
pub const FORMAT_VERSION: u8 = 6;

/// Written for an absent optional value (a square, a colour).
const NONE: u8 = 0xFF;

fn u32_at(b: &Frame, offset: usize) -> u32 {
    u32::from_le_bytes([b[offset], b[offset + 1], b[offset + 2], b[offset + 3]])
}

/// Writes `value` (LE) at `offset`, byte by byte: stores, not a copy call.
#[inline(always)]
fn put_u32(b: &mut Frame, offset: usize, value: u32) {
    let [v0, v1, v2, v3] = value.to_le_bytes();
    [b[offset], b[offset + 1], b[offset + 2], b[offset + 3]] = [v0, v1, v2, v3];
}

#[inline(always)]
fn put(b: &mut Frame, offset: usize, value: &[u8]) {
    b[offset..offset + value.len()].copy_from_slice(value);
}

/// A colour as stored: 0 black, 1 white.
fn colour_of_code(code: u8) -> Option<Colour> {
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
    /// i32), the reset cause ([`ResetCause`]'s code, 1..=7), device_first (0/1), first square (0..=8 or 0xFF), number of moves, the
    /// moves (9 squares, unused ones 0), task length (0 in a game), placements done,
    /// the task's (colour, square) pairs (9, unused ones 0), active (0/1), stock (2),
    /// suspect (2), pending colour (0 black / 1 white / 0xFF none), slot, square.
    ///
    /// ```
    /// use tictable::device::controller::{GameRecord, GameSetup, Mode};
    /// use tictable::device::classify::Calibration;
    /// use tictable::device::model::ResetCause;
    /// use tictable::device::motion::{Point, Pose};
    /// use tictable::device::persist::{Snapshot, ENCODED_LEN};
    /// use tictable::device::Colour;
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
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8 + 20 + 1] = 2; // device_first is neither 0 nor 1
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8 + 20 + 1 + 3] = 9; // the first move on a square that does not exist
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
    fn encode_into(&self, b: &mut Frame) {
        b[at::VERSION] = FORMAT_VERSION;
        put(b, at::SEQUENCE, &self.sequence.to_le_bytes());
        let mut chunks = b[at::CALIBRATION..at::MARGINS].chunks_exact_mut(8);
        for square in self.calibration.squares() {
            for v in square.references() {
                if let Some([c0, c1, r0, r1, g0, g1, b0, b1]) = chunks.next() {
                    [*c0, *c1] = v.clear.to_le_bytes();
                    [*r0, *r1] = v.red.to_le_bytes();
                    [*g0, *g1] = v.green.to_le_bytes();
                    [*b0, *b1] = v.blue.to_le_bytes();
                }
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
        put(b, at::MOVES, self.record.move_indices());
        if let Mode::Task { task, done } = &self.mode {
            let items = task.items();
            b[at::TASK_LEN] = items.len() as u8;
            b[at::TASK_DONE] = *done;
            let pairs = b[at::TASK_ITEMS..at::ACTIVE].chunks_exact_mut(2);
            for (dst, &(colour, square)) in pairs.zip(items) {
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
    fn decode_frame(b: &Frame) -> Option<Snapshot> {
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
        let mut squares = [SquareCalibration::default(); 9];
        let mut chunks = b[at::CALIBRATION..at::MARGINS].chunks_exact(8);
        for square in squares.iter_mut() {
            for v in square.references_mut() {
                if let Some(&[c0, c1, r0, r1, g0, g1, b0, b1]) = chunks.next() {
                    // Stored calibrations were checked when made; keep them as they are.
                    *v = Rgbc::new(
                        u16::from_le_bytes([c0, c1]),
                        u16::from_le_bytes([r0, r1]),
                        u16::from_le_bytes([g0, g1]),
                        u16::from_le_bytes([b0, b1]),
                    );
                }
            }
        }
        let p = |k: usize| u32_at(b, at::POSE + 4 * k);
        let centre = Point::new(p(0) as i32, p(1) as i32);
        let pose = Pose::from_parts(centre, p(2) as i32, p(3) as i32, p(4)).ok()?;
        let reset_cause = ResetCause::from_code(b[at::RESET_CAUSE])?;
        let first_square = match b[at::FIRST_SQUARE] {
            NONE => None,
            s => Some(Square::new(s)?),
        };
        let mut record = GameRecord::new();
        for &m in b[at::MOVES..at::TASK_LEN].get(..b[at::MOVES_LEN] as usize)? {
            record.push(Square::new(m)?).ok()?;
        }
        let (len, done) = (b[at::TASK_LEN], b[at::TASK_DONE]);
        let mode = if len == 0 {
            Mode::Game
        } else {
            if len > 9 || done > len {
                return None;
            }
            // Item by item through `Task::push`, as `Task::new` builds it.
            let mut task = Task::NONE;
            let pairs = b[at::TASK_ITEMS..at::ACTIVE].chunks_exact(2);
            for pair in pairs.take(len as usize) {
                task.push(colour_of_code(pair[0])?, Square::new(pair[1])?)
                    .ok()?;
            }
            Mode::Task { task, done }
        };
        Some(Snapshot {
            sequence: u32_at(b, at::SEQUENCE),
            calibration: Calibration::new(
                squares,
                Margins {
                    ratio_percent: u32_at(b, at::MARGINS),
                    spread_percent: u32_at(b, at::MARGINS + 4),
                },
            ),
            pose,
            reset_cause,
            setup: GameSetup {
                device_first: b[at::DEVICE_FIRST] != 0,
                first_square,
            },
            record,
            mode,
            active: b[at::ACTIVE] != 0,
            stock: [b[at::STOCK], b[at::STOCK + 1]],
            suspect: [b[at::STOCK + 2], b[at::STOCK + 3]],
            pending,
        })
    }
}

/// Why a save or a load failed.
///
/// ```
/// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
/// use tictable::device::persist::{PersistError, Store};
/// use tictable::device::sim::flash::MemFlash;
///
/// // 512-byte erase units, 2-byte writes: a page of the store is one unit, and the
/// // store needs at least two of them from a base that is a multiple of 512.
/// type Flash = MemFlash<2048, 512, 2>;
/// assert!(Store::new(Flash::new(), 1024).is_ok());
/// assert!(matches!(Store::new(Flash::new(), 1536), Err(PersistError::TooSmall)));
/// assert!(matches!(Store::new(Flash::new(), 100), Err(PersistError::Misaligned)));
/// // Writes of 128 bytes at once: the frame cannot be padded to that.
/// assert!(matches!(
///     Store::new(MemFlash::<2048, 512, 128>::new(), 0),
///     Err(PersistError::Unsupported)
/// ));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PersistError<E> {
    /// The flash reported an error (a power cut, a failed erase or write...).
    Storage(E),
    /// The flash holds fewer than two pages ([`Store::PAGE_STRIDE`] bytes each)
    /// from the base offset.
    TooSmall,
    /// The base offset is not a multiple of the flash's `ERASE_SIZE`, so erasing
    /// a page could touch something else.
    Misaligned,
    /// The flash's read or write unit is not one the store can pad a record to:
    /// one of the two units must be a multiple of the other, the erase unit a
    /// multiple of both, and the frame padded to them must fit the store's buffer
    /// (true of units of up to 32 bytes that are powers of two, as on common NOR
    /// flash).
    Unsupported,
}

impl<E: core::fmt::Debug> core::fmt::Display for PersistError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PersistError::Storage(e) => write!(f, "flash error: {e:?}"),
            PersistError::TooSmall => f.write_str("the flash is too small for two pages"),
            PersistError::Misaligned => f.write_str("base offset not on an erase unit"),
            PersistError::Unsupported => f.write_str("unsupported flash read or write unit"),
        }
    }
}

impl<E: core::fmt::Debug> core::error::Error for PersistError<E> {}

/// Where the fields a game changes start in the encoding: the setup, the moves,
/// the task, the flags, the stock and the pending placement. Everything before
/// (version, sequence, calibration, pose) changes only when the machine is
/// calibrated, so a save between calibrations writes only these fields and their
/// CRC-32 (a delta: 44 B).
const DELTA_START: usize = at::DEVICE_FIRST;

/// Seals the encoding's bytes from `from` (0: a whole snapshot, [`DELTA_START`]: a
/// delta) with their CRC-32, LE at [`ENCODED_LEN`].
fn seal(frame: &mut Frame, from: usize) {
    let crc = crc32(&frame[from..ENCODED_LEN]);
    put_u32(frame, ENCODED_LEN, crc);
}

/// Whether the encoding's bytes from `from` are followed by their CRC-32 and the
/// frame decodes: a record the scan may take.
fn valid(frame: &Frame, from: usize) -> bool {
    u32_at(frame, ENCODED_LEN) == crc32(&frame[from..ENCODED_LEN])
        && Snapshot::decode_frame(frame).is_some()
}

/// Where the next save goes: the newest frame (its CRC is not kept up to date),
/// the page holding it, that page's sequence and its next free delta slot.
#[derive(Clone, Debug)]
struct Head {
    /// The fields below describe the flash (after a load or a save that worked).
    known: bool,
    page: u32,
    /// The sequence of the page's whole snapshot; its delta in slot `k` has
    /// `sequence + k + 1`.
    sequence: u32,
    next: usize,
    frame: Frame,
}

/// Snapshots appended to a log over two or more pages of a NOR flash, from `base`
/// (see the module docs for the layout): a page is erased only once it is full.
///
/// ```
/// # #[cfg(feature = "sim")] { // the example machine and flash are the simulator's
/// use tictable::device::controller::GameRecord;
/// use tictable::device::persist::{Snapshot, Store};
/// use tictable::device::sim::flash::MemFlash;
/// use tictable::device::sim::run::SimMachine;
/// use tictable::device::sim::world::SimConfig;
/// use tictable::device::controller::BestMove;
/// use tictable::Square;
///
/// let m = SimMachine::new(SimConfig::standard(0.0, 0.0, 1).unwrap(), BestMove).unwrap();
/// let mut snap = m.controller.snapshot();
/// // Two pages of 1 KiB, as on the STM32F103: 17 saves each.
/// type Flash = MemFlash<2048, 1024, 2>;
/// assert_eq!(Store::<Flash>::SAVES_PER_PAGE, 17);
/// let mut store = Store::new(Flash::new(), 0).unwrap();
/// assert_eq!(store.load().unwrap(), None); // erased flash: nothing saved yet
/// store.save(&snap).unwrap(); // page 0 erased, the whole snapshot, sequence 1
/// snap.record.push(Square::CENTRE).unwrap();
/// store.save(&snap).unwrap(); // the same calibration: a delta, sequence 2
/// store.save(&snap).unwrap(); // unchanged: not written again
/// assert_eq!((store.flash().erases, store.flash().writes), (1, 2));
/// // After a reset: the newest snapshot.
/// let got = Store::new(store.destroy(), 0).unwrap().load().unwrap().unwrap();
/// assert_eq!((got.sequence, got.record), (2, snap.record));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Store<S> {
    flash: S,
    base: u32,
    /// Pages of [`Store::PAGE_STRIDE`] bytes from `base`: at least 2.
    pages: u32,
    /// Where the next save goes.
    head: Head,
}

impl<S: NorFlash> Store<S> {
    /// The unit a record is padded to: the larger of the read and write units (0
    /// if one is not a multiple of the other).
    const UNIT: usize = {
        let (r, w) = (S::READ_SIZE, S::WRITE_SIZE);
        let unit = if r > w { r } else { w };
        if r == 0 || w == 0 || unit % r != 0 || unit % w != 0 {
            0
        } else {
            unit
        }
    };

    /// Bytes read and written for a whole snapshot: the frame padded with zeros to
    /// a whole number of read and write units (0 if the units are unsupported).
    const FULL_IO: usize = match FRAME_LEN.checked_next_multiple_of(Self::UNIT) {
        Some(len) if len <= FRAME_BUF => len,
        _ => 0,
    };

    /// Bytes read and written for a delta: the game fields and their CRC, padded
    /// the same way (0 if unsupported).
    const DELTA_IO: usize =
        match (ENCODED_LEN + 4 - DELTA_START).checked_next_multiple_of(Self::UNIT) {
            Some(len) if DELTA_START + len <= FRAME_BUF => len,
            _ => 0,
        };

    /// Bytes of a page of the store: a whole snapshot rounded up to whole erase
    /// units of the flash (0 if unsupported). The store uses every whole page from
    /// the base to the end of the flash.
    ///
    /// ```
    /// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
    /// use tictable::device::persist::Store;
    /// use tictable::device::sim::flash::MemFlash;
    /// // 1 KiB erase units (STM32F103): one per page. 128-byte units: three.
    /// assert_eq!(Store::<MemFlash<4096, 1024, 2>>::PAGE_STRIDE, 1024);
    /// assert_eq!(Store::<MemFlash<4096, 128, 8>>::PAGE_STRIDE, 384);
    /// # }
    /// ```
    pub const PAGE_STRIDE: usize = match Self::FULL_IO.checked_next_multiple_of(S::ERASE_SIZE) {
        Some(stride) if Self::FULL_IO != 0 && Self::DELTA_IO != 0 && stride % Self::UNIT == 0 => {
            stride
        }
        _ => 0,
    };

    /// Delta slots after a page's whole snapshot.
    const DELTAS: usize = match Self::PAGE_STRIDE {
        0 => 0,
        stride => (stride - Self::FULL_IO) / Self::DELTA_IO,
    };

    /// Saves a page takes between two erases when the calibration does not change:
    /// a whole snapshot, then as many deltas as fit (0 if unsupported).
    ///
    /// ```
    /// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
    /// use tictable::device::persist::Store;
    /// use tictable::device::sim::flash::MemFlash;
    /// assert_eq!(Store::<MemFlash<8192, 1024, 2>>::SAVES_PER_PAGE, 17);
    /// assert_eq!(Store::<MemFlash<1024, 512, 2>>::SAVES_PER_PAGE, 5);
    /// # }
    /// ```
    pub const SAVES_PER_PAGE: usize = match Self::PAGE_STRIDE {
        0 => 0,
        _ => 1 + Self::DELTAS,
    };

    /// A store over every whole page ([`Store::PAGE_STRIDE`] bytes) of `flash`
    /// from `base`, which must be a multiple of the flash's `ERASE_SIZE`: the
    /// number of pages is the flash's capacity past `base` (the firmware's flash
    /// exposes only the pages it reserves). Nothing is read or written yet.
    ///
    /// # Errors
    ///
    /// [`PersistError::Unsupported`] for read/write units the records cannot be
    /// padded to, [`PersistError::Misaligned`] for a `base` that is not a multiple
    /// of `ERASE_SIZE`, [`PersistError::TooSmall`] for fewer than two pages (see
    /// [`PersistError`] for an example).
    pub fn new(flash: S, base: u32) -> Result<Store<S>, PersistError<S::Error>> {
        if Self::PAGE_STRIDE == 0 {
            return Err(PersistError::Unsupported);
        }
        if base as usize % S::ERASE_SIZE != 0 {
            return Err(PersistError::Misaligned);
        }
        let end = flash.capacity().min(u32::MAX as usize);
        let pages = end.saturating_sub(base as usize) / Self::PAGE_STRIDE;
        if pages < 2 {
            return Err(PersistError::TooSmall);
        }
        Ok(Store {
            flash,
            base,
            pages: pages as u32,
            head: Head {
                known: false,
                page: 0,
                sequence: 0,
                next: 0,
                frame: [0; FRAME_BUF],
            },
        })
    }

    /// The flash (for its counters in the simulator).
    pub fn flash(&self) -> &S {
        &self.flash
    }

    /// The flash, to change under the store (a power cut the simulator asks
    /// for, a test's corruption). The store still assumes that it alone writes
    /// the flash: call [`Store::load`] after writing to it.
    pub fn flash_mut(&mut self) -> &mut S {
        &mut self.flash
    }

    /// Gives the flash back.
    ///
    /// ```
    /// # #[cfg(feature = "sim-core")] { // the example flash is the simulator's
    /// use tictable::device::persist::Store;
    /// use tictable::device::sim::flash::MemFlash;
    /// let store = Store::new(MemFlash::<1024, 512, 2>::new(), 0).unwrap();
    /// assert_eq!(store.destroy().writes, 0);
    /// # }
    /// ```
    pub fn destroy(self) -> S {
        self.flash
    }

    /// Pages the store uses.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// Finds the newest snapshot and makes it the head: the page whose whole
    /// snapshot has the highest sequence (and decodes), then the last delta in it
    /// that is sealed and decodes. Reads each page's first frame and the newest
    /// page's delta slots: bounded work. With nothing valid, a head whose next save
    /// starts page 0 (its zero frame never decodes). Works on the head in place (no
    /// copy of it): the head is known only once the scan has read everything.
    #[inline(never)]
    fn scan(&mut self) -> Result<(), PersistError<S::Error>> {
        let Store {
            flash,
            base,
            pages,
            head,
        } = self;
        let page_at = |page: u32| *base + page * Self::PAGE_STRIDE as u32;
        let mut read = |at: u32, buf: &mut [u8]| flash.read(at, buf).map_err(PersistError::Storage);
        head.known = false;
        (head.page, head.sequence, head.next) = (*pages - 1, 0, Self::DELTAS);
        head.frame = [0; FRAME_BUF];
        let mut found = false;
        let mut frame = [0; FRAME_BUF];
        for page in 0..*pages {
            read(page_at(page), &mut frame[..Self::FULL_IO])?;
            let sequence = u32_at(&frame, at::SEQUENCE);
            if (!found || sequence > head.sequence) && valid(&frame, 0) {
                found = true;
                (head.page, head.sequence, head.next) = (page, sequence, 0);
                head.frame = frame;
            }
        }
        if found {
            let mut at = page_at(head.page) + Self::FULL_IO as u32;
            for slot in 0..Self::DELTAS {
                let mut newer = head.frame;
                let record = &mut newer[DELTA_START..DELTA_START + Self::DELTA_IO];
                read(at, record)?;
                if record.iter().any(|&b| b != 0xFF) {
                    // Written, whole or torn: the next delta goes after it.
                    head.next = slot + 1;
                }
                let sequence = head.sequence.wrapping_add(slot as u32 + 1);
                put_u32(&mut newer, at::SEQUENCE, sequence);
                if valid(&newer, DELTA_START) {
                    head.frame = newer;
                }
                at += Self::DELTA_IO as u32;
            }
        }
        head.known = true;
        Ok(())
    }

    /// The newest valid snapshot, or `None` when the flash holds none (erased,
    /// torn or corrupted records are skipped). See [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails to read.
    pub fn load(&mut self) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        self.scan()?;
        Ok(Snapshot::decode_frame(&self.head.frame))
    }

    /// Saves `snapshot` (its sequence is set past the newest): as a delta in the
    /// newest page when the calibration and pose are those of the page's whole
    /// snapshot and a delta slot is free, else as a whole snapshot at the start
    /// of the next page (the oldest), erased first. A snapshot equal to the newest
    /// one saved (apart from the sequence) is not written again, which spares the
    /// flash: call it as often as you like. See [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails (or the power is cut): the
    /// newest snapshot saved before is still the one [`Store::load`] returns, and
    /// the next save reads the flash again.
    pub fn save(&mut self, snapshot: &Snapshot) -> Result<(), PersistError<S::Error>> {
        if !self.head.known {
            self.scan()?;
        }
        // Zeros past the encoding: the padding (and the unused moves and task items).
        let mut frame = [0; FRAME_BUF];
        snapshot.encode_into(&mut frame);
        let head = &mut self.head;
        let newest = u32_at(&head.frame, at::SEQUENCE);
        put_u32(&mut frame, at::SEQUENCE, newest);
        if frame[..ENCODED_LEN] == head.frame[..ENCODED_LEN] {
            return Ok(());
        }
        // Unknown again until the record is written.
        head.known = false;
        let stable = at::SEQUENCE + 4..DELTA_START;
        let page_at = self.base + head.page * Self::PAGE_STRIDE as u32;
        let (at, from, len) =
            if head.next < Self::DELTAS && frame[stable.clone()] == head.frame[stable] {
                let slot = head.next;
                head.next += 1;
                let sequence = head.sequence.wrapping_add(head.next as u32);
                put_u32(&mut frame, at::SEQUENCE, sequence);
                let at = page_at + (Self::FULL_IO + slot * Self::DELTA_IO) as u32;
                (at, DELTA_START, Self::DELTA_IO)
            } else {
                head.page = (head.page + 1) % self.pages;
                (head.sequence, head.next) = (newest.wrapping_add(1), 0);
                put_u32(&mut frame, at::SEQUENCE, head.sequence);
                let at = self.base + head.page * Self::PAGE_STRIDE as u32;
                self.flash
                    .erase(at, at + Self::PAGE_STRIDE as u32)
                    .map_err(PersistError::Storage)?;
                (at, 0, Self::FULL_IO)
            };
        seal(&mut frame, from);
        self.flash
            .write(at, &frame[from..from + len])
            .map_err(PersistError::Storage)?;
        head.frame = frame;
        head.known = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot with a one-item task.
    fn sample() -> Snapshot {
        let task = Task::new(&[(Colour::Black, Square::CENTRE)]).unwrap();
        Snapshot {
            sequence: 1,
            calibration: Calibration::default(),
            pose: Pose::new(Point::mm(160, 130), 0, 32_000).unwrap(),
            reset_cause: ResetCause::PowerOn,
            setup: GameSetup {
                device_first: true,
                first_square: None,
            },
            record: GameRecord::new(),
            mode: Mode::Task { task, done: 0 },
            active: true,
            stock: [FULL_STOCK; 2],
            suspect: [0; 2],
            pending: None,
        }
    }

    /// A task length past the nine items a frame holds is refused, even when every
    /// item and the done count are valid; nine is the most.
    #[test]
    fn a_task_longer_than_nine_items_is_refused() {
        let snapshot = sample();
        let mut bytes = snapshot.encode();
        assert_eq!(Snapshot::decode(&bytes), Some(snapshot));
        // Nine distinct squares, five black and four white: a full task.
        for k in 0..9 {
            bytes[at::TASK_ITEMS + 2 * k] = u8::from(k >= 5);
            bytes[at::TASK_ITEMS + 2 * k + 1] = k as u8;
        }
        bytes[at::TASK_LEN] = 9;
        assert!(Snapshot::decode(&bytes).is_some());
        bytes[at::TASK_LEN] = 10;
        assert_eq!(Snapshot::decode(&bytes), None);
    }

    /// The scan takes only records that decode: a newer whole snapshot or delta
    /// whose CRC is right but whose fields are not (another format version, a flag
    /// out of range) is skipped for the older valid one.
    #[cfg(feature = "sim-core")]
    #[test]
    fn sealed_records_that_do_not_decode_are_skipped() {
        use crate::device::sim::flash::MemFlash;
        type Flash = MemFlash<2048, 1024, 2>;
        let full = Store::<Flash>::FULL_IO;
        let mut store = Store::new(Flash::new(), 0).unwrap();
        store.save(&sample()).unwrap(); // page 0: sequence 1
        let mut frame = [0; FRAME_BUF];
        sample().encode_into(&mut frame);
        // Page 1: a whole snapshot of the next format version, sequence 9.
        frame[at::VERSION] = FORMAT_VERSION + 1;
        put_u32(&mut frame, at::SEQUENCE, 9);
        seal(&mut frame, 0);
        let flash = store.flash_mut();
        flash.erase(1024, 2048).unwrap();
        flash.write(1024, &frame[..full]).unwrap();
        // Page 0's first delta slot: device_first 2.
        frame[at::VERSION] = FORMAT_VERSION;
        frame[at::DEVICE_FIRST] = 2;
        seal(&mut frame, DELTA_START);
        let delta = &frame[DELTA_START..DELTA_START + Store::<Flash>::DELTA_IO];
        flash.write(full as u32, delta).unwrap();
        assert_eq!(store.load().unwrap(), Some(sample()));
    }
}
