//! The generation budget: how large one generated value may grow, in values (nodes) and in
//! bytes of its compact JSON text, and the least size every node's values have (worked out once
//! per generator, so that a type whose smallest value is past the budget is refused before any
//! of it is made, and so that lint can warn about such contracts).
//!
//! The per-level cut-off (`max_items`, the frugal mode past a few hundred values) keeps typical
//! values small; the budget is what holds when the contract itself demands a large value:
//! `minItems 10000` of `minItems 10000` is 10^8 values, and without a budget the generator
//! would try to allocate them all.

// Without both `generate` and `lint`, parts of this module go unused; `Budget` and
// `BudgetLimit` are always compiled because `Error::Budget` names them.
#![cfg_attr(not(all(feature = "generate", feature = "lint")), allow(dead_code))]

use serde_json::Value;

use crate::program::{Node, NodeId, Program};

/// The longest string the generator writes (a `minLength` above it is refused with a reason).
pub(crate) const MAX_LENGTH: u64 = 1 << 16;

/// The most items an array gets, whatever its `minItems`.
pub(crate) const MAX_COLLECTION: u64 = 10_000;

/// The most values (scalars and containers, each counted once) one generated value may hold.
pub const DEFAULT_MAX_NODES: usize = 100_000;

/// The most bytes one generated value may take written as compact JSON (strings counted by
/// their UTF-8 length and quotes, escapes not counted; numbers by their digits).
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

/// How large one generated value may grow. Past either bound generation stops with
/// [`Error::Budget`](crate::Error::Budget), never an allocation failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// The most values in one generated value ([`DEFAULT_MAX_NODES`]).
    pub nodes: usize,
    /// The most bytes of one generated value's compact JSON text ([`DEFAULT_MAX_BYTES`]).
    pub bytes: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(DEFAULT_MAX_NODES, DEFAULT_MAX_BYTES)
    }
}

impl Budget {
    /// At most `nodes` values and `bytes` bytes in one generated value.
    pub fn new(nodes: usize, bytes: usize) -> Budget {
        Budget { nodes, bytes }
    }
}

/// Which bound of a [`Budget`] a value passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetLimit {
    /// [`Budget::nodes`].
    Nodes,
    /// [`Budget::bytes`].
    Bytes,
}

impl BudgetLimit {
    /// The limit's name on the wire (docs/wire.md §9): `generation-nodes` or `generation-bytes`.
    pub fn name(self) -> &'static str {
        match self {
            BudgetLimit::Nodes => "generation-nodes",
            BudgetLimit::Bytes => "generation-bytes",
        }
    }

    /// What the limit counts, for messages: `values` or `bytes`.
    pub(crate) fn unit(self) -> &'static str {
        match self {
            BudgetLimit::Nodes => "values",
            BudgetLimit::Bytes => "bytes",
        }
    }
}

/// The size of a value: how many values it holds and how many bytes its compact JSON takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Size {
    pub(crate) nodes: u64,
    pub(crate) bytes: u64,
}

impl Size {
    /// The size of a node with no finite value.
    pub(crate) const NONE: Size = Size { nodes: u64::MAX, bytes: u64::MAX };

    const fn scalar(bytes: u64) -> Size {
        Size { nodes: 1, bytes }
    }

    fn plus(self, other: Size) -> Size {
        Size {
            nodes: self.nodes.saturating_add(other.nodes),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }

    fn times(self, n: u64) -> Size {
        Size { nodes: self.nodes.saturating_mul(n), bytes: self.bytes.saturating_mul(n) }
    }

    /// The smaller of two sizes, by values first.
    fn least(self, other: Size) -> Size {
        if (other.nodes, other.bytes) < (self.nodes, self.bytes) { other } else { self }
    }

    /// The first bound of `budget` this size passes, if any.
    pub(crate) fn passes(self, budget: Budget) -> Option<(BudgetLimit, u64)> {
        if self.nodes > budget.nodes as u64 {
            Some((BudgetLimit::Nodes, self.nodes))
        } else if self.bytes > budget.bytes as u64 {
            Some((BudgetLimit::Bytes, self.bytes))
        } else {
            None
        }
    }
}

/// The compact JSON size of a scalar (a container counts its brackets, separators and keys as
/// it is made).
pub(crate) fn scalar_bytes(value: &Value) -> u64 {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => digits(u),
            (None, Some(i)) => 1 + digits(i.unsigned_abs()),
            // A float's shortest form is at most 24 characters.
            _ => 24,
        },
        Value::String(s) => s.len() as u64 + 2,
        Value::Array(_) | Value::Object(_) => 2,
    }
}

/// The size of a whole value (a literal or enum value from the contract).
pub(crate) fn value_size(value: &Value) -> Size {
    let mut size = Size { nodes: 0, bytes: 0 };
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        size = size.plus(Size::scalar(scalar_bytes(v)));
        match v {
            Value::Array(items) => {
                size.bytes += items.len().saturating_sub(1) as u64;
                stack.extend(items);
            }
            Value::Object(members) => {
                for (key, member) in members {
                    size.bytes += key.len() as u64 + 4;
                    stack.push(member);
                }
            }
            _ => {}
        }
    }
    size
}

fn digits(mut n: u64) -> u64 {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// The least size of every node's values ([`Size::NONE`] for a node with no finite value), by
/// iteration to a fixed point like the least depths: every node starts at none and only ever
/// decreases; each round fixes at least one more node (a value is larger than its parts).
pub(crate) fn least_sizes(program: &Program) -> Vec<Size> {
    let n = program.nodes.len();
    let mut least = vec![Size::NONE; n];
    for _ in 0..=n {
        let mut changed = false;
        for id in 0..n {
            let s = eval(program, &least, id as NodeId);
            if (s.nodes, s.bytes) < (least[id].nodes, least[id].bytes) {
                least[id] = s;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    least
}

fn eval(program: &Program, least: &[Size], id: NodeId) -> Size {
    let at = |id: NodeId| least[id as usize];
    // `{` `}` and, per member, its key, quotes, colon and comma.
    let members = |list: &mut dyn Iterator<Item = (&str, NodeId)>| {
        list.fold(Size::scalar(2), |acc, (name, node)| {
            acc.plus(at(node)).plus(Size { nodes: 0, bytes: name.len() as u64 + 4 })
        })
    };
    let items = |list: &mut dyn Iterator<Item = NodeId>| {
        list.fold(Size::scalar(2), |acc, node| acc.plus(at(node)).plus(Size { nodes: 0, bytes: 1 }))
    };
    match program.node(id) {
        Node::Any | Node::Null | Node::Boolean => Size::scalar(4),
        Node::Integer(_) | Node::Number(_) => Size::scalar(1),
        // Past what the generator writes at all there is no value to count (generation names
        // that reason itself).
        Node::String(text) => match text.min_length.unwrap_or(0) {
            min if min > MAX_LENGTH => Size::NONE,
            min => Size::scalar(min + 2),
        },
        Node::Literal(v) => value_size(v),
        Node::Enum(choices) => choices.values.iter().map(value_size).fold(Size::NONE, Size::least),
        Node::Array(list) => match list.min_items.unwrap_or(0) {
            0 => Size::scalar(2),
            m if m > MAX_COLLECTION => Size::NONE,
            m => Size::scalar(2).plus(at(list.items).plus(Size { nodes: 0, bytes: 1 }).times(m)),
        },
        Node::Tuple(elements) => items(&mut elements.iter().copied()),
        Node::Object(record) => members(
            &mut record.members.list.iter().filter(|m| m.required).map(|m| (&*m.name, m.node)),
        ),
        Node::Map(_) => Size::scalar(2),
        Node::Union(union) => union.variants.iter().map(|&v| at(v)).fold(Size::NONE, Size::least),
        Node::Ref(target) => at(*target),
        Node::Params(p) => {
            let list = &p.members.list;
            let named = if p.by_name {
                members(&mut list.iter().filter(|m| m.required).map(|m| (&*m.name, m.node)))
            } else {
                Size::NONE
            };
            let positional = if p.by_position {
                let sent = list.iter().rposition(|m| m.required).map_or(0, |i| i + 1);
                items(&mut list[..sent].iter().map(|m| m.node))
            } else {
                Size::NONE
            };
            named.least(positional)
        }
    }
}
