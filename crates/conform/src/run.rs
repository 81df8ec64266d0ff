//! One run: the phases in order, each sending through the [`Client`], recording a transcript
//! and asking the [`judge`](crate::judge) for the verdict. Contract methods are reached only
//! through the plan's called methods, so nothing outside the policy is ever sent.

use accord_compat_diff::{Level, Pairing, Source, diff};
use accord_schema_model::{Document, EventRoute, Method};
use accord_validate::Target;
use accord_wire::describe::Answer;
use accord_wire::event::{NOTIFICATION, Notification, SUBSCRIBE, UNSUBSCRIBE};
use accord_wire::{Id, ProtocolMethod, Request, Response};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::client::{Client, Reply, Socket, TransportError};
use crate::judge::{Judge, built_against, validation_problems};
use crate::kind::{FailureKind, Problem};
use crate::pool::{Job, in_time};
use crate::report::{Check, Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport};
use crate::{Options, Progress};

pub(crate) struct Run<'a> {
    pub(crate) client: Client,
    pub(crate) judge: Judge<'a>,
    pub(crate) options: &'a Options,
    pub(crate) progress: &'a dyn Progress,
    pub(crate) checks: Vec<Check>,
    pub(crate) notes: Vec<String>,
    /// When the run stops sending (`--deadline`); checks not done by then are not run.
    pub(crate) deadline: Option<Instant>,
    next_id: u64,
}

/// A called method: its name, wire name, namespace, method name and declaration.
pub(crate) struct Called<'d> {
    pub(crate) name: String,
    /// The name the plant answers to (the contract's wire, docs/format.md §15).
    pub(crate) wire: String,
    namespace: &'d str,
    method: &'d str,
    pub(crate) declared: &'d Method,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        client: Client,
        judge: Judge<'a>,
        options: &'a Options,
        progress: &'a dyn Progress,
    ) -> Run<'a> {
        let deadline = options.deadline.map(|d| Instant::now() + d);
        Run {
            client,
            judge,
            options,
            progress,
            checks: Vec::new(),
            notes: Vec::new(),
            deadline,
            next_id: 0,
        }
    }

    fn id(&mut self) -> Id {
        self.next_id += 1;
        Id::Number(self.next_id.into())
    }

    /// A request's text, with a fresh id.
    pub(crate) fn request(&mut self, method: &str, params: Option<Value>) -> String {
        let id = self.id();
        Request { id: Some(id), method: method.to_owned(), params }.to_value().to_string()
    }

    pub(crate) fn push(
        &mut self,
        phase: Phase,
        subject: &str,
        name: &str,
        outcome: Outcome,
        transcript: Transcript,
    ) {
        self.progress.advance(&format!("{} {subject}", phase.as_str()));
        self.checks.push(Check {
            phase,
            subject: subject.to_owned(),
            name: name.to_owned(),
            outcome,
            transcript,
            answered: None,
        });
    }

    /// Records a check made by [`Run::execute`] (which told the progress already).
    pub(crate) fn push_check(&mut self, check: Check) {
        self.checks.push(check);
    }

    /// Posts `sent`, records it and its answer, and judges the answer; also returns the reply.
    pub(crate) async fn post(
        &self,
        transcript: &mut Transcript,
        credential: Credential,
        sent: &str,
    ) -> (Vec<Problem>, Option<Reply>) {
        transcript.sent(sent);
        match self.client.post(sent, credential).await {
            Ok(reply) => {
                record(transcript, &reply);
                (self.judge.exchange(Transport::Http, credential, sent, &reply), Some(reply))
            }
            Err(e) => {
                transcript.note(format!("transport: {e}"));
                (vec![e.problem()], None)
            }
        }
    }

    /// One HTTP check, sent now.
    async fn http_check(
        &mut self,
        phase: Phase,
        subject: &str,
        name: &str,
        credential: Credential,
        sent: &str,
    ) {
        let job = Job {
            phase,
            subject: subject.to_owned(),
            name: name.to_owned(),
            credential,
            sent: sent.to_owned(),
            positive: None,
        };
        let check = self.execute(&job).await;
        self.push_check(check);
    }

    /// The contract methods the plan calls, in contract order.
    pub(crate) fn called(&self) -> Vec<Called<'a>> {
        let doc: &'a Document = self.judge.doc;
        let mut out = Vec::new();
        for (ns_name, ns) in doc.namespaces.iter().flatten() {
            for (m_name, method) in ns.methods.iter().flatten() {
                let name = format!("{ns_name}.{m_name}");
                if self.options.policy.decide(&name, method) == crate::policy::Decision::Call {
                    let wire =
                        self.judge.dialect.wire_name(ns_name, m_name).unwrap_or(&name).to_owned();
                    out.push(Called {
                        name,
                        wire,
                        namespace: ns_name,
                        method: m_name,
                        declared: method,
                    });
                }
            }
        }
        out
    }

    pub(crate) fn params_target(m: &Called<'_>) -> Target {
        Target::Params { namespace: m.namespace.to_owned(), method: m.method.to_owned() }
    }

    /// Valid params of `m` for the i-th generated call, the same for the same seed.
    pub(crate) fn generated(&self, m: &Called<'_>, i: u64) -> Result<Value, String> {
        let validator =
            self.judge.contract.validator(&Run::params_target(m)).map_err(|e| e.to_string())?;
        validator.generate(seed_for(self.options.seed, &m.name, i)).map_err(|e| e.to_string())
    }

    // ---- describe ----

    pub(crate) async fn describe(&mut self) {
        let Some(subject) = self.judge.protocol.describe.clone() else {
            self.push(
                Phase::Describe,
                "describe",
                "the plant's own description",
                Outcome::Skipped("the plant's protocol has no describe method".to_owned()),
                Transcript::default(),
            );
            return;
        };
        let subject = subject.as_str();
        let sent = self.request(subject, Some(built_against(self.judge.doc)));
        let mut transcript = Transcript::default();
        transcript.route(Transport::Http, self.client.carried(Credential::Right));
        let answer =
            in_time(self.deadline, self.post(&mut transcript, Credential::Right, &sent)).await;
        let outcome = match answer {
            None => self.not_run(),
            Some((mut problems, reply)) => {
                if problems.is_empty()
                    && let Some(answer) = reply.as_ref().and_then(describe_answer)
                {
                    problems.extend(self.compare_described(&answer));
                }
                verdict(problems)
            }
        };
        let name = if self.client.has_token() {
            "with the credential"
        } else {
            "(no credential configured)"
        };
        self.push(Phase::Describe, subject, name, outcome, transcript);
        if self.client.has_token() {
            let sent = self.request(subject, Some(built_against(self.judge.doc)));
            self.http_check(
                Phase::Describe,
                subject,
                "without a credential (the reduced answer)",
                Credential::None,
                &sent,
            )
            .await;
        }
    }

    /// The described contract against the given one: versions and verdicts, then compat-diff.
    fn compare_described(&self, answer: &Answer) -> Vec<Problem> {
        let doc = self.judge.doc;
        let mut problems = Vec::new();
        if answer.schema != doc.schema {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!(
                    "the plant serves schema {}, the contract is schema {}",
                    answer.schema, doc.schema
                ),
            ));
        }
        for (name, ns) in doc.namespaces.iter().flatten() {
            match answer.namespaces.iter().find(|e| &e.name == name) {
                None => problems.push(Problem::new(
                    FailureKind::DescribeDiffers,
                    format!("namespace `{name}` is not described"),
                )),
                Some(entry) => {
                    match &entry.version {
                        Some(v) if v == &ns.version => {}
                        Some(v) => problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}`: the plant serves version {v}, the contract is {}", ns.version))),
                        None => problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}` is not served"))),
                    }
                    if let Some(Err(reason)) = &entry.verdict {
                        problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}`: the plant says a caller built against {} is not compatible: {reason}", ns.version)));
                    }
                }
            }
        }
        for entry in &answer.namespaces {
            if entry.version.is_some()
                && !doc.namespaces.iter().flatten().any(|(n, _)| n == &entry.name)
            {
                problems.push(Problem::new(
                    FailureKind::DescribeDiffers,
                    format!(
                        "the plant serves namespace `{}`, which the contract does not have",
                        entry.name
                    ),
                ));
            }
        }
        let Some(served) = answer.contract.clone().and_then(|c| Document::from_value(c).ok())
        else {
            return problems;
        };
        let given = Source::from_document("contract", doc.clone());
        let served = Source::from_document("described", served);
        let report = diff(&given, &served);
        for f in report
            .findings
            .iter()
            .filter(|f| f.pairing == Pairing::OldCallersNewPlant && f.level > Level::None)
        {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!(
                    "{} at {} ({} for callers built against the contract): {}",
                    f.rule,
                    f.path,
                    f.level.as_str(),
                    f.message
                ),
            ));
        }
        if let Some(s) = &report.schema {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!("the described contract is schema {}, the given one {}", s.new, s.old),
            ));
        }
        problems
    }

    // ---- credentials ----

    pub(crate) async fn credentials(&mut self) {
        if !self.client.has_token() {
            self.push(
                Phase::Credentials,
                "credentials",
                "none, wrong, right",
                Outcome::Skipped(
                    "no token given: the plant is taken to have no credentials".to_owned(),
                ),
                Transcript::default(),
            );
            return;
        }
        let describe = self.judge.protocol.probe.clone();
        let describe = describe.as_str();
        let first = self.called().into_iter().next();
        let call = match &first {
            Some(m) => match self.first_params(m) {
                Ok(params) => Some((m.wire.clone(), params)),
                Err(_) => None,
            },
            None => None,
        };
        // What a call without a credential must get: the wire's code, or the HTTP refusal of a
        // wire that has none (docs/wire.md §11.2).
        let no_credential = match self.judge.dialect.codes.credential_required {
            Some(code) => format!("no credential: {code}"),
            None => "no credential over HTTP: refused with 401".to_owned(),
        };
        if let Some((name, params)) = &call {
            let sent = self.request(name, Some(params.clone()));
            self.http_check(Phase::Credentials, name, &no_credential, Credential::None, &sent)
                .await;
        }
        let sent = self.request(describe, None);
        self.http_check(
            Phase::Credentials,
            describe,
            "wrong credential over HTTP: refused with 401",
            Credential::Wrong,
            &sent,
        )
        .await;
        if let Some((name, params)) = &call {
            let sent = self.request(name, Some(params.clone()));
            self.http_check(
                Phase::Credentials,
                name,
                "wrong credential over HTTP: refused with 401",
                Credential::Wrong,
                &sent,
            )
            .await;
        }
        self.upgrade(Credential::Wrong).await;
        self.upgrade(Credential::Right).await;
    }

    /// A WebSocket upgrade with `credential`: a wrong one must be refused with 401 before the
    /// upgrade; the right one must give a socket on which rpc.describe answers in full.
    async fn upgrade(&mut self, credential: Credential) {
        let describe = self.judge.protocol.probe.clone();
        let describe = describe.as_str();
        let mut transcript = Transcript::default();
        transcript.route(Transport::Ws, credential);
        let name = match credential {
            Credential::Wrong => {
                "wrong credential over WebSocket: upgrade refused with 401".to_owned()
            }
            _ => format!("right credential over WebSocket: {describe} in full"),
        };
        let Some(socket) = in_time(self.deadline, self.client.socket(credential)).await else {
            let outcome = self.not_run();
            self.push(Phase::Credentials, describe, &name, outcome, transcript);
            return;
        };
        let problems = match socket {
            Err(e) => {
                transcript.note(format!("transport: {e}"));
                vec![e.problem()]
            }
            Ok(Err(status)) => {
                transcript.note(format!("upgrade refused with HTTP {status}"));
                match (credential, status) {
                    (Credential::Wrong, 401) => Vec::new(),
                    (Credential::Wrong, s) => vec![Problem::new(
                        FailureKind::RefusalShape,
                        format!(
                            "a wrong credential must be refused with HTTP 401 at the upgrade, got HTTP {s}"
                        ),
                    )],
                    (_, s) => vec![Problem::new(
                        FailureKind::RightCredentialRefused,
                        format!("the upgrade with the right credential was refused with HTTP {s}"),
                    )],
                }
            }
            Ok(Ok(mut socket)) => {
                transcript.note("upgraded");
                let sent = self.request(describe, None);
                let answer =
                    in_time(self.deadline, ws_call(&mut socket, &mut transcript, &sent)).await;
                socket.close().await;
                let Some(answer) = answer else {
                    let outcome = self.not_run();
                    self.push(Phase::Credentials, describe, &name, outcome, transcript);
                    return;
                };
                match (credential, answer) {
                    (_, Err(e)) => vec![e.problem()],
                    (Credential::Wrong, Ok((reply, _))) => {
                        let reduced = describe_answer(&reply).is_some_and(|a| a.reduced);
                        vec![if reduced {
                            Problem::new(
                                FailureKind::WrongCredentialDowngraded,
                                "a WebSocket upgrade with a wrong credential must be refused with HTTP 401, and it was upgraded and given the reduced describe answer",
                            )
                        } else {
                            Problem::new(
                                FailureKind::WrongCredentialAccepted,
                                "a WebSocket upgrade with a wrong credential must be refused with HTTP 401, and it was upgraded",
                            )
                        }]
                    }
                    (_, Ok((reply, _))) => {
                        self.judge.exchange(Transport::Ws, credential, &sent, &reply)
                    }
                }
            }
        };
        self.push(Phase::Credentials, describe, &name, verdict(problems), transcript);
    }

    // ---- positive and negative calls ----

    /// The first params a check of `m` sends: its first example's, else generated ones.
    fn first_params(&self, m: &Called<'_>) -> Result<Value, String> {
        match m.declared.examples.iter().flatten().next() {
            Some(example) => Ok(example.params.clone()),
            None => self.generated(m, 0),
        }
    }

    // ---- envelope ----

    /// A method name the plant does not answer to, beside its own names.
    pub(crate) fn unknown_method(&self) -> String {
        crate::plan::unknown_method(self.judge.doc, &self.judge.dialect)
    }

    // ---- events ----

    pub(crate) async fn events(&mut self) {
        let events: Vec<(String, String, String)> = self
            .judge
            .doc
            .namespaces
            .iter()
            .flatten()
            .flat_map(|(n, ns)| {
                ns.events
                    .iter()
                    .flatten()
                    .map(move |(e, _)| (format!("{n}.{e}"), n.clone(), e.clone()))
            })
            .collect();
        for (name, namespace, event) in events {
            let mut transcript = Transcript::default();
            transcript.route(Transport::Ws, self.client.carried(Credential::Right));
            let deadline = self.deadline;
            let outcome = match in_time(deadline, self.client.socket(Credential::Right)).await {
                None => self.not_run(),
                Some(Err(e)) => {
                    transcript.note(format!("transport: {e}"));
                    verdict(vec![e.problem()])
                }
                Some(Ok(Err(status))) => {
                    transcript.note(format!("upgrade refused with HTTP {status}"));
                    verdict(vec![Problem::new(
                        FailureKind::RightCredentialRefused,
                        format!("the WebSocket upgrade was refused with HTTP {status}"),
                    )])
                }
                Some(Ok(Ok(mut socket))) => {
                    let outcome = match self.judge.dialect.event(&name).cloned() {
                        Some(EventRoute::Pubsub(route)) => {
                            let session = self.subscribe_pubsub(
                                &mut socket,
                                &mut transcript,
                                &route,
                                &name,
                                &namespace,
                                &event,
                            );
                            in_time(deadline, session).await
                        }
                        _ => {
                            let session = self.subscribe(
                                &mut socket,
                                &mut transcript,
                                &name,
                                &namespace,
                                &event,
                            );
                            in_time(deadline, session).await
                        }
                    };
                    socket.close().await;
                    outcome.unwrap_or_else(|| self.not_run())
                }
            };
            self.push(
                Phase::Events,
                &name,
                "subscribe, collect, validate, unsubscribe",
                outcome,
                transcript,
            );
        }
    }

    async fn subscribe(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        name: &str,
        namespace: &str,
        event: &str,
    ) -> Outcome {
        let mut problems = Vec::new();
        let sent = self.request(SUBSCRIBE, Some(json!({"event": name})));
        let (reply, mut notes) = match ws_call(socket, transcript, &sent).await {
            Ok(r) => r,
            Err(e) => return verdict(vec![e.problem()]),
        };
        problems.extend(self.judge.exchange(Transport::Ws, Credential::Right, &sent, &reply));
        let Some(subscription) = read_response(&reply).and_then(|r| match r {
            Response::Success { result: Value::String(s), .. } => Some(s),
            _ => None,
        }) else {
            if problems.is_empty() {
                problems.push(Problem::new(FailureKind::Subscription, "no subscription id"));
            }
            return verdict(problems);
        };
        // accord serve emits on request (rpc.fake, docs/wire.md §6); a real plant answers -32601
        // and its events are awaited for the timeout.
        let sent = self.request(ProtocolMethod::Fake.name(), Some(json!({"emit": name})));
        let emitted = match ws_call(socket, transcript, &sent).await {
            Ok((reply, more)) => {
                notes.extend(more);
                read_response(&reply).and_then(|r| match r {
                    Response::Success { result, .. } => {
                        result.get("emitted").and_then(Value::as_u64)
                    }
                    Response::Failure { .. } => None,
                })
            }
            Err(e) => return verdict(vec![e.problem()]),
        };
        let want = emitted.map_or(self.options.calls.max(1), |n| n as usize);
        let deadline = Instant::now() + self.client.timeout;
        while notes.len() < want {
            match socket.next(deadline).await {
                Ok(Some(text)) => {
                    transcript.received(&text);
                    notes.push(text);
                }
                Ok(None) => break,
                Err(e) => {
                    problems.push(e.problem());
                    break;
                }
            }
        }
        let target = Target::Event { namespace: namespace.to_owned(), event: event.to_owned() };
        for text in &notes {
            let value: Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(Problem::new(
                        FailureKind::EventInvalid,
                        format!("a message that is not JSON: {e}"),
                    ));
                    continue;
                }
            };
            match Notification::from_value(&value) {
                Ok(Some(n)) => {
                    if n.event != name {
                        problems.push(Problem::new(FailureKind::EventInvalid, format!("a notification of `{}` on a subscription to `{name}`", n.event)));
                    } else if n.subscription != subscription {
                        problems.push(Problem::new(FailureKind::EventInvalid, format!("a notification for subscription `{}`, not `{subscription}`", n.subscription)));
                    } else {
                        problems.extend(validation_problems(&self.judge.contract, &target, &n.payload, FailureKind::EventPayloadInvalid, "the payload"));
                    }
                }
                Ok(None) => problems.push(Problem::new(FailureKind::EventInvalid, format!("a message that is neither a response awaited nor an `{NOTIFICATION}` notification"))),
                Err(e) => problems.push(Problem::new(FailureKind::EventInvalid, format!("a malformed notification: {e}"))),
            }
        }
        if let Some(n) = emitted
            && (notes.len() as u64) < n
        {
            problems.push(Problem::new(
                FailureKind::EventMissing,
                format!(
                    "the plant emitted {n} notification(s), {} arrived within the timeout",
                    notes.len()
                ),
            ));
        }
        let sent = self.request(UNSUBSCRIBE, Some(json!({"subscription": subscription})));
        match ws_call(socket, transcript, &sent).await {
            Ok((reply, _)) => {
                problems.extend(self.judge.exchange(
                    Transport::Ws,
                    Credential::Right,
                    &sent,
                    &reply,
                ));
                if let Some(Response::Success { result: Value::Bool(false), .. }) =
                    read_response(&reply)
                {
                    problems.push(Problem::new(
                        FailureKind::Subscription,
                        "rpc.unsubscribe answered false for a live subscription",
                    ));
                }
            }
            Err(e) => problems.push(e.problem()),
        }
        if problems.is_empty() && notes.is_empty() {
            return Outcome::Skipped(format!(
                "no notification arrived within {} ms; nothing to validate",
                self.client.timeout.as_millis()
            ));
        }
        verdict(problems)
    }
}

/// How many valid values per method the negative phase takes mutants of.
pub(crate) const MUTANT_SOURCES: u64 = 8;

/// Sends `sent` on a socket and waits for the response with its id; notifications that
/// arrive meanwhile are recorded and returned.
pub(crate) async fn ws_call(
    socket: &mut Socket,
    transcript: &mut Transcript,
    sent: &str,
) -> Result<(Reply, Vec<String>), TransportError> {
    transcript.sent(sent);
    socket.send(sent).await?;
    let want = serde_json::from_str::<Value>(sent).ok().and_then(|v| v.get("id").cloned());
    let deadline = Instant::now() + socket.timeout;
    let mut notes = Vec::new();
    loop {
        let Some(text) = socket.next(deadline).await? else {
            transcript.note("no answer within the timeout");
            return Ok((Reply { status: None, body: None, challenge: false }, notes));
        };
        transcript.received(&text);
        let value = serde_json::from_str::<Value>(&text).ok();
        // accord's `rpc.event`, or any message with a method and no id: a pubsub
        // notification (docs/wire.md §11.3) is named by its subscription.
        let method = value.as_ref().and_then(|v| v.get("method")).and_then(Value::as_str);
        let is_note = method == Some(NOTIFICATION)
            || (method.is_some() && value.as_ref().is_some_and(|v| v.get("id").is_none()));
        if is_note {
            notes.push(text);
            continue;
        }
        if want.is_some()
            && value.as_ref().and_then(|v| v.get("id")) != want.as_ref()
            && value.as_ref().is_some_and(Value::is_object)
        {
            // An answer to something else: recorded, not ours.
            continue;
        }
        return Ok((Reply { status: None, body: Some(text), challenge: false }, notes));
    }
}

fn record(transcript: &mut Transcript, reply: &Reply) {
    if let Some(status) = reply.status.filter(|s| *s != 200) {
        transcript.note(format!("http status {status}"));
    }
    match &reply.body {
        Some(body) => transcript.received(body),
        None => transcript.note("no answer"),
    }
}

pub(crate) fn read_response(reply: &Reply) -> Option<Response> {
    let value = serde_json::from_str::<Value>(reply.body.as_deref()?).ok()?;
    Response::from_value(&value, "").ok()
}

fn describe_answer(reply: &Reply) -> Option<Answer> {
    match read_response(reply)? {
        Response::Success { result, .. } => Answer::from_value(&result).ok(),
        Response::Failure { .. } => None,
    }
}

pub(crate) fn verdict(problems: Vec<Problem>) -> Outcome {
    if problems.is_empty() { Outcome::Passed } else { Outcome::Failed(problems) }
}

/// The seed of the i-th value for a method: the run's seed mixed with the method's name
/// (FNV-1a, stable across builds), so adding a method does not change another's values.
pub(crate) fn seed_for(seed: u64, name: &str, i: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for byte in name.bytes().chain(i.to_le_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
