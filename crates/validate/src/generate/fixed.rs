//! Static scalars ([`super::Generator::static_values`], for types the contract gives no example
//! or default): one value per scalar type, whatever the seed, the way Prism's static mode
//! answers. A number is zero when its rules allow it, else the round value nearest zero at a
//! bound; text is the shortest, smallest text its pattern matches, a fixed value of its
//! format, or `a` repeated to its least length. Two members of one type then agree (a
//! signature's `v` and `yParity` are both `0x00`), which independently drawn values seldom do.
//! `None` where the static value breaks a rule (a pattern whose shortest match is under its
//! `minLength`): the caller then draws the value from a fixed seed.

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::Value;

use super::number::{
    INT_HI, INT_LO, ceil_int, decimal, div_ceil, div_floor, floor_int, int_num, multiple, plain_num,
};
use crate::Format;
use crate::checks;
use crate::number::Num;
use crate::program::{Numeric, Text};

fn passes(rules: &Numeric, n: Num) -> bool {
    checks::numeric(rules, n, |_, _, _| {})
}

/// Zero, else the admitted integer nearest zero at a bound; `None` when neither passes (a
/// `multipleOf` with no whole multiple, bounds past what JSON integers hold).
pub(crate) fn integer(rules: &Numeric) -> Option<Value> {
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    let lo =
        [min.map(ceil_int), exclusive_min.map(|m| floor_int(m) + 1)].into_iter().flatten().max();
    let hi =
        [max.map(floor_int), exclusive_max.map(|m| ceil_int(m) - 1)].into_iter().flatten().min();
    let step = match multiple_of {
        None => 1,
        Some(Num::I(i)) if i > 0 => i128::from(i),
        Some(Num::U(u)) if u > 0 => i128::from(u),
        Some(_) => return int_num(0).filter(|&n| passes(rules, n)).map(|n| n.to_value()),
    };
    let near_zero = match (lo, hi) {
        (Some(lo), _) if lo > 0 => div_ceil(lo, step) * step,
        (_, Some(hi)) if hi < 0 => div_floor(hi, step) * step,
        _ => 0,
    };
    let n = int_num(near_zero.clamp(INT_LO, INT_HI))?;
    passes(rules, n).then(|| n.to_value())
}

/// Zero, else the admitted number nearest zero among round ones at a bound: the bound, a
/// multiple next to it, or a step of 1, 0.5, 0.1, … inside an exclusive one (`0.1` for
/// `exclusiveMin: 0`, not the least double above zero).
pub(crate) fn number(rules: &Numeric) -> Option<Value> {
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    let mut candidates = vec![Num::I(0)];
    let bounds = [(min, 1.0), (exclusive_min, 1.0), (max, -1.0), (exclusive_max, -1.0)];
    for (bound, inward) in bounds {
        let Some(b) = bound.map(Num::as_f64) else { continue };
        match multiple_of.map(Num::as_f64).filter(|m| *m > 0.0) {
            Some(m) => {
                let k = saturate_k(if inward > 0.0 { (b / m).ceil() } else { (b / m).floor() });
                let dec = decimal(m);
                candidates
                    .extend([k, k + 1, k - 1].into_iter().filter_map(|k| multiple(k, m, dec)));
            }
            None => {
                candidates.push(plain_num(b));
                let other =
                    if inward > 0.0 { max.or(exclusive_max) } else { min.or(exclusive_min) };
                let middle = other.map(|o| b / 2.0 + o.as_f64() / 2.0);
                let steps = [1.0, 0.5, 0.1, 0.01, 0.001].map(|step| b + inward * step);
                candidates.extend(steps.into_iter().chain(middle).map(plain_num));
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&n| passes(rules, n))
        .min_by(|a, b| a.as_f64().abs().total_cmp(&b.as_f64().abs()))
        .map(|n| n.to_value())
}

/// A multiplier as an i128, saturating far out.
fn saturate_k(k: f64) -> i128 {
    if k.is_nan() { 0 } else { k.clamp(-1e15, 1e15) as i128 }
}

/// The static text of `rules`: the least match of the pattern (`least`, worked out once per
/// pattern), else a fixed value of the format, else letters of the least length.
pub(crate) fn string(rules: &Text, least: Option<&str>) -> Option<String> {
    let min = rules.min_length.unwrap_or(0);
    let candidate = match (least, rules.format) {
        (Some(least), _) => least.to_owned(),
        (None, Some(format)) => format_text(format).to_owned(),
        (None, None) => "a".repeat(usize::try_from(min.min(64)).ok()?),
    };
    checks::text(rules, &candidate, |_, _, _| {}).then_some(candidate)
}

/// A fixed, plain value of each format: the epoch, the nil UUID, the unspecified addresses.
fn format_text(format: Format) -> &'static str {
    match format {
        Format::DateTime => "1970-01-01T00:00:00Z",
        Format::Date => "1970-01-01",
        Format::Time => "00:00:00Z",
        Format::Uuid => "00000000-0000-0000-0000-000000000000",
        Format::Uri => "https://example.com/",
        Format::Ipv4 => "0.0.0.0",
        Format::Ipv6 => "::",
        Format::Hex => "0x00",
    }
}

/// The shortest text `hir` (a pattern, its anchors removed) matches, the smallest of those
/// by character; each class gives its least digit or letter where it has one (`[^,]` gives
/// `0`, not a space). `None` when it would pass `limit` characters.
pub(crate) fn least_match(hir: &Hir, limit: usize) -> Option<String> {
    let text = match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => String::new(),
        HirKind::Literal(lit) => String::from_utf8(lit.0.to_vec()).ok()?,
        HirKind::Class(Class::Unicode(class)) => {
            let ranges = class.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end())));
            char::from_u32(least_char(ranges)?)?.to_string()
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ranges = class.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end())));
            char::from_u32(least_char(ranges)?)?.to_string()
        }
        HirKind::Repetition(rep) => {
            let one = least_match(&rep.sub, limit)?;
            let n = usize::try_from(rep.min).ok()?;
            if one.chars().count().saturating_mul(n) > limit {
                return None;
            }
            one.repeat(n)
        }
        HirKind::Capture(cap) => least_match(&cap.sub, limit)?,
        HirKind::Concat(all) => {
            let mut out = String::new();
            for part in all {
                out.push_str(&least_match(part, limit)?);
                if out.chars().count() > limit {
                    return None;
                }
            }
            out
        }
        HirKind::Alternation(all) => all
            .iter()
            .filter_map(|alt| least_match(alt, limit))
            .min_by(|a, b| a.chars().count().cmp(&b.chars().count()).then_with(|| a.cmp(b)))?,
    };
    (text.chars().count() <= limit).then_some(text)
}

/// The least digit, else upper-case letter, else lower-case letter a class holds; else its
/// first character. `ranges`: the class's ranges in order, as code points.
fn least_char(ranges: impl Iterator<Item = (u32, u32)> + Clone) -> Option<u32> {
    let word = [('0', '9'), ('A', 'Z'), ('a', 'z')].into_iter().find_map(|(lo, hi)| {
        ranges.clone().find_map(|(start, end)| {
            let at = start.max(u32::from(lo));
            (at <= end.min(u32::from(hi))).then_some(at)
        })
    });
    word.or_else(|| ranges.clone().next().map(|(start, _)| start))
}
