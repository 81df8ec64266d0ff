//! The report: every check with its outcome, grouped by phase, a summary per method, and the
//! text and JSON renderings. Nothing in it depends on time or on the plant's address, so the
//! same plant, contract and seed give the same report.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::kind::Problem;
use crate::plan::Plan;
use crate::policy::Decision;
use crate::transcript::Transcript;

/// A phase of a run, each reported on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// `rpc.describe`, and the described contract against the given one.
    Describe,
    /// No credential, a wrong one, the right one.
    Credentials,
    /// Examples, then generated valid params; every result validated.
    Positive,
    /// Invalid params, each re-checked invalid before it is sent.
    Negative,
    /// Malformed JSON, invalid requests, unknown methods, batches, notifications.
    Envelope,
    /// Subscriptions over a WebSocket and their notifications.
    Events,
    /// A transcript re-sent and re-judged.
    Replay,
}

impl Phase {
    /// Every phase, in run order.
    pub const ALL: [Phase; 7] = [
        Phase::Describe,
        Phase::Credentials,
        Phase::Positive,
        Phase::Negative,
        Phase::Envelope,
        Phase::Events,
        Phase::Replay,
    ];

    /// As written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Describe => "describe",
            Phase::Credentials => "credentials",
            Phase::Positive => "positive",
            Phase::Negative => "negative",
            Phase::Envelope => "envelope",
            Phase::Events => "events",
            Phase::Replay => "replay",
        }
    }
}

/// How a check ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The plant answered as the wire and the contract say.
    Passed,
    /// It did not; every problem found.
    Failed(Vec<Problem>),
    /// Not run, and why.
    Skipped(String),
}

/// One check: one exchange (or a few, for a subscription) and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Its phase.
    pub phase: Phase,
    /// The method, event or probe it is about (`pump.status`, `rpc.describe`, `batch`).
    pub subject: String,
    /// What it did (`example "idle"`, `generated 2`, `mutant /rpm [max]: …`).
    pub name: String,
    /// The verdict.
    pub outcome: Outcome,
    /// The exchange: the reproducer of a failure.
    pub transcript: Transcript,
}

impl Check {
    /// Whether it failed.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, Outcome::Failed(_))
    }
}

/// Everything a run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// What was planned.
    pub plan: Plan,
    /// Every check, in the order run.
    pub checks: Vec<Check>,
    /// Remarks that are not checks (mutants dropped because they were still valid, …).
    pub notes: Vec<String>,
}

/// The summary of one contract method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodSummary {
    /// Called: how many checks passed and failed.
    Called {
        /// Checks passed.
        passed: usize,
        /// Checks failed.
        failed: usize,
    },
    /// Skipped by the policy, and why.
    Skipped(String),
}

impl Report {
    /// Whether every check passed (skipped checks do not fail a run).
    pub fn passed(&self) -> bool {
        !self.checks.iter().any(Check::failed)
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.failed())
    }

    /// (passed, failed, skipped) over `checks`.
    fn counts<'a>(checks: impl Iterator<Item = &'a Check>) -> (usize, usize, usize) {
        checks.fold((0, 0, 0), |(p, f, s), c| match c.outcome {
            Outcome::Passed => (p + 1, f, s),
            Outcome::Failed(_) => (p, f + 1, s),
            Outcome::Skipped(_) => (p, f, s + 1),
        })
    }

    /// Per contract method, in contract order.
    pub fn methods(&self) -> Vec<(String, MethodSummary)> {
        self.plan
            .methods
            .iter()
            .map(|m| {
                let summary = match &m.decision {
                    Decision::Skip(reason) => MethodSummary::Skipped(reason.clone()),
                    Decision::Call => {
                        let (passed, failed, _) =
                            Report::counts(self.checks.iter().filter(|c| c.subject == m.name));
                        MethodSummary::Called { passed, failed }
                    }
                };
                (m.name.clone(), summary)
            })
            .collect()
    }

    /// The report as text: the plan, counts per phase, each failure with its problems and
    /// transcript, the summary per method, the totals.
    pub fn to_text(&self) -> String {
        let mut out = self.plan.to_text();
        out.push('\n');
        for phase in Phase::ALL {
            let checks: Vec<&Check> = self.checks.iter().filter(|c| c.phase == phase).collect();
            if checks.is_empty() {
                continue;
            }
            let (p, f, s) = Report::counts(checks.iter().copied());
            let _ = writeln!(out, "{:<12} {p} passed, {f} failed, {s} skipped", phase.as_str());
        }
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        for check in &self.checks {
            match &check.outcome {
                Outcome::Failed(problems) => {
                    let _ = writeln!(
                        out,
                        "\nFAIL {} {}: {}",
                        check.phase.as_str(),
                        check.subject,
                        check.name
                    );
                    for p in problems {
                        let _ = writeln!(out, "  [{}] {}", p.kind.as_str(), p.message);
                    }
                    for line in check.transcript.render().lines() {
                        let _ = writeln!(out, "  {}", shorten(line));
                    }
                }
                Outcome::Skipped(reason) if check.phase != Phase::Replay => {
                    let _ = writeln!(
                        out,
                        "\nskipped {} {}: {}: {reason}",
                        check.phase.as_str(),
                        check.subject,
                        check.name
                    );
                }
                _ => {}
            }
        }
        let methods = self.methods();
        if !methods.is_empty() {
            out.push_str("\nmethods\n");
            let width = methods.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, summary) in methods {
                let line = match summary {
                    MethodSummary::Called { passed, failed: 0 } => {
                        format!("passed ({passed} checks)")
                    }
                    MethodSummary::Called { passed, failed } => {
                        format!("FAILED ({failed} of {} checks)", passed + failed)
                    }
                    MethodSummary::Skipped(reason) => format!("skipped by policy ({reason})"),
                };
                let _ = writeln!(out, "  {name:width$}  {line}");
            }
        }
        let (p, f, s) = Report::counts(self.checks.iter());
        let verdict = if f == 0 { "conforms" } else { "does NOT conform" };
        let _ = writeln!(
            out,
            "\nresult: the plant {verdict}: {} checks, {p} passed, {f} failed, {s} skipped",
            self.checks.len()
        );
        out
    }

    /// The report as JSON: the plan, every check (failures with problems and transcript), the
    /// methods and the totals.
    pub fn to_json(&self) -> Value {
        let checks: Vec<Value> = self
            .checks
            .iter()
            .map(|c| {
                let mut v =
                    json!({"phase": c.phase.as_str(), "subject": c.subject, "name": c.name});
                match &c.outcome {
                    Outcome::Passed => v["outcome"] = "passed".into(),
                    Outcome::Skipped(reason) => {
                        v["outcome"] = "skipped".into();
                        v["reason"] = reason.clone().into();
                    }
                    Outcome::Failed(problems) => {
                        v["outcome"] = "failed".into();
                        v["problems"] = problems
                            .iter()
                            .map(|p| json!({"kind": p.kind.as_str(), "message": p.message}))
                            .collect();
                        v["transcript"] = c.transcript.render().into();
                    }
                }
                v
            })
            .collect();
        let methods: Vec<Value> = self
            .methods()
            .into_iter()
            .map(|(name, summary)| match summary {
                MethodSummary::Called { passed, failed } => {
                    json!({"method": name, "outcome": if failed == 0 {"passed"} else {"failed"}, "passed": passed, "failed": failed})
                }
                MethodSummary::Skipped(reason) => {
                    json!({"method": name, "outcome": "skipped", "reason": reason})
                }
            })
            .collect();
        let (p, f, s) = Report::counts(self.checks.iter());
        json!({
            "conforms": f == 0,
            "plan": self.plan.to_json(),
            "checks": checks,
            "methods": methods,
            "notes": self.notes,
            "totals": {"checks": self.checks.len(), "passed": p, "failed": f, "skipped": s},
        })
    }
}

/// The longest answer line the text report shows in full; the JSON report and a saved
/// transcript always hold the whole line.
const SHOWN: usize = 600;

fn shorten(line: &str) -> String {
    if !line.starts_with("<<") || line.len() <= SHOWN {
        return line.to_owned();
    }
    let mut end = SHOWN;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} … ({} bytes in all)", &line[..end], line.len())
}
