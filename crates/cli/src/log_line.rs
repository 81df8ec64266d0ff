//! The text request log of `accord serve`: one line per event,
//! `2026-12-02T00:23:36.030558Z  INFO call transport=http method=bench.ping id=1 micros=7`,
//! values bare when they are plain words and quoted when they hold a space, a quote, `=` or a
//! control character, as logfmt readers expect. Quoted values use JSON's escapes (`\"`, `\\`,
//! `\n`, `\t`, and `\u001b` for every other control character and bidirectional override, as
//! `escape_controls` writes them for every message): a method name or an id sent by a peer
//! cannot drive the terminal the log is read on.
//!
//! Why not tracing-subscriber's own text format: every request writes a line, and that format
//! spends more per line than the rest of a small request's work outside the kernel (the full
//! date formatted each time, every value through `Debug`, so string ids come out as `"\"a\""`).
//! This one writes the date in one piece and strings and integers as they are. Spans are not
//! written: accord serve opens none.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

use crate::diagnostic::escape_controls;

/// The event format (tracing-subscriber's [`FormatEvent`]).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct LogLine;

impl<S, N> FormatEvent<S, N> for LogLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write_time(&mut writer, SystemTime::now())?;
        writer.write_str(level_column(*event.metadata().level()))?;
        let scratch = SCRATCH.with_borrow_mut(std::mem::take);
        let mut fields = Fields { writer: &mut writer, result: Ok(()), scratch };
        event.record(&mut fields);
        let Fields { result, mut scratch, .. } = fields;
        if scratch.capacity() > 4096 {
            // One long value (a reason quoting a body) is not kept for the life of the thread.
            scratch = String::new();
        }
        SCRATCH.set(scratch);
        result?;
        writer.write_char('\n')
    }
}

thread_local! {
    /// The scratch buffer of the events written on this thread, kept so that a line with a
    /// `Display` or `Debug` value (every request's line has one) allocates nothing.
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// The level between spaces, padded to five as tracing-subscriber does: ` INFO`, `ERROR`.
fn level_column(level: Level) -> &'static str {
    match level {
        Level::ERROR => " ERROR ",
        Level::WARN => "  WARN ",
        Level::INFO => "  INFO ",
        Level::DEBUG => " DEBUG ",
        Level::TRACE => " TRACE ",
    }
}

/// The date and time up to the second's `.`, made again only when the second changes: every
/// request writes a time, and formatting a date each time was most of a line's cost.
struct Clock {
    second: Option<u64>,
    prefix: String,
}

thread_local! {
    static CLOCK: std::cell::RefCell<Clock> =
        const { std::cell::RefCell::new(Clock { second: None, prefix: String::new() }) };
}

/// RFC 3339 in UTC with microseconds, `2026-12-02T00:23:36.030558Z` (humantime's digits for
/// the second, then the microseconds).
fn write_time(writer: &mut Writer<'_>, now: SystemTime) -> fmt::Result {
    // A clock before 1970 is written as 1970 rather than not at all.
    let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    CLOCK.with_borrow_mut(|clock| {
        let second = since.as_secs();
        if clock.second != Some(second) {
            clock.prefix.clear();
            let whole = UNIX_EPOCH + Duration::from_secs(second);
            write!(clock.prefix, "{}", humantime::format_rfc3339_seconds(whole))?;
            // `2026-12-02T00:23:36Z` without its `Z`, and the point the microseconds follow.
            clock.prefix.pop();
            clock.prefix.push('.');
            clock.second = Some(second);
        }
        writer.write_str(&clock.prefix)?;
        let micros = since.subsec_micros();
        let mut digits = *b"000000Z";
        let mut rest = micros;
        for digit in digits[..6].iter_mut().rev() {
            *digit = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        // Only ASCII digits and `Z` were written.
        writer.write_str(std::str::from_utf8(&digits).map_err(|_| fmt::Error)?)
    })
}

struct Fields<'w, 'a> {
    writer: &'w mut Writer<'a>,
    result: fmt::Result,
    /// Where a `Debug` value is formatted before it is written, to see whether to quote it.
    scratch: String,
}

impl Fields<'_, '_> {
    fn write(&mut self, field: &Field, value: &str) {
        if self.result.is_err() {
            return;
        }
        self.result = if field.name() == "message" {
            self.writer.write_str(&escape_controls(value))
        } else if is_plain(value) {
            self.name(field).and_then(|()| self.writer.write_str(value))
        } else {
            self.name(field).and_then(|()| write_quoted(self.writer, value))
        };
    }

    /// ` name=`, before a value.
    fn name(&mut self, field: &Field) -> fmt::Result {
        self.writer.write_char(' ')?;
        self.writer.write_str(field.name())?;
        self.writer.write_char('=')
    }

    /// A value that is never quoted: a number, a boolean.
    fn write_bare(&mut self, field: &Field, value: &str) {
        if self.result.is_ok() {
            self.result = self.name(field).and_then(|()| self.writer.write_str(value));
        }
    }
}

/// A value that a logfmt reader reads back bare, and that holds nothing `escape_controls`
/// would write out.
fn is_plain(value: &str) -> bool {
    !value.is_empty()
        && !value.chars().any(|c| c == ' ' || c == '"' || c == '=' || c == '\\' || c.is_control())
        && matches!(escape_controls(value), Cow::Borrowed(_))
}

/// `value` in quotes: `"` and `\` escaped, line feeds and tabs as `\n` and `\t` (a log line is
/// one line), the other controls as `escape_controls` writes them.
fn write_quoted(writer: &mut Writer<'_>, value: &str) -> fmt::Result {
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    writer.write_str(&escape_controls(&quoted))
}

impl Visit for Fields<'_, '_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.write(field, value);
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.write_bare(field, itoa::Buffer::new().format(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.write_bare(field, itoa::Buffer::new().format(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.write_bare(field, if value { "true" } else { "false" });
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        if write!(scratch, "{value:?}").is_ok() {
            self.write(field, &scratch);
        }
        self.scratch = scratch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `events` writes, through a real subscriber with this format.
    fn lines(events: impl FnOnce()) -> String {
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || Sink(sink.clone()))
            .event_format(LogLine)
            .finish();
        tracing::subscriber::with_default(subscriber, events);
        String::from_utf8(out.lock().unwrap().clone()).unwrap()
    }

    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_plain_values_bare_and_quotes_the_rest() {
        let text = lines(|| {
            let method = "bench.ping";
            tracing::info!(transport = "http", method = %method, id = "1", code = -32601_i64, micros = 7_u64, "call");
            tracing::warn!(id = "\"a b\"", reason = "", ok = true, "odd values");
            tracing::error!(what = ?vec![1, 2], "debug value");
        });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        // The time is RFC 3339 with microseconds: `2026-12-02T00:23:36.030558Z`.
        for line in &lines {
            let (time, _) = line.split_once(' ').unwrap();
            assert_eq!(time.len(), 27, "{line}");
            assert!(time.ends_with('Z') && time.as_bytes()[10] == b'T', "{line}");
        }
        let rest: Vec<&str> = lines.iter().map(|l| &l[28..]).collect();
        assert_eq!(
            rest,
            [
                " INFO call transport=http method=bench.ping id=1 code=-32601 micros=7",
                " WARN odd values id=\"\\\"a b\\\"\" reason=\"\" ok=true",
                "ERROR debug value what=\"[1, 2]\"",
            ]
        );
    }

    #[test]
    fn control_characters_and_bidi_overrides_are_written_out() {
        let text = lines(|| {
            let method = "pump.go\u{1b}[2J";
            tracing::info!(method = %method, id = "a\u{202e}b", note = "x\ny", "call \u{7}");
        });
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{202e}'));
        assert!(
            text.ends_with(
                " INFO call \\u0007 method=\"pump.go\\u001b[2J\" id=\"a\\u202eb\" note=\"x\\ny\"\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_time_is_rfc_3339_in_utc_with_microseconds() {
        let mut text = String::new();
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_micros(1_764_634_996_030_558);
        write_time(&mut Writer::new(&mut text), at).unwrap();
        assert_eq!(text, "2025-12-02T00:23:16.030558Z");
    }

    #[test]
    fn the_time_follows_the_clock_across_seconds_and_keeps_leading_zeros() {
        let start = std::time::UNIX_EPOCH + std::time::Duration::from_micros(1_764_634_996_000_007);
        let times = [0, 999_992, 999_993, 86_400_000_000].map(|later| {
            let mut text = String::new();
            let at = start + std::time::Duration::from_micros(later);
            write_time(&mut Writer::new(&mut text), at).unwrap();
            text
        });
        assert_eq!(
            times,
            [
                "2025-12-02T00:23:16.000007Z",
                "2025-12-02T00:23:16.999999Z",
                "2025-12-02T00:23:17.000000Z",
                "2025-12-03T00:23:16.000007Z",
            ]
        );
    }
}
