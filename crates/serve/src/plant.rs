//! The plant without its transports: one message (bytes) in, its answer (bytes) out, as
//! docs/wire.md says. HTTP and WebSocket differ only in the [`Session`] they hand in.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use accord_schema_model::Document;
use accord_validate::{Contract, Generator, Target};
use accord_wire::fake::{ExampleRef, Fake};
use accord_wire::{
    Access, Call, Dialect, EventRoute, Id, Incoming, Request, RpcError, describe, event, fake,
    limits,
};
use serde_json::{Value, json};

use crate::credential::Token;
use crate::events::Subscriptions;
use crate::scenario::{self, Canned, CannedAnswer};
use crate::seed::{self, Mode};
use crate::table::{MethodInfo, Table};
use crate::ws_send::Outbox;
use crate::{Config, Error, Limits, Prefer};
use accord_wire::encode::{self, Answer};
use accord_wire::protocol::Protocol;

/// The deepest nesting serde_json parses (its recursion limit).
const MAX_DEPTH: usize = 128;

/// The transport a message came over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    Http,
    WebSocket,
}

impl Transport {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Transport::Http => "http",
            Transport::WebSocket => "websocket",
        }
    }
}

/// What one message is answered within: its transport and access, and on a WebSocket the
/// connection's subscriptions and where notifications are sent (before the answer).
pub(crate) struct Session<'a> {
    pub(crate) transport: Transport,
    pub(crate) access: Access,
    pub(crate) subscriptions: Option<&'a mut Subscriptions>,
    pub(crate) outbox: Option<&'a mut Outbox>,
}

/// How a contract call is steered by `rpc.fake`.
enum Steer<'a> {
    Plain,
    Example(&'a ExampleRef),
    Error(i64),
}

/// A compiled contract, ready to answer.
pub(crate) struct Plant {
    doc: Document,
    described: describe::Described,
    contract: Contract,
    /// How the contract is spoken: method names, the describe method, event routes.
    pub(crate) dialect: Dialect,
    /// The protocol errors in the wire's codes.
    pub(crate) protocol: Protocol,
    /// Whether `rpc.subscribe`/`rpc.unsubscribe` are answered: on accord's own wire always, on
    /// another when some event is subscribed in accord's style.
    accord_events: bool,
    prefer: Prefer,
    table: Table,
    scenario: Vec<Canned>,
    seed: u64,
    mode: Mode,
    pub(crate) limits: Limits,
    pub(crate) token: Arc<Token>,
    pub(crate) event_interval: Option<Duration>,
}

impl Plant {
    /// Compiles the contract once and checks the scenario against it.
    pub(crate) fn new(doc: Document, config: &Config) -> Result<Plant, Error> {
        if doc.namespaces.as_ref().is_some_and(|n| n.contains_key("rpc")) {
            return Err(Error::ReservedNamespace);
        }
        let token = Arc::new(Token::new(config.token.as_deref())?);
        let dialect = Dialect::of(&doc).map_err(Error::Wire)?;
        if let Some(route) = dialect.method(fake::METHOD) {
            return Err(Error::FakeName { method: route.qualified() });
        }
        let contract = Contract::compile(&doc)?;
        let table = Table::new(&doc, &contract, &dialect);
        for dropped in &table.dropped {
            tracing::warn!(example = %dropped, "an example result fails its method's result type; it is never sent");
        }
        let scenario = match &config.scenario {
            Some(source) => scenario::load(source, &table, &contract, &dialect)?,
            None => Vec::new(),
        };
        let accord_events =
            dialect.is_accord() || dialect.events().any(|(_, r)| matches!(r, EventRoute::Accord));
        Ok(Plant {
            described: describe::Described::new(),
            doc,
            contract,
            protocol: Protocol::new(dialect.codes.clone(), dialect.describe.clone()),
            dialect,
            accord_events,
            prefer: config.prefer,
            table,
            scenario,
            seed: config.seed,
            mode: config.mode,
            // serde_json refuses nesting past 128 as a syntax error; a deeper limit could never
            // be reached, so the effective limit (and what -32003 reports) is at most that.
            limits: Limits { depth: config.limits.depth.min(MAX_DEPTH), ..config.limits },
            token,
            event_interval: config.event_interval,
        })
    }

    /// Answers one HTTP body or WebSocket message; `None` when nothing is to be answered (only
    /// notifications).
    pub(crate) async fn answer(&self, bytes: &[u8], session: &mut Session<'_>) -> Option<Vec<u8>> {
        tracing::debug!(
            transport = session.transport.as_str(),
            bytes = bytes.len(),
            "message received"
        );
        if bytes.len() > self.limits.body_bytes {
            return Some(self.limit(limits::BODY_BYTES));
        }
        if limits::nests_deeper_than(bytes, self.limits.depth) {
            return Some(self.limit(limits::DEPTH));
        }
        let incoming = match Incoming::parse_with_batch_limit(bytes, self.limits.batch_length) {
            Ok(incoming) => incoming,
            Err(error) if error.code == accord_wire::codes::LIMIT_EXCEEDED => {
                tracing::info!(limit = limits::BATCH_LENGTH, "limit exceeded");
                return Some(encode::refusal(self.protocol.limit(error)));
            }
            Err(error) => {
                tracing::info!(
                    transport = session.transport.as_str(),
                    code = error.code,
                    "unreadable message"
                );
                return Some(encode::refusal(error));
            }
        };
        match incoming {
            Incoming::Single(request) => {
                let (id, answer) = self.one(request, session).await?;
                let mut out = Vec::with_capacity(256);
                self.respond(&id, &answer, &mut out);
                Some(out)
            }
            Incoming::Batch(requests) => {
                let mut out = vec![b'['];
                for request in requests {
                    if let Some((id, answer)) = self.one(request, session).await {
                        if out.len() > 1 {
                            out.push(b',');
                        }
                        self.respond(&id, &answer, &mut out);
                    }
                }
                if out.len() == 1 {
                    return None;
                }
                out.push(b']');
                Some(out)
            }
        }
    }

    /// Appends one response to `out` (the answer so far), or, when the answer would then pass
    /// `answer-bytes`, the `-32003` that says so in its place: whatever a contract makes the
    /// plant generate, one message's answer stays within the limit (each refusal is small).
    fn respond(&self, id: &Id, answer: &Answer, out: &mut Vec<u8>) {
        let max = self.limits.answer_bytes;
        if let Some(bytes) = encode::response_within(id, answer, out, max, &self.protocol) {
            tracing::info!(limit = limits::ANSWER_BYTES, bytes, "limit exceeded");
        }
    }

    /// The `-32003` refusal of a whole message.
    pub(crate) fn limit(&self, name: &str) -> Vec<u8> {
        tracing::info!(limit = name, "limit exceeded");
        encode::refusal(self.protocol.limit_exceeded(name, self.limits.max_of(name)))
    }

    async fn one(
        &self,
        request: Result<Request, accord_wire::envelope::Rejected>,
        session: &mut Session<'_>,
    ) -> Option<(Id, Answer)> {
        let request = match request {
            Ok(request) => request,
            Err(rejected) => {
                let error = rejected.error();
                tracing::info!(
                    transport = session.transport.as_str(),
                    code = error.code,
                    reason = rejected.reason,
                    "invalid request"
                );
                return Some((rejected.id, Answer::Error(error)));
            }
        };
        let started = Instant::now();
        let (answer, called) = self.call(&request, session).await;
        self.log(&request, &answer, called, session.transport, started);
        request.id.map(|id| (id, answer))
    }

    /// One line per call; a call of a method whose semantics are undeclared is a warning that
    /// says so (`called` is the contract method answered, directly or through `rpc.fake`).
    fn log(
        &self,
        request: &Request,
        answer: &Answer,
        called: Option<&MethodInfo>,
        transport: Transport,
        started: Instant,
    ) {
        let micros = started.elapsed().as_micros() as u64;
        let id = LoggedId(request.id.as_ref());
        let code = answer.code();
        if called.is_some_and(|m| m.semantics.is_none()) {
            tracing::warn!(
                transport = transport.as_str(), method = %request.method, id = %id, code, micros,
                semantics = "undeclared",
                "call of a method whose semantics the contract does not declare"
            );
        } else {
            tracing::info!(transport = transport.as_str(), method = %request.method, id = %id, code, micros, "call");
        }
    }

    /// Answers one request, with the contract method it called, if any.
    async fn call(
        &self,
        request: &Request,
        session: &mut Session<'_>,
    ) -> (Answer, Option<&MethodInfo>) {
        let params = request.params.as_ref();
        let method = request.method.as_str();
        let answer = if self.dialect.describe.as_deref() == Some(method) {
            self.describe(params, session.access)
        } else if session.access != Access::Full {
            self.protocol.credential_required().into()
        } else if let Some(info) = self.table.methods.get(method) {
            return (self.contract_call(info, params, Steer::Plain).await, Some(info));
        } else if method == fake::METHOD {
            return self.fake(params, session).await;
        } else if self.accord_events && method == event::SUBSCRIBE {
            self.subscribe(params, session)
        } else if self.accord_events && method == event::UNSUBSCRIBE {
            match session.subscriptions.as_deref_mut() {
                None => self.protocol.not_on_transport(session.transport.as_str()).into(),
                Some(subs) => match event::read_unsubscribe_params(params) {
                    // An accord-style unsubscribe ends only accord-style subscriptions.
                    Ok(id) => Answer::Value(Value::Bool(
                        subs.iter_mut().any(|s| {
                            s.id == id
                                && matches!(self.dialect.event(&s.event), Some(EventRoute::Accord))
                        }) && subs.remove(&id),
                    )),
                    Err(error) => self.protocol.params_refusal(error).into(),
                },
            }
        } else if self.dialect.is_pubsub_subscribe(method) {
            self.pubsub_subscribe(method, params, session)
        } else if self.dialect.is_pubsub_unsubscribe(method) {
            self.pubsub_unsubscribe(method, params, session)
        } else {
            self.protocol.method_not_found(method).into()
        };
        (answer, None)
    }

    fn describe(&self, params: Option<&Value>, access: Access) -> Answer {
        self.described.answer(&self.doc, params, access != Access::Full, &self.protocol)
    }

    /// The answer to a subscribe call (accord's or pubsub) on a connection that already holds
    /// `--max-subscriptions`: the `subscriptions` limit in the wire's limit code.
    pub(crate) fn subscriptions_full(&self) -> Answer {
        tracing::info!(limit = limits::SUBSCRIPTIONS, "limit exceeded");
        self.protocol
            .limit_exceeded(limits::SUBSCRIPTIONS, self.limits.max_of(limits::SUBSCRIPTIONS))
            .into()
    }

    fn subscribe(&self, params: Option<&Value>, session: &mut Session<'_>) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.protocol.not_on_transport(session.transport.as_str()).into();
        };
        match event::read_subscribe_params(params) {
            Ok(_) if subs.len() >= self.limits.subscriptions => self.subscriptions_full(),
            Ok(name)
                if self.table.events.contains_key(&name)
                    && matches!(self.dialect.event(&name), Some(EventRoute::Accord)) =>
            {
                Answer::Value(Value::String(subs.add(&name)))
            }
            Ok(name) => self
                .protocol
                .invalid_params_at(
                    if matches!(params, Some(Value::Array(_))) { "/0" } else { "/event" },
                    "an event of the contract, namespace.event",
                    &name,
                )
                .into(),
            Err(error) => self.protocol.params_refusal(error).into(),
        }
    }

    /// `rpc.fake`; answers with the contract method it called, when it got as far as one.
    async fn fake(
        &self,
        params: Option<&Value>,
        session: &mut Session<'_>,
    ) -> (Answer, Option<&MethodInfo>) {
        let steering = match fake::read_params(params) {
            Ok(steering) => steering,
            Err(error) => return (self.protocol.params_refusal(error).into(), None),
        };
        match steering {
            Fake::Call { method, params, example, error, delay_ms } => {
                if delay_ms > 0 {
                    tokio::time::sleep(Duration::from_millis(delay_ms)).await;
                }
                // A contract method by its wire name or by `namespace.method`; never a
                // protocol method (nor, on accord's wire, a name that is not qualified).
                let call = Call::of(&method);
                if matches!(call, Call::Protocol(_))
                    || (self.dialect.is_accord() && matches!(call, Call::Unqualified(_)))
                {
                    let error = self.protocol.invalid_params_at(
                        "/call/method",
                        "a contract method, namespace.method",
                        &method,
                    );
                    return (error.into(), None);
                }
                let found = self.dialect.resolve(&method).map(|r| r.wire_name.as_str());
                let Some(info) = found.and_then(|wire_name| self.table.methods.get(wire_name))
                else {
                    return (self.protocol.method_not_found(&method).into(), None);
                };
                let steer = match (&example, error) {
                    (Some(example), _) => Steer::Example(example),
                    (None, Some(code)) => Steer::Error(code),
                    (None, None) => Steer::Plain,
                };
                (self.contract_call(info, params.as_ref(), steer).await, Some(info))
            }
            Fake::Emit { event, delay_ms } => (self.emit(&event, delay_ms, session).await, None),
        }
    }

    /// `rpc.fake` with `emit`: a notification of `event` on each subscription to it, now.
    async fn emit(&self, event: &str, delay_ms: u64, session: &mut Session<'_>) -> Answer {
        let (Some(subs), Some(outbox)) =
            (session.subscriptions.as_deref_mut(), session.outbox.as_deref_mut())
        else {
            return self.protocol.not_on_transport(session.transport.as_str()).into();
        };
        if !self.table.events.contains_key(event) {
            return self
                .protocol
                .invalid_params_at("/emit", "an event of the contract, namespace.event", event)
                .into();
        }
        if delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        }
        let sent = self.notify(subs, Some(event), outbox).await;
        Answer::Value(json!({"emitted": sent}))
    }

    /// Sends one notification per subscription (of `event`, or of every event when `None`),
    /// each made just before it is sent; returns how many were sent. A payload that cannot be
    /// made valid is logged, not sent; a failed send stops the rest (the outbox keeps why).
    pub(crate) async fn notify(
        &self,
        subs: &mut Subscriptions,
        event: Option<&str>,
        outbox: &mut Outbox,
    ) -> usize {
        let mut sent = 0;
        for sub in subs.iter_mut().filter(|s| event.is_none_or(|e| e == s.event)) {
            let n = sub.sent;
            sub.sent += 1;
            match self.event_payload(&sub.event, n) {
                Ok(payload) => {
                    let note = match self.dialect.event(&sub.event) {
                        Some(EventRoute::Pubsub(route)) => {
                            crate::pubsub::notification(route, &sub.id, payload)
                        }
                        _ => event::Notification {
                            subscription: sub.id.clone(),
                            event: sub.event.clone(),
                            payload,
                        }
                        .to_value(),
                    };
                    if !outbox.send(serde_json::to_vec(&note).unwrap_or_default()).await {
                        break;
                    }
                    sent += 1;
                }
                Err(reason) => tracing::error!(event = %sub.event, %reason, "no notification sent"),
            }
        }
        sent
    }

    /// The `n`-th payload of `event` on a subscription: its examples in order (checked at
    /// startup), then generated values.
    fn event_payload(&self, name: &str, n: u64) -> Result<Value, String> {
        let info = self.table.events.get(name).ok_or("no such event")?;
        match info.examples.get(n as usize) {
            Some(example) => Ok(example.clone()),
            None => self
                .made(&info.target, seed::derive_nth(self.seed, name, n), "payload")
                .map_err(|e| reason_of(&e)),
        }
    }

    /// A generated value of `target` that passed its validator: the one gate every made value
    /// goes through before it leaves the plant; a value that fails becomes `-32603`.
    fn made(&self, target: &Target, seed: u64, what: &str) -> Result<Value, RpcError> {
        self.made_by(target, seed, what, |generator| generator)
    }

    /// [`Plant::made`] with the generator changed by `options` (a scenario's arm) after the
    /// plant's own preference is applied.
    fn made_by(
        &self,
        target: &Target,
        seed: u64,
        what: &str,
        options: impl FnOnce(Generator<'_>) -> Generator<'_>,
    ) -> Result<Value, RpcError> {
        let check =
            self.contract.validator(target).map_err(|e| RpcError::internal(&e.to_string()))?;
        let value =
            options(check.generator().budget(self.limits.generation).prefer(self.prefer.arms))
                .generate(seed)
                .map_err(|e| match e {
                    accord_validate::Error::Budget { limit, max, .. } => {
                        self.protocol.limit(RpcError::limit_exceeded_because(
                            limit.name(),
                            max,
                            &format!("no {what} could be made: {e}"),
                        ))
                    }
                    e => RpcError::internal(&format!("no {what} could be made: {e}")),
                })?;
        match check.validate(&value) {
            Ok(()) => Ok(value),
            Err(errors) => Err(RpcError::internal(&format!(
                "a generated {what} failed its own validation: {}",
                errors[0]
            ))),
        }
    }

    /// Validates params and answers a contract method: steered, canned, an example with the
    /// same params, or a generated value, in that order.
    async fn contract_call(
        &self,
        info: &MethodInfo,
        params: Option<&Value>,
        steer: Steer<'_>,
    ) -> Answer {
        let params: Cow<'_, Value> = match params {
            Some(params) => Cow::Borrowed(params),
            None => Cow::Owned(info.absent_params()),
        };
        let check = match self.contract.validator(&info.params) {
            Ok(check) => check.with_depth_limit(self.limits.depth),
            Err(error) => return RpcError::internal(&error.to_string()).into(),
        };
        if let Err(errors) = validate_params(&self.contract, check, &params) {
            return self.protocol.invalid_params(&errors).into();
        }
        let by_name = info.by_name(Some(&params));
        match steer {
            Steer::Example(wanted) => {
                let found = info.examples.iter().find(|e| match wanted {
                    ExampleRef::Name(name) => e.name.as_deref() == Some(name.as_str()),
                    ExampleRef::Index(index) => e.index as u64 == *index,
                });
                match found {
                    Some(example) => Answer::Raw(example.result.clone()),
                    None => self
                        .protocol
                        .invalid_params_at(
                            "/example",
                            &format!("an example of {} that has a valid result", info.name),
                            &match wanted {
                                ExampleRef::Name(name) => format!("`{name}`"),
                                ExampleRef::Index(index) => index.to_string(),
                            },
                        )
                        .into(),
                }
            }
            Steer::Error(code) => self.declared_error(info, code, &by_name),
            Steer::Plain => {
                if let Some(canned) = self.scenario.iter().find(|c| c.matches(&info.name, &by_name))
                {
                    if canned.delay_ms > 0 {
                        tokio::time::sleep(Duration::from_millis(canned.delay_ms)).await;
                    }
                    match &canned.answer {
                        CannedAnswer::Result(bytes) => return Answer::Raw(bytes.clone()),
                        CannedAnswer::Error(error) => return Answer::Error(error.clone()),
                        CannedAnswer::Arm(index) => {
                            let seed = self.seed_for(info, "", &by_name);
                            let made =
                                self.made_by(&info.result, seed, "result", |g| g.root_arm(*index));
                            return made.map_or_else(Answer::Error, Answer::Value);
                        }
                        CannedAnswer::Continue => {}
                    }
                }
                if let Some(example) = info.examples.iter().find(|e| e.params == *by_name) {
                    return Answer::Raw(example.result.clone());
                }
                if self.prefer.examples && !info.examples.is_empty() {
                    // One of the examples, the same one for the same request.
                    let seed = self.seed_for(info, "#example", &by_name);
                    let pick = (seed % info.examples.len() as u64) as usize;
                    return Answer::Raw(info.examples[pick].result.clone());
                }
                self.generated_result(info, &by_name)
            }
        }
    }

    fn seed_for(&self, info: &MethodInfo, salt: &str, by_name: &Value) -> u64 {
        let name = format!("{}{salt}", info.name);
        match self.mode {
            Mode::Stable => {
                let mut bytes = Vec::with_capacity(64);
                seed::canonical(by_name, &mut bytes);
                seed::derive(self.seed, &name, &bytes)
            }
            Mode::Sequence => {
                let n = info.sequence.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                seed::derive_nth(self.seed, &name, n)
            }
        }
    }

    fn generated_result(&self, info: &MethodInfo, by_name: &Value) -> Answer {
        let seed = self.seed_for(info, "", by_name);
        match self.made(&info.result, seed, "result") {
            Ok(value) => Answer::Value(value),
            Err(error) => error.into(),
        }
    }

    fn declared_error(&self, info: &MethodInfo, code: i64, by_name: &Value) -> Answer {
        let Some(declared) = info.errors.iter().find(|e| e.code == code) else {
            return self
                .protocol
                .invalid_params_at(
                    "/error",
                    &format!("an error code {} declares", info.name),
                    &code.to_string(),
                )
                .into();
        };
        let data = match &declared.data {
            None => None,
            Some(target) => {
                let seed = self.seed_for(info, &format!("#error{code}"), by_name);
                match self.made(target, seed, "error data") {
                    Ok(value) => Some(value),
                    Err(error) => return error.into(),
                }
            }
        };
        RpcError::declared(code, &declared.message, data).into()
    }
}

/// A request's id in the log: as JSON, or `(notification)`.
struct LoggedId<'a>(Option<&'a Id>);

impl std::fmt::Display for LoggedId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(id) => id.fmt(f),
            None => f.write_str("(notification)"),
        }
    }
}

/// The reason a `-32603` carries, for the log.
fn reason_of(error: &RpcError) -> String {
    let reason = error.data.as_ref().and_then(|d| d.get("reason")).and_then(Value::as_str);
    reason.unwrap_or(&error.message).to_owned()
}

/// Checks params; when the contract has patterns, off the event loop: a pattern check may
/// spend up to accord-validate's `MAX_PATTERN_COST` (up to about 1.6 s at worst), and the
/// runtime's other connections must not wait behind it. `block_in_place` needs the
/// multi-threaded runtime `accord serve` runs on; on another runtime the check runs inline.
fn validate_params(
    contract: &Contract,
    check: accord_validate::Validator<'_>,
    params: &Value,
) -> Result<(), Vec<accord_validate::ValidationError>> {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if contract.has_patterns() && multi_thread {
        tokio::task::block_in_place(|| check.validate(params))
    } else {
        check.validate(params)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use accord_schema_model::Document;
    use accord_wire::{Access, describe};
    use serde_json::{Value, json};

    use super::Plant;
    use crate::Config;
    use accord_wire::encode::Answer;

    const PUMP: &str = include_str!("../../../fixtures/contracts/pump-plant.types.json");

    fn bytes(answer: &Answer) -> Value {
        match answer {
            Answer::Raw(bytes) => serde_json::from_slice(bytes).unwrap(),
            Answer::Value(value) => value.clone(),
            Answer::Error(error) => panic!("{error:?}"),
        }
    }

    /// `rpc.describe` is serialized once per credential state and the same bytes are handed
    /// out on every call (the same allocation); with `builtAgainst` the answer is the one the
    /// wire builds, the contract appended from its one serialization.
    #[test]
    fn describe_is_serialized_once_and_reused() {
        let doc = Document::parse(PUMP).unwrap();
        let plant = Plant::new(doc.clone(), &Config::default()).unwrap();
        for access in [Access::Full, Access::Reduced] {
            let (Answer::Raw(a), Answer::Raw(b)) =
                (plant.describe(None, access), plant.describe(None, access))
            else {
                panic!("describe is not answered from its bytes");
            };
            assert!(Arc::ptr_eq(&a, &b), "one serialization, reused");
            let want = describe::answer(&doc, &Vec::new(), access != Access::Full);
            assert_eq!(serde_json::from_slice::<Value>(&a).unwrap(), want);
        }
        let params = json!({"builtAgainst": {"pump": "2.0.0", "boiler": "1.0.0"}});
        let built = describe::read_params(Some(&params)).unwrap();
        for access in [Access::Full, Access::Reduced] {
            let got = bytes(&plant.describe(Some(&params), access));
            assert_eq!(got, describe::answer(&doc, &built, access != Access::Full));
        }
    }
}
