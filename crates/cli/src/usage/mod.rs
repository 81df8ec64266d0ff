//! `accord usage`: what a contract's callers use, per method and deprecated member, over a
//! window, from a usage source (docs/usage.md); and the usage source of `accord check --usage`.

mod exposition;
pub(crate) mod source;
pub(crate) mod window;

use std::fmt::Write as _;
use std::path::PathBuf;

use accord_compat_diff::usage::{Coverage, TYPES};
use accord_plant::usage::names;
use accord_schema_model::Document;
use serde_json::{Value, json};

use crate::{Outcome, OutputFormat, input, output};
use source::Counts;
use window::Window;

/// Arguments of `accord usage`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract whose methods and deprecated members are reported.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    /// A Prometheus-compatible HTTP query API (Prometheus, Thanos, Mimir, VictoriaMetrics)
    /// that scrapes the plants' metrics path, e.g. `http://prometheus:9090`.
    #[arg(
        long,
        value_name = "URL",
        required_unless_present = "metrics",
        conflicts_with = "metrics"
    )]
    prometheus: Option<String>,
    /// A saved metrics text of one plant (`curl PLANT/metrics > FILE`): counts since the plant
    /// started.
    #[arg(long, value_name = "FILE")]
    metrics: Option<PathBuf>,
    /// The window: a whole number and s, m, h, d or w (`30d`).
    #[arg(long, default_value = "30d", value_parser = window::parse)]
    window: Window,
    /// How to report.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

/// `--usage SOURCE` of `accord check`: a query API's URL (`http://`, `https://`) or a saved
/// metrics text.
pub(crate) fn read_source(source: &str, window: &Window) -> Result<Counts, String> {
    if source.starts_with("http://") || source.starts_with("https://") {
        return Ok(source::from_prometheus(source, window));
    }
    let text = std::fs::read_to_string(source)
        .map_err(|e| format!("the usage source {source} cannot be read: {e}"))?;
    source::from_text(source, &text, window)
}

pub(crate) fn run(args: &Args) -> Outcome {
    let loaded = match input::read(&args.contract) {
        Ok(loaded) => loaded,
        Err(why) => {
            eprintln!("error: {}: {}", args.contract.display(), why.message);
            return Outcome::InputError;
        }
    };
    let counts = match (&args.prometheus, &args.metrics) {
        (Some(url), _) => source::from_prometheus(url, &args.window),
        (None, Some(file)) => {
            let name = file.display().to_string();
            let read = std::fs::read_to_string(file)
                .map_err(|e| format!("{name} cannot be read: {e}"))
                .and_then(|text| source::from_text(&name, &text, &args.window));
            match read {
                Ok(counts) => counts,
                Err(why) => {
                    eprintln!("error: {why}");
                    return Outcome::InputError;
                }
            }
        }
        (None, None) => return Outcome::InputError,
    };
    if let Coverage::Unreachable { reason } = &counts.coverage {
        eprintln!("error: the usage source cannot be read: {reason}");
        return Outcome::InputError;
    }
    let report = Summary::of(&loaded.document, &counts);
    let text = match args.format {
        OutputFormat::Text => report.to_text(&counts),
        OutputFormat::Json => {
            let mut text =
                serde_json::to_string_pretty(&report.to_json(&counts)).unwrap_or_default();
            text.push('\n');
            text
        }
    };
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}

/// One method or deprecated member of the contract and its use.
struct Line {
    namespace: String,
    method: String,
    /// `method`, or the member's path.
    member: String,
    deprecated: bool,
    count: u64,
    /// (declared version, count) of the calls.
    versions: Vec<(String, u64)>,
}

impl Line {
    /// As the text report names it: `meter.read`, `meter.read params.unit`,
    /// `meter.types.Config.scale`.
    fn name(&self) -> String {
        if self.member == names::METHOD_MEMBER {
            format!("{}.{}", self.namespace, self.method)
        } else if self.method == TYPES {
            format!("{}.{TYPES}.{}", self.namespace, self.member)
        } else {
            format!("{}.{} {}", self.namespace, self.method, self.member)
        }
    }
}

struct Summary {
    lines: Vec<Line>,
    /// (namespace, declared version, describe calls, method calls).
    seen: Vec<(String, String, u64, u64)>,
    reduced: u64,
}

impl Summary {
    fn of(doc: &Document, counts: &Counts) -> Summary {
        let mut lines = Vec::new();
        // In member order, whatever order the source listed them in.
        let mut deprecated: Vec<&(String, String, String, bool)> =
            counts.deprecated.iter().collect();
        deprecated.sort();
        for (ns, namespace) in doc.namespaces.iter().flatten() {
            for (name, method) in namespace.methods.iter().flatten() {
                let rows: Vec<_> = counts
                    .calls
                    .iter()
                    .filter(|r| r.namespace == *ns && r.method == *name)
                    .collect();
                let mut versions: Vec<(String, u64)> = rows
                    .iter()
                    .filter(|r| r.count > 0)
                    .map(|r| (r.label.clone(), r.count))
                    .collect();
                versions.sort();
                lines.push(Line {
                    namespace: ns.clone(),
                    method: name.clone(),
                    member: names::METHOD_MEMBER.to_owned(),
                    deprecated: method.deprecated.is_some(),
                    count: rows.iter().map(|r| r.count).sum(),
                    versions,
                });
                for (d_ns, d_method, member, _) in deprecated.iter().copied() {
                    if d_ns != ns || d_method != name || member == names::METHOD_MEMBER {
                        continue;
                    }
                    let count = counts
                        .deprecated_uses
                        .iter()
                        .filter(|r| r.namespace == *ns && r.method == *name && r.label == *member)
                        .map(|r| r.count)
                        .sum();
                    lines.push(Line {
                        namespace: ns.clone(),
                        method: name.clone(),
                        member: member.clone(),
                        deprecated: true,
                        count,
                        versions: Vec::new(),
                    });
                }
            }
            // Deprecated fields of named types, counted by type whichever method carried them.
            for (d_ns, d_method, member, _) in deprecated.iter().copied() {
                if d_ns != ns || d_method != TYPES {
                    continue;
                }
                let count = counts
                    .deprecated_uses
                    .iter()
                    .filter(|r| r.namespace == *ns && r.method == TYPES && r.label == *member)
                    .map(|r| r.count)
                    .sum();
                lines.push(Line {
                    namespace: ns.clone(),
                    method: TYPES.to_owned(),
                    member: member.clone(),
                    deprecated: true,
                    count,
                    versions: Vec::new(),
                });
            }
        }
        // Versions seen in the wild: declared in describe calls, and the calls under each.
        let mut seen: Vec<(String, String, u64, u64)> = Vec::new();
        fn at(seen: &mut Vec<(String, String, u64, u64)>, ns: &str, version: &str) -> usize {
            match seen.iter().position(|s| s.0 == ns && s.1 == version) {
                Some(i) => i,
                None => {
                    seen.push((ns.to_owned(), version.to_owned(), 0, 0));
                    seen.len() - 1
                }
            }
        }
        let mut reduced = 0;
        for r in &counts.describe {
            if r.method == "reduced" {
                reduced += r.count;
            }
            if r.count > 0 {
                let i = at(&mut seen, &r.namespace, &r.label);
                seen[i].2 += r.count;
            }
        }
        for r in counts.calls.iter().filter(|r| r.count > 0) {
            let i = at(&mut seen, &r.namespace, &r.label);
            seen[i].3 += r.count;
        }
        seen.sort();
        Summary { lines, seen, reduced }
    }

    fn to_text(&self, counts: &Counts) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "usage over {} from {}: {}, {}",
            counts.window.text,
            counts.source,
            output::plural(counts.plants, "plant"),
            coverage_text(&counts.coverage, &counts.window)
        );
        for l in &self.lines {
            let what = l.name();
            let mark = if l.deprecated { " (deprecated)" } else { "" };
            let uses = if l.member == names::METHOD_MEMBER { "call" } else { "use" };
            if l.count == 0 {
                let _ = writeln!(out, "{what}{mark}: unused");
                continue;
            }
            let _ = write!(out, "{what}{mark}: {}", output::plural(l.count as usize, uses));
            if !l.versions.is_empty() {
                let by: Vec<String> =
                    l.versions.iter().map(|(v, n)| format!("{} {n}", shown(v))).collect();
                let _ = write!(out, " (by declared version: {})", by.join(", "));
            }
            out.push('\n');
        }
        if self.seen.is_empty() {
            out.push_str("versions seen: none\n");
        } else {
            out.push_str("versions seen:\n");
            for (ns, version, describe, calls) in &self.seen {
                let _ = writeln!(
                    out,
                    "  {ns} {}: {} describe, {}",
                    shown(version),
                    describe,
                    output::plural(*calls as usize, "call")
                );
            }
        }
        let _ = writeln!(
            out,
            "reduced describe answers: {}{}",
            self.reduced,
            if self.reduced == 0 {
                " (no caller without a credential asked: the reduced answer can be contracted)"
            } else {
                ""
            }
        );
        let unused: Vec<String> =
            self.lines.iter().filter(|l| l.count == 0).map(Line::name).collect();
        let _ = writeln!(
            out,
            "unused in {}: {}",
            counts.window.text,
            if unused.is_empty() { "nothing".to_owned() } else { unused.join(", ") }
        );
        out
    }

    fn to_json(&self, counts: &Counts) -> Value {
        let (covered, covers) = match &counts.coverage {
            Coverage::Whole => (true, Value::from(counts.window.seconds)),
            Coverage::Short { seconds } => (false, Value::from(*seconds)),
            _ => (false, Value::Null),
        };
        json!({
            "version": 1,
            "window": counts.window.text,
            "windowSeconds": counts.window.seconds,
            "source": counts.source,
            "plants": counts.plants,
            "covered": covered,
            "coveredSeconds": covers,
            "uses": self.lines.iter().map(|l| json!({
                "namespace": l.namespace,
                "method": l.method,
                "member": l.member,
                "deprecated": l.deprecated,
                "count": l.count,
                "versions": l.versions.iter().map(|(v, n)| json!({"version": v, "count": n})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "versionsSeen": self.seen.iter().map(|(ns, v, d, c)| json!({
                "namespace": ns, "version": v, "describe": d, "calls": c,
            })).collect::<Vec<_>>(),
            "reducedDescribe": self.reduced,
        })
    }
}

/// A declared version as the text report says it.
fn shown(version: &str) -> &str {
    if version == names::UNDECLARED { "no version declared" } else { version }
}

/// How much of the window a source covers, in words.
pub(crate) fn coverage_text(coverage: &Coverage, window: &Window) -> String {
    match coverage {
        Coverage::Whole => "covering the whole window".to_owned(),
        Coverage::Short { seconds } => format!(
            "covering only the last {seconds} s of the {} window: nothing can be claimed unused",
            window.text
        ),
        Coverage::Unreachable { reason } => format!("unreachable: {reason}"),
        _ => "coverage unknown".to_owned(),
    }
}
