//! The blue pill's wiring (`firmware/README.md`, "Wiring"): which port pin drives or
//! reads which part of the simulated machine, the pull resistors on the board, and
//! the stepper drivers' timing as their datasheets give it (A4988: STEP high and
//! low at least 1 µs, DIR set up 200 ns before the STEP rising edge): a pulse too
//! short is not taken, a DIR change too late steps the old way.

use tictable_machine::sim::motor::Motor;
use tictable_machine::sim::world::World;

/// A pin: port (0 = A, 1 = B, 2 = C) and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin(pub usize, pub u32);

/// STEP of X and Y.
pub const STEP: [Pin; 2] = [Pin(0, 0), Pin(0, 2)];
/// DIR of X and Y (high = away from the switch).
pub const DIR: [Pin; 2] = [Pin(0, 1), Pin(0, 3)];
/// Both drivers' ENABLE (active low; 10 kΩ to 3.3 V).
pub const ENABLE: Pin = Pin(0, 12);
/// The lift's MOSFET gate (high = lowered; 10 kΩ to GND).
pub const LIFT: Pin = Pin(0, 4);
/// The magnet's MOSFET gate (high = on; 10 kΩ to GND).
pub const MAGNET: Pin = Pin(0, 5);
/// The homing switches of X and Y (to GND, closed at 0).
pub const LIMIT: [Pin; 2] = [Pin(1, 12), Pin(1, 13)];
/// The buttons in `Button::ALL` order: Done, Side, First square, Start, Level.
pub const BUTTONS: [Pin; 5] = [Pin(1, 14), Pin(1, 15), Pin(1, 5), Pin(1, 8), Pin(1, 9)];
/// The lights in `Light::ALL` order: Lamp, Device turn, Human turn, Win, Draw,
/// Loss, Error.
pub const LIGHTS: [Pin; 7] = [
    Pin(0, 6),
    Pin(0, 7),
    Pin(1, 0),
    Pin(1, 1),
    Pin(1, 10),
    Pin(1, 11),
    Pin(0, 8),
];
/// I2C1's SCL and SDA.
pub const SCL: Pin = Pin(1, 6);
/// I2C1's SDA.
pub const SDA: Pin = Pin(1, 7);

/// A4988: STEP high at least 1 µs, low at least 1 µs (tA, tB).
pub const STEP_MIN_NS: u64 = 1_000;
/// A4988: DIR set up at least 200 ns before STEP rises (tC).
pub const DIR_SETUP_NS: u64 = 200;

/// The output pins' levels as the outside sees them: driven by the port, or
/// where the port lets go, the board's resistor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// STEP X, Y.
    pub step: [bool; 2],
    /// DIR X, Y.
    pub dir: [bool; 2],
    /// ENABLE (high = drivers off).
    pub enable: bool,
    /// The lift's gate.
    pub lift: bool,
    /// The magnet's gate.
    pub magnet: bool,
    /// The lights.
    pub lights: [bool; 7],
}

impl Outputs {
    /// The levels with every pin released: the resistors' (ENABLE pulled up, the
    /// rest pulled down).
    pub const RELEASED: Outputs = Outputs {
        step: [false; 2],
        dir: [false; 2],
        enable: true,
        lift: false,
        magnet: false,
        lights: [false; 7],
    };

    /// The levels from `driven` (the port's drive of a pin, `None` if released).
    pub fn from_ports(driven: impl Fn(Pin) -> Option<bool>) -> Outputs {
        let r = Outputs::RELEASED;
        Outputs {
            step: [0, 1].map(|a| driven(STEP[a]).unwrap_or(r.step[a])),
            dir: [0, 1].map(|a| driven(DIR[a]).unwrap_or(r.dir[a])),
            enable: driven(ENABLE).unwrap_or(r.enable),
            lift: driven(LIFT).unwrap_or(r.lift),
            magnet: driven(MAGNET).unwrap_or(r.magnet),
            lights: core::array::from_fn(|i| driven(LIGHTS[i]).unwrap_or(false)),
        }
    }
}

/// What the stepper drivers saw on their pins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverTiming {
    /// STEP rising edges, X and Y.
    pub edges: [u64; 2],
    /// The shortest STEP high and low, ns (`u64::MAX`: none yet).
    pub min_high_ns: u64,
    /// The shortest STEP low, ns.
    pub min_low_ns: u64,
    /// The shortest time from a DIR change to the next STEP rising edge, ns.
    pub min_dir_setup_ns: u64,
    /// Pulses too short to be taken.
    pub short_pulses: u64,
    /// STEP edges too close after a DIR change (stepped the old way).
    pub dir_violations: u64,
    /// STEP edges while the drivers were disabled (not taken).
    pub disabled_edges: u64,
    /// The motors behind the drivers, X and Y: the steps they follow and lose
    /// (`tictable_machine::sim::motor`: pull-in rate, acceleration limit).
    pub motors: [Motor; 2],
}

impl DriverTiming {
    /// STEP rising edges of both axes: unchanged while the gantry rests.
    pub fn steps(&self) -> u64 {
        self.edges[0] + self.edges[1]
    }
}

/// The pins after a change, for a watcher (a waveform).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinRecord {
    /// When, ns.
    pub at_ns: u64,
    /// The outputs' levels.
    pub outputs: Outputs,
    /// The homing switches, X and Y (`true`: closed, the pin pulled to GND).
    pub limits_closed: [bool; 2],
}

/// The drivers, the lift, the magnet and the lights behind the pins.
#[derive(Clone, Debug)]
pub struct Wiring {
    out: Outputs,
    /// When each STEP last rose and fell, and DIR last changed, ns.
    rose: [u64; 2],
    fell: [u64; 2],
    dir_at: [u64; 2],
    /// The DIR level each driver has latched (the one set up in time).
    dir_latched: [bool; 2],
    /// A rising edge waits for its high time to be long enough.
    pending_step: [bool; 2],
    /// Timing seen.
    pub timing: DriverTiming,
    /// Every change, when a watcher asked (`Some`).
    pub probe: Option<Vec<PinRecord>>,
}

impl Default for Wiring {
    fn default() -> Wiring {
        Wiring {
            out: Outputs::RELEASED,
            rose: [0; 2],
            fell: [0; 2],
            dir_at: [0; 2],
            dir_latched: [false; 2],
            pending_step: [false; 2],
            timing: DriverTiming {
                min_high_ns: u64::MAX,
                min_low_ns: u64::MAX,
                min_dir_setup_ns: u64::MAX,
                ..DriverTiming::default()
            },
            probe: None,
        }
    }
}

impl Wiring {
    /// The levels now.
    pub fn outputs(&self) -> Outputs {
        self.out
    }

    /// The pins changed to `new` at `now` ns: the world follows.
    pub fn update(&mut self, new: Outputs, now: u64, w: &mut World) {
        let old = self.out;
        self.out = new;
        for a in 0..2 {
            if new.dir[a] != old.dir[a] {
                self.dir_at[a] = now;
            }
            if new.step[a] && !old.step[a] {
                self.rising(a, now);
            } else if !new.step[a] && old.step[a] {
                self.falling(a, now, w);
            }
            // DIR as the driver reads it at the next edge: set up in time.
            w.head.dir[a] = self.dir_latched[a];
        }
        if new.lift != old.lift {
            w.set_lift(new.lift);
        }
        if new.magnet != old.magnet {
            w.set_magnet(new.magnet);
        }
        w.lights = new.lights;
        if let Some(p) = &mut self.probe {
            p.push(PinRecord {
                at_ns: now,
                outputs: new,
                limits_closed: [0, 1].map(|a| w.limit_closed(a)),
            });
        }
    }

    fn rising(&mut self, a: usize, now: u64) {
        self.timing.edges[a] += 1;
        if self.timing.edges[a] > 1 {
            self.timing.min_low_ns = self.timing.min_low_ns.min(now - self.fell[a]);
        }
        let setup = now - self.dir_at[a];
        self.timing.min_dir_setup_ns = self.timing.min_dir_setup_ns.min(setup);
        if setup >= DIR_SETUP_NS || self.dir_at[a] == 0 {
            self.dir_latched[a] = self.out.dir[a];
        } else {
            self.timing.dir_violations += 1;
        }
        let low_ok = self.timing.edges[a] == 1 || now - self.fell[a] >= STEP_MIN_NS;
        // The driver acts on the rising edge: disabled then, no step; enabled, the
        // step is taken even if the drivers are disabled before STEP falls (the
        // pins released by a reset or a power cut mid-pulse).
        self.pending_step[a] = low_ok && !self.out.enable;
        if !low_ok {
            self.timing.short_pulses += 1;
        } else if self.out.enable {
            self.timing.disabled_edges += 1;
        }
        self.rose[a] = now;
    }

    fn falling(&mut self, a: usize, now: u64, w: &mut World) {
        let high = now - self.rose[a];
        self.timing.min_high_ns = self.timing.min_high_ns.min(high);
        self.fell[a] = now;
        if !std::mem::take(&mut self.pending_step[a]) {
            return;
        }
        if high < STEP_MIN_NS {
            self.timing.short_pulses += 1;
        } else {
            // The driver takes the step (at its rising edge); the motor follows
            // it, or loses it when it comes sooner than the rotor can follow.
            if self.timing.motors[a].step(self.rose[a]) {
                w.head.dir[a] = self.dir_latched[a];
                w.set_step(a, true);
                w.set_step(a, false);
            }
        }
    }

    /// The board loses power or resets: every pin is released.
    pub fn release(&mut self, now: u64, w: &mut World) {
        self.update(Outputs::RELEASED, now, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictable_machine::sim::world::SimConfig;

    fn world() -> World {
        let mut w = World::new(SimConfig::standard(0.0, 0.0, 1).unwrap());
        w.head.steps = [100, 100];
        w
    }

    fn drive(p: &mut Wiring, w: &mut World, now: u64, f: impl FnOnce(&mut Outputs)) {
        let mut o = p.outputs();
        f(&mut o);
        p.update(o, now, w);
    }

    #[test]
    fn a_pulse_with_dir_set_up_in_time_steps_that_way() {
        let (mut p, mut w) = (Wiring::default(), world());
        drive(&mut p, &mut w, 1_000, |o| o.enable = false);
        drive(&mut p, &mut w, 2_000, |o| o.dir[0] = true);
        drive(&mut p, &mut w, 3_000, |o| o.step[0] = true);
        drive(&mut p, &mut w, 5_000, |o| o.step[0] = false);
        assert_eq!(w.head.steps, [101, 100]);
        assert_eq!(p.timing.min_high_ns, 2_000);
        assert_eq!(p.timing.min_dir_setup_ns, 1_000);
    }

    #[test]
    fn dir_changed_with_the_step_edge_steps_the_old_way() {
        let (mut p, mut w) = (Wiring::default(), world());
        drive(&mut p, &mut w, 1_000, |o| o.enable = false);
        drive(&mut p, &mut w, 3_000, |o| {
            o.dir[0] = true;
            o.step[0] = true;
        });
        drive(&mut p, &mut w, 5_000, |o| o.step[0] = false);
        assert_eq!(w.head.steps, [99, 100]);
        assert_eq!(p.timing.dir_violations, 1);
    }

    #[test]
    fn short_pulses_and_disabled_drivers_do_not_step() {
        let (mut p, mut w) = (Wiring::default(), world());
        drive(&mut p, &mut w, 3_000, |o| o.step[1] = true);
        drive(&mut p, &mut w, 5_000, |o| o.step[1] = false);
        assert_eq!(p.timing.disabled_edges, 1);
        drive(&mut p, &mut w, 6_000, |o| o.enable = false);
        drive(&mut p, &mut w, 9_000, |o| o.step[1] = true);
        drive(&mut p, &mut w, 9_500, |o| o.step[1] = false);
        assert_eq!(p.timing.short_pulses, 1);
        assert_eq!(w.head.steps, [100, 100]);
    }

    #[test]
    fn a_pulse_begun_enabled_steps_though_the_pins_are_released_before_it_falls() {
        // A4988 / DRV8825: a low-to-high STEP transition advances the motor; a reset
        // or a power cut mid-pulse releases every pin at once (ENABLE pulled high,
        // STEP low): the step was taken, no edge while disabled.
        let (mut p, mut w) = (Wiring::default(), world());
        drive(&mut p, &mut w, 1_000, |o| o.enable = false);
        drive(&mut p, &mut w, 3_000, |o| o.step[0] = true);
        p.update(Outputs::RELEASED, 8_000, &mut w);
        assert_eq!(w.head.steps, [99, 100]);
        assert_eq!(p.timing.disabled_edges, 0);
    }

    #[test]
    fn released_pins_read_as_the_resistors_pull_them() {
        let o = Outputs::from_ports(|_| None);
        assert_eq!(o, Outputs::RELEASED);
        assert!(o.enable, "drivers off");
        let lit = Outputs::from_ports(|p| (p == LIGHTS[6]).then_some(true));
        assert!(lit.lights[6]);
    }

    #[test]
    fn the_probe_records_each_change_with_the_switches_after_it() {
        let (mut p, mut w) = (Wiring::default(), world());
        w.head.steps = [1, 100];
        p.probe = Some(vec![]);
        drive(&mut p, &mut w, 1_000, |o| o.enable = false);
        drive(&mut p, &mut w, 3_000, |o| o.step[0] = true);
        drive(&mut p, &mut w, 5_000, |o| o.step[0] = false);
        let r = p.probe.unwrap_or_default();
        let at: Vec<u64> = r.iter().map(|r| r.at_ns).collect();
        assert_eq!(at, [1_000, 3_000, 5_000]);
        assert!(!r[0].outputs.enable && r[1].outputs.step[0] && !r[2].outputs.step[0]);
        // The step towards the switch (DIR low) closed it.
        assert_eq!(r[1].limits_closed, [false, false]);
        assert_eq!(r[2].limits_closed, [true, false]);
    }
}
