//! The guided sensor calibration (first power-on, or Level held at power-on): the
//! operator lays out pieces in five steps and presses Start after each; the readings
//! go through `tictable::device::classify::Calibrator`.
//!
//! Lights: Error blinks for the whole procedure; one of DeviceTurn, HumanTurn, Win,
//! Draw, Loss shows the step (1 to 5):
//! 1. board empty; 2. black on squares 1-5; 3. black on 6-9; 4. white on 1-5;
//! 5. white on 6-9.
//!
//! If the readings are unusable, all five step lights flash and the procedure
//! starts again from step 1.

use crate::now_ms;
use embedded_hal::digital::{InputPin, OutputPin};
use embedded_hal::i2c::I2c;
use tictable::device::classify::{Calibration, Calibrator, Margins, Reference};
use tictable::device::panel::{Button, Light, Panel};
use tictable::device::sensors::SensorBank;
use tictable::Square;

/// Readings averaged per square and reference.
const SAMPLES: usize = 8;
/// Minimum separation of the references on every square (as the simulator uses).
const MIN_SEPARATION: u32 = 300;
/// The step lights, in step order.
const STEPS: [(Light, Reference, core::ops::Range<usize>); 5] = [
    (Light::DeviceTurn, Reference::Empty, 0..9),
    (Light::HumanTurn, Reference::Black, 0..5),
    (Light::Win, Reference::Black, 5..9),
    (Light::Draw, Reference::White, 0..5),
    (Light::Loss, Reference::White, 5..9),
];

/// Busy-waits `ms` milliseconds (only during calibration, before the super-loop).
fn wait_ms(ms: u32) {
    let start = now_ms();
    while tictable::device::elapsed_ms(now_ms(), start) < ms {}
}

/// Waits for `button` while blinking Error and showing `step`.
fn wait_press<I: InputPin, O: OutputPin>(panel: &mut Panel<I, O>, step: Light, button: Button) {
    loop {
        let now = now_ms();
        let _ = panel.show(&[step]);
        let _ = panel.set(Light::Error, (now / 250) & 1 == 0);
        if let Ok(presses) = panel.poll(now) {
            if presses.contains(button) {
                return;
            }
        }
    }
}

/// Runs the procedure until it gives a usable calibration.
pub fn calibrate<B: I2c, I: InputPin, O: OutputPin>(
    bank: &mut SensorBank<B>,
    panel: &mut Panel<I, O>,
) -> Calibration {
    loop {
        // The sensors must answer first: Error stays lit while they do not.
        while bank.init().is_err() {
            let _ = panel.show(&[Light::Error]);
            wait_ms(500);
        }
        let mut cal = Calibrator::new();
        for (light, reference, squares) in STEPS {
            wait_press(panel, light, Button::Start);
            for square in Square::ALL[squares].iter().copied() {
                for _ in 0..SAMPLES {
                    if let Ok(reading) = bank.read(square) {
                        cal.record(reference, square, reading);
                    }
                }
            }
        }
        if let Ok(calibration) = cal.finish(MIN_SEPARATION, Margins::DEFAULT) {
            let _ = panel.show(&[]);
            return calibration;
        }
        // Unusable: flash the step lights, then start again.
        let steps = STEPS.map(|(light, _, _)| light);
        for _ in 0..6 {
            let _ = panel.show(if (now_ms() / 250) & 1 == 0 {
                &steps
            } else {
                &[]
            });
            wait_ms(250);
        }
    }
}
