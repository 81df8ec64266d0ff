//! Text to `serde_json::Value`, strictly: duplicate keys and over-deep nesting are refused,
//! and every failure is turned into an [`Error`] with a pointer and a position.

use std::cell::{Cell, RefCell};

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::{Error, ErrorKind, SourceMap};

/// The deepest nesting read (the document object is level 1): serde_json's own limit, which
/// this reader keeps. Deeper input is refused, not recursed into.
pub(crate) const DEPTH_LIMIT: usize = 127;

/// The pointer of the first container nested deeper than [`DEPTH_LIMIT`], found without
/// recursion (a `Value` built in memory has no parser guarding its depth).
pub(crate) fn too_deep(value: &Value) -> Option<crate::Pointer> {
    let mut stack = vec![(value, 1usize, crate::Pointer::root())];
    while let Some((v, depth, at)) = stack.pop() {
        let children: Vec<(&Value, crate::Pointer)> = match v {
            Value::Array(items) => {
                items.iter().enumerate().map(|(i, c)| (c, at.index(i))).collect()
            }
            Value::Object(members) => members.iter().map(|(k, c)| (c, at.key(k))).collect(),
            _ => continue,
        };
        if depth > DEPTH_LIMIT {
            return Some(at);
        }
        stack.extend(children.into_iter().map(|(c, p)| (c, depth + 1, p)));
    }
    None
}

/// Parses `text` as one JSON value, refusing duplicate keys and integers it cannot keep exactly.
pub(crate) fn parse_value(text: &str) -> Result<Value, Error> {
    let duplicate = RefCell::new(None);
    let big_integral = Cell::new(false);
    let seed = StrictValue { duplicate: &duplicate, big_integral: &big_integral };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed
        .deserialize(&mut de)
        .and_then(|value| {
            de.end()?;
            Ok(value)
        })
        .map_err(|err| syntax_error(text, &err, duplicate.into_inner()))?;
    if big_integral.get() {
        refuse_big_integer_literals(text)?;
    }
    Ok(value)
}

/// serde_json reads an integer literal past the 64-bit range as the nearest double, silently
/// dropping digits; `1e30` is read the same way but loses nothing. Only the text tells them
/// apart, so when a big integral double was seen, the text is searched for such a literal.
fn refuse_big_integer_literals(text: &str) -> Result<(), Error> {
    let is_big_integer_literal = |token: &str| {
        let digits = token.strip_prefix('-').unwrap_or(token);
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && token.parse::<i64>().is_err()
            && token.parse::<u64>().is_err()
    };
    let map = SourceMap::new(text);
    match map.find_token(is_big_integer_literal) {
        Some((pointer, span)) => Err(Error {
            kind: Box::new(ErrorKind::IntegerOutOfRange {
                literal: text[span.start..span.end].to_owned(),
            }),
            pointer,
            span: Some(span),
            position: Some(map.position(span.start)),
        }),
        None => Ok(()),
    }
}

fn syntax_error(text: &str, err: &serde_json::Error, duplicate: Option<String>) -> Error {
    let map = SourceMap::new(text);
    let offset = map.offset_of_line_byte_column(err.line(), err.column());
    let (pointer, last_key) = map.pointer_at(offset);
    let point = map.char_span(offset);
    let mut pointer = pointer;
    let (kind, span) = if let Some(key) = duplicate {
        // The scan stands in the object, just past the duplicate member's value.
        pointer.push_key(&key);
        (ErrorKind::DuplicateKey { key }, last_key.unwrap_or(point))
    } else if text.trim().is_empty() {
        (ErrorKind::Empty, map.char_span(0))
    } else if err.classify() == serde_json::error::Category::Eof {
        // Point at the last character: an empty span at the very end shows no snippet.
        let last = text.char_indices().next_back().map_or(0, |(at, _)| at);
        (ErrorKind::Truncated, map.char_span(last))
    } else {
        let message = err.to_string();
        // serde_json appends " at line L column C"; the position is reported on its own.
        let message = match message.rfind(" at line ") {
            Some(at) => message[..at].to_owned(),
            None => message,
        };
        if message.starts_with("recursion limit exceeded") {
            (ErrorKind::TooDeep { limit: DEPTH_LIMIT }, point)
        } else {
            (ErrorKind::Syntax { message }, point)
        }
    };
    Error {
        kind: Box::new(kind),
        pointer,
        span: Some(span),
        position: Some(map.position(span.start)),
    }
}

/// Builds a `Value` like serde_json's own, but records and refuses a duplicate key.
#[derive(Clone, Copy)]
struct StrictValue<'a> {
    duplicate: &'a RefCell<Option<String>>,
    /// Set when a double at or past 2^63 with no fraction was read: maybe a cut-down integer.
    big_integral: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        if v.fract() == 0.0 && v.abs() >= 9.2e18 {
            self.big_integral.set(true);
        }
        // JSON text has no NaN or infinity, so serde_json never hands one over.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(self)?;
            if map.contains_key(&key) {
                let message = format!("duplicate key `{key}`");
                *self.duplicate.borrow_mut() = Some(key);
                return Err(de::Error::custom(message));
            }
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}
