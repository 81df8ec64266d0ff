//! The dialect a plant speaks: a document's `wire` sections (docs/format.md §15) resolved
//! against accord's own wire (docs/wire.md §11).
//!
//! A document without a `wire` section resolves to accord's dialect exactly: `ns.method` names,
//! `rpc.describe`, `rpc.subscribe`/`rpc.event`, and the codes of docs/wire.md §4. Every reader
//! that speaks to a plant or judges a contract's codes (serve, conform, lint, compat-diff, the
//! cli's value commands) asks the [`Dialect`] for names and codes instead of writing them down,
//! so that one contract is spoken the same way by all of them. It lives in the model, below
//! every reader, because lint and compat-diff need it as much as the wire does; it is pure
//! resolution, no reading of text and no IO.

use std::collections::{BTreeMap, HashMap};

use indexmap::IndexMap;
use serde_json::Value;

use crate::{DescribeMethod, Document, Error, ErrorKind, Namespace, Pointer, Wire};

/// The protocol's method names and error codes on accord's own wire (docs/wire.md §2, §4);
/// accord-wire re-exports them.
pub mod codes {
    /// `-32700`: the body or message is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// `-32600`: JSON, but not a request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// `-32601`: no such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// `-32602`: params do not match the method's params.
    pub const INVALID_PARAMS: i64 = -32602;
    /// `-32603`: the plant failed.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// `-32001`: no credential, and the method needs one.
    pub const CREDENTIAL_REQUIRED: i64 = -32001;
    /// `-32002`: a wrong credential.
    pub const CREDENTIAL_REFUSED: i64 = -32002;
    /// `-32003`: a limit was exceeded.
    pub const LIMIT_EXCEEDED: i64 = -32003;
    /// `-32004`: the method needs another transport (events need a WebSocket).
    pub const NOT_ON_TRANSPORT: i64 = -32004;
}

/// accord's describe method.
pub const ACCORD_DESCRIBE: &str = "rpc.describe";
/// accord's subscribe method.
pub const ACCORD_SUBSCRIBE: &str = "rpc.subscribe";
/// accord's unsubscribe method.
pub const ACCORD_UNSUBSCRIBE: &str = "rpc.unsubscribe";
/// The method name of accord's event notifications.
pub const ACCORD_NOTIFICATION: &str = "rpc.event";
/// The nesting limit accord's own wire promises (docs/wire.md §9).
pub const ACCORD_DEPTH_LIMIT: u64 = 128;

/// A built-in set of protocol codes (`wire.codes.profile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// accord's own codes (docs/wire.md §4).
    Accord,
    /// The Ethereum JSON-RPC codes of EIP-1474.
    Eip1474,
    /// jsonrpsee's defaults (jsonrpsee-types' `error.rs`).
    Jsonrpsee,
}

impl Profile {
    /// Every profile, in the order docs/format.md lists them.
    pub const ALL: [Profile; 3] = [Profile::Accord, Profile::Eip1474, Profile::Jsonrpsee];

    /// The profile's name in a contract.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Accord => "accord",
            Profile::Eip1474 => "eip-1474",
            Profile::Jsonrpsee => "jsonrpsee",
        }
    }

    /// The profile named `name`.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The profile's codes before a contract changes any.
    pub fn codes(self) -> ProtocolCodes {
        // JSON-RPC 2.0's own codes are every profile's.
        let mut reserved: BTreeMap<i64, String> = [
            (codes::PARSE_ERROR, "parse error"),
            (codes::INVALID_REQUEST, "invalid request"),
            (codes::METHOD_NOT_FOUND, "method not found"),
            (codes::INVALID_PARAMS, "invalid params"),
            (codes::INTERNAL_ERROR, "internal error"),
        ]
        .into_iter()
        .map(|(code, meaning)| (code, meaning.to_owned()))
        .collect();
        let mut add = |list: &[(i64, &str)]| {
            reserved.extend(list.iter().map(|(code, meaning)| (*code, (*meaning).to_owned())));
        };
        match self {
            Profile::Accord => {
                // `-32004` (not on this transport) is answered only to `rpc.subscribe` and
                // `rpc.unsubscribe`, never to a contract method, so a contract method may
                // declare it without ambiguity (docs/wire.md §4); the codes below can answer
                // any method.
                add(&[
                    (codes::CREDENTIAL_REQUIRED, "credential required"),
                    (codes::CREDENTIAL_REFUSED, "credential refused"),
                    (codes::LIMIT_EXCEEDED, "limit exceeded"),
                ]);
                ProtocolCodes {
                    profile: self,
                    method_not_found: vec![codes::METHOD_NOT_FOUND],
                    invalid_params: vec![codes::INVALID_PARAMS],
                    limit: codes::LIMIT_EXCEEDED,
                    credential_required: Some(codes::CREDENTIAL_REQUIRED),
                    credential_refused: Some(codes::CREDENTIAL_REFUSED),
                    reserved,
                }
            }
            Profile::Eip1474 => {
                add(&[
                    (-32000, "invalid input"),
                    (-32001, "resource not found"),
                    (-32002, "resource unavailable"),
                    (-32003, "transaction rejected"),
                    (-32004, "method not supported"),
                    (-32005, "limit exceeded"),
                    (-32006, "JSON-RPC version not supported"),
                ]);
                ProtocolCodes {
                    profile: self,
                    method_not_found: vec![codes::METHOD_NOT_FOUND, -32004],
                    invalid_params: vec![codes::INVALID_PARAMS, -32000],
                    limit: -32005,
                    credential_required: None,
                    credential_refused: None,
                    reserved,
                }
            }
            Profile::Jsonrpsee => {
                add(&[
                    (-32000, "call execution failed"),
                    (-32001, "unknown error"),
                    (-32005, "batches not supported"),
                    (-32006, "too many subscriptions on the connection"),
                    (-32007, "request is too big"),
                    (-32008, "response is too big"),
                    (-32009, "server is busy"),
                    (-32010, "the batch request was too large"),
                    (-32011, "the batch response was too large"),
                ]);
                ProtocolCodes {
                    profile: self,
                    method_not_found: vec![codes::METHOD_NOT_FOUND],
                    invalid_params: vec![codes::INVALID_PARAMS],
                    limit: -32007,
                    credential_required: None,
                    credential_refused: None,
                    reserved,
                }
            }
        }
    }
}

/// The codes of a plant's protocol errors.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProtocolCodes {
    /// The built-in set these started from.
    pub profile: Profile,
    /// The codes that mean "no such method"; never empty, the first is the one a fake sends.
    pub method_not_found: Vec<i64>,
    /// The codes that mean "invalid params"; never empty, the first is the one a fake sends.
    pub invalid_params: Vec<i64>,
    /// The code for "a limit was exceeded".
    pub limit: i64,
    /// The code for "no credential", where the wire has one (accord's `-32001`).
    pub credential_required: Option<i64>,
    /// The code for "a wrong credential", where the wire has one (accord's `-32002`).
    pub credential_refused: Option<i64>,
    /// Every code with a protocol meaning that any method may receive, with the meaning: a
    /// declared error must not reuse one.
    pub reserved: BTreeMap<i64, String>,
}

impl ProtocolCodes {
    /// The protocol meaning of `code`, if it has one.
    pub fn meaning(&self, code: i64) -> Option<&str> {
        self.reserved.get(&code).map(String::as_str)
    }

    /// Whether `code` says "no such method".
    pub fn is_method_not_found(&self, code: i64) -> bool {
        self.method_not_found.contains(&code)
    }

    /// Whether `code` says "invalid params".
    pub fn is_invalid_params(&self, code: i64) -> bool {
        self.invalid_params.contains(&code)
    }
}

/// Splits a wire name into namespace and method at the first `separator`
/// (`eth_getBalance` → `eth`, `getBalance`; `chainHead_v1_follow` → `chainHead`, `v1_follow`),
/// the inverse of how a [`Dialect`] qualifies a name; `None` when the separator is empty, absent
/// from the name, or leaves either side empty. The one rule readers of foreign APIs (OpenRPC
/// import, extract of a jsonrpsee trait without a namespace) place a method by.
pub fn split_wire_name<'n>(wire_name: &'n str, separator: &str) -> Option<(&'n str, &'n str)> {
    if separator.is_empty() {
        return None;
    }
    wire_name.split_once(separator).filter(|(ns, name)| !ns.is_empty() && !name.is_empty())
}

/// A contract method, as the wire reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodRoute {
    /// The namespace.
    pub namespace: String,
    /// The method's name in the namespace.
    pub method: String,
    /// The name the plant answers to.
    pub wire_name: String,
}

impl MethodRoute {
    /// The contract's own name for the method, `namespace.method`, whatever the wire calls it.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.namespace, self.method)
    }
}

/// How a caller subscribes to one event.
#[derive(Debug, Clone, PartialEq)]
pub enum EventRoute {
    /// accord's `rpc.subscribe` / `rpc.event` / `rpc.unsubscribe` (docs/wire.md §7).
    Accord,
    /// The pubsub style (docs/wire.md §11.3).
    Pubsub(PubsubRoute),
}

/// One event's subscription in the pubsub style.
#[derive(Debug, Clone, PartialEq)]
pub struct PubsubRoute {
    /// The subscribe method's wire name.
    pub subscribe: String,
    /// The leading params of the subscribe call that select the event.
    pub params: Vec<Value>,
    /// The notification's method name; its params are `{"subscription": ID, "result": PAYLOAD}`.
    pub notification: String,
    /// The unsubscribe method's wire name.
    pub unsubscribe: String,
}

/// How one contract is spoken on the wire.
#[derive(Debug, Clone)]
pub struct Dialect {
    /// The describe method, or `None` when the plant answers none.
    pub describe: Option<String>,
    /// The protocol codes.
    pub codes: ProtocolCodes,
    /// The deepest nesting the plant promises to read, when it promises one.
    pub depth_limit: Option<u64>,
    /// Whether every member is accord's own (no `wire` section says otherwise).
    accord: bool,
    /// Contract methods by wire name, in document order.
    methods: IndexMap<String, MethodRoute>,
    /// Wire names by `namespace.method`.
    wire_names: HashMap<String, String>,
    /// Events by `namespace.event`, in document order.
    events: IndexMap<String, EventRoute>,
}

/// The members of a namespace's effective wire: its own section's, else the document's.
struct Effective<'a> {
    doc: Option<&'a Wire>,
    ns: Option<&'a Wire>,
}

impl<'a> Effective<'a> {
    fn get<T>(&self, member: impl Fn(&'a Wire) -> Option<T>) -> Option<T> {
        self.ns.and_then(&member).or_else(|| self.doc.and_then(&member))
    }
}

impl Dialect {
    /// The dialect `doc` is spoken in: its `wire` sections resolved, or accord's own dialect
    /// when it has none.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Wire`] with the JSON Pointer of the member that cannot be resolved: a separator
    /// or profile accord does not know, a wire name for a method or event the namespace does
    /// not have, two methods with one wire name, a method called by a protocol method's name,
    /// or a plant-wide member (`describe`, `codes`, `depthLimit`) in a namespace's section.
    pub fn of(doc: &Document) -> Result<Dialect, Error> {
        let wire = doc.wire.as_ref();
        for (member, present) in wire.map_or(Vec::new(), |w| {
            vec![("methods", w.methods.is_some()), ("events", w.events.is_some())]
        }) {
            if present {
                return Err(wire_error(
                    format!("/wire/{member}"),
                    format!(
                        "`{member}` names one namespace's members: give it in that namespace's `wire`"
                    ),
                ));
            }
        }
        let codes = resolve_codes(wire)?;
        let describe = match wire.and_then(|w| w.describe.as_ref()) {
            None => Some(ACCORD_DESCRIBE.to_owned()),
            Some(DescribeMethod::Method(name)) if name.is_empty() => {
                return Err(wire_error(
                    "/wire/describe",
                    "the describe method needs a name, or `false` for none",
                ));
            }
            Some(DescribeMethod::Method(name)) => Some(name.clone()),
            Some(DescribeMethod::None) => None,
        };
        let depth_limit = wire
            .and_then(|w| w.depth_limit)
            .or((codes.profile == Profile::Accord).then_some(ACCORD_DEPTH_LIMIT));
        let mut dialect = Dialect {
            describe,
            codes,
            depth_limit,
            accord: wire.is_none()
                && doc.namespaces.iter().flatten().all(|(_, ns)| ns.wire.is_none()),
            methods: IndexMap::new(),
            wire_names: HashMap::new(),
            events: IndexMap::new(),
        };
        for (ns_name, ns) in doc.namespaces.iter().flatten() {
            dialect.add_namespace(wire, ns_name, ns)?;
        }
        dialect.check_protocol_names()?;
        Ok(dialect)
    }

    fn add_namespace(
        &mut self,
        doc: Option<&Wire>,
        ns_name: &str,
        ns: &Namespace,
    ) -> Result<(), Error> {
        let at = format!("/namespaces/{}/wire", escape(ns_name));
        if let Some(w) = &ns.wire {
            for (member, present) in [
                ("describe", w.describe.is_some()),
                ("codes", w.codes.is_some()),
                ("depthLimit", w.depth_limit.is_some()),
            ] {
                if present {
                    return Err(wire_error(
                        format!("{at}/{member}"),
                        format!(
                            "`{member}` is the whole plant's: give it in the document's `wire`"
                        ),
                    ));
                }
            }
        }
        let eff = Effective { doc, ns: ns.wire.as_ref() };
        let separator = eff.get(|w| w.separator.as_deref()).unwrap_or(".");
        if !matches!(separator, "." | "_" | "") {
            let at = if ns.wire.as_ref().is_some_and(|w| w.separator.is_some()) {
                at.clone()
            } else {
                "/wire".to_owned()
            };
            return Err(wire_error(
                format!("{at}/separator"),
                format!(
                    "`{separator}` is not a separator accord knows: use \".\", \"_\" or \"\" (unqualified names)"
                ),
            ));
        }
        // An empty separator means unqualified names: the method's own name, no namespace.
        let qualify = |name: &str| match separator {
            "" => name.to_owned(),
            _ => format!("{ns_name}{separator}{name}"),
        };
        let methods = ns.methods.as_ref();
        let overrides = ns.wire.as_ref().and_then(|w| w.methods.as_ref());
        for name in overrides.iter().flat_map(|o| o.keys()) {
            if !methods.is_some_and(|m| m.contains_key(name)) {
                return Err(wire_error(
                    format!("{at}/methods/{}", escape(name)),
                    format!("namespace `{ns_name}` has no method `{name}` to give a wire name"),
                ));
            }
        }
        for name in methods.iter().flat_map(|m| m.keys()) {
            let wire_name = match overrides.and_then(|o| o.get(name)) {
                Some(given) => given.clone(),
                None => qualify(name),
            };
            let route = MethodRoute {
                namespace: ns_name.to_owned(),
                method: name.clone(),
                wire_name: wire_name.clone(),
            };
            if let Some(other) = self.methods.get(&wire_name) {
                return Err(wire_error(
                    format!("/namespaces/{}/methods/{}", escape(ns_name), escape(name)),
                    format!(
                        "`{}` and `{}` are both called `{wire_name}` on the wire",
                        other.qualified(),
                        route.qualified()
                    ),
                ));
            }
            self.wire_names.insert(route.qualified(), wire_name.clone());
            self.methods.insert(wire_name, route);
        }

        let event_wires = ns.wire.as_ref().and_then(|w| w.events.as_ref());
        for name in event_wires.iter().flat_map(|e| e.keys()) {
            if !ns.events.as_ref().is_some_and(|e| e.contains_key(name)) {
                return Err(wire_error(
                    format!("{at}/events/{}", escape(name)),
                    format!("namespace `{ns_name}` has no event `{name}` to subscribe to"),
                ));
            }
        }
        let pubsub = eff.get(|w| w.pubsub.as_ref());
        let derived = |suffix: &str| qualify(suffix);
        for name in ns.events.iter().flat_map(|e| e.keys()) {
            let own = event_wires.and_then(|e| e.get(name));
            let route = if pubsub.is_none() && own.is_none() {
                EventRoute::Accord
            } else {
                let pick = |event: Option<&String>, shared: Option<&String>, suffix: &str| {
                    event.or(shared).cloned().unwrap_or_else(|| derived(suffix))
                };
                EventRoute::Pubsub(PubsubRoute {
                    subscribe: pick(
                        own.and_then(|e| e.subscribe.as_ref()),
                        pubsub.and_then(|p| p.subscribe.as_ref()),
                        "subscribe",
                    ),
                    params: own
                        .and_then(|e| e.params.clone())
                        .unwrap_or_else(|| vec![Value::String(name.clone())]),
                    notification: pick(
                        own.and_then(|e| e.notification.as_ref()),
                        pubsub.and_then(|p| p.notification.as_ref()),
                        "subscription",
                    ),
                    unsubscribe: pick(
                        own.and_then(|e| e.unsubscribe.as_ref()),
                        pubsub.and_then(|p| p.unsubscribe.as_ref()),
                        "unsubscribe",
                    ),
                })
            };
            self.events.insert(format!("{ns_name}.{name}"), route);
        }
        Ok(())
    }

    /// No contract method may be called by a name the protocol answers itself.
    fn check_protocol_names(&self) -> Result<(), Error> {
        let mut protocol: Vec<(&str, &str)> = Vec::new();
        if let Some(describe) = &self.describe {
            protocol.push((describe, "the describe method"));
        }
        for route in self.events.values() {
            match route {
                EventRoute::Accord => {
                    protocol.push((ACCORD_SUBSCRIBE, "accord's subscribe method"));
                    protocol.push((ACCORD_UNSUBSCRIBE, "accord's unsubscribe method"));
                }
                EventRoute::Pubsub(p) => {
                    protocol.push((&p.subscribe, "a subscribe method"));
                    protocol.push((&p.unsubscribe, "an unsubscribe method"));
                }
            }
        }
        for (name, what) in protocol {
            if let Some(route) = self.methods.get(name) {
                return Err(wire_error(
                    format!(
                        "/namespaces/{}/methods/{}",
                        escape(&route.namespace),
                        escape(&route.method)
                    ),
                    format!(
                        "`{}` is called `{name}` on the wire, which is {what}",
                        route.qualified()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether this is accord's own dialect in every member (the document has no `wire`).
    pub fn is_accord(&self) -> bool {
        self.accord
    }

    /// The contract method the plant answers to `wire_name`.
    pub fn method(&self, wire_name: &str) -> Option<&MethodRoute> {
        self.methods.get(wire_name)
    }

    /// The contract method named `name`, either by its wire name (`eth_getBalance`) or by the
    /// contract's own `namespace.method`: what the cli's value commands take.
    pub fn resolve(&self, name: &str) -> Option<&MethodRoute> {
        self.methods
            .get(name)
            .or_else(|| self.wire_names.get(name).and_then(|w| self.methods.get(w)))
    }

    /// The wire name of the contract method `namespace.method`.
    pub fn wire_name(&self, namespace: &str, method: &str) -> Option<&str> {
        self.wire_names.get(&format!("{namespace}.{method}")).map(String::as_str)
    }

    /// Every contract method, in document order.
    pub fn methods(&self) -> impl Iterator<Item = &MethodRoute> {
        self.methods.values()
    }

    /// How to subscribe to the event `namespace.event`.
    pub fn event(&self, qualified: &str) -> Option<&EventRoute> {
        self.events.get(qualified)
    }

    /// Every event with its route, in document order.
    pub fn events(&self) -> impl Iterator<Item = (&str, &EventRoute)> {
        self.events.iter().map(|(name, route)| (name.as_str(), route))
    }

    /// Whether `wire_name` is the subscribe method of some pubsub event.
    pub fn is_pubsub_subscribe(&self, wire_name: &str) -> bool {
        self.pubsub().any(|(_, p)| p.subscribe == wire_name)
    }

    /// Whether `wire_name` is the unsubscribe method of some pubsub event.
    pub fn is_pubsub_unsubscribe(&self, wire_name: &str) -> bool {
        self.pubsub().any(|(_, p)| p.unsubscribe == wire_name)
    }

    /// The pubsub event a subscribe call selects: the event whose subscribe method is
    /// `wire_name` and whose selecting params lead `params`; with the params that follow them.
    pub fn pubsub_event<'p>(
        &self,
        wire_name: &str,
        params: &'p [Value],
    ) -> Option<(&str, &PubsubRoute, &'p [Value])> {
        self.pubsub()
            .filter(|(_, p)| p.subscribe == wire_name && params.starts_with(&p.params))
            // The longest selector wins, so `["logs"]` is not taken by a catch-all `[]`.
            .max_by_key(|(_, p)| p.params.len())
            .map(|(name, p)| (name, p, &params[p.params.len()..]))
    }

    fn pubsub(&self) -> impl Iterator<Item = (&str, &PubsubRoute)> {
        self.events.iter().filter_map(|(name, route)| match route {
            EventRoute::Pubsub(p) => Some((name.as_str(), p)),
            EventRoute::Accord => None,
        })
    }
}

fn resolve_codes(wire: Option<&Wire>) -> Result<ProtocolCodes, Error> {
    let Some(given) = wire.and_then(|w| w.codes.as_ref()) else {
        return Ok(Profile::Accord.codes());
    };
    let profile = match &given.profile {
        None => Profile::Accord,
        Some(name) => Profile::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
            wire_error(
                "/wire/codes/profile",
                format!("`{name}` is not a profile accord knows ({})", known.join(", ")),
            )
        })?,
    };
    let mut codes = profile.codes();
    for (member, given, into) in [
        ("methodNotFound", &given.method_not_found, &mut codes.method_not_found),
        ("invalidParams", &given.invalid_params, &mut codes.invalid_params),
    ] {
        if let Some(list) = given {
            if list.is_empty() {
                return Err(wire_error(format!("/wire/codes/{member}"), "give at least one code"));
            }
            *into = list.clone();
        }
    }
    if let Some(limit) = given.limit {
        codes.limit = limit;
        codes.reserved.entry(limit).or_insert_with(|| "limit exceeded".to_owned());
    }
    for code in codes.method_not_found.clone() {
        codes.reserved.entry(code).or_insert_with(|| "method not found".to_owned());
    }
    for code in codes.invalid_params.clone() {
        codes.reserved.entry(code).or_insert_with(|| "invalid params".to_owned());
    }
    for (code, meaning) in given.reserved.iter().flatten() {
        // The reader has checked that every key is a whole number.
        if let Ok(code) = code.parse::<i64>() {
            codes.reserved.insert(code, meaning.clone());
        }
    }
    Ok(codes)
}

/// A JSON Pointer segment for `name` (RFC 6901).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The error for a `wire` member at `at` (a JSON Pointer written with [`escape`]d segments).
fn wire_error(at: impl AsRef<str>, reason: impl Into<String>) -> Error {
    let mut pointer = Pointer::root();
    for segment in at.as_ref().split('/').skip(1) {
        pointer.push_key(&segment.replace("~1", "/").replace("~0", "~"));
    }
    Error {
        kind: Box::new(ErrorKind::Wire { reason: reason.into() }),
        pointer,
        span: None,
        position: None,
    }
}
