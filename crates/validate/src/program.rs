//! The compiled form of a contract's types: a flat arena of nodes linked by index, with refs
//! resolved, patterns compiled and discriminators tabulated. Both validation paths (values and
//! bytes) and the generator walk this one structure.

use std::collections::HashMap;

use regex::Regex;
use serde_json::Value;

use crate::Format;
use crate::number::Num;

/// An index into [`Program::nodes`].
pub(crate) type NodeId = u32;

/// Every compiled node of one contract.
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub(crate) nodes: Vec<Node>,
}

impl Program {
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Follows `Ref` links to the node they name. Compilation refuses alias cycles, so this ends.
    pub(crate) fn resolve(&self, mut id: NodeId) -> NodeId {
        while let Node::Ref(target) = self.node(id) {
            id = *target;
        }
        id
    }
}

/// One compiled type.
#[derive(Debug)]
pub(crate) enum Node {
    Any,
    Null,
    Boolean,
    Integer(Numeric),
    Number(Numeric),
    String(Text),
    Literal(Value),
    Enum(Choices),
    Array(List),
    Tuple(Vec<NodeId>),
    Object(Record),
    Map(Dict),
    Union(Union),
    /// A named type that is itself a ref to another named type.
    Ref(NodeId),
    /// A method's params: by name (an object) or by position (an array).
    Params(Params),
}

impl Node {
    /// What the node accepts, in a few words, for "expected" in errors.
    pub(crate) fn noun(&self) -> &'static str {
        match self {
            Node::Any => "any value",
            Node::Null => "null",
            Node::Boolean => "a boolean",
            Node::Integer(_) => "an integer",
            Node::Number(_) => "a number",
            Node::String(_) => "a string",
            Node::Literal(_) => "a literal",
            Node::Enum(_) => "one of the enum's values",
            Node::Array(_) => "an array",
            Node::Tuple(_) => "an array (tuple)",
            Node::Object(_) => "an object",
            Node::Map(_) => "an object (map)",
            Node::Union(_) => "one of the union's arms",
            Node::Ref(_) => "a named type",
            Node::Params(p) => match (p.by_name, p.by_position) {
                (true, true) => "params: an object (by name) or an array (by position)",
                (true, false) => "params: an object (by name)",
                _ => "params: an array (by position)",
            },
        }
    }
}

/// Bounds of `integer` and `number`.
#[derive(Debug, Default)]
pub(crate) struct Numeric {
    pub(crate) min: Option<Num>,
    pub(crate) max: Option<Num>,
    pub(crate) exclusive_min: Option<Num>,
    pub(crate) exclusive_max: Option<Num>,
    pub(crate) multiple_of: Option<Num>,
}

impl Numeric {
    /// Whether no bound applies: any number of the kind passes. Both paths' fast paths ask
    /// this one question, and it names every field, so a new bound cannot be skipped by one
    /// path only.
    pub(crate) fn is_unbounded(&self) -> bool {
        let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = self;
        [min, max, exclusive_min, exclusive_max, multiple_of].iter().all(|b| b.is_none())
    }
}

/// Rules of `string`.
#[derive(Debug, Default)]
pub(crate) struct Text {
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<Regex>,
    pub(crate) format: Option<Format>,
}

impl Text {
    /// Whether no rule applies: any string passes, so its content need not even be decoded.
    /// It names every field, so a new rule cannot be skipped by one path only.
    pub(crate) fn is_unbounded(&self) -> bool {
        let Text { min_length, max_length, pattern, format } = self;
        min_length.is_none() && max_length.is_none() && pattern.is_none() && format.is_none()
    }
}

/// The values of an `enum`.
#[derive(Debug)]
pub(crate) struct Choices {
    pub(crate) values: Vec<Value>,
    /// The string values, for a lookup without building a `Value`.
    pub(crate) strings: Vec<Box<str>>,
    /// The integer values.
    pub(crate) integers: Vec<Num>,
}

/// Members of `array`.
#[derive(Debug)]
pub(crate) struct List {
    pub(crate) items: NodeId,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) unique_items: bool,
}

/// One declared member of an object, or one param.
#[derive(Debug)]
pub(crate) struct Member {
    pub(crate) name: Box<str>,
    pub(crate) node: NodeId,
    pub(crate) required: bool,
}

/// Declared members, with a lookup by name.
#[derive(Debug, Default)]
pub(crate) struct Members {
    pub(crate) list: Vec<Member>,
    /// Built only for larger objects; small ones are searched in order.
    index: Option<HashMap<Box<str>, usize>>,
}

/// Objects with more members than this get a hash index.
const INDEX_FROM: usize = 12;

impl Members {
    pub(crate) fn new(list: Vec<Member>) -> Self {
        let index = (list.len() > INDEX_FROM)
            .then(|| list.iter().enumerate().map(|(i, m)| (m.name.clone(), i)).collect());
        Members { list, index }
    }

    /// The position of the member named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.list.iter().position(|m| &*m.name == name),
        }
    }

    /// The position of the member named `name`, trying `hint` first: values usually list their
    /// members in the declared order, so the member after the last one found is the likely one.
    pub(crate) fn find_from(&self, name: &[u8], hint: usize) -> Option<usize> {
        if let Some(m) = self.list.get(hint)
            && m.name.as_bytes() == name
        {
            return Some(hint);
        }
        match &self.index {
            Some(index) => std::str::from_utf8(name).ok().and_then(|n| index.get(n).copied()),
            None => self.list.iter().position(|m| m.name.as_bytes() == name),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
}

/// Which declared members an object has shown.
pub(crate) enum Seen {
    Few(u64),
    Many(Vec<bool>),
}

impl Seen {
    pub(crate) fn new(n: usize) -> Seen {
        if n <= 64 { Seen::Few(0) } else { Seen::Many(vec![false; n]) }
    }

    pub(crate) fn set(&mut self, i: usize) {
        match self {
            Seen::Few(bits) => *bits |= 1 << i,
            Seen::Many(all) => all[i] = true,
        }
    }

    pub(crate) fn has(&self, i: usize) -> bool {
        match self {
            Seen::Few(bits) => bits & (1 << i) != 0,
            Seen::Many(all) => all[i],
        }
    }
}

/// Members of `object`.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) members: Members,
    pub(crate) closed: bool,
}

/// Members of `map`.
#[derive(Debug)]
pub(crate) struct Dict {
    pub(crate) keys: Option<NodeId>,
    pub(crate) values: NodeId,
}

/// Members of `union`.
#[derive(Debug)]
pub(crate) struct Union {
    pub(crate) variants: Vec<NodeId>,
    /// With a discriminator: the member name and, per tag value, the arm it picks.
    pub(crate) discriminator: Option<Discriminator>,
}

/// A union's tag: the member whose literal value picks the arm.
#[derive(Debug)]
pub(crate) struct Discriminator {
    pub(crate) member: Box<str>,
    pub(crate) arms: Vec<(Value, NodeId)>,
}

impl Discriminator {
    /// The arm a string tag picks.
    pub(crate) fn arm_for_str(&self, tag: &str) -> Option<NodeId> {
        self.arms.iter().find(|(v, _)| v.as_str() == Some(tag)).map(|(_, id)| *id)
    }

    pub(crate) fn arm_for(&self, tag: &Value) -> Option<NodeId> {
        self.arms.iter().find(|(v, _)| crate::number::json_equal(v, tag)).map(|(_, id)| *id)
    }
}

/// A method's params.
#[derive(Debug)]
pub(crate) struct Params {
    pub(crate) members: Members,
    pub(crate) by_name: bool,
    pub(crate) by_position: bool,
}
