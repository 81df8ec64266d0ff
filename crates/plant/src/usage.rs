//! Usage counting (docs/usage.md): what the plant's callers use, counted per namespace and
//! method, exposed as OpenMetrics text on a metrics path of the plant's HTTP server, so that
//! `accord usage` and `accord check --usage` can prove a deprecated method or param unused
//! before it is removed (the seed's "you will not be allowed to delete a version you cannot
//! prove is unused").
//!
//! Every label set is bounded by the contract or by a constant: namespace, method, member and
//! error code come from the contract; the credential state and the describe answer are a few
//! words; a declared version is a version string a caller sent, of which at most
//! [`MAX_VERSIONS`] distinct ones are kept per namespace (later ones count as `other`). No
//! caller id, token, param value or unknown member name is ever a label.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use accord_schema_model::{Document, Field, TypeKind, TypeNode};
use accord_wire::Access;
use accord_wire::describe::BuiltAgainst;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use serde_json::Value;

/// The metric names, as `accord usage` queries them (the exposition appends `_total` to a
/// counter's name). docs/usage.md is their reference.
pub mod names {
    /// Calls of a contract method by a caller with full access, by the version it declared.
    pub const CALLS: &str = "accord_calls_total";
    /// `rpc.describe` calls, by the version the caller declared and the answer it got.
    pub const DESCRIBE: &str = "accord_describe_total";
    /// HTTP requests and WebSocket upgrades, by credential state.
    pub const REQUESTS: &str = "accord_requests_total";
    /// Calls whose params carried a deprecated param or field, by member.
    pub const DEPRECATED_USES: &str = "accord_deprecated_uses_total";
    /// Calls whose by-name params carried a member the contract does not name.
    pub const UNKNOWN_PARAMS: &str = "accord_unknown_params_total";
    /// Declared errors answered, by code.
    pub const DECLARED_ERRORS: &str = "accord_declared_errors_total";
    /// 1 for each deprecated method, param and field the served contract has.
    pub const DEPRECATED: &str = "accord_deprecated";
    /// Seconds since the plant started counting, set at each scrape.
    pub const UPTIME: &str = "accord_plant_uptime_seconds";
    /// The label value of a call by a caller that declared no version.
    pub const UNDECLARED: &str = "undeclared";
    /// The label value of a declared version past [`super::MAX_VERSIONS`].
    pub const OTHER: &str = "other";
    /// The `member` label of a deprecated method itself.
    pub const METHOD_MEMBER: &str = "method";
}

/// The most distinct declared versions labelled per namespace; later ones count as `other`.
pub const MAX_VERSIONS: usize = 64;

/// How deep a deprecated field is looked for inside params (through objects, arrays and refs).
const MAX_MEMBER_DEPTH: usize = 8;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    namespace: String,
    method: String,
    declared_version: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DescribeLabels {
    namespace: String,
    declared_version: String,
    answer: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CredentialLabels {
    credential: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MemberLabels {
    namespace: String,
    method: String,
    member: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MethodLabels {
    namespace: String,
    method: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    namespace: String,
    method: String,
    code: String,
}

/// The versions a caller declared with `rpc.describe`'s `builtAgainst`, as label values, kept
/// for the rest of its connection (a WebSocket) or message (an HTTP batch): its later calls
/// are counted under them.
#[derive(Debug, Default, Clone)]
pub struct Declared(Vec<(String, String)>);

impl Declared {
    /// The version declared for `namespace`, or `undeclared`.
    fn of(&self, namespace: &str) -> &str {
        self.0.iter().find(|(n, _)| n == namespace).map_or(names::UNDECLARED, |(_, v)| v)
    }
}

/// A method's counters and what of its params to look at.
#[derive(Debug, Clone)]
pub(crate) struct MethodUsage {
    namespace: String,
    method: String,
    /// Its calls by callers that declared no version: the common case, one atomic add.
    undeclared: Counter,
    /// Whether a call's params must be looked at (a deprecated param or field, by-name params
    /// whose unknown members are counted).
    inspect: bool,
    /// Whether a deprecated param or field can arrive in its params.
    has_deprecated: bool,
    /// Its params' names, for unknown by-name members.
    params: Vec<String>,
}

/// The plant's counters.
pub(crate) struct Usage {
    registry: Registry,
    started: Instant,
    uptime: Gauge<f64, AtomicU64>,
    calls: Family<CallLabels, Counter>,
    describe: Family<DescribeLabels, Counter>,
    requests: Family<CredentialLabels, Counter>,
    deprecated_uses: Family<MemberLabels, Counter>,
    unknown_params: Family<MethodLabels, Counter>,
    errors: Family<ErrorLabels, Counter>,
    /// The declared versions seen per namespace, up to [`MAX_VERSIONS`] each.
    versions: Mutex<HashMap<String, HashSet<String>>>,
}

impl std::fmt::Debug for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Usage").finish_non_exhaustive()
    }
}

impl Usage {
    /// The counters of `doc`: every contract method's undeclared call count starts at 0, so a
    /// method nobody calls is a series that stays 0 (not a missing one), and every deprecated
    /// member of the contract is a gauge of 1.
    pub(crate) fn new(doc: &Document) -> Usage {
        let mut registry = Registry::default();
        let uptime = Gauge::<f64, AtomicU64>::default();
        let calls = Family::<CallLabels, Counter>::default();
        let describe = Family::<DescribeLabels, Counter>::default();
        let requests = Family::<CredentialLabels, Counter>::default();
        let deprecated_uses = Family::<MemberLabels, Counter>::default();
        let unknown_params = Family::<MethodLabels, Counter>::default();
        let errors = Family::<ErrorLabels, Counter>::default();
        let deprecated = Family::<MemberLabels, Gauge>::default();
        registry.register(
            "accord_plant_uptime_seconds",
            "Seconds since the plant started counting, at this scrape",
            uptime.clone(),
        );
        registry.register(
            "accord_calls",
            "Calls of a contract method by callers with full access, by the contract version the caller declared",
            calls.clone(),
        );
        registry.register(
            "accord_describe",
            "rpc.describe calls, by the contract version the caller declared and the answer (full or reduced)",
            describe.clone(),
        );
        registry.register(
            "accord_requests",
            "HTTP requests and WebSocket upgrades, by credential state (none, absent, valid, wrong)",
            requests.clone(),
        );
        registry.register(
            "accord_deprecated_uses",
            "Calls whose params carried a deprecated param or field",
            deprecated_uses.clone(),
        );
        registry.register(
            "accord_unknown_params",
            "Calls whose by-name params carried a member the contract does not name",
            unknown_params.clone(),
        );
        registry.register(
            "accord_declared_errors",
            "Declared errors the plant answered, by code",
            errors.clone(),
        );
        registry.register(
            "accord_deprecated",
            "1 for each deprecated method, param and field of the served contract",
            deprecated.clone(),
        );
        for (ns, namespace) in doc.namespaces.iter().flatten() {
            for (name, method) in namespace.methods.iter().flatten() {
                let labels = |member: String| MemberLabels {
                    namespace: ns.clone(),
                    method: name.clone(),
                    member,
                };
                if method.deprecated.is_some() {
                    deprecated.get_or_create(&labels(names::METHOD_MEMBER.to_owned())).set(1);
                }
                for param in method.params.iter().flatten() {
                    let at = format!("params.{}", param.name);
                    deprecated_members(doc, ns, &param.field, None, &at, 0, &mut |member| {
                        deprecated.get_or_create(&labels(member)).set(1);
                    });
                }
            }
        }
        Usage {
            registry,
            started: Instant::now(),
            uptime,
            calls,
            describe,
            requests,
            deprecated_uses,
            unknown_params,
            errors,
            versions: Mutex::new(HashMap::new()),
        }
    }

    /// The counters of one method (its undeclared calls created at 0).
    pub(crate) fn method(&self, doc: &Document, ns: &str, name: &str) -> MethodUsage {
        let undeclared = self
            .calls
            .get_or_create(&CallLabels {
                namespace: ns.to_owned(),
                method: name.to_owned(),
                declared_version: names::UNDECLARED.to_owned(),
            })
            .clone();
        let method = doc
            .namespaces
            .as_ref()
            .and_then(|n| n.get(ns))
            .and_then(|n| n.methods.as_ref())
            .and_then(|m| m.get(name));
        let params: Vec<String> = method
            .into_iter()
            .flat_map(|m| m.params.iter().flatten())
            .map(|p| p.name.clone())
            .collect();
        let mut has_deprecated = false;
        for param in method.into_iter().flat_map(|m| m.params.iter().flatten()) {
            deprecated_members(doc, ns, &param.field, None, "", 0, &mut |_| has_deprecated = true);
        }
        MethodUsage {
            namespace: ns.to_owned(),
            method: name.to_owned(),
            undeclared,
            // Unknown by-name members are looked for on every method with params.
            inspect: has_deprecated || !params.is_empty(),
            has_deprecated,
            params,
        }
    }

    /// Counts a request's credential state.
    pub(crate) fn request(&self, access: Access, has_credential: bool) {
        let credential = match access {
            Access::Full if !has_credential => "none",
            Access::Full => "valid",
            Access::Reduced => "absent",
            Access::Refused => "wrong",
        };
        self.requests.get_or_create(&CredentialLabels { credential }).inc();
    }

    /// Counts a call of `method` by a caller that declared `declared`.
    pub(crate) fn call(&self, method: &MethodUsage, declared: Option<&Declared>) {
        match declared.map(|d| d.of(&method.namespace)) {
            None | Some(names::UNDECLARED) => {
                method.undeclared.inc();
            }
            Some(version) => {
                self.calls
                    .get_or_create(&CallLabels {
                        namespace: method.namespace.clone(),
                        method: method.method.clone(),
                        declared_version: version.to_owned(),
                    })
                    .inc();
            }
        }
    }

    /// Whether a call of `method` must have its params looked at ([`Usage::params`]).
    pub(crate) fn inspects(method: &MethodUsage) -> bool {
        method.inspect
    }

    /// Counts what a call's params carry: deprecated params and fields, unknown by-name
    /// members.
    pub(crate) fn params(&self, doc: &Document, method: &MethodUsage, params: Option<&Value>) {
        let Some(params) = params else { return };
        let decl = doc
            .namespaces
            .as_ref()
            .and_then(|n| n.get(&method.namespace))
            .and_then(|n| n.methods.as_ref())
            .and_then(|m| m.get(&method.method));
        let Some(decl) = decl else { return };
        let declared: Vec<_> = decl.params.iter().flatten().collect();
        let mut hit = |member: String| {
            self.deprecated_uses
                .get_or_create(&MemberLabels {
                    namespace: method.namespace.clone(),
                    method: method.method.clone(),
                    member,
                })
                .inc();
        };
        match params {
            Value::Object(members) => {
                let mut unknown = false;
                for (name, value) in members {
                    match declared.iter().find(|p| &p.name == name) {
                        Some(param) => deprecated_members(
                            doc,
                            &method.namespace,
                            &param.field,
                            Some(value),
                            &format!("params.{name}"),
                            0,
                            &mut hit,
                        ),
                        None => unknown = true,
                    }
                }
                if unknown {
                    self.unknown_params
                        .get_or_create(&MethodLabels {
                            namespace: method.namespace.clone(),
                            method: method.method.clone(),
                        })
                        .inc();
                }
            }
            Value::Array(items) => {
                for (param, value) in declared.iter().zip(items) {
                    let at = format!("params.{}", param.name);
                    deprecated_members(
                        doc,
                        &method.namespace,
                        &param.field,
                        Some(value),
                        &at,
                        0,
                        &mut hit,
                    );
                }
            }
            _ => {}
        }
    }

    /// [`Usage::params`] of params given as JSON text (checked already). Only the member names
    /// of by-name params are read, unless a deprecated member can arrive in them.
    pub(crate) fn params_bytes(&self, doc: &Document, method: &MethodUsage, params: &[u8]) {
        if method.has_deprecated {
            if let Ok(value) = serde_json::from_slice::<Value>(params) {
                self.params(doc, method, Some(&value));
            }
            return;
        }
        if params.first() != Some(&b'{') {
            return;
        }
        let names = KnownNames(&method.params);
        let mut de = serde_json::Deserializer::from_slice(params);
        if let Ok(true) = serde::de::DeserializeSeed::deserialize(names, &mut de) {
            self.unknown_params
                .get_or_create(&MethodLabels {
                    namespace: method.namespace.clone(),
                    method: method.method.clone(),
                })
                .inc();
        }
    }

    /// Counts a describe call: one per namespace the caller declared (or per served
    /// namespace, `undeclared`, when it declared none), and remembers the declared versions
    /// for the caller's later calls.
    pub(crate) fn describe(
        &self,
        doc: &Document,
        built: &BuiltAgainst,
        reduced: bool,
        declared: Option<&mut Declared>,
    ) {
        let answer = if reduced { "reduced" } else { "full" };
        let mut labelled = Vec::with_capacity(built.len());
        for (namespace, version) in built {
            // A namespace the plant does not serve is not a label: its name is the caller's.
            if !doc.namespaces.as_ref().is_some_and(|n| n.contains_key(namespace)) {
                continue;
            }
            let version = self.bounded(namespace, &version.to_string());
            labelled.push((namespace.clone(), version));
        }
        if built.is_empty() {
            for namespace in doc.namespaces.iter().flatten().map(|(n, _)| n) {
                self.describe
                    .get_or_create(&DescribeLabels {
                        namespace: namespace.clone(),
                        declared_version: names::UNDECLARED.to_owned(),
                        answer,
                    })
                    .inc();
            }
        }
        for (namespace, version) in &labelled {
            self.describe
                .get_or_create(&DescribeLabels {
                    namespace: namespace.clone(),
                    declared_version: version.clone(),
                    answer,
                })
                .inc();
        }
        if let Some(declared) = declared {
            for (namespace, version) in labelled {
                declared.0.retain(|(n, _)| *n != namespace);
                declared.0.push((namespace, version));
            }
        }
    }

    /// `version` as a label value: itself while the namespace has fewer than
    /// [`MAX_VERSIONS`] distinct ones, else `other`.
    fn bounded(&self, namespace: &str, version: &str) -> String {
        let Ok(mut seen) = self.versions.lock() else { return names::OTHER.to_owned() };
        let seen = seen.entry(namespace.to_owned()).or_default();
        if seen.contains(version) || seen.len() < MAX_VERSIONS {
            seen.insert(version.to_owned());
            version.to_owned()
        } else {
            names::OTHER.to_owned()
        }
    }

    /// Counts a declared error answered by `method`.
    pub(crate) fn declared_error(&self, qualified: &str, code: i64) {
        let (namespace, method) = qualified.split_once('.').unwrap_or((qualified, ""));
        self.errors
            .get_or_create(&ErrorLabels {
                namespace: namespace.to_owned(),
                method: method.to_owned(),
                code: code.to_string(),
            })
            .inc();
    }

    /// The OpenMetrics text of every counter, the uptime set first.
    pub(crate) fn encode(&self) -> String {
        self.uptime.set(self.started.elapsed().as_secs_f64());
        let mut out = String::with_capacity(4096);
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// Reads an object's member names only (values skipped): whether one is not among the names.
struct KnownNames<'n>(&'n [String]);

impl<'de> serde::de::DeserializeSeed<'de> for KnownNames<'_> {
    type Value = bool;

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<bool, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KnownNames<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut unknown = false;
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            unknown |= !self.0.iter().any(|n| *n == name);
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(unknown)
    }
}

/// Calls `hit` with the path of each deprecated param or field at or below `field` (`at` is its
/// own path): those `value` carries, or, with no value, every one its type has.
fn deprecated_members(
    doc: &Document,
    ns: &str,
    field: &Field,
    value: Option<&Value>,
    at: &str,
    depth: usize,
    hit: &mut dyn FnMut(String),
) {
    if field.deprecated.is_some() {
        hit(at.to_owned());
    }
    deprecated_in_type(doc, ns, &field.ty, value, at, depth, hit);
}

fn deprecated_in_type(
    doc: &Document,
    ns: &str,
    ty: &TypeNode,
    value: Option<&Value>,
    at: &str,
    depth: usize,
    hit: &mut dyn FnMut(String),
) {
    if depth >= MAX_MEMBER_DEPTH {
        return;
    }
    match (&ty.kind, value) {
        (TypeKind::Object(object), None | Some(Value::Object(_))) => {
            for (name, field) in object.fields.iter().flatten() {
                let member = match value {
                    None => None,
                    Some(v) => match v.get(name) {
                        Some(member) => Some(member),
                        None => continue,
                    },
                };
                let at = format!("{at}.{name}");
                deprecated_members(doc, ns, field, member, &at, depth + 1, hit);
            }
        }
        (TypeKind::Array(array), None) => {
            deprecated_in_type(doc, ns, &array.items, None, at, depth + 1, hit);
        }
        (TypeKind::Array(array), Some(Value::Array(items))) => {
            // One count per call, not per item: the first item that carries it says so.
            let mut seen = HashSet::new();
            for item in items {
                deprecated_in_type(doc, ns, &array.items, Some(item), at, depth + 1, &mut |m| {
                    seen.insert(m);
                });
            }
            seen.into_iter().for_each(&mut *hit);
        }
        (TypeKind::Ref(r), _) => {
            if let Some((ns, _, target)) = doc.named(ns, r) {
                deprecated_in_type(doc, ns, target, value, at, depth + 1, hit);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A deprecated field inside a named type reached through an array, and a deprecated param.
    const CONTRACT: &str = r#"{"schema": 1, "namespaces": {"tank": {"version": "1.0.0",
      "types": {"Reading": {"kind": "object", "fields": {
        "value": {"type": {"kind": "number"}},
        "raw": {"type": {"kind": "integer"}, "optional": true, "deprecated": "use value"}}}},
      "methods": {"ingest": {"semantics": "write", "paramStructure": "by-name", "params": [
        {"name": "readings", "type": {"kind": "array", "items": {"kind": "ref", "name": "Reading"}}},
        {"name": "site", "type": {"kind": "string"}, "optional": true, "deprecated": true}],
        "result": {"kind": "null"}}}}}}"#;

    #[test]
    fn deprecated_members_are_found_through_refs_and_arrays_and_counted_once_per_call() {
        let doc = Document::parse(CONTRACT).unwrap();
        let usage = Usage::new(&doc);
        let method = usage.method(&doc, "tank", "ingest");
        assert!(method.has_deprecated);
        let params =
            json!({"readings": [{"value": 1, "raw": 7}, {"value": 2, "raw": 8}, {"value": 3}]});
        usage.params(&doc, &method, Some(&params));
        usage.params(&doc, &method, Some(&json!({"readings": [], "site": "north", "sitee": 1})));
        // By position: the second param is `site`.
        usage.params(&doc, &method, Some(&json!([[], "south"])));
        let text = usage.encode();
        let line = |series: &str| {
            text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')).map(str::to_owned)
        };
        let uses = r#"accord_deprecated_uses_total{namespace="tank",method="ingest",member="#;
        assert_eq!(
            line(&format!(r#"{uses}"params.readings.raw"}}"#)).as_deref(),
            Some("1"),
            "{text}"
        );
        assert_eq!(line(&format!(r#"{uses}"params.site"}}"#)).as_deref(), Some("2"), "{text}");
        assert_eq!(
            line(r#"accord_unknown_params_total{namespace="tank",method="ingest"}"#).as_deref(),
            Some("1")
        );
        for member in ["params.readings.raw", "params.site"] {
            let gauge = format!(
                r#"accord_deprecated{{namespace="tank",method="ingest",member="{member}"}}"#
            );
            assert_eq!(line(&gauge).as_deref(), Some("1"), "{text}");
        }
    }

    #[test]
    fn declared_versions_past_the_bound_are_other() {
        let doc = Document::parse(CONTRACT).unwrap();
        let usage = Usage::new(&doc);
        let mut declared = Declared::default();
        for minor in 0..=MAX_VERSIONS {
            let params = json!({"builtAgainst": {"tank": format!("1.{minor}.0")}});
            let built = accord_wire::describe::read_params(Some(&params)).unwrap();
            usage.describe(&doc, &built, false, Some(&mut declared));
        }
        assert_eq!(declared.of("tank"), names::OTHER);
        let text = usage.encode();
        let versions = text.lines().filter(|l| l.starts_with("accord_describe_total{")).count();
        assert_eq!(versions, MAX_VERSIONS + 1, "{text}");
        // A namespace the plant does not serve is not a label.
        let params = json!({"builtAgainst": {"elsewhere": "1.0.0"}});
        let built = accord_wire::describe::read_params(Some(&params)).unwrap();
        usage.describe(&doc, &built, true, None);
        assert!(!usage.encode().contains("elsewhere"));
    }
}
