//! `rpc.describe` (docs/wire.md §5): what the plant serves, and whether a caller built against
//! given contract versions is compatible with it.
//!
//! The verdict is derived from the served versions by the contract-version policy, never
//! echoed from the caller, and the reduced answer (for a caller without a credential) holds the
//! least a stale caller needs to learn that it is stale, and nothing else.

use accord_schema_model::Document;
use semver::Version;
use serde_json::{Map, Value, json};

use std::sync::{Arc, OnceLock};

use crate::encode;
use crate::protocol::ProtocolErrors;
use crate::{Error, RpcError};

/// The method's name on the wire.
pub const METHOD: &str = crate::ProtocolMethod::Describe.name();

/// The update hint of the reduced answer.
pub const UPDATE_HINT: &str = "This plant needs a credential: send Authorization: Bearer <token>. \
Compare the versions above with the ones you were built against.";

/// The contract versions a caller states it was built against, in the order it gave them.
pub type BuiltAgainst = Vec<(String, Version)>;

/// Reads `rpc.describe`'s params: absent, `{"builtAgainst": {...}}` or `[{...}]`.
pub fn read_params(params: Option<&Value>) -> Result<BuiltAgainst, RpcError> {
    let (versions, at) = match params {
        None => return Ok(Vec::new()),
        Some(Value::Object(object)) => (object.get("builtAgainst"), "/builtAgainst"),
        Some(Value::Array(items)) => (items.first(), "/0"),
        Some(_) => return Ok(Vec::new()),
    };
    let Some(versions) = versions else { return Ok(Vec::new()) };
    let Some(versions) = versions.as_object() else {
        return Err(RpcError::invalid_params_at(
            at,
            "an object of namespace name to contract version",
            kind_of(versions),
        ));
    };
    let mut out = Vec::with_capacity(versions.len());
    for (namespace, version) in versions {
        let pointer = format!("{at}/{}", escape(namespace));
        let Some(text) = version.as_str() else {
            return Err(RpcError::invalid_params_at(
                &pointer,
                "a version string",
                kind_of(version),
            ));
        };
        let parsed = Version::parse(text).map_err(|_| {
            RpcError::invalid_params_at(&pointer, "a semver version like 2.1.0", text)
        })?;
        out.push((namespace.clone(), parsed));
    }
    Ok(out)
}

/// Whether a caller built against `built` can talk to a plant serving `served`, and if not, why.
///
/// Compatible when the served version has the same major and is at least the caller's; in 0.x,
/// where a minor step may break (docs/compat-rules.md), the same major and minor and at least
/// the caller's.
pub fn compatibility(served: &Version, built: &Version) -> Result<(), String> {
    let same_line = if served.major == 0 {
        built.major == 0 && served.minor == built.minor
    } else {
        served.major == built.major
    };
    if !same_line {
        return Err(if served > built {
            format!("the plant serves {served}, a breaking step from {built}; update the caller")
        } else {
            format!(
                "the plant serves {served}, a breaking step back from {built}; the caller is newer than the plant"
            )
        });
    }
    if served < built {
        return Err(format!(
            "the plant serves {served}, older than {built}; the caller may call what the plant does not have"
        ));
    }
    Ok(())
}

/// The answer to `rpc.describe`: full (with `contract`) or reduced (with `update`).
pub fn answer(served: &Document, built: &BuiltAgainst, reduced: bool) -> Value {
    let mut out = answer_head(served, built, reduced);
    if !reduced && let Value::Object(members) = &mut out {
        members.insert("contract".into(), served.to_value());
    }
    out
}

/// The answer to `rpc.describe` without the full answer's `contract`, which is its last member:
/// a plant that serialized the contract once appends it to this (the reduced answer is whole).
pub fn answer_head(served: &Document, built: &BuiltAgainst, reduced: bool) -> Value {
    let mut namespaces = Map::new();
    for (name, namespace) in served.namespaces.iter().flatten() {
        let mut entry = Map::new();
        entry.insert("version".into(), namespace.version.clone().into());
        if let Some((_, want)) = built.iter().find(|(n, _)| n == name) {
            let verdict = match Version::parse(&namespace.version) {
                Ok(have) => compatibility(&have, want),
                Err(_) => {
                    Err(format!("the plant serves `{}`, which is not a version", namespace.version))
                }
            };
            insert_verdict(&mut entry, verdict);
        }
        namespaces.insert(name.clone(), Value::Object(entry));
    }
    for (name, _) in built {
        if !namespaces.contains_key(name) {
            let mut entry = Map::new();
            entry.insert("version".into(), Value::Null);
            insert_verdict(&mut entry, Err("not served".to_owned()));
            namespaces.insert(name.clone(), Value::Object(entry));
        }
    }
    let mut out = Map::new();
    out.insert("schema".into(), served.schema.into());
    out.insert("reduced".into(), reduced.into());
    out.insert("namespaces".into(), Value::Object(namespaces));
    if reduced {
        out.insert("update".into(), UPDATE_HINT.into());
    }
    Value::Object(out)
}

fn insert_verdict(entry: &mut Map<String, Value>, verdict: Result<(), String>) {
    entry.insert("compatible".into(), verdict.is_ok().into());
    if let Err(reason) = verdict {
        entry.insert("reason".into(), reason.into());
    }
}

/// A describe answer as a caller reads it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DescribeAnswer {
    /// The served format number.
    pub schema: u64,
    /// Whether this is the reduced answer.
    pub reduced: bool,
    /// Per namespace: its served version (`None` when not served) and the compatibility verdict
    /// when the caller asked (`Some(Ok)` or `Some(Err(reason))`).
    pub namespaces: Vec<NamespaceEntry>,
    /// The served document (full answer only), as JSON for the model's reader.
    pub contract: Option<Value>,
    /// The update hint (reduced answer only).
    pub update: Option<String>,
    /// Members of the answer this build has no name for (a newer plant may add some).
    pub unknown: Map<String, Value>,
}

/// One namespace of a describe answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NamespaceEntry {
    /// The namespace name.
    pub name: String,
    /// The served version; `None` for a namespace the caller named that is not served.
    pub version: Option<String>,
    /// `compatible` and `reason`, when present.
    pub verdict: Option<Result<(), String>>,
}

impl DescribeAnswer {
    /// Reads a describe result; unknown members are kept, not refused (a newer plant's answer
    /// must still be readable).
    pub fn from_value(value: &Value) -> Result<DescribeAnswer, Error> {
        let object = value
            .as_object()
            .ok_or_else(|| Error::shape("", "a describe answer must be an object"))?;
        let schema = object
            .get("schema")
            .and_then(Value::as_u64)
            .ok_or_else(|| Error::shape("/schema", "`schema` must be a non-negative integer"))?;
        let reduced = object
            .get("reduced")
            .and_then(Value::as_bool)
            .ok_or_else(|| Error::shape("/reduced", "`reduced` must be true or false"))?;
        let entries = object
            .get("namespaces")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::shape("/namespaces", "`namespaces` must be an object"))?;
        let mut namespaces = Vec::with_capacity(entries.len());
        for (name, entry) in entries {
            let at = format!("/namespaces/{}", escape(name));
            let entry =
                entry.as_object().ok_or_else(|| Error::shape(&at, "an entry must be an object"))?;
            let version = match entry.get("version") {
                Some(Value::String(v)) => Some(v.clone()),
                Some(Value::Null) => None,
                _ => {
                    return Err(Error::shape(
                        format!("{at}/version"),
                        "`version` must be a string or null",
                    ));
                }
            };
            let verdict = match entry.get("compatible") {
                None => None,
                Some(Value::Bool(true)) => Some(Ok(())),
                Some(Value::Bool(false)) => {
                    Some(Err(entry.get("reason").and_then(Value::as_str).unwrap_or("").to_owned()))
                }
                Some(_) => {
                    return Err(Error::shape(
                        format!("{at}/compatible"),
                        "`compatible` must be true or false",
                    ));
                }
            };
            namespaces.push(NamespaceEntry { name: name.clone(), version, verdict });
        }
        let update = match object.get("update") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(Error::shape("/update", "`update` must be a string")),
        };
        let known = ["schema", "reduced", "namespaces", "contract", "update"];
        let unknown = object
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(DescribeAnswer {
            schema,
            reduced,
            namespaces,
            contract: object.get("contract").cloned(),
            update,
            unknown,
        })
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The describe request a caller sends, stating what it was built against.
pub fn request_params(built: &BuiltAgainst) -> Value {
    let versions: Map<String, Value> =
        built.iter().map(|(n, v)| (n.clone(), Value::String(v.to_string()))).collect();
    json!({"builtAgainst": versions})
}

/// The `rpc.describe` answers of one served document, each serialized once, when first asked
/// for: one per credential state for a call without `builtAgainst` (the usual call, answered by
/// copying bytes), and the contract alone, appended to the answer made for a call with
/// `builtAgainst` (whose verdicts depend on it). A contract of a million methods is serialized
/// once, not once per call, and not at start-up: a plant answers its first call before anyone
/// has asked to describe it (start-up of a 10,000-method contract spent most of its time here).
#[derive(Debug, Default)]
pub struct Described {
    full: OnceLock<Arc<[u8]>>,
    reduced: OnceLock<Arc<[u8]>>,
    contract: OnceLock<Vec<u8>>,
}

impl Described {
    /// Answers of a document, none made yet: [`Described::answer`] is given the document.
    pub fn new() -> Described {
        Described::default()
    }

    /// The answer to a describe call with `params`, full or `reduced`, about `doc` (the same
    /// document on every call); a `builtAgainst` that is not versions is the wire's
    /// invalid-params error.
    pub fn answer(
        &self,
        doc: &Document,
        params: Option<&Value>,
        reduced: bool,
        protocol: &ProtocolErrors,
    ) -> encode::Answer {
        match read_params(params) {
            Ok(built) if built.is_empty() && reduced => {
                let bytes = self.reduced.get_or_init(|| {
                    // Cannot fail: a Value into memory.
                    Arc::from(
                        serde_json::to_vec(&answer_head(doc, &built, true)).unwrap_or_default(),
                    )
                });
                encode::Answer::Raw(bytes.clone())
            }
            Ok(built) if built.is_empty() => {
                let bytes = self.full.get_or_init(|| self.with_contract(doc, &built));
                encode::Answer::Raw(bytes.clone())
            }
            Ok(built) if reduced => encode::Answer::Value(answer_head(doc, &built, true)),
            Ok(built) => encode::Answer::Raw(self.with_contract(doc, &built)),
            Err(error) => protocol.params_refusal(error).into(),
        }
    }

    /// The full answer for `built`: its head, then the contract's bytes as its last member.
    fn with_contract(&self, doc: &Document, built: &BuiltAgainst) -> Arc<[u8]> {
        let contract = self.contract.get_or_init(|| doc.to_compact_json());
        let head = answer_head(doc, built, false);
        let mut out = Vec::with_capacity(256 + contract.len());
        // Cannot fail: a Value into memory.
        let _ = serde_json::to_writer(&mut out, &head);
        out.pop(); // the head's closing `}`
        out.extend_from_slice(br#","contract":"#);
        out.extend_from_slice(contract);
        out.push(b'}');
        Arc::from(out)
    }
}
