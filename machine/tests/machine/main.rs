//! The machine's integration tests, one test binary (`cargo test -p tictable-machine
//! --test machine`): one module per subject. A module that needs the simulator is
//! compiled only with its feature (`sim-core`: the no_std core; `sim`: the whole
//! simulated machine; `sim` and `games`: misère and the five more games), so each feature set runs the tests
//! it allows.

mod common;
#[cfg(feature = "sim")]
mod device_abandon;
#[cfg(feature = "sim")]
mod device_calibration;
#[cfg(all(feature = "sim", feature = "games"))]
mod device_cheat_and_slip;
#[cfg(feature = "sim")]
mod device_chooser;
#[cfg(feature = "sim")]
mod device_combined_faults;
#[cfg(all(feature = "sim", feature = "games"))]
mod device_game_choice;
#[cfg(all(feature = "sim-core", feature = "games"))]
mod device_games;
#[cfg(all(feature = "sim", feature = "games"))]
mod device_misere;
#[cfg(feature = "sim")]
mod device_motion;
#[cfg(feature = "sim")]
mod device_motion_faults;
mod device_panel;
#[cfg(feature = "sim")]
mod device_persist;
#[cfg(feature = "sim")]
mod device_scripted;
#[cfg(feature = "sim")]
mod device_sensor_calibration;
#[cfg(feature = "sim")]
mod device_sensor_faults;
#[cfg(feature = "sim-core")]
mod device_sensors;
#[cfg(feature = "sim")]
mod device_sim;
#[cfg(feature = "sim-core")]
mod device_store;
#[cfg(all(feature = "sim-core", feature = "games"))]
mod device_store_window;
#[cfg(feature = "sim")]
mod device_task_entry;
#[cfg(feature = "sim")]
mod device_watchdog;
mod error_types;
#[cfg(feature = "games")]
mod legal_moves;
#[cfg(feature = "sim-core")]
mod sim_bus;
#[cfg(all(feature = "sim", feature = "games"))]
mod sim_person_watch;
#[cfg(feature = "sim-core")]
mod step_bursts;
