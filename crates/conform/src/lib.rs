#![doc = include_str!("../README.md")]

mod arguments;
mod calls;
mod causes;
mod client;
mod error;
mod failure;
mod flows;
mod judge;
mod plan;
mod policy;
mod pool;
mod protocol;
mod replay;
mod report;
mod run;
mod transcript;

use std::time::Duration;

use accord_schema_model::{Dialect, Document, Event, Method};
use accord_validate::Contract;

pub use crate::{
    error::Error,
    failure::{FailureKind, Problem},
    flows::PlannedFlow,
    plan::{Plan, PlannedMethod},
    policy::{Class, Decision, Policy},
    protocol::Protocol,
    report::{Answered, Answers, Check, MethodSummary, Outcome, Phase, Report},
    transcript::{Credential, Line, Transcript, Transport},
};

use crate::client::{Client, TransportError};
use crate::judge::Judge;
use crate::run::Run;

/// A plant's endpoint: where it listens, and the token it wants (`None`: it has no credentials).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Endpoint {
    /// `http://host:port/` (or `ws://…`; the other transport's URL is derived).
    pub url: String,
    /// The Bearer token.
    pub token: Option<String>,
}

impl Endpoint {
    /// The plant at `url`, without credentials (set [`Endpoint::token`] for a plant that has
    /// them).
    pub fn new(url: impl Into<String>) -> Endpoint {
        Endpoint { url: url.into(), token: None }
    }
}

/// How a run goes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Generated valid params, and mutants, per called method.
    pub calls: usize,
    /// The seed of every generated value.
    pub seed: u64,
    /// What may be called.
    pub policy: Policy,
    /// How long to wait for one answer, and for events after a subscription.
    pub timeout: Duration,
    /// The code invalid params must be refused with.
    pub invalid_params_code: i64,
    /// How many requests may wait for the plant at once (at least 1). The report does not
    /// depend on it.
    pub jobs: usize,
    /// How long the whole run may take; checks not done by then are reported not run, and the
    /// run fails. `None`: no limit.
    pub deadline: Option<Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            calls: 5,
            seed: 0,
            policy: Policy::default(),
            timeout: Duration::from_secs(5),
            invalid_params_code: accord_wire::codes::INVALID_PARAMS,
            jobs: 4,
            deadline: None,
        }
    }
}

/// Told how a run advances; the cli draws a bar with it. The library never draws.
pub trait Progress: Sync {
    /// About `total` checks are planned.
    fn start(&self, _total: u64) {}
    /// One check was done.
    fn advance(&self, _what: &str) {}
    /// The run ended.
    fn finish(&self) {}
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// The plan of a run: what will be called, what skipped and why, on the contract's wire.
/// Nothing is sent.
///
/// # Errors
///
/// [`Error::Url`] for a URL that names no plant (not `http://` or `ws://`, no host), so that
/// it is refused before a plan is shown; [`Error::Wire`] when the contract's `wire` section
/// cannot be resolved.
pub fn plan(doc: &Document, plant: &Endpoint, options: &Options) -> Result<Plan, Error> {
    client::urls(&plant.url)?;
    let dialect = Dialect::of(doc).map_err(Error::Wire)?;
    Ok(Plan::new(doc, &dialect, options, plant.token.is_some()))
}

/// Runs every phase against `plant` and reports.
///
/// # Errors
///
/// [`Error::Connect`] when the plant cannot be reached at all (the first request fails to
/// connect), [`Error::Url`] for a URL that is not `http://` or `ws://`, [`Error::Contract`] for a
/// contract that does not compile, [`Error::Wire`] for a `wire` section that cannot be resolved.
/// A plant that answers wrongly is a failed check, not an error.
pub async fn run(
    doc: &Document,
    plant: &Endpoint,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Report, Error> {
    let plan = plan(doc, plant, options)?;
    let mut run = start(doc, &plan, plant, options, progress).await?;
    let called = plan.called().count() as u64;
    let estimate = 4
        + 6
        + plan.flows.len() as u64
        + called * (2 * options.calls as u64 + 2)
        + 12
        + plan.events.len() as u64;
    progress.start(estimate);
    run.describe().await;
    if plant.token.is_none() && wants_credential(&run.checks) {
        // Every call would be refused for the same reason: one stop, said once, rather than a
        // failure per call.
        run.notes.push(
            "the plant wants a credential and none was given: the run stopped after describe; pass the plant's token with --token-file".to_owned(),
        );
    } else {
        run.credentials().await;
        run.flows().await;
        run.calls().await;
        run.events().await;
    }
    progress.finish();
    Ok(Report { plan, checks: run.checks, notes: run.notes })
}

/// Whether a check found that the plant wants a credential the run does not have.
fn wants_credential(checks: &[Check]) -> bool {
    checks.iter().any(|c| match &c.outcome {
        Outcome::Failed(problems) => {
            problems.iter().any(|p| p.kind == FailureKind::CredentialMissing)
        }
        _ => false,
    })
}

/// Re-sends `transcript`'s requests as its notes route them and judges each answer as a run
/// would.
///
/// # Errors
///
/// As [`run`].
pub async fn replay(
    doc: &Document,
    plant: &Endpoint,
    options: &Options,
    transcript: &Transcript,
    progress: &dyn Progress,
) -> Result<Report, Error> {
    let plan = plan(doc, plant, options)?;
    let mut run = start(doc, &plan, plant, options, progress).await?;
    progress.start(transcript.lines.iter().filter(|l| matches!(l, Line::Sent(_))).count() as u64);
    run.replay(transcript).await;
    progress.finish();
    Ok(Report { plan, checks: run.checks, notes: run.notes })
}

/// Compiles the contract, makes the client, and makes sure the plant can be reached at all.
async fn start<'a>(
    doc: &'a Document,
    plan: &Plan,
    plant: &Endpoint,
    options: &'a Options,
    progress: &'a dyn Progress,
) -> Result<Run<'a>, Error> {
    let contract = Contract::compile(doc)?;
    let dialect = Dialect::of(doc).map_err(Error::Wire)?;
    let client = Client::new(&plant.url, plant.token.as_deref(), options.timeout)?;
    // A notification of the probe method: answered by nothing, and refused by nothing that
    // listens. Only a connection that cannot be made ends the run here: a plant too slow to
    // answer in time is reachable, and its slowness is the checks' finding.
    let probe = serde_json::json!({"jsonrpc": "2.0", "method": plan.protocol.probe}).to_string();
    if let Err(TransportError::Connect(reason)) = client.post(&probe, Credential::Right).await {
        return Err(Error::Connect { url: plant.url.clone(), reason });
    }
    let judge = Judge {
        doc,
        contract,
        has_token: plant.token.is_some(),
        protocol: plan.protocol.clone(),
        dialect,
    };
    Ok(Run::new(client, judge, options, progress))
}

/// A duration as reports write it: `250 ms`, `5 s`, `5 min`.
pub(crate) fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms > 0 && ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else if ms > 0 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// The method `namespace.method` of `doc`.
pub(crate) fn contract_method<'d>(doc: &'d Document, name: &str) -> Option<&'d Method> {
    let (ns, m) = name.split_once('.')?;
    doc.namespaces.as_ref()?.get(ns)?.methods.as_ref()?.get(m)
}

/// The event `namespace.event` of `doc`.
pub(crate) fn contract_event<'d>(doc: &'d Document, name: &str) -> Option<&'d Event> {
    let (ns, e) = name.split_once('.')?;
    doc.namespaces.as_ref()?.get(ns)?.events.as_ref()?.get(e)
}
