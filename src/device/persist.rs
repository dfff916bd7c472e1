//! Persistence: the calibration and the game in progress, in a fixed little-endian
//! layout plus a CRC-32, in two alternating slots of any `embedded-storage`
//! [`Storage`] (flash through `RmwNorFlashStorage`, an EEPROM...).
//!
//! [`Snapshot`] holds the controller's own types (a [`GameRecord`] that is a legal
//! game, a [`Task`] that passed its checks), so there is one representation of the
//! state: [`Snapshot::encode`] writes it field by field and [`Snapshot::decode`]
//! rebuilds it through the same constructors, refusing anything they refuse. The
//! layout is written by hand rather than through serde + postcard: on the STM32F103
//! firmware postcard's visitors cost about 3 KiB more flash (measured), a fifth of
//! the 16 KiB budget.
//!
//! Each save goes to the slot not holding the newest copy, so a reset during a
//! write leaves the previous copy intact; a torn or corrupted slot fails its CRC
//! and is ignored. [`Store::load`] returns the newest valid snapshot.

use super::classify::{Calibration, Margins, Reference, Rgbc, SquareCalibration};
use super::controller::{GameRecord, GameSetup, Mode, Task, FULL_STOCK};
use super::motion::{Point, Pose, STORAGE_SLOTS};
use super::Colour;
use crate::Square;
use embedded_storage::Storage;

/// Bytes reserved per slot (two slots are used).
pub const SLOT_SIZE: usize = 512;

/// CRC-32 (ISO-HDLC, as in zip and Ethernet), bit by bit: no table in flash.
///
/// ```
/// assert_eq!(tictable::device::persist::crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Bytes of an encoded [`Snapshot`] (without the slot's length and CRC).
pub const ENCODED_LEN: usize =
    1 + 4 + 9 * 3 * 4 * 2 + 8 + 5 * 4 + 2 + 1 + 9 + 2 + 18 + 1 + 2 + 2 + 3;

/// Bytes of a slot's frame: length, encoded snapshot, CRC.
const FRAME_LEN: usize = 2 + ENCODED_LEN + 4;

const _: () = assert!(FRAME_LEN <= SLOT_SIZE);

/// Writes bytes in order into a buffer of [`ENCODED_LEN`].
struct Writer {
    buf: [u8; ENCODED_LEN],
    at: usize,
}

impl Writer {
    // Not inlined: one copy of the code serves every field (flash is scarce).
    #[inline(never)]
    fn bytes(&mut self, bytes: &[u8]) {
        let end = self.at + bytes.len();
        if let Some(dst) = self.buf.get_mut(self.at..end) {
            dst.copy_from_slice(bytes);
        }
        self.at = end;
    }
    fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
    fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    fn flag(&mut self, v: bool) {
        self.u8(v as u8);
    }
}

/// Reads bytes in order; `None` past the end or on a bad flag.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    #[inline(never)]
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let bytes = self.buf.get(self.at..self.at + n)?;
        self.at += n;
        Some(bytes)
    }
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }
    /// An optional square: `Some(None)` for [`NONE`], `None` past 8.
    fn square(&mut self) -> Option<Option<Square>> {
        match self.u8()? {
            NONE => Some(None),
            s => Square::new(s).map(Some),
        }
    }
    fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// The format version written in every snapshot.
pub const FORMAT_VERSION: u8 = 4;

/// Written for an absent optional value (a square, a colour).
const NONE: u8 = 0xFF;

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

/// A colour as stored: 0 black, 1 white.
fn colour_of_code(code: u8) -> Option<Colour> {
    match code {
        0 => Some(Colour::Black),
        1 => Some(Colour::White),
        _ => None,
    }
}

/// An optional square as stored: 0..=8, or [`NONE`].
fn square_code(square: Option<Square>) -> u8 {
    square.map_or(NONE, Square::index)
}

/// A storage-slot mask back, refused when it names slots that do not exist.
fn slot_mask(mask: u8) -> Option<u8> {
    (mask & !FULL_STOCK == 0).then_some(mask)
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
        let mut w = Writer {
            buf: [0; ENCODED_LEN],
            at: 0,
        };
        w.u8(FORMAT_VERSION);
        w.u32(self.sequence);
        for square in Square::ALL {
            let c = self.calibration.square(square);
            for r in Reference::ALL {
                let v = c.reference(r);
                for value in [v.clear, v.red, v.green, v.blue] {
                    w.u16(value);
                }
            }
        }
        let margins = self.calibration.margins();
        w.u32(margins.ratio_percent);
        w.u32(margins.spread_percent);
        let (cos, sin) = self.pose.rotation();
        let c = self.pose.centre();
        for v in [c.x, c.y, cos, sin, self.pose.pitch_um() as i32] {
            w.u32(v as u32);
        }
        w.flag(self.setup.device_first);
        w.u8(square_code(self.setup.first_square));
        let mut moves = [0u8; 9];
        let mut n = 0;
        for (slot, m) in moves.iter_mut().zip(self.record.moves()) {
            *slot = m.index();
            n += 1;
        }
        w.u8(n);
        w.bytes(&moves);
        let (items, done): (&[(Colour, Square)], u8) = match &self.mode {
            Mode::Game => (&[], 0),
            Mode::Task { task, done } => (task.items(), *done),
        };
        let mut pairs = [0u8; 18];
        for (pair, &(colour, square)) in pairs.chunks_exact_mut(2).zip(items) {
            pair.copy_from_slice(&[colour.index() as u8, square.index()]);
        }
        w.bytes(&[items.len() as u8, done]);
        w.bytes(&pairs);
        w.flag(self.active);
        w.bytes(&self.stock);
        w.bytes(&self.suspect);
        let pending = match self.pending {
            Some((colour, slot, square)) => [colour.index() as u8, slot, square.index()],
            None => [NONE; 3],
        };
        w.bytes(&pending);
        w.buf
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
        let mut r = Reader { buf: bytes, at: 0 };
        if r.u8()? != FORMAT_VERSION {
            return None;
        }
        let sequence = r.u32()?;
        let mut squares = [SquareCalibration::default(); 9];
        for square in squares.iter_mut() {
            let mut refs = [Rgbc::default(); 3];
            for v in refs.iter_mut() {
                *v = Rgbc::new(r.u16()?, r.u16()?, r.u16()?, r.u16()?);
            }
            // Stored calibrations were checked when made; keep them as they are.
            *square = SquareCalibration::new(refs[0], refs[1], refs[2], 0).ok()?;
        }
        let margins = Margins {
            ratio_percent: r.u32()?,
            spread_percent: r.u32()?,
        };
        let mut p = [0i32; 5];
        for v in p.iter_mut() {
            *v = r.u32()? as i32;
        }
        let pose = Pose::from_parts(Point::new(p[0], p[1]), p[2], p[3], p[4] as u32).ok()?;
        let device_first = r.flag()?;
        let first_square = r.square()?;
        let n = r.u8()?;
        let moves: [u8; 9] = r.array()?;
        let mut record = GameRecord::new();
        for &m in moves.get(..n as usize)? {
            record.push(Square::new(m)?).ok()?;
        }
        let [len, done] = r.array()?;
        let pairs: [u8; 18] = r.array()?;
        let mode = if len == 0 {
            Mode::Game
        } else {
            let mut items = [(Colour::Black, Square::CENTRE); 9];
            for (item, pair) in items.iter_mut().zip(pairs.chunks_exact(2)) {
                *item = (colour_of_code(pair[0])?, Square::new(pair[1])?);
            }
            let task = Task::new(items.get(..len as usize)?).ok()?;
            if done > len {
                return None;
            }
            Mode::Task { task, done }
        };
        let active = r.flag()?;
        let [s0, s1, e0, e1] = r.array()?;
        let [colour, slot, square] = r.array()?;
        let pending = if colour == NONE {
            None
        } else if (slot as usize) < STORAGE_SLOTS {
            Some((colour_of_code(colour)?, slot, Square::new(square)?))
        } else {
            return None;
        };
        Some(Snapshot {
            sequence,
            calibration: Calibration::new(squares, margins),
            pose,
            setup: GameSetup {
                device_first,
                first_square,
            },
            record,
            mode,
            active,
            stock: [slot_mask(s0)?, slot_mask(s1)?],
            suspect: [slot_mask(e0)?, slot_mask(e1)?],
            pending,
        })
    }
}

/// Why a save or a load failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersistError<E> {
    /// The storage reported an error.
    Storage(E),
    /// The storage is smaller than two slots from the base offset.
    TooSmall,
    /// The snapshot did not fit in a slot.
    Encode,
}

/// Two snapshot slots in a storage, from `base`.
#[derive(Debug)]
pub struct Store<S> {
    storage: S,
    base: u32,
    /// The slot holding the newest snapshot, if known.
    newest: Option<(usize, u32)>,
}

impl<S: Storage> Store<S> {
    /// A store using `2 * SLOT_SIZE` bytes of `storage` from `base`.
    pub fn new(storage: S, base: u32) -> Result<Store<S>, PersistError<S::Error>> {
        if storage.capacity() < base as usize + 2 * SLOT_SIZE {
            return Err(PersistError::TooSmall);
        }
        Ok(Store {
            storage,
            base,
            newest: None,
        })
    }

    /// Gives the storage back.
    pub fn destroy(self) -> S {
        self.storage
    }

    fn offset(&self, slot: usize) -> u32 {
        self.base + (slot * SLOT_SIZE) as u32
    }

    /// The bytes of a slot holding `snapshot`: length (LE u16) = ENCODED_LEN + 4,
    /// the encoded snapshot, its CRC-32 (LE u32).
    fn frame(snapshot: &Snapshot) -> [u8; FRAME_LEN] {
        let mut frame = [0u8; FRAME_LEN];
        let body = snapshot.encode();
        let (len, rest) = frame.split_at_mut(2);
        let (dst, crc) = rest.split_at_mut(ENCODED_LEN);
        len.copy_from_slice(&((ENCODED_LEN + 4) as u16).to_le_bytes());
        dst.copy_from_slice(&body);
        crc.copy_from_slice(&crc32(&body).to_le_bytes());
        frame
    }

    fn read_frame(&mut self, slot: usize) -> Result<[u8; FRAME_LEN], PersistError<S::Error>> {
        let mut frame = [0u8; FRAME_LEN];
        self.storage
            .read(self.offset(slot), &mut frame)
            .map_err(PersistError::Storage)?;
        Ok(frame)
    }

    fn read_slot(&mut self, slot: usize) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        let frame = self.read_frame(slot)?;
        let (len, rest) = frame.split_at(2);
        let (body, crc) = rest.split_at(ENCODED_LEN);
        if len != ((ENCODED_LEN + 4) as u16).to_le_bytes() || crc != crc32(body).to_le_bytes() {
            return Ok(None);
        }
        Ok(Snapshot::decode(body))
    }

    /// The newest valid snapshot, or `None` when neither slot holds one.
    pub fn load(&mut self) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        let mut newest: Option<(usize, Snapshot)> = None;
        for slot in 0..2 {
            if let Some(snap) = self.read_slot(slot)? {
                if newest.is_none_or(|(_, n)| snap.sequence > n.sequence) {
                    newest = Some((slot, snap));
                }
            }
        }
        self.newest = newest.map(|(slot, s)| (slot, s.sequence));
        Ok(newest.map(|(_, s)| s))
    }

    /// Saves `snapshot` (its sequence is set past the newest) into the older slot.
    /// A snapshot equal to the newest one saved (apart from the sequence) is not
    /// written again, which spares the flash: call it as often as you like.
    pub fn save(&mut self, snapshot: &Snapshot) -> Result<(), PersistError<S::Error>> {
        if self.newest.is_none() {
            self.load()?;
        }
        let mut snap = *snapshot;
        let (slot, sequence) = match self.newest {
            Some((slot, sequence)) => {
                snap.sequence = sequence;
                if self.read_frame(slot)? == Self::frame(&snap) {
                    return Ok(());
                }
                (1 - slot, sequence.wrapping_add(1))
            }
            None => (0, 1),
        };
        snap.sequence = sequence;
        self.storage
            .write(self.offset(slot), &Self::frame(&snap))
            .map_err(PersistError::Storage)?;
        self.newest = Some((slot, sequence));
        Ok(())
    }
}
