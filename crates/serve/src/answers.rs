//! The fake's answers over accord-plant's answer engine: the engine reads each message,
//! enforces the per-message limits, routes the call and answers the describe method, the
//! credential, params and accord's own subscriptions; this answers what it routes out: contract
//! methods (steered, canned, an example, or a generated value that passed its validator),
//! `rpc.fake`, pubsub subscriptions and event notifications, and logs each call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use accord_plant::{
    ContractCall, Credential, Handler, Plant as Engine, Routed, Session, Subscriptions,
};
use accord_schema_model::{Document, EventRoute};
use accord_validate::{Generator, Target};
use accord_wire::fake::{ExampleRef, Fake};
use accord_wire::{Call, Id, Request, RoutedEvent, RpcError, fake};
use serde_json::{Value, json};

use crate::credential::Token;
use crate::scenario::{self, Canned, CannedAnswer};
use crate::seed::{self, Mode};
use crate::table::{MethodInfo, Table};
use crate::ws_send::Outbox;
use crate::{Config, Error, Prefer, ServeLimits};
use accord_wire::encode::{self, Answer};

/// How a contract call is steered by `rpc.fake`.
enum Steer<'a> {
    Plain,
    Example(&'a ExampleRef),
    Error(i64),
}

/// A compiled contract, ready to answer.
pub(crate) struct FakePlant {
    /// The answer engine: the contract, its dialect and protocol, routing, credentials.
    pub(crate) core: Engine,
    prefer: Prefer,
    table: Table,
    scenario: Vec<Canned>,
    seed: u64,
    mode: Mode,
    /// All the limits, the engine's and the transport's and generator's.
    pub(crate) limits: ServeLimits,
    pub(crate) token: Arc<Token>,
    pub(crate) event_interval: Option<Duration>,
}

/// What answers the calls the engine routes out of one message: the plant, and on a
/// WebSocket where notifications are sent (before the answer).
struct Answers<'a> {
    plant: &'a FakePlant,
    outbox: Option<&'a mut Outbox>,
}

impl FakePlant {
    /// Compiles the contract once and checks the scenario against it.
    pub(crate) fn new(doc: Document, config: &Config) -> Result<FakePlant, Error> {
        let token = Arc::new(Token::new(config.token.as_deref())?);
        let credential = if token.is_set() {
            let token = token.clone();
            Credential::check(move |bearer| token.admits(bearer))
        } else {
            Credential::None
        };
        let mut engine = accord_plant::Config::default();
        engine.limits = config.limits.engine;
        engine.credential = credential;
        engine.metrics_path = config.metrics_path.clone();
        // The engine keeps the one copy of the document; the table is read from it (a second
        // copy cost a clone and its drop per method at start-up, and its memory at the peak).
        let core = Engine::from_document("", doc, engine).map_err(Error::from_engine)?;
        if let Some(route) = core.dialect().method(fake::METHOD) {
            return Err(Error::FakeName { method: route.qualified() });
        }
        let table = Table::new(&core);
        for dropped in &table.dropped {
            tracing::warn!(example = %dropped, "an example result fails its method's result type; it is never sent");
        }
        let scenario = match &config.scenario {
            Some(source) => scenario::load(source, &table, core.contract(), core.dialect())?,
            None => Vec::new(),
        };
        // serde_json refuses nesting past 128 as a syntax error; a deeper limit could never be
        // reached, so the effective limit (and what -32003 reports) is the engine's, at most that.
        let limits = ServeLimits { engine: *core.limits(), ..config.limits };
        Ok(FakePlant {
            core,
            prefer: config.prefer,
            table,
            scenario,
            seed: config.seed,
            mode: config.mode,
            limits,
            token,
            event_interval: config.event_interval,
        })
    }

    /// Answers one HTTP body or WebSocket message; `None` when nothing is to be answered (only
    /// notifications). `outbox`: where a WebSocket's notifications go.
    pub(crate) async fn answer(
        &self,
        bytes: &[u8],
        session: &mut Session<'_>,
        outbox: Option<&mut Outbox>,
    ) -> Option<Vec<u8>> {
        self.core.answer_with(bytes, session, &mut Answers { plant: self, outbox }).await
    }

    /// The `-32003` refusal of a whole message, for any of the limits (the engine's and the
    /// transport's).
    pub(crate) fn limit(&self, name: &str) -> Vec<u8> {
        tracing::info!(limit = name, "limit exceeded");
        encode::refusal(self.core.protocol().limit_exceeded(name, self.limits.max_of(name)))
    }

    /// One line per call; a call of a method whose semantics are undeclared is a warning that
    /// says so (`called` is the contract method answered, directly or through `rpc.fake`).
    fn log(
        request: &Request,
        answer: &Answer,
        called: Option<ContractCall<'_>>,
        transport: accord_plant::Transport,
        started: Instant,
    ) {
        let micros = started.elapsed().as_micros() as u64;
        let id = LoggedId(request.id.as_ref());
        let code = answer.code();
        if called.is_some_and(|m| !m.method().declares_semantics()) {
            tracing::warn!(
                transport = transport.as_str(), method = %request.method, id = %id, code, micros,
                semantics = "undeclared",
                "call of a method whose semantics the contract does not declare"
            );
        } else {
            tracing::info!(transport = transport.as_str(), method = %request.method, id = %id, code, micros, "call");
        }
    }

    /// `rpc.fake`; answers with the contract method it called, when it got as far as one.
    async fn fake(
        &self,
        params: Option<&Value>,
        session: &mut Session<'_>,
        outbox: Option<&mut Outbox>,
    ) -> (Answer, Option<String>) {
        let protocol = self.core.protocol();
        let steering = match fake::read_params(params) {
            Ok(steering) => steering,
            Err(error) => return (protocol.params_refusal(error).into(), None),
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
                    || (self.core.dialect().is_accord() && matches!(call, Call::Unqualified(_)))
                {
                    let error = protocol.invalid_params_at(
                        "/call/method",
                        "a contract method, namespace.method",
                        &method,
                    );
                    return (error.into(), None);
                }
                let found = self.core.dialect().resolve(&method).map(|r| r.wire_name.as_str());
                let Some((wire_name, info)) =
                    found.and_then(|wire_name| self.table.methods.get_key_value(wire_name))
                else {
                    return (protocol.method_not_found(&method).into(), None);
                };
                let steer = match (&example, error) {
                    (Some(example), _) => Steer::Example(example),
                    (None, Some(code)) => Steer::Error(code),
                    (None, None) => Steer::Plain,
                };
                // The steered call's params are checked as the engine checks a direct call's.
                let checked = match self.core.contract_call(wire_name) {
                    Some(call) => self.core.check_params(call, params.as_ref()),
                    None => Err(RpcError::internal("the engine lacks a method of the table")),
                };
                let answer = match checked {
                    Ok(()) => self.contract_call(info, params.as_ref(), steer).await,
                    Err(error) => error.into(),
                };
                (answer, Some(wire_name.clone()))
            }
            Fake::Emit { event, delay_ms } => {
                (self.emit(&event, delay_ms, session, outbox).await, None)
            }
        }
    }

    /// `rpc.fake` with `emit`: a notification of `event` on each subscription to it, now.
    async fn emit(
        &self,
        event: &str,
        delay_ms: u64,
        session: &mut Session<'_>,
        outbox: Option<&mut Outbox>,
    ) -> Answer {
        let (Some(subs), Some(outbox)) = (session.subscriptions.as_deref_mut(), outbox) else {
            return self.core.protocol().not_on_transport(session.transport.as_str()).into();
        };
        if !self.table.events.contains_key(event) {
            return self
                .core
                .protocol()
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
                    let route =
                        self.core.dialect().event(&sub.event).unwrap_or(&EventRoute::Accord);
                    let note =
                        RoutedEvent { event: &sub.event, route }.notification(&sub.id, payload);
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

    /// [`FakePlant::made`] with the generator changed by `options` (a scenario's arm) after the
    /// plant's own preference is applied.
    fn made_by(
        &self,
        target: &Target,
        seed: u64,
        what: &str,
        options: impl FnOnce(Generator<'_>) -> Generator<'_>,
    ) -> Result<Value, RpcError> {
        let check = self
            .core
            .contract()
            .validator(target)
            .map_err(|e| RpcError::internal(&e.to_string()))?;
        let value = options(
            check
                .generator()
                .budget(self.limits.generation)
                .prefer(self.prefer.arms)
                .one_case_hex(self.prefer.lower_hex)
                .static_values(self.prefer.static_values),
        )
        .generate(seed)
        .map_err(|e| match e {
            accord_validate::Error::Budget { limit, max, .. } => {
                self.core.protocol().limit(RpcError::limit_exceeded_because(
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

    /// Answers a contract method whose params passed: steered, canned, an example with the
    /// same params, or a generated value, in that order.
    async fn contract_call(
        &self,
        info: &MethodInfo,
        params: Option<&Value>,
        steer: Steer<'_>,
    ) -> Answer {
        // Absent params read by name are `{}`, whichever way the method takes them.
        let by_name = info.by_name(params);
        match steer {
            Steer::Example(wanted) => {
                let found = info.examples.iter().find(|e| match wanted {
                    ExampleRef::Name(name) => e.name.as_deref() == Some(name.as_str()),
                    ExampleRef::Index(index) => e.index as u64 == *index,
                });
                match found {
                    Some(example) => Answer::Raw(example.result.clone()),
                    None => self
                        .core
                        .protocol()
                        .invalid_params_at(
                            "/example",
                            &format!("an example of {} that has a valid result", info.name()),
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
                if let Some(canned) =
                    self.scenario.iter().find(|c| c.matches(info.name(), &by_name))
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
                                self.made_by(info.result(), seed, "result", |g| g.root_arm(*index));
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
        let name = format!("{}{salt}", info.name());
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
        match self.made(info.result(), seed, "result") {
            Ok(value) => Answer::Value(value),
            Err(error) => error.into(),
        }
    }

    fn declared_error(&self, info: &MethodInfo, code: i64, by_name: &Value) -> Answer {
        let Some(declared) = info.errors().iter().find(|e| e.code == code) else {
            return self
                .core
                .protocol()
                .invalid_params_at(
                    "/error",
                    &format!("an error code {} declares", info.name()),
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

impl Handler for Answers<'_> {
    fn contract<'s>(&'s mut self, routed: Routed<'s>) -> impl Future<Output = Answer> + Send + 's {
        let Routed { plant: _, call, request } = routed;
        let plant = self.plant;
        async move {
            match plant.table.methods.get(&request.method) {
                Some(info) => {
                    plant.contract_call(info, request.params.as_ref(), Steer::Plain).await
                }
                None => {
                    RpcError::internal(&format!("no table entry for {}", call.qualified())).into()
                }
            }
        }
    }

    fn fake<'s>(
        &'s mut self,
        _core: &'s Engine,
        request: &'s Request,
        session: &'s mut Session<'_>,
    ) -> impl Future<Output = (Answer, Option<String>)> + Send + 's {
        let plant = self.plant;
        plant.fake(request.params.as_ref(), session, self.outbox.as_deref_mut())
    }

    fn pubsub(&mut self, _core: &Engine, request: &Request, session: &mut Session<'_>) -> Answer {
        let (method, params) = (request.method.as_str(), request.params.as_ref());
        if self.plant.core.dialect().is_pubsub_subscribe(method) {
            self.plant.pubsub_subscribe(method, params, session)
        } else {
            self.plant.pubsub_unsubscribe(method, params, session)
        }
    }

    fn answered(
        &mut self,
        request: &Request,
        answer: &Answer,
        called: Option<ContractCall<'_>>,
        transport: accord_plant::Transport,
        started: Instant,
    ) {
        FakePlant::log(request, answer, called, transport, started);
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use accord_schema_model::Document;
    use accord_wire::{Access, describe};
    use serde_json::{Value, json};

    use super::FakePlant;
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
        let plant = FakePlant::new(doc.clone(), &Config::default()).unwrap().core;
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
