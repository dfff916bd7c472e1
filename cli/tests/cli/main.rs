//! The `tictable` program end to end, one test binary (`cargo test -p tictable-cli
//! --test cli`): one module per command or subject, each running the built binary.

mod cli_analyse;
mod cli_bounds;
mod cli_examples;
mod cli_export;
mod cli_game_analyse;
mod cli_game_play;
mod cli_games;
mod cli_map;
mod cli_pipes;
mod cli_play;
mod cli_players;
mod cli_puzzle;
mod cli_simulate;
mod cli_verify;
mod pty_play;
mod readme_commands;
mod stats_cli;
mod support;
