//! Validation of a `serde_json::Value` against a compiled program.

use std::borrow::Cow;

use serde_json::Value;

use crate::checks;
use crate::number::{Num, json_equal};
use crate::program::{Members, Node, NodeId, Params, Program, Record, Seen};
use crate::report::{
    Path, Seg, ValidationError, ValidationRule, expected, found, map_key_error, member,
};

/// One validation run over one value.
pub(crate) struct ValueCheck<'p, 'v> {
    program: &'p Program,
    /// Whether errors are wanted (else the first problem ends the run).
    detailed: bool,
    limit: usize,
    depth: usize,
    path: Path<'v>,
    pub(crate) errors: Vec<ValidationError>,
}

pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => found::null(),
        Value::Bool(b) => found::boolean(*b),
        Value::Number(n) => found::number(Num::of(n)),
        Value::String(s) => found::string(s),
        Value::Array(_) => found::array(),
        Value::Object(_) => found::object(),
    }
}

impl<'p, 'v> ValueCheck<'p, 'v> {
    pub(crate) fn new(program: &'p Program, detailed: bool, limit: usize) -> Self {
        ValueCheck { program, detailed, limit, depth: 0, path: Path::default(), errors: Vec::new() }
    }

    fn fail(&mut self, rule: ValidationRule, expected: impl Into<String>, found: String) {
        if self.detailed {
            let pointer = self.path.pointer();
            self.errors.push(ValidationError {
                pointer,
                rule,
                expected: expected.into(),
                found,
                nearest: Vec::new(),
            });
        }
    }

    fn push(&mut self, seg: Seg<'v>) {
        if self.detailed {
            self.path.push(seg);
        }
    }

    fn pop(&mut self) {
        if self.detailed {
            self.path.pop();
        }
    }

    /// Enters a container; false (with an error) past the depth limit.
    fn enter(&mut self, v: &Value) -> bool {
        if self.depth >= self.limit {
            let limit = self.limit;
            self.fail(ValidationRule::Depth, checks::depth_expected(limit), describe(v));
            return false;
        }
        self.depth += 1;
        true
    }

    /// Whether the value checks against node `id`.
    pub(crate) fn check(&mut self, id: NodeId, v: &'v Value) -> bool {
        let program = self.program;
        if !self.detailed {
            return Quiet::new(program, self.limit).check(id, v, self.depth);
        }
        match program.node(id) {
            Node::Any => self.within_depth(v),
            Node::Null => self.expect(v.is_null(), id, v),
            Node::Boolean => self.expect(v.is_boolean(), id, v),
            Node::Integer(rules) => match v {
                Value::Number(n) if Num::of(n).is_integer() => {
                    let mut errs = Vec::new();
                    let ok = checks::numeric(rules, Num::of(n), |r, e, f| errs.push((r, e, f)));
                    self.fail_all(errs);
                    ok
                }
                _ => self.expect(false, id, v),
            },
            Node::Number(rules) => match v {
                Value::Number(n) => {
                    let mut errs = Vec::new();
                    let ok = checks::numeric(rules, Num::of(n), |r, e, f| errs.push((r, e, f)));
                    self.fail_all(errs);
                    ok
                }
                _ => self.expect(false, id, v),
            },
            Node::String(rules) => match v {
                Value::String(s) => {
                    let mut errs = Vec::new();
                    let ok = checks::text(rules, s, |r, e, f| errs.push((r, e, f)));
                    self.fail_all(errs);
                    ok
                }
                _ => self.expect(false, id, v),
            },
            Node::Literal(lit) => {
                let ok = json_equal(lit, v);
                if !ok {
                    self.fail(ValidationRule::Literal, expected::exactly(lit), describe(v));
                }
                ok
            }
            Node::Enum(c) => {
                let ok = match v {
                    Value::String(s) => checks::enum_has_string(c, s),
                    Value::Number(n) => checks::enum_has_number(c, Num::of(n)),
                    _ => false,
                };
                if !ok {
                    self.fail(ValidationRule::Enum, checks::enum_expected(c), describe(v));
                }
                ok
            }
            Node::Array(list) => {
                let Value::Array(items) = v else { return self.expect(false, id, v) };
                if !self.enter(v) {
                    return false;
                }
                // Items first, then the count, then uniqueness: the order the bytes path, which
                // learns the count last, reports them in.
                let mut ok = true;
                // Items of a plain scalar type are checked in one tight loop; only when one
                // fails does the general walk run, to say which and why.
                let plain = list.plain.is_some_and(|plain| plain.all(items));
                if !plain {
                    for (i, item) in items.iter().enumerate() {
                        self.push(Seg::Index(i));
                        ok &= self.check(list.items, item);
                        self.pop();
                        if !ok && !self.detailed {
                            break;
                        }
                    }
                }
                if ok || self.detailed {
                    ok &= self.count(items.len(), list.min_items, list.max_items);
                }
                if list.unique_items && (ok || self.detailed) {
                    ok &= self.unique(items);
                }
                self.depth -= 1;
                ok
            }
            Node::Tuple(elements) => {
                let Value::Array(items) = v else { return self.expect(false, id, v) };
                if !self.enter(v) {
                    return false;
                }
                let mut ok = true;
                for (i, (item, &element)) in items.iter().zip(elements).enumerate() {
                    self.push(Seg::Index(i));
                    ok &= self.check(element, item);
                    self.pop();
                    if !ok && !self.detailed {
                        break;
                    }
                }
                if items.len() != elements.len() && (ok || self.detailed) {
                    ok = false;
                    let n = elements.len();
                    self.fail(
                        ValidationRule::Length,
                        expected::array_of_exactly(n),
                        found::array_of(items.len()),
                    );
                }
                self.depth -= 1;
                ok
            }
            Node::Object(record) => {
                let Value::Object(members) = v else { return self.expect(false, id, v) };
                if !self.enter(v) {
                    return false;
                }
                let ok = self.record(record, members);
                self.depth -= 1;
                ok
            }
            Node::Map(dict) => {
                let Value::Object(members) = v else { return self.expect(false, id, v) };
                if !self.enter(v) {
                    return false;
                }
                let mut ok = true;
                for (key, value) in members {
                    self.push(Seg::Key(Cow::Borrowed(key)));
                    if let Some(keys) = dict.keys {
                        ok &= self.map_key(keys, key);
                    }
                    if ok || self.detailed {
                        ok &= self.check(dict.values, value);
                    }
                    self.pop();
                    if !ok && !self.detailed {
                        break;
                    }
                }
                self.depth -= 1;
                ok
            }
            Node::Union(union) => {
                if let Some(d) = &union.discriminator {
                    let Value::Object(members) = v else { return self.expect(false, id, v) };
                    let Some(tag) = members.get(&*d.member) else {
                        self.fail(
                            ValidationRule::Discriminator,
                            expected::discriminator(&d.member),
                            found::object(),
                        );
                        return false;
                    };
                    return match d.arm_for(tag) {
                        Some(arm) => self.check(arm, v),
                        None => {
                            let tags: Vec<String> =
                                d.arms.iter().map(|(t, _)| t.to_string()).collect();
                            self.push(Seg::Key(Cow::Owned(d.member.to_string())));
                            self.fail(
                                ValidationRule::Discriminator,
                                expected::one_of_tags(&tags),
                                describe(tag),
                            );
                            self.pop();
                            false
                        }
                    };
                }
                // Without a discriminator: any arm. Arms are tried quietly first.
                let quiet = Quiet::new(program, self.limit);
                if union.variants.iter().any(|&arm| quiet.check(arm, v, self.depth)) {
                    return true;
                }
                if self.detailed {
                    let nearest = self.nearest_arm(&union.variants, v);
                    let arms: Vec<&str> = union
                        .variants
                        .iter()
                        .map(|&a| program.node(program.resolve(a)).noun())
                        .collect();
                    let pointer = self.path.pointer();
                    self.errors.push(ValidationError {
                        pointer,
                        rule: ValidationRule::Union,
                        expected: expected::union_arms(&arms),
                        found: describe(v),
                        nearest,
                    });
                }
                false
            }
            Node::Ref(target) => self.check(*target, v),
            Node::Params(params) => self.params(params, id, v),
        }
    }

    fn fail_all(&mut self, errs: Vec<(ValidationRule, String, String)>) {
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
    }

    fn expect(&mut self, ok: bool, id: NodeId, v: &Value) -> bool {
        if !ok {
            let noun = self.program.node(id).noun();
            self.fail(ValidationRule::Type, noun, describe(v));
        }
        ok
    }

    fn count(&mut self, len: usize, min: Option<u64>, max: Option<u64>) -> bool {
        let mut errs = Vec::new();
        let ok = checks::item_count(len, min, max, |r, e, f| errs.push((r, e, f)));
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
        ok
    }

    fn unique(&mut self, items: &[Value]) -> bool {
        let mut errs = Vec::new();
        let ok = checks::unique_items(items, |r, e, f| errs.push((r, e, f)));
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
        ok
    }

    fn record(&mut self, record: &Record, members: &'v serde_json::Map<String, Value>) -> bool {
        let mut ok = true;
        let mut seen = Seen::new(record.members.len());
        let mut hint = 0;
        for (key, value) in members {
            self.push(Seg::Key(Cow::Borrowed(key)));
            match record.members.find_from(key.as_bytes(), hint) {
                Some(i) => {
                    hint = i + 1;
                    seen.set(i);
                    ok &= self.check(record.members.list[i].node, value);
                }
                None if record.closed => {
                    ok = false;
                    self.fail(ValidationRule::Closed, expected::closed(record), member(key));
                }
                None => {
                    // Open: unknown members are accepted, but still bounded in depth.
                    ok &= self.within_depth(value);
                }
            }
            self.pop();
            if !ok && !self.detailed {
                return false;
            }
        }
        for (i, m) in record.members.list.iter().enumerate() {
            if m.required && !seen.has(i) {
                ok = false;
                self.fail(
                    ValidationRule::Required,
                    member(&m.name),
                    found::object_without(&m.name),
                );
                if !self.detailed {
                    return false;
                }
            }
        }
        ok
    }

    fn params(&mut self, params: &Params, id: NodeId, v: &'v Value) -> bool {
        match v {
            Value::Object(members) if params.by_name => {
                if !self.enter(v) {
                    return false;
                }
                let mut ok = true;
                for (key, value) in members {
                    self.push(Seg::Key(Cow::Borrowed(key)));
                    ok &= match params.members.find(key) {
                        Some(i) => self.check(params.members.list[i].node, value),
                        None => self.within_depth(value),
                    };
                    self.pop();
                    if !ok && !self.detailed {
                        self.depth -= 1;
                        return false;
                    }
                }
                for m in &params.members.list {
                    if m.required && !members.contains_key(&*m.name) {
                        ok = false;
                        self.fail(
                            ValidationRule::Required,
                            expected::param(&m.name),
                            found::params_without(&m.name),
                        );
                        if !self.detailed {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                ok
            }
            Value::Array(items) if params.by_position => {
                if !self.enter(v) {
                    return false;
                }
                let declared = params.members.len();
                let mut ok = true;
                for (i, m) in params.members.list.iter().enumerate() {
                    if !ok && !self.detailed {
                        break;
                    }
                    match items.get(i) {
                        Some(item) => {
                            self.push(Seg::Index(i));
                            ok &= self.check(m.node, item);
                            self.pop();
                        }
                        None if m.required => {
                            ok = false;
                            self.fail(
                                ValidationRule::Required,
                                expected::param_at(&m.name, i),
                                found::array_of(items.len()),
                            );
                        }
                        None => {}
                    }
                }
                if items.len() > declared && (ok || self.detailed) {
                    ok = false;
                    self.fail(
                        ValidationRule::Length,
                        expected::at_most_params(declared),
                        found::array_of(items.len()),
                    );
                }
                self.depth -= 1;
                ok
            }
            _ => self.expect(false, id, v),
        }
    }

    fn map_key(&mut self, keys: NodeId, key: &'v str) -> bool {
        let program = self.program;
        let as_value = Value::String(key.to_owned());
        let mut probe = ValueCheck::new(program, self.detailed, self.limit);
        if probe.check(keys, &as_value) {
            return true;
        }
        if self.detailed {
            let pointer = self.path.pointer();
            self.errors.push(map_key_error(pointer, key, probe.errors));
        }
        false
    }

    /// The errors of the arm with the fewest, re-based on the union's path.
    fn nearest_arm(&mut self, arms: &[NodeId], v: &'v Value) -> Vec<ValidationError> {
        let mut best: Option<Vec<ValidationError>> = None;
        for &arm in arms {
            let mut probe = ValueCheck::new(self.program, true, self.limit);
            probe.depth = self.depth;
            probe.path = Path::default();
            probe.check(arm, v);
            if best.as_ref().is_none_or(|b| probe.errors.len() < b.len()) {
                best = Some(probe.errors);
            }
        }
        let base = self.path.pointer();
        best.unwrap_or_default()
            .into_iter()
            .map(|mut e| {
                e.pointer = format!("{base}{}", e.pointer);
                e
            })
            .collect()
    }

    /// Accepts any value no deeper than the limit allows.
    fn within_depth(&mut self, v: &Value) -> bool {
        match v {
            Value::Array(items) => {
                if !self.enter(v) {
                    return false;
                }
                let ok = items.iter().all(|item| self.within_depth(item));
                self.depth -= 1;
                ok
            }
            Value::Object(members) => {
                if !self.enter(v) {
                    return false;
                }
                let ok = members.values().all(|item| self.within_depth(item));
                self.depth -= 1;
                ok
            }
            _ => true,
        }
    }
}

/// The verdict alone on a `Value`: what [`ValueCheck::check`] decides without errors, by a walk
/// that keeps no path and no errors, checks counts before items, tests arrays of plain items in
/// one loop and required members with one mask. `Validator::is_valid` and the quiet probes of
/// unions take it; when errors are wanted and it says no, the detailed walk runs to say why.
pub(crate) struct Quiet<'p> {
    program: &'p Program,
    limit: usize,
}

impl<'p> Quiet<'p> {
    pub(crate) fn new(program: &'p Program, limit: usize) -> Self {
        Quiet { program, limit }
    }

    /// Whether `v`, at nesting `depth`, checks against node `id`.
    pub(crate) fn check(&self, id: NodeId, v: &Value, depth: usize) -> bool {
        match self.program.node(id) {
            Node::Any => self.within_depth(v, depth),
            Node::Null => v.is_null(),
            Node::Boolean => v.is_boolean(),
            Node::Integer(rules) => match v {
                Value::Number(n) => {
                    let n = Num::of(n);
                    n.is_integer()
                        && (rules.is_unbounded() || checks::numeric(rules, n, |_, _, _| {}))
                }
                _ => false,
            },
            Node::Number(rules) => match v {
                Value::Number(n) => {
                    rules.is_unbounded() || checks::numeric(rules, Num::of(n), |_, _, _| {})
                }
                _ => false,
            },
            Node::String(rules) => match v {
                Value::String(s) => rules.is_unbounded() || checks::text(rules, s, |_, _, _| {}),
                _ => false,
            },
            Node::Literal(lit) => json_equal(lit, v),
            Node::Enum(c) => match v {
                Value::String(s) => checks::enum_has_string(c, s),
                Value::Number(n) => checks::enum_has_number(c, Num::of(n)),
                _ => false,
            },
            Node::Array(list) => {
                let Value::Array(items) = v else { return false };
                if depth >= self.limit || !list.count_ok(items.len()) {
                    return false;
                }
                let items_ok = match (list.plain, self.program.node(list.resolved)) {
                    (Some(plain), _) => plain.all(items),
                    // Arrays of arrays of plain items (GeoJSON's rings of positions): both
                    // loops here, without a call per inner array.
                    (None, Node::Array(inner)) if inner.plain.is_some() && !inner.unique_items => {
                        let Some(plain) = inner.plain else { return false };
                        items.is_empty()
                            || depth + 1 < self.limit
                                && items.iter().all(|item| match item {
                                    Value::Array(xs) => inner.count_ok(xs.len()) && plain.all(xs),
                                    _ => false,
                                })
                    }
                    // Arrays of objects (citm's performances, prices, areas): the members'
                    // loop straight from here, without a call and a dispatch per item.
                    (None, Node::Object(record)) => items.iter().all(|item| match item {
                        Value::Object(members) => {
                            depth + 1 < self.limit
                                && self.members(&record.members, record.closed, members, depth + 2)
                        }
                        _ => false,
                    }),
                    (None, _) => {
                        items.iter().all(|item| self.check(list.resolved, item, depth + 1))
                    }
                };
                items_ok && (!list.unique_items || checks::unique_items(items, |_, _, _| {}))
            }
            Node::Tuple(elements) => {
                let Value::Array(items) = v else { return false };
                depth < self.limit
                    && items.len() == elements.len()
                    && items.iter().zip(elements).all(|(item, &e)| self.check(e, item, depth + 1))
            }
            Node::Object(record) => {
                let Value::Object(members) = v else { return false };
                depth < self.limit
                    && self.members(&record.members, record.closed, members, depth + 1)
            }
            Node::Map(dict) => {
                let Value::Object(members) = v else { return false };
                if depth >= self.limit {
                    return false;
                }
                if let (None, Some(plain)) = (dict.keys, dict.plain) {
                    return members.values().all(|value| plain.test(value));
                }
                members.iter().all(|(key, value)| {
                    dict.keys.is_none_or(|keys| self.key(keys, key))
                        && self.check(dict.values, value, depth + 1)
                })
            }
            Node::Union(union) => match union.quiet_tag() {
                Some(d) => {
                    let Value::Object(members) = v else { return false };
                    members
                        .get(&*d.member)
                        .and_then(|tag| d.arm_for(tag))
                        .is_some_and(|arm| self.check(arm, v, depth))
                }
                None => union.variants.iter().any(|&arm| self.check(arm, v, depth)),
            },
            Node::Ref(target) => self.check(*target, v, depth),
            Node::Params(params) => match v {
                Value::Object(members) if params.by_name => {
                    depth < self.limit && self.members(&params.members, false, members, depth + 1)
                }
                Value::Array(items) if params.by_position => {
                    let list = &params.members.list;
                    depth < self.limit
                        && items.len() <= list.len()
                        && list.iter().enumerate().all(|(i, m)| match items.get(i) {
                            Some(item) => self.check(m.node, item, depth + 1),
                            None => !m.required,
                        })
                }
                _ => false,
            },
        }
    }

    /// An object's or by-name params' members, one pass: each found by position first, plain
    /// ones tested in the loop, required ones by mask; unknown ones refused when `closed`.
    fn members(
        &self,
        declared: &Members,
        closed: bool,
        members: &serde_json::Map<String, Value>,
        depth: usize,
    ) -> bool {
        let mut seen = Seen::new(declared.len());
        let mut hint = 0;
        for (key, value) in members {
            let ok = match declared.find_from(key.as_bytes(), hint) {
                Some(i) => {
                    hint = i + 1;
                    seen.set(i);
                    match declared.plain[i] {
                        Some(plain) => plain.test(value),
                        None => self.check(declared.list[i].node, value, depth),
                    }
                }
                None => !closed && self.within_depth(value, depth),
            };
            if !ok {
                return false;
            }
        }
        declared.all_required(&seen)
    }

    fn key(&self, keys: NodeId, key: &str) -> bool {
        checks::quick_key(self.program, keys, key)
            .unwrap_or_else(|| self.check(keys, &Value::String(key.to_owned()), 0))
    }

    fn within_depth(&self, v: &Value, depth: usize) -> bool {
        match v {
            Value::Array(items) => {
                depth < self.limit && items.iter().all(|item| self.within_depth(item, depth + 1))
            }
            Value::Object(members) => {
                depth < self.limit
                    && members.values().all(|item| self.within_depth(item, depth + 1))
            }
            _ => true,
        }
    }
}
