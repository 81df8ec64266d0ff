//! One run: the phases in order, each sending through the [`Client`], recording a transcript
//! and asking the [`judge`](crate::judge) for the verdict. Contract methods are reached only
//! through the plan's called methods, so nothing outside the policy is ever sent.

use std::collections::BTreeMap;

use accord_schema_model::{Document, Method};
use accord_validate::Target;
use accord_wire::describe::DescribeAnswer;
use accord_wire::event::NOTIFICATION;
use accord_wire::{Id, Request, Response};
use serde_json::Value;
use tokio::time::Instant;

use crate::client::AsProblem as _;
use crate::client::{Client, Reply, Socket, TransportError};
use crate::failure::Problem;
use crate::judge::Judge;
use crate::pool::Job;
use crate::report::{Check, Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport};
use crate::{Options, Progress};

mod credentials;
mod describe;
mod events;
mod flows;

pub(crate) struct Run<'a> {
    pub(crate) client: Client,
    pub(crate) judge: Judge<'a>,
    pub(crate) options: &'a Options,
    pub(crate) progress: &'a dyn Progress,
    pub(crate) checks: Vec<Check>,
    pub(crate) notes: Vec<String>,
    /// When the run stops sending (`--deadline`); checks not done by then are not run.
    pub(crate) deadline: Option<Instant>,
    /// The methods that returned a result in a flow, with the first such flow.
    pub(crate) flow_results: BTreeMap<String, String>,
    /// The events validated in flows: the first flow, and how many notifications.
    pub(crate) flow_events: BTreeMap<String, (String, usize)>,
    /// The events flows have waited for: as caused by a flow's last step (`true`) or by an
    /// earlier step.
    pub(crate) flow_waited: std::collections::BTreeSet<(String, bool)>,
    next_id: u64,
}

/// A called method: its name, wire name, namespace, method name and declaration.
pub(crate) struct Called<'d> {
    pub(crate) name: String,
    /// The name the plant answers to (the contract's wire, docs/format.md §15).
    pub(crate) wire: String,
    pub(crate) namespace: &'d str,
    pub(crate) method: &'d str,
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
            flow_results: BTreeMap::new(),
            flow_events: BTreeMap::new(),
            flow_waited: std::collections::BTreeSet::new(),
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

    /// Sends `sent` on `socket` with the right credential and judges the answer into
    /// `problems`; the reply, or `None` when the socket failed (its problem added).
    pub(crate) async fn ws_judged(
        &self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        sent: &str,
        problems: &mut Vec<Problem>,
    ) -> Option<Reply> {
        match ws_call(socket, transcript, sent).await {
            Ok((reply, _)) => {
                problems.extend(self.judge.exchange(
                    Transport::WebSocket,
                    Credential::Right,
                    sent,
                    &reply,
                ));
                Some(reply)
            }
            Err(e) => {
                problems.push(e.problem());
                None
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
            tolerable: None,
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

fn describe_answer(reply: &Reply) -> Option<DescribeAnswer> {
    match read_response(reply)? {
        Response::Success { result, .. } => DescribeAnswer::from_value(&result).ok(),
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
