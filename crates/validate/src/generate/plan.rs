//! What a generator works out once: for every node, the least nesting a finite value of it
//! needs (or that it has none: an object that requires itself), and a sampler for every
//! `pattern` the type can reach.

use std::collections::HashMap;

use serde_json::Value;

use super::text::PatternSampler;
use crate::budget::{Size, least_sizes};
use crate::program::{Node, NodeId, Params, Program};

/// The least depth of a node that has no finite value.
pub(crate) const NO_VALUE: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// Per node: the fewest container levels a value of it needs; [`NO_VALUE`] when none is finite.
    least: Vec<u32>,
    /// Per node: the least size of its values ([`Size::NONE`] when none is finite).
    sizes: Vec<Size>,
    /// Per string node with a pattern that the root reaches: its sampler, or why there is none.
    pub(crate) patterns: HashMap<NodeId, Result<PatternSampler, String>>,
}

impl Plan {
    pub(crate) fn new(program: &Program, root: NodeId) -> Plan {
        let least = least_depths(program);
        let sizes = least_sizes(program);
        let mut patterns = HashMap::new();
        let mut seen = vec![false; program.nodes.len()];
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            let node = program.node(id);
            if let Node::String(text) = node
                && let Some(pattern) = &text.pattern
            {
                patterns.insert(id, PatternSampler::new(pattern.as_str(), text));
            }
            stack.extend(children(node));
        }
        Plan { least, sizes, patterns }
    }

    /// The least size of a value of node `id`.
    pub(crate) fn least_size(&self, id: NodeId) -> Size {
        self.sizes[id as usize]
    }

    pub(crate) fn least(&self, id: NodeId) -> u32 {
        self.least[id as usize]
    }

    /// The least depth of by-name params (`NO_VALUE` when not allowed or not finite).
    pub(crate) fn least_by_name(&self, p: &Params) -> u32 {
        if !p.by_name {
            return NO_VALUE;
        }
        let needed = p.members.list.iter().filter(|m| m.required).map(|m| self.least(m.node));
        needed.max().unwrap_or(0).saturating_add(1)
    }

    /// The least depth of positional params: every param up to the last required one is sent.
    pub(crate) fn least_by_position(&self, p: &Params) -> u32 {
        if !p.by_position {
            return NO_VALUE;
        }
        let list = &p.members.list;
        let sent = list.iter().rposition(|m| m.required).map_or(0, |i| i + 1);
        list[..sent].iter().map(|m| self.least(m.node)).max().unwrap_or(0).saturating_add(1)
    }

    /// Why `root` has no finite value: the place where the type comes back to itself.
    pub(crate) fn why_no_value(&self, program: &Program, root: NodeId) -> (String, String) {
        let mut visited: HashMap<NodeId, String> = HashMap::new();
        let mut id = root;
        let mut pointer = String::new();
        loop {
            if let Some(first) = visited.get(&id) {
                let what = if first.is_empty() {
                    "the value".to_owned()
                } else {
                    format!("the value at `{first}`")
                };
                let reason = format!(
                    "the type has no finite value: {what} requires a value of its own type again at `{pointer}`, and no optional member, empty array or union arm ends the recursion"
                );
                return (pointer, reason);
            }
            visited.insert(id, pointer.clone());
            let next = match program.node(id) {
                Node::Ref(target) => Some((*target, None)),
                Node::Array(list) => Some((list.items, Some("0".to_owned()))),
                Node::Tuple(elements) => elements
                    .iter()
                    .enumerate()
                    .find(|(_, e)| self.least(**e) == NO_VALUE)
                    .map(|(i, e)| (*e, Some(i.to_string()))),
                Node::Object(record) => record
                    .members
                    .list
                    .iter()
                    .find(|m| m.required && self.least(m.node) == NO_VALUE)
                    .map(|m| (m.node, Some(m.name.to_string()))),
                Node::Union(union) => union.variants.first().map(|v| (*v, None)),
                Node::Params(params) => params
                    .members
                    .list
                    .iter()
                    .find(|m| m.required && self.least(m.node) == NO_VALUE)
                    .map(|m| (m.node, Some(m.name.to_string()))),
                _ => None,
            };
            match next {
                Some((child, seg)) => {
                    if let Some(seg) = seg {
                        pointer.push('/');
                        pointer.push_str(&seg.replace('~', "~0").replace('/', "~1"));
                    }
                    id = child;
                }
                None => {
                    return (pointer, "the type has no finite value".to_owned());
                }
            }
        }
    }
}

/// The nodes a node's values contain.
pub(crate) fn children(node: &Node) -> Vec<NodeId> {
    match node {
        Node::Any
        | Node::Null
        | Node::Boolean
        | Node::Integer(_)
        | Node::Number(_)
        | Node::String(_)
        | Node::Literal(_)
        | Node::Enum(_) => Vec::new(),
        Node::Array(list) => vec![list.items],
        Node::Tuple(elements) => elements.clone(),
        Node::Object(record) => record.members.list.iter().map(|m| m.node).collect(),
        Node::Map(dict) => dict.keys.into_iter().chain([dict.values]).collect(),
        Node::Union(union) => union.variants.clone(),
        Node::Ref(target) => vec![*target],
        Node::Params(params) => params.members.list.iter().map(|m| m.node).collect(),
    }
}

/// How many containers deep `v` nests.
pub(crate) fn nesting(v: &Value) -> u32 {
    match v {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// The least depth of every node, by iteration to a fixed point: every node starts at
/// "no value" and only ever decreases, so this ends.
fn least_depths(program: &Program) -> Vec<u32> {
    let n = program.nodes.len();
    let mut least = vec![NO_VALUE; n];
    // Each round fixes at least one more node's final depth; n + 1 rounds always suffice.
    for _ in 0..=n {
        let mut changed = false;
        for id in 0..n {
            let d = eval(program, &least, id as NodeId);
            if d < least[id] {
                least[id] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    least
}

fn eval(program: &Program, least: &[u32], id: NodeId) -> u32 {
    let at = |id: NodeId| least[id as usize];
    let inside = |d: u32| d.saturating_add(1);
    match program.node(id) {
        Node::Any
        | Node::Null
        | Node::Boolean
        | Node::Integer(_)
        | Node::Number(_)
        | Node::String(_)
        | Node::Enum(_) => 0,
        Node::Literal(v) => nesting(v),
        Node::Array(list) => {
            if list.min_items.unwrap_or(0) == 0 {
                1
            } else {
                inside(at(list.items))
            }
        }
        Node::Tuple(elements) => inside(elements.iter().map(|&e| at(e)).max().unwrap_or(0)),
        Node::Object(record) => inside(
            record
                .members
                .list
                .iter()
                .filter(|m| m.required)
                .map(|m| at(m.node))
                .max()
                .unwrap_or(0),
        ),
        Node::Map(_) => 1,
        Node::Union(union) => union.variants.iter().map(|&v| at(v)).min().unwrap_or(NO_VALUE),
        Node::Ref(target) => at(*target),
        Node::Params(p) => {
            let named = if p.by_name {
                inside(
                    p.members
                        .list
                        .iter()
                        .filter(|m| m.required)
                        .map(|m| at(m.node))
                        .max()
                        .unwrap_or(0),
                )
            } else {
                NO_VALUE
            };
            let positional = if p.by_position {
                let sent = p.members.list.iter().rposition(|m| m.required).map_or(0, |i| i + 1);
                inside(p.members.list[..sent].iter().map(|m| at(m.node)).max().unwrap_or(0))
            } else {
                NO_VALUE
            };
            named.min(positional)
        }
    }
}
