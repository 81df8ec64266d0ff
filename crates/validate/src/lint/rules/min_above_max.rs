//! `min-above-max`: bounds that no value satisfies.

use std::cmp::Ordering;

use accord_schema_model::{NumberRules, Pointer, TypeKind};

use crate::lint::LintContext;
use crate::number::Num;

declare_rule! {
    /// ## What it does
    /// Flags refinements whose bounds leave no value:
    ///
    /// - on `integer` and `number`, a lower bound (`min`, or `exclusiveMin`) above the upper
    ///   bound (`max`, or `exclusiveMax`), or equal to it when either is exclusive; on
    ///   `integer`, bounds with no integer between them (`exclusiveMin: 1, exclusiveMax: 2`,
    ///   `min: 1.2, max: 1.8`); and, when `multipleOf` is an integer, bounds with no multiple
    ///   of it between them (`min: 1, max: 4, multipleOf: 5`);
    /// - on `string`, `minLength` above `maxLength`;
    /// - on `array`, `minItems` above `maxItems`.
    ///
    /// Bounds are compared as the validator compares them: exactly for integers, as doubles
    /// otherwise (format.md, section 10.2).
    ///
    /// ## Why is this bad?
    /// Every bound present applies, so no value passes them all: a param of this type can
    /// never be sent, a result never answered. The reader accepts such bounds (format.md,
    /// section 9); the usual cause is two bounds swapped, or a unit changed on one of them.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "integer", "min": 3000, "max": 0, "unit": "rpm" }
    /// ```
    ///
    /// ## Fix
    /// Put the bounds the right way round, or widen them so that the values meant lie between.
    pub(crate) struct MinAboveMax;
}

/// One side of a numeric range.
#[derive(Debug, Clone, Copy)]
struct Bound {
    value: Num,
    exclusive: bool,
    member: &'static str,
}

impl Bound {
    fn show(&self) -> String {
        format!("`{}` {}", self.member, self.value.render())
    }
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, &str)> = Vec::new();
    for node in &cx.walk.nodes {
        let at = &node.pointer;
        match &node.node.kind {
            TypeKind::Integer(rules) => found.extend(numeric(at, rules, true)),
            TypeKind::Number(rules) => found.extend(numeric(at, rules, false)),
            TypeKind::String(s) => {
                if let (Some(min), Some(max)) = (s.min_length, s.max_length)
                    && min > max
                {
                    found.push((
                        at.key("minLength"),
                        format!("`minLength` {min} is above `maxLength` {max}: no string has both"),
                        "lower `minLength` or raise `maxLength` (were they swapped?)",
                    ));
                }
            }
            TypeKind::Array(a) => {
                if let (Some(min), Some(max)) = (a.min_items, a.max_items)
                    && min > max
                {
                    found.push((
                        at.key("minItems"),
                        format!("`minItems` {min} is above `maxItems` {max}: no array has both"),
                        "lower `minItems` or raise `maxItems` (were they swapped?)",
                    ));
                }
            }
            _ => {}
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}

fn numeric(
    at: &Pointer,
    rules: &NumberRules,
    integer: bool,
) -> Option<(Pointer, String, &'static str)> {
    let bound = |n: &Option<serde_json::Number>, exclusive, member| {
        n.as_ref().map(|n| Bound { value: Num::of(n), exclusive, member })
    };
    // The tighter bound of each side; on a tie the exclusive one.
    let tighter = |a: Option<Bound>, b: Option<Bound>, keep: Ordering| match (a, b) {
        (Some(a), Some(b)) => match a.value.cmp(b.value) {
            Ordering::Equal => Some(if b.exclusive { b } else { a }),
            o if o == keep => Some(a),
            _ => Some(b),
        },
        (a, b) => a.or(b),
    };
    let lower = tighter(
        bound(&rules.min, false, "min"),
        bound(&rules.exclusive_min, true, "exclusiveMin"),
        Ordering::Greater,
    )?;
    let upper = tighter(
        bound(&rules.max, false, "max"),
        bound(&rules.exclusive_max, true, "exclusiveMax"),
        Ordering::Less,
    )?;
    let help = "put the bounds the right way round, or widen them (were they swapped?)";
    match lower.value.cmp(upper.value) {
        Ordering::Greater => {
            return Some((
                at.key(lower.member),
                format!("{} is above {}: no value satisfies both", lower.show(), upper.show()),
                help,
            ));
        }
        Ordering::Equal if lower.exclusive || upper.exclusive => {
            return Some((
                at.key(lower.member),
                format!(
                    "{} and {} leave no value: the one number they share is excluded",
                    lower.show(),
                    upper.show()
                ),
                help,
            ));
        }
        _ => {}
    }
    let step = rules.multiple_of.as_ref().map(Num::of).and_then(|m| match m {
        Num::I(i) if i > 0 => Some(i128::from(i)),
        Num::U(u) => Some(i128::from(u)),
        _ => None,
    });
    if !integer && step.is_none() {
        return None;
    }
    let (lo, hi) = (int_lower(lower)?, int_upper(upper)?);
    match step {
        Some(m) if lo.div_euclid(m) + i128::from(lo.rem_euclid(m) != 0) > hi.div_euclid(m) => {
            Some((
                at.key("multipleOf"),
                format!(
                    "no multiple of {m} lies between {} and {}: no value satisfies all three",
                    lower.show(),
                    upper.show()
                ),
                "widen the bounds to take in a multiple, or change `multipleOf`",
            ))
        }
        None if lo > hi => Some((
            at.key(lower.member),
            format!(
                "no integer lies between {} and {}: no value satisfies both",
                lower.show(),
                upper.show()
            ),
            help,
        )),
        _ => None,
    }
}

/// Beyond this, doubles are far outside every integer a value can hold; they saturate.
const SATURATE: f64 = 1e30;

/// The least integer the bound admits.
fn int_lower(b: Bound) -> Option<i128> {
    match b.value {
        Num::I(i) => Some(i128::from(i) + i128::from(b.exclusive)),
        Num::U(u) => Some(i128::from(u) + i128::from(b.exclusive)),
        Num::F(f) if f.is_nan() => None,
        Num::F(f) => {
            let c = f.clamp(-SATURATE, SATURATE).ceil();
            let c = if b.exclusive && c == f { c + 1.0 } else { c };
            Some(c as i128)
        }
    }
}

/// The greatest integer the bound admits.
fn int_upper(b: Bound) -> Option<i128> {
    match b.value {
        Num::I(i) => Some(i128::from(i) - i128::from(b.exclusive)),
        Num::U(u) => Some(i128::from(u) - i128::from(b.exclusive)),
        Num::F(f) if f.is_nan() => None,
        Num::F(f) => {
            let c = f.clamp(-SATURATE, SATURATE).floor();
            let c = if b.exclusive && c == f { c - 1.0 } else { c };
            Some(c as i128)
        }
    }
}
