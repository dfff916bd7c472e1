//! Checks firmware/src/storage.rs (the snapshot storage over two flash pages) on the
//! host, against a model of the HAL's flash: 20,000 reads and writes at random
//! offsets and lengths (in range and past the end) compared with a plain byte
//! array; the physical layout (window k at the start of page 62 + k, the rest of
//! both pages and all other flash untouched); and which pages a write erases (only
//! the pages whose bytes change). Run: scripts/storage-check.
#[path = "../../src/storage.rs"]
mod storage;

use embedded_storage::{ReadStorage, Storage};
use stm32f1xx_hal::flash::{Error, FlashWriter, ERASES};

const PAGE: usize = 1024;
const FIRST_PAGE: usize = 62 * PAGE;

fn main() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut mem = vec![0xFFu8; 64 * PAGE];
    let mut model = vec![0xFFu8; 1024];
    let (mut reads, mut writes) = (0, 0);
    for round in 0..20_000 {
        let mut s = storage::FlashStorage::new(FlashWriter { mem: &mut mem });
        assert_eq!(s.capacity(), 1024);
        let offset = below(1100);
        let len = below(if round % 3 == 0 { 1100 } else { 40 });
        let fits = offset + len <= 1024;
        if below(2) == 0 {
            let data: Vec<u8> = (0..len).map(|_| below(256) as u8).collect();
            let result = s.write(offset as u32, &data);
            if fits {
                result.unwrap();
                model[offset..offset + len].copy_from_slice(&data);
                writes += 1;
            } else {
                assert_eq!(result, Err(Error::LengthTooLong), "round {round}");
            }
        } else {
            let mut out = vec![0x5A; len];
            let result = s.read(offset as u32, &mut out);
            if fits {
                result.unwrap();
                assert_eq!(out[..], model[offset..offset + len], "round {round}");
                reads += 1;
            } else {
                assert_eq!(result, Err(Error::LengthTooLong), "round {round}");
            }
        }
        drop(s);
        for k in 0..2 {
            let page = FIRST_PAGE + k * PAGE;
            assert_eq!(
                mem[page..page + 512],
                model[k * 512..k * 512 + 512],
                "round {round}"
            );
            assert!(
                mem[page + 512..page + PAGE].iter().all(|&b| b == 0xFF),
                "round {round}"
            );
        }
        assert!(
            mem[..FIRST_PAGE].iter().all(|&b| b == 0xFF),
            "round {round}"
        );
    }
    // A write erases exactly the pages whose bytes change.
    let mut s = storage::FlashStorage::new(FlashWriter { mem: &mut mem });
    ERASES.lock().unwrap().clear();
    s.write(10, &[1, 2, 3]).unwrap();
    s.write(600, &[4, 5, 6, 7]).unwrap();
    s.write(600, &[4, 5, 6, 7]).unwrap(); // unchanged: nothing erased
    s.write(510, &[8, 9, 10, 11]).unwrap(); // across both windows
    s.write(1024, &[]).unwrap();
    assert_eq!(s.write(1025, &[]), Err(Error::LengthTooLong));
    assert_eq!(s.write(u32::MAX, &[1]), Err(Error::LengthTooLong));
    let (p0, p1) = (FIRST_PAGE as u32, (FIRST_PAGE + PAGE) as u32);
    assert_eq!(*ERASES.lock().unwrap(), [p0, p1, p0, p1]);
    println!("storage-check: PASS ({reads} reads and {writes} writes checked against the model)");
}
