//! Usage counting (docs/usage.md): what the plant's callers use, counted per namespace and
//! method, exposed as OpenMetrics text on a metrics path of the plant's HTTP server, so that
//! `accord usage` and `accord check --usage` can prove a deprecated method or param unused
//! before it is removed (the seed's "you will not be allowed to delete a version you cannot
//! prove is unused").
//!
//! Every label set is bounded by the contract or by a constant: namespace, method, member,
//! named type, field and error code come from the contract, and an enum value is one the
//! contract lists or `other`; the credential state and the describe answer are a few words; a
//! declared version is a version string a caller sent, of which at most [`MAX_VERSIONS`]
//! distinct ones are kept per namespace (later ones count as `other`). No caller id, token,
//! param value the contract does not list or unknown member name is ever a label.

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
    /// Calls whose params carried a deprecated field of a named type, by type and field.
    pub const DEPRECATED_FIELD_USES: &str = "accord_deprecated_field_uses_total";
    /// 1 for each deprecated field of a named type the params of a served method reach.
    pub const DEPRECATED_FIELD: &str = "accord_deprecated_field";
    /// Calls whose params carried an enum value, by member and value.
    pub const ENUM_VALUES: &str = "accord_enum_values_total";
    /// Calls whose params carried an enum value in a named type, by type, field and value.
    pub const ENUM_FIELD_VALUES: &str = "accord_enum_field_values_total";
    /// The `value` label of an enum value the contract does not list.
    pub const OTHER_VALUE: &str = "other";
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
struct FieldLabels {
    namespace: String,
    r#type: String,
    field: String,
}

impl FieldLabels {
    fn of(field: TypeField) -> FieldLabels {
        FieldLabels { namespace: field.namespace, r#type: field.name, field: field.field }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ValueLabels {
    namespace: String,
    method: String,
    member: String,
    value: String,
}

impl ValueLabels {
    fn of(namespace: &str, method: &str, member: String, value: String) -> ValueLabels {
        ValueLabels { namespace: namespace.to_owned(), method: method.to_owned(), member, value }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FieldValueLabels {
    namespace: String,
    r#type: String,
    field: String,
    value: String,
}

impl FieldValueLabels {
    fn of(field: TypeField, value: String) -> FieldValueLabels {
        FieldValueLabels {
            namespace: field.namespace,
            r#type: field.name,
            field: field.field,
            value,
        }
    }
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
    /// Whether a deprecated param or field, or an enum value below a param, can arrive in its
    /// params: then they are parsed and walked whole.
    has_deprecated: bool,
    /// Its params' names, for unknown by-name members.
    params: Vec<String>,
    /// Its params that are themselves an enum (directly or through refs), counted on the
    /// short path when nothing else in the params is counted: no parse of the whole params, no
    /// label built per call.
    enums: Vec<EnumParam>,
}

/// A param that is an enum: its position and name, and for each listed value (and any other
/// value) the counters a call that sends it adds one to (by member, and by named type when the
/// enum is one).
#[derive(Debug, Clone)]
struct EnumParam {
    position: usize,
    name: String,
    values: Vec<(Value, Vec<Counter>)>,
    other: Vec<Counter>,
}

impl EnumParam {
    fn count(&self, value: &Value) {
        let counters = self.values.iter().find(|(v, _)| v == value).map_or(&self.other, |(_, c)| c);
        counters.iter().for_each(|c| {
            c.inc();
        });
    }
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
    deprecated_field_uses: Family<FieldLabels, Counter>,
    enum_values: Family<ValueLabels, Counter>,
    field_values: Family<FieldValueLabels, Counter>,
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
        let deprecated_field_uses = Family::<FieldLabels, Counter>::default();
        let deprecated_fields = Family::<FieldLabels, Gauge>::default();
        let enum_values = Family::<ValueLabels, Counter>::default();
        let field_values = Family::<FieldValueLabels, Counter>::default();
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
            "accord_deprecated_field_uses",
            "Calls whose params carried a deprecated field of a named type, wherever in them",
            deprecated_field_uses.clone(),
        );
        registry.register(
            "accord_enum_values",
            "Calls whose params carried an enum value (a listed one, or other), by member",
            enum_values.clone(),
        );
        registry.register(
            "accord_enum_field_values",
            "Calls whose params carried an enum value (a listed one, or other) in a named type, by type and field",
            field_values.clone(),
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
        registry.register(
            "accord_deprecated_field",
            "1 for each deprecated field of a named type that the params of a served method reach",
            deprecated_fields.clone(),
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
                let params: Vec<_> = method.params.iter().flatten().collect();
                deprecated_in_params(doc, ns, &params, None, &mut |hit| match hit.value {
                    // Every value an enum in params can have is a series from the start, at
                    // 0: a value nobody sends reads 0, not missing.
                    Some(value) => {
                        if let Some(member) = hit.member {
                            let labels = ValueLabels::of(ns, name, member, value.clone());
                            let _ = enum_values.get_or_create(&labels);
                        }
                        if let Some(field) = hit.field {
                            let _ = field_values.get_or_create(&FieldValueLabels::of(field, value));
                        }
                    }
                    None => {
                        if let Some(member) = hit.member {
                            deprecated.get_or_create(&labels(member)).set(1);
                        }
                        if let Some(field) = hit.field {
                            deprecated_fields.get_or_create(&FieldLabels::of(field)).set(1);
                        }
                    }
                });
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
            deprecated_field_uses,
            enum_values,
            field_values,
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
        let declared: Vec<_> = method.into_iter().flat_map(|m| m.params.iter().flatten()).collect();
        // Params that are an enum themselves (and not deprecated) are counted on the short
        // path; anything else counted below a param needs the whole walk.
        let mut enums = Vec::new();
        let mut has_deprecated = false;
        for (position, param) in declared.iter().enumerate() {
            match self.enum_param(doc, ns, name, position, param) {
                Some(e) => enums.push(e),
                None => deprecated_in_params(doc, ns, &[param], None, &mut |_| {
                    has_deprecated = true;
                }),
            }
        }
        if has_deprecated {
            // The whole walk counts these too.
            enums.clear();
        }
        MethodUsage {
            namespace: ns.to_owned(),
            method: name.to_owned(),
            undeclared,
            // Unknown by-name members are looked for on every method with params.
            inspect: has_deprecated || !params.is_empty(),
            has_deprecated,
            params,
            enums,
        }
    }

    /// The enum param `param` of `ns.method`, when it is an enum itself (through refs) and not
    /// deprecated, with the counters each of its values adds to.
    fn enum_param(
        &self,
        doc: &Document,
        ns: &str,
        method: &str,
        position: usize,
        param: &accord_schema_model::Param,
    ) -> Option<EnumParam> {
        if param.field.deprecated.is_some() {
            return None;
        }
        let (mut node, mut at, mut named) = (&param.field.ty, ns.to_owned(), None);
        for _ in 0..MAX_MEMBER_DEPTH {
            let TypeKind::Ref(r) = &node.kind else { break };
            let (tns, _, target) = doc.named(&at, r)?;
            let tns = tns.to_owned();
            named = Some((tns.clone(), r.name.clone()));
            (node, at) = (target, tns);
        }
        let TypeKind::Enum(e) = &node.kind else { return None };
        let member = format!("params.{}", param.name);
        let counters = |value: String| {
            let mut counters = vec![
                self.enum_values
                    .get_or_create(&ValueLabels::of(ns, method, member.clone(), value.clone()))
                    .clone(),
            ];
            if let Some((tns, tname)) = &named {
                let field =
                    TypeField { namespace: tns.clone(), name: tname.clone(), field: String::new() };
                counters.push(
                    self.field_values.get_or_create(&FieldValueLabels::of(field, value)).clone(),
                );
            }
            counters
        };
        Some(EnumParam {
            position,
            name: param.name.clone(),
            values: e.values.iter().map(|v| (v.clone(), counters(value_label(v)))).collect(),
            other: counters(names::OTHER_VALUE.to_owned()),
        })
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
        // Each member and field once per call, however often the call carries it.
        let mut members: HashSet<String> = HashSet::new();
        let mut fields: HashSet<TypeField> = HashSet::new();
        let mut values: HashSet<(String, String)> = HashSet::new();
        let mut field_values: HashSet<(TypeField, String)> = HashSet::new();
        if method.has_deprecated {
            deprecated_in_params(doc, &method.namespace, &declared, Some(params), &mut |hit| {
                match hit.value {
                    Some(value) => {
                        if let Some(member) = hit.member {
                            values.insert((member, value.clone()));
                        }
                        if let Some(field) = hit.field {
                            field_values.insert((field, value));
                        }
                    }
                    None => {
                        members.extend(hit.member);
                        fields.extend(hit.field);
                    }
                }
            });
        }
        for e in &method.enums {
            let sent = match params {
                Value::Object(members) => members.get(&e.name),
                Value::Array(items) => items.get(e.position),
                _ => None,
            };
            if let Some(v) = sent {
                e.count(v);
            }
        }
        for (member, value) in values {
            let labels = ValueLabels::of(&method.namespace, &method.method, member, value);
            self.enum_values.get_or_create(&labels).inc();
        }
        for (field, value) in field_values {
            self.field_values.get_or_create(&FieldValueLabels::of(field, value)).inc();
        }
        for member in members {
            self.deprecated_uses
                .get_or_create(&MemberLabels {
                    namespace: method.namespace.clone(),
                    method: method.method.clone(),
                    member,
                })
                .inc();
        }
        for field in fields {
            self.deprecated_field_uses.get_or_create(&FieldLabels::of(field)).inc();
        }
        if let Value::Object(members) = params
            && members.keys().any(|name| !declared.iter().any(|p| &p.name == name))
        {
            self.unknown_params
                .get_or_create(&MethodLabels {
                    namespace: method.namespace.clone(),
                    method: method.method.clone(),
                })
                .inc();
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
        let mut de = serde_json::Deserializer::from_slice(params);
        if params.first() == Some(&b'[') {
            if !method.enums.is_empty() {
                let _ = serde::de::DeserializeSeed::deserialize(Positional(&method.enums), &mut de);
            }
            return;
        }
        if params.first() != Some(&b'{') {
            return;
        }
        let names = KnownNames(&method.params, &method.enums);
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

/// Reads an object's member names (values skipped, but for the enum params', which are
/// counted): whether one is not among the names.
struct KnownNames<'n>(&'n [String], &'n [EnumParam]);

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
            match self.1.iter().find(|e| e.name == name) {
                Some(e) => e.count(&map.next_value::<Value>()?),
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(unknown)
    }
}

/// Reads by-position params, counting the values of the enum params (the rest skipped).
struct Positional<'n>(&'n [EnumParam]);

impl<'de> serde::de::DeserializeSeed<'de> for Positional<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Positional<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut position = 0;
        loop {
            match self.0.iter().find(|e| e.position == position) {
                Some(e) => match seq.next_element::<Value>()? {
                    Some(v) => e.count(&v),
                    None => return Ok(()),
                },
                None => {
                    if seq.next_element::<serde::de::IgnoredAny>()?.is_none() {
                        return Ok(());
                    }
                }
            }
            position += 1;
        }
    }
}

/// A deprecated param or field a walk of params found.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Hit {
    /// Its path below the method (`params.config.mode`), while it is at most
    /// [`MAX_MEMBER_DEPTH`] deep (a label per path: deeper ones are not labelled).
    member: Option<String>,
    /// The named type it is a field of, and its path below that type (`Config`, `mode`):
    /// found at any depth, since the label is bounded by the contract however deep the value.
    field: Option<TypeField>,
    /// For an enum's value, not a deprecated member: the value as a label (a listed value,
    /// a string as itself, or [`names::OTHER_VALUE`]).
    value: Option<String>,
}

/// A field of a named type: namespace, type name, path below the type (arrays, unions and
/// maps leave no step in it: `Reading`, `samples.raw`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TypeField {
    namespace: String,
    name: String,
    field: String,
}

/// How far a walk goes at all: a value is at most the parser's depth deep (128), and a chain of
/// refs or unions that never steps into the value is a degenerate type.
const MAX_WALK_DEPTH: usize = 512;

/// A walk of one method's params (or of their types alone, with no value) for deprecated params
/// and fields: through objects, arrays, tuples, maps, unions (every variant: a value that
/// several variants could be is counted for each, never missed) and refs.
struct Walk<'d, 'h> {
    doc: &'d Document,
    hit: &'h mut dyn FnMut(Hit),
    /// A walk of types alone, past [`MAX_MEMBER_DEPTH`]: the named types already gone into
    /// (once each is enough: only their fields are hits there, and a recursive type ends).
    expanded: HashSet<(String, String)>,
}

/// Where a walk stands: the member path while it is labelled, and the named type it is in
/// with the path below it.
#[derive(Clone)]
struct Place {
    member: Option<String>,
    within: Option<TypeField>,
}

impl Place {
    fn param(name: &str) -> Place {
        Place { member: Some(format!("params.{name}")), within: None }
    }

    /// The place of a field `name` below this one.
    fn field(&self, name: &str, depth: usize) -> Place {
        let member = match &self.member {
            Some(m) if depth < MAX_MEMBER_DEPTH => Some(format!("{m}.{name}")),
            _ => None,
        };
        let within = self.within.as_ref().map(|w| TypeField {
            field: if w.field.is_empty() { name.to_owned() } else { format!("{}.{name}", w.field) },
            ..w.clone()
        });
        Place { member, within }
    }
}

impl Walk<'_, '_> {
    /// Calls `hit` for each deprecated param or field at or below `field` (at `place`): those
    /// `value` carries, or, with no value, every one its type has.
    fn field(
        &mut self,
        ns: &str,
        field: &Field,
        value: Option<&Value>,
        place: &Place,
        depth: usize,
    ) {
        if field.deprecated.is_some() && (place.member.is_some() || place.within.is_some()) {
            (self.hit)(Hit {
                member: place.member.clone(),
                field: place.within.clone(),
                value: None,
            });
        }
        self.ty(ns, &field.ty, value, place, depth);
    }

    fn ty(&mut self, ns: &str, ty: &TypeNode, value: Option<&Value>, place: &Place, depth: usize) {
        if depth >= MAX_WALK_DEPTH {
            return;
        }
        let next = depth + 1;
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
                    self.field(ns, field, member, &place.field(name, depth), next);
                }
            }
            (TypeKind::Array(array), None) => self.ty(ns, &array.items, None, place, next),
            (TypeKind::Array(array), Some(Value::Array(items))) => {
                for item in items {
                    self.ty(ns, &array.items, Some(item), place, next);
                }
            }
            (TypeKind::Tuple(tuple), None) => {
                for element in &tuple.elements {
                    self.ty(ns, element, None, place, next);
                }
            }
            (TypeKind::Tuple(tuple), Some(Value::Array(items))) => {
                for (element, item) in tuple.elements.iter().zip(items) {
                    self.ty(ns, element, Some(item), place, next);
                }
            }
            (TypeKind::Map(map), None) => self.ty(ns, &map.values, None, place, next),
            (TypeKind::Map(map), Some(Value::Object(members))) => {
                for member in members.values() {
                    self.ty(ns, &map.values, Some(member), place, next);
                }
            }
            (TypeKind::Enum(e), _) if place.member.is_some() || place.within.is_some() => {
                let mut hit = |value: String| {
                    let (member, field) = (place.member.clone(), place.within.clone());
                    (self.hit)(Hit { member, field, value: Some(value) });
                };
                match value {
                    // Types alone: every series the enum can have.
                    None => {
                        e.values.iter().for_each(|v| hit(value_label(v)));
                        hit(names::OTHER_VALUE.to_owned());
                    }
                    Some(v) if e.values.contains(v) => hit(value_label(v)),
                    Some(_) => hit(names::OTHER_VALUE.to_owned()),
                }
            }
            (TypeKind::Union(union), _) => {
                for variant in &union.variants {
                    self.ty(ns, variant, value, place, next);
                }
            }
            (TypeKind::Ref(r), _) => {
                let Some((tns, _, target)) = self.doc.named(ns, r) else { return };
                let tns = tns.to_owned();
                if value.is_none()
                    && depth >= MAX_MEMBER_DEPTH
                    && !self.expanded.insert((tns.clone(), r.name.clone()))
                {
                    return;
                }
                let within = TypeField {
                    namespace: tns.clone(),
                    name: r.name.clone(),
                    field: String::new(),
                };
                let place = Place { member: place.member.clone(), within: Some(within) };
                self.ty(&tns, target, value, &place, next);
            }
            _ => {}
        }
    }
}

/// A listed enum value as a label: a string as itself, any other value as its JSON text.
fn value_label(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Calls `hit` for each deprecated param or field of `method`'s params that `params` carries
/// (by name or by position), or, with no params, every one its params' types have.
fn deprecated_in_params(
    doc: &Document,
    ns: &str,
    params: &[&accord_schema_model::Param],
    value: Option<&Value>,
    hit: &mut dyn FnMut(Hit),
) {
    let mut walk = Walk { doc, hit, expanded: HashSet::new() };
    match value {
        None => {
            for param in params {
                walk.field(ns, &param.field, None, &Place::param(&param.name), 0);
            }
        }
        Some(Value::Object(members)) => {
            for (name, value) in members {
                if let Some(param) = params.iter().find(|p| &p.name == name) {
                    walk.field(ns, &param.field, Some(value), &Place::param(name), 0);
                }
            }
        }
        Some(Value::Array(items)) => {
            for (param, value) in params.iter().zip(items) {
                walk.field(ns, &param.field, Some(value), &Place::param(&param.name), 0);
            }
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The value of the sample `series` (its name and labels as written) in an exposition text.
    fn sample(text: &str, series: &str) -> Option<String> {
        text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')).map(str::to_owned)
    }

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
        let line = |series: &str| sample(&text, series);
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
        // The named type's field, whichever method's params carry it.
        assert_eq!(
            line(
                r#"accord_deprecated_field_uses_total{namespace="tank",type="Reading",field="raw"}"#
            )
            .as_deref(),
            Some("1"),
            "{text}"
        );
        assert_eq!(
            line(r#"accord_deprecated_field{namespace="tank",type="Reading",field="raw"}"#)
                .as_deref(),
            Some("1"),
            "{text}"
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

    /// A recursive type reached through a nullable param (a union with null) and a map: its
    /// deprecated field is counted by type at any depth, by member path only while the path is
    /// at most eight deep.
    const TREE: &str = r#"{"schema": 1, "namespaces": {"tree": {"version": "1.0.0",
      "types": {"Node": {"kind": "object", "fields": {
        "label": {"type": {"kind": "string"}, "optional": true, "deprecated": "use name"},
        "child": {"type": {"kind": "ref", "name": "Node"}, "optional": true}}}},
      "methods": {"plant": {"semantics": "write", "paramStructure": "by-name", "params": [
        {"name": "root", "type": {"kind": "union", "variants": [{"kind": "ref", "name": "Node"}, {"kind": "null"}]}},
        {"name": "more", "type": {"kind": "map", "values": {"kind": "ref", "name": "Node"}}, "optional": true}],
        "result": {"kind": "null"}}}}}}"#;

    #[test]
    fn fields_of_named_types_are_counted_by_type_at_any_depth() {
        let doc = Document::parse(TREE).unwrap();
        let usage = Usage::new(&doc);
        let method = usage.method(&doc, "tree", "plant");
        assert!(method.has_deprecated);
        let mut deep = json!({"label": "leaf"});
        for _ in 0..12 {
            deep = json!({"child": deep});
        }
        usage.params(&doc, &method, Some(&json!({"root": deep})));
        usage.params(&doc, &method, Some(&json!({"root": null, "more": {"a": {"label": "x"}}})));
        usage.params(&doc, &method, Some(&json!({"root": {"child": {"label": "y"}}})));
        let text = usage.encode();
        let line = |series: &str| sample(&text, series);
        assert_eq!(
            line(
                r#"accord_deprecated_field_uses_total{namespace="tree",type="Node",field="label"}"#
            )
            .as_deref(),
            Some("3"),
            "{text}"
        );
        let uses = r#"accord_deprecated_uses_total{namespace="tree",method="plant",member="#;
        assert_eq!(
            line(&format!(r#"{uses}"params.more.label"}}"#)).as_deref(),
            Some("1"),
            "{text}"
        );
        assert_eq!(
            line(&format!(r#"{uses}"params.root.child.label"}}"#)).as_deref(),
            Some("1"),
            "{text}"
        );
        // Past eight steps the path is not a label; the type's count still has the call.
        assert!(
            text.lines()
                .filter(|l| l.starts_with("accord_deprecated_uses_total{"))
                .all(|l| l.split("member=\"").nth(1).is_some_and(|m| m.matches('.').count() <= 8)),
            "{text}"
        );
        assert_eq!(
            line(r#"accord_deprecated_field{namespace="tree",type="Node",field="label"}"#)
                .as_deref(),
            Some("1"),
            "{text}"
        );
    }

    /// An inline enum param and a named enum type inside a named type's field.
    const VALVE: &str = r#"{"schema": 1, "namespaces": {"valve": {"version": "1.0.0",
      "types": {"Mode": {"kind": "enum", "values": ["open", "shut", 3]},
        "Plan": {"kind": "object", "fields": {"mode": {"type": {"kind": "ref", "name": "Mode"}}}}},
      "methods": {"set": {"semantics": "write", "paramStructure": "by-name", "params": [
        {"name": "unit", "type": {"kind": "enum", "values": ["l/s", "m3/h"]}},
        {"name": "plan", "type": {"kind": "ref", "name": "Plan"}, "optional": true}],
        "result": {"kind": "null"}},
        "turn": {"semantics": "write", "params": [
        {"name": "valve", "type": {"kind": "string"}},
        {"name": "mode", "type": {"kind": "ref", "name": "Mode"}}],
        "result": {"kind": "null"}}}}}}"#;

    #[test]
    fn enum_values_in_params_are_counted_by_listed_value_or_other() {
        let doc = Document::parse(VALVE).unwrap();
        let usage = Usage::new(&doc);
        let method = usage.method(&doc, "valve", "set");
        assert!(method.has_deprecated, "an enum param makes the params walked");
        // Before any call: every listed value and `other` is a series at 0.
        let text = usage.encode();
        let line = sample;
        let unit = |v: &str| {
            format!(
                r#"accord_enum_values_total{{namespace="valve",method="set",member="params.unit",value="{v}"}}"#
            )
        };
        for v in ["l/s", "m3/h", "other"] {
            assert_eq!(line(&text, &unit(v)).as_deref(), Some("0"), "{v}: {text}");
        }
        usage.params(&doc, &method, Some(&json!({"unit": "l/s", "plan": {"mode": 3}})));
        usage.params(&doc, &method, Some(&json!({"unit": "gal/min", "plan": {"mode": "open"}})));
        usage.params(&doc, &method, Some(&json!(["l/s"])));
        let text = usage.encode();
        assert_eq!(line(&text, &unit("l/s")).as_deref(), Some("2"), "{text}");
        assert_eq!(line(&text, &unit("m3/h")).as_deref(), Some("0"), "{text}");
        assert_eq!(line(&text, &unit("other")).as_deref(), Some("1"), "{text}");
        // The named enum, by type (its own field path is empty) and its field in Plan; never
        // the value a caller sent that the contract does not list.
        let mode = |v: &str| {
            format!(
                r#"accord_enum_field_values_total{{namespace="valve",type="Mode",field="",value="{v}"}}"#
            )
        };
        assert_eq!(line(&text, &mode("3")).as_deref(), Some("1"), "{text}");
        assert_eq!(line(&text, &mode("open")).as_deref(), Some("1"), "{text}");
        assert_eq!(line(&text, &mode("shut")).as_deref(), Some("0"), "{text}");
        assert!(!text.contains("gal/min"), "{text}");
    }

    #[test]
    fn an_enum_param_is_counted_on_the_short_path_by_name_and_by_position() {
        let doc = Document::parse(VALVE).unwrap();
        let usage = Usage::new(&doc);
        let method = usage.method(&doc, "valve", "turn");
        assert!(!method.has_deprecated, "nothing below a param is counted: the short path");
        assert_eq!(method.enums.len(), 1);
        usage.params_bytes(&doc, &method, br#"{"valve": "V-1", "mode": "shut", "extra": 1}"#);
        usage.params_bytes(&doc, &method, br#"["V-1", 3]"#);
        usage.params_bytes(&doc, &method, br#"["V-1", "ajar"]"#);
        usage.params(&doc, &method, Some(&json!({"valve": "V-2", "mode": "shut"})));
        let text = usage.encode();
        let line = |series: &str| sample(&text, series);
        let mode = |v: &str| {
            format!(
                r#"accord_enum_values_total{{namespace="valve",method="turn",member="params.mode",value="{v}"}}"#
            )
        };
        assert_eq!(line(&mode("shut")).as_deref(), Some("2"), "{text}");
        assert_eq!(line(&mode("3")).as_deref(), Some("1"), "{text}");
        assert_eq!(line(&mode("other")).as_deref(), Some("1"), "{text}");
        assert_eq!(line(&mode("open")).as_deref(), Some("0"), "{text}");
        let by_type = r#"accord_enum_field_values_total{namespace="valve",type="Mode",field="",value="shut"}"#;
        assert_eq!(line(by_type).as_deref(), Some("2"), "{text}");
        assert_eq!(
            line(r#"accord_unknown_params_total{namespace="valve",method="turn"}"#).as_deref(),
            Some("1"),
            "{text}"
        );
        assert!(!text.contains("ajar"), "{text}");
    }
}
