//! A method's `links` both ways between a contract (format.md §5.11) and OpenRPC's Link Object
//! (`name`, `summary`, `description`, `method`, `params`, `server`). Runtime expressions are
//! OpenRPC's syntax in both (`$result.id`, `$params.queue`), so params travel as written. The
//! one difference is how the linked method is named: OpenRPC by its wire name, the contract by
//! its name and namespace (the wire may rename methods), so each direction maps the name.

use accord_schema_model::{Dialect, Link};
use serde_json::{Map, Value, json};

use crate::report::Note;
use crate::schema::escape;

/// What an OpenRPC link carries that a contract link names otherwise or not at all.
const LINK_MEMBERS: &[&str] = &["name", "method", "summary", "description", "params"];

/// The OpenRPC Link Objects of one method, from its contract links. `written` is the method as
/// the contract writes it; each link's record is kept whole in `x-accord-link`, so that an
/// import gives back the same link (its `namespace` as written, its unknown members).
pub(crate) fn export(
    dialect: &Dialect,
    ns: &str,
    links: &indexmap::IndexMap<String, Link>,
    written: &Value,
) -> Value {
    let mut out = Vec::new();
    for (name, link) in links {
        let (target_ns, target) = link.target(ns);
        let wire = dialect
            .wire_name(target_ns, target)
            .map_or_else(|| format!("{target_ns}.{target}"), str::to_owned);
        let mut l = Map::new();
        l.insert("name".to_owned(), json!(name));
        if let Some(s) = &link.summary {
            l.insert("summary".to_owned(), json!(s));
        }
        if let Some(d) = &link.description {
            l.insert("description".to_owned(), json!(d));
        }
        l.insert("method".to_owned(), json!(wire));
        if let Some(params) = &link.params {
            let params: Map<String, Value> =
                params.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            l.insert("params".to_owned(), Value::Object(params));
        }
        if let Some(exact) = written.get("links").and_then(|all| all.get(name)) {
            l.insert("x-accord-link".to_owned(), exact.clone());
        }
        out.push(Value::Object(l));
    }
    Value::Array(out)
}

/// The contract `links` of one OpenRPC method (`at` its pointer, `own_ns` the namespace it is
/// placed in). `links` is OpenRPC's array, or an object keyed by link name (which real
/// documents use too); `$ref`s are followed by `deref`. `target` places a wire name as the
/// import places methods: `(namespace, method)`. Links that cannot be read are left out with a
/// note; so is a second link of one name.
pub(crate) fn import(
    links: &Value,
    at: &str,
    own_ns: &str,
    deref: impl Fn(&Value, &str) -> Result<Value, String>,
    target: impl Fn(&str) -> (String, String),
    notes: &mut Vec<Note>,
) -> Option<Value> {
    let entries: Vec<(Option<String>, String, &Value)> = match links {
        Value::Array(items) => {
            items.iter().enumerate().map(|(i, v)| (None, format!("{at}/links/{i}"), v)).collect()
        }
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| (Some(k.clone()), format!("{at}/links/{}", escape(k)), v))
            .collect(),
        _ => {
            notes.push(note(at, "`links` is neither an array nor an object: left out".into()));
            return None;
        }
    };
    let mut out = Map::new();
    for (i, (key, l_at, raw)) in entries.into_iter().enumerate() {
        let link = match deref(raw, &l_at) {
            Ok(link) => link,
            Err(why) => {
                notes.push(note(&l_at, format!("{why}; the link is left out")));
                continue;
            }
        };
        // OpenRPC requires `name`; documents that leave it out name the link by its key, or by
        // the component the `$ref` points at (`#/components/links/UserRepositories`).
        let component = raw
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/links/"))
            .map(|n| n.replace("~1", "/").replace("~0", "~"));
        let name = link
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or(key)
            .or(component)
            .unwrap_or_else(|| format!("link{i}"));
        if out.contains_key(&name) {
            notes.push(note(&l_at, format!("a second link named `{name}` is left out")));
            continue;
        }
        if let Some(exact) = link.get("x-accord-link") {
            out.insert(name, exact.clone());
            continue;
        }
        let Some(wire) = link.get("method").and_then(Value::as_str) else {
            notes.push(note(
                &l_at,
                format!("link `{name}` names no `method`; the contract's link needs one: left out"),
            ));
            continue;
        };
        let (ns, method) = target(wire);
        let mut record = Map::new();
        record.insert("method".to_owned(), json!(method));
        if ns != own_ns {
            record.insert("namespace".to_owned(), json!(ns));
        }
        for k in ["summary", "description"] {
            if let Some(v) = link.get(k).filter(|v| v.is_string()) {
                record.insert(k.to_owned(), v.clone());
            }
        }
        if let Some(Value::Object(params)) = link.get("params") {
            let mut templates = Vec::new();
            let params: Map<String, Value> = params
                .iter()
                .map(|(k, v)| match template(v) {
                    Some(expr) => {
                        templates.push(format!("`{}` as `{expr}`", v.as_str().unwrap_or_default()));
                        (k.clone(), Value::String(expr))
                    }
                    None => (k.clone(), v.clone()),
                })
                .collect();
            if !templates.is_empty() {
                notes.push(note(
                    &l_at,
                    format!(
                        "link `{name}`: JSON Template Language placeholders read as runtime expressions: {}",
                        templates.join(", ")
                    ),
                ));
            }
            record.insert("params".to_owned(), Value::Object(params));
        }
        // `server` and extensions: kept as the link's unknown members.
        if let Some(all) = link.as_object() {
            for (k, v) in all.iter().filter(|(k, _)| !LINK_MEMBERS.contains(&k.as_str())) {
                record.insert(k.clone(), v.clone());
            }
        }
        out.insert(name, Value::Object(record));
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// OpenRPC's spec writes runtime expressions in JSON Template Language, a placeholder
/// `${result.id}`, where its earlier examples (and the contract) write `$result.id`. A value
/// that is one placeholder and nothing else keeps the type of what it finds, so it is the
/// contract's expression; text around a placeholder makes a string the contract cannot say,
/// and such a value is kept as written (a constant).
fn template(value: &Value) -> Option<String> {
    let inner = value.as_str()?.strip_prefix("${")?.strip_suffix('}')?;
    (!inner.contains(['{', '}'])).then(|| format!("${inner}"))
}

fn note(at: &str, detail: String) -> Note {
    Note { pointer: at.to_owned(), kind: "link", detail }
}
