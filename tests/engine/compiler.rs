//! The C compiler the tests build with, shared by the engine's tests and
//! tictable-games' (`games/tests/games/main.rs` includes this file by path).

use std::process::{Command, Stdio};

/// The C compiler: `$CC`, else `gcc`, else `cc`; panics with what to install when there
/// is none.
pub fn compiler() -> String {
    let candidates = std::env::var("CC")
        .into_iter()
        .chain(["gcc".into(), "cc".into()]);
    for cc in candidates {
        let found = Command::new(&cc)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if found {
            return cc;
        }
    }
    panic!("no C compiler ($CC, gcc or cc): install one (apt-get install gcc) or set CC");
}
