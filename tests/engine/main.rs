//! The engine's integration tests, one test binary (`cargo test -p tictable --test
//! engine`): one module per subject. A module that needs a feature is compiled only
//! with it, so `cargo test -p tictable --no-default-features --features F` runs the
//! tests that feature allows; the workspace's `cargo test` turns them all on.

#[cfg(feature = "std")]
mod c_header;
#[cfg(feature = "std")]
mod common;
#[cfg(feature = "std")]
mod compiler;
#[cfg(feature = "std")]
mod engine;
mod figures_dated;
#[cfg(feature = "postcard")]
mod format_doc;
#[cfg(all(feature = "serde", feature = "std"))]
mod game;
mod grouped;
mod markdown;
#[cfg(feature = "stats")]
mod players;
#[cfg(all(feature = "std", feature = "serde"))]
mod properties;
#[cfg(feature = "std")]
mod python_module;
mod readme;
mod rust_version;
#[cfg(feature = "stats")]
mod selfplay;
#[cfg(feature = "std")]
mod strategy;
#[cfg(feature = "std")]
mod tables;
#[cfg(feature = "std")]
mod tables_doc;
