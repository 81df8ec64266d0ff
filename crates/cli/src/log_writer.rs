//! The request log's writer for `accord serve`: lines are appended to a buffer in memory and a
//! background thread writes the buffer to stderr every 50 ms, so a request costs neither a
//! system call nor a thread wake-up, and a stderr that blocks (a full pipe) never holds up a
//! request: past 1 MiB waiting, lines are dropped and the drop is reported.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How much log may wait in memory before lines are dropped.
const CAPACITY: usize = 1 << 20;
/// How often the buffer is written out.
const EVERY: Duration = Duration::from_millis(50);

#[derive(Default)]
struct Shared {
    buffer: Mutex<Vec<u8>>,
    dropped: AtomicU64,
}

/// A clonable writer into the shared buffer (tracing's `MakeWriter` for the log).
#[derive(Clone, Default)]
pub(crate) struct BatchedStderr(Arc<Shared>);

impl BatchedStderr {
    /// A writer whose buffer a background thread writes out every 50 ms.
    pub(crate) fn start() -> BatchedStderr {
        let writer = BatchedStderr::default();
        let flusher = writer.clone();
        std::thread::spawn(move || {
            // Swapped with the shared buffer at each flush, so that both keep their capacity
            // and a busy log does not grow a new buffer from nothing every 50 ms.
            let mut spare = Vec::new();
            loop {
                std::thread::sleep(EVERY);
                flusher.flush_through(&mut spare);
            }
        });
        writer
    }

    /// Writes out what is buffered (and how many lines were dropped, if any), waiting at most
    /// `limit` for stderr to take it: a stderr that blocks (a full pipe nobody reads) must not
    /// hold the process at exit, so past the limit the rest is dropped unwritten. True when
    /// everything was written.
    pub(crate) fn flush_within(&self, limit: Duration) -> bool {
        let writer = self.clone();
        let (done, finished) = std::sync::mpsc::channel();
        // The write happens on a thread of its own, left blocked if stderr never takes it; the
        // process exits without it.
        let spawned = std::thread::Builder::new().name("log-flush".into()).spawn(move || {
            writer.flush_through(&mut Vec::new());
            let _ = done.send(());
        });
        spawned.is_ok() && finished.recv_timeout(limit).is_ok()
    }

    /// Writes out what is buffered, taking it by swapping it with `spare` (left empty).
    fn flush_through(&self, spare: &mut Vec<u8>) {
        spare.clear();
        std::mem::swap(&mut *self.0.buffer.lock().unwrap_or_else(PoisonError::into_inner), spare);
        let mut stderr = std::io::stderr().lock();
        // Lines quote what peers sent (method names, ids, reasons). The text format escapes
        // them itself; the JSON format (serde_json) leaves DEL, C1 controls and bidirectional
        // overrides as they are, so every line is written out through `escape_controls`, which
        // writes them as JSON escapes (`\u009b`): the JSON stays the same JSON. Writes are whole
        // lines, so the buffer is whole UTF-8.
        {
            let text = String::from_utf8_lossy(spare);
            let _ = stderr.write_all(crate::diagnostic::escape_controls(&text).as_bytes());
        }
        spare.clear();
        let dropped = self.0.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            let _ = writeln!(
                stderr,
                "accord serve: {dropped} log lines dropped (stderr did not keep up)"
            );
        }
        let _ = stderr.flush();
    }
}

impl Write for BatchedStderr {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut buffer = self.0.buffer.lock().unwrap_or_else(PoisonError::into_inner);
        if buffer.len() + bytes.len() > CAPACITY {
            self.0.dropped.fetch_add(1, Ordering::Relaxed);
        } else {
            buffer.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
