//! Flows: the paths through the contract's links (a method's `links`, OpenRPC's Link Object:
//! a method whose params can be taken from this method's params or result; the model owns
//! the link and its runtime expressions). Each flow starts
//! at a method no link leads to and follows links until none leads on, so the work queue's
//! `queue.enqueue → queue.claim → queue.ack` and `… → queue.nack` are two flows. A flow is
//! planned here, before anything is sent, with the events its steps may cause and whether the
//! policy lets every step be called; `run/flows.rs` walks it.

use std::fmt::Write as _;

use accord_schema_model::Document;
use serde_json::{Value, json};

use crate::policy::{Decision, Policy};

/// The most steps a flow takes, and the most flows a plan holds: links may form cycles and
/// fan out, and a run must stay bounded.
const MAX_STEPS: usize = 8;
const MAX_FLOWS: usize = 64;

/// One link: `to`'s params taken from `from`'s params or result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// The method the link is on (`namespace.method`).
    pub(crate) from: String,
    /// The method it leads to.
    pub(crate) to: String,
    /// The params of `to` it gives, as written: a runtime expression (`$result.0.job.id`,
    /// `$params.queue`) or a constant, by param name (read by the model's `LinkValue`).
    pub(crate) params: Vec<(String, Value)>,
}

impl Link {
    /// Whether the link takes a param from the source's result: an id the plant made, which no
    /// example written beforehand can know.
    pub(crate) fn takes_result(&self) -> bool {
        self.params.iter().any(|(_, v)| v.as_str().is_some_and(|s| s.starts_with("$result")))
    }
}

/// One planned flow.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlannedFlow {
    /// The methods in order (`namespace.method`).
    pub steps: Vec<String>,
    /// For each step after the first, the link that feeds it from the step before.
    pub(crate) links: Vec<Link>,
    /// The events its steps may cause (`namespace.event`), subscribed before the first step.
    pub events: Vec<String>,
    /// Run, or skipped by the policy and why.
    pub decision: Decision,
}

impl PlannedFlow {
    /// `queue.enqueue → queue.claim → queue.ack`.
    pub fn name(&self) -> String {
        self.steps.join(" → ")
    }

    /// The flow as JSON, for the plan.
    pub(crate) fn to_json(&self) -> Value {
        let mut v = json!({"flow": self.name(), "steps": self.steps, "events": self.events});
        match &self.decision {
            Decision::Call => v["action"] = "run".into(),
            Decision::Skip(reason) => {
                v["action"] = "skip".into();
                v["reason"] = reason.clone().into();
            }
        }
        v
    }

    /// One line of the plan's text.
    pub(crate) fn write_text(&self, out: &mut String) {
        let events = if self.events.is_empty() {
            String::new()
        } else {
            format!(" (events: {})", self.events.join(", "))
        };
        let _ = match &self.decision {
            Decision::Call => writeln!(out, "  flow  {}{events}", self.name()),
            Decision::Skip(reason) => writeln!(out, "  skip flow  {}: {reason}", self.name()),
        };
    }
}

/// Every link of `doc`, in contract order.
pub(crate) fn links(doc: &Document) -> Vec<Link> {
    let mut out = Vec::new();
    for (ns_name, ns) in doc.namespaces.iter().flatten() {
        for (m_name, method) in ns.methods.iter().flatten() {
            for link in method.links.iter().flat_map(|all| all.values()) {
                let (to_ns, to) = link.target(ns_name);
                out.push(Link {
                    from: format!("{ns_name}.{m_name}"),
                    to: format!("{to_ns}.{to}"),
                    params: link
                        .params
                        .iter()
                        .flatten()
                        .map(|(name, value)| (name.clone(), value.clone()))
                        .collect(),
                });
            }
        }
    }
    out
}

/// The events `method` may cause (`namespace.event`).
pub(crate) fn causes(doc: &Document, method: &str) -> Vec<String> {
    let Some(m) = crate::contract_method(doc, method) else { return Vec::new() };
    let ns = method.split_once('.').map_or("", |(n, _)| n);
    m.causes
        .iter()
        .flatten()
        .map(|c| {
            let (e_ns, e) = c.target(ns);
            format!("{e_ns}.{e}")
        })
        .collect()
}

/// The flows of `doc` under `policy`.
pub(crate) fn plan(doc: &Document, policy: &Policy) -> Vec<PlannedFlow> {
    let links = links(doc);
    let known = |name: &str| crate::contract_method(doc, name).is_some();
    let links: Vec<Link> =
        links.into_iter().filter(|l| known(&l.from) && known(&l.to) && l.from != l.to).collect();
    let mut starts: Vec<&str> = Vec::new();
    for l in &links {
        if !links.iter().any(|other| other.to == l.from) && !starts.contains(&l.from.as_str()) {
            starts.push(&l.from);
        }
    }
    if starts.is_empty() {
        // Every linked method is led to (a cycle): start at each source.
        for l in &links {
            if !starts.contains(&l.from.as_str()) {
                starts.push(&l.from);
            }
        }
    }
    let mut paths: Vec<(Vec<String>, Vec<Link>)> = Vec::new();
    for start in starts {
        walk(&links, vec![start.to_owned()], Vec::new(), &mut paths);
    }
    paths
        .into_iter()
        .map(|(steps, links)| {
            let mut events: Vec<String> = Vec::new();
            for step in &steps {
                for e in causes(doc, step) {
                    if crate::contract_event(doc, &e).is_some() && !events.contains(&e) {
                        events.push(e);
                    }
                }
            }
            let decision = steps
                .iter()
                .find_map(|step| {
                    let method = crate::contract_method(doc, step)?;
                    match policy.decide(step, method) {
                        Decision::Call => None,
                        Decision::Skip(reason) => {
                            Some(Decision::Skip(format!("{step} is {reason}")))
                        }
                    }
                })
                .unwrap_or(Decision::Call);
            PlannedFlow { steps, links, events, decision }
        })
        .collect()
}

/// Extends `steps` by every link from its last method to one not in it yet; a path no link
/// extends is a flow.
fn walk(
    links: &[Link],
    steps: Vec<String>,
    used: Vec<Link>,
    out: &mut Vec<(Vec<String>, Vec<Link>)>,
) {
    if out.len() >= MAX_FLOWS {
        return;
    }
    let last = steps.last().cloned().unwrap_or_default();
    let next: Vec<&Link> = if steps.len() >= MAX_STEPS {
        Vec::new()
    } else {
        links.iter().filter(|l| l.from == last && !steps.contains(&l.to)).collect()
    };
    if next.is_empty() {
        if steps.len() > 1 {
            out.push((steps, used));
        }
        return;
    }
    for link in next {
        let mut s = steps.clone();
        s.push(link.to.clone());
        let mut u = used.clone();
        u.push(link.clone());
        walk(links, s, u, out);
    }
}
