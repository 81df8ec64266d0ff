//! One generated value: a walk of the compiled nodes with a nesting budget. A node is only ever
//! entered with at least the nesting it needs (see `plan`), and a container hands its children
//! one level less, so every choice made is one that can still finish: past the cut-off only
//! the finite options remain (optional members left out, empty arrays, the arm that ends the
//! recursion).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::dice::Dice;
use super::plan::Plan;
use super::{ArmPreference, Generator, fixed, number, text};
use crate::budget::{Budget, BudgetLimit, scalar_bytes, value_size};
use crate::number::json_equal;
use crate::program::{Dict, List, Members, Node, NodeId, Params, Program};

/// After this many values in one generated value, only the least options are taken, so that
/// wide and deep types still give values of a reasonable size.
const NODE_BUDGET: usize = 400;

use crate::budget::MAX_COLLECTION;

/// Why a value could not be made, and where.
#[derive(Debug)]
pub(crate) struct Fail {
    pub(crate) pointer: String,
    pub(crate) reason: String,
    /// Set when the value passed the generator's budget: then nothing smaller is tried, the
    /// walk ends (every later step would pass it again).
    pub(crate) budget: Option<BudgetLimit>,
}

/// One walk.
pub(crate) struct Gen<'g, 'p> {
    program: &'p Program,
    /// The generator, to check a contract's typical value against its node.
    generator: &'g Generator<'p>,
    plan: &'g Plan,
    pub(crate) dice: Dice,
    max_items: u64,
    prefer: ArmPreference,
    one_case_hex: bool,
    /// Scalars take their static value (see [`Generator::static_values`]); turned off for
    /// what must vary (map keys, unique items past the first).
    static_values: bool,
    /// Steps of the walk so far (refs and union arms included): past a few hundred, frugal.
    made: usize,
    /// Values made so far, as the budget counts them (refs and unions are their target's).
    nodes: usize,
    /// Bytes of compact JSON made so far (see `budget::scalar_bytes`).
    bytes: u64,
    budget: Budget,
    path: Vec<Cow<'p, str>>,
}

impl<'g, 'p> Gen<'g, 'p> {
    pub(crate) fn new(generator: &'g Generator<'p>, dice: Dice) -> Self {
        Gen {
            program: generator.validator.program,
            generator,
            plan: &generator.plan,
            dice,
            max_items: generator.max_items as u64,
            prefer: generator.prefer,
            one_case_hex: generator.one_case_hex,
            static_values: generator.static_values,
            made: 0,
            nodes: 0,
            bytes: 0,
            budget: generator.budget,
            path: Vec::new(),
        }
    }

    fn fail(&self, reason: impl Into<String>) -> Fail {
        let mut pointer = String::new();
        for seg in &self.path {
            pointer.push('/');
            pointer.push_str(&seg.replace('~', "~0").replace('/', "~1"));
        }
        Fail { pointer, reason: reason.into(), budget: None }
    }

    /// Counts `bytes` more of the value's text; past the budget, the failure that ends the walk.
    fn spend(&mut self, bytes: u64) -> Result<(), Fail> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.budget.bytes as u64 {
            return Err(self.over(BudgetLimit::Bytes));
        }
        Ok(())
    }

    /// Counts a value made in one piece (by `any`, or taken from the contract), the one value
    /// [`Gen::value`] counted already aside.
    fn spend_whole(&mut self, value: &Value) -> Result<(), Fail> {
        let size = value_size(value);
        self.nodes = self.nodes.saturating_add(size.nodes.saturating_sub(1) as usize);
        if self.nodes > self.budget.nodes {
            return Err(self.over(BudgetLimit::Nodes));
        }
        self.spend(size.bytes)
    }

    fn over(&self, limit: BudgetLimit) -> Fail {
        let max = match limit {
            BudgetLimit::Nodes => self.budget.nodes,
            BudgetLimit::Bytes => self.budget.bytes,
        };
        let mut fail = self
            .fail(format!("the value grew past the generation budget of {max} {}", limit.unit()));
        fail.budget = Some(limit);
        fail
    }

    /// Whether the value is big enough that only the least options are taken now.
    fn frugal(&self) -> bool {
        self.made >= NODE_BUDGET
    }

    fn fits(&self, id: NodeId, room: u32) -> bool {
        self.plan.least(id) <= room
    }

    /// A value of node `id`, nesting at most `room` levels.
    pub(crate) fn value(&mut self, id: NodeId, room: u32) -> Result<Value, Fail> {
        if !self.fits(id, room) {
            return Err(self.fail("no value of the type fits in the nesting left"));
        }
        self.made += 1;
        if self.static_values
            && let Some(typical) = self.typical(id, room)
        {
            let size = value_size(&typical);
            self.nodes = self.nodes.saturating_add(size.nodes as usize);
            if self.nodes > self.budget.nodes {
                return Err(self.over(BudgetLimit::Nodes));
            }
            self.spend(size.bytes)?;
            return Ok(typical);
        }
        let counted = !matches!(self.program.node(id), Node::Ref(_) | Node::Union(_));
        if counted {
            // A ref or a union is the value of its target or arm, counted there.
            self.nodes += 1;
            if self.nodes > self.budget.nodes {
                return Err(self.over(BudgetLimit::Nodes));
            }
        }
        let value = self.node(id, room)?;
        match self.program.node(id) {
            // Containers spend their brackets, separators and keys as they are made.
            Node::Ref(_)
            | Node::Union(_)
            | Node::Array(_)
            | Node::Tuple(_)
            | Node::Object(_)
            | Node::Map(_)
            | Node::Params(_) => {}
            // Made whole, without `value`: counted whole.
            Node::Any | Node::Literal(_) | Node::Enum(_) => self.spend_whole(&value)?,
            _ => self.spend(scalar_bytes(&value))?,
        }
        Ok(value)
    }

    /// The value of one node, as [`Gen::value`] asks for it.
    fn node(&mut self, id: NodeId, room: u32) -> Result<Value, Fail> {
        if self.static_values && is_scalar(self.program.node(id)) {
            if let Some(value) = self.fixed(id) {
                return Ok(value);
            }
            // A static value that breaks a rule (a least match shorter than `minLength`):
            // drawn, from a seed of its own so that it is still the same for every seed.
            let seeded = std::mem::replace(&mut self.dice, Dice::new(STATIC_SEED));
            let value = self.drawn(id, room);
            self.dice = seeded;
            return value;
        }
        self.drawn(id, room)
    }

    /// The value of one node, drawn with the walk's dice.
    fn drawn(&mut self, id: NodeId, room: u32) -> Result<Value, Fail> {
        let program = self.program;
        match program.node(id) {
            Node::Any => Ok(self.any(room)),
            Node::Null => Ok(Value::Null),
            Node::Boolean => Ok(Value::Bool(self.dice.chance(1, 2))),
            Node::Integer(rules) => {
                number::integer(rules, &mut self.dice).map_err(|e| self.fail(e))
            }
            Node::Number(rules) => number::number(rules, &mut self.dice).map_err(|e| self.fail(e)),
            Node::String(rules) => text::string(rules, self.plan.patterns.get(&id), &mut self.dice)
                .map(|s| if self.one_case_hex { text::typical_hex(rules, s) } else { s })
                .map(Value::String)
                .map_err(|e| self.fail(e)),
            Node::Literal(v) => Ok(v.clone()),
            Node::Enum(choices) => match choices.values.len() {
                0 => Err(self.fail("the enum has no values")),
                n => Ok(choices.values[self.dice.index(n)].clone()),
            },
            Node::Array(list) => self.array(list, room),
            Node::Tuple(elements) => {
                self.spend(2)?;
                let mut out = Vec::with_capacity(elements.len());
                for (i, &element) in elements.iter().enumerate() {
                    self.path.push(Cow::Owned(i.to_string()));
                    let v = self.value(element, room - 1);
                    self.path.pop();
                    out.push(v?);
                    self.spend(1)?;
                }
                Ok(Value::Array(out))
            }
            Node::Object(record) => self.object(&record.members, !record.closed, room),
            Node::Map(dict) => self.map(dict, room),
            Node::Union(union) => self.union(&union.variants, room),
            Node::Ref(target) => self.value(*target, room),
            Node::Params(params) => self.params(params, room),
        }
    }

    /// The contract's typical value of node `id` (its type's first example, else its default),
    /// when it has one that the node accepts within the nesting left.
    fn typical(&self, id: NodeId, room: u32) -> Option<Value> {
        let value = self.program.typical.get(&id)?;
        let fits = super::plan::nesting(value) <= room;
        (fits && self.generator.accepts(id, value)).then(|| value.clone())
    }

    /// The static value of a scalar node; `None` for other nodes and for a scalar whose static
    /// value breaks one of its rules (then drawn as usual).
    fn fixed(&self, id: NodeId) -> Option<Value> {
        match self.program.node(id) {
            Node::Boolean => Some(Value::Bool(false)),
            Node::Integer(rules) => fixed::integer(rules),
            Node::Number(rules) => fixed::number(rules),
            Node::String(rules) => {
                let least = match self.plan.patterns.get(&id) {
                    Some(Ok(sampler)) => Some(sampler.least.as_deref()?),
                    Some(Err(_)) => return None,
                    None => None,
                };
                let text = fixed::string(rules, least)?;
                let text = if self.one_case_hex { text::typical_hex(rules, text) } else { text };
                Some(Value::String(text))
            }
            Node::Enum(choices) => choices.values.first().cloned(),
            _ => None,
        }
    }

    /// Any JSON value: mostly scalars, containers while there is room.
    fn any(&mut self, room: u32) -> Value {
        let kinds = if room > 0 && !self.frugal() { 9 } else { 6 };
        match self.dice.below(kinds) {
            0 => Value::Null,
            1 => Value::Bool(self.dice.chance(1, 2)),
            2 => Value::from(self.dice.range_i128(-100, 100) as i64),
            3 => {
                serde_json::Number::from_f64((self.dice.range_i128(-10_000, 10_000) as f64) / 100.0)
                    .map_or(Value::Null, Value::Number)
            }
            4 | 5 => Value::String(text::plain(&mut self.dice, 0, None)),
            6 | 7 => {
                let n = self.dice.below(4);
                Value::Array((0..n).map(|_| self.any(room - 1)).collect())
            }
            _ => {
                let n = self.dice.below(4);
                let mut members = Map::new();
                for _ in 0..n {
                    let key = text::key(&mut self.dice);
                    let v = self.any(room - 1);
                    members.insert(key, v);
                }
                Value::Object(members)
            }
        }
    }

    fn array(&mut self, list: &List, room: u32) -> Result<Value, Fail> {
        let min = list.min_items.unwrap_or(0);
        let max = list.max_items.unwrap_or(u64::MAX);
        if min > max {
            return Err(self.fail(format!("minItems {min} is more than maxItems {max}")));
        }
        if min > MAX_COLLECTION {
            return Err(self.fail(format!(
                "minItems {min} is more than the {MAX_COLLECTION} items the generator writes"
            )));
        }
        let count = if !self.fits(list.items, room - 1) {
            0
        } else if self.frugal() {
            min
        } else {
            let hi = max.min(min.saturating_add(self.max_items));
            match self.dice.below(6) {
                0 => min,
                1 => hi,
                _ => self.dice.range(min, hi),
            }
        };
        self.spend(2)?;
        let mut out: Vec<Value> = Vec::new();
        let mut misses = 0;
        let static_values = self.static_values;
        while (out.len() as u64) < count {
            self.path.push(Cow::Owned(out.len().to_string()));
            // Items that must be unique are drawn once the static one is taken.
            self.static_values = static_values && misses == 0;
            let item = self.value(list.items, room - 1);
            self.static_values = static_values;
            self.path.pop();
            let item = match item {
                Ok(item) => item,
                Err(fail) if (out.len() as u64) < min || fail.budget.is_some() => return Err(fail),
                Err(_) => break,
            };
            if list.unique_items && out.iter().any(|o| json_equal(o, &item)) {
                misses += 1;
                if misses > 16 + 4 * count {
                    if (out.len() as u64) >= min {
                        break;
                    }
                    return Err(self.fail(format!(
                        "only {} distinct items were found, and uniqueItems needs {min}",
                        out.len()
                    )));
                }
                continue;
            }
            out.push(item);
            self.spend(1)?;
        }
        Ok(Value::Array(out))
    }

    /// An object of `members` (declared fields, or params by name); an open one sometimes
    /// gets a member it does not declare.
    fn object(&mut self, members: &'p Members, open: bool, room: u32) -> Result<Value, Fail> {
        self.spend(2)?;
        let mut out = Map::new();
        for m in &members.list {
            // The richest object has every member it may have; otherwise half of them.
            let wanted = m.required
                || (self.fits(m.node, room - 1)
                    && !self.frugal()
                    && (self.prefer.richest || self.dice.chance(1, 2)));
            if !wanted {
                continue;
            }
            self.path.push(Cow::Borrowed(&*m.name));
            let v = self.value(m.node, room - 1);
            self.path.pop();
            match v {
                Ok(v) => {
                    self.spend(m.name.len() as u64 + 4)?;
                    out.insert(m.name.to_string(), v);
                }
                Err(fail) if m.required || fail.budget.is_some() => return Err(fail),
                Err(_) => {}
            }
        }
        if open && !self.frugal() && self.dice.chance(1, 5) {
            let name = unknown_name(members, "x-extra");
            let v = if self.dice.chance(2, 3) { Value::from(1) } else { self.any(room - 1) };
            self.spend_whole(&v)?;
            self.spend(name.len() as u64 + 4)?;
            out.insert(name, v);
        }
        Ok(Value::Object(out))
    }

    fn map(&mut self, dict: &Dict, room: u32) -> Result<Value, Fail> {
        self.spend(2)?;
        let mut out = Map::new();
        let keys_fit = dict.keys.is_none_or(|k| self.fits(k, 0));
        if !keys_fit || !self.fits(dict.values, room - 1) || self.frugal() {
            return Ok(Value::Object(out));
        }
        let count = self.dice.below(self.max_items + 1);
        for _ in 0..count * 3 {
            if out.len() as u64 >= count {
                break;
            }
            let key = match dict.keys {
                None => text::key(&mut self.dice),
                Some(keys) => {
                    // Keys are drawn even under static scalars: one key would make every map
                    // one member long.
                    let static_values = std::mem::replace(&mut self.static_values, false);
                    let key = self.value(keys, 0);
                    self.static_values = static_values;
                    match key {
                        Ok(Value::String(key)) => key,
                        Err(fail) if fail.budget.is_some() => return Err(fail),
                        _ => continue,
                    }
                }
            };
            if out.contains_key(&key) {
                continue;
            }
            self.path.push(Cow::Owned(key.clone()));
            let v = self.value(dict.values, room - 1);
            self.path.pop();
            match v {
                Ok(v) => {
                    self.spend(key.len() as u64 + 4)?;
                    out.insert(key, v);
                }
                Err(fail) if fail.budget.is_some() => return Err(fail),
                Err(_) => break,
            }
        }
        Ok(Value::Object(out))
    }

    /// A value of one of the arms that fit, tried in a random order (the least deep first
    /// when frugal) until one gives a value.
    fn union(&mut self, variants: &[NodeId], room: u32) -> Result<Value, Fail> {
        let mut arms: Vec<NodeId> =
            variants.iter().copied().filter(|&a| self.fits(a, room)).collect();
        if self.frugal() {
            arms.sort_by_key(|&a| self.plan.least(a));
        } else {
            for i in (1..arms.len()).rev() {
                arms.swap(i, self.dice.index(i + 1));
            }
        }
        if !self.prefer.is_none() {
            // A stable sort: the preferred arms first, each group in the order drawn above.
            arms.sort_by_key(|&a| self.rank(a));
        }
        let mut last = None;
        for arm in arms {
            match self.value(arm, room) {
                Ok(v) => return Ok(v),
                Err(fail) if fail.budget.is_some() => return Err(fail),
                Err(fail) => last = Some(fail),
            }
        }
        Err(last.unwrap_or_else(|| self.fail("no arm of the union fits in the nesting left")))
    }

    /// Where arm `id` comes under the preference: lower first.
    fn rank(&self, id: NodeId) -> (bool, bool, std::cmp::Reverse<usize>) {
        let node = self.program.node(self.program.resolve(id));
        let null = matches!(node, Node::Null | Node::Literal(Value::Null));
        if self.prefer.richest {
            let members = self.richness(id, 4);
            let rich = members.map_or(0, |n| n + 1);
            return (
                self.prefer.non_null && null,
                self.prefer.objects && members.is_none(),
                std::cmp::Reverse(rich),
            );
        }
        let object = matches!(node, Node::Object(_) | Node::Map(_));
        // `false` sorts first: null arms last, then arms that are not objects.
        (self.prefer.non_null && null, self.prefer.objects && !object, std::cmp::Reverse(0))
    }

    /// How rich a value of `id` is as an object: its member count when it is an object (a map
    /// counts none), or holds objects (the items of an array, the richest arm of a union);
    /// `None` when it holds no object. `depth` bounds the look through recursive types.
    fn richness(&self, id: NodeId, depth: u32) -> Option<usize> {
        if depth == 0 {
            return None;
        }
        match self.program.node(self.program.resolve(id)) {
            Node::Object(record) => Some(record.members.list.len()),
            Node::Map(_) => Some(0),
            Node::Array(list) => self.richness(list.items, depth - 1),
            Node::Union(union) => {
                union.variants.iter().filter_map(|&v| self.richness(v, depth - 1)).max()
            }
            _ => None,
        }
    }

    /// Params as a caller sends them: by name or by position, as the method allows (either,
    /// when both); optional trailing params sometimes left out.
    fn params(&mut self, params: &'p Params, room: u32) -> Result<Value, Fail> {
        let named = self.plan.least_by_name(params) <= room;
        let positional = self.plan.least_by_position(params) <= room;
        let by_name = named && (!positional || self.dice.chance(1, 2));
        if by_name {
            return self.object(&params.members, true, room);
        }
        let list = &params.members.list;
        let sent = list.iter().rposition(|m| m.required).map_or(0, |i| i + 1);
        let mut most = sent;
        while most < list.len() && self.fits(list[most].node, room - 1) {
            most += 1;
        }
        let n =
            if self.frugal() { sent } else { self.dice.range(sent as u64, most as u64) as usize };
        self.spend(2)?;
        let mut out = Vec::with_capacity(n);
        for (i, m) in list[..n].iter().enumerate() {
            self.path.push(Cow::Owned(i.to_string()));
            let v = self.value(m.node, room - 1);
            self.path.pop();
            out.push(v?);
            self.spend(1)?;
        }
        Ok(Value::Array(out))
    }
}

/// The seed a scalar whose static value breaks one of its rules is drawn from.
const STATIC_SEED: u64 = 0;

/// Whether a node is a scalar that [`Generator::static_values`] gives a static value.
fn is_scalar(node: &Node) -> bool {
    matches!(
        node,
        Node::Boolean | Node::Integer(_) | Node::Number(_) | Node::String(_) | Node::Enum(_)
    )
}

/// `base`, or `base-2`, `base-3`, …: the first name `members` does not declare.
pub(crate) fn unknown_name(members: &Members, base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 1;
    while members.find(&name).is_some() {
        n += 1;
        name = format!("{base}-{n}");
    }
    name
}
