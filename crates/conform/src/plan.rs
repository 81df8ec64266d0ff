//! The plan: what a run will call, what it skips and why. It is made before anything is sent,
//! printed first, and is all a dry run gives.

use std::fmt::Write as _;

use accord_schema_model::{Dialect, Document};
use serde_json::{Value, json};

use crate::Options;
use crate::flows::PlannedFlow;
use crate::policy::{Class, Decision};
use crate::protocol::Protocol;

/// One contract method in the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlannedMethod {
    /// `namespace.method`.
    pub name: String,
    /// Its semantics class.
    pub class: Class,
    /// Called, or skipped with the reason.
    pub decision: Decision,
    /// How many examples the contract gives (called first).
    pub examples: usize,
}

/// What a run will do.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plan {
    /// Every contract method, in contract order.
    pub methods: Vec<PlannedMethod>,
    /// Every event (`namespace.event`), subscribed in the events phase (a subscription changes
    /// nothing on the plant, so no policy applies).
    pub events: Vec<String>,
    /// Generated valid params and mutants per called method.
    pub calls: usize,
    /// The seed of every generated value.
    pub seed: u64,
    /// Whether the credential phase runs (a token was given).
    pub credentials: bool,
    /// The plant's protocol: its describe method, the probes' target, its codes.
    pub protocol: Protocol,
    /// The flows: paths through the contract's links, run or skipped by the policy.
    pub flows: Vec<PlannedFlow>,
}

impl Plan {
    /// The plan for `doc`, spoken in `dialect` (the contract's wire), under `options`.
    pub fn new(doc: &Document, dialect: &Dialect, options: &Options, credentials: bool) -> Plan {
        let mut methods = Vec::new();
        let mut events = Vec::new();
        // Without a describe method, the probes go to a read method the plan calls: one that
        // needs no params first, so that a probe without params is a call it can answer.
        let mut read_probe: Option<(bool, String)> = None;
        // The params probe goes to a called method that takes params (such a method reads
        // them, so unreadable ones are refused before it runs): a read method first, one with
        // a required param first.
        let mut params_probe: Option<(u8, String)> = None;
        for (ns_name, ns) in doc.namespaces.iter().flatten() {
            for (m_name, method) in ns.methods.iter().flatten() {
                let name = format!("{ns_name}.{m_name}");
                let decision = options.policy.decide(&name, method);
                let examples = method.examples.as_ref().map_or(0, Vec::len);
                let class = Class::of(method);
                if class == Class::Read
                    && decision == Decision::Call
                    && let Some(wire) = dialect.wire_name(ns_name, m_name)
                {
                    let no_params = method
                        .params
                        .iter()
                        .flatten()
                        .all(|p| p.field.input_optional.or(p.field.optional).unwrap_or(false));
                    if read_probe.as_ref().is_none_or(|(had, _)| no_params && !had) {
                        read_probe = Some((no_params, wire.to_owned()));
                    }
                }
                if decision == Decision::Call
                    && method.params.as_ref().is_some_and(|p| !p.is_empty())
                    && let Some(wire) = dialect.wire_name(ns_name, m_name)
                {
                    let required = method
                        .params
                        .iter()
                        .flatten()
                        .any(|p| !p.field.input_optional.or(p.field.optional).unwrap_or(false));
                    let rank = u8::from(class != Class::Read) * 2 + u8::from(!required);
                    if params_probe.as_ref().is_none_or(|(had, _)| rank < *had) {
                        params_probe = Some((rank, wire.to_owned()));
                    }
                }
                methods.push(PlannedMethod { name, class, decision, examples });
            }
            for e_name in ns.events.iter().flatten().map(|(n, _)| n) {
                events.push(format!("{ns_name}.{e_name}"));
            }
        }
        Plan {
            methods,
            events,
            calls: options.calls,
            seed: options.seed,
            credentials,
            flows: crate::flows::plan(doc, &options.policy),
            protocol: Protocol::of(
                dialect,
                read_probe.map(|(_, wire)| wire),
                params_probe.map(|(_, wire)| wire),
                unknown_method(doc, dialect),
                options,
            ),
        }
    }

    /// The methods that will be called.
    pub fn called(&self) -> impl Iterator<Item = &PlannedMethod> {
        self.methods.iter().filter(|m| m.decision == Decision::Call)
    }

    /// The plan as text, for people.
    pub fn to_text(&self) -> String {
        let called = self.called().count();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "plan: {} method(s), {called} called, {} skipped by policy; {} event(s); {} generated call(s) and mutant(s) per method, seed {}",
            self.methods.len(),
            self.methods.len() - called,
            self.events.len(),
            self.calls,
            self.seed
        );
        let width = self.methods.iter().map(|m| m.name.len()).max().unwrap_or(0);
        for m in &self.methods {
            match &m.decision {
                Decision::Call => {
                    let examples = match m.examples {
                        0 => String::new(),
                        1 => ", 1 example".to_owned(),
                        n => format!(", {n} examples"),
                    };
                    let _ =
                        writeln!(out, "  call  {:width$}  {}{examples}", m.name, m.class.as_str());
                }
                Decision::Skip(reason) => {
                    let _ = writeln!(out, "  skip  {:width$}  {reason}", m.name);
                }
            }
        }
        if !self.events.is_empty() {
            let _ = writeln!(out, "  events: {}", self.events.join(", "));
        }
        for flow in &self.flows {
            flow.write_text(&mut out);
        }
        let p = &self.protocol;
        let _ = writeln!(
            out,
            "  protocol: describe {}; probes to {}; method not found {}; invalid params {}",
            p.describe.as_deref().unwrap_or("none (the describe phase is skipped)"),
            p.probe,
            p.method_not_found_text(),
            p.invalid_params_text()
        );
        if p.params_probe != p.probe {
            let _ = writeln!(
                out,
                "  params probe: to {} (a called method that takes params); refused with {}",
                p.params_probe,
                crate::protocol::codes_text(&p.unstructured_params(true))
            );
        }
        if !p.accord {
            // A foreign wire (docs/conform.md): what the plan does differently on it.
            let _ = writeln!(
                out,
                "  wire: the contract's own (calls by their wire names); {}",
                match p.depth_limit {
                    Some(n) => format!("depth limit {n}, refused with {}", p.limit),
                    None =>
                        "no depth limit declared, so no params nested past one are sent".to_owned(),
                }
            );
        }
        let _ = writeln!(
            out,
            "  credentials: {}",
            if self.credentials {
                "none, wrong and right are tried (a token was given)"
            } else {
                "not tried (no token: the plant is taken to have no credentials)"
            }
        );
        out
    }

    /// The plan as JSON.
    pub fn to_json(&self) -> Value {
        let methods: Vec<Value> = self
            .methods
            .iter()
            .map(|m| {
                let mut v = json!({"method": m.name, "semantics": m.class.as_str(), "examples": m.examples});
                match &m.decision {
                    Decision::Call => v["action"] = "call".into(),
                    Decision::Skip(reason) => {
                        v["action"] = "skip".into();
                        v["reason"] = reason.clone().into();
                    }
                }
                v
            })
            .collect();
        json!({
            "methods": methods,
            "events": self.events,
            "calls": self.calls,
            "seed": self.seed,
            "credentials": self.credentials,
            "flows": self.flows.iter().map(PlannedFlow::to_json).collect::<Vec<_>>(),
            "protocol": {
                "describe": self.protocol.describe,
                "probe": self.protocol.probe,
                "paramsProbe": self.protocol.params_probe,
                "methodNotFound": self.protocol.method_not_found,
                "invalidParams": self.protocol.invalid_params,
                "limit": self.protocol.limit,
                "depthLimit": self.protocol.depth_limit,
                "accord": self.protocol.accord,
            },
        })
    }
}

/// A method name the plant does not answer to, for the unknown-method probes: in the first
/// namespace on accord's wire (`pump.accordConformNoSuchMethod`), else the first method's wire
/// name with a suffix, so that it looks like the plant's own names and is not one of them.
pub(crate) fn unknown_method(doc: &Document, dialect: &Dialect) -> String {
    let mut name = if dialect.is_accord() {
        let ns = doc.namespaces.iter().flatten().next().map_or("accord", |(n, _)| n.as_str());
        format!("{ns}.accordConformNoSuchMethod")
    } else {
        let first = dialect.methods().next().map_or("accord", |m| m.wire_name.as_str());
        format!("{first}AccordConformNoSuchMethod")
    };
    while dialect.method(&name).is_some() || dialect.describe.as_deref() == Some(name.as_str()) {
        name.push('_');
    }
    name
}
