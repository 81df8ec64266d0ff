//! The canonical layout (docs/format.md, section 12.2): a JSON value as text, with short arrays
//! and small objects on one line.
//!
//! The rule is the one prettier and `buf format` follow, made exact so that two writers agree
//! byte for byte: an array or object goes on one line when that line, from its indentation to
//! its trailing comma, is at most [`WIDTH`] characters; otherwise each member or item goes on a
//! line of its own, laid out by the same rule. The layout depends on the value alone, never on
//! how the input was laid out, so writing is idempotent.

use std::fmt::Write as _;

use serde_json::Value;

/// The widest line a value is joined onto, in characters (Unicode scalar values), indentation
/// and trailing comma included. The same as the workspace's `rustfmt.toml`.
pub(crate) const WIDTH: usize = 100;

/// The most bytes one character takes in UTF-8: a line of more bytes than `WIDTH` times this
/// has more than `WIDTH` characters.
const MAX_UTF8: usize = 4;

/// Spaces per level of nesting.
const INDENT: usize = 2;

/// `value` as canonical text, ending with one line feed.
pub(crate) fn to_text(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0, "", "");
    out
}

/// Writes one line (or, when it does not fit, one block) for `value`: `indent` spaces, `key`
/// (`"name": ` or nothing), the value, then `comma` (`,` or nothing).
fn write_value(out: &mut String, value: &Value, indent: usize, key: &str, comma: &str) {
    let start = out.len();
    push_indent(out, indent);
    out.push_str(key);
    let (open, close, members) = match value {
        Value::Object(map) if !map.is_empty() => ('{', '}', Members::Object(map)),
        Value::Array(items) if !items.is_empty() => ('[', ']', Members::Array(items)),
        _ => {
            write_flat(out, value);
            out.push_str(comma);
            out.push('\n');
            return;
        }
    };
    // Try the one-line form, and keep it if it fits. A line longer than the width is given up
    // as soon as it is, so a large value is not written out flat for nothing.
    let mut line = String::new();
    if flat_within(&mut line, value, WIDTH * MAX_UTF8) {
        let width = out[start..].chars().count() + line.chars().count() + comma.chars().count();
        if width <= WIDTH {
            out.push_str(&line);
            out.push_str(comma);
            out.push('\n');
            return;
        }
    }
    out.push(open);
    out.push('\n');
    match members {
        Members::Object(map) => {
            let last = map.len() - 1;
            for (i, (name, member)) in map.iter().enumerate() {
                let key = format!("{}: ", string(name));
                write_value(out, member, indent + INDENT, &key, if i == last { "" } else { "," });
            }
        }
        Members::Array(items) => {
            let last = items.len() - 1;
            for (i, item) in items.iter().enumerate() {
                write_value(out, item, indent + INDENT, "", if i == last { "" } else { "," });
            }
        }
    }
    push_indent(out, indent);
    out.push(close);
    out.push_str(comma);
    out.push('\n');
}

enum Members<'v> {
    Object(&'v serde_json::Map<String, Value>),
    Array(&'v [Value]),
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// Writes `value` on one line into `line`; false, with `line` cut short, as soon as `line` has
/// more than `limit` bytes (the caller counts the characters of what comes back).
fn flat_within(line: &mut String, value: &Value, limit: usize) -> bool {
    match value {
        Value::Object(map) if !map.is_empty() => {
            line.push_str("{ ");
            for (i, (name, member)) in map.iter().enumerate() {
                if i > 0 {
                    line.push_str(", ");
                }
                line.push_str(&string(name));
                line.push_str(": ");
                if line.len() > limit || !flat_within(line, member, limit) {
                    return false;
                }
            }
            line.push_str(" }");
        }
        Value::Array(items) if !items.is_empty() => {
            line.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    line.push_str(", ");
                }
                if !flat_within(line, item, limit) {
                    return false;
                }
            }
            line.push(']');
        }
        _ => write_flat(line, value),
    }
    line.len() <= limit
}

/// A scalar, `{}` or `[]` as serde_json writes it (section 12.2's escapes and numbers).
fn write_flat(out: &mut String, value: &Value) {
    match value {
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        // Writing a scalar into a String cannot fail.
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// A key as JSON text.
fn string(name: &str) -> String {
    Value::String(name.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{WIDTH, to_text};

    #[test]
    fn what_fits_goes_on_one_line_and_what_does_not_is_broken() {
        let value = json!({
            "kind": "object",
            "fields": { "id": { "type": { "kind": "string" } }, "tags": { "type": { "kind": "array", "items": { "kind": "string" } } } },
            "examples": [[1, 2], {}, []]
        });
        assert_eq!(
            to_text(&value),
            r#"{
  "kind": "object",
  "fields": {
    "id": { "type": { "kind": "string" } },
    "tags": { "type": { "kind": "array", "items": { "kind": "string" } } }
  },
  "examples": [[1, 2], {}, []]
}
"#
        );
    }

    #[test]
    fn the_width_counts_indentation_key_and_comma() {
        // A line of exactly WIDTH characters stays joined; one more breaks it.
        for (extra, joined) in [(0, true), (1, false)] {
            // `  "k": ["…"],` is 2 + 5 + 4 + 1 characters around the string.
            let s = "x".repeat(WIDTH - 12 + extra);
            let text = to_text(&json!({ "k": [s], "z": 1 }));
            let line = text.lines().nth(1).unwrap();
            assert_eq!(line.ends_with("],"), joined, "{text}");
            if joined {
                assert_eq!(line.chars().count(), WIDTH);
            }
        }
    }

    #[test]
    fn characters_are_counted_not_bytes() {
        let s = "é".repeat(WIDTH - 12);
        let text = to_text(&json!({ "k": [s], "z": 1 }));
        assert!(text.lines().nth(1).unwrap().ends_with("],"), "{text}");
    }
}
