//! `uniqueItems` on the bytes path: each item is hashed by its JSON meaning as it is read, and
//! only items of equal hashes are compared. An array of scalars is checked without building
//! anything (no `Value`; no allocation once the pool's table has grown), in one pass instead of
//! a comparison of every pair.
//!
//! Equality is the value path's (`checks::unique_items`, `json_equal`): numbers by [`NumKey`]
//! (`1.0`, `1.00` and `1e0` are one double; `1` is an integer, and differs from them), strings by
//! their text once escapes are decoded, objects whatever the order of their members. An item
//! that is an array or an object is built as a `Value` (for its hash, and for `json_equal` when
//! a hash matches); a scalar never is.

use std::hash::{BuildHasher, Hasher, RandomState};

use serde_json::Value;

use super::lex::Table;
use super::{ByteCheck, Res, Str};
use crate::number::{Num, NumKey, json_equal};
use crate::program::NodeId;

/// A scalar by its JSON meaning: two are equal exactly when `json_equal` says the values are.
#[derive(PartialEq, Eq, Hash)]
enum Scalar<'t> {
    Null,
    Bool(bool),
    Number(NumKey),
    Text(&'t str),
}

impl Scalar<'_> {
    fn of(value: &Value) -> Option<Scalar<'_>> {
        Some(match value {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => Scalar::Number(Num::of(n).key()),
            Value::String(s) => Scalar::Text(s),
            Value::Array(_) | Value::Object(_) => return None,
        })
    }
}

/// An item as its equality is judged: a scalar read in place, or a container built.
enum Item<'t> {
    Scalar(Scalar<'t>),
    Container(Value),
}

impl Item<'_> {
    fn same(&self, other: &Item<'_>) -> bool {
        match (self, other) {
            (Item::Scalar(a), Item::Scalar(b)) => a == b,
            (Item::Container(a), Item::Container(b)) => json_equal(a, b),
            // A container serde_json could not build stands as `null` (see `with_item`).
            (Item::Container(v), Item::Scalar(s)) | (Item::Scalar(s), Item::Container(v)) => {
                Scalar::of(v).as_ref() == Some(s)
            }
        }
    }

    fn hash(&self, hasher: &RandomState) -> u64 {
        match self {
            Item::Scalar(s) => hasher.hash_one(s),
            Item::Container(v) => hash_value(v, hasher),
        }
    }
}

/// A hash of `value` that equal values (by `json_equal`) share: scalars as [`Scalar`]s, arrays
/// by their items in order, objects by their members in any order (a sum of the members'
/// hashes).
fn hash_value(value: &Value, hasher: &RandomState) -> u64 {
    if let Some(scalar) = Scalar::of(value) {
        return hasher.hash_one(scalar);
    }
    match value {
        Value::Array(items) => {
            let mut state = hasher.build_hasher();
            state.write_u8(b'[');
            for item in items {
                state.write_u64(hash_value(item, hasher));
            }
            state.finish()
        }
        Value::Object(members) => {
            let sum = members.iter().fold(0u64, |sum, (key, member)| {
                sum.wrapping_add(hasher.hash_one((key, hash_value(member, hasher))))
            });
            hasher.hash_one((b'{', sum))
        }
        _ => unreachable!("scalars are hashed above"),
    }
}

/// Where an item is in the input (its whole token or container), and its index.
#[derive(Clone, Copy)]
pub(super) struct At {
    start: usize,
    end: usize,
    index: usize,
}

/// The items of one `uniqueItems` array read so far.
pub(super) type ItemTable = Table<At>;

/// Two items found equal: the index of the first, of the second.
pub(super) type Pair = (usize, usize);

/// The `uniqueItems` check of one array, fed each item as it is read.
struct Unique {
    table: ItemTable,
    /// The first two equal items (the least second index, then the least first), once found.
    equal: Option<Pair>,
}

impl Unique {
    /// A check with a table from the pool of `check` (give it back with [`Unique::finish`]).
    fn new(check: &mut ByteCheck<'_, '_>) -> Unique {
        let mut table = check.scratch.items.pop().unwrap_or_default();
        table.clear();
        Unique { table, equal: None }
    }

    /// Adds item `index`, read from `start` to where `check` stands now (the item whole: any
    /// value `check` has consumed is well formed). `false` once two items are equal: the later
    /// ones are not looked at, the first pair being the one reported.
    pub(super) fn add(
        &mut self,
        check: &mut ByteCheck<'_, '_>,
        start: usize,
        index: usize,
    ) -> bool {
        if self.equal.is_some() {
            return false;
        }
        let at = At { start, end: check.pos, index };
        let hasher = check.scratch.hasher.clone();
        let hash = check.with_item(at, |_, item| item.hash(&hasher));
        if let Some(earlier) = self.table.insert(hash, at, |other| check.same_items(other, at)) {
            self.equal = Some((earlier.index, index));
        }
        self.equal.is_none()
    }

    /// Gives the table back to the pool; the first two equal items, if any.
    fn finish(self, check: &mut ByteCheck<'_, '_>) -> Option<Pair> {
        check.scratch.items.push(self.table);
        self.equal
    }
}

impl ByteCheck<'_, '_> {
    /// The items of a `uniqueItems` array, each checked against `items` and hashed as it is
    /// read: (all passed and no two are equal, the count, the first two equal items if any).
    pub(super) fn unique_elements(&mut self, items: NodeId) -> Res<(bool, usize, Option<Pair>)> {
        let mut unique = Unique::new(self);
        let read = self.elements(|this, i| {
            this.ws();
            let start = this.pos;
            let ok = this.item(items, i)?;
            // An item that failed without errors wanted may not have been read whole (nor need
            // it be: the array fails, and reading stops at it).
            Ok(if ok || this.detailed { unique.add(this, start, i) && ok } else { ok })
        });
        let equal = unique.finish(self);
        let (ok, n) = read?;
        Ok((ok, n, equal))
    }

    fn same_items(&mut self, a: At, b: At) -> bool {
        // Two escaped strings: the inner one is decoded into a buffer of its own (an allocation;
        // met only when the hashes match, that is for equal items, which fail anyway).
        self.with_item(a, |this, x| this.with_item(b, |_, y| x.same(&y)))
    }

    /// `f` on the item at `at`: a scalar read in place (escaped text decoded into the reused
    /// buffer), a container built as a `Value`.
    fn with_item<R>(&mut self, at: At, f: impl FnOnce(&mut Self, Item<'_>) -> R) -> R {
        let token = &self.bytes[at.start..at.end];
        let scalar = match token.first() {
            Some(b'n') => Scalar::Null,
            Some(b't') => Scalar::Bool(true),
            Some(b'f') => Scalar::Bool(false),
            Some(b'"') => {
                let raw = &token[1..token.len() - 1];
                let s = Str { raw, escaped: raw.contains(&b'\\') };
                return self.with_text(s, |this, text| f(this, Item::Scalar(Scalar::Text(text))));
            }
            Some(b'[' | b'{') => {
                // Past serde_json's own nesting limit the value cannot be built: it stands as
                // `null`, as it always has here (the value path never gets such a value).
                let value = serde_json::from_slice(token).unwrap_or(Value::Null);
                return f(self, Item::Container(value));
            }
            // A number token, ASCII by construction.
            _ => Scalar::Number(Num::parse(std::str::from_utf8(token).unwrap_or_default()).key()),
        };
        f(self, Item::Scalar(scalar))
    }
}
