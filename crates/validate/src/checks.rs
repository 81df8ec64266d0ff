//! Checks of scalars against their rules, shared by the value path and the bytes path so both
//! decide and word every error the same way. Each returns whether the scalar passed and calls
//! `fail(rule, expected, found)` for every rule it broke.

use crate::number::Num;
use crate::program::{Choices, Node, NodeId, Numeric, Program, Text};
use crate::report::{ValidationRule, found};

pub(crate) fn numeric(
    rules: &Numeric,
    n: Num,
    mut fail: impl FnMut(ValidationRule, String, String),
) -> bool {
    // Every bound is named here, so a new one does not compile until it is handled.
    let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
    use std::cmp::Ordering::{Greater, Less};
    let mut ok = true;
    // Messages are built only for a bound that is broken: checking a valid value allocates
    // nothing.
    let mut check = |broken: bool, rule: ValidationRule, expected: &dyn Fn() -> String| {
        if broken {
            ok = false;
            fail(rule, expected(), found::number(n));
        }
    };
    if let Some(min) = min {
        check(n.cmp(min) == Less, ValidationRule::Minimum, &|| {
            format!("at least {}", min.render())
        });
    }
    if let Some(min) = exclusive_min {
        check(n.cmp(min) != Greater, ValidationRule::ExclusiveMinimum, &|| {
            format!("more than {}", min.render())
        });
    }
    if let Some(max) = max {
        check(n.cmp(max) == Greater, ValidationRule::Maximum, &|| {
            format!("at most {}", max.render())
        });
    }
    if let Some(max) = exclusive_max {
        check(n.cmp(max) != Less, ValidationRule::ExclusiveMaximum, &|| {
            format!("less than {}", max.render())
        });
    }
    if let Some(of) = multiple_of {
        check(!n.is_multiple_of(of), ValidationRule::MultipleOf, &|| {
            format!("a multiple of {}", of.render())
        });
    }
    ok
}

/// The string rules, cheapest first: a string that breaks `minLength` or `maxLength` is not
/// matched against the `pattern` or the `format` at all (a 1 MB string over `maxLength 10`
/// must not cost a pattern run; docs/wire.md §4).
pub(crate) fn text(
    rules: &Text,
    s: &str,
    mut fail: impl FnMut(ValidationRule, String, String),
) -> bool {
    // Every rule is named here, so a new one does not compile until it is handled.
    let Text { min_length, max_length, ref pattern, format } = *rules;
    let mut ok = true;
    if min_length.is_some() || max_length.is_some() {
        // Lengths count Unicode scalar values; ASCII text needs no decoding to count.
        let len = if s.is_ascii() { s.len() } else { s.chars().count() } as u64;
        if let Some(min) = min_length
            && len < min
        {
            ok = false;
            fail(
                ValidationRule::MinLength,
                format!("a string of at least {}", count_characters(min)),
                chars(len),
            );
        }
        if let Some(max) = max_length
            && len > max
        {
            ok = false;
            fail(
                ValidationRule::MaxLength,
                format!("a string of at most {}", count_characters(max)),
                chars(len),
            );
        }
    }
    if !ok {
        return false;
    }
    if let Some(pattern) = &pattern {
        match pattern.matches(s) {
            Some(true) => {}
            Some(false) => {
                ok = false;
                fail(
                    ValidationRule::Pattern,
                    format!("a string matching /{}/", pattern.as_str()),
                    found::string(s),
                );
            }
            // Not matched: the check would cost more than one validation may spend.
            None => {
                ok = false;
                fail(
                    ValidationRule::PatternCost,
                    format!(
                        "a string /{}/ can be checked against within the pattern cost bound \
                         ({} state-bytes per validation: at most {} bytes for this pattern)",
                        pattern.as_str(),
                        crate::pattern::MAX_PATTERN_COST,
                        pattern.longest()
                    ),
                    format!("a string of {} bytes", s.len()),
                );
            }
        }
    }
    if let Some(format) = format
        && !format.check(s)
    {
        ok = false;
        fail(ValidationRule::Format, format!("a {} string", format.name()), found::string(s));
    }
    ok
}

fn chars(len: u64) -> String {
    format!("a string of {}", count_characters(len))
}

/// "1 character", "N characters": a bound of 1 is common (`minLength: 1`).
pub(crate) fn count_characters(n: u64) -> String {
    if n == 1 { "1 character".to_owned() } else { format!("{n} characters") }
}

/// "one of …" for an enum's values.
pub(crate) fn enum_expected(c: &Choices) -> String {
    let shown: Vec<String> = c.values.iter().take(12).map(|v| v.to_string()).collect();
    let more = if c.values.len() > 12 {
        format!(" (and {} more)", c.values.len() - 12)
    } else {
        String::new()
    };
    format!("one of {}{more}", shown.join(", "))
}

pub(crate) fn enum_has_string(c: &Choices, s: &str) -> bool {
    c.strings.iter().any(|v| &**v == s)
}

pub(crate) fn enum_has_number(c: &Choices, n: Num) -> bool {
    n.is_integer() && c.integers.iter().any(|v| v.cmp(n) == std::cmp::Ordering::Equal)
}

pub(crate) fn items(len: usize) -> String {
    if len == 1 { "1 item".to_owned() } else { format!("{len} items") }
}

/// "nesting at most N levels deep".
pub(crate) fn depth_expected(limit: usize) -> String {
    if limit == 1 {
        "nesting at most 1 level deep".to_owned()
    } else {
        format!("nesting at most {limit} levels deep")
    }
}

/// `minItems` and `maxItems` against an array of `len` items.
pub(crate) fn item_count(
    len: usize,
    min: Option<u64>,
    max: Option<u64>,
    mut fail: impl FnMut(ValidationRule, String, String),
) -> bool {
    let mut ok = true;
    if let Some(min) = min
        && (len as u64) < min
    {
        ok = false;
        fail(
            ValidationRule::MinItems,
            format!("an array of at least {}", items(min as usize)),
            format!("an array of {}", items(len)),
        );
    }
    if let Some(max) = max
        && (len as u64) > max
    {
        ok = false;
        fail(
            ValidationRule::MaxItems,
            format!("an array of at most {}", items(max as usize)),
            format!("an array of {}", items(len)),
        );
    }
    ok
}

/// `uniqueItems`: the first two JSON-equal items (the least `j`, then the least `i` before it),
/// reported with both indices.
pub(crate) fn unique_items(
    values: &[serde_json::Value],
    fail: impl FnMut(ValidationRule, String, String),
) -> bool {
    for j in 1..values.len() {
        for i in 0..j {
            if crate::number::json_equal(&values[i], &values[j]) {
                equal_items(i, j, fail);
                return false;
            }
        }
    }
    true
}

/// The `uniqueItems` error for items `i` and `j` (the bytes path finds them by hashing).
pub(crate) fn equal_items(
    i: usize,
    j: usize,
    mut fail: impl FnMut(ValidationRule, String, String),
) {
    fail(
        ValidationRule::UniqueItems,
        "items that are all different".to_owned(),
        format!("items {i} and {j} are equal"),
    );
}

/// The verdict on a map key for the common key types (any, string, enum, string literal),
/// decided on the text without building a `Value`; `None` for the others.
pub(crate) fn quick_key(program: &Program, keys: NodeId, key: &str) -> Option<bool> {
    match program.node(program.resolve(keys)) {
        Node::Any => Some(true),
        Node::String(rules) => Some(text(rules, key, |_, _, _| {})),
        Node::Enum(c) => Some(enum_has_string(c, key)),
        Node::Literal(serde_json::Value::String(s)) => Some(s == key),
        _ => None,
    }
}
