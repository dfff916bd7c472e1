//! The tic-tac-toe playing machine on an STM32F103C8 ("blue pill").
//!
//! Board bring-up only: clocks, the millisecond clock, I2C1 for the sensor
//! multiplexers, the GPIO of the gantry, lift, magnet, buttons and lights (with the
//! `servo-lift` feature, TIM3's PWM for a servo lift), and flash storage for
//! snapshots. Every behaviour comes from `tictable::device`; this file
//! builds the `Controller` and polls it from a super-loop. See README.md for the
//! wiring.
#![no_std]
#![no_main]
#![deny(unsafe_code)]

mod mem;
mod storage;

use core::convert::Infallible;
use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::{entry, exception};
#[cfg(feature = "defmt")]
use defmt_rtt as _;
use embedded_hal::digital::{InputPin, OutputPin};
use panic_halt as _;
use stm32f1xx_hal::gpio::{Input, Output, PartiallyErasedPin, PullUp, PushPull};
use stm32f1xx_hal::i2c::{BlockingI2c, Mode};
use stm32f1xx_hal::{pac, prelude::*, rcc};
#[cfg(not(feature = "levels"))]
use tictable::device::controller::RandomBestMove;
#[cfg(feature = "levels")]
use tictable::device::controller::StrategyChooser;
use tictable::device::controller::{Controller, GameSetup, Hardware, Layout};
#[cfg(not(feature = "servo-lift"))]
use tictable::device::motion::PinLift;
#[cfg(feature = "servo-lift")]
use tictable::device::motion::ServoLift;
use tictable::device::motion::{
    Axis, AxisConfig, AxisId, HeadTiming, Machine, Point, Pose, Storage,
};
use tictable::device::panel::{Button, Panel};
use tictable::device::persist::Store;
use tictable::device::scanner::{ScanSettings, Scanner};
use tictable::device::sensors::{SensorBank, SensorSettings, Wiring};
#[cfg(feature = "levels")]
use tictable::strategy::{Level, Strategy};

/// An output pin (STEP, DIR, lift, magnet, lights) on port A or B, the two ports this
/// board drives: one type for all of them like the HAL's `ErasedPin`, which
/// dispatches over all five ports at every access (measured: 150 B more flash).
enum Out {
    A(PartiallyErasedPin<'A', Output<PushPull>>),
    B(PartiallyErasedPin<'B', Output<PushPull>>),
}

impl embedded_hal::digital::ErrorType for Out {
    type Error = Infallible;
}

impl OutputPin for Out {
    fn set_high(&mut self) -> Result<(), Infallible> {
        match self {
            Out::A(pin) => pin.set_high(),
            Out::B(pin) => pin.set_high(),
        }
        Ok(())
    }

    fn set_low(&mut self) -> Result<(), Infallible> {
        match self {
            Out::A(pin) => pin.set_low(),
            Out::B(pin) => pin.set_low(),
        }
        Ok(())
    }
}

/// An input pin (limit switches, buttons), pulled up, active low, on port A or B. This
/// wiring has every input on port B; port A is there so that inputs can move without
/// a type change (and, measured, the two-port enum is 60 B smaller than a wrapper of
/// the port-B pin alone, and 300 B smaller than the HAL's pin type used directly).
enum In {
    #[allow(dead_code)]
    A(PartiallyErasedPin<'A', Input<PullUp>>),
    B(PartiallyErasedPin<'B', Input<PullUp>>),
}

impl embedded_hal::digital::ErrorType for In {
    type Error = Infallible;
}

impl InputPin for In {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        self.is_low().map(|low| !low)
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        match self {
            In::A(pin) => pin.is_low(),
            In::B(pin) => pin.is_low(),
        }
    }
}

/// Machine geometry (µm; `Point::mm` takes whole mm) from the homing corner: the
/// centres of squares 1 and 9 (indices 0 and 8; square 1 is top left: -x, +y) as
/// built. Calibrating by jogging (README: calibration) replaces the pose and keeps
/// it in flash. Here: a 32 mm board centred at (160, 130).
const SQUARE_FIRST: Point = Point::mm(128, 162);
const SQUARE_LAST: Point = Point::mm(192, 98);
/// The black (first) and white storage columns, and the slot pitch.
const STORAGE: Storage = Storage {
    first: [Point::mm(20, 70), Point::mm(300, 70)],
    step: Point::mm(0, 30),
};
/// Where the head waits, clear of the board.
const PARK: Point = Point::mm(160, 10);
/// Button debounce, ms.
const DEBOUNCE_MS: u32 = 50;
/// With the `servo-lift` feature: the servo's pulse, in thousandths of the 20 ms
/// period, with the head raised and lowered (1.0 ms and 2.0 ms: a hobby servo's
/// two ends; set them to the arm's linkage).
#[cfg(feature = "servo-lift")]
const SERVO_UP_PERMILLE: u16 = 50;
#[cfg(feature = "servo-lift")]
const SERVO_DOWN_PERMILLE: u16 = 100;

/// Core clock, MHz.
const SYSCLK_MHZ: u32 = 72;
/// SysTick reload: one interrupt per millisecond of core clock.
const SYSTICK_RELOAD: u32 = SYSCLK_MHZ * 1000 - 1;

/// Milliseconds since reset, counted by the SysTick interrupt.
static MILLIS: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    MILLIS.fetch_add(1, Ordering::Relaxed);
}

/// The millisecond clock (wraps after 49 days; the device logic uses wrapping time).
pub fn now_ms() -> u32 {
    MILLIS.load(Ordering::Relaxed)
}

/// The time as (ms, µs into that ms): the SysTick counter counts down from
/// [`SYSTICK_RELOAD`] within each millisecond. Read again if the millisecond
/// changed meanwhile. (Between the counter's reload and the interrupt the µs part
/// restarts before the ms part moves: time seems to step back by under 1 ms, which
/// the axes tolerate: steps due only grow.)
fn now() -> (u32, u16) {
    loop {
        let ms = now_ms();
        let left = SYST::get_current();
        if now_ms() == ms {
            let us = SYSTICK_RELOAD.saturating_sub(left) / SYSCLK_MHZ;
            return (ms, us.min(999) as u16);
        }
    }
}

/// A 32-bit xorshift generator stirred with the millisecond clock at every draw, so a
/// person's timing feeds the device's choice among equally good moves (it only picks
/// one of a few best moves: no cryptographic or statistical demands). 32-bit
/// arithmetic only: a 64-bit SplitMix cost 90 B of flash.
struct ClockRng(u32);

impl rand_core::TryRng for ClockRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut x = self.0 ^ now_ms().wrapping_mul(0x9E37_79B9);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // Never stuck at zero (the one fixed point of xorshift).
        self.0 = x | 1;
        Ok(x)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from(self.try_next_u32()?) << 32 | u64::from(self.try_next_u32()?))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let v = self.try_next_u32()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

/// Stops (all lights off, nothing moving): only for configurations the device logic
/// rejects (the geometry constants above) or peripherals taken twice, so a wrong
/// build never drives the gantry.
fn halt() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}

#[entry]
fn main() -> ! {
    let (Some(mut cp), Some(dp)) = (cortex_m::Peripherals::take(), pac::Peripherals::take()) else {
        halt()
    };

    // Clocks: 8 MHz crystal -> PLL -> 72 MHz core, 36 MHz APB1 (I2C1).
    let mut flash = dp.FLASH.constrain();
    let mut rcc = dp.RCC.freeze(
        rcc::Config::hse(8.MHz())
            .sysclk(SYSCLK_MHZ.MHz())
            .pclk1(36.MHz()),
        &mut flash.acr,
    );
    // BlockingI2c measures its timeouts with the DWT cycle counter.
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    // The millisecond clock.
    cp.SYST.set_clock_source(SystClkSource::Core);
    cp.SYST.set_reload(SYSTICK_RELOAD);
    cp.SYST.clear_current();
    cp.SYST.enable_interrupt();
    cp.SYST.enable_counter();

    let mut gpioa = dp.GPIOA.split(&mut rcc);
    let mut gpiob = dp.GPIOB.split(&mut rcc);

    // I2C1 on PB6 (SCL) / PB7 (SDA), 100 kHz, to the two TCA9548A multiplexers.
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

    // Gantry, lift, magnet.
    let x_step: Out = Out::A(
        gpioa
            .pa0
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    );
    let x_dir: Out = Out::A(
        gpioa
            .pa1
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    );
    let y_step: Out = Out::A(
        gpioa
            .pa2
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    );
    let y_dir: Out = Out::A(
        gpioa
            .pa3
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    );
    // The lift: a solenoid (or a small motor driver) on PA4, or with `servo-lift` a
    // hobby servo on PA6 driven by TIM3 CH1 at 50 Hz.
    #[cfg(not(feature = "servo-lift"))]
    let lift = PinLift(Out::A(
        gpioa
            .pa4
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    ));
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
    let magnet: Out = Out::A(
        gpioa
            .pa5
            .into_push_pull_output(&mut gpioa.crl)
            .erase_number(),
    );
    let x_limit: In = In::B(gpiob.pb12.into_pull_up_input(&mut gpiob.crh).erase_number());
    let y_limit: In = In::B(gpiob.pb13.into_pull_up_input(&mut gpiob.crh).erase_number());

    // Panel: buttons in `Button::ALL` order, lights in `Light::ALL` order.
    let mut buttons: [In; 5] = [
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
    let lights: [Out; 7] = [
        Out::A(lamp.erase_number()),
        Out::A(
            gpioa
                .pa7
                .into_push_pull_output(&mut gpioa.crl)
                .erase_number(),
        ),
        Out::B(
            gpiob
                .pb0
                .into_push_pull_output(&mut gpiob.crl)
                .erase_number(),
        ),
        Out::B(
            gpiob
                .pb1
                .into_push_pull_output(&mut gpiob.crl)
                .erase_number(),
        ),
        Out::B(
            gpiob
                .pb10
                .into_push_pull_output(&mut gpiob.crh)
                .erase_number(),
        ),
        Out::B(
            gpiob
                .pb11
                .into_push_pull_output(&mut gpiob.crh)
                .erase_number(),
        ),
        Out::A(
            gpioa
                .pa8
                .into_push_pull_output(&mut gpioa.crh)
                .erase_number(),
        ),
    ];
    // Level held at power-on: run the guided sensor calibration again.
    let recalibrate = buttons[Button::Level.index()].is_low() == Ok(true);
    let panel = Panel::new(buttons, lights, DEBOUNCE_MS);

    // Snapshots (calibration, game in progress) in the last 12 flash pages.
    let Ok(mut store) = Store::new(storage::FlashStorage::new(flash), 0) else {
        halt()
    };
    // Borrowed, not moved: a snapshot is a few hundred bytes, and every move of it
    // is code (measured: 400+ B of copies when passed around by value).
    let loaded = store.load();
    let saved = loaded.as_ref().ok().and_then(Option::as_ref);

    let sensors = SensorBank::new(i2c, Wiring::DEFAULT, SensorSettings::DEFAULT);
    let calibration = saved.map(|snap| snap.calibration).unwrap_or_default();

    let axis = |id, step, dir, limit| Axis::new(id, step, dir, limit, AxisConfig::DEFAULT);
    let machine = Machine::new(
        axis(AxisId::X, x_step, x_dir, x_limit),
        axis(AxisId::Y, y_step, y_dir, y_limit),
        lift,
        magnet,
        HeadTiming::DEFAULT,
    );
    let Ok(pose) = Pose::from_corners(SQUARE_FIRST, SQUARE_LAST) else {
        halt()
    };
    let layout = Layout {
        pose,
        storage: STORAGE,
        park: PARK,
    };
    let hw = Hardware {
        sensors,
        scanner: Scanner::new(calibration, ScanSettings::DEFAULT),
        machine,
        panel,
    };
    // Default: perfect play from the table, a random one of the best moves. With the
    // `levels` feature: the players' strategies, starting with the trap player, the
    // Level button cycling them (about 5 KiB more flash; see README, "Size").
    let rng = ClockRng(0x7111_7AB1);
    #[cfg(not(feature = "levels"))]
    let chooser = RandomBestMove(rng);
    #[cfg(feature = "levels")]
    let chooser = StrategyChooser {
        strategy: Strategy::new(Level::Trap),
        rng,
    };
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    let mut controller = Controller::new(hw, chooser, layout, setup);
    if let Some(snap) = saved {
        // A snapshot that no longer fits starts afresh (calibration kept).
        let _ = controller.resume(snap);
    }
    if recalibrate || saved.is_none() {
        // The guided calibration runs once the machine is homed (README: Calibration).
        controller.calibrate_sensors();
    }

    // The super-loop: poll, and save a snapshot whenever the controller changed (the
    // store skips a snapshot equal to the one in flash, so pages wear only on real
    // changes). Erasing a flash page stalls the CPU for about 20-40 ms, and the axes
    // emit the steps that fell due meanwhile in one burst, which a real stepper would
    // not follow: so a change made while the gantry moves is saved once it stops.
    let mut saved_revision = None;
    loop {
        let (ms, us) = now();
        controller.poll_at(ms, us);
        let revision = controller.revision();
        if saved_revision != Some(revision) && !controller.hardware().machine.is_busy() {
            saved_revision = Some(revision);
            // A failed save is retried at the next change; the game goes on.
            let _saved = store.save(&controller.snapshot());
            #[cfg(feature = "defmt")]
            if _saved.is_ok() {
                defmt::info!("saved revision {=u32}", revision);
            }
        }
    }
}
