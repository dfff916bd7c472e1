//! The end of a command's output on stdout: a reader that went away (`tictable map
//! | head` closes the pipe early) ends the program quietly and successfully, as Unix
//! tools end; every other write error is still an error.

use std::io::{self, Write};

/// `result`, with a closed pipe (the reader went away) taken as success.
pub fn closed_is_done(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
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
}
