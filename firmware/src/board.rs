//! The blue pill's bring-up, in order, and its wiring (README.md, "Wiring"): every pin
//! is assigned here and nowhere else.

use crate::bus::{BusRecovery, I2c1, SensorBus, AF_OPEN_DRAIN};
use crate::clock::{self, MsClock};
use crate::pins::{In, Out, LINES};
use crate::regs;
use crate::safety::{self, ResetCause, Watchdog};
use crate::startup::ClockSource;
use crate::storage::FlashStorage;
use embedded_hal::digital::OutputPin;
#[cfg(feature = "servo-lift")]
use stm32f1xx_hal::pac;
use stm32f1xx_hal::prelude::*;
#[cfg(not(feature = "servo-lift"))]
use tictable_machine::motion::PinLift;
#[cfg(feature = "servo-lift")]
use tictable_machine::motion::ServoLift;
use tictable_machine::motion::{Axis, AxisConfig, AxisId, HeadTiming, Machine};
use tictable_machine::panel::Panel;
use tictable_machine::sensors::{SensorBank, SensorSettings, Wiring};

/// Button debounce, ms.
pub const DEBOUNCE_MS: u32 = 50;

/// With the `servo-lift` feature: the servo's pulse, in thousandths of the 20 ms
/// period, with the head raised and lowered (1.0 ms and 2.0 ms: a hobby servo's
/// two ends; set them to the arm's linkage).
pub const SERVO_UP_PERMILLE: u16 = 50;
/// See [`SERVO_UP_PERMILLE`].
pub const SERVO_DOWN_PERMILLE: u16 = 100;

/// The lift: a solenoid on a pin, or with `servo-lift` a hobby servo on TIM3 CH1.
#[cfg(not(feature = "servo-lift"))]
pub type Lift = PinLift<Out>;
/// The lift: a solenoid on a pin, or with `servo-lift` a hobby servo on TIM3 CH1.
#[cfg(feature = "servo-lift")]
pub type Lift = ServoLift<ServoPwm>;

/// The servo's PWM period, µs (50 Hz), and TIM3's counts per period (1 MHz).
#[cfg(feature = "servo-lift")]
const SERVO_PERIOD_US: u16 = 20_000;

/// With `servo-lift`: the servo's 50 Hz PWM on TIM3 CH1 (PA6, alternate-function
/// push-pull in the pin table), by registers (RM0008 §15.3.9, PWM mode 1). TIM3's
/// clock is twice APB1 (APB1 is divided), i.e. the core clock: prescaled to 1 MHz, the
/// duty cycle is in µs of the 20 ms period.
#[cfg(feature = "servo-lift")]
pub struct ServoPwm(pac::TIM3);

#[cfg(feature = "servo-lift")]
impl ServoPwm {
    /// Starts TIM3 at 50 Hz with CH1's output on and no pulse (duty 0) yet.
    pub fn start(tim: pac::TIM3, mhz: u32) -> ServoPwm {
        regs::rcc().apb1enr().modify(|_, w| w.tim3en().set_bit());
        tim.psc().write(|w| w.psc().set((mhz - 1) as u16));
        tim.arr().write(|w| w.arr().set(SERVO_PERIOD_US - 1));
        tim.ccmr1_output()
            .write(|w| w.oc1m().pwm_mode1().oc1pe().set_bit());
        tim.ccer().write(|w| w.cc1e().set_bit());
        tim.egr().write(|w| w.ug().set_bit());
        tim.cr1().write(|w| w.arpe().set_bit().cen().set_bit());
        ServoPwm(tim)
    }
}

#[cfg(feature = "servo-lift")]
impl embedded_hal::pwm::ErrorType for ServoPwm {
    type Error = core::convert::Infallible;
}

#[cfg(feature = "servo-lift")]
impl embedded_hal::pwm::SetDutyCycle for ServoPwm {
    fn max_duty_cycle(&self) -> u16 {
        SERVO_PERIOD_US
    }

    fn set_duty_cycle(&mut self, duty: u16) -> Result<(), core::convert::Infallible> {
        self.0.ccr1().write(|w| w.ccr().set(duty));
        Ok(())
    }
}

/// Port A pin numbers that `safety::safe_state` drives and the boot signal uses
/// (the pin table below has them all).
pub(crate) const X_STEP: u32 = 0;
pub(crate) const Y_STEP: u32 = 2;
pub(crate) const LIFT: u32 = 4;
pub(crate) const MAGNET: u32 = 5;
pub(crate) const ERROR_LIGHT: u32 = 8;
pub(crate) const ENABLE: u32 = 12;
/// The Level button's pin number on port B.
const LEVEL_BUTTON: u32 = 9;

/// A pin's bit in its port's registers.
pub(crate) const fn pin(n: u32) -> u32 {
    1 << n
}

/// CNF/MODE of a pin (RM0008 §9.2.1, GPIOx_CRL/CRH): push-pull output at 2 MHz.
pub(crate) const OUT: u32 = 0x2;
/// Alternate-function push-pull output at 2 MHz (the servo's PWM).
#[cfg(feature = "servo-lift")]
const AF_PUSH_PULL: u32 = 0xA;
/// Input with pull-up (with its output latch set) or pull-down.
const PULL: u32 = 0x8;
/// Floating input (the reset state).
const FLOAT: u32 = 0x4;

/// A configuration register's value from the eight pins' CNF/MODE fields.
const fn cr(pins: [u32; 8]) -> u32 {
    let mut value = 0;
    let mut i = 0;
    while i < 8 {
        value |= pins[i] << (4 * i);
        i += 1;
    }
    value
}

/// The pin table (README.md, "Wiring"). Port A, pins 0..7: X STEP, X DIR, Y STEP,
/// Y DIR, lift (Lamp with `servo-lift`), magnet, Lamp (the servo's PWM with
/// `servo-lift`: TIM3's output), Device turn.
#[cfg(not(feature = "servo-lift"))]
const GPIOA_CRL: u32 = cr([OUT; 8]);
/// With `servo-lift`, PA6 is TIM3 CH1's output (alternate-function push-pull).
#[cfg(feature = "servo-lift")]
const GPIOA_CRL: u32 = cr([OUT, OUT, OUT, OUT, OUT, OUT, AF_PUSH_PULL, OUT]);
/// Port A, pins 8..15: Error light, (PA9..PA11 free), ENABLE, (PA13/PA14 SWD, PA15).
/// Unused pins keep their reset configuration, floating input (RM0008: CRL/CRH reset
/// to 0x4444_4444); the debug port keeps PA13/PA14 (and the JTAG pins PA15, PB3, PB4)
/// whatever their field says.
const GPIOA_CRH: u32 = cr([OUT, FLOAT, FLOAT, FLOAT, OUT, FLOAT, FLOAT, FLOAT]);
/// Port B, pins 0..7: Human turn, Win, (PB2 BOOT1, PB3/PB4 JTAG), First square,
/// PB6/PB7: I2C1's SCL and SDA (alternate-function open-drain).
const GPIOB_CRL: u32 = cr([
    OUT,
    OUT,
    FLOAT,
    FLOAT,
    FLOAT,
    PULL,
    AF_OPEN_DRAIN,
    AF_OPEN_DRAIN,
]);
/// Port B, pins 8..15: Start, Level, Draw, Loss, X home, Y home, Done, Side.
const GPIOB_CRH: u32 = cr([PULL, PULL, OUT, OUT, PULL, PULL, PULL, PULL]);
/// Output latches set before the modes: ENABLE high (drivers off) on port A, the
/// pull-ups of the inputs on port B (every other output starts low).
const GPIOA_HIGH: u32 = pin(ENABLE);
const GPIOB_PULL_UPS: u32 = 1 << 5 | 1 << 8 | 1 << 9 | 0xF << 12;

/// Writes the pin table: latches first, so that each output comes up at its level.
fn configure_pins() {
    let (a, b) = (regs::gpioa(), regs::gpiob());
    regs::set_reset(a, GPIOA_HIGH | !GPIOA_HIGH << 16);
    regs::set_reset(b, GPIOB_PULL_UPS | !GPIOB_PULL_UPS << 16);
    regs::write_cr(a, GPIOA_CRL, GPIOA_CRH);
    regs::write_cr(b, GPIOB_CRL, GPIOB_CRH);
}

/// The machine's moving parts on this board's pins.
pub type BoardMachine = Machine<Out, In, Lift>;

/// Everything the device logic drives, configured, and the board's own parts.
pub struct Board {
    /// The colour sensors on I2C1 (with bus recovery).
    pub sensors: SensorBank<SensorBus>,
    /// Gantry (STEP/DIR with the drivers' timing, home switches), lift, magnet.
    pub machine: BoardMachine,
    /// Buttons and lights.
    pub panel: Panel<In, Out>,
    /// The drivers' shared ENABLE (active low), low (enabled) once the board is up.
    pub enable: Out,
    /// The snapshot flash.
    pub flash: FlashStorage,
    /// The millisecond clock.
    pub clock: MsClock,
    /// The independent watchdog, running.
    pub watchdog: Watchdog,
    /// Why the chip reset.
    pub reset_cause: ResetCause,
    /// Where the core clock comes from (the crystal, else the internal oscillator).
    pub clock_source: ClockSource,
    /// Whether the Level button was held at power-on (recalibrate the sensors).
    pub level_held: bool,
}

impl Board {
    /// Brings the board up: safe state, reset cause, watchdog, cycle counter check,
    /// clocks, SysTick, pins, I2C. A cycle counter that does not count leaves the
    /// firmware unable to run: [`safety::fatal`]. Call once, from `main` (it hands
    /// out the peripherals: `regs::peripherals`).
    pub fn take() -> Board {
        safety::safe_state();
        let (mut cp, dp) = regs::peripherals();
        let reset_cause = safety::take_reset_cause(&dp.RCC);
        let mut watchdog = Watchdog::start(dp.IWDG, &dp.DBGMCU);
        if !clock::start_cycle_counter(&mut cp.DCB, &mut cp.DWT) {
            safety::fatal()
        }
        let clock_source = clock::start(&dp.RCC, &dp.FLASH);
        let mhz = clock_source.mhz();
        let sysclk = clock_source.sysclk_hz();
        // The HAL's RCC only for the ports' clocks (`split`); its clock figures are
        // not used (the clocks are `clock_source`'s).
        let mut rcc = dp.RCC.constrain();
        let clock = MsClock::start(&mut cp.SYST, clock_source);
        safety::start_supply_monitor();

        // The HAL's port parts: each pin taken once, into an `Out` or `In`; their
        // modes come from the pin table below in four register writes (the port
        // reset in `split` lets the outputs float for a few µs until then: README,
        // the pull-downs).
        let gpioa = dp.GPIOA.split(&mut rcc);
        let gpiob = dp.GPIOB.split(&mut rcc);
        configure_pins();
        for line in &LINES {
            line.set_clock(sysclk);
        }
        let mut enable = Out::a(gpioa.pa12);
        let x_step = Out::step(gpioa.pa0, 0);
        let x_dir = Out::dir(gpioa.pa1, 0);
        let y_step = Out::step(gpioa.pa2, 1);
        let y_dir = Out::dir(gpioa.pa3, 1);
        // The lift: a solenoid (or a small motor driver) on PA4, or with `servo-lift` a
        // hobby servo on PA6 driven by TIM3 CH1 at 50 Hz.
        #[cfg(not(feature = "servo-lift"))]
        let lift = PinLift(Out::a(gpioa.pa4));
        #[cfg(feature = "servo-lift")]
        let lift = ServoLift {
            pwm: ServoPwm::start(dp.TIM3, mhz),
            up_permille: SERVO_UP_PERMILLE,
            down_permille: SERVO_DOWN_PERMILLE,
        };
        let magnet = Out::a(gpioa.pa5);
        let x_limit = In::b(gpiob.pb12);
        let y_limit = In::b(gpiob.pb13);
        let buttons = [
            In::b(gpiob.pb14),
            In::b(gpiob.pb15),
            In::b(gpiob.pb5),
            In::b(gpiob.pb8),
            In::b(gpiob.pb9),
        ];
        // The Lamp LED: PA6, or PA4 with `servo-lift` (PA6 is then the servo's PWM).
        #[cfg(not(feature = "servo-lift"))]
        let lamp = Out::a(gpioa.pa6);
        #[cfg(feature = "servo-lift")]
        let lamp = Out::a(gpioa.pa4);
        let lights = [
            lamp,
            Out::a(gpioa.pa7),
            Out::b(gpiob.pb0),
            Out::b(gpiob.pb1),
            Out::b(gpiob.pb10),
            Out::b(gpiob.pb11),
            Out::a(gpioa.pa8),
        ];

        // I2C1 on PB6 (SCL) / PB7 (SDA, both set by the pin table), 100 kHz, to the
        // two TCA9548A multiplexers; each flag is waited for at most 1 ms (a byte
        // takes 90 µs), counted in cycles of the configured clock.
        // Then the bus recovery once: a reset in the middle of a sensor read (the
        // reset button, the watchdog, a panic) can leave a slave holding SDA low.
        let mut i2c = SensorBus::new(I2c1::new(dp.I2C1, clock_source), mhz * 1000);
        i2c.recover_bus();

        #[cfg(feature = "defmt")]
        defmt::info!(
            "reset: {}, clock: {=u32} Hz, {}",
            reset_cause,
            sysclk,
            clock_source
        );
        let level_held = show_boot(&mut watchdog, reset_cause, clock_source);
        let _ = enable.set_low();
        // Polled at sub-ms times: never two steps together (a motor cannot follow
        // a burst; after a stall the profile starts again from rest).
        let axis = |id, step, dir, limit| {
            Axis::new(id, step, dir, limit, AxisConfig::DEFAULT).send_no_bursts()
        };
        Board {
            // After two bus errors in a row the bank frees the bus (SensorBus's
            // BusRecovery).
            sensors: SensorBank::new(i2c, Wiring::DEFAULT, SensorSettings::DEFAULT).with_recovery(),
            machine: Machine::new(
                axis(AxisId::X, x_step, x_dir, x_limit),
                axis(AxisId::Y, y_step, y_dir, y_limit),
                lift,
                magnet,
                HeadTiming::DEFAULT,
            ),
            panel: Panel::new(buttons, lights, DEBOUNCE_MS),
            enable,
            flash: FlashStorage::new(dp.FLASH),
            clock,
            watchdog,
            reset_cause,
            clock_source,
            level_held,
        }
    }
}

/// Waits `ms` milliseconds, feeding the watchdog; whether the Level button read low
/// (pressed) at every poll meanwhile.
fn pause(watchdog: &mut Watchdog, ms: u32) -> bool {
    let start = clock::now_ms();
    let mut level_held = true;
    while clock::now_ms().wrapping_sub(start) < ms {
        watchdog.feed();
        level_held &= regs::gpiob().idr().read().bits() & pin(LEVEL_BUTTON) == 0;
    }
    level_held
}

/// The boot signal on the Error light: the reset cause as that many short blinks
/// (0.2 s), then long ones (2 s): one if the crystal did not start, two if the PLL
/// did not lock ([`ClockSource`]'s discriminant; README: "Lights at boot").
/// Returns whether the Level button was held through the 0.3 s after the last
/// blink (recalibrate at power-on): polled continuously, at least 0.2 s after
/// its pull-up was switched on, so the line has settled (it needs well under 1 ms)
/// and a bounce or a brief touch does not count. The Error light (PA8) and the Level
/// button (PB9) are written and read directly, before the panel owns them.
fn show_boot(watchdog: &mut Watchdog, cause: ResetCause, clock: ClockSource) -> bool {
    let short = cause as u32;
    let mut level_held = false;
    for blink in 0..short + clock as u32 {
        regs::set_reset(regs::gpioa(), pin(ERROR_LIGHT));
        pause(watchdog, if blink < short { 200 } else { 2000 });
        regs::set_reset(regs::gpioa(), pin(ERROR_LIGHT) << 16);
        level_held = pause(watchdog, 300);
    }
    level_held
}
