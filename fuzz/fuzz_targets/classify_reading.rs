//! The device's colour classifier on arbitrary calibrations, margins and readings: it
//! never panics, and a reading it trusts is nearer to the reference it names than to
//! either other reference.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictable_machine::classify::{Margins, Reference, Rgbc, Sensed, SquareCalibration};

fn rgbc(v: [u16; 4]) -> Rgbc {
    Rgbc::new(v[0], v[1], v[2], v[3])
}

fuzz_target!(|input: ([[u16; 4]; 4], u32, u32, u16)| {
    let (readings, ratio_percent, spread_percent, min_separation) = input;
    let [empty, black, white, reading] = readings.map(rgbc);
    let margins = Margins {
        ratio_percent,
        spread_percent,
    };
    let Ok(calibration) = SquareCalibration::new(empty, black, white, u32::from(min_separation))
    else {
        return;
    };
    let sensed = calibration.classify(reading, margins);
    let named = Reference::ALL.iter().find(|r| r.sensed() == sensed);
    if let Some(named) = named {
        let own = calibration.reference(*named).distance(reading);
        for other in Reference::ALL.iter().filter(|r| *r != named) {
            assert!(
                own <= calibration.reference(*other).distance(reading),
                "{sensed:?}"
            );
        }
    } else {
        assert_eq!(sensed, Sensed::Unknown);
    }
});
