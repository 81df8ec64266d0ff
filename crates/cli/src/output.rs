//! Writing results to stdout. A closed pipe (`accord inspect … | head`) ends the output
//! quietly, as other command-line tools do, instead of a panic from `print!`.

use std::io::{ErrorKind, Write};

/// Writes `text` to stdout. Returns false only when stdout failed for another reason than a
/// closed pipe (the message is on stderr).
pub(crate) fn print(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(err) if err.kind() == ErrorKind::BrokenPipe => true,
        Err(err) => {
            eprintln!("error: cannot write to stdout: {err}");
            false
        }
    }
}
