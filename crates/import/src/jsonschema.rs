//! A JSON Schema to a contract: its `$defs` (draft 07: `definitions`) become named types of
//! one namespace, and the root schema a named type of its own when it is given a name.

use serde_json::{Map, Value, json};

use crate::report::{Accepts, Report};

/// The meta-schemas whose keywords the import reads (`#` trimmed).
const KNOWN_DIALECTS: [&str; 5] = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
];
use crate::schema::{Converter, defs_of};
use crate::{Draft, Error, Import};

pub(crate) fn import(
    source: &Value,
    namespace: &str,
    version: &str,
    name: Option<&str>,
) -> Result<Import, Error> {
    if !(source.is_object() || source.is_boolean()) {
        return Err(Error::at("a JSON Schema is an object or a boolean", ""));
    }
    let mut conv = Converter::new(source, Draft::of(source));
    if let Some(dialect) = source.get("$schema") {
        let known =
            dialect.as_str().is_some_and(|d| KNOWN_DIALECTS.contains(&d.trim_end_matches('#')));
        if !known {
            let detail = format!(
                "`$schema` {dialect} is not a dialect the import knows (2020-12, 2019-09, 07, 06, 04): its vocabularies may not assert what the contract checks"
            );
            conv.loss("/$schema", "unknown-dialect", Accepts::Narrower, detail);
        }
    }
    if let Some(name) = name {
        conv.register("", namespace, name);
    }
    let defs = defs_of(source, "");
    for (pointer, def) in &defs {
        conv.register(pointer, namespace, def);
    }
    if name.is_none() && defs.is_empty() {
        return Err(Error::at(
            "the schema has no `$defs`: give the root schema a type name (--name)",
            "",
        ));
    }
    let mut types = Map::new();
    for (type_name, node) in conv.named_types()? {
        types.insert(type_name.name, node.to_value());
    }
    let mut doc = json!({
        "schema": accord_schema_model::SCHEMA_VERSION,
        "namespaces": {namespace: {"version": version, "types": types}},
    });
    conv.refusal()?;
    crate::cycles::break_cycles(&mut conv, &mut doc)?;
    let losses = conv.take_losses();
    let document = accord_schema_model::Document::from_value(doc)?;
    Ok(Import { document, report: Report::new(losses) })
}
