//! Invalid mutants of a valid value: a walk of the value alongside its nodes that proposes one
//! change per rule at every place, then makes each change on a copy and keeps it only when the
//! validator refuses the result.

use serde_json::{Map, Value};

use super::dice::{Dice, derive};
use super::number::{INT_HI, INT_LO, ceil_int, floor_int, int_num};
use super::text::{MAX_LENGTH, not_in_format};
use super::value::{Gen, unknown_name};
use super::{Generator, Mutant};
use crate::checks;
use crate::number::Num;
use crate::program::{
    Choices, Dict, List, Members, Node, NodeId, Numeric, Params, Record, Text, Union,
};
use crate::report::ValidationRule;
use crate::value::describe;

/// At most this many mutants are made of one value; past it a seed-chosen selection is kept.
const MAX_MUTANTS: usize = 400;

/// At most this many mutants nest past the depth limit (each is a deep value).
const MAX_DEEP: usize = 2;

/// One proposed change: the value at `at` (a pointer) becomes `with`.
struct Edit {
    at: String,
    with: Value,
    pointer: String,
    rule: ValidationRule,
    description: String,
}

struct Walk<'g, 'c> {
    generator: &'g Generator<'c>,
    dice: Dice,
    seed: u64,
    edits: Vec<Edit>,
    /// Pointer segments (escaped) from the root to the current value.
    path: Vec<String>,
    /// Containers around the current value.
    depth: usize,
    deep: usize,
}

pub(crate) fn mutants(generator: &Generator<'_>, valid: &Value, seed: u64) -> Vec<Mutant> {
    let mut walk = Walk {
        generator,
        dice: Dice::new(derive(seed, u64::MAX)),
        seed,
        edits: Vec::new(),
        path: Vec::new(),
        depth: 0,
        deep: 0,
    };
    walk.walk(generator.validator.root, valid, None);
    let mut edits = walk.edits;
    if edits.len() > MAX_MUTANTS {
        // A seed-chosen selection, kept in walk order.
        let mut order: Vec<usize> = (0..edits.len()).collect();
        for i in 0..MAX_MUTANTS {
            let j = i + walk.dice.index(order.len() - i);
            order.swap(i, j);
        }
        let mut keep = vec![false; edits.len()];
        for &i in &order[..MAX_MUTANTS] {
            keep[i] = true;
        }
        let mut i = 0;
        edits.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }
    let validator = generator.validator;
    edits
        .into_iter()
        .filter_map(|edit| {
            let mut value = valid.clone();
            if edit.at.is_empty() {
                value = edit.with;
            } else {
                *value.pointer_mut(&edit.at)? = edit.with;
            }
            (!validator.is_valid(&value)).then_some(Mutant {
                value,
                pointer: edit.pointer,
                rule: edit.rule,
                description: edit.description,
            })
        })
        .collect()
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// The JSON type of a value, telling integers from other numbers.
fn json_type(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(n) if Num::of(n).is_integer() => 2,
        Value::Number(_) => 3,
        Value::String(_) => 4,
        Value::Array(_) => 5,
        Value::Object(_) => 6,
    }
}

fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

impl<'c> Walk<'_, 'c> {
    fn program(&self) -> &'c crate::program::Program {
        self.generator.validator.program
    }

    fn here(&self) -> String {
        self.path.iter().map(|s| format!("/{s}")).collect()
    }

    fn child(&self, seg: &str) -> String {
        format!("{}/{}", self.here(), escape(seg))
    }

    fn where_(&self, pointer: &str) -> String {
        if pointer.is_empty() { "the value".to_owned() } else { format!("`{pointer}`") }
    }

    /// Proposes replacing the current value.
    fn replace(&mut self, with: Value, rule: ValidationRule, what: String) {
        let at = self.here();
        let description = format!("{}: {what}", self.where_(&at));
        self.edits.push(Edit { pointer: at.clone(), at, with, rule, description });
    }

    /// Proposes replacing the current container, naming `pointer` as the place changed.
    fn reshape(&mut self, with: Value, pointer: String, rule: ValidationRule, what: String) {
        let description = format!("{}: {what}", self.where_(&pointer));
        self.edits.push(Edit { at: self.here(), with, pointer, rule, description });
    }

    fn in_child<T>(&mut self, seg: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(escape(seg));
        let out = f(self);
        self.path.pop();
        out
    }

    /// A value of node `id` from the generator (for an item or map value to add).
    fn fresh(&mut self, id: NodeId) -> Option<Value> {
        let n = self.edits.len() as u64;
        let mut g = Gen::new(self.generator, Dice::new(derive(self.seed, n)));
        g.value(id, 2.max(self.generator.plan.least(id))).ok()
    }

    /// A value nesting past the validator's depth limit from here.
    fn too_deep(&mut self) -> Option<Value> {
        if self.deep >= MAX_DEEP {
            return None;
        }
        self.deep += 1;
        let levels = (self.generator.validator.depth_limit + 1).saturating_sub(self.depth);
        let mut v = Value::from(0);
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        Some(v)
    }

    fn walk(&mut self, id: NodeId, v: &Value, skip_member: Option<&str>) {
        let program = self.program();
        let node = program.node(id);
        if let Node::Ref(target) = node {
            return self.walk(*target, v, skip_member);
        }
        self.wrong_type(id, v);
        match node {
            Node::Any => {
                if let Some(deep) = self.too_deep() {
                    let limit = self.generator.validator.depth_limit;
                    self.replace(
                        deep,
                        ValidationRule::Depth,
                        format!("nested past the depth limit of {limit}"),
                    );
                }
            }
            Node::Null | Node::Boolean | Node::Ref(_) => {}
            Node::Integer(rules) => self.integer(rules, v),
            Node::Number(rules) => self.number(rules, v),
            Node::String(rules) => {
                if let Value::String(s) = v {
                    self.string(rules, s);
                }
            }
            Node::Literal(lit) => self.literal(lit),
            Node::Enum(choices) => self.unlisted(choices),
            Node::Array(list) => {
                if let Value::Array(items) = v {
                    self.array(list, items);
                }
            }
            Node::Tuple(elements) => {
                if let Value::Array(items) = v {
                    self.tuple(elements, items);
                }
            }
            Node::Object(record) => {
                if let Value::Object(members) = v {
                    self.object(record, members, skip_member);
                }
            }
            Node::Map(dict) => {
                if let Value::Object(members) = v {
                    self.map(dict, members);
                }
            }
            Node::Union(union) => self.union(union, v),
            Node::Params(params) => self.params(params, v),
        }
    }

    /// The rule a value of the wrong JSON type breaks at node `id`.
    fn type_rule(&self, id: NodeId, candidate: &Value) -> ValidationRule {
        let program = self.program();
        match program.node(program.resolve(id)) {
            Node::Literal(_) => ValidationRule::Literal,
            Node::Enum(_) => ValidationRule::Enum,
            Node::Union(u) if u.discriminator.is_none() => ValidationRule::Union,
            Node::Union(_) if candidate.is_object() => ValidationRule::Discriminator,
            _ => ValidationRule::Type,
        }
    }

    fn wrong_type(&mut self, id: NodeId, v: &Value) {
        let program = self.program();
        if matches!(program.node(program.resolve(id)), Node::Any) {
            return;
        }
        let candidates = [
            Value::Null,
            Value::Bool(true),
            Value::from(7),
            serde_json::json!(0.5),
            Value::from("x"),
            Value::Array(Vec::new()),
            Value::Object(Map::new()),
        ];
        let start = self.dice.index(candidates.len());
        let found =
            (0..candidates.len()).map(|i| &candidates[(start + i) % candidates.len()]).find(|c| {
                json_type(c) != json_type(v)
                    && !kind_admits(program.node(program.resolve(id)), c)
                    && !self.generator.accepts(id, c)
            });
        if let Some(c) = found {
            let rule = self.type_rule(id, c);
            let noun = program.node(program.resolve(id)).noun();
            self.replace(c.clone(), rule, format!("{} where {noun} is expected", describe(c)));
        }
    }

    fn integer(&mut self, rules: &Numeric, v: &Value) {
        // Every bound is named here, so a new one does not compile until it is handled.
        let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
        let Value::Number(n) = v else { return };
        let n = Num::of(n);
        let propose = |this: &mut Self, k: i128, rule: ValidationRule, what: &str| {
            if (INT_LO..=INT_HI).contains(&k)
                && let Some(num) = int_num(k)
            {
                this.replace(num.to_value(), rule, format!("{} {what}", num.render()));
            }
        };
        if let Some(min) = min {
            propose(
                self,
                ceil_int(min) - 1,
                ValidationRule::Minimum,
                &format!("is below the minimum {}", min.render()),
            );
        }
        if let Some(min) = exclusive_min {
            propose(
                self,
                floor_int(min),
                ValidationRule::ExclusiveMinimum,
                &format!("is not above the exclusive minimum {}", min.render()),
            );
        }
        if let Some(max) = max {
            propose(
                self,
                floor_int(max) + 1,
                ValidationRule::Maximum,
                &format!("is above the maximum {}", max.render()),
            );
        }
        if let Some(max) = exclusive_max {
            propose(
                self,
                ceil_int(max),
                ValidationRule::ExclusiveMaximum,
                &format!("is not below the exclusive maximum {}", max.render()),
            );
        }
        if let Some(of) = multiple_of
            && let Some(k) = non_multiple_int(rules, n, of)
        {
            propose(
                self,
                k,
                ValidationRule::MultipleOf,
                &format!("is not a multiple of {}", of.render()),
            );
        }
        // A fraction where an integer is expected; never a whole float such as 3.0, whose
        // standing as an integer schema 1 leaves open.
        let f = n.as_f64() + 0.5;
        let f = if f.fract() == 0.0 { 0.5 } else { f };
        self.replace(serde_json::json!(f), ValidationRule::Type, format!("{f} is not an integer"));
    }

    fn number(&mut self, rules: &Numeric, v: &Value) {
        // Every bound is named here, so a new one does not compile until it is handled.
        let Numeric { min, max, exclusive_min, exclusive_max, multiple_of } = *rules;
        let Value::Number(n) = v else { return };
        let n = Num::of(n).as_f64();
        let propose = |this: &mut Self, x: Num, rule: ValidationRule, what: &str| {
            let value = x.to_value();
            if !value.is_null() {
                this.replace(value, rule, format!("{} {what}", x.render()));
            }
        };
        if let Some(min) = min {
            let what = format!("is just below the minimum {}", min.render());
            propose(self, Num::F(min.as_f64().next_down()), ValidationRule::Minimum, &what);
            if min.is_integer()
                && let Some(k) = int_num(ceil_int(min) - 1)
            {
                propose(
                    self,
                    k,
                    ValidationRule::Minimum,
                    &format!("is below the minimum {}", min.render()),
                );
            }
        }
        if let Some(min) = exclusive_min {
            propose(self, min, ValidationRule::ExclusiveMinimum, "equals the exclusive minimum");
        }
        if let Some(max) = max {
            let what = format!("is just above the maximum {}", max.render());
            propose(self, Num::F(max.as_f64().next_up()), ValidationRule::Maximum, &what);
            if max.is_integer()
                && let Some(k) = int_num(floor_int(max) + 1)
            {
                propose(
                    self,
                    k,
                    ValidationRule::Maximum,
                    &format!("is above the maximum {}", max.render()),
                );
            }
        }
        if let Some(max) = exclusive_max {
            propose(self, max, ValidationRule::ExclusiveMaximum, "equals the exclusive maximum");
        }
        if let Some(of) = multiple_of {
            let m = of.as_f64();
            let half = ((n / m).round() + 0.5) * m;
            let candidates = [Num::F(half), Num::F(n + m / 2.0), Num::F(n + m / 3.0)];
            let best = pick_breaking(rules, &candidates, ValidationRule::MultipleOf);
            if let Some(x) = best {
                propose(
                    self,
                    x,
                    ValidationRule::MultipleOf,
                    &format!("is not a multiple of {}", of.render()),
                );
            }
        }
    }

    fn string(&mut self, rules: &Text, s: &str) {
        // Every rule is named here, so a new one does not compile until it is handled.
        let Text { min_length, max_length, ref pattern, format } = *rules;
        let len = s.chars().count() as u64;
        if let Some(min) = min_length
            && min > 0
            && len >= min
        {
            let short: String = s.chars().take((min - 1) as usize).collect();
            self.replace(
                Value::String(short),
                ValidationRule::MinLength,
                format!("one character shorter than minLength {min}"),
            );
        }
        if let Some(max) = max_length
            && max < MAX_LENGTH
            && len <= max
        {
            let pad = s.chars().last().unwrap_or('a');
            let mut long = s.to_owned();
            long.extend(std::iter::repeat_n(pad, (max + 1 - len) as usize));
            self.replace(
                Value::String(long),
                ValidationRule::MaxLength,
                format!("one character longer than maxLength {max}"),
            );
        }
        if let Some(pattern) = &pattern {
            let reversed: String = s.chars().rev().collect();
            let mut swapped = s.to_owned();
            if let Some(first) = swapped.chars().next() {
                swapped.replace_range(..first.len_utf8(), if first == '!' { "?" } else { "!" });
            }
            let candidates = [
                swapped,
                reversed,
                s.to_uppercase(),
                s.to_lowercase(),
                format!("{s} "),
                "!".repeat(len.max(1) as usize),
                String::new(),
                "~".to_owned(),
                "0".to_owned(),
                " ".to_owned(),
            ];
            // A candidate is refused when it is matched and does not match: one the cost bound
            // keeps from being matched would be refused for its cost, not its pattern.
            let refused = |c: &&String| {
                let _run = crate::pattern::Run::start();
                pattern.matches(c) == Some(false)
            };
            let fits = |c: &&String| {
                let n = c.chars().count() as u64;
                min_length.is_none_or(|m| n >= m) && max_length.is_none_or(|m| n <= m)
            };
            let pick = candidates
                .iter()
                .filter(refused)
                .find(fits)
                .or_else(|| candidates.iter().find(refused));
            if let Some(c) = pick {
                let what =
                    format!("{} does not match /{}/", Value::String(c.clone()), pattern.as_str());
                self.replace(Value::String(c.clone()), ValidationRule::Pattern, what);
            }
        }
        if let Some(format) = format
            && let Some(c) = not_in_format(format, s).into_iter().next()
        {
            let what = format!("{} is not a {} string", Value::String(c.clone()), format.name());
            self.replace(Value::String(c), ValidationRule::Format, what);
        }
    }

    fn literal(&mut self, lit: &Value) {
        let other = match lit {
            Value::Null => return,
            Value::Bool(b) => Value::Bool(!b),
            Value::Number(n) => match Num::of(n) {
                n @ (Num::I(_) | Num::U(_)) => {
                    match int_num(ceil_int(n) + 1).or(int_num(ceil_int(n) - 1)) {
                        Some(k) => k.to_value(),
                        None => return,
                    }
                }
                Num::F(f) => serde_json::json!(f + 0.5),
            },
            Value::String(s) => Value::String(format!("{s}-other")),
            Value::Array(items) => {
                let mut items = items.clone();
                items.push(Value::Null);
                Value::Array(items)
            }
            Value::Object(members) => {
                let mut members = members.clone();
                members.insert("x-other".to_owned(), Value::from(1));
                Value::Object(members)
            }
        };
        let what = format!("{} is not the literal {}", shown(&other), shown(lit));
        self.replace(other, ValidationRule::Literal, what);
    }

    fn unlisted(&mut self, choices: &Choices) {
        if !choices.strings.is_empty() || choices.integers.is_empty() {
            let mut s = "x-unlisted".to_owned();
            while checks::enum_has_string(choices, &s) {
                s.push('_');
            }
            let what = format!("{} is not one of the enum's values", Value::String(s.clone()));
            self.replace(Value::String(s), ValidationRule::Enum, what);
        }
        let top = choices.integers.iter().map(|&n| ceil_int(n)).max();
        if let Some(k) = top.and_then(|t| int_num(t + 1).or(int_num(t - 1)))
            && !checks::enum_has_number(choices, k)
        {
            self.replace(
                k.to_value(),
                ValidationRule::Enum,
                format!("{} is not one of the enum's values", k.render()),
            );
        }
    }

    fn array(&mut self, list: &List, items: &[Value]) {
        let len = items.len() as u64;
        let here = self.here();
        if let Some(min) = list.min_items
            && min > 0
            && len >= min
        {
            let short = items[..(min - 1) as usize].to_vec();
            let pointer = format!("{here}/{}", min - 1);
            self.reshape(
                Value::Array(short),
                pointer,
                ValidationRule::MinItems,
                format!("removed, leaving one item fewer than minItems {min}"),
            );
        }
        if let Some(max) = list.max_items
            && max < 10_000
            && len <= max
        {
            let mut long = items.to_vec();
            if long.is_empty()
                && let Some(item) = self.fresh(list.items)
            {
                long.push(item);
            }
            if !long.is_empty() {
                while (long.len() as u64) <= max {
                    long.push(long[long.len() % items.len().max(1)].clone());
                }
                let pointer = format!("{here}/{max}");
                self.reshape(
                    Value::Array(long),
                    pointer,
                    ValidationRule::MaxItems,
                    format!("added, one item more than maxItems {max}"),
                );
            }
        }
        if list.unique_items && !items.is_empty() {
            let mut dup = items.to_vec();
            let (pointer, what) = if list.max_items.is_none_or(|m| len < m) {
                dup.push(items[0].clone());
                (format!("{here}/{len}"), "added, a copy of item 0 where items must be unique")
            } else if items.len() >= 2 {
                dup[1] = items[0].clone();
                (format!("{here}/1"), "replaced by a copy of item 0 where items must be unique")
            } else {
                (String::new(), "")
            };
            if !what.is_empty() {
                self.reshape(
                    Value::Array(dup),
                    pointer,
                    ValidationRule::UniqueItems,
                    what.to_owned(),
                );
            }
        }
        self.depth += 1;
        for (i, item) in items.iter().enumerate() {
            self.in_child(&i.to_string(), |this| this.walk(list.items, item, None));
        }
        self.depth -= 1;
    }

    fn tuple(&mut self, elements: &[NodeId], items: &[Value]) {
        let n = elements.len();
        let here = self.here();
        if let Some((_, rest)) = items.split_last() {
            let what = format!(
                "removed, leaving {} where the tuple has exactly {}",
                checks::items(n - 1),
                checks::items(n)
            );
            self.reshape(
                Value::Array(rest.to_vec()),
                format!("{here}/{}", items.len() - 1),
                ValidationRule::Length,
                what,
            );
        }
        let mut long = items.to_vec();
        long.push(Value::Null);
        let what = format!(
            "added, giving {} where the tuple has exactly {}",
            checks::items(long.len()),
            checks::items(n)
        );
        self.reshape(
            Value::Array(long),
            format!("{here}/{}", items.len()),
            ValidationRule::Length,
            what,
        );
        self.depth += 1;
        for (i, (item, &element)) in items.iter().zip(elements).enumerate() {
            self.in_child(&i.to_string(), |this| this.walk(element, item, None));
        }
        self.depth -= 1;
    }

    /// Required members left out, one at a time.
    fn drop_required(
        &mut self,
        members: &Members,
        present: &Map<String, Value>,
        what: &str,
        skip: Option<&str>,
    ) {
        for m in members.list.iter().filter(|m| m.required && Some(&*m.name) != skip) {
            if present.contains_key(&*m.name) {
                let mut less = present.clone();
                less.shift_remove(&*m.name);
                let pointer = self.child(&m.name);
                self.reshape(
                    Value::Object(less),
                    pointer,
                    ValidationRule::Required,
                    format!("the required {what} `{}` left out", m.name),
                );
            }
        }
    }

    /// Declared members walked with their nodes (the discriminator tag, if any, skipped: a
    /// change to it is a change of arm).
    fn walk_members(
        &mut self,
        members: &Members,
        present: &Map<String, Value>,
        skip: Option<&str>,
    ) {
        self.depth += 1;
        for (key, value) in present {
            if Some(key.as_str()) == skip {
                continue;
            }
            if let Some(i) = members.find(key) {
                let node = members.list[i].node;
                self.in_child(key, |this| this.walk(node, value, None));
            }
        }
        self.depth -= 1;
    }

    fn object(&mut self, record: &Record, present: &Map<String, Value>, skip: Option<&str>) {
        self.drop_required(&record.members, present, "member", skip);
        if record.closed {
            let name = unknown_name(&record.members, "x-unknown");
            let mut more = present.clone();
            more.insert(name.clone(), Value::from(1));
            let pointer = self.child(&name);
            self.reshape(
                Value::Object(more),
                pointer,
                ValidationRule::Closed,
                "added, a member the closed object does not declare".to_owned(),
            );
        } else {
            self.depth += 1;
            let deep = self.too_deep();
            self.depth -= 1;
            if let Some(deep) = deep {
                let name = unknown_name(&record.members, "x-deep");
                let mut more = present.clone();
                more.insert(name.clone(), deep);
                let pointer = self.child(&name);
                let limit = self.generator.validator.depth_limit;
                self.reshape(
                    Value::Object(more),
                    pointer,
                    ValidationRule::Depth,
                    format!("added, nesting past the depth limit of {limit}"),
                );
            }
        }
        self.walk_members(&record.members, present, skip);
    }

    fn map(&mut self, dict: &Dict, present: &Map<String, Value>) {
        if let Some(keys) = dict.keys {
            let candidates = ["", "x-unknown-key", "0", " ", "NOT A KEY", "~/", "é"];
            let refused = candidates.iter().find(|k| {
                !present.contains_key(**k) && !self.generator.accepts(keys, &Value::from(**k))
            });
            let value = present.values().next().cloned().or_else(|| self.fresh(dict.values));
            if let (Some(&key), Some(value)) = (refused, value) {
                let mut more = present.clone();
                more.insert(key.to_owned(), value);
                let pointer = self.child(key);
                let what =
                    format!("added, under a key the map's key type refuses ({})", Value::from(key));
                self.reshape(Value::Object(more), pointer, ValidationRule::MapKey, what);
            }
        }
        self.depth += 1;
        for (key, value) in present {
            self.in_child(key, |this| this.walk(dict.values, value, None));
        }
        self.depth -= 1;
    }

    fn union(&mut self, union: &Union, v: &Value) {
        if let Some(d) = &union.discriminator {
            let Value::Object(present) = v else { return };
            let Some(tag) = present.get(&*d.member) else { return };
            let pointer = self.child(&d.member);
            let mut less = present.clone();
            less.shift_remove(&*d.member);
            let what = format!("the discriminator `{}` left out", d.member);
            self.reshape(Value::Object(less), pointer.clone(), ValidationRule::Discriminator, what);
            let strings = d.arms.iter().any(|(t, _)| t.is_string());
            let unknown = if strings || d.arms.is_empty() {
                let mut s = "x-unknown-tag".to_owned();
                while d.arms.iter().any(|(t, _)| t.as_str() == Some(&s)) {
                    s.push('_');
                }
                Value::String(s)
            } else {
                let top = d
                    .arms
                    .iter()
                    .filter_map(|(t, _)| t.as_number())
                    .map(|n| ceil_int(Num::of(n)))
                    .max();
                match top.and_then(|t| int_num(t + 1)) {
                    Some(k) => k.to_value(),
                    None => Value::Null,
                }
            };
            let mut other = present.clone();
            other.insert(d.member.to_string(), unknown.clone());
            let what = format!("the tag {} picks no arm", shown(&unknown));
            self.reshape(Value::Object(other), pointer, ValidationRule::Discriminator, what);
            if let Some(arm) = d.arm_for(tag) {
                self.walk(arm, v, Some(&d.member));
            }
        } else {
            let arm = union.variants.iter().copied().find(|&a| self.generator.accepts(a, v));
            if let Some(arm) = arm {
                self.walk(arm, v, None);
            }
        }
    }

    fn params(&mut self, params: &Params, v: &Value) {
        match v {
            Value::Object(present) if params.by_name => {
                self.drop_required(&params.members, present, "param", None);
                self.walk_members(&params.members, present, None);
            }
            Value::Array(items) if params.by_position => {
                let list = &params.members.list;
                let here = self.here();
                for (i, m) in list.iter().enumerate().take(items.len()) {
                    if m.required {
                        let what = format!(
                            "removed with the params after it, leaving the required param `{}` out",
                            m.name
                        );
                        self.reshape(
                            Value::Array(items[..i].to_vec()),
                            format!("{here}/{i}"),
                            ValidationRule::Required,
                            what,
                        );
                    }
                }
                let mut long = items.to_vec();
                long.resize(list.len() + 1, Value::Null);
                let what =
                    format!("added, one param more than the {} the method declares", list.len());
                self.reshape(
                    Value::Array(long),
                    format!("{here}/{}", list.len()),
                    ValidationRule::Length,
                    what,
                );
                self.depth += 1;
                for (i, (item, m)) in items.iter().zip(list).enumerate() {
                    self.in_child(&i.to_string(), |this| this.walk(m.node, item, None));
                }
                self.depth -= 1;
            }
            _ => {}
        }
    }
}

/// Whether the JSON type of `v` is one the node's kind takes (so that a refusal would be for a
/// rule other than the type). Literals, enums and unions take no type as such.
fn kind_admits(node: &Node, v: &Value) -> bool {
    match node {
        Node::Any => true,
        Node::Null => v.is_null(),
        Node::Boolean => v.is_boolean(),
        Node::Integer(_) => json_type(v) == 2,
        Node::Number(_) => v.is_number(),
        Node::String(_) => v.is_string(),
        Node::Array(_) | Node::Tuple(_) => v.is_array(),
        Node::Object(_) | Node::Map(_) => v.is_object(),
        Node::Params(p) => (p.by_name && v.is_object()) || (p.by_position && v.is_array()),
        Node::Union(u) => u.discriminator.is_some() && v.is_object(),
        Node::Literal(_) | Node::Enum(_) | Node::Ref(_) => false,
    }
}

/// An integer near `n` that is not a multiple of `of`, preferring one that breaks no other rule.
fn non_multiple_int(rules: &Numeric, n: Num, of: Num) -> Option<i128> {
    let base = ceil_int(n);
    let candidates: Vec<Num> = [1, -1, 2, -2, 3, 5, 7]
        .into_iter()
        .filter_map(|d| int_num(base + d))
        .filter(|c| !c.is_multiple_of(of))
        .collect();
    pick_breaking(rules, &candidates, ValidationRule::MultipleOf).map(ceil_int)
}

/// The first candidate that breaks `rule` alone, else the first that breaks it at all.
fn pick_breaking(rules: &Numeric, candidates: &[Num], rule: ValidationRule) -> Option<Num> {
    let broken = |n: Num| {
        let mut rules_broken = Vec::new();
        checks::numeric(rules, n, |r, _, _| rules_broken.push(r));
        rules_broken
    };
    let only = candidates.iter().copied().find(|&c| broken(c) == [rule]);
    only.or_else(|| candidates.iter().copied().find(|&c| broken(c).contains(&rule)))
}
