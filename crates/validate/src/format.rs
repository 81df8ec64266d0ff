//! The string formats the validator checks. A format it does not know is accepted: a
//! designation is a refinement, and its absence (or ignorance of it) means what it meant before.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A `format` this build checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// RFC 3339 `date-time`: `2026-12-01T19:18:52Z`, `…52.5+01:00`; `T` and `Z` in either case.
    DateTime,
    /// RFC 3339 `full-date`: `2026-12-01`, with a day that exists in that month.
    Date,
    /// RFC 3339 `full-time`: `19:18:52Z`, `19:18:52.5+01:00`.
    Time,
    /// RFC 4122 text form: 8-4-4-4-12 hexadecimal digits, either case.
    Uuid,
    /// An RFC 3986 URI: a scheme, `:`, then URI characters and `%XX` escapes only.
    Uri,
    /// Dotted-quad IPv4, no leading zeros (as `std::net` parses it).
    Ipv4,
    /// IPv6 text form (as `std::net` parses it).
    Ipv6,
    /// One or more hexadecimal digits, optionally after `0x`.
    Hex,
}

impl Format {
    /// Every format this build checks.
    pub const ALL: [Format; 8] = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Uuid,
        Format::Uri,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hex,
    ];

    /// The format's name as written in a contract.
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hex => "hex",
        }
    }

    /// The format named `name`, if this build checks it.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether `text` is in this format.
    pub fn check(self, text: &str) -> bool {
        match self {
            Format::DateTime => date_time(text),
            Format::Date => date(text.as_bytes()),
            Format::Time => time(text.as_bytes()),
            Format::Uuid => uuid(text.as_bytes()),
            Format::Uri => uri(text),
            Format::Ipv4 => text.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => text.parse::<Ipv6Addr>().is_ok(),
            Format::Hex => {
                let digits = text.strip_prefix("0x").unwrap_or(text);
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit())
            }
        }
    }
}

fn digits(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(bytes.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
}

fn date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(s)) = (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8])) else {
        return false;
    };
    // 60 allows a leap second, as RFC 3339 does.
    if h > 23 || m > 59 || s > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', oh1, oh2, b':', om1, om2] => {
            matches!((digits(&[*oh1, *oh2]), digits(&[*om1, *om2])), (Some(oh), Some(om)) if oh <= 23 && om <= 59)
        }
        _ => false,
    }
}

fn date_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && date(&b[..10]) && time(&b[11..])
}

fn uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.bytes();
    if !scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        || !scheme_chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    {
        return false;
    }
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !(b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit())
                {
                    return false;
                }
                i += 3;
            }
            c if c.is_ascii_alphanumeric() => i += 1,
            b'-' | b'.' | b'_' | b'~' | b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@' | b'!'
            | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => i += 1,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::Format::{self, *};

    fn ok(f: Format, yes: &[&str], no: &[&str]) {
        for y in yes {
            assert!(f.check(y), "{} should accept {y:?}", f.name());
        }
        for n in no {
            assert!(!f.check(n), "{} should refuse {n:?}", f.name());
        }
    }

    #[test]
    fn formats() {
        ok(
            DateTime,
            &["2026-12-01T19:18:52Z", "2024-02-29t00:00:00.125+01:30"],
            &[
                "2026-12-01 19:18:52Z",
                "2023-02-29T00:00:00Z",
                "2026-12-01T24:00:00Z",
                "2026-12-01T19:18:52",
            ],
        );
        ok(Date, &["2000-02-29", "2026-12-31"], &["1900-02-29", "2026-13-01", "2026-1-01"]);
        ok(Time, &["23:59:60Z", "00:00:00.5-05:00"], &["24:00:00Z", "12:00:00", "12:00:00.Z"]);
        ok(Uuid, &["123e4567-e89b-12d3-a456-426614174000"], &["123e4567e89b12d3a456426614174000"]);
        ok(
            Uri,
            &["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c"],
            &["example.com", "1http://x", "http://a b", "http://x/%zz", "http://x/%4"],
        );
        ok(Ipv4, &["192.168.0.1"], &["256.1.1.1", "01.2.3.4"]);
        ok(Ipv6, &["::1", "2001:db8::8a2e:370:7334"], &["2001:db8::g"]);
        ok(Hex, &["0xdeadBEEF", "00ff"], &["0x", "", "0xg"]);
    }
}
