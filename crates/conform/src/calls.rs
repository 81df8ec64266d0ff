//! The positive, negative and envelope phases: every request made first (in report order, so
//! ids do not depend on timing), then sent through the pool. Each called method's first
//! positive call goes before the rest: a method the plant lacks is then one `method-missing`
//! failure and its other checks are skipped, not each failed. After the positive calls of a
//! method comes its honesty check: some call must have returned a result.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use accord_schema_model::EventRoute;
use accord_wire::RoutedEvent;

use crate::failure::{FailureKind, Problem};
use crate::pool::{Job, Positive};
use crate::report::{Answered, Answers, Check, Outcome, Phase};
use crate::run::{Called, MUTANT_SOURCES, Run, seed_for};
use crate::transcript::Transcript;

/// One place in the report of these phases.
enum Item {
    /// A request to send.
    Job(Job),
    /// A check decided without sending (no valid params, no mutants).
    Done(Check),
    /// The honesty check of a method, decided from its positive calls.
    Honesty(String),
}

impl Run<'_> {
    /// The positive, negative and envelope phases.
    pub(crate) async fn calls(&mut self) {
        let from = self.checks.len();
        let called = self.called();
        let mut items = Vec::new();
        self.positive(&called, &mut items);
        self.negative(&called, &mut items);
        self.envelope(&mut items);

        // The first positive call of each method, before the rest.
        let mut firsts: Vec<usize> = Vec::new();
        for m in &called {
            let first = items.iter().position(
                |i| matches!(i, Item::Job(j) if j.phase == Phase::Positive && j.subject == m.name),
            );
            firsts.extend(first);
        }
        let jobs: Vec<&Job> = firsts.iter().filter_map(|&i| job(&items[i])).collect();
        let first_checks = self.execute_all(&jobs).await;
        let missing: BTreeSet<String> = first_checks
            .iter()
            .filter(|c| has_kind(c, FailureKind::MethodMissing))
            .map(|c| c.subject.clone())
            .collect();

        // The rest; the calls of a missing method are not sent.
        let rest: Vec<usize> = (0..items.len())
            .filter(|i| !firsts.contains(i))
            .filter(|&i| job(&items[i]).is_some_and(|j| !missing.contains(&j.subject)))
            .collect();
        let jobs: Vec<&Job> = rest.iter().filter_map(|&i| job(&items[i])).collect();
        let rest_checks = self.execute_all(&jobs).await;

        let mut done: Vec<Option<Check>> = (0..items.len()).map(|_| None).collect();
        for (i, check) in
            firsts.into_iter().zip(first_checks).chain(rest.into_iter().zip(rest_checks))
        {
            done[i] = Some(check);
        }
        for (i, item) in items.into_iter().enumerate() {
            match item {
                Item::Done(check) => self.push_check(check),
                Item::Job(job) => match done[i].take() {
                    Some(mut check) => {
                        if let Some(tolerance) = job.tolerable
                            && check.answered == Some(Answered::Result)
                            && check.outcome == Outcome::Passed
                        {
                            check.transcript.note(format!("tolerated: {}", tolerance.did()));
                            self.notes.push(format!(
                                "{}: {}: answered with a result, {}; tolerated, not a failure ({})",
                                job.subject,
                                job.name,
                                tolerance.did(),
                                tolerance.why()
                            ));
                        }
                        if job.tolerable.is_some() {
                            // Counted for positive calls only.
                            check.answered = None;
                        }
                        self.push_check(check);
                    }
                    None => self.push_check(Check {
                        phase: job.phase,
                        subject: job.subject.clone(),
                        name: job.name,
                        outcome: Outcome::Skipped(format!(
                            "the plant lacks {}: its first call was answered as a method that does not exist (method-missing)",
                            job.subject
                        )),
                        transcript: Transcript::default(),
                        answered: None,
                    }),
                },
                Item::Honesty(method) if missing.contains(&method) => {}
                Item::Honesty(method) => {
                    if let Some(check) = self.honesty(&method) {
                        self.push_check(check);
                    }
                }
            }
        }
        self.one_failure_per_cause(from);
    }

    /// Whether `method`'s positive calls returned a result: `None` when none was answered at all
    /// (nothing sent, or the deadline came first; those say so themselves).
    fn honesty(&self, method: &str) -> Option<Check> {
        let positive =
            || self.checks.iter().filter(|c| c.phase == Phase::Positive && c.subject == method);
        if positive().any(|c| matches!(c.outcome, Outcome::NotRun(_))) {
            return None;
        }
        let answers = Answers::of(positive());
        let answered = answers.results + answers.declared_errors + answers.other_errors;
        if answered == 0 {
            return None;
        }
        let mut transcript = Transcript::default();
        let outcome = if answers.results > 0 {
            Outcome::Passed
        } else if let Some(flow) = self.flow_results.get(method) {
            // Its valid calls need state only the plant makes (an id, a lease): the flow made
            // it, and there the method returned a result.
            transcript.note(format!("a result came in the flow {flow}"));
            Outcome::Passed
        } else {
            transcript
                .note(format!("every positive call of {method} above was answered with an error"));
            Outcome::Failed(vec![Problem::new(
                FailureKind::NoResult,
                format!(
                    "none of its {answered} positive call(s) returned a result ({} declared error(s), {} other error(s)): valid params must be answered with results, not only errors",
                    answers.declared_errors, answers.other_errors
                ),
            )])
        };
        Some(Check {
            phase: Phase::Positive,
            subject: method.to_owned(),
            name: crate::causes::HONESTY.to_owned(),
            outcome,
            transcript,
            answered: None,
        })
    }

    fn positive(&mut self, called: &[Called<'_>], items: &mut Vec<Item>) {
        for m in called {
            let replaced = self.replaced_by_flow(&m.name);
            if let Some((flow, source)) = &replaced
                && m.declared.examples.as_ref().is_some_and(|e| !e.is_empty())
            {
                self.notes.push(format!(
                    "{}: its examples are checked against the types only, not replayed: their params only make sense after {source} (ids the plant makes); the flow {flow} calls it instead",
                    m.name
                ));
            }
            for (i, example) in m.declared.examples.iter().flatten().enumerate() {
                let name = match &example.name {
                    Some(n) => format!("example \"{n}\""),
                    None => format!("example {}", i + 1),
                };
                if let Some((flow, source)) = &replaced {
                    items.push(Item::Done(self.example_types_only(
                        m,
                        name,
                        &example.params,
                        flow,
                        source,
                    )));
                    continue;
                }
                let documents_result = example.result.is_some();
                items.push(self.positive_call(m, name, example.params.clone(), documents_result));
            }
            for i in 0..self.options.calls as u64 {
                let name = format!("generated {}", i + 1);
                match self.generated(m, i) {
                    Ok(params) => items.push(self.positive_call(m, name, params, false)),
                    Err(reason) => {
                        items.push(Item::Done(skipped(
                            Phase::Positive,
                            &m.name,
                            &name,
                            format!("no valid params: {reason}"),
                        )));
                        break;
                    }
                }
            }
            items.push(Item::Honesty(m.name.clone()));
        }
    }

    /// The flow that replaces the live replay of `method`'s examples, and the link's source:
    /// a flow that runs and takes some of the method's params from the result of the step
    /// before (an id or a lease the plant made, which an example written beforehand cannot
    /// know).
    fn replaced_by_flow(&self, method: &str) -> Option<(String, String)> {
        crate::flows::plan(self.judge.doc, &self.options.policy).into_iter().find_map(|flow| {
            if flow.decision != crate::policy::Decision::Call {
                return None;
            }
            let link = flow.links.iter().find(|l| l.to == method && l.takes_result())?;
            Some((flow.name(), link.from.clone()))
        })
    }

    /// An example of a method whose params only make sense after another call: checked against
    /// the params type, not sent; the flow calls the method with params the plant made.
    fn example_types_only(
        &self,
        m: &Called<'_>,
        name: String,
        params: &Value,
        flow: &str,
        source: &str,
    ) -> Check {
        let reason = format!(
            "its params only make sense after {source} (ids the plant makes): checked against the types, and its live replay replaced by the flow {flow}"
        );
        let mut transcript = Transcript::default();
        transcript.note(format!("not sent: {reason}"));
        let valid = self.judge.params_valid(m.namespace, m.method, m.declared, Some(params));
        Check {
            phase: Phase::Positive,
            subject: m.name.clone(),
            name: format!("{name} (types only)"),
            outcome: if valid {
                Outcome::Passed
            } else {
                Outcome::Skipped(format!(
                    "the example's params do not validate against the method's params type; {reason}"
                ))
            },
            transcript,
            answered: None,
        }
    }

    /// A positive call of `m`: its request made now, so its id is taken in report order.
    fn positive_call(
        &mut self,
        m: &Called<'_>,
        name: String,
        params: Value,
        documents_result: bool,
    ) -> Item {
        let sent = self.request(&m.wire, Some(params));
        let positive = Positive { documents_result };
        Item::Job(self.job(Phase::Positive, &m.name, name, sent, Some(positive)))
    }

    fn negative(&mut self, called: &[Called<'_>], items: &mut Vec<Item>) {
        for m in called {
            // Mutants of a few valid values: one value (`{}` for a method without params, say)
            // may have no invalid neighbour that is still params, another (`[]`) does.
            let mut valid = Vec::new();
            for i in 0..MUTANT_SOURCES {
                match self.generated(m, i) {
                    Ok(v) if !valid.contains(&v) => valid.push(v),
                    Ok(_) => {}
                    Err(reason) => {
                        if valid.is_empty() {
                            items.push(Item::Done(skipped(
                                Phase::Negative,
                                &m.name,
                                "mutants",
                                format!("no valid params to mutate: {reason}"),
                            )));
                        }
                        break;
                    }
                }
            }
            if valid.is_empty() {
                continue;
            }
            let mut to_send = Vec::new();
            let mut dropped = 0;
            {
                let Ok(validator) = self.judge.contract.validator(&Run::params_target(m)) else {
                    continue;
                };
                let mut mutants = Vec::new();
                for (i, v) in valid.iter().enumerate() {
                    let seed = seed_for(self.options.seed, &m.name, u64::MAX - i as u64);
                    for mutant in validator.mutants(v, seed) {
                        if !mutants
                            .iter()
                            .any(|m: &accord_validate::Mutant| m.value == mutant.value)
                        {
                            mutants.push(mutant);
                        }
                    }
                }
                // Params that are neither an object nor an array are not a request at all
                // (-32600); the envelope phase probes that once, so the mutants spent here test
                // the params check. Then one mutant per rule first, so a few calls cover many
                // rules, not many variants of one.
                mutants.retain(|m| m.value.is_object() || m.value.is_array());
                // Params nested past a depth limit probe that limit: only where the wire
                // promises one (accord's 128); a plant that promises none is not held to it.
                if self.judge.protocol.depth_limit.is_none() {
                    mutants.retain(|m| m.rule != accord_validate::ValidationRule::Depth);
                }
                let mut seen = Vec::new();
                let (first, rest): (Vec<_>, Vec<_>) = mutants.drain(..).partition(|m| {
                    let new = !seen.contains(&m.rule);
                    if new {
                        seen.push(m.rule);
                    }
                    new
                });
                let mutants = first.into_iter().chain(rest);
                for mutant in mutants {
                    if to_send.len() == self.options.calls {
                        break;
                    }
                    // Re-checked here, not trusted: a mutant the contract accepts would turn a
                    // correct plant's result into a false "accepted invalid params".
                    if validator.is_valid(&mutant.value) {
                        dropped += 1;
                        continue;
                    }
                    let at =
                        if mutant.pointer.is_empty() { "(root)" } else { mutant.pointer.as_str() };
                    let name =
                        format!("mutant {at} [{}]: {}", mutant.rule.id(), mutant.description);
                    to_send.push((name, mutant.value));
                }
            }
            let sent_count = to_send.len();
            for (name, value) in to_send {
                let tolerable = self
                    .judge
                    .tolerated(m.namespace, m.method, m.declared, Some(&value))
                    .map(|(_, tolerance)| tolerance);
                let sent = self.request(&m.wire, Some(value));
                let mut job = self.job(Phase::Negative, &m.name, name, sent, None);
                job.tolerable = tolerable;
                items.push(Item::Job(job));
            }
            if sent_count == 0 {
                items.push(Item::Done(skipped(
                    Phase::Negative,
                    &m.name,
                    "mutants",
                    "the generator found no invalid params that are still an object or an array (the envelope phase probes the rest)".to_owned(),
                )));
            }
            if dropped > 0 {
                self.notes.push(format!(
                    "{}: {dropped} mutant(s) dropped because the contract accepts them",
                    m.name
                ));
            }
        }
    }

    fn envelope(&mut self, items: &mut Vec<Item>) {
        // Every probe goes to the protocol's probe method: one that changes nothing.
        let probe = self.judge.protocol.probe.clone();
        let params_probe = self.judge.protocol.params_probe.clone();
        let not_found = self.judge.protocol.method_not_found_text();
        let unknown = self.unknown_method();
        let mut probes: Vec<(&str, String, String)> = vec![
            (
                "malformed JSON",
                "-32700".to_owned(),
                format!(r#"{{"jsonrpc": "2.0", "method": "{probe}", "id": 1"#),
            ),
            ("not an object", "-32600".to_owned(), "42".to_owned()),
            (
                "wrong jsonrpc version",
                "-32600".to_owned(),
                json!({"jsonrpc": "1.0", "id": "v", "method": probe}).to_string(),
            ),
            (
                "method not a string",
                "-32600".to_owned(),
                json!({"jsonrpc": "2.0", "id": "m", "method": 7}).to_string(),
            ),
            (
                "params neither object nor array",
                crate::protocol::codes_text(
                    &self.judge.protocol.unstructured_params(self.judge.params_probe_exists()),
                ),
                json!({"jsonrpc": "2.0", "id": "p", "method": params_probe, "params": "all"})
                    .to_string(),
            ),
            ("empty batch", "-32600".to_owned(), "[]".to_owned()),
        ];
        let unknown_call = self.request(&unknown, None);
        probes.push(("unknown method", not_found.clone(), unknown_call));
        let unknown_rpc = self.request("rpc.accordConformNoSuchMethod", None);
        probes.push(("unknown rpc. method", not_found, unknown_rpc));
        let a = self.request(&probe, None);
        let b = self.request(&unknown, None);
        let batch = format!("[{a},{},{b},1]", json!({"jsonrpc": "2.0", "method": probe}));
        probes.push((
            "batch (request, notification, unknown method, invalid member)",
            "an array of 3 responses".to_owned(),
            batch,
        ));
        let note = json!({"jsonrpc": "2.0", "method": probe});
        probes.push(("notification", "no answer, HTTP 204".to_owned(), note.to_string()));
        probes.push((
            "batch of notifications",
            "no answer, HTTP 204".to_owned(),
            format!("[{note},{note}]"),
        ));
        // accord's rpc.subscribe over HTTP, for an event the wire subscribes accord's way (a
        // pubsub event is subscribed over a WebSocket only, and no code is named for the
        // refusal of its subscribe method over HTTP).
        let accord_event =
            self.judge.dialect.events().find(|(_, route)| matches!(route, EventRoute::Accord)).map(
                |(event, route)| {
                    let (method, params) = RoutedEvent { event, route }.subscribe();
                    (method.to_owned(), params)
                },
            );
        if let Some((method, params)) = accord_event {
            let sent = self.request(&method, Some(params));
            probes.push(("rpc.subscribe over HTTP", "-32004".to_owned(), sent));
        }
        for (name, expected, sent) in probes {
            let name_of_check = format!("expects {expected}");
            items.push(Item::Job(self.job(Phase::Envelope, name, name_of_check, sent, None)));
        }
    }

    fn job(
        &self,
        phase: Phase,
        subject: &str,
        name: String,
        sent: String,
        positive: Option<Positive>,
    ) -> Job {
        Job {
            phase,
            subject: subject.to_owned(),
            name,
            credential: crate::transcript::Credential::Right,
            sent,
            positive,
            tolerable: None,
        }
    }
}

fn job(item: &Item) -> Option<&Job> {
    match item {
        Item::Job(job) => Some(job),
        _ => None,
    }
}

fn has_kind(check: &Check, kind: FailureKind) -> bool {
    matches!(&check.outcome, Outcome::Failed(problems) if problems.iter().any(|p| p.kind == kind))
}

fn skipped(phase: Phase, subject: &str, name: &str, reason: String) -> Check {
    Check {
        phase,
        subject: subject.to_owned(),
        name: name.to_owned(),
        outcome: Outcome::Skipped(reason),
        transcript: Transcript::default(),
        answered: None,
    }
}
