//! `accord init NAME`: a starter contract to edit, and a guide to what to do with it.
//!
//! JSON has no comments, so the starter explains itself in `description` members (which stay
//! useful once edited: they are the contract's documentation) and the guide printed on stderr
//! says what each part is for and which commands come next. The starter is written by the
//! canonical writer, passes `accord fmt --check` and lints clean, so a user's first run of each
//! tool shows what a good contract gives.

use std::path::PathBuf;

use accord_schema_model::Document;
use serde_json::{Value, json};

use crate::Outcome;

/// Arguments of `accord init`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The namespace of the new contract (letters, digits, `-` and `_`; it starts with a
    /// letter), called on the wire as `NAME.method`.
    #[arg(value_name = "NAME")]
    name: String,
    /// Where to write it [default: NAME.types.json]; an existing file is never overwritten.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: &Args) -> Outcome {
    if let Err(why) = check_name(&args.name) {
        eprintln!("error: `{}` cannot name a namespace: {why}", args.name.escape_debug());
        return Outcome::InputError;
    }
    let out =
        args.out.clone().unwrap_or_else(|| PathBuf::from(format!("{}.types.json", args.name)));
    let text = match Document::from_value(starter(&args.name)) {
        Ok(doc) => doc.to_canonical_string(),
        Err(err) => {
            // The starter is built here from a checked name; a refusal is a bug in it.
            eprintln!("error: the starter contract is refused by the reader: {err}");
            return Outcome::InputError;
        }
    };
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&out)
        .and_then(|mut file| std::io::Write::write_all(&mut file, text.as_bytes()));
    if let Err(err) = written {
        let why = if err.kind() == std::io::ErrorKind::AlreadyExists {
            "it already exists (init never overwrites a file; pick another --out)".to_owned()
        } else {
            err.to_string()
        };
        eprintln!("error: cannot write {}: {why}", out.display());
        return Outcome::InputError;
    }
    eprint!("{}", guide(&args.name, &out.display().to_string()));
    Outcome::Success
}

/// A namespace name the starter can use as it stands: it becomes the wire prefix and the file
/// name, so it keeps to characters that need no quoting in either.
fn check_name(name: &str) -> Result<(), &'static str> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Err("it is empty"),
        Some(c) if !c.is_ascii_alphabetic() => return Err("it must start with a letter"),
        Some(_) => {}
    }
    if chars.any(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        return Err("use letters, digits, `-` and `_` only (a `.` would split the wire name)");
    }
    Ok(())
}

/// What to do next, printed after the file is written.
fn guide(name: &str, file: &str) -> String {
    format!(
        "wrote {file}: namespace `{name}` at version 0.1.0, with
  - `{name}.status` (semantics read): a method without params answering a named type;
  - `{name}.setLabel` (semantics idempotent): params, a declared error and an example;
  - `Status`, `Mode`: named types (an object with bounds and units, an enum);
  - `changed`: an event its subscribers receive.
Every `description` says what to replace; they are the contract's documentation.
Next:
  accord fmt {file}            # canonical layout (it already is)
  accord check {file}          # lint: 0 errors, 0 warnings
  accord serve {file}          # a fake plant on http://127.0.0.1:7878
docs/format.md describes every member, docs/lint-rules.md every lint finding.
"
    )
}

/// The starter contract of namespace `name`.
fn starter(name: &str) -> Value {
    json!({
        "schema": 1,
        "name": name,
        "description": format!("The contract of the {name} plant. Say here what the plant is and who calls it."),
        "namespaces": {
            name: {
                "version": "0.1.0",
                "description": "One part of the plant's API. Raise the version with every change: `accord check --against` says by how much.",
                "methods": {
                    "status": {
                        "semantics": "read",
                        "description": "A read method: safe to call at any time, so `accord conform` calls it. Replace it with what callers ask.",
                        "params": [],
                        "result": { "kind": "ref", "name": "Status" }
                    },
                    "setLabel": {
                        "semantics": "idempotent",
                        "description": "A method that changes state, the same way however often it is called. Describe what it does and when it fails.",
                        "params": [
                            {
                                "name": "label",
                                "type": { "kind": "string", "minLength": 1, "maxLength": 64 },
                                "description": "Params are named and typed; bounds are checked by serve, validate and conform."
                            },
                            {
                                "name": "mode",
                                "type": { "kind": "ref", "name": "Mode" },
                                "optional": true,
                                "description": "An optional param: callers may leave it out."
                            }
                        ],
                        "result": { "kind": "ref", "name": "Status" },
                        "errors": [
                            {
                                "code": -32010,
                                "message": "label taken",
                                "description": "A declared error: its code, its message and what it means. Codes from -32099 to -32000 are the plant's own."
                            }
                        ],
                        "examples": [
                            {
                                "name": "rename",
                                "params": { "label": "north pump", "mode": "auto" },
                                "result": { "label": "north pump", "mode": "auto", "speed": 1450 }
                            }
                        ]
                    }
                },
                "events": {
                    "changed": {
                        "description": "An event: subscribers receive its payload whenever the status changes.",
                        "payload": { "kind": "ref", "name": "Status" }
                    }
                },
                "types": {
                    "Status": {
                        "kind": "object",
                        "fields": {
                            "label": { "type": { "kind": "string", "maxLength": 64 } },
                            "mode": { "type": { "kind": "ref", "name": "Mode" } },
                            "speed": {
                                "type": { "kind": "integer", "min": 0, "max": 3000, "unit": "rpm" },
                                "description": "Numbers carry their bounds and their unit."
                            }
                        },
                        "description": "A named type, used by refs wherever it is needed."
                    },
                    "Mode": {
                        "kind": "enum",
                        "values": ["auto", "manual", "off"],
                        "description": "An enum: one of these strings."
                    }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::check_name;

    #[test]
    fn names_that_cannot_be_a_wire_prefix_are_refused() {
        assert_eq!(check_name("pump"), Ok(()));
        assert_eq!(check_name("pump-2_b"), Ok(()));
        assert!(check_name("").is_err());
        assert!(check_name("2pump").is_err());
        assert!(check_name("pump.station").is_err());
        assert!(check_name("pump station").is_err());
    }
}
