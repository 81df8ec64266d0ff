//! Reading a body or message straight into the members a request is judged by, without first
//! building the whole document as a `serde_json::Value` (a map with an owned key per member).
//! The judgement itself is [`crate::envelope::Request::from_members`], the same one a parsed
//! `Value` goes through, so both ways of reading refuse and accept alike (a test checks they do).
//!
//! Duplicate keys are refused, wherever they are (docs/wire.md §4): every member's value is read
//! with the model's strict JSON reading ([`StrictJson`], the one contracts are read with), and a
//! member named twice, or a key named twice inside a member's value, is noted and the request
//! refused once it is read. Members other than the four, and values that are not objects, are
//! still read as `Value`s and dropped, not skipped with `IgnoredAny`: skipping accepts numbers a
//! `Value` refuses (`1e400`), and the two ways of reading must refuse alike.

use std::fmt;

use accord_schema_model::StrictJson;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::envelope::{Duplicate, Rejected, Request};

/// The four members of a request object the wire reads (docs/wire.md §2), each as sent.
#[derive(Debug, Default)]
pub(crate) struct Members {
    pub(crate) id: Option<Value>,
    pub(crate) jsonrpc: Option<Value>,
    pub(crate) method: Option<Value>,
    pub(crate) params: Option<Value>,
    /// The first name read twice, when one was.
    pub(crate) duplicate: Option<Duplicate>,
}

/// One element of a body, judged as soon as it is read: the members (four `Value`s, hundreds
/// of bytes) never leave the function that reads them, only the smaller request does.
pub(crate) type Judged = Result<Request, Rejected>;

/// A whole body: one element, or an array of them (a batch).
#[derive(Debug)]
pub(crate) enum Top {
    Single(Judged),
    Batch(Vec<Judged>),
}

/// Why a body was not read into a [`Top`].
pub(crate) enum Unread {
    /// Not JSON.
    Syntax(serde_json::Error),
    /// A batch with more elements than allowed: reading stopped at the first one past it.
    TooLong,
}

impl Top {
    /// Reads a body; a batch longer than `max_batch` stops the reading as soon as its element
    /// `max_batch + 1` begins, so a huge batch is never held in memory (nor its tail parsed).
    pub(crate) fn parse(bytes: &[u8], max_batch: usize) -> Result<Top, Unread> {
        let too_long = std::cell::Cell::new(false);
        let mut reader = serde_json::Deserializer::from_slice(bytes);
        let read = reader.deserialize_any(TopVisitor { max_batch, too_long: &too_long });
        if too_long.get() {
            return Err(Unread::TooLong);
        }
        let top = read.map_err(Unread::Syntax)?;
        reader.end().map_err(Unread::Syntax)?;
        Ok(top)
    }
}

/// Which member a key names.
enum Key {
    Id,
    Jsonrpc,
    Method,
    Params,
    /// Another member, by name (kept to notice it named twice).
    Other(String),
}

impl Key {
    fn of(name: &str) -> Key {
        match name {
            "id" => Key::Id,
            "jsonrpc" => Key::Jsonrpc,
            "method" => Key::Method,
            "params" => Key::Params,
            other => Key::Other(other.to_owned()),
        }
    }

    fn name(&self) -> &str {
        match self {
            Key::Id => "id",
            Key::Jsonrpc => "jsonrpc",
            Key::Method => "method",
            Key::Params => "params",
            Key::Other(name) => name,
        }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
        Ok(Key::of(name))
    }
}

fn read_members<'de, A: MapAccess<'de>>(mut map: A) -> Result<Members, A::Error> {
    let mut members = Members::default();
    // Names of other members, to notice one named twice (no allocation without any).
    let mut others: Vec<String> = Vec::new();
    while let Some(key) = map.next_key::<Key>()? {
        let strict = StrictJson::recording();
        let value = map.next_value_seed(strict.seed())?;
        let twice = match &key {
            Key::Id => members.id.is_some(),
            Key::Jsonrpc => members.jsonrpc.is_some(),
            Key::Method => members.method.is_some(),
            Key::Params => members.params.is_some(),
            Key::Other(name) => {
                let seen = others.contains(name);
                if !seen {
                    others.push(name.clone());
                }
                seen
            }
        };
        if members.duplicate.is_none() {
            members.duplicate = match (twice, strict.duplicate()) {
                (true, _) => Some(Duplicate::Member(key.name().to_owned())),
                (false, Some(inside)) if matches!(key, Key::Params) => {
                    Some(Duplicate::Param(inside))
                }
                (false, Some(_)) => Some(Duplicate::Member(key.name().to_owned())),
                (false, None) => None,
            };
        }
        match key {
            Key::Id => members.id = Some(value),
            Key::Jsonrpc => members.jsonrpc = Some(value),
            Key::Method => members.method = Some(value),
            Key::Params => members.params = Some(value),
            Key::Other(_) => {}
        }
    }
    Ok(members)
}

/// Drains a sequence that is not a request (read as JSON, kept nowhere; a duplicate key in it
/// changes nothing, the element being refused anyway).
fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Value>()?.is_some() {}
    Ok(())
}

/// What every non-object value reads as, for both visitors: `$make` builds the result.
macro_rules! not_an_object {
    ($make:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_i128<E: de::Error>(self, _: i128) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_u128<E: de::Error>(self, _: u128) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($make)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($make)
        }
    };
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Judged;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    not_an_object!(Request::not_an_object());

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Judged, A::Error> {
        skip_seq(seq)?;
        Ok(Request::not_an_object())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Judged, A::Error> {
        read_members(map).map(Request::from_members)
    }
}

struct ElementSeed;

impl<'de> DeserializeSeed<'de> for ElementSeed {
    type Value = Judged;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Judged, D::Error> {
        deserializer.deserialize_any(ElementVisitor)
    }
}

struct TopVisitor<'a> {
    max_batch: usize,
    too_long: &'a std::cell::Cell<bool>,
}

impl<'de> Visitor<'de> for TopVisitor<'_> {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    not_an_object!(Top::Single(Request::not_an_object()));

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(ElementSeed)? {
            if elements.len() == self.max_batch {
                self.too_long.set(true);
                return Err(de::Error::custom("the batch is longer than allowed"));
            }
            elements.push(element);
        }
        Ok(Top::Batch(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        read_members(map).map(|members| Top::Single(Request::from_members(members)))
    }
}
