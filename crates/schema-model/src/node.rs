//! The reader's own JSON tree: what a document's text is parsed into before the reader's rules
//! turn it into the model.
//!
//! A `serde_json::Value` object is an `IndexMap` (preserve_order): a hash table and an entry list
//! per object, every key hashed as it is inserted. The reader never looks a member up by hash; it
//! takes a record's handful of members by name and keeps the rest in order. A [`Node`] object is
//! the members as read, in a `Vec`, so reading a large contract allocates about half as much and
//! hashes nothing but the keys of large objects (to refuse a duplicate). Only what the model keeps
//! as JSON (unknown members, examples, defaults, literal and enum values) becomes a `Value`.

use std::cell::RefCell;
use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};
use serde_json::{Map, Number, Value};

use crate::json::Tree;

/// One JSON value, objects as their members in document order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The same value as a `serde_json::Value`, for the members the model keeps as JSON.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => Value::Number(n),
            Node::String(s) => Value::String(s),
            Node::Array(items) => Value::Array(items.into_iter().map(Node::into_value).collect()),
            Node::Object(members) => Value::Object(into_map(members)),
        }
    }

    /// The tree of a `Value` (for [`Document::from_value`](crate::Document::from_value)). Its
    /// depth is checked before, so this recursion is bounded.
    pub(crate) fn from_value(value: Value) -> Node {
        match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(b),
            Value::Number(n) => Node::Number(n),
            Value::String(s) => Node::String(s),
            Value::Array(items) => Node::Array(items.into_iter().map(Node::from_value).collect()),
            Value::Object(members) => {
                Node::Object(members.into_iter().map(|(k, v)| (k, Node::from_value(v))).collect())
            }
        }
    }

    /// How messages name the JSON type of this value ("an integer", "an object"…).
    pub(crate) fn json_type(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Number(n) if n.is_f64() => "a number written with a fraction or an exponent",
            Node::Number(_) => "an integer",
            Node::String(_) => "a string",
            Node::Array(_) => "an array",
            Node::Object(_) => "an object",
        }
    }
}

/// Members into a `serde_json` map, in their order.
pub(crate) fn into_map(members: Vec<(String, Node)>) -> Map<String, Value> {
    members.into_iter().map(|(k, v)| (k, v.into_value())).collect()
}

/// Objects with more members than this get a hash index of their keys while they are read; a
/// smaller one is searched from the start, which is faster than hashing for a record's handful
/// of members and keeps the check linear for a namespace's thousands of types.
const INDEX_FROM: usize = 16;

/// The containers being read, innermost last. A container's items or members are pushed here
/// as they are read and moved out into a `Vec` of exactly their number when it closes, so no
/// container's `Vec` grows (and reallocates) item by item. A nested container is read, and
/// closed, before its parent's member that holds it is pushed: the open containers' entries are
/// always in the order the containers opened.
#[derive(Default)]
pub(crate) struct Scratch {
    items: RefCell<Vec<Node>>,
    members: RefCell<Vec<(String, Node)>>,
}

/// An object being read: where its members start in [`Scratch`], and for a large one an index
/// of where each key is (relative to the start).
pub(crate) struct Members {
    start: usize,
    index: Option<(HashTable<usize>, DefaultHashBuilder)>,
}

impl Members {
    fn position(&self, entries: &[(String, Node)], key: &str) -> Option<usize> {
        match &self.index {
            None => entries.iter().position(|(k, _)| k == key),
            Some((table, hasher)) => {
                table.find(hasher.hash_one(key), |&i| entries[i].0 == key).copied()
            }
        }
    }

    /// Indexes the last of `entries`, and all of them once they are more than [`INDEX_FROM`].
    fn index_last(&mut self, entries: &[(String, Node)]) {
        let hash_of = |hasher: &DefaultHashBuilder, i: usize| hasher.hash_one(&entries[i].0);
        match &mut self.index {
            Some((table, hasher)) => {
                let last = entries.len() - 1;
                table.insert_unique(hash_of(hasher, last), last, |&i| hash_of(hasher, i));
            }
            None if entries.len() > INDEX_FROM => {
                let hasher = DefaultHashBuilder::default();
                let mut table = HashTable::with_capacity(entries.len() * 2);
                for i in 0..entries.len() {
                    table.insert_unique(hash_of(&hasher, i), i, |&j| hash_of(&hasher, j));
                }
                self.index = Some((table, hasher));
            }
            None => {}
        }
    }
}

impl Tree for Node {
    type Array = usize;
    type Object = Members;
    type Scratch = Scratch;

    fn null() -> Node {
        Node::Null
    }

    fn bool(value: bool) -> Node {
        Node::Bool(value)
    }

    fn number(value: Number) -> Node {
        Node::Number(value)
    }

    fn string(value: String) -> Node {
        Node::String(value)
    }

    fn new_array(scratch: &Scratch) -> usize {
        scratch.items.borrow().len()
    }

    fn push(scratch: &Scratch, _: &mut usize, item: Node) {
        scratch.items.borrow_mut().push(item);
    }

    fn array(scratch: &Scratch, start: usize) -> Node {
        Node::Array(scratch.items.borrow_mut().split_off(start))
    }

    fn new_object(scratch: &Scratch) -> Members {
        Members { start: scratch.members.borrow().len(), index: None }
    }

    fn contains_key(scratch: &Scratch, object: &Members, key: &str) -> bool {
        object.position(&scratch.members.borrow()[object.start..], key).is_some()
    }

    fn insert(scratch: &Scratch, object: &mut Members, key: String, value: Node) {
        let mut members = scratch.members.borrow_mut();
        let entries = &mut members[object.start..];
        // As an `IndexMap` does: a key named again keeps its place and takes the new value.
        if let Some(at) = object.position(entries, &key) {
            entries[at].1 = value;
            return;
        }
        members.push((key, value));
        object.index_last(&members[object.start..]);
    }

    fn object(scratch: &Scratch, object: Members) -> Node {
        Node::Object(scratch.members.borrow_mut().split_off(object.start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object_of(scratch: &Scratch, keys: impl IntoIterator<Item = String>) -> Members {
        let mut object = Node::new_object(scratch);
        for (i, key) in keys.into_iter().enumerate() {
            Node::insert(scratch, &mut object, key, Node::Number(i.into()));
        }
        object
    }

    #[test]
    fn a_large_object_finds_every_key_through_its_index() {
        let scratch = Scratch::default();
        let object = object_of(&scratch, (0..1000).map(|i| format!("k{i}")));
        assert!(object.index.is_some());
        assert!((0..1000).all(|i| Node::contains_key(&scratch, &object, &format!("k{i}"))));
        assert!(!Node::contains_key(&scratch, &object, "k1000"));
    }

    #[test]
    fn a_key_named_again_keeps_its_place_and_takes_the_new_value() {
        for size in [3, 40] {
            let scratch = Scratch::default();
            let mut object = object_of(&scratch, (0..size).map(|i| format!("k{i}")));
            Node::insert(&scratch, &mut object, "k1".to_owned(), Node::Null);
            let Node::Object(entries) = Node::object(&scratch, object) else { unreachable!() };
            assert_eq!(entries.len(), size);
            assert_eq!(entries[1], ("k1".to_owned(), Node::Null));
        }
    }

    #[test]
    fn nested_containers_take_their_own_entries_from_the_scratch() {
        let node: Node = crate::json::parse_tree(r#"{"a": [1, {"b": [2, 3]}, 4], "c": {}}"#)
            .expect("valid JSON");
        let expected = serde_json::json!({"a": [1, {"b": [2, 3]}, 4], "c": {}});
        assert_eq!(node.into_value(), expected);
    }

    #[test]
    fn a_value_survives_the_way_through_a_node() {
        let value = serde_json::json!({"b": [1, -2, 2.5, "x", null, true], "a": {"c": {}}});
        let back = Node::from_value(value.clone()).into_value();
        assert_eq!(back, value);
        let order: Vec<&String> = back.as_object().unwrap().keys().collect();
        assert_eq!(order, ["b", "a"]);
    }
}
