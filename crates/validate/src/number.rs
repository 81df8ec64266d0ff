//! Numbers as the validator compares them: exactly for integers, as doubles otherwise.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// A JSON number as serde_json reads it: an i64, a u64, or a double.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    I(i64),
    U(u64),
    F(f64),
}

impl Num {
    pub(crate) fn of(n: &Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::I(i)
        } else if let Some(u) = n.as_u64() {
            Num::U(u)
        } else {
            Num::F(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Reads a JSON number token the way serde_json does (integers that fit i64/u64 stay exact,
    /// everything else is the nearest double).
    pub(crate) fn parse(token: &str) -> Num {
        // serde_json reads `-0` as the double -0.0, keeping its sign.
        let integral = !token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) && token != "-0";
        if integral {
            if let Ok(i) = token.parse::<i64>() {
                return Num::I(i);
            }
            if let Ok(u) = token.parse::<u64>() {
                return Num::U(u);
            }
        }
        Num::F(fast_decimal(token).unwrap_or_else(|| token.parse::<f64>().unwrap_or(f64::NAN)))
    }

    pub(crate) fn is_integer(self) -> bool {
        !matches!(self, Num::F(_))
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::U(u) => u as f64,
            Num::F(f) => f,
        }
    }

    fn as_i128(self) -> Option<i128> {
        match self {
            Num::I(i) => Some(i128::from(i)),
            Num::U(u) => Some(i128::from(u)),
            Num::F(_) => None,
        }
    }

    /// What equality of JSON values compares a number by (`json_equal`, `uniqueItems`): equal
    /// keys exactly when the numbers are equal.
    pub(crate) fn key(self) -> NumKey {
        match self {
            Num::I(i) => NumKey::Integer(i128::from(i)),
            Num::U(u) => NumKey::Integer(i128::from(u)),
            // `-0.0 + 0.0` is `0.0`: the two zeros are one number. NaN is not JSON; one key.
            Num::F(f) if f.is_nan() => NumKey::Double(f64::NAN.to_bits()),
            Num::F(f) => NumKey::Double((f + 0.0).to_bits()),
        }
    }

    /// Compares exactly when both are integers, as doubles otherwise.
    pub(crate) fn cmp(self, other: Num) -> Ordering {
        match (self.as_i128(), other.as_i128()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self.as_f64().partial_cmp(&other.as_f64()).unwrap_or(Ordering::Equal),
        }
    }

    /// Whether `self` is a whole multiple of `of` (which compilation keeps greater than zero).
    /// Exact for integers; for doubles, within a relative 1e-9 of a whole quotient, so that
    /// `5.5` is a multiple of `0.1` although `5.5 / 0.1` is `55.00000000000001`.
    pub(crate) fn is_multiple_of(self, of: Num) -> bool {
        match (self.as_i128(), of.as_i128()) {
            (Some(a), Some(b)) if b != 0 => a % b == 0,
            _ => {
                let q = self.as_f64() / of.as_f64();
                q.is_finite() && (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
            }
        }
    }

    /// The number as serde_json writes it.
    pub(crate) fn render(self) -> String {
        match self {
            Num::I(i) => i.to_string(),
            Num::U(u) => u.to_string(),
            Num::F(f) => Number::from_f64(f).map_or_else(|| f.to_string(), |n| n.to_string()),
        }
    }

    #[cfg(feature = "generate")]
    pub(crate) fn to_value(self) -> Value {
        match self {
            Num::I(i) => Value::from(i),
            Num::U(u) => Value::from(u),
            Num::F(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

/// A number as equality sees it (see [`json_equal`]): an integer exactly, a double by its value;
/// an integer and a double are never the same key, so the key can be hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum NumKey {
    Integer(i128),
    Double(u64),
}

/// JSON equality with numbers compared by value (`1` and `1.0` are different JSON numbers to
/// serde_json; to a literal or enum they are the same number only when both are integers or
/// both are doubles — the wire distinguishes them, as a serde plant does).
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::of(x).key() == Num::of(y).key(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A plain decimal (`-12.34`: no exponent, at most 15 digits) read exactly as `str::parse`
/// reads it, without its general machinery: the digits are an integer below 2^53 and the
/// divisor a power of ten up to 10^15, both exact doubles, so the one correctly rounded division
/// is the correctly rounded value (Clinger's fast path). `None` for any other token.
fn fast_decimal(token: &str) -> Option<f64> {
    const POW10: [f64; 16] =
        [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let (negative, digits) = match token.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    let (mut mantissa, mut count, mut fraction, mut point) = (0u64, 0usize, 0usize, false);
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                count += 1;
                fraction += usize::from(point);
            }
            b'.' if !point => point = true,
            _ => return None,
        }
        if count > 15 {
            return None;
        }
    }
    if count == 0 {
        return None;
    }
    let value = mantissa as f64 / POW10[fraction];
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    #[test]
    fn fast_decimals_read_as_str_parse_reads_them() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut tokens: Vec<String> =
            ["0.1", "-0.0", "0.30000000000000004", "123456789012345", "9.999999999999999", "-7.5"]
                .map(String::from)
                .to_vec();
        for _ in 0..200_000 {
            let digits = (next() % 15 + 1) as u32;
            let mantissa = next() % 10u64.pow(digits);
            let point = (next() % u64::from(digits + 1)) as usize;
            let text = format!("{mantissa:0width$}", width = digits as usize);
            let sign = if next() % 2 == 0 { "-" } else { "" };
            let int = if point == 0 { "0" } else { &text[..point] };
            let fraction = &text[point..];
            tokens.push(if fraction.is_empty() {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{fraction}")
            });
        }
        for token in &tokens {
            let want: f64 = token.parse().expect("a number");
            if let Some(got) = super::fast_decimal(token) {
                assert_eq!(got.to_bits(), want.to_bits(), "{token}");
            }
        }
    }
}
