//! The people's side: debounced buttons, the lamp and the LEDs.
//!
//! Buttons are active low (pull-ups, switch to ground). A button counts as pressed
//! only after its input has been stable for the debounce time (at least 50 ms), and
//! each press is reported once, on the debounced falling edge. A button already down
//! at the first sample (held through a reset) is held, not pressed: it reports no
//! press until it has been released, so a reset never starts what the person did
//! not ask for again (holding Start through a reset still abandons, see
//! [`Panel::is_held`]).

use super::hw::{pin_error, HwError};
use super::waited_ms;
use embedded_hal::digital::{InputPin, OutputPin};

/// The buttons, in the order of the pin array given to [`Panel::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    /// "My move is done".
    Done,
    /// Toggles who moves first (device or human).
    Side,
    /// Cycles the device's first square (none = table choice, then 1..9).
    FirstSquare,
    /// Starts a game (and, after a fault, retries).
    Start,
    /// Cycles the device's playing level (see [`crate::controller::MoveChooser`]).
    Level,
}

impl Button {
    /// All buttons, in pin order.
    pub const ALL: [Button; BUTTONS] = [
        Button::Done,
        Button::Side,
        Button::FirstSquare,
        Button::Start,
        Button::Level,
    ];

    /// The index in the pin array.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Number of buttons.
pub const BUTTONS: usize = 5;

/// The lights, in the order of the pin array given to [`Panel::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Light {
    /// Lit when the device's move is done.
    Lamp,
    /// The device is playing (thinking, moving, checking).
    DeviceTurn,
    /// Waiting for the human's move and button.
    HumanTurn,
    /// The device won.
    Win,
    /// Draw.
    Draw,
    /// The device lost.
    Loss,
    /// Something needs fixing on the board or in the machine.
    Error,
}

impl Light {
    /// All lights, in pin order.
    pub const ALL: [Light; 7] = [
        Light::Lamp,
        Light::DeviceTurn,
        Light::HumanTurn,
        Light::Win,
        Light::Draw,
        Light::Loss,
        Light::Error,
    ];

    /// The index in the pin array.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The light's bit in a mask for [`Panel::show_mask`]: `1 << index`.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The shortest debounce time accepted, ms.
pub const MIN_DEBOUNCE_MS: u32 = 50;

/// A debouncer for one input: reports a level once it has been stable long enough.
/// The first sample is taken as the level it starts from (no change reported).
///
/// ```
/// use tictable_machine::panel::Debouncer;
/// let mut d = Debouncer::new(50);
/// assert_eq!(d.update(false, 0), None);  // released at the first sample
/// assert_eq!(d.update(true, 0), None);   // bounce starts
/// assert_eq!(d.update(false, 10), None); // bounced back
/// assert_eq!(d.update(true, 20), None);
/// assert_eq!(d.update(true, 70), None);  // 50 ticks: maybe 49.x ms, not yet
/// assert_eq!(d.update(true, 71), Some(true)); // at least 50 ms stable
/// assert_eq!(d.update(true, 200), None); // reported once
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Debouncer {
    debounce_ms: u32,
    stable: bool,
    candidate: bool,
    since: u32,
    /// A sample has been taken (the first one sets the level).
    sampled: bool,
}

impl Debouncer {
    /// A debouncer (the time is raised to at least [`MIN_DEBOUNCE_MS`]), released.
    pub const fn new(debounce_ms: u32) -> Debouncer {
        Debouncer {
            debounce_ms: if debounce_ms < MIN_DEBOUNCE_MS {
                MIN_DEBOUNCE_MS
            } else {
                debounce_ms
            },
            stable: false,
            candidate: false,
            since: 0,
            sampled: false,
        }
    }

    /// Feeds the raw level at `now_ms`; returns the new debounced level when it changes.
    pub fn update(&mut self, level: bool, now_ms: u32) -> Option<bool> {
        if !self.sampled {
            // The level it starts from: a button held through a reset is held,
            // not a new press.
            self.sampled = true;
            self.stable = level;
        }
        if level != self.candidate {
            self.candidate = level;
            self.since = now_ms;
        }
        if self.candidate != self.stable && waited_ms(now_ms, self.since, self.debounce_ms) {
            self.stable = self.candidate;
            return Some(self.stable);
        }
        None
    }

    /// The debounced level.
    pub const fn level(&self) -> bool {
        self.stable
    }
}

/// A set of button presses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presses(u8);

impl Presses {
    /// Whether `button` was pressed.
    pub const fn contains(self, button: Button) -> bool {
        self.0 & (1 << button as u8) != 0
    }

    /// Whether nothing was pressed.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These presses but `button`'s.
    pub const fn without(self, button: Button) -> Presses {
        Presses(self.0 & !(1 << button as u8))
    }
}

/// Five buttons and seven lights.
#[derive(Debug)]
pub struct Panel<I, O> {
    buttons: [I; BUTTONS],
    debouncers: [Debouncer; BUTTONS],
    lights: [O; 7],
    lit: [Option<bool>; 7],
}

impl<I: InputPin, O: OutputPin> Panel<I, O> {
    /// A panel: button pins in [`Button::ALL`] order, light pins in [`Light::ALL`] order.
    pub fn new(buttons: [I; BUTTONS], lights: [O; 7], debounce_ms: u32) -> Panel<I, O> {
        Panel {
            buttons,
            debouncers: [Debouncer::new(debounce_ms); BUTTONS],
            lights,
            lit: [None; 7],
        }
    }

    /// Samples the buttons; the debounced presses that happened now.
    pub fn poll(&mut self, now_ms: u32) -> Result<Presses, HwError> {
        let mut presses = 0;
        for (i, (pin, d)) in self
            .buttons
            .iter_mut()
            .zip(&mut self.debouncers)
            .enumerate()
        {
            let pressed = pin.is_low().map_err(pin_error)?;
            if d.update(pressed, now_ms) == Some(true) {
                presses |= 1 << i;
            }
        }
        Ok(Presses(presses))
    }

    /// Whether `button` is held down now (its debounced level), for long presses.
    pub fn is_held(&self, button: Button) -> bool {
        self.debouncers[button.index()].level()
    }

    /// Switches `light` on or off (writes the pin only on a change).
    pub fn set(&mut self, light: Light, on: bool) -> Result<(), HwError> {
        let i = light.index();
        write(&mut self.lights[i], &mut self.lit[i], on)
    }

    /// Sets all lights at once from a list of those that should be on.
    pub fn show(&mut self, on: &[Light]) -> Result<(), HwError> {
        self.show_mask(on.iter().fold(0, |m, l| m | l.bit()))
    }

    /// Sets all lights at once from a mask of those that should be on (bit
    /// [`Light::index`] for each, see [`Light::bit`]).
    ///
    /// ```
    /// use tictable_machine::panel::Light;
    /// assert_eq!(Light::Lamp.bit() | Light::Error.bit(), 0b100_0001);
    /// ```
    pub fn show_mask(&mut self, on: u8) -> Result<(), HwError> {
        for (i, (pin, lit)) in self.lights.iter_mut().zip(&mut self.lit).enumerate() {
            write(pin, lit, on & (1 << i) != 0)?;
        }
        Ok(())
    }

    /// Whether `light` is on (as last written).
    pub fn is_lit(&self, light: Light) -> bool {
        self.lit[light.index()] == Some(true)
    }
}

/// Drives one light's `pin` to `on` unless `lit` says it is there already.
fn write<O: OutputPin>(pin: &mut O, lit: &mut Option<bool>, on: bool) -> Result<(), HwError> {
    if *lit != Some(on) {
        if on { pin.set_high() } else { pin.set_low() }.map_err(pin_error)?;
        *lit = Some(on);
    }
    Ok(())
}
