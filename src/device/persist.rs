//! Persistence: the calibration and the game in progress, serialized with
//! `postcard` plus a CRC-32, in two alternating slots of any `embedded-storage`
//! [`Storage`] (flash through `RmwNorFlashStorage`, an EEPROM...).
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

/// The CRC used: CRC-32 (ISO-HDLC, as in zip and Ethernet).
static CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// The format version written in every snapshot.
pub const FORMAT_VERSION: u8 = 1;

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

    fn read_slot(&mut self, slot: usize) -> Result<Option<Snapshot>, PersistError<S::Error>> {
        let mut buf = [0u8; SLOT_SIZE];
        self.storage
            .read(self.offset(slot), &mut buf)
            .map_err(PersistError::Storage)?;
        let len = u16::from_le_bytes([buf[0], buf[1]]) as usize;
        if !(4..=SLOT_SIZE - 2).contains(&len) {
            return Ok(None);
        }
        let snap: Option<Snapshot> =
            postcard::from_bytes_crc32(&buf[2..2 + len], CRC.digest()).ok();
        Ok(snap.filter(|s| s.version == FORMAT_VERSION))
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
    pub fn save(&mut self, snapshot: &Snapshot) -> Result<(), PersistError<S::Error>> {
        if self.newest.is_none() {
            self.load()?;
        }
        let (slot, sequence) = match self.newest {
            Some((slot, seq)) => (1 - slot, seq.wrapping_add(1)),
            None => (0, 1),
        };
        let mut snap = *snapshot;
        snap.sequence = sequence;
        let mut buf = [0u8; SLOT_SIZE];
        let len = postcard::to_slice_crc32(&snap, &mut buf[2..], CRC.digest())
            .map_err(|_| PersistError::Encode)?
            .len();
        buf[..2].copy_from_slice(&(len as u16).to_le_bytes());
        self.storage
            .write(self.offset(slot), &buf[..2 + len])
            .map_err(PersistError::Storage)?;
        self.newest = Some((slot, sequence));
        Ok(())
    }
}
