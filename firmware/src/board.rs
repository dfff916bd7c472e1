//! The blue pill's bring-up, in order, and its wiring (README.md, "Wiring"): every pin
//! is assigned here and nowhere else.

use crate::bus::SensorBus;
use crate::clock::{self, MsClock};
use crate::pins::{In, Out, LINES};
use crate::safety::{self, ResetCause, Watchdog};
use crate::storage::FlashStorage;
use embedded_hal::digital::{InputPin, OutputPin};
use stm32f1xx_hal::gpio::PinState;
use stm32f1xx_hal::i2c::{BlockingI2c, Mode};
use stm32f1xx_hal::{pac, prelude::*};
#[cfg(not(feature = "servo-lift"))]
use tictable::device::motion::PinLift;
#[cfg(feature = "servo-lift")]
use tictable::device::motion::ServoLift;
use tictable::device::panel::{Button, Light};

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
pub type Lift = ServoLift<stm32f1xx_hal::timer::PwmChannel<pac::TIM3, 0>>;

/// Everything the device logic drives, configured.
pub struct Board {
    /// I2C1 to the multiplexers, with bus recovery.
    pub i2c: SensorBus,
    /// X axis: STEP, DIR, home switch.
    pub x: (Out, Out, In),
    /// Y axis: STEP, DIR, home switch.
    pub y: (Out, Out, In),
    /// The Z lift.
    pub lift: Lift,
    /// The electromagnet.
    pub magnet: Out,
    /// Buttons in `Button::ALL` order.
    pub buttons: [In; 5],
    /// Lights in `Light::ALL` order.
    pub lights: [Out; 7],
    /// The drivers' shared ENABLE (active low): high until [`Board::enable_drivers`].
    pub enable: Out,
    /// The snapshot flash.
    pub flash: FlashStorage,
    /// The millisecond clock.
    pub clock: MsClock,
    /// The independent watchdog, running.
    pub watchdog: Watchdog,
    /// Why the chip reset.
    pub reset_cause: ResetCause,
    /// Whether the crystal started (else the internal oscillator runs the core).
    pub crystal: bool,
}

impl Board {
    /// Brings the board up: safe state, reset cause, watchdog, cycle counter check,
    /// clocks, SysTick, pins, I2C. A fault that leaves the firmware unable to run
    /// (peripherals taken twice, a cycle counter that does not count) is
    /// [`safety::fatal`].
    pub fn take() -> Board {
        safety::safe_state();
        let (Some(mut cp), Some(dp)) = (cortex_m::Peripherals::take(), pac::Peripherals::take())
        else {
            safety::fatal()
        };
        let reset_cause = ResetCause::take(&dp.RCC);
        let watchdog = Watchdog::start(dp.IWDG, &dp.DBGMCU);
        if !clock::start_cycle_counter(&mut cp.DCB, &mut cp.DWT) {
            safety::fatal()
        }
        let mut flash = dp.FLASH.constrain();
        let (mut rcc, crystal) = clock::start(dp.RCC, &mut flash.acr);
        let sysclk = rcc.clocks.sysclk().raw();
        let clock = MsClock::start(&mut cp.SYST, sysclk);

        // From here the HAL owns the pins; the port reset in `split` lets them
        // float for a few µs until configured (README: the pull-downs).
        let mut gpioa = dp.GPIOA.split(&mut rcc);
        let mut gpiob = dp.GPIOB.split(&mut rcc);
        let enable = Out::a(
            gpioa
                .pa12
                .into_push_pull_output_with_state(&mut gpioa.crh, PinState::High),
        );
        for line in &LINES {
            line.set_clock(sysclk);
        }
        let x_step = Out::step(gpioa.pa0.into_push_pull_output(&mut gpioa.crl), 0);
        let x_dir = Out::dir(gpioa.pa1.into_push_pull_output(&mut gpioa.crl), 0);
        let y_step = Out::step(gpioa.pa2.into_push_pull_output(&mut gpioa.crl), 1);
        let y_dir = Out::dir(gpioa.pa3.into_push_pull_output(&mut gpioa.crl), 1);
        // The lift: a solenoid (or a small motor driver) on PA4, or with `servo-lift` a
        // hobby servo on PA6 driven by TIM3 CH1 at 50 Hz.
        #[cfg(not(feature = "servo-lift"))]
        let lift = PinLift(Out::a(gpioa.pa4.into_push_pull_output(&mut gpioa.crl)));
        #[cfg(feature = "servo-lift")]
        let lift = {
            let mut afio = dp.AFIO.constrain(&mut rcc);
            let pin = gpioa.pa6.into_alternate_push_pull(&mut gpioa.crl);
            let mut pwm = dp
                .TIM3
                .pwm_hz::<stm32f1xx_hal::timer::Tim3NoRemap, _, _>(
                    pin,
                    &mut afio.mapr,
                    50.Hz(),
                    &mut rcc,
                )
                .split();
            pwm.enable();
            ServoLift {
                pwm,
                up_permille: SERVO_UP_PERMILLE,
                down_permille: SERVO_DOWN_PERMILLE,
            }
        };
        let magnet = Out::a(gpioa.pa5.into_push_pull_output(&mut gpioa.crl));
        let x_limit = In::B(gpiob.pb12.into_pull_up_input(&mut gpiob.crh).erase_number());
        let y_limit = In::B(gpiob.pb13.into_pull_up_input(&mut gpiob.crh).erase_number());
        let buttons = [
            In::B(gpiob.pb14.into_pull_up_input(&mut gpiob.crh).erase_number()),
            In::B(gpiob.pb15.into_pull_up_input(&mut gpiob.crh).erase_number()),
            In::B(gpiob.pb5.into_pull_up_input(&mut gpiob.crl).erase_number()),
            In::B(gpiob.pb8.into_pull_up_input(&mut gpiob.crh).erase_number()),
            In::B(gpiob.pb9.into_pull_up_input(&mut gpiob.crh).erase_number()),
        ];
        // The Lamp LED: PA6, or PA4 with `servo-lift` (PA6 is then the servo's PWM).
        #[cfg(not(feature = "servo-lift"))]
        let lamp = gpioa.pa6.into_push_pull_output(&mut gpioa.crl);
        #[cfg(feature = "servo-lift")]
        let lamp = gpioa.pa4.into_push_pull_output(&mut gpioa.crl);
        let lights = [
            Out::a(lamp),
            Out::a(gpioa.pa7.into_push_pull_output(&mut gpioa.crl)),
            Out::b(gpiob.pb0.into_push_pull_output(&mut gpiob.crl)),
            Out::b(gpiob.pb1.into_push_pull_output(&mut gpiob.crl)),
            Out::b(gpiob.pb10.into_push_pull_output(&mut gpiob.crh)),
            Out::b(gpiob.pb11.into_push_pull_output(&mut gpiob.crh)),
            Out::a(gpioa.pa8.into_push_pull_output(&mut gpioa.crh)),
        ];

        // I2C1 on PB6 (SCL) / PB7 (SDA), 100 kHz, to the two TCA9548A multiplexers;
        // its timeouts (µs) are counted in cycles of the configured clock.
        let i2c = BlockingI2c::new(
            dp.I2C1,
            (gpiob.pb6, gpiob.pb7),
            Mode::standard(100.kHz()),
            &mut rcc,
            1000,
            10,
            1000,
            1000,
        );

        #[cfg(feature = "defmt")]
        defmt::info!(
            "reset: {}, clock: {=u32} Hz from the {=str}",
            reset_cause,
            sysclk,
            if crystal {
                "crystal"
            } else {
                "internal oscillator"
            }
        );
        Board {
            i2c: SensorBus::new(i2c, sysclk),
            x: (x_step, x_dir, x_limit),
            y: (y_step, y_dir, y_limit),
            lift,
            magnet,
            buttons,
            lights,
            enable,
            flash: FlashStorage::new(flash),
            clock,
            watchdog,
            reset_cause,
            crystal,
        }
    }

    /// Waits `ms` milliseconds, feeding the watchdog.
    pub fn pause(&mut self, ms: u32) {
        let start = clock::now_ms();
        while clock::now_ms().wrapping_sub(start) < ms {
            self.watchdog.feed();
        }
    }

    /// The boot signal on the Error light: the reset cause as that many short
    /// blinks, then a long one if the crystal did not start (README: "Lights at
    /// boot").
    pub fn show_boot(&mut self) {
        let error = Light::Error.index();
        let long = if self.crystal { 0 } else { 1 };
        for blink in 0..self.reset_cause as u32 + long {
            let _ = self.lights[error].set_high();
            self.pause(if blink < self.reset_cause as u32 {
                200
            } else {
                2000
            });
            let _ = self.lights[error].set_low();
            self.pause(300);
        }
    }

    /// Whether the Level button is held (recalibrate at power-on): low at every
    /// millisecond for 20 ms. Call it at least 1 ms after [`Board::take`] (the pull-up
    /// charging the line; `show_boot` takes far longer).
    pub fn level_held(&mut self) -> bool {
        let level = Button::Level.index();
        for _ in 0..20 {
            if self.buttons[level].is_low() != Ok(true) {
                return false;
            }
            self.pause(1);
        }
        true
    }

    /// Enables the stepper drivers (ENABLE low): the motors hold their position
    /// from here on.
    pub fn enable_drivers(&mut self) {
        let _ = self.enable.set_low();
    }
}
