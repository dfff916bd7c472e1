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
    pub const STOCK: usize = ACTIVE + 1;
    pub const SUSPECT: usize = STOCK + 2;
    /// Colour, slot, square.
    pub const PENDING: usize = SUSPECT + 2;
    pub const END: usize = PENDING + 3;
}

/// Bytes of an encoded [`Snapshot`] (without the slot's length and CRC).
pub const ENCODED_LEN: usize = at::END;

/// Bytes of a slot's frame: length, encoded snapshot, CRC.
const FRAME_LEN: usize = 2 + ENCODED_LEN + 4;

const _: () = assert!(FRAME_LEN <= SLOT_SIZE);

/// The `N` bytes at `offset` of an encoding.
fn field<const N: usize>(bytes: &[u8; ENCODED_LEN], offset: usize) -> [u8; N] {
    let mut v = [0; N];
    if let Some(src) = bytes.get(offset..offset + N) {
        v.copy_from_slice(src);
    }
    v
}

/// Writes `value` at `offset` of an encoding.
fn put(bytes: &mut [u8; ENCODED_LEN], offset: usize, value: &[u8]) {
    if let Some(dst) = bytes.get_mut(offset..offset + value.len()) {
        dst.copy_from_slice(value);
    }
}

fn u16_at(bytes: &[u8; ENCODED_LEN], offset: usize) -> u16 {
    u16::from_le_bytes(field(bytes, offset))
}

fn u32_at(bytes: &[u8; ENCODED_LEN], offset: usize) -> u32 {
    u32::from_le_bytes(field(bytes, offset))
}

/// A flag: 0 or 1, anything else refused.
fn flag_at(bytes: &[u8; ENCODED_LEN], offset: usize) -> Option<bool> {
    match bytes[offset] {
        0 => Some(false),
        1 => Some(true),
        _ => None,
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
        let mut b = [0u8; ENCODED_LEN];
        b[at::VERSION] = FORMAT_VERSION;
        put(&mut b, at::SEQUENCE, &self.sequence.to_le_bytes());
        let mut offset = at::CALIBRATION;
        for square in Square::ALL {
            let c = self.calibration.square(square);
            for r in Reference::ALL {
                let v = c.reference(r);
                for value in [v.clear, v.red, v.green, v.blue] {
                    put(&mut b, offset, &value.to_le_bytes());
                    offset += 2;
                }
            }
        }
        let margins = self.calibration.margins();
        put(&mut b, at::MARGINS, &margins.ratio_percent.to_le_bytes());
        put(
            &mut b,
            at::MARGINS + 4,
            &margins.spread_percent.to_le_bytes(),
        );
        let (cos, sin) = self.pose.rotation();
        let c = self.pose.centre();
        let pose = [c.x, c.y, cos, sin, self.pose.pitch_um() as i32];
        for (i, v) in pose.into_iter().enumerate() {
            put(&mut b, at::POSE + 4 * i, &v.to_le_bytes());
        }
        b[at::DEVICE_FIRST] = self.setup.device_first as u8;
        b[at::FIRST_SQUARE] = square_code(self.setup.first_square);
        for (i, m) in self.record.moves().enumerate() {
            b[at::MOVES_LEN] = i as u8 + 1;
            put(&mut b, at::MOVES + i, &[m.index()]);
        }
        if let Mode::Task { task, done } = &self.mode {
            b[at::TASK_LEN] = task.items().len() as u8;
            b[at::TASK_DONE] = *done;
            for (i, &(colour, square)) in task.items().iter().enumerate() {
                put(
                    &mut b,
                    at::TASK_ITEMS + 2 * i,
                    &[colour.index() as u8, square.index()],
                );
            }
        }
        b[at::ACTIVE] = self.active as u8;
        put(&mut b, at::STOCK, &self.stock);
        put(&mut b, at::SUSPECT, &self.suspect);
        let pending = match self.pending {
            Some((colour, slot, square)) => [colour.index() as u8, slot, square.index()],
            None => [NONE; 3],
        };
        put(&mut b, at::PENDING, &pending);
        b
    }

    /// A snapshot back from [`Snapshot::encode`]'s layout: `None` unless `bytes` is
    /// exactly [`ENCODED_LEN`] long, of this [`FORMAT_VERSION`], and every field is
    /// valid (flags 0 or 1, a pose [`Pose::from_parts`] accepts, squares 0..=8, the
    /// moves a legal game, the task one that [`Task::new`] accepts with at most its
    /// length done, slots that exist).
    pub fn decode(bytes: &[u8]) -> Option<Snapshot> {
        let b: &[u8; ENCODED_LEN] = bytes.try_into().ok()?;
        if b[at::VERSION] != FORMAT_VERSION {
            return None;
        }
        let mut squares = [SquareCalibration::default(); 9];
        let mut offset = at::CALIBRATION;
        for square in squares.iter_mut() {
            let mut refs = [Rgbc::default(); 3];
            for v in refs.iter_mut() {
                let c: [u16; 4] = core::array::from_fn(|k| u16_at(b, offset + 2 * k));
                *v = Rgbc::new(c[0], c[1], c[2], c[3]);
                offset += 8;
            }
            // Stored calibrations were checked when made; keep them as they are.
            *square = SquareCalibration::new(refs[0], refs[1], refs[2], 0).ok()?;
        }
        let margins = Margins {
            ratio_percent: u32_at(b, at::MARGINS),
            spread_percent: u32_at(b, at::MARGINS + 4),
        };
        let p: [i32; 5] = core::array::from_fn(|i| u32_at(b, at::POSE + 4 * i) as i32);
        let pose = Pose::from_parts(Point::new(p[0], p[1]), p[2], p[3], p[4] as u32).ok()?;
        let first_square = match b[at::FIRST_SQUARE] {
            NONE => None,
            s => Some(Square::new(s)?),
        };
        let mut record = GameRecord::new();
        let moves: [u8; 9] = field(b, at::MOVES);
        for &m in moves.get(..b[at::MOVES_LEN] as usize)? {
            record.push(Square::new(m)?).ok()?;
        }
        let (len, done) = (b[at::TASK_LEN], b[at::TASK_DONE]);
        let mode = if len == 0 {
            Mode::Game
        } else {
            let pairs: [u8; 18] = field(b, at::TASK_ITEMS);
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
        let [s0, s1, e0, e1]: [u8; 4] = field(b, at::STOCK);
        let [colour, slot, square]: [u8; 3] = field(b, at::PENDING);
        let pending = if colour == NONE {
            None
        } else if (slot as usize) < STORAGE_SLOTS {
            Some((colour_of_code(colour)?, slot, Square::new(square)?))
        } else {
            return None;
        };
        Some(Snapshot {
            sequence: u32_at(b, at::SEQUENCE),
            calibration: Calibration::new(squares, margins),
            pose,
            setup: GameSetup {
                device_first: flag_at(b, at::DEVICE_FIRST)?,
                first_square,
            },
            record,
            mode,
            active: flag_at(b, at::ACTIVE)?,
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
