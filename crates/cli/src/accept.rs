//! `accord check --accept FILE`: breaks a team has decided to ship, keyed by rule id and path
//! (never by message text).
//!
//! ```json
//! {"version": 1, "accept": [{"rule": "bound-tightened", "path": "pump.start.params.rampTime",
//!   "reason": "…", "expires": "2027-01-31"}]}
//! ```
//!
//! `path` may end in `*` (a prefix match); `reason` is required; `expires` (optional,
//! `YYYY-MM-DD`) is the last day the entry accepts anything, compared with today's UTC date.
//! A malformed file is an input error naming what is wrong and where.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use accord_compat_diff::Finding;
use accord_schema_model::{Pointer, SourceMap};
use serde_json::Value;

/// A calendar date (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Date {
    pub(crate) year: i64,
    pub(crate) month: u32,
    pub(crate) day: u32,
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Date {
    /// Reads `YYYY-MM-DD`, refusing days that do not exist (`2027-02-30`).
    pub(crate) fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let digits = |r: std::ops::Range<usize>| -> Option<u32> {
            let s = &text[r];
            if s.bytes().all(|c| c.is_ascii_digit()) { s.parse().ok() } else { None }
        };
        let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        let date = Date { year: i64::from(year), month, day };
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(date.year, month) {
            return None;
        }
        Some(date)
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    pub(crate) fn from_days(days: i64) -> Date {
        // Howard Hinnant's civil_from_days: eras of 400 years (146,097 days) starting in March.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097); // [0, 146096]
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
        let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
        let day = doy - (153 * mp + 2) / 5 + 1; // [1, 31]
        let month = if mp < 10 { mp + 3 } else { mp - 9 }; // [1, 12]
        let year = yoe + era * 400 + i64::from(month <= 2);
        // Both are in range by construction.
        Date { year, month: month as u32, day: day as u32 }
    }

    /// Today's date in UTC, from the system clock.
    pub(crate) fn today_utc() -> Date {
        let secs = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
            Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
        };
        Date::from_days(secs.div_euclid(86_400))
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// One entry of an accept file.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) rule: String,
    pub(crate) path: String,
    pub(crate) reason: String,
    pub(crate) expires: Option<Date>,
    /// `FILE:LINE:COL` of the entry in the accept file.
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl Entry {
    /// Whether this entry names `finding`: the same rule id, and the same path (or, for a path
    /// ending in `*`, a path starting with what precedes the `*`).
    pub(crate) fn matches(&self, finding: &Finding) -> bool {
        if self.rule != finding.rule {
            return false;
        }
        match self.path.strip_suffix('*') {
            Some(prefix) => finding.path.starts_with(prefix),
            None => self.path == finding.path,
        }
    }

    /// Whether the entry expired before `today` (`expires` is the last day it counts).
    pub(crate) fn expired(&self, today: Date) -> bool {
        self.expires.is_some_and(|e| e < today)
    }

    /// How the entry is named in findings: `rule path`.
    pub(crate) fn name(&self) -> String {
        format!("{} {}", self.rule, self.path)
    }
}

/// Reads the accept file at `path`; on any problem prints it (with its place) and returns None.
pub(crate) fn load(path: &Path) -> Option<Vec<Entry>> {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            crate::diagnostic::print_io_error(path, &err);
            return None;
        }
    };
    match parse(&file, &text) {
        Ok(entries) => Some(entries),
        Err(message) => {
            eprintln!("error: {message}");
            None
        }
    }
}

/// Reads an accept file's text; the error names the file, line, column and what is wrong.
pub(crate) fn parse(file: &str, text: &str) -> Result<Vec<Entry>, String> {
    // The model's strict JSON: a duplicate key would silently drop an entry or its expiry.
    let value: Value = accord_schema_model::parse_json(text).map_err(|err| {
        let (line, column) = err.position.map_or((1, 1), |p| (p.line, p.column));
        format!(
            "{file}:{line}:{column}: the accept file is not JSON as accord reads it: {}",
            err.kind
        )
    })?;
    let map = SourceMap::new(text);
    let at = |pointer: &Pointer| -> (usize, usize) {
        map.locate(pointer).map_or((1, 1), |l| {
            let p = map.position(l.label().start);
            (p.line, p.column)
        })
    };
    let fail = |pointer: &Pointer, what: &str| -> String {
        let (line, col) = at(pointer);
        let place =
            if pointer.is_root() { String::new() } else { format!(" (at {})", pointer.as_str()) };
        format!("{file}:{line}:{col}: {what}{place}")
    };
    let root = Pointer::root();
    let Some(top) = value.as_object() else {
        return Err(fail(
            &root,
            "the accept file must be an object {\"version\": 1, \"accept\": [...]}",
        ));
    };
    for key in top.keys() {
        if key != "version" && key != "accept" {
            return Err(fail(
                &root.key(key),
                &format!("unknown member `{key}` (expected `version` and `accept`)"),
            ));
        }
    }
    match top.get("version") {
        Some(v) if v.as_u64() == Some(1) => {}
        Some(v) => {
            return Err(fail(
                &root.key("version"),
                &format!("unsupported accept file version {v} (expected 1)"),
            ));
        }
        None => return Err(fail(&root, "missing `version` (expected 1)")),
    }
    let list_ptr = root.key("accept");
    let list = match top.get("accept") {
        Some(Value::Array(list)) => list,
        Some(_) => return Err(fail(&list_ptr, "`accept` must be an array of entries")),
        None => return Err(fail(&root, "missing `accept` (an array of entries)")),
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let ptr = list_ptr.index(i);
        let Some(obj) = item.as_object() else {
            return Err(fail(&ptr, &format!("accept entry {i} must be an object")));
        };
        for key in obj.keys() {
            if !matches!(key.as_str(), "rule" | "path" | "reason" | "expires") {
                return Err(fail(
                    &ptr.key(key),
                    &format!(
                        "accept entry {i}: unknown member `{key}` (expected rule, path, reason, expires)"
                    ),
                ));
            }
        }
        let string = |key: &str| -> Result<Option<String>, String> {
            match obj.get(key) {
                None => Ok(None),
                Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
                Some(_) => Err(fail(
                    &ptr.key(key),
                    &format!("accept entry {i}: `{key}` must be a non-empty string"),
                )),
            }
        };
        let required = |key: &str| -> Result<String, String> {
            string(key)?.ok_or_else(|| fail(&ptr, &format!("accept entry {i}: missing `{key}`")))
        };
        let rule = required("rule")?;
        if accord_compat_diff::rule(&rule).is_none() {
            return Err(fail(
                &ptr.key("rule"),
                &format!(
                    "accept entry {i}: `{rule}` is not a compatibility rule (see `accord rules`)"
                ),
            ));
        }
        let path = required("path")?;
        if path.strip_suffix('*').unwrap_or(&path).contains('*') {
            return Err(fail(
                &ptr.key("path"),
                &format!("accept entry {i}: `*` may only end a path"),
            ));
        }
        let reason = required("reason")?;
        let expires = match string("expires")? {
            None => None,
            Some(s) => Some(Date::parse(&s).ok_or_else(|| {
                fail(
                    &ptr.key("expires"),
                    &format!("accept entry {i}: `expires` must be a date YYYY-MM-DD, not `{s}`"),
                )
            })?),
        };
        let (line, column) = at(&ptr);
        out.push(Entry { rule, path, reason, expires, file: file.to_owned(), line, column });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(year: i64, month: u32, day: u32) -> Date {
        Date { year, month, day }
    }

    #[test]
    fn civil_from_days_matches_known_dates() {
        assert_eq!(Date::from_days(0), d(1970, 1, 1));
        assert_eq!(Date::from_days(-1), d(1969, 12, 31));
        assert_eq!(Date::from_days(59), d(1970, 3, 1));
        assert_eq!(Date::from_days(10_957), d(2000, 1, 1));
        assert_eq!(Date::from_days(11_016), d(2000, 2, 29));
        assert_eq!(Date::from_days(11_017), d(2000, 3, 1));
        assert_eq!(Date::from_days(19_782), d(2024, 2, 29));
        assert_eq!(Date::from_days(20_484), d(2026, 1, 31));
        assert_eq!(Date::from_days(-719_468), d(0, 3, 1));
    }

    #[test]
    fn civil_from_days_walks_every_day_in_order() {
        // Consecutive days from 1900 to 2400: each the successor of the one before.
        let mut prev = Date::from_days(-25_567);
        assert_eq!(prev, d(1900, 1, 1));
        for n in -25_566..157_000 {
            let next = Date::from_days(n);
            let expected = if prev.day < days_in_month(prev.year, prev.month) {
                d(prev.year, prev.month, prev.day + 1)
            } else if prev.month < 12 {
                d(prev.year, prev.month + 1, 1)
            } else {
                d(prev.year + 1, 1, 1)
            };
            assert_eq!(next, expected, "day {n}");
            prev = next;
        }
    }

    #[test]
    fn today_is_after_2025() {
        assert!(Date::today_utc() > d(2025, 1, 1));
    }

    #[test]
    fn dates_parse_strictly() {
        assert_eq!(Date::parse("2027-01-31"), Some(d(2027, 1, 31)));
        assert_eq!(Date::parse("2028-02-29"), Some(d(2028, 2, 29)));
        for bad in ["2027-02-29", "2027-13-01", "2027-1-31", "2027/01/31", "+027-01-31", ""] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn errors_name_the_place() {
        let text = "{\"version\": 1, \"accept\": [\n  {\"rule\": \"bound-tightened\", \"path\": \"a.b\"}\n]}";
        let err = parse("a.json", text).unwrap_err();
        assert!(err.starts_with("a.json:2:3: accept entry 0: missing `reason`"), "{err}");
        let text = "{\"version\": 1, \"accept\": [\n  {\"rule\": \"no-such\", \"path\": \"a\", \"reason\": \"r\"}]}";
        let err = parse("a.json", text).unwrap_err();
        assert!(err.starts_with("a.json:2:4: accept entry 0: `no-such`"), "{err}");
        let err = parse("a.json", "{\"version\": 1,").unwrap_err();
        assert!(err.starts_with("a.json:1:"), "{err}");
        // A second `expires` would silently replace the first with a plain JSON parser.
        let text = "{\"version\": 1, \"accept\": [\n  {\"rule\": \"bound-tightened\", \"path\": \"a\", \"reason\": \"r\", \"expires\": \"2027-01-01\", \"expires\": \"2099-01-01\"}]}";
        let err = parse("a.json", text).unwrap_err();
        assert!(err.starts_with("a.json:2:") && err.contains("duplicate key `expires`"), "{err}");
    }
}
