//! Constraints and attributes of scalar kinds: numeric and length bounds, `multipleOf`,
//! units, patterns, formats and defaults.

use std::fmt::{self, Write as _};

use accord_schema_model::{NumberRules, StringRules, TypeNode};
use serde_json::Value;

use super::{At, Comparison, WitnessPlan};
use crate::rules::{self, CompatRule};

impl Comparison<'_> {
    pub(super) fn defaults(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        self.attribute(at, &DEFAULT, o.default.as_ref(), n.default.as_ref(), None);
    }

    /// An optional member of a node changed, was set or was unset: one of the attribute's
    /// three rules, located at the member on the side that has it.
    fn attribute<T: PartialEq + fmt::Display>(
        &mut self,
        at: &At,
        attribute: &Attribute,
        old: Option<&T>,
        new: Option<&T>,
        witness: Option<WitnessPlan>,
    ) {
        let member = attribute.member;
        let (rule, here, on_old, template) = match (old, new) {
            (Some(x), Some(y)) if x != y => {
                (attribute.changed, at.down("", &[member], &[member]), false, attribute.on_changed)
            }
            (None, Some(_)) => {
                (attribute.set, at.down("", &[], &[member]), false, attribute.on_set)
            }
            (Some(_), None) => {
                (attribute.unset, at.down("", &[member], &[]), true, attribute.on_unset)
            }
            _ => return,
        };
        let text = fill(template, &at.path, old, new);
        self.emit_with(&here, rule, on_old, text, witness);
    }

    pub(super) fn numbers(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &NumberRules,
        b: &NumberRules,
    ) {
        // Every refinement of a number is named here, so a new one does not compile until it
        // is compared.
        let NumberRules {
            min,
            max,
            exclusive_min,
            exclusive_max,
            multiple_of,
            unit,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy: _,
        } = a;
        let NumberRules {
            min: new_min,
            max: new_max,
            exclusive_min: new_exclusive_min,
            exclusive_max: new_exclusive_max,
            multiple_of: new_multiple_of,
            unit: new_unit,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy: _,
        } = b;
        let w = Self::types_witness(at, o, n);
        let f = |x: &Option<serde_json::Number>| x.as_ref().and_then(serde_json::Number::as_f64);
        let lower =
            [("min", f(min), f(new_min)), ("exclusiveMin", f(exclusive_min), f(new_exclusive_min))];
        let upper =
            [("max", f(max), f(new_max)), ("exclusiveMax", f(exclusive_max), f(new_exclusive_max))];
        for (side, is_min) in [(lower, true), (upper, false)] {
            if !self.exclusivity(at, side, is_min, &w) {
                for (name, old, new) in side {
                    self.bound_f(at, name, old, new, is_min, &w);
                }
            }
        }
        let (om, nm) = (f(multiple_of), f(new_multiple_of));
        let divides = |big: f64, small: f64| {
            let q = big / small;
            (q - q.round()).abs() < 1e-9 * q.abs().max(1.0)
        };
        let multiple = match (om, nm) {
            (Some(x), Some(y)) if divides(x, y) => &MULTIPLE_OF_FINER,
            (Some(x), Some(y)) if divides(y, x) => &MULTIPLE_OF_COARSER,
            _ => &MULTIPLE_OF,
        };
        self.attribute(at, multiple, om.as_ref(), nm.as_ref(), w);
        self.attribute(at, &UNIT, unit.as_ref(), new_unit.as_ref(), None);
    }

    /// One side's bound moved between its inclusive and exclusive member (`min: 0` became
    /// `exclusiveMin: 0`): one graded finding, not a bound removed plus a bound added (which
    /// would read as breaking both ways). `side` is `[(inclusive name, old, new), (exclusive
    /// name, old, new)]`; returns whether it reported the side.
    pub(super) fn exclusivity(
        &mut self,
        at: &At,
        side: [(&str, Option<f64>, Option<f64>); 2],
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) -> bool {
        let [(incl, oi, ni), (excl, oe, ne)] = side;
        let (from, to, old_value, new_value, to_exclusive) = match (oi, oe, ni, ne) {
            (Some(x), None, None, Some(y)) => (incl, excl, x, y, true),
            (None, Some(x), Some(y), None) => (excl, incl, x, y, false),
            _ => return false,
        };
        // An exclusive bound at the same value admits one value less than the inclusive one.
        let tighter = match (is_min, to_exclusive) {
            (true, true) => new_value >= old_value,
            (true, false) => new_value > old_value,
            (false, true) => new_value <= old_value,
            (false, false) => new_value < old_value,
        };
        let rule = if tighter { &rules::BOUND_TIGHTENED } else { &rules::BOUND_LOOSENED };
        let h = at.down("", &[from], &[to]);
        self.emit_with(
            &h,
            rule,
            false,
            format!(
                "`{}` bound changed from {from} {} to {to} {}",
                at.path,
                num(old_value),
                num(new_value)
            ),
            w.clone(),
        );
        true
    }

    /// A lower (`is_min`) or upper bound: raised minimum or lowered maximum tightens.
    pub(super) fn bound_f(
        &mut self,
        at: &At,
        name: &str,
        a: Option<f64>,
        b: Option<f64>,
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) {
        match (a, b) {
            (Some(x), Some(y)) if x != y => {
                let tighter = if is_min { y > x } else { y < x };
                let rule = if tighter { &rules::BOUND_TIGHTENED } else { &rules::BOUND_LOOSENED };
                let h = at.down("", &[name], &[name]);
                self.emit_with(
                    &h,
                    rule,
                    false,
                    format!("{name} of `{}` changed from {} to {}", at.path, num(x), num(y)),
                    w.clone(),
                );
            }
            (None, Some(y)) => {
                let h = at.down("", &[], &[name]);
                self.emit_with(
                    &h,
                    &rules::BOUND_ADDED,
                    false,
                    format!("`{}` gained {name} {}", at.path, num(y)),
                    w.clone(),
                );
            }
            (Some(x), None) => {
                let h = at.down("", &[name], &[]);
                self.emit_with(
                    &h,
                    &rules::BOUND_REMOVED,
                    true,
                    format!("`{}` lost {name} {}", at.path, num(x)),
                    w.clone(),
                );
            }
            _ => {}
        }
    }

    pub(super) fn bound_u(
        &mut self,
        at: &At,
        name: &str,
        a: Option<u64>,
        b: Option<u64>,
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) {
        // A minimum of 0 is no bound.
        let norm = |v: Option<u64>| if is_min { v.filter(|&v| v > 0) } else { v };
        #[allow(clippy::cast_precision_loss)]
        self.bound_f(at, name, norm(a).map(|v| v as f64), norm(b).map(|v| v as f64), is_min, w);
    }

    pub(super) fn strings(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &StringRules,
        b: &StringRules,
    ) {
        // Every refinement of a string is named here, so a new one does not compile until it
        // is compared.
        let StringRules { min_length, max_length, pattern, format } = a;
        let StringRules {
            min_length: new_min_length,
            max_length: new_max_length,
            pattern: new_pattern,
            format: new_format,
        } = b;
        let w = Self::types_witness(at, o, n);
        self.bound_u(at, "minLength", *min_length, *new_min_length, true, &w);
        self.bound_u(at, "maxLength", *max_length, *new_max_length, false, &w);
        for (attribute, old, new) in
            [(&PATTERN, pattern, new_pattern), (&FORMAT, format, new_format)]
        {
            self.attribute(at, attribute, old.as_ref(), new.as_ref(), w.clone());
        }
    }
}
fn num(x: f64) -> String {
    let v = serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        return format!("{}", x as i64);
    }
    v.to_string()
}

/// An optional member of a type node compared the same way wherever it stands: changed, set
/// or unset, each with its rule and its message.
struct Attribute {
    /// The member, as the document names it.
    member: &'static str,
    /// The rule when both sides have it with different values.
    changed: &'static CompatRule,
    /// The rule when only the new side has it.
    set: &'static CompatRule,
    /// The rule when only the old side has it.
    unset: &'static CompatRule,
    /// The messages of the three; `{path}` is the position, `{old}` and `{new}` the values.
    on_changed: &'static str,
    on_set: &'static str,
    on_unset: &'static str,
}

const DEFAULT: Attribute = Attribute {
    member: "default",
    changed: &rules::DEFAULT_CHANGED,
    set: &rules::DEFAULT_ADDED,
    unset: &rules::DEFAULT_REMOVED,
    on_changed: "default of `{path}` changed from {old} to {new}",
    on_set: "`{path}` gained the default {new}",
    on_unset: "`{path}` lost its default {old}",
};

/// `multipleOf` changed to a value neither divides.
const MULTIPLE_OF: Attribute = Attribute {
    member: "multipleOf",
    changed: &rules::MULTIPLE_OF_CHANGED,
    set: &rules::BOUND_ADDED,
    unset: &rules::BOUND_REMOVED,
    on_changed: "multipleOf of `{path}` changed from {old} to {new} (unrelated)",
    on_set: "`{path}` must now be a multiple of {new}",
    on_unset: "`{path}` no longer must be a multiple of {old}",
};

/// `multipleOf` changed to a divisor of the old one: every old value is still a multiple.
const MULTIPLE_OF_FINER: Attribute = Attribute {
    changed: &rules::BOUND_LOOSENED,
    on_changed: "multipleOf of `{path}` changed from {old} to {new} (finer)",
    ..MULTIPLE_OF
};

/// `multipleOf` changed to a multiple of the old one: every new value was a multiple before.
const MULTIPLE_OF_COARSER: Attribute = Attribute {
    changed: &rules::BOUND_TIGHTENED,
    on_changed: "multipleOf of `{path}` changed from {old} to {new} (coarser)",
    ..MULTIPLE_OF
};

const UNIT: Attribute = Attribute {
    member: "unit",
    changed: &rules::UNIT_CHANGED,
    set: &rules::UNIT_ADDED,
    unset: &rules::UNIT_REMOVED,
    on_changed: "unit of `{path}` changed from `{old}` to `{new}`: the same numbers now mean something else",
    on_set: "`{path}` gained the unit `{new}`",
    on_unset: "`{path}` lost the unit `{old}`",
};

const PATTERN: Attribute = Attribute {
    member: "pattern",
    changed: &rules::PATTERN_CHANGED,
    set: &rules::PATTERN_ADDED,
    unset: &rules::PATTERN_REMOVED,
    on_changed: "pattern of `{path}` changed from `{old}` to `{new}`",
    on_set: "`{path}` must now match `{new}`",
    on_unset: "`{path}` no longer must match `{old}`",
};

const FORMAT: Attribute = Attribute {
    member: "format",
    changed: &rules::FORMAT_CHANGED,
    set: &rules::FORMAT_ADDED,
    unset: &rules::FORMAT_REMOVED,
    on_changed: "format of `{path}` changed from `{old}` to `{new}`",
    on_set: "`{path}` gained the format `{new}`",
    on_unset: "`{path}` lost the format `{old}`",
};

/// `template` with `{path}`, `{old}` and `{new}` filled in, in one pass: a value that itself
/// contains `{new}` is written as it is.
fn fill<T: fmt::Display>(template: &str, path: &str, old: Option<&T>, new: Option<&T>) -> String {
    let mut out = String::with_capacity(template.len() + path.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        let holes: [(&str, Option<&dyn fmt::Display>); 3] = [
            ("{path}", Some(&path)),
            ("{old}", old.map(|v| v as &dyn fmt::Display)),
            ("{new}", new.map(|v| v as &dyn fmt::Display)),
        ];
        match holes.iter().find(|(hole, _)| rest.starts_with(hole)) {
            Some((hole, value)) => {
                if let Some(value) = value {
                    let _ = write!(out, "{value}");
                }
                rest = &rest[hole.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
