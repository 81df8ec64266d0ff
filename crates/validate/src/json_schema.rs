//! Export to JSON Schema 2020-12: the schema that admits what accord's validator admits.
//!
//! Named types become `$defs` entries (`namespace.Name`) referenced with `$ref`, so recursive
//! types stay recursive. Where the two languages differ, the export is as close as JSON Schema
//! allows, and the difference is documented in docs/format.md §10: an accord `integer` refuses
//! whole-valued floats (`1.0`) that JSON Schema's `"type": "integer"` admits, accord literals and
//! enums tell `1` from `1.0`, patterns are in the `regex` crate's dialect, and accord's depth limit
//! has no JSON Schema counterpart.

use crate::compile::{Reading, reads_by_direction};
use std::collections::BTreeSet;

use accord_schema_model::{
    ArrayType, Deprecated, Document, EnumType, MapType, Method, NumberRules, ObjectType,
    ParamStructure, RefType, StringRules, TupleType, TypeKind, TypeNode, UnionType,
};
use serde_json::{Map, Value, json};

use crate::{Error, Format, Target};

/// The JSON Schema dialect the export writes.
pub const JSON_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema of one target: its schema at the root, with `$defs` for every named type it
/// reaches.
///
/// # Errors
///
/// [`Error::NotFound`] for a target the contract does not have, [`Error::DanglingRef`] for a
/// ref to a type that does not exist.
pub fn json_schema(doc: &Document, target: &Target) -> Result<Value, Error> {
    // One target, one reading of presence: its `$defs` keep their plain names.
    let mut export = Export::new(doc, false);
    export.reading = match target {
        Target::Type { .. } => Reading::Plain,
        Target::Params { .. } => Reading::Input,
        _ => Reading::Output,
    };
    let root = match target {
        Target::Type { namespace, name } => {
            let node =
                named(doc, namespace, name).ok_or_else(|| not_found("type", namespace, name))?;
            export.node(namespace, node)?
        }
        Target::Params { namespace, method } => {
            let m = find_method(doc, namespace, method)?;
            export.params(namespace, m)?
        }
        Target::Result { namespace, method } => {
            let m = find_method(doc, namespace, method)?;
            export.node(namespace, &m.result)?
        }
        Target::Event { namespace, event } => {
            let e = doc
                .namespaces
                .as_ref()
                .and_then(|all| all.get(namespace))
                .and_then(|ns| ns.events.as_ref())
                .and_then(|all| all.get(event))
                .ok_or_else(|| not_found("event", namespace, event))?;
            export.node(namespace, &e.payload)?
        }
        Target::ErrorData { namespace, method, code } => {
            let m = find_method(doc, namespace, method)?;
            let data = m
                .errors
                .iter()
                .flatten()
                .find(|e| e.code == *code)
                .and_then(|e| e.data.as_ref())
                .ok_or_else(|| {
                    not_found("error with data", namespace, &format!("{method} (code {code})"))
                })?;
            export.node(namespace, data)?
        }
    };
    export.finish(root)
}

/// The whole contract as one JSON Schema document: every named type, and every method's params
/// and result and every event's payload, as `$defs` entries (`ns.method.params`,
/// `ns.method.result`, `ns.event.payload`).
///
/// # Errors
///
/// [`Error::DanglingRef`] for a ref to a type that does not exist.
pub fn json_schema_of_contract(doc: &Document) -> Result<Value, Error> {
    let mut export = Export::new(doc, reads_by_direction(doc));
    let mut entries = Vec::new();
    for (ns_name, ns) in doc.namespaces.iter().flatten() {
        export.reading = Reading::Plain;
        for name in ns.types.iter().flatten().map(|(n, _)| n) {
            export.reference(ns_name, name)?;
        }
        for (m_name, m) in ns.methods.iter().flatten() {
            export.reading = Reading::Input;
            entries.push((format!("{ns_name}.{m_name}.params"), export.params(ns_name, m)?));
            export.reading = Reading::Output;
            entries.push((format!("{ns_name}.{m_name}.result"), export.node(ns_name, &m.result)?));
        }
        export.reading = Reading::Output;
        for (e_name, e) in ns.events.iter().flatten() {
            entries
                .push((format!("{ns_name}.{e_name}.payload"), export.node(ns_name, &e.payload)?));
        }
    }
    for (key, schema) in entries {
        export.defs.insert(key, schema);
    }
    let mut out = export.finish(Value::Bool(true))?;
    if let Value::Object(map) = &mut out {
        // The contract as a whole validates nothing by itself; its parts are in `$defs`.
        map.insert(
            "description".to_owned(),
            json!("accord contract; each part is a `$defs` entry"),
        );
    }
    Ok(out)
}

fn not_found(what: &'static str, namespace: &str, name: &str) -> Error {
    Error::NotFound { what, namespace: namespace.to_owned(), name: name.to_owned() }
}

fn find_method<'d>(doc: &'d Document, namespace: &str, method: &str) -> Result<&'d Method, Error> {
    doc.namespaces
        .as_ref()
        .and_then(|all| all.get(namespace))
        .and_then(|ns| ns.methods.as_ref())
        .and_then(|all| all.get(method))
        .ok_or_else(|| not_found("method", namespace, method))
}

fn named<'d>(doc: &'d Document, namespace: &str, name: &str) -> Option<&'d TypeNode> {
    doc.namespaces.as_ref()?.get(namespace)?.types.as_ref()?.get(name)
}

struct Export<'d> {
    doc: &'d Document,
    defs: Map<String, Value>,
    /// Named types referenced and not yet written, with the reading they are referenced under.
    pending: Vec<(String, String, Reading)>,
    done: BTreeSet<(String, String, Reading)>,
    /// How presence is read where the export stands (docs/format.md §14).
    reading: Reading,
    /// Whether one export holds several readings of a named type (the whole contract, when it
    /// says presence per direction): then the input and output readings get `$defs` of their own,
    /// `ns.Name.input` and `ns.Name.output`.
    directional: bool,
    /// Whether every member JSON Schema has no keyword for is written as an `x-accord-*`
    /// extension, so that accord's import reads the node back exactly ([`SchemaWriter`]).
    lossless: bool,
    /// What a `$ref` to a named type starts with: `#/$defs/`, or OpenRPC's
    /// `#/components/schemas/`.
    ref_base: &'static str,
}

impl<'d> Export<'d> {
    /// An export of `doc`; `directional` says whether its `$defs` tell a named type's input and
    /// output readings apart ([`reads_by_direction`], a walk of the whole document: only the
    /// export of the whole contract needs it, so one target's export does not pay for it).
    fn new(doc: &'d Document, directional: bool) -> Export<'d> {
        Export {
            doc,
            defs: Map::new(),
            pending: Vec::new(),
            done: BTreeSet::new(),
            reading: Reading::Plain,
            directional,
            lossless: false,
            ref_base: "#/$defs/",
        }
    }

    /// The `$defs` key of named type `ns.name` under `reading`.
    fn def_key(&self, ns: &str, name: &str, reading: Reading) -> String {
        match (self.directional, reading) {
            (true, Reading::Input) => format!("{ns}.{name}.input"),
            (true, Reading::Output) => format!("{ns}.{name}.output"),
            _ => format!("{ns}.{name}"),
        }
    }

    fn finish(mut self, root: Value) -> Result<Value, Error> {
        while let Some((ns, name, reading)) = self.pending.pop() {
            let node = named(self.doc, &ns, &name).ok_or_else(|| Error::DanglingRef {
                at: accord_schema_model::Pointer::root(),
                namespace: ns.clone(),
                name: name.clone(),
            })?;
            self.reading = reading;
            let schema = self.node(&ns, node)?;
            let key = self.def_key(&ns, &name, reading);
            self.defs.insert(key, schema);
        }
        let mut out = Map::new();
        out.insert("$schema".to_owned(), json!(JSON_SCHEMA_DIALECT));
        match root {
            Value::Object(members) => out.extend(members),
            Value::Bool(true) => {}
            // `false` admits nothing: `{"not": {}}` says the same.
            other => {
                out.insert("allOf".to_owned(), json!([other]));
            }
        }
        if !self.defs.is_empty() {
            let mut defs: Vec<(String, Value)> =
                std::mem::take(&mut self.defs).into_iter().collect();
            defs.sort_by(|a, b| a.0.cmp(&b.0));
            out.insert("$defs".to_owned(), Value::Object(defs.into_iter().collect()));
        }
        Ok(Value::Object(out))
    }

    /// A `$ref` to named type `namespace.name`, queued for `$defs`.
    fn reference(&mut self, namespace: &str, name: &str) -> Result<Value, Error> {
        if named(self.doc, namespace, name).is_none() {
            return Err(Error::DanglingRef {
                at: accord_schema_model::Pointer::root(),
                namespace: namespace.to_owned(),
                name: name.to_owned(),
            });
        }
        let key = (namespace.to_owned(), name.to_owned(), self.reading);
        if self.done.insert(key.clone()) {
            self.pending.push(key);
        }
        let def = self.def_key(namespace, name, self.reading);
        Ok(json!({"$ref": format!("{}{}", self.ref_base, pointer_escape(&def))}))
    }

    fn node(&mut self, ns: &str, t: &TypeNode) -> Result<Value, Error> {
        let mut s = Map::new();
        let put = |s: &mut Map<String, Value>, key: &str, value: Option<Value>| {
            if let Some(v) = value {
                s.insert(key.to_owned(), v);
            }
        };
        match &t.kind {
            TypeKind::Any => {}
            TypeKind::Null => put(&mut s, "type", Some(json!("null"))),
            TypeKind::Boolean => put(&mut s, "type", Some(json!("boolean"))),
            TypeKind::Integer(r) | TypeKind::Number(r) => {
                let ty = if matches!(t.kind, TypeKind::Integer(_)) { "integer" } else { "number" };
                // Every refinement is named, so a new one does not compile until it is
                // exported.
                let NumberRules {
                    min,
                    max,
                    exclusive_min,
                    exclusive_max,
                    multiple_of,
                    unit,
                    #[cfg(feature = "dummy-refinement-handled")]
                        dummy: _,
                } = r;
                put(&mut s, "type", Some(json!(ty)));
                put(&mut s, "minimum", min.clone().map(Value::Number));
                put(&mut s, "maximum", max.clone().map(Value::Number));
                put(&mut s, "exclusiveMinimum", exclusive_min.clone().map(Value::Number));
                put(&mut s, "exclusiveMaximum", exclusive_max.clone().map(Value::Number));
                put(&mut s, "multipleOf", multiple_of.clone().map(Value::Number));
                put(&mut s, "x-accord-unit", unit.clone().map(Value::String));
            }
            TypeKind::String(r) => {
                let StringRules { min_length, max_length, pattern, format } = r;
                put(&mut s, "type", Some(json!("string")));
                put(&mut s, "minLength", min_length.map(Value::from));
                put(&mut s, "maxLength", max_length.map(Value::from));
                put(&mut s, "pattern", pattern.clone().map(Value::String));
                match format.as_deref().map(|f| (f, Format::from_name(f))) {
                    // JSON Schema has no `hex` format: its meaning as a pattern.
                    Some((_, Some(Format::Hex))) => {
                        let hex = json!({"pattern": "^(0x)?[0-9a-fA-F]+$"});
                        s.insert("allOf".to_owned(), json!([hex]));
                        if self.lossless {
                            put(&mut s, "x-accord-format", Some(json!("hex")));
                        }
                    }
                    Some((f, _)) => put(&mut s, "format", Some(json!(f))),
                    None => {}
                }
            }
            TypeKind::Literal { value } => put(&mut s, "const", Some(value.clone())),
            // Each kind's members are named in full, so a new one does not compile until it
            // is exported.
            TypeKind::Enum(EnumType { values, open, reserved }) => {
                put(&mut s, "enum", Some(Value::Array(values.clone())));
                if self.lossless {
                    put(&mut s, "x-accord-open", open.map(Value::Bool));
                    put(&mut s, "x-accord-reserved", reserved.as_deref().map(reserved_json));
                }
            }
            TypeKind::Array(ArrayType {
                items,
                min_items,
                max_items,
                unique_items,
                #[cfg(feature = "dummy-refinement-handled")]
                    dummy_items: _,
            }) => {
                put(&mut s, "type", Some(json!("array")));
                let items = self.node(ns, items)?;
                put(&mut s, "items", Some(items));
                put(&mut s, "minItems", min_items.map(Value::from));
                put(&mut s, "maxItems", max_items.map(Value::from));
                put(&mut s, "uniqueItems", unique_items.map(Value::Bool));
            }
            TypeKind::Tuple(TupleType { elements }) => {
                let mut prefix = Vec::new();
                for e in elements {
                    prefix.push(self.node(ns, e)?);
                }
                let n = prefix.len();
                put(&mut s, "type", Some(json!("array")));
                if n == 0 {
                    // `prefixItems` must not be empty: the empty tuple is the empty array.
                    put(&mut s, "maxItems", Some(json!(0)));
                    if self.lossless {
                        put(&mut s, "x-accord-kind", Some(json!("tuple")));
                    }
                } else {
                    put(&mut s, "prefixItems", Some(Value::Array(prefix)));
                    put(&mut s, "items", Some(json!(false)));
                    put(&mut s, "minItems", Some(json!(n)));
                }
            }
            TypeKind::Object(ObjectType { fields, closed, reserved }) => {
                put(&mut s, "type", Some(json!("object")));
                let mut properties = Map::new();
                let mut required = Vec::new();
                for (name, field) in fields.iter().flatten() {
                    let mut schema = self.node(ns, &field.ty)?;
                    if self.lossless {
                        // The field's own members beside its type's, which keep theirs.
                        let exact = field_members(field);
                        if !exact.is_empty() {
                            schema["x-accord-field"] = Value::Object(exact);
                        }
                    } else {
                        annotate(
                            &mut schema,
                            field.description.as_deref(),
                            field.deprecated.as_ref().is_some_and(|d| d.is_deprecated()),
                        );
                    }
                    properties.insert(name.clone(), schema);
                    if self.reading.required(field) {
                        required.push(json!(name));
                    }
                }
                if !self.lossless || fields.is_some() {
                    put(&mut s, "properties", Some(Value::Object(properties)));
                }
                if !required.is_empty() {
                    put(&mut s, "required", Some(Value::Array(required)));
                }
                if *closed == Some(true) {
                    put(&mut s, "additionalProperties", Some(json!(false)));
                }
                if self.lossless {
                    if *closed == Some(false) {
                        put(&mut s, "x-accord-closed", Some(json!(false)));
                    }
                    put(&mut s, "x-accord-reserved", reserved.as_deref().map(reserved_json));
                }
            }
            TypeKind::Map(MapType { keys, values }) => {
                put(&mut s, "type", Some(json!("object")));
                let values = self.node(ns, values)?;
                put(&mut s, "additionalProperties", Some(values));
                if let Some(keys) = keys {
                    let keys = self.node(ns, keys)?;
                    put(&mut s, "propertyNames", Some(keys));
                }
            }
            TypeKind::Union(UnionType { variants, discriminator }) => {
                let mut arms = Vec::new();
                for v in variants {
                    arms.push(self.node(ns, v)?);
                }
                // Tags are distinct literals, so at most one arm can admit a tagged value:
                // `anyOf` then admits exactly what picking the arm by its tag admits.
                put(&mut s, "anyOf", Some(Value::Array(arms)));
                if self.lossless {
                    put(&mut s, "x-accord-discriminator", discriminator.clone().map(Value::String));
                }
            }
            TypeKind::Ref(r @ RefType { name, namespace }) => {
                let target_ns = r.namespace_in(ns);
                let reference = self.reference(target_ns, name)?;
                if let Value::Object(m) = reference {
                    s.extend(m);
                }
                if self.lossless {
                    put(&mut s, "x-accord-namespace", namespace.clone().map(Value::String));
                }
            }
        }
        let mut out = Value::Object(s);
        annotate(
            &mut out,
            t.description.as_deref(),
            t.deprecated.as_ref().is_some_and(|d| d.is_deprecated()),
        );
        if let Value::Object(s) = &mut out {
            if let Some(d) = &t.default {
                s.insert("default".to_owned(), d.clone());
            }
            if let Some(x) = &t.examples {
                s.insert("examples".to_owned(), Value::Array(x.clone()));
            }
            if self.lossless {
                if let Some(d) =
                    t.deprecated.as_ref().filter(|d| !matches!(d, Deprecated::Flag(true)))
                {
                    s.insert("x-accord-deprecated".to_owned(), deprecated_json(d));
                }
                if !t.unknown.is_empty() {
                    s.insert("x-accord-unknown".to_owned(), Value::Object(t.unknown.clone()));
                }
            }
        }
        Ok(out)
    }

    fn params(&mut self, ns: &str, m: &Method) -> Result<Value, Error> {
        let params = m.params.as_deref().unwrap_or_default();
        let structure = m.param_structure.unwrap_or(ParamStructure::Either);
        let mut arms = Vec::new();
        if structure != ParamStructure::ByPosition {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for p in params {
                let mut schema = self.node(ns, &p.field.ty)?;
                let deprecated = p.field.deprecated.as_ref().is_some_and(|d| d.is_deprecated());
                annotate(&mut schema, p.field.description.as_deref(), deprecated);
                properties.insert(p.name.clone(), schema);

                if self.reading.required(&p.field) {
                    required.push(json!(p.name));
                }
            }
            let mut by_name = json!({"type": "object", "properties": properties});
            if !required.is_empty() {
                by_name["required"] = Value::Array(required);
            }
            arms.push(by_name);
        }
        if structure != ParamStructure::ByName {
            let mut prefix = Vec::new();
            for p in params {
                prefix.push(self.node(ns, &p.field.ty)?);
            }
            // Optional params are left out from the end only: every param up to the last
            // required one must be there.
            let least =
                params.iter().rposition(|p| self.reading.required(&p.field)).map_or(0, |i| i + 1);
            arms.push(if prefix.is_empty() {
                json!({"type": "array", "maxItems": 0})
            } else {
                json!({"type": "array", "prefixItems": prefix, "items": false, "minItems": least})
            });
        }
        Ok(if arms.len() == 1 { arms.remove(0) } else { json!({"anyOf": arms}) })
    }
}

/// A lossless JSON Schema writer for one node at a time, for documents that hold a contract's
/// types in a schema language of their own (the OpenRPC export). Named types are referenced as
/// `{ref_base}ns.Name` and read plainly (`optional`, format.md §14). What JSON Schema has no
/// keyword for is written as an `x-accord-*` extension: `x-accord-unit`, `x-accord-format`
/// (`hex`, beside its pattern), `x-accord-open`, `x-accord-reserved`, `x-accord-discriminator`,
/// `x-accord-namespace` (a ref's explicit namespace), `x-accord-deprecated` (a note or `false`),
/// `x-accord-closed` (a written `false`), `x-accord-kind` (the empty tuple), `x-accord-field` (a
/// field's own members) and `x-accord-unknown` (members this build has no name for).
pub struct SchemaWriter<'d> {
    export: Export<'d>,
}

impl<'d> SchemaWriter<'d> {
    /// A writer over `doc` whose refs start with `ref_base` (`#/components/schemas/`).
    pub fn lossless(doc: &'d Document, ref_base: &'static str) -> SchemaWriter<'d> {
        let mut export = Export::new(doc, false);
        export.lossless = true;
        export.ref_base = ref_base;
        export.reading = Reading::Plain;
        SchemaWriter { export }
    }

    /// The schema of `node`, standing in namespace `namespace`.
    ///
    /// # Errors
    ///
    /// [`Error::DanglingRef`] for a ref to a type that does not exist.
    pub fn node(&mut self, namespace: &str, node: &TypeNode) -> Result<Value, Error> {
        self.export.node(namespace, node)
    }
}

/// A field's members other than its type, as the format writes them.
fn field_members(field: &accord_schema_model::Field) -> Map<String, Value> {
    let mut m = Map::new();
    let flag = |m: &mut Map<String, Value>, k: &str, v: Option<bool>| {
        if let Some(v) = v {
            m.insert(k.to_owned(), Value::Bool(v));
        }
    };
    flag(&mut m, "optional", field.optional);
    flag(&mut m, "inputOptional", field.input_optional);
    flag(&mut m, "outputOptional", field.output_optional);
    if let Some(d) = &field.description {
        m.insert("description".to_owned(), json!(d));
    }
    if let Some(d) = &field.deprecated {
        m.insert("deprecated".to_owned(), deprecated_json(d));
    }
    m.extend(field.unknown.clone());
    m
}

fn deprecated_json(d: &Deprecated) -> Value {
    match d {
        Deprecated::Flag(b) => Value::Bool(*b),
        Deprecated::Note(n) => json!(n),
    }
}

fn reserved_json(reserved: &[accord_schema_model::Reserved]) -> Value {
    let entries = reserved.iter().map(|r| {
        let mut m = Map::new();
        m.insert("name".to_owned(), json!(r.name));
        if let Some(n) = &r.note {
            m.insert("note".to_owned(), json!(n));
        }
        m.extend(r.unknown.clone());
        Value::Object(m)
    });
    Value::Array(entries.collect())
}

fn annotate(schema: &mut Value, description: Option<&str>, deprecated: bool) {
    if let Value::Object(s) = schema {
        if let Some(d) = description {
            s.insert("description".to_owned(), json!(d));
        }
        if deprecated {
            s.insert("deprecated".to_owned(), json!(true));
        }
    }
}

/// A `$defs` key as a JSON Pointer segment.
fn pointer_escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
