//! One finding of either kind (lint or compatibility), flattened for the machine formats, and
//! whether it fails the run.

use std::fmt::Write as _;

use accord_compat_diff::Pairing;
use accord_validate::Severity;
use serde_json::Value;

use super::accepting::Accepting;
use super::{Compared, Located, Policy, fails};
use crate::input::Unreadable;

/// One finding of either kind, flattened for the machine formats.
pub(crate) struct Item {
    /// The lint or compatibility rule id.
    pub(crate) rule: &'static str,
    /// `error`, `warning`, `breaking`, `risky` or `safe`.
    pub(crate) level: &'static str,
    /// Whether the finding fails the run.
    pub(crate) fails: bool,
    /// The message, prefixed with the baseline and pairing for compatibility findings.
    pub(crate) message: String,
    /// File, line, column.
    pub(crate) location: Option<(String, usize, usize)>,
    /// For an accepted finding: the accept entry's place and reason.
    pub(crate) accepted: Option<AcceptedBy>,
    /// Usage evidence (`--usage`), as the JSON report writes it.
    pub(crate) evidence: Option<Value>,
}

/// The accept entry that accepted a finding, as the machine formats name it.
pub(crate) struct AcceptedBy {
    /// The accept file, line and column of the entry.
    pub(crate) location: (String, usize, usize),
    /// The entry's reason.
    pub(crate) reason: String,
}

/// An unreadable contract as a finding of the machine formats: it fails the run.
pub(super) fn unreadable(file: &str, why: &Unreadable) -> Item {
    let (line, column) = why.position.unwrap_or((1, 1));
    Item {
        rule: why.code,
        level: "error",
        fails: true,
        message: match &why.pointer {
            Some(pointer) if !pointer.is_empty() => format!("{} (at {pointer})", why.message),
            _ => why.message.clone(),
        },
        location: Some((file.to_owned(), line, column)),
        accepted: None,
        evidence: None,
    }
}

/// The pairing as the reports title it.
pub(super) fn pairing_title(p: Pairing) -> &'static str {
    match p {
        Pairing::OldCallersNewPlant => "old callers × new plant",
        Pairing::NewCallersOldPlant => "new callers × old plant",
    }
}

/// The findings of one contract (lint, then each comparison's), flattened.
pub(super) fn of(
    file: &str,
    found: &[Located],
    compared: &[Compared],
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
) -> Vec<Item> {
    let mut out: Vec<Item> = found
        .iter()
        .map(|l| Item {
            rule: l.diagnostic.rule,
            level: l.diagnostic.severity.as_str(),
            fails: l.diagnostic.severity == Severity::Error
                || (policy.deny_warnings && l.diagnostic.severity == Severity::Warning),
            message: l.diagnostic.message.clone(),
            location: Some((file.to_owned(), l.position.line, l.position.column)),
            accepted: None,
            evidence: None,
        })
        .collect();
    for c in compared {
        for (f, accepted) in c.report.findings.iter().zip(&c.accepted) {
            let entry = accepted.and_then(|n| accepting.map(|a| &a.entries[n]));
            let mut note = entry.map_or(String::new(), |e| {
                format!(" (accepted by {}:{}: {})", e.file, e.line, e.reason)
            });
            if let Some(e) = &f.evidence {
                let _ = write!(note, " (usage: {})", e.text);
            }
            out.push(Item {
                rule: f.rule,
                level: f.level.as_str(),
                fails: entry.is_none() && fails(f.pairing, f.level, policy.thresholds),
                message: format!(
                    "against {} ({}): {}: {}{note}",
                    c.baseline.name,
                    pairing_title(f.pairing),
                    f.path,
                    f.message
                ),
                location: f.location.as_ref().map(|l| (l.file.clone(), l.line, l.column)),
                accepted: entry.map(|e| AcceptedBy {
                    location: (e.file.clone(), e.line, e.column),
                    reason: e.reason.clone(),
                }),
                evidence: f.evidence.as_ref().map(|e| e.to_json()),
            });
        }
    }
    out
}

/// The accept file's problems (expired entries, entries accepting nothing), which fail the run.
pub(super) fn accept_problems(accepting: Option<&Accepting>) -> Vec<Item> {
    let Some(a) = accepting else { return Vec::new() };
    a.problems
        .iter()
        .map(|p| {
            let e = &a.entries[p.entry];
            Item {
                rule: p.rule,
                level: "error",
                fails: true,
                message: p.message.clone(),
                location: Some((e.file.clone(), e.line, e.column)),
                accepted: None,
                evidence: None,
            }
        })
        .collect()
}
