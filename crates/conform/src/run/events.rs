//! The events phase: subscribe to each declared event, judge what arrives, unsubscribe.

use accord_schema_model::EventRoute;
use accord_validate::Target;
use accord_wire::{ProtocolMethod, Response, RoutedEvent};

use crate::arguments::subscribe_arguments;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::*;
use crate::client::Socket;
use crate::failure::{FailureKind, Problem};
use crate::judge::validation_problems;
use crate::pool::in_time;
use crate::report::{Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport};

impl Run<'_> {
    pub(crate) async fn events(&mut self) {
        let events: Vec<String> = self
            .judge
            .doc
            .namespaces
            .iter()
            .flatten()
            .flat_map(|(n, ns)| ns.events.iter().flatten().map(move |(e, _)| format!("{n}.{e}")))
            .collect();
        for name in events {
            let mut transcript = Transcript::default();
            let outcome = if let Some((flow, n)) = self.flow_events.get(&name).cloned() {
                // Subscribed before a flow's first step and validated as the steps caused it:
                // a real plant sends its events when something happens, not on request.
                transcript.note(format!(
                    "{n} notification(s) validated in the flow {flow}, subscribed before its first step"
                ));
                Outcome::Passed
            } else {
                self.subscribed_alone(&name, &mut transcript).await
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

    /// The event `name` subscribed on a WebSocket of its own.
    async fn subscribed_alone(&mut self, name: &str, transcript: &mut Transcript) -> Outcome {
        transcript.route(Transport::WebSocket, self.client.carried(Credential::Right));
        let deadline = self.deadline;
        match in_time(deadline, self.client.socket(Credential::Right)).await {
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
                let route = self.judge.dialect.event(name).cloned().unwrap_or(EventRoute::Accord);
                let routed = RoutedEvent { event: name, route: &route };
                let session = self.subscribe(&mut socket, transcript, routed);
                let outcome = in_time(deadline, session).await;
                socket.close().await;
                outcome.unwrap_or_else(|| self.not_run())
            }
        }
    }

    /// Asks the plant to emit `name` (`rpc.fake`, docs/wire.md §6, on every wire: accord serve
    /// emits on request; a real plant answers it as a method it does not have) and collects
    /// notifications into `notes` until as many as were emitted (else `calls`) have arrived or
    /// the timeout has run out; both subscription styles wait this way. `Err` is the verdict
    /// when the socket fails on the ask.
    async fn collect_emitted(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        name: &str,
        notes: &mut Vec<String>,
        problems: &mut Vec<Problem>,
    ) -> Result<Option<u64>, Outcome> {
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
            Err(e) => return Err(verdict(vec![e.problem()])),
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
        Ok(emitted)
    }

    /// One subscription of the event `routed` (`namespace.event`), by its route: subscribe,
    /// ask the plant to emit, validate each notification's payload, unsubscribe.
    async fn subscribe(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        routed: RoutedEvent<'_>,
    ) -> Outcome {
        let name = routed.event;
        let (method, params) = match self.subscribe_call(routed) {
            Ok(call) => call,
            Err(reason) => {
                return Outcome::Skipped(format!("no valid subscribe arguments: {reason}"));
            }
        };
        let sent = self.request(method, Some(params));
        let opened = self.open_subscription(socket, transcript, &sent, routed).await;
        let Opened { id: subscription, notes, emitted, mut problems } = match opened {
            Ok(opened) => opened,
            Err(outcome) => return outcome,
        };
        let mut validated = 0;
        for text in &notes {
            let invalid = |message: String| Problem::new(FailureKind::EventInvalid, message);
            let value: Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(invalid(format!("a message that is not JSON: {e}")));
                    continue;
                }
            };
            match routed.read_for(&subscription, &value) {
                Ok(payload) => {
                    validated += 1;
                    problems.extend(self.payload_problems(name, &payload, "the payload"));
                }
                Err(unread) => problems.push(invalid(unread.to_string())),
            }
        }
        problems.extend(missing_events(emitted, notes.len()));
        if matches!(routed.route, EventRoute::Pubsub(_)) {
            // A pubsub route's names are the wire's own: the note says which were used.
            self.notes.push(format!(
                "{name}: {validated} `{}` notification(s) validated, subscribed with {method}",
                routed.notification_method()
            ));
        }
        let (method, params) = routed.unsubscribe(&subscription);
        self.close_subscription(socket, transcript, method, params, &mut problems).await;
        self.subscription_outcome(problems, &notes)
    }

    /// The subscribe call of `routed`: its route's method and params (accord-wire's
    /// `RoutedEvent::subscribe`), then, on a pubsub route, the event wire's `arguments`
    /// generated valid (jsonrpsee refuses `chainHead_v1_follow` without its `with_runtime`).
    /// `Err` says why no valid arguments could be made.
    pub(crate) fn subscribe_call<'r>(
        &self,
        routed: RoutedEvent<'r>,
    ) -> Result<(&'r str, Value), String> {
        let (method, params) = routed.subscribe();
        let Value::Array(mut params) = params else { return Ok((method, params)) };
        // The event's namespace and name, as the contract spells the qualified name.
        let place = self.judge.doc.namespaces.iter().flatten().find_map(|(n, ns)| {
            let event = routed.event.strip_prefix(n.as_str())?.strip_prefix('.')?;
            ns.events.as_ref()?.contains_key(event).then_some((n.as_str(), event))
        });
        if let Some((namespace, event)) = place {
            let seed = super::seed_for(self.options.seed, routed.event, 0);
            params.extend(subscribe_arguments(self.judge.doc, namespace, event, seed)?);
        }
        Ok((method, Value::Array(params)))
    }

    /// Sends `sent`, the subscribe call of `routed`, and asks the plant to emit it: the
    /// subscription id the answer's result gives, the notifications collected, and the
    /// problems so far; `Err` is the verdict when there is no subscription.
    async fn open_subscription(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        sent: &str,
        routed: RoutedEvent<'_>,
    ) -> Result<Opened, Outcome> {
        let mut problems = Vec::new();
        let (reply, mut notes) = match ws_call(socket, transcript, sent).await {
            Ok(r) => r,
            Err(e) => return Err(verdict(vec![e.problem()])),
        };
        problems.extend(self.judge.exchange(Transport::WebSocket, Credential::Right, sent, &reply));
        let Some(subscription) = read_response(&reply).and_then(|r| match r {
            Response::Success { result, .. } => routed.subscription_id(&result),
            Response::Failure { .. } => None,
        }) else {
            if problems.is_empty() {
                problems.push(Problem::new(FailureKind::Subscription, "no subscription id"));
            }
            return Err(verdict(problems));
        };
        let emitted = self
            .collect_emitted(socket, transcript, routed.event, &mut notes, &mut problems)
            .await?;
        Ok(Opened { id: subscription, notes, emitted, problems })
    }

    /// Unsubscribes with `method(params)`: the exchange is judged, and an answer of `false`
    /// for the live subscription is a problem.
    pub(crate) async fn close_subscription(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        method: &str,
        params: Value,
        problems: &mut Vec<Problem>,
    ) {
        let sent = self.request(method, Some(params));
        let reply = self.ws_judged(socket, transcript, &sent, problems).await;
        if let Some(Response::Success { result: Value::Bool(false), .. }) =
            reply.as_ref().and_then(read_response)
        {
            problems.push(Problem::new(
                FailureKind::Subscription,
                format!("{method} answered false for a live subscription"),
            ));
        }
    }

    /// The verdict of one subscription: skipped when nothing arrived and nothing went wrong
    /// (there was nothing to validate).
    fn subscription_outcome(&self, problems: Vec<Problem>, notes: &[String]) -> Outcome {
        if problems.is_empty() && notes.is_empty() {
            return Outcome::Skipped(format!(
                "no notification arrived within {} ms; nothing to validate",
                self.client.timeout.as_millis()
            ));
        }
        verdict(problems)
    }
}

impl Run<'_> {
    /// What is wrong with `payload` as a payload of the event `name` (`namespace.event`);
    /// `what` names it in the messages.
    pub(crate) fn payload_problems(&self, name: &str, payload: &Value, what: &str) -> Vec<Problem> {
        let (namespace, event) = name.split_once('.').unwrap_or(("", name));
        let target = Target::Event { namespace: namespace.to_owned(), event: event.to_owned() };
        let kind = FailureKind::EventPayloadInvalid;
        validation_problems(&self.judge.contract, &target, payload, kind, what)
    }
}

/// A subscription the plant granted: its id, the notifications collected after asking the
/// plant to emit, how many it said it emitted, and the problems so far.
struct Opened {
    id: Value,
    notes: Vec<String>,
    emitted: Option<u64>,
    problems: Vec<Problem>,
}

/// The problem when fewer notifications arrived than the plant said it emitted.
fn missing_events(emitted: Option<u64>, arrived: usize) -> Option<Problem> {
    let n = emitted.filter(|&n| (arrived as u64) < n)?;
    Some(Problem::new(
        FailureKind::EventMissing,
        format!("the plant emitted {n} notification(s), {arrived} arrived within the timeout"),
    ))
}
