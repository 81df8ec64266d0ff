//! The report: every check with its outcome, grouped by phase, a summary per method, and the
//! text and JSON renderings. Nothing in it depends on time or on the plant's address, so the
//! same plant, contract and seed give the same report.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::failure::Problem;
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
    /// The contract's links walked: a method's result fed into the method it links to.
    Flows,
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
    pub const ALL: [Phase; 8] = [
        Phase::Describe,
        Phase::Credentials,
        Phase::Flows,
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
            Phase::Flows => "flows",
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
    /// Not run, and why (a policy, nothing to send, a method the plant lacks).
    Skipped(String),
    /// Not run because the run's deadline passed first (or while it waited): unlike a skipped
    /// check, this fails the run, since the plant was not held to that part of its contract.
    NotRun(String),
}

/// What a call got back, for the per-method counts that show whether a plant ever answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answered {
    /// A result.
    Result,
    /// One of the method's declared errors.
    DeclaredError,
    /// Any other error, or no readable answer at all.
    OtherError,
}

/// One check: one exchange (or a few, for a subscription) and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// What a positive call of a contract method got back (`None` for every other check).
    pub answered: Option<Answered>,
}

impl Check {
    /// Whether it failed.
    pub fn failed(&self) -> bool {
        matches!(self.outcome, Outcome::Failed(_))
    }
}

/// Everything a run found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Called: how its checks ended, and what its positive calls got back.
    Called {
        /// Checks passed.
        passed: usize,
        /// Checks failed.
        failed: usize,
        /// Checks not run because the deadline passed.
        not_run: usize,
        /// What its positive calls got back.
        answers: Answers,
    },
    /// Skipped by the policy, and why.
    Skipped(String),
}

/// What a method's positive calls got back: the counts that show whether the plant ever
/// answered it with a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Answers {
    /// Calls answered with a result.
    pub results: usize,
    /// Calls answered with one of the method's declared errors.
    pub declared_errors: usize,
    /// Calls answered with another error, or not readably at all.
    pub other_errors: usize,
    /// Calls not sent (the method is missing, no valid params, the deadline).
    pub skipped: usize,
}

impl Answers {
    /// The counts over `checks` (the positive calls of one method).
    pub(crate) fn of<'a>(checks: impl Iterator<Item = &'a Check>) -> Answers {
        checks.fold(Answers::default(), |mut a, c| {
            match (c.answered, &c.outcome) {
                (Some(Answered::Result), _) => a.results += 1,
                (Some(Answered::DeclaredError), _) => a.declared_errors += 1,
                (Some(Answered::OtherError), _) => a.other_errors += 1,
                (None, Outcome::Skipped(_) | Outcome::NotRun(_)) => a.skipped += 1,
                (None, _) => {}
            }
            a
        })
    }

    /// `results 3, declared errors 1, other errors 0, skipped 0`.
    fn to_text(self) -> String {
        format!(
            "results {}, declared errors {}, other errors {}, skipped {}",
            self.results, self.declared_errors, self.other_errors, self.skipped
        )
    }

    fn to_json(self) -> Value {
        json!({
            "results": self.results,
            "declaredErrors": self.declared_errors,
            "otherErrors": self.other_errors,
            "skipped": self.skipped,
        })
    }
}

/// Checks of one outcome each: passed, failed, skipped, not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
    not_run: usize,
}

impl Report {
    /// Whether every check passed (skipped checks do not fail a run; failed and not-run checks
    /// do).
    pub fn passed(&self) -> bool {
        !self.checks.iter().any(|c| matches!(c.outcome, Outcome::Failed(_) | Outcome::NotRun(_)))
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.failed())
    }

    /// The outcomes over `checks`.
    fn counts<'a>(checks: impl Iterator<Item = &'a Check>) -> Counts {
        checks.fold(Counts::default(), |mut n, c| {
            match c.outcome {
                Outcome::Passed => n.passed += 1,
                Outcome::Failed(_) => n.failed += 1,
                Outcome::Skipped(_) => n.skipped += 1,
                Outcome::NotRun(_) => n.not_run += 1,
            }
            n
        })
    }

    /// Per contract method, in contract order; a called method the run never reached (no check
    /// of it was made) is left out.
    pub fn methods(&self) -> Vec<(String, MethodSummary)> {
        self.plan
            .methods
            .iter()
            .filter_map(|m| {
                let summary = match &m.decision {
                    Decision::Skip(reason) => MethodSummary::Skipped(reason.clone()),
                    Decision::Call => {
                        let n = Report::counts(self.checks.iter().filter(|c| c.subject == m.name));
                        // A method the run never reached (a replay of another method's
                        // transcript, a run stopped early) has no verdict to give.
                        if n == Counts::default() {
                            return None;
                        }
                        let answers = Answers::of(
                            self.checks
                                .iter()
                                .filter(|c| c.phase == Phase::Positive && c.subject == m.name),
                        );
                        MethodSummary::Called {
                            passed: n.passed,
                            failed: n.failed,
                            not_run: n.not_run,
                            answers,
                        }
                    }
                };
                Some((m.name.clone(), summary))
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
            let n = Report::counts(checks.iter().copied());
            let _ = writeln!(
                out,
                "{:<12} {} passed, {} failed, {} skipped{}",
                phase.as_str(),
                n.passed,
                n.failed,
                n.skipped,
                not_run_text(n.not_run)
            );
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
                // Not-run checks are many and alike: counted per phase and method, and their
                // reason said once below.
                Outcome::NotRun(_) => {}
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
        if let Some(reason) = self.checks.iter().find_map(|c| match &c.outcome {
            Outcome::NotRun(reason) => Some(reason),
            _ => None,
        }) {
            let n = Report::counts(self.checks.iter()).not_run;
            let _ = writeln!(out, "\nNOT RUN {}: {reason}", checks(n));
        }
        let methods = self.methods();
        if !methods.is_empty() {
            out.push_str("\nmethods (answers to the positive calls: results, declared errors, other errors, skipped)\n");
            let width = methods.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let lines: Vec<(String, String)> = methods
                .into_iter()
                .map(|(name, summary)| match summary {
                    MethodSummary::Called { passed, failed, not_run, answers } => {
                        let verdict = match (failed, not_run) {
                            (0, 0) => format!("passed ({})", checks(passed)),
                            (0, n) => format!("NOT RUN ({n} of {})", checks(passed + n)),
                            (f, n) => format!("FAILED ({f} of {})", checks(passed + f + n)),
                        };
                        (name, format!("{verdict:<24}  {}", answers.to_text()))
                    }
                    MethodSummary::Skipped(reason) => {
                        (name, format!("skipped by policy ({reason})"))
                    }
                })
                .collect();
            for (name, line) in lines {
                let _ = writeln!(out, "  {name:width$}  {line}");
            }
        }
        let n = Report::counts(self.checks.iter());
        let verdict = if self.passed() { "conforms" } else { "does NOT conform" };
        let _ = writeln!(
            out,
            "\nresult: the plant {verdict}: {}, {} passed, {} failed, {} skipped{}",
            checks(self.checks.len()),
            n.passed,
            n.failed,
            n.skipped,
            not_run_text(n.not_run)
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
                    Outcome::NotRun(reason) => {
                        v["outcome"] = "not-run".into();
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
                MethodSummary::Called { passed, failed, not_run, answers } => {
                    let outcome = match (failed, not_run) {
                        (0, 0) => "passed",
                        (0, _) => "not-run",
                        _ => "failed",
                    };
                    let mut v = json!({"method": name, "outcome": outcome, "passed": passed, "failed": failed, "answers": answers.to_json()});
                    if not_run > 0 {
                        v["notRun"] = not_run.into();
                    }
                    v
                }
                MethodSummary::Skipped(reason) => {
                    json!({"method": name, "outcome": "skipped", "reason": reason})
                }
            })
            .collect();
        let n = Report::counts(self.checks.iter());
        let mut totals = json!({"checks": self.checks.len(), "passed": n.passed, "failed": n.failed, "skipped": n.skipped});
        if n.not_run > 0 {
            totals["notRun"] = n.not_run.into();
        }
        json!({
            "conforms": self.passed(),
            "plan": self.plan.to_json(),
            "checks": checks,
            "methods": methods,
            "notes": self.notes,
            "totals": totals,
        })
    }
}

/// `, 5 not run` when some checks were not run; nothing otherwise.
/// `1 check`, `2 checks`.
fn checks(n: usize) -> String {
    if n == 1 { "1 check".to_owned() } else { format!("{n} checks") }
}

fn not_run_text(n: usize) -> String {
    if n == 0 { String::new() } else { format!(", {n} not run") }
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
