//! The end of a command's output, and the exit status every subcommand gives when its
//! output cannot be written (docs/cli.md, "Exit status"):
//!
//! - a reader that went away (`tictable map | head` closes the pipe early) ends the
//!   program quietly and successfully, as Unix tools end;
//! - every other write error (a full disk, `> /dev/full`, a file that cannot be
//!   created) prints `tictable: cannot write WHERE: REASON` on stderr and exits with
//!   [`WRITE_FAILED`], whatever the subcommand.

use std::io::{self, Write};
use std::process::ExitCode;

/// The exit status of a write error: 74, `EX_IOERR` of BSD's `sysexits.h` ("an error
/// occurred while doing I/O on some file"), told apart from 1 (a check failed) and 2
/// (bad arguments or input).
pub const WRITE_FAILED: u8 = 74;

/// `result`, with a closed pipe (the reader went away) taken as success.
pub fn closed_is_done(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// Says on stderr that `what` (`stdout`, a file name) could not be written, and
/// gives the exit status of a write error ([`WRITE_FAILED`]).
pub fn write_failed(what: &str, e: &io::Error) -> ExitCode {
    eprintln!("tictable: cannot write {what}: {e}");
    ExitCode::from(WRITE_FAILED)
}

/// The exit status of a finished write to stdout: success, also on a closed pipe;
/// otherwise the message and [`WRITE_FAILED`].
pub fn finish(result: io::Result<()>) -> ExitCode {
    match closed_is_done(result) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed("stdout", &e),
    }
}

/// Writes `bytes` to stdout, unchanged (a table may be binary), and flushes; a
/// closed pipe counts as written.
pub fn print(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    closed_is_done(out.write_all(bytes).and_then(|()| out.flush()))
}

/// Writes `text` to stdout with its styles (bold, colours) kept for a terminal and
/// stripped otherwise or under `NO_COLOR`, and flushes; a closed pipe counts as
/// written.
pub fn print_styled(text: &str) -> io::Result<()> {
    let mut out = anstream::AutoStream::auto(io::stdout().lock());
    closed_is_done(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// A writer that remembers its first error and writes nothing after it (a closed
/// pipe stops the writing too), for output written in pieces while work goes on.
pub struct Tally<W: Write> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: Write> Tally<W> {
    /// A tally of writes to `inner`.
    pub fn new(inner: W) -> Self {
        Tally { inner, error: None }
    }

    /// Writes `text` and flushes, unless an earlier write failed.
    pub fn put(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self
                .inner
                .write_all(text.as_bytes())
                .and_then(|()| self.inner.flush())
            {
                self.error = Some(e);
            }
        }
    }

    /// The first error, if any (a closed pipe included: see [`closed_is_done`]).
    pub fn result(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_closed_pipe_is_done() {
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(closed_is_done(Err(pipe)).is_ok());
        let full = io::Error::from(io::ErrorKind::StorageFull);
        assert_eq!(
            closed_is_done(Err(full)).map_err(|e| e.kind()),
            Err(io::ErrorKind::StorageFull)
        );
    }

    #[test]
    fn a_tally_keeps_the_first_error_and_stops_writing() {
        struct Full(usize);
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                self.0 += 1;
                Err(io::ErrorKind::StorageFull.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut t = Tally::new(Full(0));
        t.put("a");
        t.put("b");
        assert_eq!(t.inner.0, 1, "nothing written after the first error");
        assert_eq!(
            t.result().map_err(|e| e.kind()),
            Err(io::ErrorKind::StorageFull)
        );
    }
}
