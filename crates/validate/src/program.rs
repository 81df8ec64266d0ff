//! The compiled form of a contract's types: a flat arena of nodes linked by index, with refs
//! resolved, patterns compiled and discriminators tabulated. Both validation paths (values and
//! bytes) and the generator walk this one structure.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::pattern::Pattern;
use serde_json::Value;

use crate::Format;
use crate::number::Num;

/// An index into [`Program::nodes`].
pub(crate) type NodeId = u32;

/// Every compiled node of one contract.
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub(crate) nodes: Vec<Node>,
    /// What the contract gives as a node's typical value: its type's first example, else its
    /// default (types that give one only). The generator's static values start here.
    pub(crate) typical: HashMap<NodeId, Value>,
    /// Which nodes reach a `pattern` ([`Program::reaches_pattern`]), worked out on first asking.
    pattern_reach: OnceLock<Vec<bool>>,
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

    /// Fills what is derived from other nodes (arrays' resolved and plain items), once every
    /// node exists and ref cycles are refused.
    pub(crate) fn finish(&mut self) {
        for i in 0..self.nodes.len() {
            match &self.nodes[i] {
                Node::Array(list) => {
                    let resolved = self.resolve(list.items);
                    let plain = Plain::of(self, resolved);
                    if let Node::Array(list) = &mut self.nodes[i] {
                        list.resolved = resolved;
                        list.plain = plain;
                    }
                }
                Node::Union(Union { variants, discriminator: None, .. }) => {
                    let implied = implied_tag(self, variants);
                    if let Node::Union(union) = &mut self.nodes[i] {
                        union.implied = implied;
                    }
                }
                Node::Map(dict) => {
                    let plain = Plain::of(self, dict.values);
                    if let Node::Map(dict) = &mut self.nodes[i] {
                        dict.plain = plain;
                    }
                }
                Node::Object(Record { members, .. }) | Node::Params(Params { members, .. }) => {
                    let plain = members.list.iter().map(|m| Plain::of(self, m.node)).collect();
                    if let Node::Object(Record { members, .. })
                    | Node::Params(Params { members, .. }) = &mut self.nodes[i]
                    {
                        members.plain = plain;
                    }
                }
                _ => {}
            }
        }
    }
}

impl Program {
    /// Whether a value checked from `root` can meet a `pattern` (a string node with one, or a
    /// map's keys that have one), through any member, item, arm or ref: the only checks that
    /// may spend up to `MAX_PATTERN_COST`. The answer for every node is worked out once, on the
    /// first question, so a server asking for each of a million methods stays linear.
    pub(crate) fn reaches_pattern(&self, root: NodeId) -> bool {
        self.pattern_reach.get_or_init(|| self.pattern_reach())[root as usize]
    }

    /// For every node, whether it reaches a string node with a `pattern`: marked backwards
    /// from those nodes along the links (members, items, keys, values, arms, refs), so each
    /// node and link is visited once, whatever the number of roots asked about later.
    fn pattern_reach(&self) -> Vec<bool> {
        let count = self.nodes.len();
        let mut reach = vec![false; count];
        let mut stack: Vec<NodeId> = (0..count)
            .filter(|&i| matches!(&self.nodes[i], Node::String(text) if text.pattern.is_some()))
            .map(|i| i as NodeId)
            .collect();
        if stack.is_empty() {
            return reach;
        }
        // Every node's parents, packed: those of `i` are `parents[start[i]..start[i + 1]]`.
        let mut start = vec![0usize; count + 1];
        for id in 0..count {
            self.each_link(id as NodeId, |child| start[child as usize + 1] += 1);
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut parents = vec![0 as NodeId; start[count]];
        for id in 0..count {
            self.each_link(id as NodeId, |child| {
                let slot = &mut next[child as usize];
                parents[*slot] = id as NodeId;
                *slot += 1;
            });
        }
        for &id in &stack {
            reach[id as usize] = true;
        }
        while let Some(id) = stack.pop() {
            for &parent in &parents[start[id as usize]..start[id as usize + 1]] {
                if !std::mem::replace(&mut reach[parent as usize], true) {
                    stack.push(parent);
                }
            }
        }
        reach
    }

    /// Calls `link` with every node a value checked at `id` may be checked at next: members,
    /// items, map keys and values, union arms, a ref's target.
    fn each_link(&self, id: NodeId, mut link: impl FnMut(NodeId)) {
        match self.node(id) {
            Node::Any
            | Node::Null
            | Node::Boolean
            | Node::Integer(_)
            | Node::Number(_)
            | Node::String(_)
            | Node::Literal(_)
            | Node::Enum(_) => {}
            Node::Array(list) => link(list.items),
            Node::Tuple(items) => items.iter().copied().for_each(link),
            Node::Object(Record { members, .. }) | Node::Params(Params { members, .. }) => {
                members.list.iter().for_each(|m| link(m.node));
            }
            Node::Map(dict) => dict.keys.iter().chain([&dict.values]).copied().for_each(link),
            Node::Union(union) => union.variants.iter().copied().for_each(link),
            Node::Ref(target) => link(*target),
        }
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
    pub(crate) pattern: Option<Pattern>,
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
    /// Set by [`Program::finish`] once every node exists: the items' node with refs followed.
    pub(crate) resolved: NodeId,
    /// Set by [`Program::finish`]: the JSON type test, when that is all the items' type checks
    /// (a scalar kind without refinements): the value path's one tight loop.
    pub(crate) plain: Option<Plain>,
}

impl List {
    /// Whether `len` items are within `minItems` and `maxItems`.
    #[inline]
    pub(crate) fn count_ok(&self, len: usize) -> bool {
        let len = len as u64;
        self.min_items.is_none_or(|min| len >= min) && self.max_items.is_none_or(|max| len <= max)
    }
}

/// A type that a value passes by its JSON type alone (a scalar kind without refinements, or a
/// union of such arms without a discriminator): the JSON types it admits, as bits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plain(u8);

impl Plain {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    const NUMBER: u8 = 8;
    const STRING: u8 = 16;

    /// The plain type node `id` is, if it is one.
    fn of(program: &Program, id: NodeId) -> Option<Plain> {
        match program.node(program.resolve(id)) {
            Node::Number(r) if r.is_unbounded() => Some(Plain(Plain::NUMBER)),
            Node::Integer(r) if r.is_unbounded() => Some(Plain(Plain::INTEGER)),
            Node::String(t) if t.is_unbounded() => Some(Plain(Plain::STRING)),
            Node::Boolean => Some(Plain(Plain::BOOLEAN)),
            Node::Null => Some(Plain(Plain::NULL)),
            Node::Union(Union { variants, discriminator: None, .. }) => variants
                .iter()
                .try_fold(0, |bits, &arm| Plain::of(program, arm).map(|p| bits | p.0))
                .map(Plain),
            _ => None,
        }
    }

    /// Whether `v` passes.
    #[inline]
    pub(crate) fn test(self, v: &Value) -> bool {
        let bit = match v {
            Value::Null => Plain::NULL,
            Value::Bool(_) => Plain::BOOLEAN,
            Value::Number(n) => {
                // An integer is what serde_json holds as an i64 or a u64 (`Num::is_integer`).
                if self.0 & Plain::NUMBER != 0 || !n.is_f64() {
                    Plain::NUMBER | Plain::INTEGER
                } else {
                    0
                }
            }
            Value::String(_) => Plain::STRING,
            Value::Array(_) | Value::Object(_) => 0,
        };
        self.0 & bit != 0
    }

    /// Whether every one of `items` passes: the common single types in a loop of their own.
    #[inline]
    pub(crate) fn all(self, items: &[Value]) -> bool {
        match self.0 {
            Plain::NUMBER => items.iter().all(Value::is_number),
            Plain::STRING => items.iter().all(Value::is_string),
            _ => items.iter().all(|v| self.test(v)),
        }
    }
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
    /// Each member's name as its length and first eight bytes, in `list`'s order: most names
    /// are decided by this one comparison, without a call to `memcmp`.
    keys: Vec<Key>,
    /// Built only for larger objects; small ones are searched in order.
    index: Option<HashMap<Box<str>, usize>>,
    /// Set by [`Program::finish`]: each member's [`Plain`] type, if it has one, in `list`'s order
    /// (the value path tests those in the member loop, without a call).
    pub(crate) plain: Vec<Option<Plain>>,
    /// The required members as [`Seen::Few`] bits (with at most 64 members): every one was
    /// seen when `seen & required == required`.
    required: Option<u64>,
}

/// A name's length and its first eight bytes (zero-padded), as one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    len: usize,
    head: u64,
}

impl Key {
    #[inline]
    fn of(name: &[u8]) -> Key {
        Key { len: name.len(), head: word(&name[..name.len().min(8)]) }
    }
}

/// Up to eight bytes as a little-endian word, zero-padded. Shorter ones are read as two
/// overlapping words (the bytes they share are the same bytes at the same places): a copy of a
/// variable length would be a call to `memcpy`, and byte by byte is a loop.
#[inline]
fn word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if let Some(all) = bytes.first_chunk::<8>() {
        u64::from_le_bytes(*all)
    } else if n >= 4 {
        let lo = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let hi = u32::from_le_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]);
        u64::from(lo) | u64::from(hi) << ((n - 4) * 8)
    } else if n >= 2 {
        let lo = u16::from_le_bytes([bytes[0], bytes[1]]);
        let hi = u16::from_le_bytes([bytes[n - 2], bytes[n - 1]]);
        u64::from(lo) | u64::from(hi) << ((n - 2) * 8)
    } else {
        bytes.first().map_or(0, |&b| u64::from(b))
    }
}

/// Objects with more members than this get a hash index.
const INDEX_FROM: usize = 64;

impl Members {
    pub(crate) fn new(list: Vec<Member>) -> Self {
        let index = (list.len() > INDEX_FROM)
            .then(|| list.iter().enumerate().map(|(i, m)| (m.name.clone(), i)).collect());
        let keys = list.iter().map(|m| Key::of(m.name.as_bytes())).collect();
        let required = (list.len() <= 64).then(|| {
            list.iter()
                .enumerate()
                .filter(|(_, m)| m.required)
                .fold(0, |bits, (i, _)| bits | 1 << i)
        });
        let plain = vec![None; list.len()];
        Members { list, keys, index, plain, required }
    }

    /// Whether `seen` holds every required member.
    pub(crate) fn all_required(&self, seen: &Seen) -> bool {
        match (self.required, seen) {
            (Some(required), Seen::Few(bits)) => bits & required == required,
            _ => self.list.iter().enumerate().all(|(i, m)| !m.required || seen.has(i)),
        }
    }

    /// The position of the member named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.find_from(name.as_bytes(), 0)
    }

    /// Whether member `i` is named `name` (of key `key`).
    #[inline]
    fn is(&self, i: usize, key: Key, name: &[u8]) -> bool {
        self.keys[i] == key && (key.len <= 8 || self.list[i].name.as_bytes()[8..] == name[8..])
    }

    /// The position of the member named `name`, trying `hint` first: values usually list their
    /// members in the declared order, so the member after the last one found is the likely one.
    #[inline]
    pub(crate) fn find_from(&self, name: &[u8], hint: usize) -> Option<usize> {
        let key = Key::of(name);
        if hint < self.keys.len() && self.is(hint, key, name) {
            return Some(hint);
        }
        self.search(key, name)
    }

    /// [`Members::find_from`] when the hint missed.
    #[inline(never)]
    fn search(&self, key: Key, name: &[u8]) -> Option<usize> {
        match &self.index {
            Some(index) => std::str::from_utf8(name).ok().and_then(|n| index.get(n).copied()),
            None => (0..self.keys.len()).find(|&i| self.is(i, key, name)),
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
    /// Set by [`Program::finish`]: the values' [`Plain`] type, if they have one (the value
    /// path tests those in the member loop, without a call; citm's id-to-name tables).
    pub(crate) plain: Option<Plain>,
}

/// Members of `union`.
#[derive(Debug)]
pub(crate) struct Union {
    pub(crate) variants: Vec<NodeId>,
    /// With a discriminator: the member name and, per tag value, the arm it picks.
    pub(crate) discriminator: Option<Discriminator>,
    /// Set by [`Program::finish`] for a union without a discriminator whose arms are objects
    /// that all require one member and each allow exactly one, different, string there (the
    /// Ethereum contract's transactions: `type` is `^0x2$` in one arm, `^0x1$` in another).
    /// Only the arm that string picks can pass, so the verdict-only walks (`is_valid`,
    /// `is_valid_bytes`) read the tag and check that arm alone, where trying the arms in
    /// turn read each transaction up to five times. The detailed walks still try every arm,
    /// so their errors (the nearest arm's) are as before.
    pub(crate) implied: Option<Discriminator>,
}

impl Union {
    /// The tag that picks the arm, declared or implied, for a walk that wants the verdict only.
    #[inline]
    pub(crate) fn quiet_tag(&self) -> Option<&Discriminator> {
        self.discriminator.as_ref().or(self.implied.as_ref())
    }
}

/// The tag [`Union::implied`] describes, if the union has one.
fn implied_tag(program: &Program, variants: &[NodeId]) -> Option<Discriminator> {
    let records: Vec<&Record> = variants
        .iter()
        .map(|&arm| match program.node(program.resolve(arm)) {
            Node::Object(record) => Some(record),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if records.len() < 2 {
        return None;
    }
    // The one string member `m` of `record` allows, when it is required.
    let only = |record: &Record, name: &str| -> Option<String> {
        let i = record.members.find(name)?;
        let member = &record.members.list[i];
        if !member.required {
            return None;
        }
        let text = match program.node(program.resolve(member.node)) {
            Node::Literal(Value::String(s)) => s.clone(),
            Node::Enum(choices) if choices.values.len() == 1 => {
                choices.values[0].as_str()?.to_owned()
            }
            Node::String(rules) => {
                let literal = rules.pattern.as_ref()?.literal()?.to_owned();
                // Its other rules must take the literal, or the arm takes nothing at all.
                let Text { min_length, max_length, pattern: _, format } = rules;
                let len = literal.chars().count() as u64;
                if min_length.is_some_and(|m| len < m)
                    || max_length.is_some_and(|m| len > m)
                    || format.is_some_and(|f| !f.check(&literal))
                {
                    return None;
                }
                literal
            }
            _ => return None,
        };
        Some(text)
    };
    records[0].members.list.iter().find_map(|candidate| {
        let tags: Vec<String> =
            records.iter().map(|r| only(r, &candidate.name)).collect::<Option<_>>()?;
        let distinct = tags.iter().enumerate().all(|(i, t)| !tags[..i].contains(t));
        distinct.then(|| Discriminator {
            member: candidate.name.clone(),
            arms: tags.into_iter().map(Value::String).zip(variants.iter().copied()).collect(),
        })
    })
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

#[cfg(test)]
mod tests {
    use super::{Key, Node};

    /// The Ethereum contract's transaction unions get the tag their arms imply (`type`), and
    /// so the verdict-only walks read one arm per transaction.
    #[test]
    fn the_ethereum_transaction_unions_imply_their_type_tag() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/import/execution-apis/expected.types.json"
        );
        let text = std::fs::read_to_string(path).expect("the imported contract");
        let doc = accord_schema_model::Document::parse(&text).expect("it reads");
        let contract = crate::Contract::compile(&doc).expect("it compiles");
        let implied: Vec<(&str, Vec<String>)> = contract
            .program
            .nodes
            .iter()
            .filter_map(|n| match n {
                Node::Union(u) => u.implied.as_ref(),
                _ => None,
            })
            .map(|d| (&*d.member, d.arms.iter().map(|(tag, _)| tag.to_string()).collect()))
            .collect();
        let five: Vec<String> =
            ["0x4", "0x3", "0x2", "0x1", "0x0"].iter().map(|t| format!("\"{t}\"")).collect();
        let by_type = implied.iter().filter(|(member, tags)| *member == "type" && *tags == five);
        // TransactionInfo, TransactionSigned, TransactionUnsigned (and a receipt's `status`).
        assert!(by_type.count() >= 3, "{implied:?}");
    }

    /// A name's head is its first bytes, little-endian and zero-padded, however read.
    #[test]
    fn a_key_is_the_length_and_the_first_eight_bytes() {
        let text = b"abcdefghijklmnopqrst\xc3\xa9";
        for end in 0..=text.len() {
            let name = &text[..end];
            let mut padded = [0u8; 8];
            let n = name.len().min(8);
            padded[..n].copy_from_slice(&name[..n]);
            let want = Key { len: end, head: u64::from_le_bytes(padded) };
            assert_eq!(Key::of(name), want, "{end}");
        }
    }
}
