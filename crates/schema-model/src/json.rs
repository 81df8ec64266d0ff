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
    // Nearly every value is within the limit: a walk that builds no pointers says so, and only
    // a value past it is walked again for the place.
    if deepest_within_limit(value) {
        return None;
    }
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

/// Whether no container of `value` is nested deeper than [`DEPTH_LIMIT`] (without recursion).
fn deepest_within_limit(value: &Value) -> bool {
    let mut stack = vec![(value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: &mut dyn Iterator<Item = &Value> = match v {
            Value::Array(items) => &mut items.iter(),
            Value::Object(members) => &mut members.values(),
            _ => continue,
        };
        if depth > DEPTH_LIMIT {
            return false;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    true
}

/// Parses `text` as one JSON value, refusing duplicate keys and integers it cannot keep exactly.
pub(crate) fn parse_value(text: &str) -> Result<Value, Error> {
    parse_tree(text)
}

/// Parses `text` as one JSON [`Tree`] under the rules of [`parse_value`].
pub(crate) fn parse_tree<T: Tree>(text: &str) -> Result<T, Error> {
    let strict = StrictJson::refusing();
    let scratch = T::Scratch::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictTree::<T>::new(&strict, &scratch)
        .deserialize(&mut de)
        .and_then(|value| {
            de.end()?;
            Ok(value)
        })
        .map_err(|err| syntax_error(text, &err, strict.duplicate.take()))?;
    if strict.big_integral.get() {
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

fn syntax_error(text: &str, err: &serde_json::Error, duplicate: Option<DuplicateKey>) -> Error {
    let map = SourceMap::new(text);
    let offset = map.offset_of_line_byte_column(err.line(), err.column());
    let (mut pointer, last_key) = map.pointer_at(offset);
    let point = map.char_span(offset);
    let (kind, span) = if let Some(DuplicateKey { pointer: whole, key }) = duplicate {
        // The reading built the member's pointer as the error left each container (serde_json
        // stops somewhere in or after the second value, which alone does not tell the object);
        // the second member with that pointer is the one to show.
        pointer = crate::Pointer::from_escaped(whole);
        let second = map.locate_second(&pointer).map(|at| at.label());
        (ErrorKind::DuplicateKey { key }, second.or(last_key).unwrap_or(point))
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

/// A key an object names twice, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The JSON Pointer of the member named twice, from the value read (`/a/0/b`).
    pub pointer: String,
    /// The key.
    pub key: String,
}

/// The one strict JSON reading of accord, for contracts and the wire alike: a
/// `serde_json::Value` read from any serde_json deserializer, with every object's keys named
/// once. A duplicate key is ambiguous (serde_json keeps the last, many readers the first: a
/// gateway and a plant that disagree about what was asked is the request-smuggling class), so
/// the model refuses a contract that has one and the wire a request.
///
/// [`StrictJson::refusing`] stops reading at the first duplicate (with a serde error);
/// [`StrictJson::recording`] notes the first and reads on, so that a caller can still judge
/// the rest (a body's syntax, a request's id) and refuse with its own error.
///
/// ```
/// use accord_schema_model::StrictJson;
/// use serde::de::DeserializeSeed;
///
/// let strict = StrictJson::recording();
/// let mut de = serde_json::Deserializer::from_str(r#"{"a": [{"b": 1, "b": 2}]}"#);
/// let value = strict.seed().deserialize(&mut de).unwrap();
/// assert_eq!(value["a"][0]["b"], 2);
/// let dup = strict.duplicate().unwrap();
/// assert_eq!((dup.pointer.as_str(), dup.key.as_str()), ("/a/0/b", "b"));
/// ```
#[derive(Debug)]
pub struct StrictJson {
    refuse: bool,
    duplicate: RefCell<Option<DuplicateKey>>,
    /// The depth of the container `duplicate.pointer` is relative to, while the containers
    /// around it are still being read (each prefixes its own segment as it is left).
    pending: Cell<usize>,
    depth: Cell<usize>,
    /// Set when a double at or past 2^63 with no fraction was read: maybe a cut-down integer.
    big_integral: Cell<bool>,
}

impl StrictJson {
    /// A reading that fails at the first duplicate key.
    pub fn refusing() -> StrictJson {
        StrictJson { refuse: true, ..StrictJson::recording() }
    }

    /// A reading that records the first duplicate key (the last value of it is kept) and reads
    /// on.
    pub fn recording() -> StrictJson {
        StrictJson {
            refuse: false,
            duplicate: RefCell::new(None),
            pending: Cell::new(0),
            depth: Cell::new(0),
            big_integral: Cell::new(false),
        }
    }

    /// The seed that reads one value.
    pub fn seed(&self) -> StrictValue<'_> {
        StrictValue { strict: self }
    }

    /// The first duplicate key read so far, with its pointer from the outermost value read.
    pub fn duplicate(&self) -> Option<DuplicateKey> {
        self.duplicate.borrow().clone()
    }

    /// A container's reading ends in `err`: the child `segment` it was reading (if the error
    /// came from one) gains its place in a duplicate's pointer, as a finished child does, and
    /// the container is left. So a refused duplicate's pointer is whole when the error reaches
    /// the top, wherever serde_json says the reading stopped.
    fn leave<E>(&self, segment: Option<&dyn fmt::Display>, err: E) -> E {
        if let Some(segment) = segment {
            self.left_child(segment);
        }
        self.depth.set(self.depth.get() - 1);
        err
    }

    /// Called as the child `segment` of the container at the current depth is done: when a
    /// duplicate was found inside that child, its pointer gains the segment.
    fn left_child(&self, segment: &dyn fmt::Display) {
        let depth = self.depth.get();
        if self.pending.get() == depth + 1
            && let Some(dup) = self.duplicate.borrow_mut().as_mut()
        {
            let segment = segment.to_string().replace('~', "~0").replace('/', "~1");
            dup.pointer.insert_str(0, &format!("/{segment}"));
            self.pending.set(depth);
        }
    }
}

/// Reads one value for a [`StrictJson`] ([`StrictJson::seed`]).
#[derive(Clone, Copy)]
pub struct StrictValue<'a> {
    strict: &'a StrictJson,
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        StrictTree::<Value>::new(self.strict, &()).deserialize(deserializer)
    }
}

/// A JSON tree the strict reading can build: `serde_json::Value` for the wire and
/// [`parse_json`](crate::parse_json), [`Node`] for documents. One visitor holds the strict rules
/// for both.
pub(crate) trait Tree: Sized {
    /// An array while its items are read.
    type Array;
    /// An object while its members are read.
    type Object;
    /// Room one reading reuses for every container it builds.
    type Scratch: Default;
    fn null() -> Self;
    fn bool(value: bool) -> Self;
    fn number(value: Number) -> Self;
    fn string(value: String) -> Self;
    fn new_array(scratch: &Self::Scratch) -> Self::Array;
    fn push(scratch: &Self::Scratch, array: &mut Self::Array, item: Self);
    fn array(scratch: &Self::Scratch, array: Self::Array) -> Self;
    fn new_object(scratch: &Self::Scratch) -> Self::Object;
    fn contains_key(scratch: &Self::Scratch, object: &Self::Object, key: &str) -> bool;
    /// Adds a member; a key already there keeps its place and takes the new value.
    fn insert(scratch: &Self::Scratch, object: &mut Self::Object, key: String, value: Self);
    fn object(scratch: &Self::Scratch, object: Self::Object) -> Self;
}

impl Tree for Value {
    type Array = Vec<Value>;
    type Object = Map<String, Value>;
    type Scratch = ();

    fn null() -> Value {
        Value::Null
    }

    fn bool(value: bool) -> Value {
        Value::Bool(value)
    }

    fn number(value: Number) -> Value {
        Value::Number(value)
    }

    fn string(value: String) -> Value {
        Value::String(value)
    }

    fn new_array((): &()) -> Vec<Value> {
        Vec::new()
    }

    fn push((): &(), array: &mut Vec<Value>, item: Value) {
        array.push(item);
    }

    fn array((): &(), array: Vec<Value>) -> Value {
        Value::Array(array)
    }

    fn new_object((): &()) -> Map<String, Value> {
        Map::new()
    }

    fn contains_key((): &(), object: &Map<String, Value>, key: &str) -> bool {
        object.contains_key(key)
    }

    fn insert((): &(), object: &mut Map<String, Value>, key: String, value: Value) {
        object.insert(key, value);
    }

    fn object((): &(), object: Map<String, Value>) -> Value {
        Value::Object(object)
    }
}

/// The strict reading's visitor, building a `T`.
pub(crate) struct StrictTree<'a, T: Tree> {
    strict: &'a StrictJson,
    scratch: &'a T::Scratch,
}

impl<'a, T: Tree> StrictTree<'a, T> {
    pub(crate) fn new(strict: &'a StrictJson, scratch: &'a T::Scratch) -> Self {
        StrictTree { strict, scratch }
    }
}

impl<T: Tree> Clone for StrictTree<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Tree> Copy for StrictTree<'_, T> {}

impl<'de, T: Tree> DeserializeSeed<'de> for StrictTree<'_, T> {
    type Value = T;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: Tree> Visitor<'de> for StrictTree<'_, T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<T, E> {
        Ok(T::bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<T, E> {
        Ok(T::number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<T, E> {
        Ok(T::number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<T, E> {
        if v.fract() == 0.0 && v.abs() >= 9.2e18 {
            self.strict.big_integral.set(true);
        }
        // JSON text has no NaN or infinity, so serde_json never hands one over.
        Ok(Number::from_f64(v).map_or_else(T::null, T::number))
    }

    fn visit_str<E>(self, v: &str) -> Result<T, E> {
        Ok(T::string(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<T, E> {
        Ok(T::string(v))
    }

    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::null())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let (strict, scratch) = (self.strict, self.scratch);
        strict.depth.set(strict.depth.get() + 1);
        let mut items = T::new_array(scratch);
        let mut index = 0usize;
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(item)) => T::push(scratch, &mut items, item),
                Ok(None) => break,
                Err(err) => return Err(strict.leave(Some(&index), err)),
            }
            strict.left_child(&index);
            index += 1;
        }
        strict.depth.set(strict.depth.get() - 1);
        Ok(T::array(scratch, items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<T, A::Error> {
        let (strict, scratch) = (self.strict, self.scratch);
        strict.depth.set(strict.depth.get() + 1);
        let mut object = T::new_object(scratch);
        loop {
            let key = match access.next_key::<String>() {
                Ok(Some(key)) => key,
                Ok(None) => break,
                Err(err) => return Err(strict.leave(None, err)),
            };
            let value = match access.next_value_seed(self) {
                Ok(value) => value,
                Err(err) => return Err(strict.leave(Some(&key), err)),
            };
            strict.left_child(&key);
            if T::contains_key(scratch, &object, &key) {
                let mut first = strict.duplicate.borrow_mut();
                if first.is_none() {
                    let pointer = format!("/{}", key.replace('~', "~0").replace('/', "~1"));
                    *first = Some(DuplicateKey { pointer, key: key.clone() });
                    strict.pending.set(strict.depth.get());
                }
                drop(first);
                if strict.refuse {
                    let message = format!("duplicate key `{key}`");
                    return Err(strict.leave(None, de::Error::custom(message)));
                }
            }
            T::insert(scratch, &mut object, key, value);
        }
        strict.depth.set(strict.depth.get() - 1);
        Ok(T::object(scratch, object))
    }
}
