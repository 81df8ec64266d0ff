//! Usage evidence on findings (docs/usage.md, docs/compat-rules.md "Usage evidence"): what the
//! plants' callers did over a window, as `accord usage` read it from a usage source, attached to
//! each finding that removes or narrows something old callers could still send.
//!
//! Evidence is information: it never changes a level unless the caller asks for the gate
//! ([`Report::add_usage`] with `gate`), and then only one way, for one case: a removal of a
//! method, param or field that was deprecated through the whole window and was not used once in
//! it, on a source that covers the window, becomes `safe`. This layer does no IO: the cli reads
//! the source and hands the counts here.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::report::{Finding, Pairing, Report};
use crate::rules::Level;

/// The `member` of a method's own use (its calls) in [`Use`].
pub const METHOD: &str = "method";

/// The version of callers that declared none, in [`Use::versions`].
pub const UNDECLARED: &str = "undeclared";

/// How much of the window a usage source covers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Coverage {
    /// Counts for the whole window.
    Whole,
    /// Counts for only the last `seconds` of it.
    Short {
        /// How many seconds the source covers.
        seconds: u64,
    },
    /// The source could not be read.
    Unreachable {
        /// Why, in one sentence.
        reason: String,
    },
}

/// The use of one method (member [`METHOD`]) or one deprecated param or field (member
/// `params.NAME[.FIELD…]`) over the window.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Use {
    /// The namespace.
    pub namespace: String,
    /// The method.
    pub method: String,
    /// [`METHOD`], or the member's path below the method.
    pub member: String,
    /// How many calls used it in the window.
    pub count: u64,
    /// The contract versions the callers that used it declared (`undeclared` among them).
    pub versions: Vec<String>,
}

impl Use {
    /// A use.
    pub fn new(
        namespace: &str,
        method: &str,
        member: &str,
        count: u64,
        versions: Vec<String>,
    ) -> Use {
        Use {
            namespace: namespace.to_owned(),
            method: method.to_owned(),
            member: member.to_owned(),
            count,
            versions,
        }
    }
}

/// What a usage source says about the window.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Usage {
    /// The window as the user wrote it (`30d`).
    pub window: String,
    /// The source: the query API's URL or the metrics file, and the query.
    pub source: String,
    /// How many plants reported.
    pub plants: usize,
    /// How much of the window the source covers.
    pub coverage: Coverage,
    /// Every counted use with its count (zero counts included: a counted member nobody used).
    pub uses: Vec<Use>,
    /// The members (namespace, method, member) every plant served deprecated through the whole
    /// window.
    pub deprecated_through: Vec<(String, String, String)>,
}

impl Usage {
    /// A usage source that could not be read: its evidence says so and changes no level.
    pub fn unreachable(window: &str, source: &str, reason: &str) -> Usage {
        Usage {
            window: window.to_owned(),
            source: source.to_owned(),
            plants: 0,
            coverage: Coverage::Unreachable { reason: reason.to_owned() },
            uses: Vec::new(),
            deprecated_through: Vec::new(),
        }
    }

    /// The use of `member` of `namespace.method`, when it is counted.
    pub fn of(&self, namespace: &str, method: &str, member: &str) -> Option<&Use> {
        self.uses
            .iter()
            .find(|u| u.namespace == namespace && u.method == method && u.member == member)
    }

    /// Whether every plant served the member deprecated through the whole window.
    pub fn deprecated_through(&self, namespace: &str, method: &str, member: &str) -> bool {
        self.deprecated_through.iter().any(|(n, m, x)| n == namespace && m == method && x == member)
    }
}

/// The usage evidence of one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Evidence {
    /// One sentence: `called 1,234 times in 30d, by callers declaring 2.1.0` or `no use in
    /// 30d on 3 plants`, or why there is no evidence.
    pub text: String,
    /// The count, when the source has one.
    pub count: Option<u64>,
    /// The versions the callers declared.
    pub versions: Vec<String>,
    /// The window.
    pub window: String,
    /// How many plants reported.
    pub plants: usize,
    /// The source and query.
    pub source: String,
    /// Whether the source covers the window.
    pub covered: bool,
    /// Whether `--usage-gate` turned the finding from its rule's level into `safe`, and the
    /// level it had.
    pub gated_from: Option<Level>,
}

impl Evidence {
    /// As JSON (the check report's `evidence` member).
    pub fn to_json(&self) -> Value {
        json!({
            "text": self.text,
            "count": self.count,
            "versions": self.versions,
            "window": self.window,
            "plants": self.plants,
            "source": self.source,
            "covered": self.covered,
            "gatedFrom": self.gated_from.map(Level::as_str),
        })
    }
}

/// The removal rules the gate may turn safe: what the plant counts the use of.
const REMOVALS: &[&str] = &[
    "method-removed",
    "param-removed",
    "optional-param-removed",
    "optional-field-removed",
    "required-field-removed",
    "field-removed-from-closed-object",
];

/// `1234` as `1,234`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plants(n: usize) -> String {
    if n == 1 { "1 plant".to_owned() } else { format!("{n} plants") }
}

impl Report {
    /// Adds usage evidence to every old-callers × new-plant finding at or above `risky` about a
    /// method or something in its params; with `gate`, a removal unused over a window the
    /// source covers, of a member deprecated through it, becomes `safe` (docs/compat-rules.md).
    pub fn add_usage(&mut self, usage: &Usage, gate: bool) {
        for finding in &mut self.findings {
            if finding.pairing != Pairing::OldCallersNewPlant || finding.level < Level::Risky {
                continue;
            }
            if let Some(evidence) = evidence_for(finding, usage, gate) {
                if evidence.gated_from.is_some() {
                    finding.level = Level::Safe;
                    finding.story = format!(
                        "{} The usage evidence shows no old caller used it through the window, on every plant of the source, so the removal is reported safe (--usage-gate).",
                        finding.story
                    );
                    "remove it and reserve its name; keep the alert on its use (docs/usage.md) until every plant runs this version."
                        .clone_into(&mut finding.advice);
                }
                finding.evidence = Some(evidence);
            }
        }
    }
}

/// The evidence of one finding, when its path names a method of the contract.
fn evidence_for(finding: &Finding, usage: &Usage, gate: bool) -> Option<Evidence> {
    let mut parts = finding.path.splitn(3, '.');
    let (namespace, method) = (parts.next()?, parts.next()?);
    let rest = parts.next();
    // A namespace's types, events and wire are not calls a plant counts.
    if matches!(method, "types" | "events") || namespace == "wire" {
        return None;
    }
    let member = match rest {
        None => METHOD.to_owned(),
        Some(rest) if rest.starts_with("params.") => rest.to_owned(),
        // Results and errors: what callers read is not counted; the method's calls are the
        // evidence that it is still read.
        Some(_) => METHOD.to_owned(),
    };
    let base = Evidence {
        text: String::new(),
        count: None,
        versions: Vec::new(),
        window: usage.window.clone(),
        plants: usage.plants,
        source: usage.source.clone(),
        covered: usage.coverage == Coverage::Whole,
        gated_from: None,
    };
    let mut evidence = base;
    match &usage.coverage {
        Coverage::Unreachable { reason } => {
            evidence.text = format!("no usage evidence: {reason}; the level stands");
            return Some(evidence);
        }
        Coverage::Short { seconds } => {
            evidence.text = format!(
                "no usage evidence for {}: the source covers only the last {seconds} s; the level stands",
                usage.window
            );
            return Some(evidence);
        }
        Coverage::Whole => {}
    }
    // The member's own count when it is counted; else the method's calls (a param the plant
    // does not count because it was never deprecated).
    let (counted, own) = match usage.of(namespace, method, &member) {
        Some(u) => (Some(u), true),
        None => (usage.of(namespace, method, METHOD), false),
    };
    let Some(counted) = counted else {
        evidence.text = format!(
            "no usage evidence: no plant of the source serves `{namespace}.{method}`; the level stands"
        );
        return Some(evidence);
    };
    evidence.count = Some(counted.count);
    evidence.versions.clone_from(&counted.versions);
    let what =
        if own && member != METHOD { format!("`{member}` sent") } else { "called".to_owned() };
    evidence.text = if counted.count == 0 {
        format!("no use in {} on {} ({})", usage.window, plants(usage.plants), usage.source)
    } else {
        let mut text = format!(
            "{what} {} time{} in {}",
            grouped(counted.count),
            if counted.count == 1 { "" } else { "s" },
            usage.window
        );
        let declared: Vec<&str> =
            counted.versions.iter().map(String::as_str).filter(|v| *v != UNDECLARED).collect();
        let undeclared = counted.versions.iter().any(|v| v == UNDECLARED);
        match (declared.is_empty(), undeclared) {
            (false, false) => {
                let _ = write!(text, ", by callers declaring {}", declared.join(", "));
            }
            (false, true) => {
                let _ = write!(
                    text,
                    ", by callers declaring {} and callers declaring no version",
                    declared.join(", ")
                );
            }
            (true, true) => text.push_str(", by callers declaring no version"),
            (true, false) => {}
        }
        text
    };
    if !own && member != METHOD {
        let _ = write!(
            evidence.text,
            " (the method's calls: the plant counts a param or field only while it is deprecated)"
        );
    }
    let removal = REMOVALS.contains(&finding.rule);
    if gate && removal && own && counted.count == 0 {
        if usage.deprecated_through(namespace, method, &member) {
            evidence.gated_from = Some(finding.level);
            let _ = write!(
                evidence.text,
                "; deprecated through the whole window, so --usage-gate reports the removal safe"
            );
        } else {
            let _ = write!(
                evidence.text,
                "; not deprecated through the whole window, so the level stands"
            );
        }
    }
    Some(evidence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Source, diff};

    const OLD: &str = include_str!("../../../fixtures/usage/old.types.json");
    const NEW: &str = include_str!("../../../fixtures/usage/new.types.json");

    fn report() -> Report {
        diff(&Source::parse("old", OLD).unwrap(), &Source::parse("new", NEW).unwrap())
    }

    fn usage(coverage: Coverage) -> Usage {
        Usage {
            window: "30d".into(),
            source: "metrics.txt".into(),
            plants: 2,
            coverage,
            uses: vec![
                Use::new(
                    "meter",
                    "readRaw",
                    METHOD,
                    1234,
                    vec!["2.0.0".into(), "undeclared".into()],
                ),
                Use::new("meter", "legacyTotal", METHOD, 0, vec![]),
            ],
            deprecated_through: vec![
                ("meter".into(), "readRaw".into(), METHOD.into()),
                ("meter".into(), "legacyTotal".into(), METHOD.into()),
            ],
        }
    }

    fn level_of(report: &Report, path: &str) -> (Level, String) {
        let f =
            report.findings.iter().find(|f| f.path == path && f.rule == "method-removed").unwrap();
        (f.level, f.evidence.as_ref().map(|e| e.text.clone()).unwrap_or_default())
    }

    #[test]
    fn the_gate_turns_only_an_unused_deprecated_removal_safe() {
        let mut gated = report();
        gated.add_usage(&usage(Coverage::Whole), true);
        let (level, text) = level_of(&gated, "meter.readRaw");
        assert_eq!(level, Level::Breaking);
        assert_eq!(
            text,
            "called 1,234 times in 30d, by callers declaring 2.0.0 and callers declaring no version"
        );
        let (level, text) = level_of(&gated, "meter.legacyTotal");
        assert_eq!(level, Level::Safe);
        assert_eq!(
            text,
            "no use in 30d on 2 plants (metrics.txt); deprecated through the whole window, so --usage-gate reports the removal safe"
        );
    }

    #[test]
    fn without_the_gate_or_a_whole_window_no_level_changes() {
        for (gate, coverage) in [
            (false, Coverage::Whole),
            (true, Coverage::Short { seconds: 60 }),
            (true, Coverage::Unreachable { reason: "connection refused".into() }),
        ] {
            let mut r = report();
            r.add_usage(&usage(coverage.clone()), gate);
            let (level, text) = level_of(&r, "meter.legacyTotal");
            assert_eq!(level, Level::Breaking, "{coverage:?}: {text}");
            assert!(!text.is_empty());
        }
        let mut short = report();
        short.add_usage(&usage(Coverage::Short { seconds: 60 }), true);
        assert_eq!(
            level_of(&short, "meter.legacyTotal").1,
            "no usage evidence for 30d: the source covers only the last 60 s; the level stands"
        );
        // Unused, but not deprecated through the window: the level stands.
        let mut young = usage(Coverage::Whole);
        young.deprecated_through.clear();
        let mut r = report();
        r.add_usage(&young, true);
        assert_eq!(level_of(&r, "meter.legacyTotal").0, Level::Breaking);
    }

    #[test]
    fn counts_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
