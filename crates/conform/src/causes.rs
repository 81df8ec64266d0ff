//! One failure per cause. A plant that lacks a method, or answers every call of a method with
//! the same undeclared error, has one fault, whatever the number of checks that met it and the
//! order they ran in: the first check that met it keeps the failure, the others of that method
//! are skipped with the reason (their answers still counted). A missing method's honesty check
//! is left out (the same cause again); for one undeclared error answered to every call, the
//! honesty check (`no-result`) is the one finding, and names the error.

use std::collections::BTreeMap;

use accord_wire::Response;
use serde_json::Value;

use crate::failure::{FailureKind, Problem};
use crate::report::{Check, Outcome, Phase};
use crate::run::Run;
use crate::transcript::Line;

/// The name of a method's honesty check.
pub(crate) const HONESTY: &str = "some positive call returned a result";

impl Run<'_> {
    /// Folds the positive and negative checks from `from` on so that each cause is one failure.
    pub(crate) fn one_failure_per_cause(&mut self, from: usize) {
        let mut by_method: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, c) in self.checks.iter().enumerate().skip(from) {
            if matches!(c.phase, Phase::Positive | Phase::Negative) {
                by_method.entry(c.subject.clone()).or_default().push(i);
            }
        }
        let mut dropped = Vec::new();
        for (method, at) in by_method {
            if let Some(first) =
                at.iter().copied().find(|&i| has(&self.checks[i], FailureKind::MethodMissing))
            {
                let reason = format!(
                    "the plant lacks {method}: answered as a method that does not exist, reported once ({} {})",
                    self.checks[first].phase.as_str(),
                    self.checks[first].name
                );
                for &i in at.iter().filter(|&&i| i != first) {
                    let c = &mut self.checks[i];
                    if c.name == HONESTY && c.phase == Phase::Positive {
                        dropped.push(i);
                    } else if only(c, FailureKind::MethodMissing) {
                        c.outcome = Outcome::Skipped(reason.clone());
                    }
                }
                continue;
            }
            self.same_undeclared_error(&method, &at);
        }
        dropped.sort_unstable();
        for i in dropped.into_iter().rev() {
            self.checks.remove(i);
        }
    }

    /// When every call of `method` that was answered got one and the same error code, which the
    /// method does not declare and which is neither a missing method nor invalid params: one
    /// `undeclared-error` finding.
    fn same_undeclared_error(&mut self, method: &str, at: &[usize]) {
        // The calls sent and answered in time (a check not sent has nothing to say).
        let calls: Vec<usize> = at
            .iter()
            .copied()
            .filter(|&i| self.checks[i].name != HONESTY)
            .filter(|&i| matches!(self.checks[i].outcome, Outcome::Passed | Outcome::Failed(_)))
            .collect();
        let codes: Vec<Option<i64>> = calls.iter().map(|&i| error_code(&self.checks[i])).collect();
        let answered: Vec<i64> = codes.iter().flatten().copied().collect();
        let Some(&code) = answered.first() else { return };
        let declared = crate::contract_method(self.judge.doc, method)
            .and_then(|m| m.errors.as_ref())
            .is_some_and(|errors| errors.iter().any(|e| e.code == code));
        if answered.len() < 2
            || answered.len() != codes.len()
            || answered.iter().any(|&c| c != code)
            || declared
            || self.judge.protocol.invalid_params(code)
            || self.judge.protocol.method_missing(code)
        {
            return;
        }
        // The honesty check is the one finding: no call returned a result, and why.
        let Some(honesty) = at.iter().copied().find(|&i| {
            self.checks[i].name == HONESTY && has(&self.checks[i], FailureKind::NoResult)
        }) else {
            return;
        };
        let n = answered.len();
        let first = calls[0];
        let message = match &self.checks[first].outcome {
            Outcome::Failed(ps) => ps.iter().find(|p| p.kind == FailureKind::UndeclaredError),
            _ => None,
        }
        .map_or_else(
            || format!("error {code}"),
            |p| p.message.rsplit(": ").next().unwrap_or_default().to_owned(),
        );
        let reproducer = self.checks[first].transcript.lines.clone();
        let c = &mut self.checks[honesty];
        if let Outcome::Failed(problems) = &mut c.outcome {
            problems.insert(
                0,
                Problem::new(
                    FailureKind::UndeclaredError,
                    format!(
                        "every one of its {n} call(s) was answered with {message}, which it does not declare: one cause, one finding"
                    ),
                ),
            );
        }
        c.transcript.lines.extend(reproducer);
        let reason = format!(
            "answered with the same undeclared error {code} as every call of {method}: reported once ({HONESTY})"
        );
        for &i in &calls {
            let c = &mut self.checks[i];
            if c.failed() {
                c.outcome = Outcome::Skipped(reason.clone());
            }
        }
    }
}

fn has(check: &Check, kind: FailureKind) -> bool {
    matches!(&check.outcome, Outcome::Failed(ps) if ps.iter().any(|p| p.kind == kind))
}

fn only(check: &Check, kind: FailureKind) -> bool {
    matches!(&check.outcome, Outcome::Failed(ps) if ps.iter().all(|p| p.kind == kind))
}

/// The error code of a check's last answer; `None` for a result, no answer or a check not sent.
fn error_code(check: &Check) -> Option<i64> {
    let text = check.transcript.lines.iter().rev().find_map(|l| match l {
        Line::Received(text) => Some(text),
        _ => None,
    })?;
    let value = serde_json::from_str::<Value>(text).ok()?;
    match Response::from_value(&value, "").ok()? {
        Response::Failure { error, .. } => Some(error.code),
        Response::Success { .. } => None,
    }
}
