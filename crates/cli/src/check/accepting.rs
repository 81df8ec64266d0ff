//! The accept file applied to a run's comparisons: which finding each live entry accepts, and
//! the entries that have expired or accept nothing (each a finding that fails the run).

use super::Compared;
use crate::accept::{Date, Entry};

/// A problem with an accept entry: expired, or accepting nothing.
pub(super) struct EntryProblem {
    pub(super) rule: &'static str,
    pub(super) entry: usize,
    pub(super) message: String,
}

/// The accept file's entries, what they accepted, and their problems.
pub(super) struct Accepting {
    pub(super) file: String,
    pub(super) entries: Vec<Entry>,
    pub(super) problems: Vec<EntryProblem>,
}

/// Marks the findings accepted by live entries; names expired entries and entries that accept
/// nothing.
pub(super) fn apply<'c>(
    entries: &[Entry],
    compared: impl Iterator<Item = &'c mut Compared>,
    today: Date,
) -> Vec<EntryProblem> {
    let mut used = vec![false; entries.len()];
    for c in compared {
        c.accepted = c
            .report
            .findings
            .iter()
            .map(|f| {
                let hit = entries.iter().position(|e| !e.expired(today) && e.matches(f));
                if let Some(n) = hit {
                    used[n] = true;
                }
                hit
            })
            .collect();
    }
    let mut problems = Vec::new();
    for (n, e) in entries.iter().enumerate() {
        if let Some(date) = e.expires.filter(|_| e.expired(today)) {
            problems.push(EntryProblem {
                rule: "accept-expired",
                entry: n,
                message: format!(
                    "accept entry {n} ({}) expired on {date} (today is {today}); it accepts nothing: renew it with a new date, or fix the break",
                    e.name()
                ),
            });
        } else if !used[n] {
            problems.push(EntryProblem {
                rule: "accept-unmatched",
                entry: n,
                message: format!("accept entry {n} ({}) matches no finding; remove it", e.name()),
            });
        }
    }
    problems
}
