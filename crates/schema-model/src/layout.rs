//! The canonical layout (docs/format.md, section 12.2): a JSON value as text, with short arrays
//! and small objects on one line.
//!
//! The rule is the one prettier and `buf format` follow, made exact so that two writers agree
//! byte for byte: an array or object goes on one line when that line, from its indentation to
//! its trailing comma, is at most [`WIDTH`] characters; otherwise each member or item goes on a
//! line of its own, laid out by the same rule. The layout depends on the value alone, never on
//! how the input was laid out, so writing is idempotent.
//!
//! Values are written straight into the output, with no string of their own: an array or
//! object is first written joined, on its line, and if the line grows past the width it is cut
//! back and written open. A joined attempt is given up at the first key or scalar that takes
//! the line past the width, so a failed one costs at most the width plus that key or scalar,
//! and writing stays linear in the size of the text.

use serde::Serialize;
use serde_json::{Map, Value};

/// The widest line a value is joined onto, in characters (Unicode scalar values), indentation
/// and trailing comma included. The same as the workspace's `rustfmt.toml`.
pub(crate) const WIDTH: usize = 100;

/// Spaces per level of nesting.
const INDENT: usize = 2;

/// `value` as canonical text, ending with one line feed.
pub(crate) fn to_text(value: &Value) -> String {
    let mut out = Vec::new();
    write_value(&mut out, value, 0, None, true);
    // The text is built as bytes because serde_json writes into an `io::Write`; it is made of
    // serde_json's output (UTF-8) and ASCII punctuation, and is only ever cut back to a length
    // it had before, so it is whole UTF-8.
    String::from_utf8(out).expect("the layout writes UTF-8")
}

/// Writes one line (or, when it does not fit, one block) for `value`: `indent` spaces, the
/// member's key if it has one, the value, then a comma unless it is the `last` of its parent.
fn write_value(out: &mut Vec<u8>, value: &Value, indent: usize, key: Option<&str>, last: bool) {
    let start = out.len();
    push_indent(out, indent);
    if let Some(key) = key {
        push_key(out, key);
    }
    let comma: &[u8] = if last { b"" } else { b"," };
    match Members::of(value) {
        // A scalar, `{}` and `[]` stay on their line however long it is.
        None => push_json(out, value),
        Some(members) => {
            let line = Line { start, limit: WIDTH - comma.len() };
            let body = out.len();
            if !write_joined(out, value, &line) {
                out.truncate(body);
                write_open(out, members, indent);
            }
        }
    }
    out.extend_from_slice(comma);
    out.push(b'\n');
}

/// Writes `members` open: the bracket, each member on a line of its own one level deeper, and
/// the closing bracket at `indent` (without the line feed, which the caller writes).
fn write_open(out: &mut Vec<u8>, members: Members<'_>, indent: usize) {
    let inner = indent + INDENT;
    match members {
        Members::Object(map) => {
            out.extend_from_slice(b"{\n");
            for (i, (name, member)) in map.iter().enumerate() {
                write_value(out, member, inner, Some(name), i + 1 == map.len());
            }
            push_indent(out, indent);
            out.push(b'}');
        }
        Members::Array(items) => {
            out.extend_from_slice(b"[\n");
            for (i, item) in items.iter().enumerate() {
                write_value(out, item, inner, None, i + 1 == items.len());
            }
            push_indent(out, indent);
            out.push(b']');
        }
    }
}

/// Writes `value` joined onto `line`; false, with the line left cut short, as soon as the line
/// is past its limit. The limit is checked after each key and each member, so a value that
/// does not fit is given up within one key or scalar of the width, however large it is.
fn write_joined(out: &mut Vec<u8>, value: &Value, line: &Line) -> bool {
    match Members::of(value) {
        Some(Members::Object(map)) => {
            out.extend_from_slice(b"{ ");
            for (i, (name, member)) in map.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                push_key(out, name);
                if !line.fits(out) || !write_joined(out, member, line) {
                    return false;
                }
            }
            out.extend_from_slice(b" }");
        }
        Some(Members::Array(items)) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                if !write_joined(out, item, line) {
                    return false;
                }
            }
            out.push(b']');
        }
        None => push_json(out, value),
    }
    line.fits(out)
}

/// The members of a non-empty object or array: the values that have a layout to choose.
enum Members<'v> {
    Object(&'v Map<String, Value>),
    Array(&'v [Value]),
}

impl<'v> Members<'v> {
    /// `None` for a scalar, `{}` or `[]`, which are always written as they are.
    fn of(value: &'v Value) -> Option<Self> {
        match value {
            Value::Object(map) if !map.is_empty() => Some(Members::Object(map)),
            Value::Array(items) if !items.is_empty() => Some(Members::Array(items)),
            _ => None,
        }
    }
}

/// A line being written joined: where it starts in the output (at its indentation) and how
/// many characters it may have, its trailing comma left out.
struct Line {
    start: usize,
    limit: usize,
}

impl Line {
    /// Whether the line, as far as it is written, is within its limit. Characters are only
    /// counted past `limit` bytes: a character takes at least one byte.
    fn fits(&self, out: &[u8]) -> bool {
        let text = &out[self.start..];
        text.len() <= self.limit || chars(text) <= self.limit
    }
}

/// The characters in whole UTF-8 text: every byte but the continuation bytes (`10xxxxxx`)
/// begins one. Most lines are ASCII, which is checked several bytes at a time.
fn chars(text: &[u8]) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.iter().filter(|&&byte| byte & 0xC0 != 0x80).count()
}

fn push_indent(out: &mut Vec<u8>, indent: usize) {
    out.resize(out.len() + indent, b' ');
}

/// An object's key and the `": "` after it.
fn push_key(out: &mut Vec<u8>, key: &str) {
    push_json(out, key);
    out.extend_from_slice(b": ");
}

/// A scalar, `{}`, `[]` or a key as serde_json writes it compactly (section 12.2's escapes and
/// numbers).
fn push_json(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Writing strings, numbers and the like into memory cannot fail.
    serde_json::to_writer(out, value).expect("a JSON value serializes");
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

    #[test]
    fn a_line_is_measured_as_written_escapes_included() {
        // `  "k\n": ["…", "…"],` is 2 + 7 + 2 + 4 + 3 characters around the two strings, and
        // more bytes than WIDTH, so the characters are counted after each member.
        for (extra, joined) in [(0, true), (1, false)] {
            let a = "é".repeat(40);
            let b = "é".repeat(WIDTH - 18 - 40 + extra);
            let text = to_text(&json!({ "k\n": [a, b], "z": 1 }));
            let line = text.lines().nth(1).unwrap();
            assert_eq!(line.ends_with("],"), joined, "{text}");
            if joined {
                assert_eq!(line.chars().count(), WIDTH);
            } else {
                // The joined attempt left nothing behind: the array is open, an item a line.
                assert_eq!(line, r#"  "k\n": ["#, "{text}");
                assert_eq!(text.lines().count(), 7, "{text}");
            }
        }
    }
}
