//! A tool's schemas from accord-validate's JSON Schema export, and its arguments turned back
//! into the method's params.
//!
//! MCP wants objects on both sides. The params' export is an object (by name), an array (by
//! position) or both (`anyOf`); the tool takes the object, and a by-position array becomes an
//! object keyed by param name. The result is wrapped as `{"result": …}`, whatever its type, so
//! that every tool has an object `outputSchema` and its `structuredContent` has one shape.
//!
//! Both are closed to what the contract declares (`additionalProperties: false` on the
//! arguments, checked by [`undeclared`] before anything else) and rewritten into the form
//! draft-07 and 2020-12 validators read alike ([`crate::portable`]).

use accord_schema_model::{Document, Method, ParamStructure};
use accord_validate::{Target, json_schema};
use serde_json::{Map, Value, json};

use crate::Error;
use crate::portable::portable;

/// The member of `structuredContent` (and of `outputSchema`) that holds the method's result.
pub const RESULT_MEMBER: &str = "result";

/// The tool's `inputSchema`: the params' export as one object schema.
pub fn input_schema(doc: &Document, ns: &str, name: &str, m: &Method) -> Result<Value, Error> {
    let target = Target::Params { namespace: ns.to_owned(), method: name.to_owned() };
    let mut export = json_schema(doc, &target).map_err(|e| Error::Schema(e.to_string()))?;
    let Value::Object(root) = &mut export else {
        return Err(Error::Schema(format!("the params of {ns}.{name} export as no object")));
    };
    // The arm to keep: the object arm of `anyOf` (by name comes first), or the root itself.
    let arm = match root.remove("anyOf") {
        Some(Value::Array(mut arms)) if !arms.is_empty() => arms.swap_remove(0),
        Some(other) => other,
        None => {
            let mut own = Map::new();
            for key in
                ["type", "properties", "required", "prefixItems", "items", "minItems", "maxItems"]
            {
                if let Some(v) = root.remove(key) {
                    own.insert(key.to_owned(), v);
                }
            }
            Value::Object(own)
        }
    };
    let object = if arm.get("type") == Some(&json!("array")) { by_position(&arm, m) } else { arm };
    if let Value::Object(members) = object {
        root.extend(members);
    }
    // The plant's params stay open (a newer plant may take a param this contract does not
    // name); the tool's are closed, so that a misspelt option is refused, not ignored.
    root.insert("additionalProperties".to_owned(), json!(false));
    portable(&mut export);
    Ok(export)
}

/// The object form of a by-position params schema: each `prefixItems` entry under its param's
/// name, required as far as `minItems` reaches.
fn by_position(arm: &Value, m: &Method) -> Value {
    let params = m.params.as_deref().unwrap_or_default();
    let items = arm.get("prefixItems").and_then(Value::as_array).cloned().unwrap_or_default();
    let least = arm.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
    let mut properties = Map::new();
    for (p, mut schema) in params.iter().zip(items) {
        if let (Value::Object(s), Some(d)) = (&mut schema, &p.field.description) {
            s.insert("description".to_owned(), json!(d));
        }
        properties.insert(p.name.clone(), schema);
    }
    let required: Vec<Value> = params.iter().take(least).map(|p| json!(p.name)).collect();
    let mut object =
        json!({"type": "object", "properties": properties, "additionalProperties": false});
    if !required.is_empty() {
        object["required"] = Value::Array(required);
    }
    object
}

/// The tool's `outputSchema`: `{"result": <the result's export>}`.
pub fn output_schema(doc: &Document, ns: &str, name: &str) -> Result<Value, Error> {
    let target = Target::Result { namespace: ns.to_owned(), method: name.to_owned() };
    let export = json_schema(doc, &target).map_err(|e| Error::Schema(e.to_string()))?;
    let Value::Object(mut root) = export else {
        return Err(Error::Schema(format!("the result of {ns}.{name} exports as no object")));
    };
    let mut out = Map::new();
    for key in ["$schema", "$defs"] {
        if let Some(v) = root.remove(key) {
            out.insert(key.to_owned(), v);
        }
    }
    out.insert("type".to_owned(), json!("object"));
    out.insert("properties".to_owned(), json!({RESULT_MEMBER: Value::Object(root)}));
    out.insert("required".to_owned(), json!([RESULT_MEMBER]));
    let mut out = Value::Object(out);
    portable(&mut out);
    Ok(out)
}

/// Whether the method's params go on the wire by position.
pub fn sends_by_position(m: &Method) -> bool {
    m.param_structure == Some(ParamStructure::ByPosition)
}

/// The arguments the method does not declare, each with its pointer and a message naming
/// the declared ones: refused before validation, so that they never reach the plant (whose
/// by-name params are open, and which would take them and ignore them).
pub fn undeclared(m: &Method, args: &Map<String, Value>) -> Vec<(String, String)> {
    let params = m.params.as_deref().unwrap_or_default();
    let declared: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    unknown_arguments(&declared, args)
}

/// The arguments not among `declared`, each with its pointer and a message naming the
/// declared ones (any tool's, `collect_events` included).
pub(crate) fn unknown_arguments(
    declared: &[&str],
    args: &Map<String, Value>,
) -> Vec<(String, String)> {
    let takes = if declared.is_empty() {
        "no arguments".to_owned()
    } else {
        let names: Vec<String> = declared.iter().map(|d| format!("`{d}`")).collect();
        format!("only {}", names.join(", "))
    };
    args.keys()
        .filter(|k| !declared.contains(&k.as_str()))
        .map(|k| {
            (format!("/{}", escape(k)), format!("unknown argument `{k}`: this tool takes {takes}"))
        })
        .collect()
}

/// A tool call's arguments as the method's params: the object as it is (by name), or the
/// array in param order (by position), ending at the last argument given. A gap before a
/// given by-position argument is refused with its pointer. Undeclared arguments are
/// [`undeclared`]'s to refuse, before this.
pub fn to_params(m: &Method, args: Map<String, Value>) -> Result<Value, Vec<(String, String)>> {
    if !sends_by_position(m) {
        return Ok(Value::Object(args));
    }
    let params = m.params.as_deref().unwrap_or_default();
    let mut problems = Vec::new();
    let last = params.iter().rposition(|p| args.contains_key(&p.name)).map_or(0, |i| i + 1);
    let mut values = Vec::with_capacity(last);
    for p in &params[..last] {
        match args.get(&p.name) {
            Some(v) => values.push(v.clone()),
            None => {
                problems.push((
                    format!("/{}", escape(&p.name)),
                    format!(
                        "`{}` must be given when a later param is (params go by position)",
                        p.name
                    ),
                ));
                values.push(Value::Null);
            }
        }
    }
    if problems.is_empty() { Ok(Value::Array(values)) } else { Err(problems) }
}

/// A validation pointer into the params as sent, as a pointer into the tool's arguments: a
/// by-position index becomes the param's name.
pub fn argument_pointer(m: &Method, pointer: &str) -> String {
    if !sends_by_position(m) {
        return pointer.to_owned();
    }
    let rest = pointer.strip_prefix('/').unwrap_or_default();
    let (first, tail) = rest.split_once('/').map_or((rest, None), |(a, b)| (a, Some(b)));
    let params = m.params.as_deref().unwrap_or_default();
    match first.parse::<usize>().ok().and_then(|i| params.get(i)) {
        Some(p) => match tail {
            Some(tail) => format!("/{}/{tail}", escape(&p.name)),
            None => format!("/{}", escape(&p.name)),
        },
        None => pointer.to_owned(),
    }
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
