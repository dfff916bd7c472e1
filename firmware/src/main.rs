//! The tic-tac-toe playing machine on an STM32F103C8 ("blue pill"): brings the board up
//! (`tictable_firmware::board`), builds the device logic's `Controller` around it and
//! polls it from a super-loop. Every behaviour comes from `tictable_machine`; the
//! machine's geometry is set below. See README.md for the wiring.
#![no_std]
#![no_main]
#![deny(unsafe_code)]

#[cfg(all(feature = "levels", feature = "games"))]
compile_error!("`levels` and `games` are two images: build one of them");

use cortex_m_rt::entry;
#[cfg(feature = "levels")]
use tictable::strategy::{Level, Strategy};
use tictable_firmware::board::Board;
use tictable_firmware::clock::ClockRng;
#[cfg(feature = "levels")]
use tictable_firmware::opening;
use tictable_firmware::safety;
use tictable_machine::classify::Calibration;
#[cfg(not(any(feature = "levels", feature = "games")))]
use tictable_machine::controller::RandomBestMove;
use tictable_machine::controller::{Controller, GameSetup, Hardware, Layout};
#[cfg(feature = "levels")]
use tictable_machine::controller::{MoveChooser, StrategyChooser};
#[cfg(feature = "games")]
use tictable_machine::controller::{Rules, TableChooser};
use tictable_machine::motion::{Point, Pose, Storage, ROT_ONE};
use tictable_machine::persist::Store;
use tictable_machine::save_policy::SavePolicy;
use tictable_machine::scanner::{ScanSettings, Scanner};

/// Machine geometry (µm; `Point::mm` takes whole mm) from the homing corner: the
/// first guess of the board as built, its centre (square 5) and the distance between
/// square centres, its rows along the X axis (square 1 is top left: -x, +y).
/// Calibrating by jogging (README: calibration) replaces the pose, rotation included,
/// and keeps it in flash. Here: a 32 mm board centred at (160, 130). (Centre and
/// pitch, not two corners: the pose is built from its parts, checked, with no
/// square root at run time.)
const BOARD_CENTRE: Point = Point::mm(160, 130);
const BOARD_PITCH_UM: u32 = 32_000;
/// That pose, checked when the firmware is built (a pitch outside
/// `motion::PITCH_UM` fails the build).
const BOARD: Pose = match Pose::from_parts(BOARD_CENTRE, ROT_ONE, 0, BOARD_PITCH_UM) {
    Ok(pose) => pose,
    Err(_) => panic!("BOARD_CENTRE / BOARD_PITCH_UM: not a valid pose"),
};
/// The black (first) and white storage columns, and the slot pitch.
const STORAGE: Storage = Storage {
    first: [Point::mm(20, 70), Point::mm(300, 70)],
    step: Point::mm(0, 30),
};
/// Where the head waits, clear of the board.
const PARK: Point = Point::mm(160, 10);

/// With `levels`: a move chooser whose thinks run with the watchdog fed from
/// SysTick (`safety::long_think`: the trap player's first move takes seconds on
/// the 8 MHz fallback clock, more than the watchdog's timeout); the slow levels'
/// move from the empty board, their longest think, comes from `opening`.
#[cfg(feature = "levels")]
struct Watched<C>(C);

#[cfg(feature = "levels")]
impl<R: rand_core::Rng> MoveChooser for Watched<StrategyChooser<R>> {
    fn choose(&mut self, board: &tictable::Board) -> Option<tictable::Square> {
        // From the empty board the slow levels' move is worked out in advance
        // (`opening`: the same distribution, drawn with the same generator); every
        // other think runs with the watchdog fed.
        if *board == tictable::Board::EMPTY {
            if let Some(first) = opening::first_move(&self.0.strategy) {
                return Some(first.sample(&mut self.0.rng));
            }
        }
        safety::long_think(|| self.0.choose(board))
    }

    fn next_level(&mut self) {
        self.0.next_level();
    }

    fn observe(&mut self, board: &tictable::Board, square: tictable::Square) {
        self.0.observe(board, square);
    }
}

#[entry]
fn main() -> ! {
    // Safe state first, then reset cause, watchdog, clocks, pins, I2C, the boot
    // signal on the Error light (Level held meanwhile: recalibrate the sensors).
    let Board {
        sensors,
        machine,
        panel,
        enable: _enable,
        flash,
        clock,
        mut watchdog,
        level_held: recalibrate,
        reset_cause,
        ..
    } = Board::take();

    let layout = Layout {
        pose: BOARD,
        storage: STORAGE,
        park: PARK,
    };
    let hw = Hardware {
        sensors,
        // The calibration comes with the snapshot (`resume` below).
        scanner: Scanner::new(Calibration::default(), ScanSettings::DEFAULT),
        machine,
        panel,
    };
    // Default: perfect play from the table, a random one of the best moves. With the
    // `levels` feature: the players' strategies, starting with the trap player, the
    // Level button cycling them (more flash: README, "Firmware").
    let rng = ClockRng(0x7111_7AB1);
    #[cfg(not(any(feature = "levels", feature = "games")))]
    let chooser = RandomBestMove(rng);
    // `games`: the six games from their best-move files, tic-tac-toe until another is
    // chosen or resumed (the files are checked here: a damaged one stops the machine).
    #[cfg(feature = "games")]
    let Some(chooser) = TableChooser::new(Rules::TicTacToe, rng) else {
        safety::fatal()
    };
    #[cfg(feature = "levels")]
    let chooser = Watched(StrategyChooser {
        strategy: Strategy::new(Level::Trap),
        rng,
    });
    let setup = GameSetup {
        device_first: true,
        first_square: None,
    };
    let mut controller = Controller::new(hw, chooser, layout, setup);

    // Snapshots (calibration, game in progress) in the last flash pages (opened
    // after the controller is built: less flash).
    let Ok(mut store) = Store::new(flash, 0) else {
        safety::fatal()
    };
    // Borrowed, not moved: a snapshot is a few hundred bytes, and every move of it
    // is code (copies when passed around by value).
    let loaded = store.load();
    let saved = loaded.as_ref().ok().and_then(Option::as_ref);
    // The snapshot brings the calibration, the pose and the game in progress. None,
    // or one the controller refuses (decoding already refuses what `resume` would):
    // the guided calibration, once the machine is homed (README: Calibration).
    let resumed = saved.is_some_and(|snap| controller.resume(snap).is_ok());
    if recalibrate || !resumed {
        controller.calibrate_sensors();
    }

    // The super-loop: feed the watchdog, save a snapshot when the library's rule
    // says so (`SavePolicy`, the rule the simulator's power-cut tests prove), then
    // poll. The rule sees the state the last poll left: on a change while the
    // gantry is idle, as a move starts (the head still at rest) and once per
    // placement, so a power cut mid-transfer finds the placement on flash. Saving
    // before the poll puts the first save, the boot's, before the poll that starts
    // homing: its page erase (20-40 ms stall) comes before the gantry moves, not in
    // homing's first pass. Most saves append a 44-byte delta (about 1 ms of flash
    // writing); a page erase comes once per 17 saves.
    let mut policy = SavePolicy::new();
    #[cfg(feature = "defmt")]
    let mut last_state = None;
    loop {
        watchdog.feed();
        let revision = controller.revision();
        let busy = controller.hardware().machine.is_busy();
        // No save starts below the supply a flash erase needs to end
        // (`safety::supply_ok`: the PVD at PLS 7, 2.66-2.90 V falling by the part); it
        // counts as a failed one. A save begun above it may be torn by a cut; the
        // store's CRC'd log keeps the record before it.
        if policy.due(revision, busy, controller.state()) && safety::supply_ok() {
            // A failed save is retried at the next change; the game goes on.
            // The snapshot keeps why the board last reset (shown at boot as well).
            let mut snapshot = controller.snapshot();
            snapshot.reset_cause = reset_cause;
            let _saved = store.save(&snapshot);
            #[cfg(feature = "defmt")]
            if _saved.is_ok() {
                defmt::info!("saved revision {=u32}", revision);
            }
        }
        let (ms, us) = clock.now();
        controller.poll_at(ms, us);
        #[cfg(feature = "defmt")]
        if last_state != Some(controller.state()) {
            last_state = Some(controller.state());
            defmt::info!("state: {}", defmt::Debug2Format(&controller.state()));
        }
    }
}
