//! Usage evidence on findings (docs/usage.md, docs/compat-rules.md "Usage evidence"): what the
//! plants' callers did over a window, as `accord usage` read it from a usage source, attached to
//! each finding that removes or narrows something old callers could still send.
//!
//! Evidence is information: it never changes a level unless the caller asks for the gate
//! ([`Report::add_usage`] with `gate`), and then only one way, for one case: a removal of a
//! method, param or field (a field of a named type that params carry among them) that was
//! deprecated through the whole window and was not used once in it, on a source that covers the
//! window, becomes `safe`. This layer does no IO: the cli reads the source and hands the counts
//! here.

mod reach;

use std::collections::HashMap;

use accord_schema_model::Document;
use serde_json::{Value, json};

use crate::compare::PositionKind;
use crate::report::{Finding, Pairing, Report};
use crate::rules::Level;

/// The `member` of a method's own use (its calls) in [`Use`].
pub const METHOD: &str = "method";

/// The version of callers that declared none, in [`Use::versions`].
pub const UNDECLARED: &str = "undeclared";

/// The `method` of a deprecated field of a named type in [`Use`]: its `member` is the type's
/// name and the field's path below it (`Reading.raw`), as a finding's path `ns.types.Reading.raw`
/// names it. The plants count such a field by type, whichever method's params carry it.
pub const TYPES: &str = "types";

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

/// The use of one method (member [`METHOD`]), one deprecated param or field (member
/// `params.NAME[.FIELD…]`), or one deprecated field of a named type (method [`TYPES`]) over the
/// window.
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

/// The calls and describe answers of one namespace by the contract version its callers
/// declared ([`UNDECLARED`] for none) over the window.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VersionUse {
    /// The namespace.
    pub namespace: String,
    /// The declared version.
    pub version: String,
    /// Calls of the namespace's methods under it.
    pub calls: u64,
    /// Describe calls that named it (or, undeclared, that named nothing).
    pub describe: u64,
    /// Of those, the reduced answers: callers without a credential.
    pub reduced: u64,
}

impl VersionUse {
    /// A version's use.
    pub fn new(
        namespace: &str,
        version: &str,
        calls: u64,
        describe: u64,
        reduced: u64,
    ) -> VersionUse {
        VersionUse {
            namespace: namespace.to_owned(),
            version: version.to_owned(),
            calls,
            describe,
            reduced,
        }
    }
}

/// The calls whose params carried one value of an enum over the window.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValueUse {
    /// The namespace.
    pub namespace: String,
    /// The method, or [`TYPES`] for an enum counted by named type.
    pub method: String,
    /// The enum's path below the method (`params.unit`), or the named type and the path below
    /// it (`Mode`, `Plan.unit`).
    pub member: String,
    /// The value as the plants label it: a string as itself, any other value as its JSON text.
    pub value: String,
    /// How many calls carried it.
    pub count: u64,
}

impl ValueUse {
    /// A value's use.
    pub fn new(namespace: &str, method: &str, member: &str, value: &str, count: u64) -> ValueUse {
        ValueUse {
            namespace: namespace.to_owned(),
            method: method.to_owned(),
            member: member.to_owned(),
            value: value.to_owned(),
            count,
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
    /// The calls and describe answers per namespace and declared version.
    pub versions: Vec<VersionUse>,
    /// The enum values params carried (every listed value, 0 when none).
    pub values: Vec<ValueUse>,
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
            versions: Vec::new(),
            values: Vec::new(),
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

/// The removal of an enum value readers do not take in when unknown: its value's count is the
/// evidence, when params carry it.
const ENUM_VALUE_RULE: &str = "enum-value-removed";

/// The policy finding on a namespace's contract version: it carries the declared-version
/// counts, though it is below risky (it never changes level).
const VERSION_RULE: &str = "version-not-bumped";

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

fn times(n: u64) -> String {
    format!("{} time{}", grouped(n), if n == 1 { "" } else { "s" })
}

/// `, by callers declaring 2.0.0 and callers declaring no version`, or nothing.
fn by_versions(versions: &[String]) -> String {
    let declared: Vec<&str> =
        versions.iter().map(String::as_str).filter(|v| *v != UNDECLARED).collect();
    let undeclared = versions.iter().any(|v| v == UNDECLARED);
    match (declared.is_empty(), undeclared) {
        (false, false) => format!(", by callers declaring {}", declared.join(", ")),
        (false, true) => format!(
            ", by callers declaring {} and callers declaring no version",
            declared.join(", ")
        ),
        (true, true) => ", by callers declaring no version".to_owned(),
        (true, false) => String::new(),
    }
}

/// A finding's path without its array steps (`params.readings[].raw` → `params.readings.raw`),
/// as the plants label what they count; `None` when it goes through a union variant (`|k`),
/// which no count is labelled by.
fn counted_path(path: &str) -> Option<String> {
    if path.contains('|') {
        return None;
    }
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find(']').map_or(rest.len(), |c| open + c + 1);
        rest = &rest[close..];
    }
    out.push_str(rest);
    Some(out)
}

/// What a finding is about, as the counts see it.
enum Subject<'f> {
    /// A method, or a member of its params, results or errors (`read`: in what callers read,
    /// which is never gated).
    Method { namespace: &'f str, method: &'f str, member: String, read: bool },
    /// A named type (`field` empty) or a field below it (`raw`, `config.mode`).
    Type { namespace: &'f str, name: &'f str, field: Option<String> },
    /// The describe method of the wire.
    Describe,
    /// A whole namespace.
    Namespace(&'f str),
    /// A namespace's contract version.
    Version(&'f str),
}

impl Subject<'_> {
    fn of(finding: &Finding) -> Option<Subject<'_>> {
        let path = finding.path.as_str();
        if path == "wire.describe" {
            return Some(Subject::Describe);
        }
        let mut parts = path.splitn(3, '.');
        let namespace = parts.next()?;
        if finding.rule == VERSION_RULE {
            return Some(Subject::Version(namespace));
        }
        let Some(method) = parts.next() else {
            return Some(Subject::Namespace(namespace));
        };
        let rest = parts.next();
        if namespace == "wire" || method == "events" {
            // The wire's other settings, and events: nothing a plant counts.
            return None;
        }
        if method == TYPES {
            let rest = rest?;
            let (name, field) = match rest.find(['.', '[', '|']) {
                Some(at) => (&rest[..at], Some(rest[at..].trim_start_matches('.'))),
                None => (rest, None),
            };
            return Some(Subject::Type {
                namespace,
                name,
                field: field.and_then(|f| if f.is_empty() { None } else { counted_path(f) }),
            });
        }
        let (member, read) = match rest {
            None => (METHOD.to_owned(), false),
            Some(rest) if rest.starts_with("params.") => {
                (counted_path(rest).unwrap_or_else(|| rest.to_owned()), false)
            }
            // Results and errors: what callers read is not counted; the method's calls are the
            // evidence that it is still read.
            Some(_) => (METHOD.to_owned(), true),
        };
        Some(Subject::Method { namespace, method, member, read })
    }
}

impl Report {
    /// Adds usage evidence to every old-callers × new-plant finding at or above `risky` about a
    /// method or something in its params, results or errors, a named type or its fields, the
    /// describe method or a namespace, and to the contract-version policy finding; with
    /// `gate`, a removal unused over a window the source covers, of a member deprecated through
    /// it, becomes `safe` (docs/compat-rules.md). `old` is the document the findings compare
    /// from: which of its methods reach a named type.
    pub fn add_usage(&mut self, old: &Document, usage: &Usage, gate: bool) {
        let graph = reach::Graph::new(old);
        let mut reached: HashMap<(String, String), reach::Reached> = HashMap::new();
        for finding in &mut self.findings {
            if finding.pairing != Pairing::OldCallersNewPlant {
                continue;
            }
            if finding.level < Level::Risky && finding.rule != VERSION_RULE {
                continue;
            }
            let Some(subject) = Subject::of(finding) else { continue };
            let mut reach = |namespace: &str, name: &str| {
                reached
                    .entry((namespace.to_owned(), name.to_owned()))
                    .or_insert_with(|| graph.reached(namespace, name))
                    .clone()
            };
            let evidence = evidence_for(finding, subject, usage, gate, &mut reach);
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

/// The evidence of one finding about `subject`.
fn evidence_for(
    finding: &Finding,
    subject: Subject<'_>,
    usage: &Usage,
    gate: bool,
    reach: &mut dyn FnMut(&str, &str) -> reach::Reached,
) -> Evidence {
    let mut evidence = Evidence {
        text: String::new(),
        count: None,
        versions: Vec::new(),
        window: usage.window.clone(),
        plants: usage.plants,
        source: usage.source.clone(),
        covered: usage.coverage == Coverage::Whole,
        gated_from: None,
    };
    match &usage.coverage {
        Coverage::Unreachable { reason } => {
            evidence.text = format!("no usage evidence: {reason}; the level stands");
            return evidence;
        }
        Coverage::Short { seconds } => {
            evidence.text = format!(
                "no usage evidence for {}: the source covers only the last {seconds} s; the level stands",
                usage.window
            );
            return evidence;
        }
        Coverage::Whole => {}
    }
    let unused =
        format!("no use in {} on {} ({})", usage.window, plants(usage.plants), usage.source);
    if finding.rule == ENUM_VALUE_RULE
        && finding.position == PositionKind::Params
        && value_evidence(&mut evidence, finding, &subject, usage, gate)
    {
        return evidence;
    }
    match subject {
        Subject::Method { namespace, method, member, read } => {
            method_evidence(
                &mut evidence,
                finding,
                usage,
                gate && !read,
                namespace,
                method,
                &member,
                &unused,
            );
        }
        Subject::Type { namespace, name, field } => {
            let reached = reach(namespace, name);
            type_evidence(
                &mut evidence,
                finding,
                usage,
                gate,
                (namespace, name),
                field,
                &reached,
                &unused,
            );
        }
        Subject::Describe => describe_evidence(&mut evidence, usage, gate),
        Subject::Namespace(namespace) => {
            let (count, versions) = calls_of(usage, |u| u.namespace == namespace);
            evidence.count = Some(count);
            evidence.text = if count == 0 {
                format!(
                    "no call of `{namespace}`'s methods in {} on {} ({})",
                    usage.window,
                    plants(usage.plants),
                    usage.source
                )
            } else {
                format!(
                    "`{namespace}`'s methods called {} in {}{}",
                    times(count),
                    usage.window,
                    by_versions(&versions)
                )
            };
            evidence.versions = versions;
        }
        Subject::Version(namespace) => version_evidence(&mut evidence, usage, namespace),
    }
    evidence
}

/// The value an `enum-value-removed` finding removes, as the plants label it (its message says
/// `no longer admits VALUE`, the value as JSON text, then perhaps a note on where the type is
/// reached from).
fn removed_value(finding: &Finding) -> Option<String> {
    let (_, text) = finding.message.split_once(" no longer admits ")?;
    let first = serde_json::Deserializer::from_str(text).into_iter::<Value>().next()?;
    match first.ok()? {
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    }
}

/// A removed enum value that params carry: its own count, when the plants count that enum.
/// Evidence only: a narrowing, and a value cannot be declared deprecated.
fn value_evidence(
    evidence: &mut Evidence,
    finding: &Finding,
    subject: &Subject<'_>,
    usage: &Usage,
    gate: bool,
) -> bool {
    let Some(value) = removed_value(finding) else { return false };
    let (namespace, method, member) = match subject {
        Subject::Method { namespace, method, member, read: false } => {
            (*namespace, *method, member.clone())
        }
        Subject::Type { namespace, name, field } => {
            let member =
                field.as_ref().map_or_else(|| (*name).to_owned(), |f| format!("{name}.{f}"));
            (*namespace, TYPES, member)
        }
        _ => return false,
    };
    let Some(counted) = usage.values.iter().find(|v| {
        v.namespace == namespace && v.method == method && v.member == member && v.value == value
    }) else {
        return false;
    };
    evidence.count = Some(counted.count);
    let shown = Value::String(value.clone());
    evidence.text = if counted.count == 0 {
        format!(
            "value {shown} of `{member}` not sent in {} on {} ({})",
            usage.window,
            plants(usage.plants),
            usage.source
        )
    } else {
        format!("value {shown} of `{member}` sent {} in {}", times(counted.count), usage.window)
    };
    if gate {
        evidence.text.push_str("; a narrowing, which --usage-gate leaves at its level");
    }
    true
}

/// The calls of the methods `which` selects, summed, and the versions that made them.
fn calls_of(usage: &Usage, which: impl Fn(&Use) -> bool) -> (u64, Vec<String>) {
    let mut count = 0;
    let mut versions: Vec<String> = Vec::new();
    for u in usage.uses.iter().filter(|u| u.member == METHOD && u.method != TYPES && which(u)) {
        count += u.count;
        for v in &u.versions {
            if !versions.contains(v) {
                versions.push(v.clone());
            }
        }
    }
    versions.sort();
    (count, versions)
}

/// With the gate, a removal of a counted member that no call used: safe when it was deprecated
/// through the window; said either way.
fn gate_removal(evidence: &mut Evidence, finding: &Finding, gate: bool, through: bool) {
    if !gate || !REMOVALS.contains(&finding.rule) {
        return;
    }
    if through {
        evidence.gated_from = Some(finding.level);
        evidence.text.push_str(
            "; deprecated through the whole window, so --usage-gate reports the removal safe",
        );
    } else {
        evidence.text.push_str("; not deprecated through the whole window, so the level stands");
    }
}

#[allow(clippy::too_many_arguments)]
fn method_evidence(
    evidence: &mut Evidence,
    finding: &Finding,
    usage: &Usage,
    gate: bool,
    namespace: &str,
    method: &str,
    member: &str,
    unused: &str,
) {
    // The member's own count when it is counted; else the method's calls (a param the plant
    // does not count because it was never deprecated).
    let (counted, own) = match usage.of(namespace, method, member) {
        Some(u) => (Some(u), true),
        None => (usage.of(namespace, method, METHOD), false),
    };
    let Some(counted) = counted else {
        evidence.text = format!(
            "no usage evidence: no plant of the source serves `{namespace}.{method}`; the level stands"
        );
        return;
    };
    evidence.count = Some(counted.count);
    evidence.versions.clone_from(&counted.versions);
    let what =
        if own && member != METHOD { format!("`{member}` sent") } else { "called".to_owned() };
    evidence.text = if counted.count == 0 {
        unused.to_owned()
    } else {
        format!(
            "{what} {} in {}{}",
            times(counted.count),
            usage.window,
            by_versions(&counted.versions)
        )
    };
    if !own && member != METHOD {
        evidence.text.push_str(
            " (the method's calls: the plant counts a param or field only while it is deprecated)",
        );
    }
    if own && counted.count == 0 {
        gate_removal(evidence, finding, gate, usage.deprecated_through(namespace, method, member));
    }
}

fn names(methods: &[(String, String)]) -> String {
    const SHOWN: usize = 3;
    let mut shown: Vec<String> =
        methods.iter().take(SHOWN).map(|(ns, m)| format!("{ns}.{m}")).collect();
    if methods.len() > SHOWN {
        shown.push(format!("{} more", methods.len() - SHOWN));
    }
    shown.join(", ")
}

#[allow(clippy::too_many_arguments)]
fn type_evidence(
    evidence: &mut Evidence,
    finding: &Finding,
    usage: &Usage,
    gate: bool,
    (namespace, name): (&str, &str),
    field: Option<String>,
    reached: &reach::Reached,
    unused: &str,
) {
    let window = &usage.window;
    if finding.position == PositionKind::Params {
        // The field's own count, by type, whichever method's params carried it.
        let key = field.as_ref().map(|f| format!("{name}.{f}"));
        if let Some(own) = key.as_ref().and_then(|k| usage.of(namespace, TYPES, k)) {
            evidence.count = Some(own.count);
            evidence.text = if own.count == 0 {
                unused.to_owned()
            } else {
                format!(
                    "`{}` sent {} in {window}, in the params of any method",
                    own.member,
                    times(own.count)
                )
            };
            if own.count == 0 {
                let through = usage.deprecated_through(namespace, TYPES, &own.member);
                gate_removal(evidence, finding, gate, through);
            }
            return;
        }
        if reached.params.is_empty() {
            evidence.text =
                format!("no usage evidence: no method's params carry `{name}`; the level stands");
            return;
        }
        let what = format!("the methods whose params carry `{name}`");
        methods_evidence(evidence, usage, &reached.params, &what, ["", ""]);
        evidence.text.push_str(
            " (their calls: the plant counts a field of a named type only while it is deprecated)",
        );
        return;
    }
    // Results, error data and events: what callers read is not counted; the calls of the
    // methods that answer with it say whether it is still read.
    let events = if reached.events {
        "; events carry it too, and their subscribers are not counted"
    } else {
        ""
    };
    if reached.results.is_empty() {
        evidence.text = if reached.events {
            format!(
                "no usage evidence: only events carry `{name}`, and their subscribers are not counted; the level stands"
            )
        } else {
            format!("no usage evidence: no method answers with `{name}`; the level stands")
        };
        return;
    }
    let what = format!("the methods that answer with `{name}`");
    let read =
        format!(": their callers may read it (the plant does not count what callers read){events}");
    methods_evidence(evidence, usage, &reached.results, &what, [events, &read]);
}

/// The calls of `methods` summed as the evidence: `no call in 30d of WHAT (…) on N plants
/// (SOURCE)` then `unused`, or `WHAT (…) were called N times in 30d, by …` then `used`.
fn methods_evidence(
    evidence: &mut Evidence,
    usage: &Usage,
    methods: &[(String, String)],
    what: &str,
    [unused, used]: [&str; 2],
) {
    let (count, versions) =
        calls_of(usage, |u| methods.iter().any(|(n, m)| *n == u.namespace && *m == u.method));
    let (window, list) = (&usage.window, names(methods));
    evidence.count = Some(count);
    evidence.text = if count == 0 {
        format!(
            "no call in {window} of {what} ({list}) on {} ({}){unused}",
            plants(usage.plants),
            usage.source
        )
    } else {
        format!(
            "{what} ({list}) were called {} in {window}{}{used}",
            times(count),
            by_versions(&versions)
        )
    };
    evidence.versions = versions;
}

/// The describe method: its calls, and of them the reduced answers (callers without a
/// credential). Evidence only: the describe method cannot be declared deprecated.
fn describe_evidence(evidence: &mut Evidence, usage: &Usage, gate: bool) {
    let mut describe = 0;
    let mut reduced = 0;
    let mut versions: Vec<String> = Vec::new();
    let mut namespaces: Vec<&str> = Vec::new();
    for v in usage.versions.iter().filter(|v| v.describe > 0) {
        describe += v.describe;
        reduced += v.reduced;
        if !versions.contains(&v.version) {
            versions.push(v.version.clone());
        }
        if !namespaces.contains(&v.namespace.as_str()) {
            namespaces.push(&v.namespace);
        }
    }
    versions.sort();
    evidence.count = Some(describe);
    let window = &usage.window;
    evidence.text = if describe == 0 {
        format!(
            "no describe call in {window} on {} ({}), and no reduced answer asked",
            plants(usage.plants),
            usage.source
        )
    } else {
        let per =
            if namespaces.len() > 1 { " (counted once per namespace a call named)" } else { "" };
        format!(
            "the describe method answered {}{per} in {window}, {} of them the reduced answer to callers without a credential{}",
            times(describe),
            grouped(reduced),
            by_versions(&versions)
        )
    };
    if gate {
        evidence.text.push_str(
            "; the describe method cannot be deprecated, so --usage-gate leaves its level",
        );
    }
    evidence.versions = versions;
}

/// A namespace's contract version: which declared versions still call, and how much.
fn version_evidence(evidence: &mut Evidence, usage: &Usage, namespace: &str) {
    let mut rows: Vec<&VersionUse> = usage
        .versions
        .iter()
        .filter(|v| v.namespace == namespace && (v.calls > 0 || v.describe > 0))
        .collect();
    rows.sort_by(|a, b| a.version.cmp(&b.version));
    evidence.count = Some(rows.iter().map(|v| v.calls).sum());
    evidence.versions = rows.iter().map(|v| v.version.clone()).collect();
    if rows.is_empty() {
        evidence.text = format!(
            "no caller of `{namespace}` in {} on {} ({})",
            usage.window,
            plants(usage.plants),
            usage.source
        );
        return;
    }
    let each: Vec<String> = rows
        .iter()
        .map(|v| {
            let who =
                if v.version == UNDECLARED { "no version".to_owned() } else { v.version.clone() };
            format!(
                "{who} ({} call{}, {} describe)",
                grouped(v.calls),
                if v.calls == 1 { "" } else { "s" },
                grouped(v.describe)
            )
        })
        .collect();
    evidence.text =
        format!("callers of `{namespace}` in {} declared {}", usage.window, each.join(", "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Source, diff};

    const OLD: &str = include_str!("../../../../fixtures/usage/old.types.json");
    const NEW: &str = include_str!("../../../../fixtures/usage/new.types.json");

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
            versions: Vec::new(),
            values: Vec::new(),
        }
    }

    fn old() -> Document {
        Document::parse(OLD).unwrap()
    }

    fn level_of(report: &Report, path: &str) -> (Level, String) {
        let f =
            report.findings.iter().find(|f| f.path == path && f.rule == "method-removed").unwrap();
        (f.level, f.evidence.as_ref().map(|e| e.text.clone()).unwrap_or_default())
    }

    #[test]
    fn the_gate_turns_only_an_unused_deprecated_removal_safe() {
        let mut gated = report();
        gated.add_usage(&old(), &usage(Coverage::Whole), true);
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
            r.add_usage(&old(), &usage(coverage.clone()), gate);
            let (level, text) = level_of(&r, "meter.legacyTotal");
            assert_eq!(level, Level::Breaking, "{coverage:?}: {text}");
            assert!(!text.is_empty());
        }
        let mut short = report();
        short.add_usage(&old(), &usage(Coverage::Short { seconds: 60 }), true);
        assert_eq!(
            level_of(&short, "meter.legacyTotal").1,
            "no usage evidence for 30d: the source covers only the last 60 s; the level stands"
        );
        // Unused, but not deprecated through the window: the level stands.
        let mut young = usage(Coverage::Whole);
        young.deprecated_through.clear();
        let mut r = report();
        r.add_usage(&old(), &young, true);
        assert_eq!(level_of(&r, "meter.legacyTotal").0, Level::Breaking);
    }

    #[test]
    fn counts_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    /// A named type's deprecated field removed from a closed object in params, the describe
    /// method dropped, and the version left at 1.0.0.
    const TANK_OLD: &str = r#"{"schema": 1, "namespaces": {"tank": {"version": "1.0.0",
      "types": {"Reading": {"kind": "object", "closed": true, "fields": {
        "value": {"type": {"kind": "number"}},
        "raw": {"type": {"kind": "integer"}, "optional": true, "deprecated": "use value"}}}},
      "methods": {"ingest": {"semantics": "write", "paramStructure": "by-name", "params": [
        {"name": "readings", "type": {"kind": "array", "items": {"kind": "ref", "name": "Reading"}}}],
        "result": {"kind": "null"}}}}}}"#;
    const TANK_NEW: &str = r#"{"schema": 1, "wire": {"describe": false},
      "namespaces": {"tank": {"version": "1.0.0",
      "types": {"Reading": {"kind": "object", "closed": true, "fields": {
        "value": {"type": {"kind": "number"}}}, "reserved": [{"name": "raw"}]}},
      "methods": {"ingest": {"semantics": "write", "paramStructure": "by-name", "params": [
        {"name": "readings", "type": {"kind": "array", "items": {"kind": "ref", "name": "Reading"}}}],
        "result": {"kind": "null"}}}}}}"#;

    fn tank_usage(raw_sent: u64) -> Usage {
        let mut usage = Usage::unreachable("30d", "metrics.txt", "");
        usage.plants = 2;
        usage.coverage = Coverage::Whole;
        usage.uses = vec![
            Use::new("tank", "ingest", METHOD, 5, vec!["1.0.0".into()]),
            Use::new("tank", TYPES, "Reading.raw", raw_sent, vec![]),
        ];
        usage.deprecated_through = vec![("tank".into(), TYPES.into(), "Reading.raw".into())];
        usage.versions = vec![
            VersionUse::new("tank", "1.0.0", 5, 2, 0),
            VersionUse::new("tank", UNDECLARED, 0, 3, 3),
        ];
        usage
    }

    fn tank(raw_sent: u64, gate: bool) -> Report {
        let old = Source::parse("old", TANK_OLD).unwrap();
        let mut report = diff(&old, &Source::parse("new", TANK_NEW).unwrap());
        report.add_usage(&old.document, &tank_usage(raw_sent), gate);
        report
    }

    fn at<'r>(report: &'r Report, rule: &str, path: &str) -> &'r Finding {
        report
            .findings
            .iter()
            .find(|f| f.rule == rule && f.path == path && f.pairing == Pairing::OldCallersNewPlant)
            .unwrap_or_else(|| panic!("{rule} at {path}: {:#?}", report.findings))
    }

    #[test]
    fn a_named_types_field_is_judged_on_its_count_by_type() {
        const RULE: &str = "field-removed-from-closed-object";
        let unused = tank(0, true);
        let raw = at(&unused, RULE, "tank.types.Reading.raw");
        assert_eq!(raw.level, Level::Safe);
        let evidence = raw.evidence.as_ref().unwrap();
        assert_eq!(evidence.gated_from, Some(Level::Breaking));
        assert_eq!(
            evidence.text,
            "no use in 30d on 2 plants (metrics.txt); deprecated through the whole window, so --usage-gate reports the removal safe"
        );
        let used = tank(7, true);
        let raw = at(&used, RULE, "tank.types.Reading.raw");
        assert_eq!(raw.level, Level::Breaking);
        assert_eq!(
            raw.evidence.as_ref().unwrap().text,
            "`Reading.raw` sent 7 times in 30d, in the params of any method"
        );
        // Without the gate: the evidence only.
        let ungated = tank(0, false);
        assert_eq!(at(&ungated, RULE, "tank.types.Reading.raw").level, Level::Breaking);
    }

    #[test]
    fn the_describe_method_and_the_version_carry_their_counts_and_keep_their_level() {
        let report = tank(0, true);
        let describe = at(&report, "describe-method-removed", "wire.describe");
        assert_eq!(describe.level, Level::Risky);
        let evidence = describe.evidence.as_ref().unwrap();
        assert_eq!(
            evidence.text,
            "the describe method answered 5 times in 30d, 3 of them the reduced answer to callers without a credential, by callers declaring 1.0.0 and callers declaring no version; the describe method cannot be deprecated, so --usage-gate leaves its level"
        );
        assert_eq!(evidence.count, Some(5));
        let version = at(&report, "version-not-bumped", "tank.version");
        assert_eq!(version.level, Level::Policy);
        assert_eq!(
            version.evidence.as_ref().unwrap().text,
            "callers of `tank` in 30d declared 1.0.0 (5 calls, 2 describe), no version (0 calls, 3 describe)"
        );
        // No describe call at all: said so, and still no level change.
        let old = Source::parse("old", TANK_OLD).unwrap();
        let mut quiet = diff(&old, &Source::parse("new", TANK_NEW).unwrap());
        let mut usage = tank_usage(0);
        usage.versions.clear();
        quiet.add_usage(&old.document, &usage, true);
        let describe = at(&quiet, "describe-method-removed", "wire.describe");
        assert_eq!(describe.level, Level::Risky);
        assert!(
            describe.evidence.as_ref().unwrap().text.starts_with(
                "no describe call in 30d on 2 plants (metrics.txt), and no reduced answer asked"
            ),
            "{describe:?}"
        );
    }

    #[test]
    fn finding_paths_are_read_as_the_plants_label_them() {
        assert_eq!(counted_path("params.readings[].raw").as_deref(), Some("params.readings.raw"));
        assert_eq!(counted_path("samples[0].raw").as_deref(), Some("samples.raw"));
        assert_eq!(counted_path("params.config.mode").as_deref(), Some("params.config.mode"));
        assert_eq!(counted_path("params.shape|circle.radius"), None);
    }

    #[test]
    fn a_removed_enum_value_params_carry_is_judged_on_its_own_count_and_never_gated() {
        for (sent, text) in [
            (
                0,
                "value \"legacy\" of `Config.mode` not sent in 30d on 2 plants (metrics.txt); a narrowing, which --usage-gate leaves at its level",
            ),
            (
                4,
                "value \"legacy\" of `Config.mode` sent 4 times in 30d; a narrowing, which --usage-gate leaves at its level",
            ),
        ] {
            let mut usage = usage(Coverage::Whole);
            usage.values = vec![
                ValueUse::new("meter", TYPES, "Config.mode", "legacy", sent),
                ValueUse::new("meter", TYPES, "Config.mode", "burst", 9),
            ];
            let mut r = report();
            r.add_usage(&old(), &usage, true);
            let f = at(&r, "enum-value-removed", "meter.types.Config.mode");
            assert_eq!(f.level, Level::Breaking);
            let evidence = f.evidence.as_ref().unwrap();
            assert_eq!(evidence.text, text);
            assert_eq!(evidence.count, Some(sent));
            assert_eq!(evidence.gated_from, None);
        }
    }
}
