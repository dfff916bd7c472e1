//! Persistence: the calibration and the game in progress, in a fixed little-endian
//! layout plus a CRC-32, appended to a log over the pages of a NOR flash (any
//! `embedded-storage` [`NorFlash`](embedded_storage::nor_flash::NorFlash): erased bytes read 0xFF, erases by whole erase
//! units, each word written once between erases).
//!
//! [`Snapshot`] (a [`model`](super::model) type) holds only checked values, so
//! there is one representation of the state: [`Snapshot::encode`] writes it field
//! by field and [`Snapshot::decode`] rebuilds the game record move by move through
//! [`GameRecord::push`](super::model::GameRecord::push), the task item by item through
//! `Task::push` and the pose through
//! [`Pose::from_parts`](super::motion::Pose::from_parts), refusing anything they refuse. The calibration is the one
//! exception: its references are restored as stored, not checked again (they were
//! checked when the calibration was made, and the CRC guards the bytes). The
//! layout is written by hand rather than through serde + postcard, whose visitors
//! cost the firmware several KiB more flash. Both directions work on a whole slot
//! frame (a fixed-size array), every field at a constant offset (the entries of the
//! calibration, the moves and the task at offsets computed from their index), so
//! the firmware reads and writes a field with one instruction and next to no
//! bounds checks. The encoding is `codec.rs`, the log `store.rs`.
//!
//! # Flash layout
//!
//! [`Store`] keeps an append-only log over every whole page of
//! [`Store::PAGE_STRIDE`] bytes from `base` (a multiple of the flash's
//! `ERASE_SIZE`) to the end of the flash: at least two pages; the firmware's flash
//! reserves 24 1 KiB pages of the STM32F103 (`firmware/src/storage.rs`). A page
//! is the whole snapshot's bytes rounded up to whole erase units, so erasing one
//! never touches another. A page holds, from its start:
//!
//! | bytes | contents |
//! |---|---|
//! | [`ENCODED_LEN`] | a whole snapshot ([`Snapshot::encode`]) |
//! | 4 | CRC-32 of the encoding, little-endian ([`crc32`]) |
//! | 0 or more | zeros, padding to whole write and read units of the flash |
//! | `d` × delta slot | deltas, each: the encoding's 40 bytes from the game setup on (setup, moves, task, flags, stock, pending; with the `games` feature 42: the game byte and `keep` too), their CRC-32, zero padding |
//! | rest of the page | erased (0xFF), never written |
//!
//! A delta stands for the page's whole snapshot with its game fields replaced
//! and the sequence of the page plus its slot number plus one: the calibration
//! the pose and the reset cause (the first 250 bytes of the encoding) change
//! only when the machine is calibrated or reset, the game fields with every move. On 1 KiB pages with
//! half-word writes a whole snapshot takes 294 B and a delta slot 44 B: 16 deltas
//! fit after it, 17 saves per erase ([`Store::SAVES_PER_PAGE`]).
//!
//! With the `games` feature a record holds 64 plies: 55 base plies sit before
//! the game fields, so a delta does not rewrite them, and the game fields hold a
//! window of nine plies and `keep`, the number of plies taken from the base (the
//! rest from the window). A whole snapshot keeps every ply it can in its base; a
//! delta keeps the longest prefix of its page's base plies that its game shares
//! (none for a new game) and holds the plies after it in the window, so a long
//! game (achi's slides) is saved in deltas until it goes nine plies past the base,
//! and then as a whole snapshot on the next page ([`Snapshot::encode`]). A whole
//! snapshot takes 352 B, a delta slot 46 B: 15 saves per erase.
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

mod codec;
mod store;

/// The snapshot type, defined in [`model`](super::model); re-exported here.
pub use super::model::Snapshot;

pub use codec::{crc32, ENCODED_LEN, FORMAT_VERSION};
pub use store::{PersistError, Store};

#[cfg(test)]
mod tests {
    use super::codec::*;
    #[cfg(feature = "sim-core")]
    use super::store::*;
    use super::Snapshot;
    use crate::classify::Calibration;
    use crate::model::{GameRecord, GameSetup, Mode, ResetCause, Task, FULL_STOCK};
    use crate::motion::{Point, Pose};
    use crate::Colour;
    #[cfg(feature = "sim-core")]
    use embedded_storage::nor_flash::NorFlash;
    use tictable::Square;

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
        use crate::sim::flash::MemFlash;
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
