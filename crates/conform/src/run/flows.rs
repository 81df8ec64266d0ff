//! The flows phase: each planned flow walked against the plant. The events its steps may cause
//! are subscribed on one WebSocket before the first step; the steps go over HTTP one after the
//! other, each with params made from valid ones and the link from the step before (the source's
//! result fed into the linked method); every step must return a result that validates (an
//! error, even a declared one, fails the flow and names the step); then the notifications that
//! arrived are validated and the subscriptions ended.

use accord_schema_model::{EventRoute, LinkValue, ParamStructure};
use accord_validate::Target;
use accord_wire::subscription::Unread;
use accord_wire::{Response, RoutedEvent};
use serde_json::{Map, Value};
use tokio::time::Instant;

use super::*;
use crate::client::Socket;
use crate::failure::{FailureKind, Problem};
use crate::flows::PlannedFlow;
use crate::policy::Decision;
use crate::pool::in_time;
use crate::report::{Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport, note_name};

/// The name of a flow's check over `over`.
fn flow_check(over: Transport) -> String {
    format!("over {}: steps, results and the events they cause", note_name(over))
}

/// One subscription a flow made: the event, how it is subscribed, the id.
struct Subscribed {
    event: String,
    route: EventRoute,
    id: Value,
    arrived: usize,
}

impl Run<'_> {
    /// Walks every planned flow, one after the other (a flow changes the plant).
    pub(crate) async fn flows(&mut self) {
        let flows = crate::flows::plan(self.judge.doc, &self.options.policy);
        for flow in flows {
            let name = flow.name();
            // Over each of the plant's transports: the steps over HTTP, then over a WebSocket.
            for over in [Transport::Http, Transport::WebSocket] {
                if let Decision::Skip(reason) = &flow.decision {
                    self.push(
                        Phase::Flows,
                        &name,
                        &flow_check(over),
                        Outcome::Skipped(format!("not run: {reason}")),
                        Transcript::default(),
                    );
                    continue;
                }
                let mut transcript = Transcript::default();
                let walked = in_time(self.deadline, self.walk(&flow, over, &mut transcript)).await;
                let outcome = match walked {
                    None => self.not_run(),
                    Some((problems, Some(stopped))) if problems.is_empty() => {
                        Outcome::Skipped(stopped)
                    }
                    Some((problems, _)) => verdict(problems),
                };
                self.push(Phase::Flows, &name, &flow_check(over), outcome, transcript);
            }
        }
    }

    /// The problems of one walk, and why it stopped early without a fault of the plant's (a
    /// result that validates but has nothing where the link looks: no job to claim, say).
    async fn walk(
        &mut self,
        flow: &PlannedFlow,
        over: Transport,
        transcript: &mut Transcript,
    ) -> (Vec<Problem>, Option<String>) {
        let name = format!("{} over {}", flow.name(), note_name(over));
        let mut problems = Vec::new();
        let mut stopped = None;
        let mut results = 0;
        let mut socket = None;
        let mut subscribed = Vec::new();
        // Notifications that came in while a step was answered on the socket.
        let mut pending = Vec::new();
        if !flow.events.is_empty() || over == Transport::WebSocket {
            transcript.route(Transport::WebSocket, self.client.carried(Credential::Right));
            match self.client.socket(Credential::Right).await {
                Ok(Ok(mut s)) => {
                    for event in &flow.events {
                        if let Some(sub) =
                            self.subscribe_for_flow(&mut s, transcript, event, &mut problems).await
                        {
                            subscribed.push(sub);
                        }
                    }
                    socket = Some(s);
                }
                Ok(Err(status)) if flow.events.is_empty() => {
                    let why = format!("the plant refused a WebSocket (HTTP {status})");
                    transcript.note(&why);
                    return (problems, Some(why));
                }
                Err(e) if flow.events.is_empty() => {
                    let why = format!("the plant offers no WebSocket: {e}");
                    transcript.note(&why);
                    return (problems, Some(why));
                }
                Ok(Err(status)) => {
                    transcript.note(format!("upgrade refused with HTTP {status}"));
                    problems.push(Problem::new(
                        FailureKind::RightCredentialRefused,
                        format!("the WebSocket upgrade was refused with HTTP {status}"),
                    ));
                }
                Err(e) => {
                    transcript.note(format!("transport: {e}"));
                    problems.push(e.problem());
                }
            }
        }

        if over == Transport::WebSocket && socket.is_none() {
            // The subscriptions' socket could not be made: its problem is said above.
            return (problems, None);
        }
        transcript.route(over, self.client.carried(Credential::Right));
        let mut before: Option<(Value, Value)> = None;
        for (i, step) in flow.steps.iter().enumerate() {
            let n = i + 1;
            let params = match self.step_params(flow, i, before.as_ref()) {
                Ok(p) => p,
                Err(StepParams::Nothing(why)) => {
                    let why = format!("stopped before step {n} ({step}): {why}");
                    transcript.note(&why);
                    stopped = Some(why);
                    break;
                }
                Err(StepParams::Invalid(why)) => {
                    problems.push(Problem::new(
                        FailureKind::FlowStep,
                        format!("step {n} ({step}): {why}"),
                    ));
                    break;
                }
            };
            let wire = self.wire_of(step);
            let sent = self.request(&wire, Some(params.clone()));
            let (found, reply) = match socket.as_mut().filter(|_| over == Transport::WebSocket) {
                Some(s) => match ws_call(s, transcript, &sent).await {
                    Ok((reply, notes)) => {
                        pending.extend(notes);
                        let found = self.judge.exchange(
                            Transport::WebSocket,
                            Credential::Right,
                            &sent,
                            &reply,
                        );
                        (found, Some(reply))
                    }
                    Err(e) => (vec![e.problem()], None),
                },
                None => self.post(transcript, Credential::Right, &sent).await,
            };
            problems.extend(found.into_iter().map(|mut p| {
                p.message = format!("step {n} ({step}): {}", p.message);
                p
            }));
            match reply.as_ref().and_then(read_response) {
                Some(Response::Success { result, .. }) => {
                    self.flow_results.entry(step.clone()).or_insert_with(|| name.clone());
                    results += 1;
                    before = Some((params, result));
                }
                Some(Response::Failure { error, .. })
                    if problems.iter().any(|p| {
                        p.kind == FailureKind::MethodMissing
                            && p.message.starts_with(&format!("step {n} "))
                    }) =>
                {
                    // The plant lacks the method: one cause, reported once as the method's
                    // `method-missing` by the positive phase, not again by every flow through it.
                    problems.retain(|p| !p.message.starts_with(&format!("step {n} ")));
                    let why = format!(
                        "stopped at step {n}: the plant lacks {step} (error {}); reported once, as its method-missing",
                        error.code
                    );
                    transcript.note(&why);
                    stopped = Some(why);
                    break;
                }
                Some(Response::Failure { error, .. }) => {
                    problems.push(Problem::new(
                        FailureKind::FlowStep,
                        format!(
                            "step {n} ({step}) answered error {} ({}): a step of a flow must return a result",
                            error.code, error.message
                        ),
                    ));
                    break;
                }
                None => {
                    if !problems.iter().any(|p| p.message.starts_with(&format!("step {n} "))) {
                        problems.push(Problem::new(
                            FailureKind::FlowStep,
                            format!("step {n} ({step}) got no readable answer"),
                        ));
                    }
                    break;
                }
            }
        }

        let mut summary =
            format!("{name}: {results} of {} step(s) returned a result", flow.steps.len());
        if let Some(mut s) = socket {
            transcript.route(Transport::WebSocket, self.client.carried(Credential::Right));
            // Awaited: each event not yet validated, once as an event of a flow's last step and
            // once as one of an earlier step (a method *may* cause an event: a plant that never
            // sends one costs a bounded wait, not one per flow).
            let last = flow.steps.last().map(|m| crate::flows::causes(self.judge.doc, m));
            let mut awaited = Vec::new();
            for sub in &subscribed {
                let role = last.as_ref().is_some_and(|l| l.contains(&sub.event));
                if !self.flow_events.contains_key(&sub.event)
                    && self.flow_waited.insert((sub.event.clone(), role))
                {
                    awaited.push(sub.event.clone());
                }
            }
            self.collect_caused(
                &mut s,
                transcript,
                &mut subscribed,
                &awaited,
                pending,
                &mut problems,
            )
            .await;
            let seen: Vec<String> = subscribed
                .iter()
                .filter(|s| s.arrived > 0)
                .map(|s| format!("{} {}", s.event, s.arrived))
                .collect();
            let none: Vec<&str> =
                subscribed.iter().filter(|s| s.arrived == 0).map(|s| s.event.as_str()).collect();
            if !seen.is_empty() {
                summary.push_str(&format!("; caused events validated: {}", seen.join(", ")));
            }
            if !none.is_empty() {
                summary.push_str(&format!(
                    "; not arrived (a step may cause them): {}",
                    none.join(", ")
                ));
            }
            for sub in &subscribed {
                if sub.arrived > 0 {
                    let entry = self.flow_events.entry(sub.event.clone()).or_default();
                    if entry.0.is_empty() {
                        entry.0 = name.clone();
                    }
                    entry.1 += sub.arrived;
                }
                let (method, params) = sub.routed().unsubscribe(&sub.id);
                self.close_subscription(&mut s, transcript, method, params, &mut problems).await;
            }
            s.close().await;
        }
        self.notes.push(summary);
        (problems, stopped)
    }

    /// The wire name of `namespace.method`.
    fn wire_of(&self, method: &str) -> String {
        let (ns, m) = method.split_once('.').unwrap_or(("", method));
        self.judge.dialect.wire_name(ns, m).unwrap_or(method).to_owned()
    }

    /// The params of step `i`: valid ones of its method (its first example whose params
    /// validate, else generated), with what the link from the step before gives put in.
    fn step_params(
        &self,
        flow: &PlannedFlow,
        i: usize,
        before: Option<&(Value, Value)>,
    ) -> Result<Value, StepParams> {
        let step = &flow.steps[i];
        let (ns, m) = step.split_once('.').unwrap_or(("", step));
        let declared = crate::contract_method(self.judge.doc, step)
            .ok_or_else(|| StepParams::Invalid("not a method of the contract".to_owned()))?;
        let target = Target::Params { namespace: ns.to_owned(), method: m.to_owned() };
        let validator = self
            .judge
            .contract
            .validator(&target)
            .map_err(|e| StepParams::Invalid(e.to_string()))?;
        let example = declared
            .examples
            .iter()
            .flatten()
            .map(|e| e.params.clone())
            .find(|p| validator.is_valid(p));
        let mut params = match example {
            Some(p) => p,
            None => validator
                .generate(seed_for(self.options.seed, step, 0))
                .map_err(|e| StepParams::Invalid(format!("no valid params: {e}")))?,
        };
        let Some(link) = i.checked_sub(1).and_then(|j| flow.links.get(j)) else {
            return Ok(params);
        };
        let (prev_params, prev_result) = before
            .ok_or_else(|| StepParams::Invalid("the step before returned no result".to_owned()))?;
        let names: Vec<&str> = declared.params.iter().flatten().map(|p| p.name.as_str()).collect();
        if let Value::Array(items) = &params
            && declared.param_structure != Some(ParamStructure::ByPosition)
        {
            let by_name: Map<String, Value> =
                names.iter().zip(items).map(|(n, v)| ((*n).to_owned(), v.clone())).collect();
            params = Value::Object(by_name);
        }
        let named = crate::contract_method(self.judge.doc, &link.from)
            .and_then(|m| m.named_params(prev_params))
            .unwrap_or_default();
        for (param, expr) in &link.params {
            let value = LinkValue::parse(expr).map_err(|e| {
                StepParams::Invalid(format!(
                    "the link from {} gives `{param}` as {expr}: {e}",
                    link.from
                ))
            })?;
            let value = value.evaluate(&named, prev_result).ok_or_else(|| {
                StepParams::Nothing(format!(
                    "the link from {} gives `{param}` as {expr}, and the step before has nothing there (its result: {})",
                    link.from,
                    short(prev_result)
                ))
            })?;
            match &mut params {
                Value::Object(map) => {
                    map.insert(param.clone(), value);
                }
                Value::Array(items) => {
                    let at = names.iter().position(|n| n == param).ok_or_else(|| {
                        StepParams::Invalid(format!(
                            "the link gives `{param}`, which the method does not take"
                        ))
                    })?;
                    if at < items.len() {
                        items[at] = value;
                    } else if at == items.len() {
                        items.push(value);
                    } else {
                        return Err(StepParams::Invalid(format!(
                            "the link gives `{param}` (position {at}) and the params before it are left out"
                        )));
                    }
                }
                _ => {
                    return Err(StepParams::Invalid(
                        "params that are neither an object nor an array".to_owned(),
                    ));
                }
            }
        }
        if let Err(errors) = validator.validate(&params) {
            let first = errors.first().map(ToString::to_string).unwrap_or_default();
            return Err(StepParams::Invalid(format!(
                "the params the link from {} makes do not validate: {first}",
                link.from
            )));
        }
        Ok(params)
    }

    /// Subscribes to `event` on `socket` for a flow; `None` (with a problem) when the plant
    /// grants no subscription.
    async fn subscribe_for_flow(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        event: &str,
        problems: &mut Vec<Problem>,
    ) -> Option<Subscribed> {
        let route = self.judge.dialect.event(event).cloned().unwrap_or(EventRoute::Accord);
        let (method, params) = match self.subscribe_call(RoutedEvent { event, route: &route }) {
            Ok(call) => call,
            Err(reason) => {
                problems.push(Problem::new(
                    FailureKind::Subscription,
                    format!("no valid subscribe arguments for {event}: {reason}"),
                ));
                return None;
            }
        };
        let sent = self.request(method, Some(params));
        let reply = self.ws_judged(socket, transcript, &sent, problems).await?;
        let id = match read_response(&reply) {
            Some(Response::Success { result, .. }) => {
                RoutedEvent { event, route: &route }.subscription_id(&result)
            }
            _ => None,
        };
        match id {
            Some(id) => Some(Subscribed { event: event.to_owned(), route, id, arrived: 0 }),
            None => {
                problems.push(Problem::new(
                    FailureKind::Subscription,
                    format!("no subscription to {event}, which the flow's steps may cause"),
                ));
                None
            }
        }
    }

    /// Collects the notifications of `subscribed` until each has had one or the timeout has run
    /// out, and validates each.
    async fn collect_caused(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        subscribed: &mut [Subscribed],
        awaited: &[String],
        pending: Vec<String>,
        problems: &mut Vec<Problem>,
    ) {
        let mut pending = pending.into_iter();
        let deadline = Instant::now() + self.client.timeout;
        // Until every awaited event has come (or the timeout); then whatever is here already.
        let waiting = |subscribed: &[Subscribed]| {
            subscribed.iter().any(|s| s.arrived == 0 && awaited.contains(&s.event))
        };
        loop {
            let until = if waiting(subscribed) { deadline } else { Instant::now() };
            let text = match pending.next() {
                // Recorded when it came, during a step.
                Some(text) => text,
                None => match socket.next(until).await {
                    Ok(Some(text)) => {
                        transcript.received(&text);
                        text
                    }
                    Ok(None) => break,
                    Err(e) => {
                        problems.push(e.problem());
                        break;
                    }
                },
            };
            let Ok(value) = serde_json::from_str::<Value>(&text) else {
                problems
                    .push(Problem::new(FailureKind::EventInvalid, "a message that is not JSON"));
                continue;
            };
            // The subscription whose route reads the message and whose id it names; else the
            // nearest miss says what is wrong with it.
            let mut miss: Option<Unread> = None;
            let mut found = None;
            for (i, sub) in subscribed.iter().enumerate() {
                match sub.routed().read_for(&sub.id, &value) {
                    Ok(payload) => {
                        found = Some((i, payload));
                        break;
                    }
                    Err(unread) => {
                        if miss.as_ref().is_none_or(|m| nearness(&unread) > nearness(m)) {
                            miss = Some(unread);
                        }
                    }
                }
            }
            let Some((i, payload)) = found else {
                let message = match miss {
                    None | Some(Unread::OtherMethod { .. }) => "a message that is neither a response awaited nor a notification of a subscription".to_owned(),
                    Some(Unread::OtherSubscription { found, .. }) => {
                        format!("a notification for subscription {found}, which the flow did not make")
                    }
                    Some(unread) => unread.to_string(),
                };
                problems.push(Problem::new(FailureKind::EventInvalid, message));
                continue;
            };
            let sub = &mut subscribed[i];
            sub.arrived += 1;
            let what = format!("the payload of {}", sub.event);
            problems.extend(self.payload_problems(&sub.event, &payload, &what));
        }
    }
}

/// How near a miss `unread` is to a notification of a flow's subscription: a message in the
/// shape of one but of the wrong event says more than one that names another subscription,
/// which says more than one of another method.
fn nearness(unread: &Unread) -> u8 {
    match unread {
        Unread::OtherMethod { .. } => 0,
        Unread::OtherSubscription { .. } => 1,
        _ => 2,
    }
}

impl Subscribed {
    fn routed(&self) -> RoutedEvent<'_> {
        RoutedEvent { event: &self.event, route: &self.route }
    }
}

/// Why a step's params could not be made.
enum StepParams {
    /// The step before returned a result with nothing where the link looks (it validates: a
    /// plant may have no job to hand out): the flow stops, skipped, not failed.
    Nothing(String),
    /// The contract's link or params cannot make valid params.
    Invalid(String),
}

/// A value in at most 200 characters, for messages.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}
