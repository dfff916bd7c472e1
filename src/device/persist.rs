//! Persistence: the calibration and the game in progress, in a fixed little-endian
//! layout plus a CRC-32, in two alternating slots of a NOR flash (any
//! `embedded-storage` [`NorFlash`]: erased bytes read 0xFF, erases by whole erase
//! units, each word written once between erases).
//!
//! [`Snapshot`] holds the controller's own types (a [`GameRecord`] that is a legal
//! game, a [`Task`] that passed its checks), so there is one representation of the
//! state: [`Snapshot::encode`] writes it field by field and [`Snapshot::decode`]
//! rebuilds it through the same constructors, refusing anything they refuse. The
//! layout is written by hand rather than through serde + postcard: on the STM32F103
//! firmware postcard's visitors cost about 3 KiB more flash (measured), a fifth of
//! the 16 KiB budget. Both directions work on a whole slot frame (a fixed-size
//! array), every field at a constant offset, so the firmware reads and writes each
//! field with one instruction and no bounds check.
//!
//! # Flash layout
//!
//! [`Store`] uses two slot regions of [`Store::SLOT_STRIDE`] bytes each, back to
//! back from `base` (a multiple of the flash's `ERASE_SIZE`): slot 0 at `base`,
//! slot 1 at `base + SLOT_STRIDE`. `SLOT_STRIDE` is the slot's bytes rounded up to
//! whole erase units, so erasing one slot never touches the other (on the
//! STM32F103 firmware: 1 KiB pages, one page per slot, the last two pages of
//! flash). A slot holds, from its start:
//!
//! | bytes | contents |
//! |---|---|
//! | [`ENCODED_LEN`] | the encoded snapshot ([`Snapshot::encode`]) |
//! | 4 | CRC-32 of the encoding, little-endian ([`crc32`]) |
//! | 0 or more | zeros, padding the frame to whole write and read units of the flash |
//! | rest of the region | erased (0xFF), never written |
//!
//! Each save goes to the slot not holding the newest copy: its region is erased,
//! then the frame is written in one `write`. A power cut during the erase or the
//! write leaves the other slot intact; the torn slot fails its CRC and is ignored
//! (an erased slot fails both the version and the CRC). [`Store::load`] returns
//! the valid snapshot with the highest sequence number.

use super::classify::{Calibration, Margins, Rgbc, SquareCalibration};
use super::controller::{GameRecord, GameSetup, Mode, Task, FULL_STOCK};
use super::motion::{Point, Pose, STORAGE_SLOTS};
use super::Colour;
use crate::Square;
use embedded_storage::nor_flash::NorFlash;

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
    pub const DEVICE_FIRST: usize = POSE + 5 * 4;
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
pub const FORMAT_VERSION: u8 = 5;

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

/// Everything needed to carry on after a reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Increases with every save; the newest valid slot wins ([`Store::save`] sets it).
    pub sequence: u32,
    /// The sensor calibration.
    pub calibration: Calibration,
    /// The board pose (calibrated by jogging, or the configured one).
    pub pose: Pose,
    /// Side and first square for the next game.
    pub setup: GameSetup,
    /// The game's verified moves.
    pub record: GameRecord,
    /// A game, or a placement task with the placements done so far.
    pub mode: Mode,
    /// A game or task is running.
    pub active: bool,
    /// Storage slots believed full, per colour (bit `i` = slot `i`).
    pub stock: [u8; 2],
    /// Storage slots suspected empty, per colour.
    pub suspect: [u8; 2],
    /// A placement under way at the time of the save: colour, storage slot, square.
    pub pending: Option<(Colour, u8, Square)>,
}

impl Snapshot {
    /// The snapshot in the fixed layout: version, sequence (LE u32), calibration (9
    /// squares x empty/black/white x clear/red/green/blue, LE u16), margins (2 x LE
    /// u32), pose (centre x, centre y in µm, cos, sin in Q16, pitch in µm: 5 x LE
    /// i32), device_first (0/1), first square (0..=8 or 0xFF), number of moves, the
    /// moves (9 squares, unused ones 0), task length (0 in a game), placements done,
    /// the task's (colour, square) pairs (9, unused ones 0), active (0/1), stock (2),
    /// suspect (2), pending colour (0 black / 1 white / 0xFF none), slot, square.
    ///
    /// ```
    /// use tictable::device::controller::{GameRecord, GameSetup, Mode};
    /// use tictable::device::classify::Calibration;
    /// use tictable::device::motion::{Point, Pose};
    /// use tictable::device::persist::{Snapshot, ENCODED_LEN};
    /// use tictable::device::Colour;
    /// use tictable::Square;
    /// let mut record = GameRecord::new();
    /// record.push(Square::CENTRE).unwrap();
    /// let s = Snapshot {
    ///     sequence: 7, calibration: Calibration::default(),
    ///     pose: Pose::new(Point::mm(160, 130), -200, 32_000).unwrap(),
    ///     setup: GameSetup { device_first: true, first_square: Some(Square::CENTRE) },
    ///     record, mode: Mode::Game, active: true, stock: [0b11110, 0b11111], suspect: [0, 0],
    ///     pending: Some((Colour::Black, 1, Square::ALL[8])),
    /// };
    /// let bytes: [u8; ENCODED_LEN] = s.encode();
    /// assert_eq!(Snapshot::decode(&bytes), Some(s));
    /// assert_eq!(Snapshot::decode(&bytes[..ENCODED_LEN - 1]), None);
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8 + 20] = 2; // device_first is neither 0 nor 1
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8 + 20 + 3] = 9; // the first move on a square that does not exist
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
        b[at::DEVICE_FIRST] = self.setup.device_first.into();
        b[at::FIRST_SQUARE] = self.setup.first_square.map_or(NONE, Square::index);
        let mut len = 0;
        for (dst, m) in b[at::MOVES..at::TASK_LEN]
            .iter_mut()
            .zip(self.record.moves())
        {
            *dst = m.index();
            len += 1;
        }
        b[at::MOVES_LEN] = len;
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
            let mut items = [(Colour::Black, Square::CENTRE); 9];
            let pairs = b[at::TASK_ITEMS..at::ACTIVE].chunks_exact(2);
            for (item, pair) in items.iter_mut().zip(pairs) {
                *item = (colour_of_code(pair[0])?, Square::new(pair[1])?);
            }
            let task = Task::new(items.get(..len as usize)?).ok()?;
            if done > len {
                return None;
            }
            Mode::Task { task, done }
        };
        let [s0, s1, e0, e1] = masks.to_le_bytes();
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
            setup: GameSetup {
                device_first: b[at::DEVICE_FIRST] != 0,
                first_square,
            },
            record,
            mode,
            active: b[at::ACTIVE] != 0,
            stock: [s0, s1],
            suspect: [e0, e1],
            pending,
        })
    }
}

/// Why a save or a load failed.
///
/// ```
/// use tictable::device::persist::{PersistError, Store};
/// use tictable::device::sim::flash::MemFlash;
///
/// // 512-byte erase units, 2-byte writes: a slot takes one unit, so two slots need
/// // 1 KiB from a base that is a multiple of 512.
/// type Flash = MemFlash<2048, 512, 2>;
/// assert!(Store::new(Flash::new(), 1024).is_ok());
/// assert!(matches!(Store::new(Flash::new(), 1536), Err(PersistError::TooSmall)));
/// assert!(matches!(Store::new(Flash::new(), 100), Err(PersistError::Misaligned)));
/// // Writes of 128 bytes at once: the frame cannot be padded to that.
/// assert!(matches!(
///     Store::new(MemFlash::<2048, 512, 128>::new(), 0),
///     Err(PersistError::Unsupported)
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersistError<E> {
    /// The flash reported an error (a power cut, a failed erase or write...).
    Storage(E),
    /// The flash is smaller than two slot regions ([`Store::SLOT_STRIDE`] each)
    /// from the base offset.
    TooSmall,
    /// The base offset is not a multiple of the flash's `ERASE_SIZE`, so erasing
    /// a slot could touch something else.
    Misaligned,
    /// The flash's read or write unit is not one the store can pad a slot to: one
    /// of the two units must be a multiple of the other, the erase unit a multiple
    /// of both, and the frame padded to them must fit the store's buffer (true of
    /// units of up to 32 bytes that are powers of two, as on common NOR flash).
    Unsupported,
}

/// Writes `sequence` into an encoded frame and seals it with the CRC of the encoding.
fn stamp(frame: &mut Frame, sequence: u32) {
    put_u32(frame, at::SEQUENCE, sequence);
    let crc = crc32(&frame[..ENCODED_LEN]);
    put_u32(frame, ENCODED_LEN, crc);
}

/// Two snapshot slots in a NOR flash, from `base` (see the module docs for the
/// layout).
///
/// ```
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
/// let mut store = Store::new(MemFlash::<1024, 512, 2>::new(), 0).unwrap();
/// assert_eq!(store.load().unwrap(), None); // erased flash: nothing saved yet
/// store.save(&snap).unwrap(); // slot 0, sequence 1
/// snap.record.push(Square::CENTRE).unwrap();
/// store.save(&snap).unwrap(); // slot 1, sequence 2
/// store.save(&snap).unwrap(); // unchanged: not written again
/// let flash = store.destroy();
/// assert_eq!((flash.erases, flash.writes), (2, 2));
/// // After a reset: the newest snapshot.
/// let got = Store::new(flash, 0).unwrap().load().unwrap().unwrap();
/// assert_eq!((got.sequence, got.record), (2, snap.record));
/// ```
#[derive(Debug)]
pub struct Store<S> {
    flash: S,
    base: u32,
    /// The slot holding the newest snapshot and its sequence, if known.
    newest: Option<(usize, u32)>,
}

impl<S: NorFlash> Store<S> {
    /// The unit a slot's frame is padded to: the larger of the read and write
    /// units (0 if one is not a multiple of the other).
    const UNIT: usize = {
        let (r, w) = (S::READ_SIZE, S::WRITE_SIZE);
        let unit = if r > w { r } else { w };
        if r == 0 || w == 0 || unit % r != 0 || unit % w != 0 {
            0
        } else {
            unit
        }
    };

    /// Bytes read and written per slot: the frame padded with zeros to a whole
    /// number of read and write units (0 if the units are unsupported).
    const IO_LEN: usize = match FRAME_LEN.checked_next_multiple_of(Self::UNIT) {
        Some(len) if len <= FRAME_BUF => len,
        _ => 0,
    };

    /// Bytes from the start of slot 0 to the start of slot 1: a slot's bytes
    /// rounded up to whole erase units of the flash (0 if unsupported). Two slots
    /// take `2 * SLOT_STRIDE` bytes from the base.
    ///
    /// ```
    /// use tictable::device::persist::Store;
    /// use tictable::device::sim::flash::MemFlash;
    /// // 1 KiB pages (STM32F103): one page per slot. 128-byte pages: three per slot.
    /// assert_eq!(Store::<MemFlash<4096, 1024, 2>>::SLOT_STRIDE, 1024);
    /// assert_eq!(Store::<MemFlash<4096, 128, 8>>::SLOT_STRIDE, 384);
    /// ```
    pub const SLOT_STRIDE: usize = match Self::IO_LEN.checked_next_multiple_of(S::ERASE_SIZE) {
        Some(stride) if Self::IO_LEN != 0 && stride % Self::UNIT == 0 => stride,
        _ => 0,
    };

    /// A store using `2 * SLOT_STRIDE` bytes of `flash` from `base`, which must be
    /// a multiple of the flash's `ERASE_SIZE`. Nothing is read or written yet.
    ///
    /// # Errors
    ///
    /// [`PersistError::Unsupported`] for read/write units the slots cannot be
    /// padded to, [`PersistError::Misaligned`] for a `base` that is not a multiple
    /// of `ERASE_SIZE`, [`PersistError::TooSmall`] when the two slots do not fit
    /// (see [`PersistError`] for an example).
    pub fn new(flash: S, base: u32) -> Result<Store<S>, PersistError<S::Error>> {
        if Self::SLOT_STRIDE == 0 {
            return Err(PersistError::Unsupported);
        }
        if base as usize % S::ERASE_SIZE != 0 {
            return Err(PersistError::Misaligned);
        }
        match (base as usize).checked_add(2 * Self::SLOT_STRIDE) {
            Some(end) if end <= flash.capacity() && end <= u32::MAX as usize => {}
            _ => return Err(PersistError::TooSmall),
        }
        Ok(Store {
            flash,
            base,
            newest: None,
        })
    }

    /// Gives the flash back.
    ///
    /// ```
    /// use tictable::device::persist::Store;
    /// use tictable::device::sim::flash::MemFlash;
    /// let store = Store::new(MemFlash::<1024, 512, 2>::new(), 0).unwrap();
    /// assert_eq!(store.destroy().writes, 0);
    /// ```
    pub fn destroy(self) -> S {
        self.flash
    }

    /// The storage under the store, in place (the simulator cuts the power
    /// inside a save this way and reads the erase counters). Writing to it behind
    /// the store's back leaves the store's idea of the newest slot stale.
    pub fn storage_mut(&mut self) -> &mut S {
        &mut self.flash
    }

    /// Where `slot` starts in the flash.
    fn offset(&self, slot: usize) -> u32 {
        self.base + (slot * Self::SLOT_STRIDE) as u32
    }

    /// The frame stored in `slot` (and its padding).
    #[inline(never)]
    fn read(&mut self, slot: usize, frame: &mut Frame) -> Result<(), PersistError<S::Error>> {
        let at = self.offset(slot);
        self.flash
            .read(at, &mut frame[..Self::IO_LEN])
            .map_err(PersistError::Storage)
    }

    /// The snapshot in `slot`, if its CRC matches and it decodes.
    #[inline(never)]
    fn read_slot(&mut self, slot: usize) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        let mut frame = [0; FRAME_BUF];
        self.read(slot, &mut frame)?;
        if u32_at(&frame, ENCODED_LEN) != crc32(&frame[..ENCODED_LEN]) {
            return Ok(None);
        }
        Ok(Snapshot::decode_frame(&frame))
    }

    /// The newest valid snapshot, or `None` when neither slot holds one (erased,
    /// torn or corrupted slots are skipped). See [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails to read.
    pub fn load(&mut self) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        // The newest slot is found first and decoded again at the end, which keeps
        // a single snapshot on the stack (boot time only).
        let mut found: Option<(usize, u32)> = None;
        for slot in 0..2 {
            if let Some(snap) = self.read_slot(slot)? {
                if found.is_none_or(|(_, sequence)| snap.sequence > sequence) {
                    found = Some((slot, snap.sequence));
                }
            }
        }
        self.newest = found;
        match found {
            Some((slot, _)) => self.read_slot(slot),
            None => Ok(None),
        }
    }

    /// Saves `snapshot` (its sequence is set past the newest) into the slot not
    /// holding the newest one: erases that slot's region, then writes the frame.
    /// A snapshot equal to the newest one saved (apart from the sequence) is not
    /// written again, which spares the flash: call it as often as you like. See
    /// [`Store`] for an example.
    ///
    /// # Errors
    ///
    /// [`PersistError::Storage`] when the flash fails (or the power is cut): the
    /// newest snapshot saved before is still the one [`Store::load`] returns.
    pub fn save(&mut self, snapshot: &Snapshot) -> Result<(), PersistError<S::Error>> {
        if self.newest.is_none() {
            self.load()?;
        }
        // Zeros past the CRC: the padding (and the unused moves and task items).
        let mut frame = [0; FRAME_BUF];
        snapshot.encode_into(&mut frame);
        let (slot, sequence) = match self.newest {
            Some((slot, sequence)) => {
                stamp(&mut frame, sequence);
                let mut stored = [0; FRAME_BUF];
                self.read(slot, &mut stored)?;
                if stored.iter().zip(&frame).all(|(a, b)| a == b) {
                    return Ok(());
                }
                (1 - slot, sequence.wrapping_add(1))
            }
            None => (0, 1),
        };
        stamp(&mut frame, sequence);
        let at = self.offset(slot);
        self.flash
            .erase(at, at + Self::SLOT_STRIDE as u32)
            .map_err(PersistError::Storage)?;
        self.flash
            .write(at, &frame[..Self::IO_LEN])
            .map_err(PersistError::Storage)?;
        self.newest = Some((slot, sequence));
        Ok(())
    }
}
