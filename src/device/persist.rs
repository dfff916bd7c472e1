//! Persistence: the calibration and the game in progress, in a fixed little-endian
//! layout plus a CRC-32, in two alternating slots of any `embedded-storage`
//! [`Storage`] (flash through `RmwNorFlashStorage`, an EEPROM...).
//!
//! The layout is written and read field by field ([`Snapshot::encode`],
//! [`Snapshot::decode`]) rather than through serde + postcard: on the STM32F103
//! firmware that saves about 8 KiB of flash (the serde visitors of the nested
//! arrays and the CRC table). `Snapshot` still derives serde's traits for hosts.
//!
//! Each save goes to the slot not holding the newest copy, so a reset during a
//! write leaves the previous copy intact; a torn or corrupted slot fails its CRC
//! and is ignored. [`Store::load`] returns the newest valid snapshot.

use super::classify::{Calibration, Margins, Rgbc, SquareCalibration};
use super::Colour;
use embedded_storage::Storage;
use serde::{Deserialize, Serialize};

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
    1 + 4 + 9 * 3 * 4 * 2 + 8 + 1 + 2 + 9 + 1 + (1 + 18 + 2) + 1 + 2 + 2 + 4;

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
    fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// The format version written in every snapshot.
pub const FORMAT_VERSION: u8 = 2;

/// Everything needed to carry on after a reset, in plain serializable fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Format version ([`FORMAT_VERSION`]).
    pub version: u8,
    /// Increases with every save; the newest valid slot wins.
    pub sequence: u32,
    /// Per square: empty, black, white references, each clear/red/green/blue.
    pub calibration: [[[u16; 4]; 3]; 9],
    /// Classification margins (ratio, spread), percent.
    pub margins: (u32, u32),
    /// The device moves first.
    pub device_first: bool,
    /// The device's first square, 0..=8.
    pub first_square: Option<u8>,
    /// The game's moves, squares 0..=8 in order (`moves_len` of them).
    pub moves: [u8; 9],
    /// Number of moves.
    pub moves_len: u8,
    /// A placement task in progress.
    pub task: Option<SavedTask>,
    /// A game or task is running.
    pub active: bool,
    /// Storage slots believed full, per colour.
    pub stock: [u8; 2],
    /// Storage slots suspected empty, per colour.
    pub suspect: [u8; 2],
    /// A placement under way at the time of the save: (colour, slot, square).
    pub pending: Option<(u8, u8, u8)>,
}

/// A placement task as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedTask {
    /// (colour: 0 black / 1 white, square 0..=8) pairs, `len` of them.
    pub items: [(u8, u8); 9],
    /// Number of placements.
    pub len: u8,
    /// Placements done.
    pub done: u8,
}

impl Snapshot {
    /// The snapshot in the fixed layout: version, sequence (LE u32), calibration (9
    /// squares x 3 references x clear/red/green/blue, LE u16), margins (2 x LE u32),
    /// device_first, first_square (flag + square), moves (9), moves_len, task (flag,
    /// 9 x (colour, square), len, done), active, stock (2), suspect (2), pending
    /// (flag, colour, slot, square). Absent options are written as zeros.
    ///
    /// ```
    /// use tictable::device::persist::{Snapshot, ENCODED_LEN};
    /// # let s = Snapshot { version: 1, sequence: 7, calibration: [[[9; 4]; 3]; 9], margins: (30, 40),
    /// #     device_first: true, first_square: Some(4), moves: [4, 0, 8, 0, 0, 0, 0, 0, 0], moves_len: 3,
    /// #     task: None, active: true, stock: [0b11100, 0b11110], suspect: [0, 0], pending: Some((0, 2, 8)) };
    /// let bytes: [u8; ENCODED_LEN] = s.encode();
    /// assert_eq!(Snapshot::decode(&bytes), Some(s));
    /// assert_eq!(Snapshot::decode(&bytes[..ENCODED_LEN - 1]), None);
    /// let mut bad = bytes;
    /// bad[1 + 4 + 216 + 8] = 2; // device_first is neither 0 nor 1
    /// assert_eq!(Snapshot::decode(&bad), None);
    /// ```
    pub fn encode(&self) -> [u8; ENCODED_LEN] {
        let mut w = Writer {
            buf: [0; ENCODED_LEN],
            at: 0,
        };
        w.u8(self.version);
        w.u32(self.sequence);
        for v in self.calibration.iter().flatten().flatten() {
            w.u16(*v);
        }
        w.u32(self.margins.0);
        w.u32(self.margins.1);
        w.flag(self.device_first);
        w.flag(self.first_square.is_some());
        w.u8(self.first_square.unwrap_or(0));
        w.bytes(&self.moves);
        w.u8(self.moves_len);
        let task = self.task.unwrap_or(SavedTask {
            items: [(0, 0); 9],
            len: 0,
            done: 0,
        });
        w.flag(self.task.is_some());
        for (colour, square) in task.items {
            w.bytes(&[colour, square]);
        }
        w.bytes(&[task.len, task.done]);
        w.flag(self.active);
        w.bytes(&self.stock);
        w.bytes(&self.suspect);
        let (colour, slot, square) = self.pending.unwrap_or((0, 0, 0));
        w.flag(self.pending.is_some());
        w.bytes(&[colour, slot, square]);
        w.buf
    }

    /// A snapshot back from [`Snapshot::encode`]'s layout: `None` unless `bytes` is
    /// exactly [`ENCODED_LEN`] long with valid flags. (The controller checks the
    /// game itself on [`resume`](super::controller::Controller::resume).)
    pub fn decode(bytes: &[u8]) -> Option<Snapshot> {
        if bytes.len() != ENCODED_LEN {
            return None;
        }
        let mut r = Reader { buf: bytes, at: 0 };
        let version = r.u8()?;
        let sequence = r.u32()?;
        let mut calibration = [[[0u16; 4]; 3]; 9];
        for v in calibration.iter_mut().flatten().flatten() {
            *v = r.u16()?;
        }
        let margins = (r.u32()?, r.u32()?);
        let device_first = r.flag()?;
        let first_square = match (r.flag()?, r.u8()?) {
            (true, s) => Some(s),
            (false, _) => None,
        };
        let moves = r.array()?;
        let moves_len = r.u8()?;
        let has_task = r.flag()?;
        let mut items = [(0u8, 0u8); 9];
        for item in items.iter_mut() {
            *item = (r.u8()?, r.u8()?);
        }
        let (len, done) = (r.u8()?, r.u8()?);
        let task = has_task.then_some(SavedTask { items, len, done });
        let active = r.flag()?;
        let stock = r.array()?;
        let suspect = r.array()?;
        let has_pending = r.flag()?;
        let pending = (r.u8()?, r.u8()?, r.u8()?);
        Some(Snapshot {
            version,
            sequence,
            calibration,
            margins,
            device_first,
            first_square,
            moves,
            moves_len,
            task,
            active,
            stock,
            suspect,
            pending: has_pending.then_some(pending),
        })
    }

    /// The calibration in the snapshot.
    pub fn calibration(&self) -> Calibration {
        let squares = self.calibration.map(|refs| {
            let r = refs.map(|v| Rgbc::new(v[0], v[1], v[2], v[3]));
            // Stored calibrations were checked when made; keep them as they are.
            SquareCalibration::new(r[0], r[1], r[2], 0).unwrap_or_default()
        });
        Calibration::new(
            squares,
            Margins {
                ratio_percent: self.margins.0,
                spread_percent: self.margins.1,
            },
        )
    }

    /// The calibration fields of a snapshot.
    pub fn calibration_fields(c: &Calibration) -> ([[[u16; 4]; 3]; 9], (u32, u32)) {
        let refs = crate::Square::ALL.map(|s| {
            super::classify::Reference::ALL.map(|r| {
                let v = c.square(s).reference(r);
                [v.clear, v.red, v.green, v.blue]
            })
        });
        let m = c.margins();
        (refs, (m.ratio_percent, m.spread_percent))
    }
}

/// A colour as stored.
pub const fn colour_code(c: Colour) -> u8 {
    c.index() as u8
}

/// A stored colour code back.
pub const fn colour_of_code(code: u8) -> Option<Colour> {
    match code {
        0 => Some(Colour::Black),
        1 => Some(Colour::White),
        _ => None,
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
        Ok(Snapshot::decode(body).filter(|s| s.version == FORMAT_VERSION))
    }

    /// The newest valid snapshot, or `None` when neither slot holds one.
    pub fn load(&mut self) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        let a = self.read_slot(0)?;
        let b = self.read_slot(1)?;
        let newest = match (a, b) {
            (Some(a), Some(b)) if b.sequence > a.sequence => Some((1, b)),
            (Some(a), _) => Some((0, a)),
            (None, Some(b)) => Some((1, b)),
            (None, None) => None,
        };
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
