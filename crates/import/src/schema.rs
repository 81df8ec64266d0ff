//! JSON Schema (drafts 2020-12 and 07) to type nodes.
//!
//! One [`Converter`] walks a source document: named schemas (OpenRPC's `components/schemas`, a
//! schema's `$defs`) become named types, `$ref`s to them become `ref` nodes, `$ref`s to any
//! other JSON Pointer are followed and inlined (a pointer reached again while it is being
//! inlined becomes a named type of its own, so recursion stays finite). Every construct the
//! format cannot hold exactly is a [`Loss`] with its pointer in the source.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::merge;
use accord_schema_model::{
    ArrayType, Deprecated, Field, Kind, MapType, NumberRules, ObjectType, RefType, Refinement,
    StringRules, TupleType, TypeKind, TypeNode,
};

use crate::node::{self, any, array_of, enum_of, never, of, union, values_node};
use crate::report::{Accepts, Loss};
use crate::{Draft, Error};

/// Where a named type lands: its namespace and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct TypeName {
    pub(crate) ns: String,
    pub(crate) name: String,
}

/// The converter of one source document.
pub(crate) struct Converter<'s> {
    root: &'s Value,
    draft: Draft,
    /// Pointer (unescaped JSON Pointer text, `/components/schemas/X`) → named type.
    names: IndexMap<String, TypeName>,
    by_name: HashMap<TypeName, String>,
    /// Converted named types, by pointer.
    done: HashMap<String, TypeNode>,
    /// Named types being converted (a merge that reaches one cannot see it yet).
    busy: HashSet<String>,
    /// Deep pointers being inlined, innermost last.
    inlining: Vec<String>,
    losses: Vec<Loss>,
    /// The namespace the node being built stands in (refs to other namespaces name theirs).
    ns: String,
    /// Named types a merge inlined (see `merged_away`).
    merged: HashSet<TypeName>,
    /// The source is accord's own export (OpenRPC with `x-accord-document`): its `integer`,
    /// `const` and `enum` mean what the format's do, so they are exact there.
    own_export: bool,
    /// The first of accord's own members (`x-accord-…`) the model's reader refused: the import
    /// stops with it rather than write a node it cannot read.
    refused: Option<Error>,
}

impl<'s> Converter<'s> {
    pub(crate) fn new(root: &'s Value, draft: Draft) -> Converter<'s> {
        Converter {
            root,
            draft,
            names: IndexMap::new(),
            by_name: HashMap::new(),
            done: HashMap::new(),
            busy: HashSet::new(),
            inlining: Vec::new(),
            losses: Vec::new(),
            ns: String::new(),
            own_export: false,
            merged: HashSet::new(),
            refused: None,
        }
    }

    /// Reads the source as accord's own export (see `own_export`).
    pub(crate) fn own_export(&mut self) {
        self.own_export = true;
    }

    /// Makes the schema at `pointer` the named type `ns.name`.
    pub(crate) fn register(&mut self, pointer: &str, ns: &str, name: &str) {
        let type_name = TypeName { ns: ns.to_owned(), name: name.to_owned() };
        self.by_name.insert(type_name.clone(), pointer.to_owned());
        self.names.insert(pointer.to_owned(), type_name);
    }

    /// Notes that the named type `r` names was inlined by a merge (`allOf`, `$ref` beside
    /// assertions): if nothing else refers to it, it is left out rather than left an orphan.
    pub(crate) fn merged_away(&mut self, r: &RefType) {
        let ns = r.namespace.clone().unwrap_or_else(|| self.ns.clone());
        self.merged.insert(TypeName { ns, name: r.name.clone() });
    }

    /// The named types merges inlined.
    pub(crate) fn merged(&self) -> &HashSet<TypeName> {
        &self.merged
    }

    /// Where in the source the named type `ns.name` stands.
    pub(crate) fn source_pointer(&self, ns: &str, name: &str) -> Option<String> {
        self.by_name.get(&TypeName { ns: ns.to_owned(), name: name.to_owned() }).cloned()
    }

    /// Whether `ns.name` is taken.
    fn taken(&self, ns: &str, name: &str) -> bool {
        self.by_name.contains_key(&TypeName { ns: ns.to_owned(), name: name.to_owned() })
    }

    /// Converts the schema `s` found at `at`, for a node standing in namespace `ns`.
    pub(crate) fn convert(&mut self, s: &Value, at: &str, ns: &str) -> TypeNode {
        let outer = std::mem::replace(&mut self.ns, ns.to_owned());
        let out = self.schema(s, at);
        self.ns = outer;
        out
    }

    /// Every named type, converted, in the order registered (types made for recursive deep
    /// pointers last).
    pub(crate) fn named_types(&mut self) -> Result<Vec<(TypeName, TypeNode)>, Error> {
        let mut i = 0;
        while i < self.names.len() {
            let pointer = self.names.get_index(i).map(|(p, _)| p.clone()).unwrap_or_default();
            self.named(&pointer)?;
            i += 1;
        }
        Ok(self
            .names
            .iter()
            .map(|(p, n)| (n.clone(), self.done.get(p).cloned().unwrap_or_else(any)))
            .collect())
    }

    /// The source document.
    pub(crate) fn source(&self) -> &'s Value {
        self.root
    }

    /// Adds losses found outside the converter (bundling, OpenRPC objects).
    pub(crate) fn add_losses(&mut self, losses: Vec<Loss>) {
        self.losses.extend(losses);
    }

    /// The first member of accord's own export the model's reader refused, if any: the import
    /// stops there.
    pub(crate) fn refusal(&mut self) -> Result<(), Error> {
        match self.refused.take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// The losses found so far.
    pub(crate) fn take_losses(&mut self) -> Vec<Loss> {
        std::mem::take(&mut self.losses)
    }

    /// The named type at `pointer`, converted once.
    fn named(&mut self, pointer: &str) -> Result<Option<TypeNode>, Error> {
        if let Some(done) = self.done.get(pointer) {
            return Ok(Some(done.clone()));
        }
        if self.busy.contains(pointer) {
            return Ok(None);
        }
        let Some(type_name) = self.names.get(pointer).cloned() else { return Ok(None) };
        let schema = self.at(pointer).ok_or_else(|| Error::Reference {
            reference: format!("#{pointer}"),
            why: "nothing is there".to_owned(),
            pointer: pointer.to_owned(),
        })?;
        self.busy.insert(pointer.to_owned());
        let inlining = std::mem::take(&mut self.inlining);
        let node = self.convert(schema, pointer, &type_name.ns);
        self.inlining = inlining;
        self.busy.remove(pointer);
        self.done.insert(pointer.to_owned(), node.clone());
        Ok(Some(node))
    }

    /// The named node a `ref` node names, converted, for a merge that must see inside it.
    pub(crate) fn resolve_ref(&mut self, r: &RefType) -> Option<TypeNode> {
        let ns = r.namespace.clone().unwrap_or_else(|| self.ns.clone());
        let pointer = self.by_name.get(&TypeName { ns, name: r.name.clone() })?.clone();
        self.named(&pointer).ok().flatten()
    }

    fn at(&self, pointer: &str) -> Option<&'s Value> {
        self.root.pointer(pointer)
    }

    pub(crate) fn loss(&mut self, at: &str, kind: &'static str, accepts: Accepts, detail: String) {
        self.losses.push(Loss { pointer: at.to_owned(), kind, accepts, detail });
    }

    /// A `ref` node to `name`, naming its namespace when it is not the one the node stands in.
    fn ref_node(&self, name: &TypeName) -> TypeNode {
        let namespace = (name.ns != self.ns).then(|| name.ns.clone());
        of(TypeKind::Ref(RefType { name: name.name.clone(), namespace }))
    }

    /// What a `$ref` stands for: a `ref` node to a named type, or the inlined target.
    fn reference(&mut self, r: &Value, at: &str) -> TypeNode {
        let Some(text) = r.as_str() else {
            self.loss(
                at,
                "bad-ref",
                Accepts::Wider,
                "`$ref` is not a string; any value is accepted".into(),
            );
            return any();
        };
        let Some(pointer) = fragment_pointer(text) else {
            let detail = format!("`{text}` is not a local JSON Pointer; any value is accepted");
            self.loss(at, "external-ref", Accepts::Wider, detail);
            return any();
        };
        if let Some(name) = self.names.get(&pointer) {
            return self.ref_node(&name.clone());
        }
        let Some(target) = self.at(&pointer) else {
            let detail = format!("`{text}` points at nothing; any value is accepted");
            self.loss(at, "dangling-ref", Accepts::Wider, detail);
            return any();
        };
        if self.inlining.contains(&pointer) {
            // Recursion through a deep pointer: the target becomes a named type of its own.
            let name = self.fresh_name(&pointer);
            let type_name = TypeName { ns: self.ns.clone(), name };
            self.register(&pointer, &type_name.ns.clone(), &type_name.name.clone());
            return self.ref_node(&type_name);
        }
        self.schema(target, &pointer)
    }

    /// A type name for a recursive deep pointer: its last segments, made unique.
    fn fresh_name(&self, pointer: &str) -> String {
        let base: String = pointer
            .rsplit('/')
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .filter(|s| !matches!(s.as_str(), "properties" | "items" | "schemas" | "$defs"))
            .collect::<Vec<_>>()
            .join("_");
        let base = if base.is_empty() { "Type".to_owned() } else { base };
        let mut name = base.clone();
        let mut n = 2;
        while self.taken(&self.ns, &name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    /// Any schema value: `true`, `false` or an object.
    fn schema(&mut self, s: &Value, at: &str) -> TypeNode {
        // Every schema being converted is on the path, so a `$ref` back into it is recursion.
        self.inlining.push(at.to_owned());
        let out = self.schema_inner(s, at);
        self.inlining.pop();
        out
    }

    fn schema_inner(&mut self, s: &Value, at: &str) -> TypeNode {
        match s {
            Value::Bool(true) => any(),
            Value::Bool(false) => never(),
            Value::Object(m) => self.object(m, at),
            _ => {
                self.loss(
                    at,
                    "not-a-schema",
                    Accepts::Wider,
                    "not a JSON Schema; any value is accepted".into(),
                );
                any()
            }
        }
    }

    /// A schema object.
    fn object(&mut self, m: &Map<String, Value>, at: &str) -> TypeNode {
        self.unknown_keywords(m, at);
        let mut m = m.clone();
        if self.draft == Draft::Draft2020 {
            settle_unevaluated(&mut m);
        }
        self.settled(m, at)
    }

    /// A schema object with its `unevaluated*` settled (a part of it, beside `$ref` or
    /// `allOf`, is converted here again without settling: its applicators are beside it).
    fn settled(&mut self, m: Map<String, Value>, at: &str) -> TypeNode {
        let mut m = m;
        // accord's own export of the `hex` format: the format, not its pattern (lossless form).
        if m.get("x-accord-format").and_then(Value::as_str) == Some("hex")
            && m.get("allOf") == Some(&json!([{"pattern": HEX_PATTERN}]))
        {
            m.remove("allOf");
        }
        if let Some(r) = m.remove("$ref") {
            let target = self.reference(&r, &format!("{at}/$ref"));
            let (assertions, annotations) = split_annotations(&m);
            let mut out = if assertions.is_empty() || self.draft == Draft::Draft07 {
                // Draft 07 ignores every keyword beside `$ref`.
                target
            } else {
                let rest = self.settled(assertions, at);
                merge::merge(self, target, rest, at)
            };
            self.annotate(&mut out, &annotations, at);
            return out;
        }
        if let Some(all) = m.remove("allOf") {
            let Some(arms) = all.as_array() else {
                self.loss(
                    at,
                    "not-a-schema",
                    Accepts::Wider,
                    "`allOf` is not an array; it is ignored".into(),
                );
                return self.settled(m, at);
            };
            let (assertions, annotations) = split_annotations(&m);
            let mut acc = if assertions.is_empty() { any() } else { self.settled(assertions, at) };
            for (i, arm) in arms.iter().enumerate() {
                let part = self.schema(arm, &format!("{at}/allOf/{i}"));
                acc = merge::merge(self, acc, part, &format!("{at}/allOf"));
            }
            self.annotate(&mut acc, &annotations, at);
            return acc;
        }
        let mut out = self.base(&m, at);
        let (_, annotations) = split_annotations(&m);
        self.annotate(&mut out, &annotations, at);
        self.unsupported(&m, at);
        out
    }

    /// A schema without `$ref` and `allOf`: its values, combinators and types.
    fn base(&mut self, m: &Map<String, Value>, at: &str) -> TypeNode {
        let types = self.types(m, at);
        // `const` and `enum` list the values; types and refinements can only narrow them.
        let mut listed: Option<Vec<Value>> = m.get("enum").and_then(Value::as_array).cloned();
        if let Some(c) = m.get("const") {
            listed = Some(match listed {
                Some(values) => values.into_iter().filter(|v| v == c).collect(),
                None => vec![c.clone()],
            });
        }
        if let Some(mut values) = listed {
            if let Some(types) = &types {
                values.retain(|v| types.iter().any(|t| admits_type(t, v)));
            }
            let refined = m.keys().filter(|k| *k != "type" && is_refinement(k)).count();
            if refined > 0 {
                let detail = "the listed values are kept; the refinements beside them are not checked against them".into();
                self.loss(at, "enum-refined", Accepts::Wider, detail);
            }
            for key in ["anyOf", "oneOf"] {
                if m.contains_key(key) {
                    let detail = format!(
                        "`{key}` beside `enum`/`const` is not checked against the listed values"
                    );
                    self.loss(&format!("{at}/{key}"), "enum-refined", Accepts::Wider, detail);
                }
            }
            if !self.own_export {
                // JSON Schema compares numbers by value (`1` equals `1.0`), the format by value
                // and kind: a whole number is listed in both kinds, which is exact.
                let mut twins = Vec::new();
                let mut inexact = false;
                for v in &values {
                    match v {
                        Value::Number(_) if has_whole_number(v) => match number_twin(v) {
                            Some(t) if !values.contains(&t) => twins.push(t),
                            Some(_) => {}
                            None => inexact = true,
                        },
                        Value::Array(_) | Value::Object(_) if has_whole_number(v) => inexact = true,
                        _ => {}
                    }
                }
                values.extend(twins);
                if inexact {
                    let key = if m.contains_key("const") { "const" } else { "enum" };
                    let detail = "JSON Schema compares numbers by value (`1` equals `1.0`), inside arrays and objects too; the contract's listed value admits only the kind written there".into();
                    self.loss(&format!("{at}/{key}"), "number-equality", Accepts::Narrower, detail);
                }
            }
            if values.is_empty() {
                return never();
            }
            // `enum` is the format's enum even for one value; `const` is a literal.
            let enumerable = |v: &Value| v.is_string() || v.is_i64() || v.is_u64();
            if m.contains_key("enum") && values.iter().all(enumerable) {
                return enum_of(values);
            }
            return values_node(values);
        }
        let combinator = ["oneOf", "anyOf"].into_iter().find(|k| m.contains_key(*k));
        let has_type_part = types.is_some() || m.keys().any(|k| is_refinement(k));
        let typed = if has_type_part || combinator.is_none() {
            Some(self.typed(m, types, at))
        } else {
            None
        };
        let mut out = typed.unwrap_or_else(any);
        for key in ["anyOf", "oneOf"] {
            let Some(arms) = m.get(key) else { continue };
            let Some(arms) = arms.as_array() else {
                self.loss(
                    at,
                    "not-a-schema",
                    Accepts::Wider,
                    format!("`{key}` is not an array; it is ignored"),
                );
                continue;
            };
            let nodes: Vec<TypeNode> = arms
                .iter()
                .enumerate()
                .map(|(i, arm)| self.schema(arm, &format!("{at}/{key}/{i}")))
                .collect();
            if key == "oneOf" {
                self.check_exclusive(&nodes, &format!("{at}/oneOf"));
            }
            let arms = union(nodes);
            let arms = if node::is_never(&arms) { never() } else { arms };
            out = merge::merge(self, out, arms, &format!("{at}/{key}"));
        }
        out
    }

    /// The `type` member: a name or a list of names.
    fn types(&mut self, m: &Map<String, Value>, at: &str) -> Option<Vec<String>> {
        match m.get("type")? {
            Value::String(t) => Some(vec![t.clone()]),
            Value::Array(ts) => {
                Some(ts.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            }
            _ => {
                self.loss(
                    at,
                    "not-a-schema",
                    Accepts::Wider,
                    "`type` is neither a name nor a list; it is ignored".into(),
                );
                None
            }
        }
    }

    /// The node of the types listed (or, without `type`, of the types the keywords imply).
    fn typed(&mut self, m: &Map<String, Value>, types: Option<Vec<String>>, at: &str) -> TypeNode {
        let types = match types {
            Some(t) => t,
            None => {
                let implied: Vec<String> = IMPLIED
                    .into_iter()
                    .filter(|(_, kinds, extra)| m.keys().any(|k| implies(k, kinds, extra)))
                    .map(|(t, ..)| t.to_owned())
                    .collect();
                if implied.is_empty() {
                    return any();
                }
                // Keywords of one JSON type say nothing about values of the others, which a
                // schema without `type` admits as they are: the exact node is the refined arms
                // beside a plain arm of every other type.
                let mut arms: Vec<TypeNode> =
                    implied.iter().map(|t| self.one_type(m, t, at)).collect();
                for plain in ["null", "boolean", "number", "string", "array", "object"] {
                    if !implied.iter().any(|t| t == plain) {
                        arms.push(match plain {
                            "null" => of(TypeKind::Null),
                            "boolean" => of(TypeKind::Boolean),
                            "number" => of(TypeKind::Number(NumberRules::default())),
                            "string" => of(TypeKind::String(StringRules::default())),
                            "array" => array_of(any()),
                            _ => of(TypeKind::Object(ObjectType::default())),
                        });
                    }
                }
                return union(arms);
            }
        };
        let arms: Vec<TypeNode> = types.iter().map(|t| self.one_type(m, t, at)).collect();
        union(arms)
    }

    fn one_type(&mut self, m: &Map<String, Value>, t: &str, at: &str) -> TypeNode {
        match t {
            "null" => of(TypeKind::Null),
            "boolean" => of(TypeKind::Boolean),
            "integer" | "number" => self.number(m, t, at),
            "string" => self.string(m, at),
            "array" => self.array(m, at),
            "object" => self.object_type(m, at),
            other => {
                let detail =
                    format!("`type` `{other}` is not a JSON Schema type; it admits nothing");
                self.loss(at, "not-a-schema", Accepts::Narrower, detail);
                never()
            }
        }
    }

    fn number(&mut self, m: &Map<String, Value>, t: &str, at: &str) -> TypeNode {
        if t == "integer" && !self.own_export {
            let detail = "JSON Schema's `integer` admits whole-valued floats such as `1.0`; the contract's refuses them (format.md §10.2)".into();
            self.loss(&format!("{at}/type"), "integer-float", Accepts::Narrower, detail);
        }
        let num = |r: Refinement| match m.get(keyword(r)) {
            Some(Value::Number(n)) => Some(n.clone()),
            _ => None,
        };
        // Draft 04's boolean exclusive bounds make `minimum`/`maximum` exclusive.
        let flag = |r: Refinement| m.get(keyword(r)) == Some(&json!(true));
        let (min, exclusive_min) = if flag(Refinement::ExclusiveMin) {
            (None, num(Refinement::Min))
        } else {
            (num(Refinement::Min), num(Refinement::ExclusiveMin))
        };
        let (max, exclusive_max) = if flag(Refinement::ExclusiveMax) {
            (None, num(Refinement::Max))
        } else {
            (num(Refinement::Max), num(Refinement::ExclusiveMax))
        };
        let multiple_of = num(Refinement::MultipleOf);
        if multiple_of.as_ref().is_some_and(|step| step.as_f64().is_none_or(|f| f <= 0.0)) {
            self.loss(
                at,
                "not-a-schema",
                Accepts::Wider,
                "`multipleOf` is not above 0; it is ignored".into(),
            );
        }
        // Every refinement is named, so a new one does not compile until it is imported.
        let rules = NumberRules {
            min,
            max,
            exclusive_min,
            exclusive_max,
            multiple_of: multiple_of.filter(|step| step.as_f64().is_some_and(|f| f > 0.0)),
            unit: m.get("x-accord-unit").and_then(Value::as_str).map(str::to_owned),
            #[cfg(feature = "dummy-refinement-handled")]
            dummy: None,
        };
        of(if t == "integer" { TypeKind::Integer(rules) } else { TypeKind::Number(rules) })
    }

    fn string(&mut self, m: &Map<String, Value>, at: &str) -> TypeNode {
        let mut count = |r: Refinement| {
            let from = keyword(r);
            let v = m.get(from)?;
            let n = count_value(v);
            if n.is_none() {
                let detail = format!("`{from}` is not a whole number; it is ignored");
                self.loss(at, "not-a-schema", Accepts::Wider, detail);
            }
            n
        };
        let (min_length, max_length) = (count(Refinement::MinLength), count(Refinement::MaxLength));
        let pattern = match m.get(keyword(Refinement::Pattern)).map(Value::as_str) {
            Some(Some(text)) if regex::Regex::new(text).is_ok() => {
                if let Some((accepts, what)) = dialect_difference(text) {
                    let detail = format!("pattern `{text}`: {what}");
                    self.loss(&format!("{at}/pattern"), "pattern-dialect", accepts, detail);
                }
                Some(text.to_owned())
            }
            Some(Some(text)) => {
                let detail = format!(
                    "pattern `{text}` does not compile in the format's regex dialect; any text is accepted"
                );
                self.loss(&format!("{at}/pattern"), "pattern-dialect", Accepts::Wider, detail);
                None
            }
            Some(None) => {
                let detail = "`pattern` is not a string; it is ignored".into();
                self.loss(at, "not-a-schema", Accepts::Wider, detail);
                None
            }
            None => None,
        };
        let format = m.get("x-accord-format").or_else(|| m.get(keyword(Refinement::Format)));
        let format = format.and_then(Value::as_str).map(str::to_owned);
        if let Some(f) = &format
            && !self.own_export
            && m.get("x-accord-format").is_none()
            && accord_validate::Format::from_name(f).is_some()
        {
            let detail =
                format!("`format` `{f}` is an annotation in JSON Schema; the contract checks it");
            self.loss(&format!("{at}/format"), "format-checked", Accepts::Narrower, detail);
        }
        // Every refinement is named, so a new one does not compile until it is imported.
        let rules = StringRules { min_length, max_length, pattern, format };
        of(TypeKind::String(rules))
    }

    fn array(&mut self, m: &Map<String, Value>, at: &str) -> TypeNode {
        let count = |k: &str| m.get(k).and_then(count_value);
        // 2020-12: `prefixItems` + `items`; draft 07: `items` as an array + `additionalItems`.
        let (prefix, rest, prefix_key, rest_key) = match (m.get("prefixItems"), m.get("items")) {
            (Some(Value::Array(p)), rest) => (Some(p), rest, "prefixItems", "items"),
            (_, Some(Value::Array(p))) => {
                (Some(p), m.get("additionalItems"), "items", "additionalItems")
            }
            _ => (None, m.get("items"), "", "items"),
        };
        if m.get("x-accord-kind").and_then(Value::as_str) == Some("tuple") && prefix.is_none() {
            return of(TypeKind::Tuple(TupleType { elements: Vec::new() }));
        }
        let Some(prefix) = prefix else {
            let items = match rest {
                Some(items) => self.schema(items, &format!("{at}/items")),
                None => any(),
            };
            let unique_items = m.get(keyword(Refinement::UniqueItems)).and_then(Value::as_bool);
            if unique_items == Some(true) && !self.own_export && !self.numberless(&items) {
                let detail = "JSON Schema compares items' numbers by value (`1` equals `1.0`); the contract counts `1` and `1.0` as different items".into();
                self.loss(&format!("{at}/uniqueItems"), "number-equality", Accepts::Wider, detail);
            }
            // Every refinement is named, so a new one does not compile until it is imported.
            return of(TypeKind::Array(ArrayType {
                items: Box::new(items),
                min_items: count(keyword(Refinement::MinItems)),
                max_items: count(keyword(Refinement::MaxItems)),
                unique_items,
                #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: None,
            }));
        };
        let elements: Vec<TypeNode> = prefix
            .iter()
            .enumerate()
            .map(|(i, e)| self.schema(e, &format!("{at}/{prefix_key}/{i}")))
            .collect();
        if rest != Some(&Value::Bool(false)) {
            let detail =
                "items past the fixed positions are refused: a tuple has exactly its elements"
                    .into();
            self.loss(&format!("{at}/{rest_key}"), "open-tuple", Accepts::Narrower, detail);
        }
        if m.get("uniqueItems") == Some(&json!(true)) {
            self.loss(
                &format!("{at}/uniqueItems"),
                "keyword-ignored",
                Accepts::Wider,
                "`uniqueItems` on a tuple is not checked".into(),
            );
        }
        let n = elements.len() as u64;
        let least = count("minItems").unwrap_or(0).min(n);
        let most = count("maxItems").unwrap_or(n).min(n);
        if least > most {
            return never();
        }
        let tuples: Vec<TypeNode> = (least..=most)
            .rev()
            .map(|len| {
                let elements = elements[..len as usize].to_vec();
                of(TypeKind::Tuple(TupleType { elements }))
            })
            .collect();
        union(tuples)
    }

    fn object_type(&mut self, m: &Map<String, Value>, at: &str) -> TypeNode {
        let properties = m.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let additional = m.get("additionalProperties");
        let patterns = m.get("patternProperties").and_then(Value::as_object);
        // A map: no named members, one schema for every member.
        if properties.is_none() && required.is_empty() {
            let values = match (patterns, additional) {
                (Some(p), Some(Value::Bool(false))) if p.len() == 1 => {
                    let (pattern, schema) =
                        p.iter().next().map(|(k, v)| (k.clone(), v)).unwrap_or_default();
                    let pointer = format!("{at}/patternProperties/{}", escape(&pattern));
                    let values = self.schema(schema, &pointer);
                    let keys = StringRules { pattern: Some(pattern), ..StringRules::default() };
                    Some((values, Some(of(TypeKind::String(keys)))))
                }
                (None, Some(schema @ Value::Object(_))) => {
                    let values = self.schema(schema, &format!("{at}/additionalProperties"));
                    // Member names are strings: the other arms of an untyped schema meet none.
                    let keys = m.get("propertyNames").map(|k| {
                        let keys = self.schema(k, &format!("{at}/propertyNames"));
                        let strings = of(TypeKind::String(StringRules::default()));
                        merge::merge(self, strings, keys, at)
                    });
                    Some((values, keys))
                }
                _ => None,
            };
            if let Some((values, keys)) = values {
                // Every refinement is named, so a new one does not compile until it is imported.
                return of(TypeKind::Map(MapType {
                    keys: keys.map(Box::new),
                    values: Box::new(values),
                }));
            }
        }
        if patterns.is_some() {
            let detail = if additional == Some(&Value::Bool(false)) {
                "`patternProperties` beside named members: the matching members are refused"
            } else {
                "`patternProperties` is not checked: matching members are accepted whatever their value"
            };
            let accepts = if additional == Some(&Value::Bool(false)) {
                Accepts::Narrower
            } else {
                Accepts::Wider
            };
            self.loss(
                &format!("{at}/patternProperties"),
                "pattern-properties",
                accepts,
                detail.into(),
            );
        }
        if m.contains_key("propertyNames") {
            let detail = "`propertyNames` is not checked on an object with named members".into();
            self.loss(&format!("{at}/propertyNames"), "keyword-ignored", Accepts::Wider, detail);
        }
        let mut fields = IndexMap::new();
        for (name, schema) in properties.into_iter().flatten() {
            let pointer = format!("{at}/properties/{}", escape(name));
            let ty = self.schema(schema, &pointer);
            let field = match schema.get("x-accord-field").and_then(Value::as_object) {
                // accord's own export says the field's members exactly.
                Some(exact) => self.own_field(ty, exact, &format!("{pointer}/x-accord-field")),
                None => {
                    let mut field = Field::new(ty);
                    if !required.contains(&name.as_str()) {
                        field.optional = Some(true);
                    }
                    field
                }
            };
            fields.insert(name.clone(), field);
        }
        for name in &required {
            if !fields.contains_key(*name) {
                fields.insert((*name).to_owned(), Field::new(any()));
            }
        }
        let fields = (properties.is_some() || !fields.is_empty()).then_some(fields);
        let mut closed = None;
        match additional {
            Some(Value::Bool(false)) => closed = Some(true),
            Some(Value::Object(s)) if !s.is_empty() => {
                let detail = "`additionalProperties` beside named members is not checked: other members are accepted whatever their value".into();
                self.loss(
                    &format!("{at}/additionalProperties"),
                    "additional-properties",
                    Accepts::Wider,
                    detail,
                );
            }
            _ => {}
        }
        // Every refinement is named, so a new one does not compile until it is imported.
        let node = of(TypeKind::Object(ObjectType { fields, closed, reserved: None }));
        match m.get("x-accord-closed") {
            Some(exact) => {
                let members = Map::from_iter([("closed".to_owned(), exact.clone())]);
                self.own_members(node, members, &format!("{at}/x-accord-closed"))
            }
            None => node,
        }
    }

    /// A field as accord's own export says it (`x-accord-field`: its members but the type), read
    /// by the model's reader; one it refuses stops the import (see `refusal`).
    fn own_field(&mut self, ty: TypeNode, exact: &Map<String, Value>, at: &str) -> Field {
        let mut members = exact.clone();
        members.insert("type".to_owned(), ty.to_value());
        match Field::from_value(Value::Object(members)) {
            Ok(field) => field,
            Err(err) => {
                self.refuse(at, &err);
                Field::new(ty)
            }
        }
    }

    /// `node` with `members` (the format's names, from accord's own export) set on it by the
    /// model's reader, which refuses a member of the wrong type as it would in a document; a
    /// refusal stops the import (see `refusal`) and leaves the node as it was.
    fn own_members(&mut self, node: TypeNode, members: Map<String, Value>, at: &str) -> TypeNode {
        if members.is_empty() {
            return node;
        }
        let mut written = node.to_value();
        if let Some(n) = written.as_object_mut() {
            n.extend(members);
        }
        match TypeNode::from_value(written) {
            Ok(read) => read,
            Err(err) => {
                self.refuse(at, &err);
                node
            }
        }
    }

    /// Keeps the first refusal of the model's reader (see `refusal`).
    fn refuse(&mut self, at: &str, err: &accord_schema_model::Error) {
        if self.refused.is_none() {
            let what = format!(
                "a member of accord's own export is refused: {} (member {})",
                err.kind, err.pointer
            );
            self.refused = Some(Error::at(what, at));
        }
    }

    /// Keywords the format has no place for, each a loss: one owner for every keyword the
    /// conversion does not hold, whatever path (typed, untyped, beside `$ref`) led here.
    fn unsupported(&mut self, m: &Map<String, Value>, at: &str) {
        for (k, _) in m {
            let Some((accepts, what)) = not_held(k) else { continue };
            self.loss(&format!("{at}/{k}"), keyword_kind(k), accepts, what.into());
        }
    }

    /// Members of a schema object that are no JSON Schema keyword (of drafts 2020-12 and 07)
    /// and no `x-` extension: a loss each, since a vocabulary the import does not know may
    /// assert with it. Kept on the node as unknown members (annotate).
    fn unknown_keywords(&mut self, m: &Map<String, Value>, at: &str) {
        for k in m.keys() {
            if !k.starts_with("x-") && !is_keyword(k) {
                let detail = format!(
                    "`{k}` is not a JSON Schema keyword the import knows; it is not checked"
                );
                self.loss(
                    &format!("{at}/{}", escape(k)),
                    "unknown-keyword",
                    Accepts::Wider,
                    detail,
                );
            }
        }
    }

    /// Whether the arms of a `oneOf` can be shown to admit no value in common; else a loss,
    /// since a union admits a value several arms match.
    fn check_exclusive(&mut self, arms: &[TypeNode], at: &str) {
        let resolved: Vec<Option<TypeNode>> = arms.iter().map(|a| self.deref(a)).collect();
        for i in 0..arms.len() {
            for j in i + 1..arms.len() {
                let disjoint = match (&resolved[i], &resolved[j]) {
                    (Some(a), Some(b)) => self.disjoint(a, b),
                    _ => false,
                };
                if !disjoint {
                    let detail = format!(
                        "`oneOf` arms {i} and {j} may both match a value; the contract accepts a value that matches several arms"
                    );
                    self.loss(at, "one-of-overlap", Accepts::Wider, detail);
                    return;
                }
            }
        }
    }

    /// Whether no value `node` admits holds a number (strings, booleans, null, string enums):
    /// where JSON Schema's equality by value and the format's agree.
    fn numberless(&mut self, node: &TypeNode) -> bool {
        let Some(node) = self.deref(node) else { return false };
        match &node.kind {
            TypeKind::String(_) | TypeKind::Boolean | TypeKind::Null => true,
            TypeKind::Enum(_) | TypeKind::Literal { .. } => node::listed_values(&node)
                .is_some_and(|v| v.iter().all(|v| !has_whole_number(v) && !v.is_number())),
            TypeKind::Union(u) => u.variants.iter().all(|v| self.numberless(v)),
            _ => false,
        }
    }

    /// A node with its refs followed (one level), for comparing arms.
    pub(crate) fn deref(&mut self, n: &TypeNode) -> Option<TypeNode> {
        let mut n = n.clone();
        for _ in 0..16 {
            let TypeKind::Ref(r) = &n.kind else { return Some(n) };
            n = self.resolve_ref(r)?;
        }
        None
    }

    /// Whether two nodes are shown to admit no value in common.
    fn disjoint(&mut self, a: &TypeNode, b: &TypeNode) -> bool {
        if node::is_never(a) || node::is_never(b) {
            return true;
        }
        for (u, other) in [(a, b), (b, a)] {
            if let TypeKind::Union(u) = &u.kind {
                return u.variants.iter().all(|arm| match self.deref(arm) {
                    Some(arm) => self.disjoint(&arm, other),
                    None => false,
                });
            }
        }
        if let (Some(ca), Some(cb)) = (node::class_of(a), node::class_of(b))
            && ca != cb
        {
            return true;
        }
        if let (Some(va), Some(vb)) = (node::listed_values(a), node::listed_values(b)) {
            return va.iter().all(|v| !vb.contains(v));
        }
        // Listed strings against a pattern none of them matches.
        for (listed, other) in [(a, b), (b, a)] {
            if let (Some(values), TypeKind::String(StringRules { pattern: Some(pattern), .. })) =
                (node::listed_values(listed), &other.kind)
                && let Ok(re) = regex::Regex::new(pattern)
            {
                return values.iter().all(|v| v.as_str().is_some_and(|s| !re.is_match(s)));
            }
        }
        // Objects that require one member with disjoint types.
        if let (TypeKind::Object(oa), TypeKind::Object(ob)) = (&a.kind, &b.kind) {
            let (Some(fa), Some(fb)) = (&oa.fields, &ob.fields) else {
                return false;
            };
            for (name, field_a) in fa {
                let Some(field_b) = fb.get(name) else { continue };
                if field_a.optional != Some(true) && field_b.optional != Some(true) {
                    let (ta, tb) = (self.deref(&field_a.ty), self.deref(&field_b.ty));
                    if let (Some(ta), Some(tb)) = (ta, tb)
                        && self.disjoint(&ta, &tb)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Puts a schema's annotations on its node: description, default, examples, deprecated;
    /// `title`, `x-` extensions and other non-assertion keywords as unknown members; accord's
    /// own `x-accord-…` members (its export's lossless form) by the model's reader.
    fn annotate(&mut self, out: &mut TypeNode, annotations: &Map<String, Value>, at: &str) {
        let mut own = Map::new();
        for (k, v) in annotations {
            match (k.as_str(), v) {
                ("description", Value::String(d)) => out.description = Some(d.clone()),
                ("default", _) => out.default = Some(v.clone()),
                ("examples", Value::Array(examples)) => out.examples = Some(examples.clone()),
                ("deprecated", Value::Bool(true)) => {
                    out.deprecated.get_or_insert(Deprecated::Flag(true));
                }
                ("deprecated", Value::Bool(false)) => {}
                ("x-accord-deprecated", _) => {
                    own.insert("deprecated".to_owned(), v.clone());
                }
                ("x-accord-open", _) => {
                    own.insert("open".to_owned(), v.clone());
                }
                ("x-accord-reserved", _) => {
                    own.insert("reserved".to_owned(), v.clone());
                }
                ("x-accord-discriminator", _) => {
                    own.insert("discriminator".to_owned(), v.clone());
                }
                ("x-accord-namespace", _) => {
                    own.insert("namespace".to_owned(), v.clone());
                }
                ("x-accord-unknown", Value::Object(unknown)) => {
                    own.extend(unknown.iter().map(|(uk, uv)| (uk.clone(), uv.clone())));
                }
                ("x-accord-unknown", _) => {}
                (k, _) if k.starts_with("x-accord-") => {}
                // A member the format gives a place (a description that is not text, …): the
                // model's reader says what it makes of it.
                (k, _) if node::is_member_name(k) => {
                    own.insert(k.to_owned(), v.clone());
                }
                _ => {
                    out.unknown.insert(k.clone(), v.clone());
                }
            }
        }
        if !own.is_empty() {
            let node = std::mem::replace(out, any());
            *out = self.own_members(node, own, at);
        }
    }
}

/// The pattern validate's JSON Schema export writes for the `hex` format.
const HEX_PATTERN: &str = "^(0x)?[0-9a-fA-F]+$";

/// The JSON Schema keyword that holds `r` (the first the model's declaration names).
fn keyword(r: Refinement) -> &'static str {
    r.json_schema().first().copied().unwrap_or_default()
}

/// The JSON Schema keywords of the members of `kinds` (from the model's declaration).
fn keywords_of(kinds: &[Kind]) -> impl Iterator<Item = &'static str> + '_ {
    Refinement::ALL
        .iter()
        .filter(|r| r.kinds().iter().any(|k| kinds.contains(k)))
        .flat_map(|r| r.json_schema().iter().copied())
}

/// Whether `k` is a keyword of a type's refinements, which implies the type without `type`:
/// one of `kinds`' own, or `extra` (assertions the format does not hold, that still apply only
/// to values of that type).
fn implies(k: &str, kinds: &[Kind], extra: &[&str]) -> bool {
    extra.contains(&k) || keywords_of(kinds).any(|kw| kw == k)
}

/// The JSON types whose keywords imply them, each with its kinds and the keywords of that type
/// the format does not hold.
const IMPLIED: [(&str, &[Kind], &[&str]); 4] = [
    ("string", &[Kind::String], &[]),
    ("number", &[Kind::Number], &[]),
    ("array", &[Kind::Array, Kind::Tuple], &["contains"]),
    ("object", &[Kind::Object, Kind::Map], &["minProperties"]),
];

/// Keywords that refine a type: `type`, the keywords of the kinds' refinements, and
/// `contains` (reported, but a refinement of arrays).
fn is_refinement(k: &str) -> bool {
    const TYPED: [Kind; 7] = [
        Kind::Integer,
        Kind::Number,
        Kind::String,
        Kind::Array,
        Kind::Tuple,
        Kind::Object,
        Kind::Map,
    ];
    k == "type" || k == "contains" || keywords_of(&TYPED).any(|kw| kw == k)
}

/// Keywords that restrict values or structure the document (the rest are annotations): the
/// ones held and the ones reported.
fn is_structural(k: &str) -> bool {
    is_held(k) || not_held(k).is_some() || k == "else"
}

/// Members that only lay out the source (dropped: they say nothing about values).
const LAYOUT: [&str; 8] = [
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "$recursiveAnchor",
];

/// Members that carry accord's exact form in its own export, read where they apply.
const ACCORD_STRUCTURAL: [&str; 5] =
    ["x-accord-unit", "x-accord-format", "x-accord-kind", "x-accord-field", "x-accord-closed"];

/// Splits a schema's members into the ones that restrict values and the annotations.
fn split_annotations(m: &Map<String, Value>) -> (Map<String, Value>, Map<String, Value>) {
    let mut assertions = Map::new();
    let mut annotations = Map::new();
    for (k, v) in m {
        if is_structural(k) || ACCORD_STRUCTURAL.contains(&k.as_str()) {
            assertions.insert(k.clone(), v.clone());
        } else if !LAYOUT.contains(&k.as_str()) {
            annotations.insert(k.clone(), v.clone());
        }
    }
    (assertions, annotations)
}

/// Keywords that only annotate (JSON Schema 2020-12's meta-data and content vocabularies):
/// kept or dropped, never a loss.
const ANNOTATION_ONLY: [&str; 11] = [
    "title",
    "description",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Keywords the conversion holds (exactly, or with the loss it reports where it cannot): every
/// keyword of the model's declaration, `type`, `allOf`, and `then` (`then`/`else` do nothing
/// without `if`, and `if` is reported).
fn is_held(k: &str) -> bool {
    matches!(k, "type" | "allOf" | "then")
        || Refinement::ALL.iter().any(|r| r.json_schema().contains(&k))
}

/// Keywords of drafts 2020-12 and 07 the format cannot hold: what each loss says.
fn not_held(k: &str) -> Option<(Accepts, &'static str)> {
    Some(match k {
        "not" => (Accepts::Wider, "`not` is not checked: values it refuses are accepted"),
        "if" => {
            (Accepts::Wider, "`if`/`then`/`else` is not checked: values it refuses are accepted")
        }
        "$dynamicRef" => (Accepts::Wider, "`$dynamicRef` is not followed: any value is accepted"),
        "$recursiveRef" => {
            (Accepts::Wider, "`$recursiveRef` is not followed: any value is accepted")
        }
        "contains" | "minContains" | "maxContains" | "unevaluatedItems" => {
            (Accepts::Wider, "not checked: arrays it refuses are accepted")
        }
        "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "dependencies"
        | "unevaluatedProperties" => {
            (Accepts::Wider, "not checked: objects it refuses are accepted")
        }
        _ => return None,
    })
}

/// Whether `k` is a keyword of JSON Schema 2020-12 or 07 (or OpenRPC's schema members).
fn is_keyword(k: &str) -> bool {
    ANNOTATION_ONLY.contains(&k)
        || is_held(k)
        || LAYOUT.contains(&k)
        || not_held(k).is_some()
        || k == "else"
}

fn keyword_kind(k: &str) -> &'static str {
    match k {
        "not" => "not",
        "if" => "if-then-else",
        _ => "keyword-ignored",
    }
}

/// Whether `v` is or holds a number with a whole value (`1`, `1.0`): where JSON Schema's
/// equality by value (`1` = `1.0`) and the format's (`1` ≠ `1.0`) differ.
fn has_whole_number(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        Value::Array(items) => items.iter().any(has_whole_number),
        Value::Object(m) => m.values().any(has_whole_number),
        _ => false,
    }
}

/// Keywords that apply other schemas to the same value: what they evaluate counts for
/// `unevaluated*`, which the import cannot follow through them.
const IN_PLACE: [&str; 12] = [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
    "dependencies",
];

/// `unevaluatedProperties`/`unevaluatedItems` of a schema without in-place applicators see
/// only the schema's own `properties`/`patternProperties`/`additionalProperties` (`prefixItems`/
/// `items`/`contains`): with `additionalProperties` (`items`) beside, they see nothing left and
/// say nothing; else they say what `additionalProperties` (`items`) would, which is written in
/// their place. `true` says nothing anywhere. Other cases stay, and are reported.
fn settle_unevaluated(m: &mut Map<String, Value>) {
    if let Some(u) = m.get("unevaluatedProperties").cloned() {
        let local = !IN_PLACE.iter().any(|k| m.contains_key(*k));
        if u == Value::Bool(true) || (local && m.contains_key("additionalProperties")) {
            m.remove("unevaluatedProperties");
        } else if local && !m.contains_key("patternProperties") {
            m.remove("unevaluatedProperties");
            m.insert("additionalProperties".to_owned(), u);
        }
    }
    if let Some(u) = m.get("unevaluatedItems").cloned() {
        let local = !IN_PLACE.iter().any(|k| m.contains_key(*k));
        if u == Value::Bool(true) || (local && m.contains_key("items")) {
            m.remove("unevaluatedItems");
        } else if local && !m.contains_key("contains") {
            m.remove("unevaluatedItems");
            m.insert("items".to_owned(), u);
        }
    }
}

/// A whole number in the other kind (`1` → `1.0`, `-2.0` → `-2`), when both kinds hold it
/// exactly (within ±2^53).
fn number_twin(v: &Value) -> Option<Value> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if let Some(i) = v.as_i64().filter(|i| i.unsigned_abs() <= EXACT as u64) {
        #[allow(clippy::cast_precision_loss)] // within ±2^53: exact
        return serde_json::Number::from_f64(i as f64).map(Value::Number);
    }
    if v.is_u64() || v.is_i64() {
        return None;
    }
    let f = v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= EXACT)?;
    #[allow(clippy::cast_possible_truncation)] // whole and within ±2^53: exact
    Some(json!(f as i64))
}

/// A count (`minItems`, `maxLength`, …): a non-negative whole number, `2.0` included (JSON
/// Schema compares numbers by value).
pub(crate) fn count_value(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        let f = v.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked above
        Some(f as u64)
    })
}

/// Where a pattern that compiles in the format's dialect (Rust `regex`) may still match
/// differently from ECMA-262, JSON Schema's: Unicode-aware classes and `.` (which in ECMA-262
/// refuses `\r`, U+2028 and U+2029 as well as `\n`).
fn dialect_difference(pattern: &str) -> Option<(Accepts, &'static str)> {
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('d' | 'w') => {
                    return Some((
                        Accepts::Wider,
                        "`\\d`/`\\w` match Unicode digits and letters here, ASCII only in ECMA-262",
                    ));
                }
                Some('D' | 'W') => {
                    return Some((
                        Accepts::Narrower,
                        "`\\D`/`\\W` refuse Unicode digits and letters here, which ECMA-262 admits",
                    ));
                }
                Some('s') => {
                    return Some((
                        Accepts::Narrower,
                        "`\\s` does not match U+FEFF here, as ECMA-262's does",
                    ));
                }
                Some('S') => {
                    return Some((
                        Accepts::Wider,
                        "`\\S` matches U+FEFF here, which ECMA-262's refuses",
                    ));
                }
                Some('b' | 'B') if !in_class => {
                    return Some((
                        Accepts::Wider,
                        "`\\b`/`\\B` use Unicode word characters here, ASCII in ECMA-262",
                    ));
                }
                _ => {}
            },
            '[' => in_class = true,
            ']' => in_class = false,
            '.' if !in_class => {
                return Some((
                    Accepts::Wider,
                    "`.` matches `\\r`, U+2028 and U+2029 here; ECMA-262's refuses them",
                ));
            }
            _ => {}
        }
    }
    None
}

/// Whether `value` is of JSON Schema type `t`.
fn admits_type(t: &str, value: &Value) -> bool {
    match t {
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "number" => value.is_number(),
        other => node::value_class(value) == other,
    }
}

/// The JSON Pointer of a local reference (`#/components/schemas/X`), percent-decoded.
pub(crate) fn fragment_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !(fragment.is_empty() || fragment.starts_with('/')) {
        return None;
    }
    Some(percent_decode(fragment))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// A key as a JSON Pointer segment.
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Named types of `$defs` (and draft 07's `definitions`) at `pointer` of `root`, in order.
pub(crate) fn defs_of(root: &Value, pointer: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for key in ["$defs", "definitions"] {
        let at = format!("{pointer}/{key}");
        if let Some(defs) = root.pointer(&at).and_then(Value::as_object) {
            for name in defs.keys() {
                out.push((format!("{at}/{}", escape(name)), name.clone()));
            }
        }
    }
    out
}
