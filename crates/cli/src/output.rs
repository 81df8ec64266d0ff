//! Writing results to stdout, never with `print!` (which panics when stdout fails).
//!
//! Two failures, two answers. A closed pipe (`accord rules | head -1`) means the reader has
//! what it wanted: the output ends quietly and the command exits with its own outcome, as
//! ripgrep and other command-line tools do. Any other failure (`>/dev/full`: no space, an I/O
//! error) means the output was lost: the reason goes to stderr and the command exits 2.
//! `accord serve` is stricter about its banner (serve.rs): the banner is the only place the
//! URL is told, so there a closed pipe is a failure too.

use std::io::{ErrorKind, Write};

/// Writes `text` to stdout. Returns false only when stdout failed for another reason than a
/// closed pipe (the message is on stderr).
pub(crate) fn print(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    check(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// Writes `text` to stdout; any failure, a closed pipe included, is the error.
pub(crate) fn print_strict(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Output written piece by piece (`accord sample`'s values, one line each): a closed pipe
/// stops the writing early, so `accord sample … --count 1000000 | head -1` ends at once.
pub(crate) struct Lines {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

/// Whether to go on writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// The line is written (or buffered).
    More,
    /// The reader is gone (a closed pipe): stop, quietly.
    Closed,
    /// Stdout failed (the message is on stderr).
    Failed,
}

impl Lines {
    pub(crate) fn new() -> Lines {
        Lines { out: std::io::BufWriter::new(std::io::stdout().lock()) }
    }

    /// Writes one line (a newline is added).
    pub(crate) fn line(&mut self, text: &str) -> Written {
        let result = self.out.write_all(text.as_bytes()).and_then(|()| self.out.write_all(b"\n"));
        written(result)
    }

    /// Flushes what is buffered: true unless stdout failed for another reason than a closed
    /// pipe.
    pub(crate) fn finish(mut self) -> bool {
        check(self.out.flush())
    }
}

fn written(result: std::io::Result<()>) -> Written {
    match result {
        Ok(()) => Written::More,
        Err(err) if err.kind() == ErrorKind::BrokenPipe => Written::Closed,
        Err(err) => {
            eprintln!("error: cannot write to stdout: {err}");
            Written::Failed
        }
    }
}

/// Whether a write to stdout went well enough: true unless it failed for another reason than a
/// closed pipe (the message is then on stderr).
pub(crate) fn check(result: std::io::Result<()>) -> bool {
    written(result) != Written::Failed
}

/// `1 method`, `2 methods`, `1 entry`, `3 entries`: a count with its noun, plural when the count
/// is not one.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn counts_take_the_plural_unless_one() {
        assert_eq!(plural(1, "namespace"), "1 namespace");
        assert_eq!(plural(0, "method"), "0 methods");
        assert_eq!(plural(1, "entry"), "1 entry");
        assert_eq!(plural(2, "entry"), "2 entries");
        assert_eq!(plural(2, "day"), "2 days");
    }
}
