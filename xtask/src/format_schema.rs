//! docs/types.schema.json: a JSON Schema (2020-12) of the `.types.json` format itself, for
//! editors (VS Code's `json.schemas`, `$schema` in a document) to complete and flag contracts as
//! they are typed.
//!
//! It is driven by the model's own lists: the members of every record are those of
//! `accord_schema_model::members`, and the kinds are `Kind::ALL`. Each record's table here
//! gives its members' JSON types and descriptions; a member the model lists and the table does
//! not (or the other way round) fails the generator, and so `cargo xtask fixtures --check` and
//! this module's tests. Kinds are matched without a wildcard, so a new kind does not compile
//! until it is described here.
//!
//! What it says follows the format's rules (docs/format.md): unknown members are allowed on
//! every record (readers keep them; `x-` members are for other tools), a known member of the
//! wrong JSON type or a missing required member is refused, and a `kind` outside the 14 is
//! refused (a new kind is a new format). A known refinement on another kind is not checked, as
//! the reader does not check it. What it cannot say: text-level refusals (duplicate keys,
//! depth, integers past 64 bits) and `1.0` where an integer stands, which JSON Schema counts as
//! an integer.

use accord_schema_model::{Kind, Refinement, members};
use anyhow::{Result, bail};
use serde_json::{Map, Value, json};

use crate::fixtures::{Context, Generated};

/// Where the schema is published, from the workspace root.
pub(crate) const PATH: &str = "docs/types.schema.json";

/// The generator of [`PATH`], run by `cargo xtask fixtures`.
pub(crate) fn generate(_cx: &Context) -> Result<Vec<Generated>> {
    let mut contents = serde_json::to_string_pretty(&schema()?)?;
    contents.push('\n');
    Ok(vec![Generated { path: PATH.into(), contents }])
}

/// One known member of a record: its name, whether the record requires it, its JSON Schema
/// and a short description (docs/format.md's wording).
struct Member {
    name: &'static str,
    required: bool,
    schema: Value,
    about: &'static str,
}

fn opt(name: &'static str, schema: Value, about: &'static str) -> Member {
    Member { name, required: false, schema, about }
}

fn req(name: &'static str, schema: Value, about: &'static str) -> Member {
    Member { name, required: true, schema, about }
}

fn def(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn boolean() -> Value {
    json!({ "type": "boolean" })
}

fn number() -> Value {
    json!({ "type": "number" })
}

/// A whole number, 0 to 2^64 − 1.
fn count() -> Value {
    json!({ "type": "integer", "minimum": 0 })
}

/// A signed 64-bit integer.
fn code() -> Value {
    json!({ "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX })
}

fn any() -> Value {
    json!({})
}

fn array_of(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}

fn object_of(values: Value) -> Value {
    json!({ "type": "object", "additionalProperties": values })
}

fn type_node() -> Value {
    def("typeNode")
}

fn deprecated() -> Member {
    let about =
        "Deprecated: true, or a note saying why and what to use instead; absent: not deprecated.";
    opt("deprecated", def("deprecated"), about)
}

/// Semver 2.0.0 text, as semver.org's own expression (ASCII digits).
const SEMVER: &str = r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-((0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(\+([0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*))?$";

/// A record of the format: its `$defs` name, what it is, the members the model lists for it
/// and the table of those members.
struct Record {
    def: &'static str,
    about: &'static str,
    listed: Vec<&'static str>,
    members: Vec<Member>,
}

fn records() -> Vec<Record> {
    vec![
        Record {
            def: "document",
            about: "A .types.json document: one plant's contract.",
            listed: members::DOCUMENT.to_vec(),
            members: vec![
                req(
                    "schema",
                    json!({ "type": "integer", "const": accord_schema_model::SCHEMA_VERSION }),
                    "The format version, read before anything else; this is schema 1's JSON Schema.",
                ),
                opt("name", string(), "The document's name, usually the plant's."),
                opt("description", string(), "What the plant is."),
                opt("wire", def("wire"), "How the plant is spoken to; absent: accord's own wire."),
                opt(
                    "namespaces",
                    object_of(def("namespace")),
                    "The parts of the plant's API, by name.",
                ),
            ],
        },
        Record {
            def: "namespace",
            about: "One part of a plant's API; its key in `namespaces` is its name.",
            listed: members::NAMESPACE.to_vec(),
            members: vec![
                req(
                    "version",
                    json!({ "type": "string", "pattern": SEMVER }),
                    "The contract version: semver text such as 1.4.0 (no leading v, no missing part).",
                ),
                opt("description", string(), "What this part of the API does."),
                deprecated(),
                opt(
                    "component",
                    def("component"),
                    "The deployable unit that serves this namespace.",
                ),
                opt(
                    "wire",
                    def("wire"),
                    "How this namespace is spoken to; absent: the document's wire, member by member.",
                ),
                opt("methods", object_of(def("method")), "The namespace's methods, by name."),
                opt(
                    "events",
                    object_of(def("event")),
                    "The notifications the plant sends, by name.",
                ),
                opt("types", object_of(type_node()), "Named types, by name; refs name them."),
                opt(
                    "reserved",
                    array_of(def("reserved")),
                    "Method, event and type names that were removed and may never be reused.",
                ),
            ],
        },
        Record {
            def: "component",
            about: "The deployable unit that serves a namespace.",
            listed: members::COMPONENT.to_vec(),
            members: vec![
                req("name", string(), "The component's name."),
                opt("description", string(), "What the component is."),
            ],
        },
        Record {
            def: "method",
            about: "A method; its key in `methods` is its name.",
            listed: members::METHOD.to_vec(),
            members: vec![
                opt(
                    "semantics",
                    json!({
                        "type": "string",
                        "examples": ["read", "idempotent", "write", "destructive"],
                    }),
                    "What calling the method does to the plant: read, idempotent, write or destructive; absent: undeclared (ask before pressing).",
                ),
                opt("description", string(), "What the method does."),
                deprecated(),
                opt(
                    "paramStructure",
                    json!({
                        "enum": ["by-name", "by-position", "either"],
                        "enumDescriptions": [
                            "As a JSON object keyed by param name.",
                            "As a JSON array, in `params` order.",
                            "Either form.",
                        ],
                    }),
                    "How the params may be sent; absent: either.",
                ),
                opt("params", array_of(def("param")), "The params, in position order."),
                req("result", type_node(), "What the method answers; kind null for nothing."),
                opt("errors", array_of(def("error")), "The JSON-RPC errors the method may answer."),
                opt(
                    "examples",
                    array_of(def("example")),
                    "Example calls: params and their result.",
                ),
                opt(
                    "links",
                    object_of(def("link")),
                    "Methods whose params can be taken from this call's params or result, by link name.",
                ),
                opt(
                    "causes",
                    array_of(def("cause")),
                    "The events a call of this method may cause.",
                ),
            ],
        },
        Record {
            def: "link",
            about: "A method whose params can be taken from a call of this one (OpenRPC's Link Object); its key in `links` is the link's name.",
            listed: members::LINK.to_vec(),
            members: vec![
                req("method", string(), "The linked method's name."),
                opt(
                    "namespace",
                    string(),
                    "The linked method's namespace; absent: this method's namespace.",
                ),
                opt("summary", string(), "A short summary of the link."),
                opt("description", string(), "What the link is for."),
                opt(
                    "params",
                    object_of(any()),
                    "The linked method's params by name: a runtime expression ($params.NAME…, $result…), or a constant ($$ writes a text that starts with $).",
                ),
            ],
        },
        Record {
            def: "cause",
            about: "An event a call of the method may cause.",
            listed: members::CAUSE.to_vec(),
            members: vec![
                req("event", string(), "The event's name."),
                opt(
                    "namespace",
                    string(),
                    "The event's namespace; absent: the method's namespace.",
                ),
                opt("description", string(), "When the call causes the event."),
            ],
        },
        Record {
            def: "param",
            about: "A param of a method: a field with a name.",
            listed: [members::PARAM, members::FIELD].concat(),
            members: {
                let mut m = vec![req("name", string(), "The param's name.")];
                m.extend(field_members("param"));
                m
            },
        },
        Record {
            def: "field",
            about: "A member of an object type; its key in `fields` is the member name on the wire.",
            listed: members::FIELD.to_vec(),
            members: field_members("member"),
        },
        Record {
            def: "event",
            about: "A notification the plant sends to subscribers; its key in `events` is its name.",
            listed: members::EVENT.to_vec(),
            members: vec![
                opt("description", string(), "When the plant sends it."),
                deprecated(),
                req("payload", type_node(), "What the notification carries."),
                opt("examples", array_of(any()), "Example payloads."),
            ],
        },
        Record {
            def: "error",
            about: "A JSON-RPC error a method may answer.",
            listed: members::ERROR.to_vec(),
            members: vec![
                req("code", code(), "The error code, a 64-bit integer."),
                req("message", string(), "The error's message."),
                opt("description", string(), "When the error is answered."),
                opt("data", type_node(), "What the error's `data` carries; absent: no data."),
            ],
        },
        Record {
            def: "example",
            about: "An example call: params, and the result they give.",
            listed: members::EXAMPLE.to_vec(),
            members: vec![
                opt("name", string(), "The example's name."),
                opt("description", string(), "What the example shows."),
                req(
                    "params",
                    json!({ "type": ["array", "object"] }),
                    "The params: an array for a by-position call, an object for a by-name call.",
                ),
                opt("result", any(), "The result the call gives (null is a result)."),
            ],
        },
        Record {
            def: "reserved",
            about: "A name that was removed and may never be reused.",
            listed: members::RESERVED.to_vec(),
            members: vec![
                req("name", string(), "The removed name."),
                opt("note", string(), "What the name was and when it was removed."),
            ],
        },
        Record {
            def: "wire",
            about: "How a plant is spoken to, for plants that do not speak accord's own dialect; absent: accord's own wire.",
            listed: members::WIRE.to_vec(),
            members: vec![
                opt(
                    "separator",
                    json!({ "type": "string", "examples": [".", "_", ""] }),
                    "What stands between namespace and method on the wire; \"\" for unqualified names; absent: \".\".",
                ),
                opt(
                    "describe",
                    json!({ "anyOf": [{ "type": "string" }, { "const": false }] }),
                    "The method that answers the plant's description, or false for none; absent: rpc.describe. Document only.",
                ),
                opt(
                    "codes",
                    def("wireCodes"),
                    "The codes of the plant's protocol errors. Document only.",
                ),
                opt(
                    "depthLimit",
                    count(),
                    "The deepest JSON nesting the plant promises to read. Document only.",
                ),
                opt(
                    "pubsub",
                    def("pubsub"),
                    "The namespace's events are subscribed in the pubsub style.",
                ),
                opt(
                    "methods",
                    object_of(string()),
                    "Per-method wire names: method name to the name the plant answers to. Namespace only.",
                ),
                opt(
                    "events",
                    object_of(def("eventWire")),
                    "Per-event pubsub details; an entry makes its event pubsub. Namespace only.",
                ),
            ],
        },
        Record {
            def: "wireCodes",
            about: "The codes of a plant's protocol errors: a profile, changed or added to.",
            listed: members::WIRE_CODES.to_vec(),
            members: vec![
                opt(
                    "profile",
                    json!({ "type": "string", "examples": ["accord", "eip-1474", "jsonrpsee"] }),
                    "The built-in set of codes the others start from; absent: accord.",
                ),
                opt(
                    "methodNotFound",
                    array_of(code()),
                    "Codes that mean \"no such method\"; the first is the one a fake sends.",
                ),
                opt(
                    "invalidParams",
                    array_of(code()),
                    "Codes that mean \"invalid params\"; the first is the one a fake sends.",
                ),
                opt("limit", code(), "The code for \"a limit was exceeded\"."),
                opt(
                    "reserved",
                    json!({
                        "type": "object",
                        "propertyNames": { "pattern": "^-?[0-9]+$" },
                        "additionalProperties": { "type": "string" },
                    }),
                    "Further codes with a protocol meaning: code (decimal text) to meaning.",
                ),
            ],
        },
        Record {
            def: "pubsub",
            about: "The names of a namespace's pubsub methods.",
            listed: members::PUBSUB.to_vec(),
            members: pubsub_members(),
        },
        Record {
            def: "eventWire",
            about: "One event's pubsub details.",
            listed: members::EVENT_WIRE.to_vec(),
            members: {
                let mut m = vec![opt(
                    "params",
                    array_of(any()),
                    "The leading params of the subscribe call that select the event; absent: [EVENT NAME].",
                )];
                m.extend(pubsub_members());
                m
            },
        },
    ]
}

/// The members of a field, or of a param besides its name.
fn field_members(what: &'static str) -> Vec<Member> {
    let (optional, about, description) = match what {
        "param" => (
            "The param may be left out; absent: false, it must be sent.",
            "The param's type.",
            "What the param is.",
        ),
        _ => (
            "The member may be absent (it does not admit null); absent: false, it must be present.",
            "The member's type.",
            "What the member is.",
        ),
    };
    vec![
        req("type", type_node(), about),
        opt("optional", boolean(), optional),
        opt(
            "inputOptional",
            boolean(),
            "May be absent in input (params and what they reach); absent: what `optional` says.",
        ),
        opt(
            "outputOptional",
            boolean(),
            "May be absent in output (results, events, error data); absent: what `optional` says.",
        ),
        opt("description", string(), description),
        deprecated(),
    ]
}

fn pubsub_members() -> Vec<Member> {
    vec![
        opt("subscribe", string(), "The subscribe method's wire name."),
        opt("unsubscribe", string(), "The unsubscribe method's wire name."),
        opt("notification", string(), "The notification's method name."),
    ]
}

/// What a type node of `kind` admits.
fn kind_about(kind: Kind) -> &'static str {
    match kind {
        Kind::Any => "Every JSON value.",
        Kind::Null => "null.",
        Kind::Boolean => "true or false.",
        Kind::Integer => "An integer (no fraction, no exponent).",
        Kind::Number => "Any JSON number.",
        Kind::String => "A string.",
        Kind::Literal => "Exactly one value, `value`.",
        Kind::Enum => "One of a set of strings or integers, `values`.",
        Kind::Array => "An array of one item type, `items`.",
        Kind::Tuple => "A fixed-length array, one type per position, `elements`.",
        Kind::Object => "An object with named fields, `fields`.",
        Kind::Map => "An object used as a map from keys to values of one type, `values`.",
        Kind::Union => "A value of any of several types, `variants`.",
        Kind::Ref => "The value the named type `name` admits.",
    }
}

/// The members of type nodes of `kind` alone, in the order of the model's declaration.
fn refinements(kind: Kind) -> Vec<Member> {
    Refinement::of(kind).iter().map(|&r| refinement(r)).collect()
}

/// One kind-specific member. Every row of the model's declaration is named, so a new one does
/// not compile until the format's JSON Schema says what it holds.
fn refinement(r: Refinement) -> Member {
    let name = r.name();
    match r {
        Refinement::Min => opt(name, number(), "Inclusive lower bound."),
        Refinement::Max => opt(name, number(), "Inclusive upper bound."),
        Refinement::ExclusiveMin => opt(name, number(), "Exclusive lower bound."),
        Refinement::ExclusiveMax => opt(name, number(), "Exclusive upper bound."),
        Refinement::MultipleOf => opt(
            name,
            json!({ "type": "number", "exclusiveMinimum": 0 }),
            "Admits the values v for which v / multipleOf is a whole number; greater than 0.",
        ),
        Refinement::Unit => opt(
            name,
            json!({ "type": "string", "examples": ["s", "ms", "rpm", "bar"] }),
            "The unit of the quantity: part of the meaning, not checked.",
        ),
        #[cfg(feature = "dummy-refinement-handled")]
        Refinement::Dummy | Refinement::DummyItems => {
            opt(name, count(), "A dummy (never enabled).")
        }
        Refinement::MinLength => {
            opt(name, count(), "Least length, in Unicode scalar values, inclusive.")
        }
        Refinement::MaxLength => {
            opt(name, count(), "Greatest length, in Unicode scalar values, inclusive.")
        }
        Refinement::Pattern => opt(
            name,
            string(),
            "A regular expression (Rust regex), unanchored: write ^…$ to match the whole string.",
        ),
        Refinement::Format => opt(
            name,
            json!({
                "type": "string",
                "examples": ["date-time", "date", "time", "uuid", "uri", "ipv4", "ipv6", "hex"],
            }),
            "A designation such as date-time or uuid; checked when known.",
        ),
        Refinement::Value => req(name, any(), "The one value admitted (null is a value)."),
        Refinement::EnumValues => req(
            name,
            array_of(json!({ "type": ["string", "integer"] })),
            "The values admitted: strings or integers.",
        ),
        Refinement::Open => opt(
            name,
            boolean(),
            "A promise that every reader copes with values not listed; absent: closed.",
        ),
        Refinement::EnumReserved => opt(
            name,
            array_of(def("reserved")),
            "Values that were removed and may never be reused.",
        ),
        Refinement::Items => req(name, type_node(), "The type of every item."),
        Refinement::MinItems => opt(name, count(), "Least number of items, inclusive."),
        Refinement::MaxItems => opt(name, count(), "Greatest number of items, inclusive."),
        Refinement::UniqueItems => opt(name, boolean(), "No two items are equal; absent: false."),
        Refinement::Elements => {
            req(name, array_of(type_node()), "The type of each position, in order.")
        }
        Refinement::Fields => {
            opt(name, object_of(def("field")), "The declared fields, by member name.")
        }
        Refinement::Closed => opt(
            name,
            boolean(),
            "Members not in `fields` are refused; absent: false, the object is open.",
        ),
        Refinement::ObjectReserved => opt(
            name,
            array_of(def("reserved")),
            "Field names that were removed and may never be reused.",
        ),
        Refinement::Keys => {
            opt(name, type_node(), "The type of the member names; absent: any string.")
        }
        Refinement::MapValues => req(name, type_node(), "The type of every member value."),
        Refinement::Variants => req(name, array_of(type_node()), "The types a value may match."),
        Refinement::Discriminator => opt(
            name,
            string(),
            "The member of the object variants whose literal value picks the variant.",
        ),
        Refinement::Name => {
            req(name, string(), "The named type, an entry of a namespace's `types`.")
        }
        Refinement::Namespace => {
            opt(name, string(), "The namespace of the named type; absent: the ref's own.")
        }
    }
}

/// The members every type node takes, whatever its kind.
fn node_members() -> Vec<Member> {
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    let abouts: Vec<&str> = Kind::ALL.iter().map(|&k| kind_about(k)).collect();
    vec![
        req(
            "kind",
            json!({ "enum": kinds, "enumDescriptions": abouts }),
            "One of the 14 kinds; another kind is a new format and is refused.",
        ),
        opt("description", string(), "What the type is."),
        deprecated(),
        opt(
            "default",
            any(),
            "The value a reader assumes when the value is absent (null is a value).",
        ),
        opt("examples", array_of(any()), "Example values."),
    ]
}

/// The object schema of a record, after checking its members against the model's list.
fn object(what: &str, about: &str, listed: &[&str], members: Vec<Member>) -> Result<Value> {
    let names: Vec<&str> = members.iter().map(|m| m.name).collect();
    for name in listed {
        if !names.contains(name) {
            bail!(
                "the model lists member `{name}` of {what} and the JSON Schema of the format \
                 does not describe it: add it to xtask/src/format_schema.rs"
            );
        }
    }
    for name in &names {
        if !listed.contains(name) {
            bail!(
                "xtask/src/format_schema.rs describes member `{name}` of {what}, which the \
                 model (accord_schema_model::members) does not list"
            );
        }
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for m in members {
        let Value::Object(mut schema) = m.schema else {
            unreachable!("member schemas are objects")
        };
        schema.insert("description".into(), m.about.into());
        if m.required {
            required.push(m.name);
        }
        if properties.insert(m.name.to_owned(), Value::Object(schema)).is_some() {
            bail!("xtask/src/format_schema.rs describes member `{}` of {what} twice", m.name);
        }
    }
    let mut out = Map::new();
    if !about.is_empty() {
        out.insert("description".into(), about.into());
    }
    out.insert("type".into(), "object".into());
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    out.insert("properties".into(), Value::Object(properties));
    Ok(Value::Object(out))
}

/// The whole schema.
pub(crate) fn schema() -> Result<Value> {
    let mut defs = Map::new();
    for r in records() {
        defs.insert(r.def.into(), object(r.def, r.about, &r.listed, r.members)?);
    }
    defs.insert(
        "deprecated".into(),
        json!({
            "description": "Deprecated: true, or a note saying why and what to use instead (any string means deprecated); false or absent: not deprecated.",
            "type": ["boolean", "string"],
        }),
    );
    let mut node = object("a type node", "", members::TYPE_NODE, node_members())?;
    let mut by_kind = Vec::new();
    for kind in Kind::ALL {
        let name = kind.name();
        let what = format!("a type node of kind `{name}`");
        let def_name = format!("kind.{name}");
        let refined =
            object(&what, kind_about(kind), members::refinements(kind), refinements(kind))?;
        by_kind.push(json!({
            "if": { "properties": { "kind": { "const": name } }, "required": ["kind"] },
            "then": def(&def_name),
        }));
        defs.insert(def_name, refined);
    }
    node["description"] = "A type: `kind` picks one of 14 kinds; the other members depend on the kind. A member of another kind is an unknown member, not checked.".into();
    node["allOf"] = Value::Array(by_kind);
    defs.insert("typeNode".into(), node);
    Ok(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("accord contract (.types.json), schema {}", accord_schema_model::SCHEMA_VERSION),
        "description": format!(
            "The .types.json format, schema {}, as docs/format.md specifies it; generated by `cargo xtask fixtures` from the model (xtask/src/format_schema.rs). Unknown members are allowed everywhere (readers keep them; x- members are for other tools); text-level refusals (duplicate keys, depth, integers past 64 bits) are not expressed.",
            accord_schema_model::SCHEMA_VERSION
        ),
        "$ref": "#/$defs/document",
        "$defs": defs,
    }))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::workspace::{self, DOCUMENT_SUFFIX};

    /// The fixtures of `fixtures/refused/` that are refused for their shape (a member of the
    /// wrong JSON type, a missing required member, a value outside a closed set, an unknown
    /// kind, a `schema` other than 1): the JSON Schema must refuse each of them too.
    const SHAPE: &[&str] = &[
        "bad-contract-version",
        "bad-param-structure",
        "enum-float-value",
        "every-mistake-at-once",
        "missing-result",
        "misspelt-kind",
        "not-an-object",
        "schema-0",
        "schema-2",
        "schema-float",
        "schema-missing",
        "schema-string",
        "unknown-kind-in-result",
        "unknown-kind",
        "wrong-type",
    ];

    /// The fixtures of `fixtures/refused/` refused for something JSON Schema does not see: the
    /// text (encoding, emptiness, syntax, duplicate keys, depth). A new refused fixture is in
    /// one of the two lists, or this test fails.
    const NOT_SHAPE: &[&str] = &[
        "deep-nesting",
        "duplicate-keys",
        "empty-file",
        "invalid-utf8",
        "malformed-json",
        "trailing-comma",
        "truncated",
    ];

    /// The folders of bundled contracts; every document in them is read and validates.
    const BUNDLED: &[&str] = &[
        "fixtures/contracts",
        "fixtures/baselines",
        "fixtures/bench",
        "fixtures/golden/current",
        "fixtures/future",
        "fixtures/extract",
        "fixtures/import",
    ];

    fn validator() -> jsonschema::Validator {
        let schema = schema().expect("the schema is generated");
        jsonschema::draft202012::new(&schema).expect("the schema is a valid 2020-12 schema")
    }

    fn documents_under(root: &Path, dir: &str) -> Vec<PathBuf> {
        let files = workspace::files_under(&root.join(dir)).expect("the folder lists");
        files
            .into_iter()
            .filter(|f| f.to_string_lossy().ends_with(DOCUMENT_SUFFIX))
            .map(|f| Path::new(dir).join(f))
            .collect()
    }

    fn errors(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
        validator.iter_errors(value).map(|e| format!("{} at {}", e, e.instance_path())).collect()
    }

    #[test]
    fn the_schema_is_valid_2020_12() {
        let schema = schema().unwrap();
        jsonschema::meta::validate(&schema).expect("valid against the 2020-12 meta-schema");
    }

    #[test]
    fn a_member_the_model_lists_and_the_table_does_not_fails_the_generator() {
        let members = vec![opt("name", string(), "The name.")];
        let err = object("a test record", "", &["name", "nickname"], members).unwrap_err();
        assert!(err.to_string().contains("`nickname`"), "{err}");
        let members = vec![opt("name", string(), "The name."), opt("alias", string(), "An alias.")];
        let err = object("a test record", "", &["name"], members).unwrap_err();
        assert!(err.to_string().contains("`alias`"), "{err}");
    }

    #[test]
    fn every_bundled_contract_validates() {
        let root = workspace::root();
        let validator = validator();
        let mut checked = 0;
        let mut failures = Vec::new();
        for dir in BUNDLED {
            let docs = documents_under(&root, dir);
            assert!(!docs.is_empty(), "no documents under {dir}");
            for rel in docs {
                let text = workspace::read_text(&root, &rel).unwrap();
                accord_schema_model::Document::parse(&text)
                    .unwrap_or_else(|e| panic!("{} does not read: {e}", rel.display()));
                let value: Value = serde_json::from_str(&text).unwrap();
                let errs = errors(&validator, &value);
                if !errs.is_empty() {
                    failures.push(format!("{}: {}", rel.display(), errs.join("; ")));
                }
                checked += 1;
            }
        }
        assert!(failures.is_empty(), "refused by the schema:\n{}", failures.join("\n"));
        assert!(checked > 20, "only {checked} documents checked");
    }

    #[test]
    fn every_fixture_refused_for_shape_is_refused_by_the_schema() {
        let root = workspace::root();
        let validator = validator();
        let mut seen = Vec::new();
        for rel in documents_under(&root, "fixtures/refused") {
            let name = rel.file_name().unwrap().to_string_lossy();
            let stem = name.strip_suffix(DOCUMENT_SUFFIX).unwrap().to_owned();
            let bytes = std::fs::read(root.join(&rel)).unwrap();
            assert!(
                accord_schema_model::Document::parse_bytes(&bytes).is_err(),
                "{stem} is read by accord"
            );
            if SHAPE.contains(&stem.as_str()) {
                let value: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                    panic!("{stem} is classified as shape but is not JSON: {e}")
                });
                assert!(!validator.is_valid(&value), "{stem}: the schema accepts it");
            } else {
                assert!(
                    NOT_SHAPE.contains(&stem.as_str()),
                    "fixtures/refused/{name} is new: classify it in SHAPE (the JSON Schema must \
                     refuse it) or NOT_SHAPE in xtask/src/format_schema.rs"
                );
            }
            seen.push(stem);
        }
        for stem in SHAPE.iter().chain(NOT_SHAPE) {
            assert!(
                seen.iter().any(|s| s == stem),
                "{stem} is classified but not in fixtures/refused"
            );
        }
    }

    #[test]
    fn shape_errors_point_where_the_reader_does() {
        let validator = validator();
        let doc = |ns: Value| json!({ "schema": 1, "namespaces": { "a": ns } });
        let ok = doc(json!({ "version": "1.0.0", "x-owner": 1, "methods": {
            "m": { "result": { "kind": "integer", "minLength": "misplaced, so unchecked" } }
        }}));
        assert_eq!(errors(&validator, &ok), Vec::<String>::new());
        for (bad, at) in [
            (doc(json!({ "version": "v1.0.0" })), "/namespaces/a/version"),
            (
                doc(json!({ "version": "1.0.0", "types": { "T": { "kind": "tensor" } } })),
                "/namespaces/a/types/T/kind",
            ),
            (
                doc(
                    json!({ "version": "1.0.0", "types": { "T": { "kind": "string", "maxLength": -1 } } }),
                ),
                "/namespaces/a/types/T/maxLength",
            ),
            (
                doc(json!({ "version": "1.0.0", "types": { "T": { "kind": "array" } } })),
                "/namespaces/a/types/T",
            ),
            (doc(json!({ "version": "1.0.0", "deprecated": null })), "/namespaces/a/deprecated"),
        ] {
            let errs = errors(&validator, &bad);
            assert!(errs.iter().any(|e| e.ends_with(&format!(" at {at}"))), "{bad}: {errs:?}");
        }
    }
}
