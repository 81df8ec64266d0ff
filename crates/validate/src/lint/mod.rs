//! Contract lint: document-level checks of a [`Document`], each with a stable id, a severity, a
//! doc (the rule file's `///` docs) and a fixture under `fixtures/lint/<id>/`.
//!
//! [`lint`] reports every problem it finds, never only the first. It works on contracts that do
//! not compile: what [`Contract::compile`](crate::Contract::compile) refuses is reported under
//! the matching rule, the offending part is set aside in a repaired copy of the document, and
//! the rules that need validators (defaults, examples) run against that copy.
//!
//! Every rule is listed once in `registry.rs`; `rules/<rule_id>.rs` holds its doc and its check.

use std::collections::HashMap;
use std::fmt;

use accord_schema_model::{Document, Pointer};
use serde_json::Value;

/// Declares a rule's marker type with its `///` docs, and keeps the same text as `DOC` so
/// that the registry (and `docs/lint-rules.md`) can show it.
macro_rules! declare_rule {
    ($(#[doc = $doc:literal])* $vis:vis struct $name:ident;) => {
        $(#[doc = $doc])*
        $vis struct $name;

        impl $name {
            /// The rule's documentation, as written above its marker type.
            pub(crate) const DOC: &'static str = concat!($($doc, "\n"),*);
        }
    };
}

mod found;
mod graph;
mod registry;
mod repair;
mod rules;
mod walk;

pub use registry::{LintRule, rules_markdown};

use crate::lint::found::Found;
use crate::lint::repair::Repaired;
use crate::lint::walk::Walk;

/// How much a finding matters: the model's one `Severity`, shared with extract's diagnostics.
pub use accord_schema_model::Severity;

/// One finding of one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The rule's stable id (`dangling-ref`), one of [`LintRule::all`].
    pub rule: &'static str,
    /// The rule's severity.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The JSON Pointer of the element in the document the finding is about: a member
    /// (`…/pattern`), a record, or a value inside a default or an example.
    pub pointer: Pointer,
    /// What to do about it, in one line.
    pub help: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}] at {}: {}", self.severity, self.rule, self.pointer, self.message)
    }
}

/// The diagnostics of one document, with their counts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct LintReport {
    /// Every diagnostic, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl LintReport {
    /// Lints `doc`.
    pub fn of(doc: &Document) -> Self {
        LintReport { diagnostics: lint(doc) }
    }

    /// How many diagnostics are errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// How many diagnostics are warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// Whether any diagnostic is an error (`accord check` exits 1).
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// `2 errors, 1 warning`.
    pub fn summary(&self) -> String {
        format!("{}, {}", plural(self.errors(), "error"), plural(self.warnings(), "warning"))
    }

    fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

impl From<Vec<Diagnostic>> for LintReport {
    fn from(diagnostics: Vec<Diagnostic>) -> Self {
        LintReport { diagnostics }
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Runs every rule of [`LintRule::all`] over `doc` and returns every diagnostic, in document
/// order (ties in registry order).
pub fn lint(doc: &Document) -> Vec<Diagnostic> {
    let walk = Walk::new(doc);
    let found = Found::of(&walk);
    let repaired = repair::repair(&walk, &found);
    let mut cx = LintContext { walk, found, repaired, rule: &registry::RULES[0], out: Vec::new() };
    for rule in LintRule::all() {
        cx.rule = rule;
        (rule.check)(&mut cx);
    }
    let mut out = cx.out;
    if out.is_empty() {
        // The order is for ranking findings: a clean contract need not index every value.
        return out;
    }
    let order = document_order(&doc.to_value());
    let rank = |d: &Diagnostic| {
        let mut at = d.pointer.clone();
        loop {
            if let Some(&i) = order.get(at.as_str()) {
                return i;
            }
            if at.is_root() {
                return 0;
            }
            at.pop();
        }
    };
    let registry_index = |id: &str| LintRule::all().iter().position(|r| r.id == id);
    out.sort_by_cached_key(|d| (rank(d), registry_index(d.rule)));
    out.dedup();
    out
}

/// The state every rule's check works on.
pub(crate) struct LintContext<'d> {
    /// The document and every type node in it.
    pub(crate) walk: Walk<'d>,
    /// What compiling would refuse, found once for the repair and the rules that report it.
    pub(crate) found: Found,
    /// The compiled (and, where it had to be, repaired) contract.
    pub(crate) repaired: Repaired,
    rule: &'static LintRule,
    out: Vec<Diagnostic>,
}

impl LintContext<'_> {
    /// Reports a finding of the rule being run.
    pub(crate) fn report(
        &mut self,
        pointer: Pointer,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.out.push(Diagnostic {
            rule: self.rule.id,
            severity: self.rule.severity,
            message: message.into(),
            pointer,
            help: help.into(),
        });
    }
}

/// The pre-order position of every value of `root` (which lists members in document order),
/// found without recursion.
fn document_order(root: &Value) -> HashMap<String, usize> {
    let mut order = HashMap::new();
    let mut stack = vec![(root, Pointer::root())];
    while let Some((value, at)) = stack.pop() {
        match value {
            Value::Object(members) => {
                stack.extend(members.iter().rev().map(|(k, v)| (v, at.key(k))));
            }
            Value::Array(items) => {
                stack.extend(items.iter().enumerate().rev().map(|(i, v)| (v, at.index(i))));
            }
            _ => {}
        }
        let next = order.len();
        order.entry(at.as_str().to_owned()).or_insert(next);
    }
    order
}

/// `/a/b` from a validator's pointer text (already escaped) appended to `base`.
pub(crate) fn join_pointer(base: &Pointer, escaped: &str) -> Pointer {
    let mut at = base.clone();
    for segment in escaped.split('/').skip(1) {
        at.push_key(&segment.replace("~1", "/").replace("~0", "~"));
    }
    at
}

/// The candidate closest to `name` by edit distance (ASCII case ignored), when it is close
/// enough to be a typo: at most a third of its length, and 1 to 3 edits. For lint's help and the
/// cli's "did you mean" on names.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            let cost = usize::from(!ca.eq_ignore_ascii_case(&cb));
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + cost);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A JSON value as a message shows it: compact, cut when long.
pub(crate) fn show(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        text
    } else {
        let cut: String = text.chars().take(40).collect();
        format!("{cut}…")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
