//! A JSON Schema to a contract: its `$defs` (draft 07: `definitions`) become named types of
//! one namespace, and the root schema a named type of its own when it is given a name.

use serde_json::{Map, Value, json};

use crate::report::Report;
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
        types.insert(type_name.name, node);
    }
    let mut doc = json!({
        "schema": accord_schema_model::SCHEMA_VERSION,
        "namespaces": {namespace: {"version": version, "types": types}},
    });
    conv.settle_untyped(&mut doc);
    let losses = conv.take_losses();
    let document = accord_schema_model::Document::from_value(doc)?;
    Ok(Import { document, report: Report::new(losses) })
}
