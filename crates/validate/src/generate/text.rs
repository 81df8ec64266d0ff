//! Strings: plain text of a length, text in a format, and text matching a pattern (sampled by
//! rand_regex from the parsed pattern with its anchors removed and its large classes narrowed
//! to printable ASCII, so `\w` gives `k`, not a Tamil letter). Every candidate is checked
//! against all of the string's rules; the first that passes is kept.

use std::net::Ipv6Addr;
use std::string::FromUtf8Error;

use rand::distr::Distribution;
use regex_syntax::hir::{
    self, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
};

use super::dice::Dice;
use crate::Format;
use crate::checks;
use crate::program::Text;

pub(crate) use crate::budget::MAX_LENGTH;

/// Candidates tried per string before giving up.
const TRIES: usize = 96;

/// Unicode classes with more characters than this are narrowed to printable ASCII.
const SMALL_CLASS: u32 = 256;

/// Samplers for one pattern, each with a different cap on open repetitions (`*`, `+`, `{n,}`),
/// so that both short strings and strings long enough for a `minLength` come out.
#[derive(Debug, Clone)]
pub(crate) struct PatternSampler {
    variants: Vec<rand_regex::Regex>,
    /// The shortest, smallest text the pattern matches (the static value), when it is short.
    pub(crate) least: Option<String>,
}

impl PatternSampler {
    pub(crate) fn new(pattern: &str, rules: &Text) -> Result<PatternSampler, String> {
        let parsed = regex_syntax::ParserBuilder::new()
            .build()
            .parse(pattern)
            .map_err(|e| format!("the pattern does not parse: {e}"))?;
        let tamed = tame(parsed);
        let least = super::fixed::least_match(&tamed, MAX_LENGTH.min(4096) as usize);
        let min = rules.min_length.unwrap_or(0).min(MAX_LENGTH);
        let mut repeats = vec![2, 8, min.saturating_add(4).min(1024)];
        if let Some(max) = rules.max_length {
            repeats.push(max.min(256));
        }
        repeats.sort_unstable();
        repeats.dedup();
        let variants = repeats
            .into_iter()
            .map(|r| rand_regex::Regex::with_hir(tamed.clone(), r as u32))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("no string can be sampled from the pattern: {e}"))?;
        Ok(PatternSampler { variants, least })
    }

    fn sample(&self, dice: &mut Dice) -> Option<String> {
        let variant = &self.variants[dice.index(self.variants.len())];
        let sampled: Result<String, FromUtf8Error> = variant.sample(dice.rng());
        sampled.ok()
    }
}

/// The pattern without anchors or word boundaries (rand_regex samples none; the candidate is
/// checked against the real pattern afterwards), and with large classes narrowed.
fn tame(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Empty | HirKind::Look(_) => Hir::empty(),
        HirKind::Literal(lit) => Hir::literal(lit.0),
        HirKind::Class(Class::Unicode(class)) => Hir::class(Class::Unicode(narrow_unicode(class))),
        HirKind::Class(Class::Bytes(class)) => Hir::class(Class::Bytes(narrow_bytes(class))),
        HirKind::Repetition(rep) => Hir::repetition(hir::Repetition {
            min: rep.min,
            max: rep.max,
            greedy: rep.greedy,
            sub: Box::new(tame(*rep.sub)),
        }),
        HirKind::Capture(cap) => Hir::capture(hir::Capture {
            index: cap.index,
            name: cap.name,
            sub: Box::new(tame(*cap.sub)),
        }),
        HirKind::Concat(all) => Hir::concat(all.into_iter().map(tame).collect()),
        HirKind::Alternation(all) => Hir::alternation(all.into_iter().map(tame).collect()),
    }
}

fn narrow_unicode(class: ClassUnicode) -> ClassUnicode {
    let size: u32 =
        class.ranges().iter().map(|r| u32::from(r.end()) - u32::from(r.start()) + 1).sum();
    if size <= SMALL_CLASS {
        return class;
    }
    let mut ascii = ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]);
    ascii.intersect(&class);
    if ascii.ranges().is_empty() { class } else { ascii }
}

fn narrow_bytes(class: ClassBytes) -> ClassBytes {
    for (lo, hi) in [(b' ', b'~'), (0, 0x7f)] {
        let mut narrowed = ClassBytes::new([ClassBytesRange::new(lo, hi)]);
        narrowed.intersect(&class);
        if !narrowed.ranges().is_empty() {
            return narrowed;
        }
    }
    class
}

/// A string that satisfies every rule of `rules`, or why none was found.
pub(crate) fn string(
    rules: &Text,
    sampler: Option<&Result<PatternSampler, String>>,
    dice: &mut Dice,
) -> Result<String, String> {
    // Every rule is named here, so a new one does not compile until it is handled.
    let Text { min_length, max_length, ref pattern, format } = *rules;
    let min = min_length.unwrap_or(0);
    let max = max_length;
    if min > MAX_LENGTH {
        return Err(format!(
            "minLength {min} is more than the {MAX_LENGTH} characters the generator writes"
        ));
    }
    if let Some(max) = max
        && max < min
    {
        return Err(format!("minLength {min} is more than maxLength {max}"));
    }
    let passes = |s: &str| checks::text(rules, s, |_, _, _| {});
    let (sampler, note) = match sampler {
        Some(Ok(sampler)) => (Some(sampler), None),
        Some(Err(why)) => (None, Some(why.as_str())),
        None => (None, None),
    };
    for attempt in 0..TRIES {
        let candidate = match (format, &pattern) {
            // With both, alternate: format text the pattern may accept, pattern text the
            // format may accept.
            (Some(format), Some(_)) if attempt % 2 == 0 || sampler.is_none() => {
                format_text(format, dice, min, max)
            }
            (Some(format), None) => format_text(format, dice, min, max),
            (_, Some(_)) => match sampler.and_then(|s| s.sample(dice)) {
                Some(s) => s,
                None => plain(dice, min, max),
            },
            (None, None) => plain(dice, min, max),
        };
        if passes(&candidate) {
            return Ok(candidate);
        }
        // Too short: a match stays contained when text is added after it.
        let len = candidate.chars().count() as u64;
        if len < min {
            let mut padded = candidate;
            padded.extend(std::iter::repeat_n('x', (min - len) as usize));
            if passes(&padded) {
                return Ok(padded);
            }
        }
    }
    Err(unmet(rules, note))
}

/// `sampled` in the form most plants write hex text, when it is hex (`0x` and hex digits) and
/// `rules` accept that form: lower case, an even number of digits (a leading `0`, which keeps
/// the number: `0x1` becomes `0x01` where the pattern takes it, and stays `0x1` where a
/// quantity's pattern refuses leading zeros); else lower case alone; else `sampled` as it is. Text without the `0x` is left
/// alone: `123` or `cafe` may be words or numbers, not hex.
pub(crate) fn typical_hex(rules: &Text, sampled: String) -> String {
    let Some(digits) = sampled.strip_prefix("0x") else { return sampled };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return sampled;
    }
    let passes = |s: &str| checks::text(rules, s, |_, _, _| {});
    let lower = sampled.to_ascii_lowercase();
    if digits.len() % 2 == 1 {
        let even = format!("0x0{}", &lower[2..]);
        if passes(&even) {
            return even;
        }
    }
    if passes(&lower) { lower } else { sampled }
}

/// "no string matching /p/, in format f, of 2 to 4 characters was found in N tries".
fn unmet(rules: &Text, note: Option<&str>) -> String {
    // Every rule is named here, so a new one does not compile until it is handled.
    let Text { min_length, max_length, ref pattern, format } = *rules;
    let mut wanted = Vec::new();
    if let Some(p) = &pattern {
        wanted.push(format!("matching /{}/", p.as_str()));
    }
    if let Some(f) = format {
        wanted.push(format!("in the format {}", f.name()));
    }
    match (min_length, max_length) {
        (Some(a), Some(b)) if a == b => {
            wanted.push(format!("of exactly {}", checks::count_characters(a)))
        }
        (Some(a), Some(b)) => wanted.push(format!("of {a} to {b} characters")),
        (Some(a), None) => wanted.push(format!("of at least {}", checks::count_characters(a))),
        (None, Some(b)) => wanted.push(format!("of at most {}", checks::count_characters(b))),
        (None, None) => {}
    }
    let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
    format!("no string {} was found in {TRIES} tries{note}", wanted.join(", "))
}

/// Characters plain text is made of, mostly.
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
/// Now and then one of these, to exercise escapes and character counting.
const SPICE: &[char] =
    &[' ', '-', '_', 'A', 'Z', '0', '9', '"', '\\', '/', '\n', '\t', '\u{1}', 'é', 'ß', '日', '😀'];

/// Plain text of a length between `min` and `max` (at most `min + 12`).
pub(crate) fn plain(dice: &mut Dice, min: u64, max: Option<u64>) -> String {
    let hi = max.unwrap_or(u64::MAX).min(min.saturating_add(12)).max(min);
    let len = match dice.below(8) {
        0 => min,
        1 => hi,
        _ => dice.range(min, hi.min(min.max(3).saturating_add(6)).max(min)),
    };
    let spiced = dice.chance(1, 6);
    (0..len)
        .map(|_| {
            if spiced && dice.chance(1, 4) {
                *dice.pick(SPICE)
            } else {
                char::from(*dice.pick(LETTERS))
            }
        })
        .collect()
}

/// A map key: a short lower-case name.
pub(crate) fn key(dice: &mut Dice) -> String {
    let names = ["alpha", "beta", "gamma", "delta", "p1", "x", "line-7", "k_2"];
    let name = *dice.pick(&names);
    if dice.chance(1, 3) { format!("{name}{}", dice.below(100)) } else { name.to_owned() }
}

/// Text in `format`; hex is sized to the length bounds, the others have the lengths they have.
pub(crate) fn format_text(format: Format, dice: &mut Dice, min: u64, max: Option<u64>) -> String {
    match format {
        Format::DateTime => {
            let t = if dice.chance(1, 10) { 't' } else { 'T' };
            format!("{}{t}{}", date(dice), time(dice))
        }
        Format::Date => date(dice),
        Format::Time => time(dice),
        Format::Uuid => {
            let upper = dice_case(dice);
            let mut hex = hex_digits(dice, 32, upper);
            // Version 4, variant 10xx: what a plant's UUID v4 looks like.
            hex.replace_range(12..13, "4");
            let variant = if upper { ["8", "9", "A", "B"] } else { ["8", "9", "a", "b"] };
            let variant = variant[dice.index(4)];
            hex.replace_range(16..17, variant);
            format!(
                "{}-{}-{}-{}-{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..]
            )
        }
        Format::Uri => uri(dice),
        Format::Ipv4 => {
            let octets: Vec<String> = (0..4).map(|_| dice.below(256).to_string()).collect();
            octets.join(".")
        }
        Format::Ipv6 => {
            let mut segments = [0u16; 8];
            for s in &mut segments {
                *s = if dice.chance(1, 3) { 0 } else { dice.below(1 << 16) as u16 };
            }
            if dice.chance(1, 4) {
                segments = [0, 0, 0, 0, 0, 0, 0, 1];
            }
            Ipv6Addr::from(segments).to_string()
        }
        Format::Hex => {
            let prefixed = dice.chance(1, 2) && min.max(3) <= max.unwrap_or(u64::MAX);
            let least = min.max(if prefixed { 3 } else { 1 });
            let most = max.unwrap_or(u64::MAX).min(least.saturating_add(15)).max(least);
            let len = dice.range(least, most).min(MAX_LENGTH) as usize;
            let upper = dice_case(dice);
            if prefixed {
                format!("0x{}", hex_digits(dice, len - 2, upper))
            } else {
                hex_digits(dice, len, upper)
            }
        }
    }
}

fn dice_case(dice: &mut Dice) -> bool {
    dice.chance(1, 8)
}

fn hex_digits(dice: &mut Dice, n: usize, upper: bool) -> String {
    let digits: &[u8] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    (0..n).map(|_| char::from(*dice.pick(digits))).collect()
}

fn date(dice: &mut Dice) -> String {
    let year = dice.range(1970, 2099);
    let month = dice.range(1, 12);
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 31,
    };
    let day = if dice.chance(1, 8) { days } else { dice.range(1, days) };
    format!("{year:04}-{month:02}-{day:02}")
}

fn time(dice: &mut Dice) -> String {
    let (h, m, s) = (dice.below(24), dice.below(60), dice.below(60));
    let fraction = match dice.below(4) {
        0 => format!(".{}", dice.below(1000)),
        1 => format!(".{:06}", dice.below(1_000_000)),
        _ => String::new(),
    };
    let offset = match dice.below(6) {
        0 => format!("+{:02}:{:02}", dice.below(15), [0, 30, 45][dice.index(3)]),
        1 => format!("-{:02}:00", dice.below(12)),
        2 => "z".to_owned(),
        _ => "Z".to_owned(),
    };
    format!("{h:02}:{m:02}:{s:02}{fraction}{offset}")
}

fn uri(dice: &mut Dice) -> String {
    let host = *dice.pick(&["example.com", "plant.local", "10.0.0.7", "historian.example.org"]);
    let path = *dice.pick(&["", "/", "/pumps/P-101", "/api/v1/status", "/a%20b"]);
    let query = *dice.pick(&["", "?page=2", "?q=flow&unit=l"]);
    match dice.below(6) {
        0 => format!("urn:isbn:{}", dice.range(1_000_000_000, 9_999_999_999)),
        1 => format!("mailto:ops{}@{host}", dice.below(10)),
        2 => format!("ftp://{host}{path}"),
        3 => format!("http://{host}:{}{path}{query}", dice.range(1024, 9999)),
        _ => format!("https://{host}{path}{query}"),
    }
}

/// Strings not in `format`, most plausible first.
pub(crate) fn not_in_format(format: Format, near: &str) -> Vec<String> {
    let mut out: Vec<String> = match format {
        Format::DateTime => {
            vec![near.replacen('T', " ", 1), "2024-13-01T00:00:00Z".into(), "yesterday".into()]
        }
        Format::Date => vec!["2023-02-29".into(), "2024-1-01".into(), "today".into()],
        Format::Time => vec!["24:00:00Z".into(), "12:00:00".into(), "noon".into()],
        Format::Uuid => vec![near.replace('-', ""), "not-a-uuid".into()],
        Format::Uri => vec!["no scheme here".into(), "1http://x".into(), "http://a b".into()],
        Format::Ipv4 => vec!["256.1.1.1".into(), "01.2.3.4".into(), "1.2.3".into()],
        Format::Ipv6 => vec!["2001:db8::g".into(), "1:2:3".into(), ":::".into()],
        Format::Hex => vec!["0xZZ".into(), "0x".into(), "".into(), "g".into()],
    };
    out.retain(|s| !format.check(s));
    out
}
