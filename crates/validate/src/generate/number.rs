//! Integers and numbers within their bounds: at the bounds, just inside them, near zero, and
//! anywhere between; multiples written as the decimal they are (`0.3`, not
//! `0.30000000000000004`). Every candidate is checked with the validator's own numeric check.

use serde_json::Value;

use super::dice::Dice;
use crate::checks;
use crate::number::Num;
use crate::program::Numeric;

/// The integers a JSON value holds exactly: i64 and u64.
pub(crate) const INT_LO: i128 = i64::MIN as i128;
pub(crate) const INT_HI: i128 = u64::MAX as i128;

/// How far past a lone bound (or around zero, with none) values are drawn.
const WINDOW: i128 = 1000;

const TRIES: usize = 32;

fn passes(rules: &Numeric, n: Num) -> bool {
    checks::numeric(rules, n, |_, _, _| {})
}

/// A double as an i128, saturating far outside the integer domain.
fn saturate(f: f64) -> i128 {
    if f.is_nan() { 0 } else { f.clamp(-1e30, 1e30) as i128 }
}

/// The least integer at or above `n`.
pub(crate) fn ceil_int(n: Num) -> i128 {
    match n {
        Num::I(i) => i128::from(i),
        Num::U(u) => i128::from(u),
        Num::F(f) => saturate(f.ceil()),
    }
}

/// The greatest integer at or below `n`.
pub(crate) fn floor_int(n: Num) -> i128 {
    match n {
        Num::I(i) => i128::from(i),
        Num::U(u) => i128::from(u),
        Num::F(f) => saturate(f.floor()),
    }
}

/// `n` as a JSON integer, when it is one.
pub(crate) fn int_num(n: i128) -> Option<Num> {
    if let Ok(i) = i64::try_from(n) { Some(Num::I(i)) } else { u64::try_from(n).ok().map(Num::U) }
}

pub(crate) fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a < 0 { q - 1 } else { q }
}

pub(crate) fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a > 0 { q + 1 } else { q }
}

/// The bounds as written, for reasons: "min 0, exclusiveMax 5".
pub(crate) fn bounds(rules: &Numeric) -> String {
    // Every bound is named here, so a new one does not compile until it is handled.
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    let parts: Vec<String> = [
        ("min", min),
        ("exclusiveMin", exclusive_min),
        ("max", max),
        ("exclusiveMax", exclusive_max),
        ("multipleOf", multiple_of),
    ]
    .into_iter()
    .filter_map(|(name, n)| n.map(|n| format!("{name} {}", n.render())))
    .collect();
    parts.join(", ")
}

/// The window values are mostly drawn from: both bounds, a lone bound and `WINDOW` past it, or
/// `-WINDOW..=WINDOW`; clamped to `lo..=hi`.
fn window(lo_bound: Option<i128>, hi_bound: Option<i128>, lo: i128, hi: i128) -> (i128, i128) {
    let (a, b) = match (lo_bound, hi_bound) {
        (Some(l), Some(h)) => (l, h),
        (Some(l), None) => (l, l.saturating_add(WINDOW)),
        (None, Some(h)) => (h.saturating_sub(WINDOW), h),
        (None, None) => (-WINDOW, WINDOW),
    };
    (a.clamp(lo, hi), b.clamp(lo, hi))
}

/// A multiplier between `ka` and `kb`: often an end, one in from an end, or the one nearest
/// zero; else any.
fn pick_k(dice: &mut Dice, ka: i128, kb: i128) -> i128 {
    match dice.below(8) {
        0 => ka,
        1 => kb,
        2 => (ka + 1).min(kb),
        3 => (kb - 1).max(ka),
        4 => 0.clamp(ka, kb),
        _ => dice.range_i128(ka, kb),
    }
}

/// The smallest positive integer that is a multiple of `m` (for a float `m` such as `0.5`,
/// `1`; for `1.5`, `3`), if one is near.
fn integer_step(m: Num) -> Option<i128> {
    match m {
        Num::I(i) => (i > 0).then_some(i128::from(i)),
        Num::U(u) => (u > 0).then_some(i128::from(u)),
        Num::F(f) => {
            if f.is_nan() || f <= 0.0 {
                return None;
            }
            for k in 1..=1000u32 {
                let v = f64::from(k) * f;
                if !v.is_finite() || v > 1e30 {
                    return None;
                }
                if v >= 1.0 && (v - v.round()).abs() <= 1e-9 * v {
                    return Some(saturate(v.round()));
                }
            }
            None
        }
    }
}

/// An integer the rules admit.
pub(crate) fn integer(rules: &Numeric, dice: &mut Dice) -> Result<Value, String> {
    // Every bound is named here, so a new one does not compile until it is handled.
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    let lo_bound =
        [min.map(ceil_int), exclusive_min.map(|m| floor_int(m) + 1)].into_iter().flatten().max();
    let hi_bound =
        [max.map(floor_int), exclusive_max.map(|m| ceil_int(m) - 1)].into_iter().flatten().min();
    let lo = lo_bound.unwrap_or(INT_LO).max(INT_LO);
    let hi = hi_bound.unwrap_or(INT_HI).min(INT_HI);
    if lo > hi {
        return Err(format!("no integer satisfies {}", bounds(rules)));
    }
    let (a, b) = window(lo_bound, hi_bound, lo, hi);
    let step = match multiple_of {
        None => Some(1),
        Some(m) => integer_step(m),
    };
    if let Some(step) = step {
        let (kmin, kmax) = (div_ceil(lo, step), div_floor(hi, step));
        if kmin <= kmax {
            let ka = div_ceil(a, step).clamp(kmin, kmax);
            let kb = div_floor(b, step).clamp(kmin, kmax).max(ka);
            for _ in 0..TRIES {
                if let Some(n) = int_num(pick_k(dice, ka, kb) * step)
                    && passes(rules, n)
                {
                    return Ok(n.to_value());
                }
            }
        }
    } else if let Some(m) = multiple_of {
        // A multipleOf with no whole multiple near: round multiples and keep one that passes.
        for _ in 0..TRIES * 4 {
            let k = dice.range_i128(-WINDOW, WINDOW);
            if let Some(n) = int_num(saturate((k as f64 * m.as_f64()).round()))
                && passes(rules, n)
            {
                return Ok(n.to_value());
            }
        }
    }
    Err(format!("no integer satisfies {}", bounds(rules)))
}

/// A lower or upper bound on a number: the value, and whether it is exclusive.
type Bound = (f64, bool);

fn tighter(inclusive: Option<Num>, exclusive: Option<Num>, lower: bool) -> Option<Bound> {
    let a = inclusive.map(|n| (n.as_f64(), false));
    let b = exclusive.map(|n| (n.as_f64(), true));
    match (a, b) {
        (Some(a), Some(b)) => {
            let b_tighter = if lower { b.0 >= a.0 } else { b.0 <= a.0 };
            Some(if b_tighter { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

/// A double as the JSON number a plant writes: an integer when whole and exact.
pub(crate) fn plain_num(f: f64) -> Num {
    if f.fract() == 0.0 && f.abs() < 9.0e15 { Num::I(f as i64) } else { Num::F(f) }
}

/// `m` as `mantissa * 10^-scale`, read from its shortest decimal form.
pub(crate) fn decimal(m: f64) -> Option<(i128, u32)> {
    let text = format!("{m}");
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.len() > 30 {
        return None;
    }
    let mantissa = if digits.is_empty() { 0 } else { digits.parse::<i128>().ok()? };
    (mantissa > 0).then_some((mantissa, frac.len() as u32))
}

/// The `k`th multiple of `m`, as the decimal it is.
pub(crate) fn multiple(k: i128, m: f64, decimal: Option<(i128, u32)>) -> Option<Num> {
    match decimal {
        Some((mantissa, 0)) => int_num(k.checked_mul(mantissa)?),
        Some((mantissa, scale)) => {
            let text = format!("{}e-{scale}", k.checked_mul(mantissa)?);
            text.parse::<f64>().ok().filter(|f| f.is_finite()).map(Num::F)
        }
        None => Some(Num::F(k as f64 * m)).filter(|n| n.as_f64().is_finite()),
    }
}

/// Rounds `x` to `places` decimals.
fn round_to(x: f64, places: u32) -> f64 {
    let scale = 10f64.powi(places as i32);
    let r = (x * scale).round() / scale;
    if r.is_finite() { r } else { x }
}

/// A number the rules admit.
pub(crate) fn number(rules: &Numeric, dice: &mut Dice) -> Result<Value, String> {
    // Every bound is named here, so a new one does not compile until it is handled.
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    let lower = tighter(min, exclusive_min, true);
    let upper = tighter(max, exclusive_max, false);
    let w = WINDOW as f64;
    let (a, b) = match (lower, upper) {
        (Some(l), Some(h)) => (l.0, h.0),
        (Some(l), None) => (l.0, l.0 + w),
        (None, Some(h)) => (h.0 - w, h.0),
        (None, None) => (-w, w),
    };
    let a_open = lower.is_some_and(|l| l.1);
    let b_open = upper.is_some_and(|h| h.1);
    if a > b || (a == b && (a_open || b_open)) {
        return Err(format!("no number satisfies {}", bounds(rules)));
    }
    let found = |n: Num| passes(rules, n).then(|| n.to_value());
    if let Some(m) = multiple_of {
        let m = m.as_f64();
        let dec = decimal(m);
        let limit = 1e15;
        let ka = saturate((a / m).ceil().clamp(-limit, limit));
        let kb = saturate((b / m).floor().clamp(-limit, limit)).max(ka);
        for i in 0..TRIES {
            // Every other try nudges the multiplier, in case rounding put it just outside.
            let k = pick_k(dice, ka, kb) + [0, 0, 1, -1][i % 4];
            if let Some(v) = multiple(k, m, dec).and_then(found) {
                return Ok(v);
            }
        }
        return Err(format!("no number satisfies {}", bounds(rules)));
    }
    for _ in 0..TRIES {
        let candidate = match dice.below(10) {
            0 => {
                if a_open {
                    Num::F(a.next_up())
                } else {
                    plain_num(a)
                }
            }
            1 => {
                if b_open {
                    Num::F(b.next_down())
                } else {
                    plain_num(b)
                }
            }
            2 => {
                let (lo, hi) = (saturate(a.ceil()), saturate(b.floor()));
                match int_num(dice.range_i128(lo, hi.max(lo))) {
                    Some(n) => n,
                    None => continue,
                }
            }
            3 => Num::F(a / 2.0 + b / 2.0),
            _ => {
                let u = dice.unit();
                let x = a * (1.0 - u) + b * u;
                Num::F(round_to(x, dice.range(0, 3) as u32))
            }
        };
        if let Some(v) = found(candidate) {
            return Ok(v);
        }
    }
    let fallbacks = [a / 2.0 + b / 2.0, a.next_up(), b.next_down()];
    fallbacks
        .into_iter()
        .find_map(|f| found(Num::F(f)))
        .ok_or_else(|| format!("no number satisfies {}", bounds(rules)))
}
