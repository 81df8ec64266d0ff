//! A contract as an OpenRPC 1.3 document: one method object per contract method under its wire
//! name, named types as `components/schemas` entries `ns.Name` written by accord-validate's
//! JSON Schema export (lossless form), and `x-accord-*` extensions for what OpenRPC has no
//! place for: semantics, the contract's own method and namespace names, events, reserved names,
//! contract versions, the wire, declared errors' descriptions and data types, examples as
//! written, the events a method causes. Links are OpenRPC Link Objects (`links.rs`). `import_openrpc` of the export gives the contract back.

use accord_schema_model::{Deprecated, Dialect, Document, Method, Param};
use accord_validate::SchemaWriter;
use serde_json::{Map, Value, json};

use crate::Error;

/// The OpenRPC version the export writes.
pub const OPENRPC_VERSION: &str = "1.3.2";

const REF_BASE: &str = "#/components/schemas/";

/// The contract `doc` as an OpenRPC 1.3 document.
///
/// # Errors
///
/// [`Error::Export`] for a contract whose wire does not resolve or that has a ref to a type it
/// does not define.
pub fn export_openrpc(doc: &Document) -> Result<Value, Error> {
    let dialect = Dialect::of(doc).map_err(|e| Error::Export(e.to_string()))?;
    let value = doc.to_value();
    let mut writer = SchemaWriter::lossless(doc, REF_BASE);
    let mut methods = Vec::new();
    let mut schemas = Map::new();
    let mut namespaces = Map::new();
    for (ns_name, ns) in doc.namespaces.iter().flatten() {
        // The namespace as written, less what the OpenRPC document holds itself.
        let mut record = value["namespaces"][ns_name].as_object().cloned().unwrap_or_default();
        record.remove("methods");
        record.remove("types");
        namespaces.insert(ns_name.clone(), Value::Object(record));
        for (name, node) in ns.types.iter().flatten() {
            let schema = writer.node(ns_name, node).map_err(|e| Error::Export(e.to_string()))?;
            schemas.insert(format!("{ns_name}.{name}"), schema);
        }
        for (m_name, m) in ns.methods.iter().flatten() {
            let wire_name = dialect.wire_name(ns_name, m_name).unwrap_or(m_name).to_owned();
            let written = &value["namespaces"][ns_name]["methods"][m_name];
            methods.push(method(&mut writer, &dialect, (ns_name, m_name), &wire_name, m, written)?);
        }
    }
    let mut document = value.as_object().cloned().unwrap_or_default();
    document.remove("schema");
    document.remove("namespaces");
    let first_version = doc
        .namespaces
        .iter()
        .flatten()
        .next()
        .map_or("0.0.0".to_owned(), |(_, ns)| ns.version.clone());
    let mut info = Map::new();
    info.insert(
        "title".to_owned(),
        json!(doc.name.clone().unwrap_or_else(|| "accord contract".to_owned())),
    );
    if let Some(d) = &doc.description {
        info.insert("description".to_owned(), json!(d));
    }
    info.insert("version".to_owned(), json!(first_version));
    let mut out = Map::new();
    out.insert("openrpc".to_owned(), json!(OPENRPC_VERSION));
    out.insert("info".to_owned(), Value::Object(info));
    out.insert("methods".to_owned(), Value::Array(methods));
    out.insert("components".to_owned(), json!({"schemas": schemas}));
    out.insert("x-accord-document".to_owned(), Value::Object(document));
    out.insert("x-accord-namespaces".to_owned(), Value::Object(namespaces));
    Ok(Value::Object(out))
}

fn method(
    writer: &mut SchemaWriter<'_>,
    dialect: &Dialect,
    (ns, name): (&str, &str),
    wire_name: &str,
    m: &Method,
    written: &Value,
) -> Result<Value, Error> {
    let schema = |writer: &mut SchemaWriter<'_>, node| {
        writer.node(ns, node).map_err(|e| Error::Export(e.to_string()))
    };
    let mut out = Map::new();
    out.insert("name".to_owned(), json!(wire_name));
    if let Some(d) = &m.description {
        out.insert("description".to_owned(), json!(d));
    }
    let mut params = Vec::new();
    for p in m.params.iter().flatten() {
        params.push(param(writer, ns, p)?);
    }
    out.insert("params".to_owned(), Value::Array(params));
    out.insert(
        "result".to_owned(),
        json!({"name": "result", "schema": schema(writer, &m.result)?}),
    );
    if let Some(errors) = &m.errors {
        let errors: Vec<Value> =
            errors.iter().map(|e| json!({"code": e.code, "message": e.message})).collect();
        out.insert("errors".to_owned(), Value::Array(errors));
    }
    if let Some(examples) = &m.examples {
        let pairings: Vec<Value> = examples
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let values: Vec<Value> = match &x.params {
                    Value::Array(a) => a.clone(),
                    Value::Object(o) => o.values().cloned().collect(),
                    other => vec![other.clone()],
                };
                let names: Vec<String> = match &x.params {
                    Value::Object(o) => o.keys().cloned().collect(),
                    _ => m
                        .params
                        .iter()
                        .flatten()
                        .map(|p| p.name.clone())
                        .chain((0..).map(|j| format!("param{j}")))
                        .take(values.len())
                        .collect(),
                };
                let params: Vec<Value> = names
                    .into_iter()
                    .zip(values)
                    .map(|(n, v)| json!({"name": n, "value": v}))
                    .collect();
                let mut pairing = Map::new();
                let name = x.name.clone().unwrap_or_else(|| format!("example {i}"));
                pairing.insert("name".to_owned(), json!(name));
                if let Some(d) = &x.description {
                    pairing.insert("description".to_owned(), json!(d));
                }
                pairing.insert("params".to_owned(), Value::Array(params));
                if let Some(r) = &x.result {
                    pairing.insert("result".to_owned(), json!({"name": "result", "value": r}));
                }
                Value::Object(pairing)
            })
            .collect();
        out.insert("examples".to_owned(), Value::Array(pairings));
    }
    if let Some(links) = &m.links {
        out.insert("links".to_owned(), crate::links::export(dialect, ns, links, written));
    }
    if let Some(d) = &m.deprecated {
        out.insert("deprecated".to_owned(), json!(d.is_deprecated()));
    }
    if let Some(s) = &m.param_structure {
        out.insert("paramStructure".to_owned(), json!(s.as_str()));
    }
    // What OpenRPC has no place for, exactly as the contract writes it.
    out.insert("x-accord-namespace".to_owned(), json!(ns));
    out.insert("x-accord-method".to_owned(), json!(name));
    if let Some(s) = &m.semantics {
        out.insert("x-accord-semantics".to_owned(), json!(s.as_str()));
    }
    if let Some(d) = m.deprecated.as_ref().filter(|d| !matches!(d, Deprecated::Flag(true))) {
        out.insert("x-accord-deprecated".to_owned(), deprecated_json(d));
    }
    if m.params.is_none() {
        out.insert("x-accord-no-params".to_owned(), json!(true));
    }
    for (member, key) in [("errors", "x-accord-errors"), ("examples", "x-accord-examples")] {
        if let Some(v) = written.get(member) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    if let Some(causes) = written.get("causes") {
        // OpenRPC has no events, so none of the events a method causes.
        out.insert("x-accord-causes".to_owned(), causes.clone());
    }
    if !m.unknown.is_empty() {
        out.insert("x-accord-unknown".to_owned(), Value::Object(m.unknown.clone()));
    }
    Ok(Value::Object(out))
}

fn param(writer: &mut SchemaWriter<'_>, ns: &str, p: &Param) -> Result<Value, Error> {
    let f = &p.field;
    let mut out = Map::new();
    out.insert("name".to_owned(), json!(p.name));
    if let Some(d) = &f.description {
        out.insert("description".to_owned(), json!(d));
    }
    out.insert(
        "schema".to_owned(),
        writer.node(ns, &f.ty).map_err(|e| Error::Export(e.to_string()))?,
    );
    out.insert("required".to_owned(), json!(!f.is_optional_in()));
    if f.deprecated.as_ref().is_some_and(Deprecated::is_deprecated) {
        out.insert("deprecated".to_owned(), json!(true));
    }
    // The param's own members as the contract writes them (presence per direction included).
    let mut exact = Map::new();
    for (k, v) in [
        ("optional", f.optional),
        ("inputOptional", f.input_optional),
        ("outputOptional", f.output_optional),
    ] {
        if let Some(v) = v {
            exact.insert(k.to_owned(), json!(v));
        }
    }
    if let Some(d) = &f.description {
        exact.insert("description".to_owned(), json!(d));
    }
    if let Some(d) = &f.deprecated {
        exact.insert("deprecated".to_owned(), deprecated_json(d));
    }
    exact.extend(f.unknown.clone());
    if !exact.is_empty() {
        out.insert("x-accord-param".to_owned(), Value::Object(exact));
    }
    Ok(Value::Object(out))
}

fn deprecated_json(d: &Deprecated) -> Value {
    match d {
        Deprecated::Flag(b) => json!(b),
        Deprecated::Note(n) => json!(n),
    }
}
