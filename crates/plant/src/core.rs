//! The one core both adapters share: the contract, compiled once, and what docs/wire.md says a
//! plant does with each call before and after its handler.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use accord_schema_model::{Dialect, Document, EventRoute, ParamStructure};
use accord_validate::{Contract, Target};
use accord_wire::encode::Answer;
use accord_wire::protocol::ProtocolErrors;
use accord_wire::{Access, Id, ProtocolMethod, RpcError, describe};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::broadcast;

use crate::config::{Config, Limits, OnViolation};
use crate::credential::Credential;
use crate::error::Error;
use crate::usage::{Declared, MethodUsage, Usage};

/// The deepest nesting serde_json parses (its recursion limit): a deeper limit is never reached.
const MAX_DEPTH: usize = 128;

/// How many violations [`Plant::recent_violations`] keeps.
const RECENT: usize = 32;

/// One contract method, as the plant answers it under its wire name: the one table of
/// methods both a real plant and `accord serve` route by.
#[derive(Debug, Clone)]
pub struct ContractMethod {
    qualified: String,
    params: Target,
    result: Target,
    /// Whether an absent `params` reads as `[]` (by position only) rather than `{}`.
    positional_only: bool,
    /// Whether the contract declares what calling it does.
    declares_semantics: bool,
    errors: Vec<DeclaredError>,
    /// Its counters, when the plant counts usage.
    usage: Option<MethodUsage>,
    /// Whether its params can meet a `pattern` (found once, at start-up): only then is their
    /// check moved off the event loop, which costs a thread hand-off per call.
    params_reach_pattern: bool,
}

impl ContractMethod {
    /// `namespace.method`.
    pub fn qualified(&self) -> &str {
        &self.qualified
    }

    /// The validator target of its params.
    pub fn params(&self) -> &Target {
        &self.params
    }

    /// The validator target of its result.
    pub fn result(&self) -> &Target {
        &self.result
    }

    /// Whether the contract declares its semantics (an undeclared one is worth a warning).
    pub fn declares_semantics(&self) -> bool {
        self.declares_semantics
    }

    /// The errors it declares.
    pub fn errors(&self) -> &[DeclaredError] {
        &self.errors
    }

    /// What an absent `params` member stands for (docs/wire.md §3): `[]` for a method whose
    /// params are by position only, else `{}`.
    pub fn absent_params(&self) -> Value {
        if self.positional_only { Value::Array(Vec::new()) } else { Value::Object(Map::new()) }
    }
}

/// An error a contract method declares.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DeclaredError {
    /// Its code.
    pub code: i64,
    /// Its message, exactly.
    pub message: String,
    /// The validator target of its `data`, when it has one.
    pub data: Option<Target>,
}

/// An answer of the plant's that breaks its contract.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// What was answered: `namespace.method`, or `namespace.event` for a payload.
    pub subject: String,
    /// What is wrong, in one sentence.
    pub reason: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.reason)
    }
}

/// What a call is, once the plant has looked at it.
#[derive(Debug)]
pub enum Route<'p> {
    /// Answered without the handler: `rpc.describe`, a missing credential, a method the
    /// contract does not have, params the contract refuses.
    Answer(Answer),
    /// A contract method whose params passed: the handler answers, then
    /// [`Plant::settle`] checks what it answered.
    Contract(ContractCall<'p>),
    /// accord serve's `rpc.fake` (docs/wire.md §6): a [`crate::Handler`] that steers answers
    /// answers it; a real plant's does not have it.
    Fake,
    /// accord's `rpc.subscribe` (a transport with subscriptions answers it).
    Subscribe,
    /// accord's `rpc.unsubscribe`.
    Unsubscribe,
    /// A pubsub subscribe or unsubscribe method of the contract's wire (docs/wire.md §11.3):
    /// the plant's own subscription handler answers it.
    Pubsub,
}

/// A contract call whose params passed the contract.
#[derive(Debug, Clone, Copy)]
pub struct ContractCall<'p> {
    pub(crate) method: &'p Arc<ContractMethod>,
}

impl<'p> ContractCall<'p> {
    /// `namespace.method`.
    pub fn qualified(&self) -> &'p str {
        &self.method.qualified
    }

    /// The method called.
    pub fn method(&self) -> &'p ContractMethod {
        self.method
    }

    /// The method called, shared: what a handler keeps per method (accord serve's table) costs
    /// a count, not a copy of its names and targets.
    pub fn shared(&self) -> Arc<ContractMethod> {
        Arc::clone(self.method)
    }
}

/// A contract, compiled once, and the plant-side rules of docs/wire.md.
pub struct Plant {
    name: String,
    doc: Document,
    contract: Contract,
    dialect: Dialect,
    protocol: ProtocolErrors,
    methods: HashMap<String, Arc<ContractMethod>>,
    events: HashMap<String, Target>,
    /// Whether `rpc.subscribe`/`rpc.unsubscribe` are part of the wire: on accord's own wire
    /// always, on another when some event is subscribed accord's way.
    accord_events: bool,
    described: describe::Described,
    credential: Credential,
    limits: Limits,
    on_violation: OnViolation,
    violations: AtomicU64,
    recent: Mutex<Vec<Violation>>,
    /// Checked event payloads, to every subscribed WebSocket of [`crate::router()`].
    emitted: broadcast::Sender<Arc<(String, Value)>>,
    /// The usage counters, when counting is on (docs/usage.md).
    usage: Option<Usage>,
    /// Where the HTTP server answers with the counters.
    metrics_path: Option<String>,
}

impl std::fmt::Debug for Plant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plant").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Plant {
    /// Reads, checks and compiles the contract `text` (embedded with `include_str!`); `name`
    /// names it in the start-up error when it does not parse.
    ///
    /// # Errors
    ///
    /// A contract that does not parse, compile or resolve its wire, a namespace `rpc`, a token
    /// no header can carry.
    pub fn from_contract(name: &str, text: &str, config: Config) -> Result<Plant, Error> {
        let doc = Document::parse(text)
            .map_err(|error| Error::Contract { name: name.to_owned(), error })?;
        Plant::from_document(name, doc, config)
    }

    /// [`Plant::from_contract`] of a contract already read.
    ///
    /// # Errors
    ///
    /// A contract that does not compile or resolve its wire, a namespace `rpc`, a token no
    /// header can carry.
    pub fn from_document(name: &str, doc: Document, config: Config) -> Result<Plant, Error> {
        let named = || name.to_owned();
        if doc.namespaces.as_ref().is_some_and(|n| n.contains_key("rpc")) {
            return Err(Error::ReservedNamespace { name: named() });
        }
        if let Some(reason) = config.credential.problem() {
            return Err(Error::Token { reason });
        }
        let dialect = Dialect::of(&doc).map_err(|error| Error::Wire { name: named(), error })?;
        let contract =
            Contract::compile(&doc).map_err(|error| Error::Compile { name: named(), error })?;
        let metrics_path = match config.metrics_path {
            Some(path) if !path.starts_with('/') || path == "/" => {
                return Err(Error::MetricsPath { path });
            }
            path => path,
        };
        let usage = metrics_path.is_some().then(|| Usage::new(&doc));
        let (methods, events) = table(&doc, &dialect, &contract, usage.as_ref());
        let accord_events =
            dialect.is_accord() || dialect.events().any(|(_, r)| matches!(r, EventRoute::Accord));
        let described = describe::Described::new();
        let (emitted, _) = broadcast::channel(1024);
        Ok(Plant {
            name: name.to_owned(),
            protocol: ProtocolErrors::new(dialect.codes.clone(), dialect.describe.clone()),
            doc,
            contract,
            dialect,
            methods,
            events,
            accord_events,
            described,
            credential: config.credential,
            limits: Limits { depth: config.limits.depth.min(MAX_DEPTH), ..config.limits },
            on_violation: config.on_violation,
            violations: AtomicU64::new(0),
            recent: Mutex::new(Vec::new()),
            emitted,
            usage,
            metrics_path,
        })
    }

    /// The contract's name, as given to [`Plant::from_contract`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The served contract.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// How the contract is spoken.
    pub fn dialect(&self) -> &Dialect {
        &self.dialect
    }

    /// The protocol errors in the codes of the contract's wire.
    pub fn protocol(&self) -> &ProtocolErrors {
        &self.protocol
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// What the `Authorization` header (`None`: absent) gets a caller. On a wire without
    /// credential codes a missing credential is refused like a wrong one (docs/wire.md §11.2).
    pub fn access(&self, authorization: Option<&str>) -> Access {
        let access = match self.credential.access(authorization) {
            Access::Reduced if !self.protocol.has_credential_codes() => Access::Refused,
            access => access,
        };
        if let Some(usage) = &self.usage {
            usage.request(access, !matches!(self.credential, Credential::None));
        }
        access
    }

    /// The path the HTTP server answers with the usage counters on (docs/usage.md), when the
    /// plant counts usage.
    pub fn metrics_path(&self) -> Option<&str> {
        self.metrics_path.as_deref()
    }

    /// The usage counters as OpenMetrics text, when the plant counts usage.
    pub fn metrics(&self) -> Option<String> {
        self.usage.as_ref().map(Usage::encode)
    }

    /// How many answers broke the contract since start.
    pub fn violations(&self) -> u64 {
        self.violations.load(Ordering::Relaxed)
    }

    /// The latest violations (at most 32), oldest first.
    pub fn recent_violations(&self) -> Vec<Violation> {
        self.recent.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Looks at one call before its handler: the describe method, the credential, the method,
    /// its params (checked against the contract, `-32602` with accord-wire's error data).
    ///
    /// The protocol methods are routed by one exhaustive `match` on [`ProtocolMethod`]: a
    /// protocol method added to accord-wire does not compile here until it is routed.
    pub fn route(&self, method: &str, params: Option<&Value>, access: Access) -> Route<'_> {
        self.route_declared(method, params, access, None)
    }

    /// [`Plant::route`] for a caller whose declared versions ([`Declared`]) are kept across
    /// its calls: a describe call with `builtAgainst` records them, later calls are counted
    /// under them.
    pub fn route_declared(
        &self,
        method: &str,
        params: Option<&Value>,
        access: Access,
        declared: Option<&mut Declared>,
    ) -> Route<'_> {
        let protocol = self.protocol_method(method);
        if protocol != Some(ProtocolMethod::Describe) {
            if access != Access::Full {
                return Route::Answer(self.protocol.credential_required().into());
            }
            if let Some(info) = self.methods.get(method) {
                if let (Some(usage), Some(counters)) = (&self.usage, &info.usage) {
                    usage.call(counters, declared.as_deref());
                    if Usage::inspects(counters) {
                        usage.params(&self.doc, counters, params);
                    }
                }
                let call = ContractCall { method: info };
                return match self.check_params(call, params) {
                    Ok(()) => Route::Contract(call),
                    Err(error) => Route::Answer(error.into()),
                };
            }
        }
        match protocol {
            Some(ProtocolMethod::Describe) => {
                if let Some(usage) = &self.usage {
                    // A `builtAgainst` that is not versions is refused below, and not counted.
                    if let Ok(built) = describe::read_params(params) {
                        usage.describe(&self.doc, &built, access != Access::Full, declared);
                    }
                }
                Route::Answer(self.describe(params, access))
            }
            Some(ProtocolMethod::Fake) => Route::Fake,
            Some(ProtocolMethod::Subscribe) => Route::Subscribe,
            Some(ProtocolMethod::Unsubscribe) => Route::Unsubscribe,
            // The plant sends `rpc.event`; a caller never calls it.
            Some(ProtocolMethod::Notification) => {
                Route::Answer(self.protocol.method_not_found(method).into())
            }
            None if self.dialect.is_pubsub_subscribe(method)
                || self.dialect.is_pubsub_unsubscribe(method) =>
            {
                Route::Pubsub
            }
            None => Route::Answer(self.protocol.method_not_found(method).into()),
        }
    }

    /// The protocol method `method` is on this plant's wire: the describe method under the
    /// name the wire gives it, `rpc.subscribe`/`rpc.unsubscribe` where events are subscribed
    /// accord's way, `rpc.fake` and `rpc.event` by accord's names.
    fn protocol_method(&self, method: &str) -> Option<ProtocolMethod> {
        if self.dialect.describe.as_deref() == Some(method) {
            return Some(ProtocolMethod::Describe);
        }
        if !method.starts_with("rpc.") {
            return None;
        }
        match ProtocolMethod::from_name(method)? {
            // Renamed (or absent) on this wire: the describe name matched above.
            ProtocolMethod::Describe => None,
            ProtocolMethod::Subscribe | ProtocolMethod::Unsubscribe if !self.accord_events => None,
            known => Some(known),
        }
    }

    /// The contract call a single request body is, when the plant can hand the body on to its
    /// handler exactly as it was sent: one request object of the four members only, each named
    /// once (`jsonrpc` written `"2.0"`, an id of digits that fits a `u64` or a string without
    /// escapes, a method name without escapes), from a caller with full access, calling a
    /// contract method (not the describe method) with params that pass the contract on
    /// accord-validate's bytes path, which refuses a key named twice anywhere inside them, as
    /// the strict reader does, and params nested past the body's `depth` limit. `None` for anything else: then [`Plant::answer`]'s strict read
    /// judges the body, and answers whatever this does not pass. With the call, the id to
    /// answer it with.
    ///
    /// Nothing is built: the params are checked as bytes, the other members read in place.
    pub fn pass_through(&self, bytes: &[u8], access: Access) -> Option<(ContractCall<'_>, Id)> {
        /// The members, in place; a member named twice, or any other, fails the read.
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Envelope<'b> {
            #[serde(borrow)]
            jsonrpc: &'b RawValue,
            #[serde(borrow)]
            id: &'b RawValue,
            #[serde(borrow)]
            method: &'b RawValue,
            #[serde(borrow, default)]
            params: Option<&'b RawValue>,
        }
        /// The text of a string token without escapes.
        fn plain(raw: &RawValue) -> Option<&str> {
            let text = raw.get().strip_prefix('"')?.strip_suffix('"')?;
            (!text.contains(['\\', '"'])).then_some(text)
        }
        if access != Access::Full || bytes.len() > self.limits.body_bytes {
            return None;
        }
        let envelope: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
        if envelope.jsonrpc.get() != "\"2.0\"" {
            return None;
        }
        // The ids jsonrpsee reads and writes back as they were sent.
        let id = match plain(envelope.id) {
            Some(text) => Id::String(text.to_owned()),
            None if envelope.id.get().bytes().all(|b| b.is_ascii_digit()) => {
                Id::Number(envelope.id.get().parse::<u64>().ok()?.into())
            }
            None => return None,
        };
        let method = plain(envelope.method)?;
        if self.dialect.describe.as_deref() == Some(method) {
            return None;
        }
        let info = self.methods.get(method)?;
        let params = match envelope.params {
            Some(raw) if raw.get().starts_with(['{', '[']) => raw.get().as_bytes(),
            Some(_) => return None,
            None if info.positional_only => b"[]",
            None => b"{}",
        };
        // The params are one level inside the body: within the `depth` limit of the body when
        // they nest no deeper than one level less (the other members are not containers).
        let depth = self.limits.depth.saturating_sub(1);
        let check = self.contract.validator(&info.params).ok()?.with_depth_limit(depth);
        if !check.is_valid_bytes(params) {
            return None;
        }
        if let (Some(usage), Some(counters)) = (&self.usage, &info.usage) {
            usage.call(counters, None);
            if Usage::inspects(counters) {
                usage.params_bytes(&self.doc, counters, params);
            }
        }
        Some((ContractCall { method: info }, id))
    }

    /// The contract call of `method` (a wire name), when the contract has it; its params are
    /// not checked ([`Plant::check_params`]).
    pub fn contract_call(&self, method: &str) -> Option<ContractCall<'_>> {
        self.methods.get(method).map(|info| ContractCall { method: info })
    }

    /// Every contract method by its wire name.
    pub fn methods(&self) -> impl Iterator<Item = (&str, ContractCall<'_>)> {
        self.methods.iter().map(|(name, method)| (name.as_str(), ContractCall { method }))
    }

    /// The compiled contract.
    pub fn contract(&self) -> &Contract {
        &self.contract
    }

    /// [`Plant::judge`] of a result given as JSON text, checked on accord-validate's bytes
    /// path (nothing built when it is valid).
    pub fn judge_result_bytes(&self, call: ContractCall<'_>, result: &[u8]) -> Option<Violation> {
        let info = call.method;
        let reason = match self.contract.validator(&info.result) {
            Ok(check) if check.is_valid_bytes(result) => return None,
            Ok(check) => match check.validate_bytes(result) {
                Ok(()) => return None,
                Err(errors) => format!("its result does not match the contract: {}", errors[0]),
            },
            Err(error) => error.to_string(),
        };
        Some(Violation { subject: info.qualified.clone(), reason })
    }

    /// Checks a call's params against the contract (an absent `params` as what it stands for),
    /// within the `depth` limit: the invalid-params error of the wire's codes when they fail.
    ///
    /// # Errors
    ///
    /// The `-32602` to answer with.
    pub fn check_params(
        &self,
        call: ContractCall<'_>,
        params: Option<&Value>,
    ) -> Result<(), RpcError> {
        let info = call.method;
        let absent;
        let params = match params {
            Some(params) => params,
            None => {
                absent = info.absent_params();
                &absent
            }
        };
        let check = self
            .contract
            .validator(&info.params)
            .map_err(|e| RpcError::internal(&e.to_string()))?
            .with_depth_limit(self.limits.depth);
        validate_off_the_loop(info.params_reach_pattern, &check, params)
            .map_err(|errors| self.protocol.invalid_params(&errors))
    }

    /// The answer to the describe method (docs/wire.md §5) for this access.
    pub fn describe(&self, params: Option<&Value>, access: Access) -> Answer {
        self.described.answer(&self.doc, params, access != Access::Full, &self.protocol)
    }

    /// What the handler's answer breaks in the contract, if anything: a result that does not
    /// validate against the method's result type, an error the method does not declare (a
    /// plant may always fail with the internal-error code), a declared code with another
    /// message, declared error data that does not validate.
    pub fn judge(
        &self,
        call: ContractCall<'_>,
        outcome: &Result<Value, RpcError>,
    ) -> Option<Violation> {
        let info = call.method;
        if let (Some(usage), Err(error)) = (&self.usage, outcome)
            && info.errors.iter().any(|d| d.code == error.code && d.message == error.message)
        {
            usage.declared_error(&info.qualified, error.code);
        }
        let reason = match outcome {
            Ok(result) => match self.contract.validator(&info.result) {
                Ok(check) => match check.validate(result) {
                    Ok(()) => return None,
                    Err(errors) => format!("its result does not match the contract: {}", errors[0]),
                },
                Err(error) => error.to_string(),
            },
            Err(error) if error.code == accord_wire::codes::INTERNAL_ERROR => return None,
            Err(error) => match info.errors.iter().find(|d| d.code == error.code) {
                None => format!(
                    "it answered error {} (`{}`), which the method does not declare",
                    error.code, error.message
                ),
                Some(declared) if declared.message != error.message => format!(
                    "error {} says `{}` where the contract says `{}`",
                    error.code, error.message, declared.message
                ),
                Some(declared) => match (&declared.data, &error.data) {
                    (None, _) => return None,
                    (Some(_), None) => format!(
                        "error {} carries no data; the contract gives it a type",
                        error.code
                    ),
                    (Some(target), Some(data)) => match self.contract.validator(target) {
                        Ok(check) => match check.validate(data) {
                            Ok(()) => return None,
                            Err(errors) => format!(
                                "error {}'s data does not match the contract: {}",
                                error.code, errors[0]
                            ),
                        },
                        Err(error) => error.to_string(),
                    },
                },
            },
        };
        Some(Violation { subject: info.qualified.clone(), reason })
    }

    /// The handler's answer as it is sent: unchanged when it keeps the contract; otherwise
    /// counted, logged and, under [`OnViolation::Fail`], replaced by `-32603` naming what
    /// was broken.
    pub fn settle(
        &self,
        call: ContractCall<'_>,
        outcome: Result<Value, RpcError>,
    ) -> Result<Value, RpcError> {
        match self.judge(call, &outcome) {
            None => outcome,
            Some(violation) => match self.violated(violation) {
                Some(error) => Err(error),
                None => outcome,
            },
        }
    }

    /// Counts and logs a violation; the error that replaces the answer under
    /// [`OnViolation::Fail`].
    pub(crate) fn violated(&self, violation: Violation) -> Option<RpcError> {
        self.violations.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(subject = %violation.subject, reason = %violation.reason, "the plant's answer breaks its contract");
        let error =
            RpcError::internal(&format!("the plant's answer breaks its contract: {violation}"));
        if let Ok(mut recent) = self.recent.lock() {
            if recent.len() == RECENT {
                recent.remove(0);
            }
            recent.push(violation);
        }
        (self.on_violation == OnViolation::Fail).then_some(error)
    }

    /// Checks an event payload against the contract's event type; a payload that does not
    /// match is a violation (counted and logged) and must not be sent, whatever
    /// [`OnViolation`] says.
    pub fn check_event(&self, event: &str, payload: &Value) -> Result<(), Violation> {
        let violation = |reason: String| Violation { subject: event.to_owned(), reason };
        let outcome = match self.events.get(event) {
            None => Err(violation("the contract has no such event".to_owned())),
            Some(target) => match self.contract.validator(target) {
                Ok(check) => check.validate(payload).map_err(|errors| {
                    violation(format!("its payload does not match the contract: {}", errors[0]))
                }),
                Err(error) => Err(violation(error.to_string())),
            },
        };
        if let Err(v) = &outcome {
            self.violated(v.clone());
        }
        outcome
    }

    /// Sends a checked event payload to every WebSocket of [`crate::router()`] subscribed to
    /// `event` (`namespace.event`); a payload that fails the contract is never sent.
    ///
    /// # Errors
    ///
    /// The violation, when the payload does not match the event's type.
    pub fn emit(&self, event: &str, payload: Value) -> Result<(), Violation> {
        self.check_event(event, &payload)?;
        // No receiver (no WebSocket open) is not an error: nobody is subscribed.
        let _ = self.emitted.send(Arc::new((event.to_owned(), payload)));
        Ok(())
    }

    /// A receiver of every emitted payload (one per WebSocket).
    pub(crate) fn emitted(&self) -> broadcast::Receiver<Arc<(String, Value)>> {
        self.emitted.subscribe()
    }

    /// Whether `event` is an event of the contract subscribed accord's way.
    pub fn is_accord_event(&self, event: &str) -> bool {
        self.events.contains_key(event)
            && matches!(self.dialect.event(event), Some(EventRoute::Accord))
    }
}

/// Every method under the wire name the dialect gives it (with whether its params can meet a
/// pattern, and its usage counters when `usage` counts), and every event's payload target.
fn table(
    doc: &Document,
    dialect: &Dialect,
    contract: &Contract,
    usage: Option<&Usage>,
) -> (HashMap<String, Arc<ContractMethod>>, HashMap<String, Target>) {
    let mut methods = HashMap::new();
    let mut events = HashMap::new();
    for (ns_name, namespace) in doc.namespaces.iter().flatten() {
        for (m_name, method) in namespace.methods.iter().flatten() {
            let qualified = format!("{ns_name}.{m_name}");
            let errors = method
                .errors
                .iter()
                .flatten()
                .map(|error| DeclaredError {
                    code: error.code,
                    message: error.message.clone(),
                    data: error.data.as_ref().map(|_| Target::ErrorData {
                        namespace: ns_name.clone(),
                        method: m_name.clone(),
                        code: error.code,
                    }),
                })
                .collect();
            // The Dialect resolved every method of the document it was made from.
            let wire_name = dialect.wire_name(ns_name, m_name).unwrap_or(&qualified).to_owned();
            let params = Target::Params { namespace: ns_name.clone(), method: m_name.clone() };
            // A target the contract has no validator for is refused per call anyway.
            let params_reach_pattern =
                contract.validator(&params).is_ok_and(|v| v.reaches_pattern());
            methods.insert(
                wire_name,
                Arc::new(ContractMethod {
                    params,
                    result: Target::Result { namespace: ns_name.clone(), method: m_name.clone() },
                    positional_only: method.param_structure == Some(ParamStructure::ByPosition),
                    declares_semantics: method.declared_semantics().is_some(),
                    errors,
                    qualified,
                    usage: usage.map(|usage| usage.method(doc, ns_name, m_name)),
                    params_reach_pattern,
                }),
            );
        }
        for e_name in namespace.events.iter().flatten().map(|(name, _)| name) {
            let target = Target::Event { namespace: ns_name.clone(), event: e_name.clone() };
            events.insert(format!("{ns_name}.{e_name}"), target);
        }
    }
    (methods, events)
}

/// Checks params; when they can meet a pattern, off the event loop: a pattern check may
/// spend up to accord-validate's `MAX_PATTERN_COST` (about 1.6 s at worst), and the runtime's
/// other connections must not wait behind it. Only then: `block_in_place` hands the worker's
/// other tasks to a new thread, which cost every call of every method about 20 µs when it was
/// decided per contract. It needs a multi-threaded runtime (`accord serve`'s, and a plant's
/// usual one); on another runtime the check runs inline.
fn validate_off_the_loop(
    reaches_pattern: bool,
    check: &accord_validate::Validator<'_>,
    params: &Value,
) -> Result<(), Vec<accord_validate::ValidationError>> {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if reaches_pattern && multi_thread {
        tokio::task::block_in_place(|| check.validate(params))
    } else {
        check.validate(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUMP: &str = include_str!("../../../fixtures/contracts/pump-plant.types.json");

    #[test]
    fn only_a_plainly_written_valid_call_passes_through() {
        let plant = Plant::from_contract("pump", PUMP, Config::default()).unwrap();
        let passes = |body: &str| plant.pass_through(body.as_bytes(), Access::Full).map(|p| p.1);
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]}"#;
        assert_eq!(passes(call), Some(Id::Number(1.into())));
        assert_eq!(
            passes(
                r#"{"id":"x","method":"pump.getSpeed","jsonrpc":"2.0","params":{"pump":"P-101"}}"#
            ),
            Some(Id::String("x".into()))
        );
        assert!(plant.pass_through(call.as_bytes(), Access::Reduced).is_none());
        // The body's depth limit counts the request object: params one level inside it.
        for (depth, passes) in [(1, false), (2, true)] {
            let limits = Limits { depth, ..Limits::default() };
            let config = Config { limits, ..Config::default() };
            let shallow = Plant::from_contract("pump", PUMP, config).unwrap();
            assert_eq!(shallow.pass_through(call.as_bytes(), Access::Full).is_some(), passes);
        }
        for body in [
            // params the contract refuses, or a key named twice inside them
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["bad"]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":{"pump":"P-101","pump":"P-101"}}"#,
            // a member named twice, another member, a member of the wrong kind
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"],"x":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":"P-101"}"#,
            r#"{"jsonrpc":"2.1","id":1,"method":"pump.getSpeed","params":["P-101"]}"#,
            // ids and names jsonrpsee might write back otherwise, or not read
            r#"{"jsonrpc":"2.0","id":-1,"method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":"\u0041","method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"pump.getSpeed","params":["P-101"]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.get\u0053peed","params":["P-101"]}"#,
            // a notification, a batch, the describe method, a method the contract lacks
            r#"{"jsonrpc":"2.0","method":"pump.getSpeed","params":["P-101"]}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"rpc.describe"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.nothing","params":[]}"#,
            // not JSON after the object
            r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]} x"#,
        ] {
            assert_eq!(passes(body), None, "{body}");
        }
    }
}
