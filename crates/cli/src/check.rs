//! `accord check`: the contract lint and, with a baseline (`--against FILE`,
//! `--against git:REV[:PATH]`, `--against-tags GLOB`), the compatibility classification and the
//! contract-version policy against each baseline. Every finding with its place in the file, then
//! a summary; exit 1 on a lint error or a finding at or above `--fail-on`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use accord_compat_diff::{Level, Pairing, Report, Source, diff};
use accord_schema_model::{Position, SourceMap, Span};
use accord_validate::{Diagnostic, LintReport, Severity};
use serde_json::{Value, json};

use crate::accept::{self, Date, Entry};
use crate::baseline::{self, Baseline};
use crate::diff::FailOn;
use crate::{Outcome, diagnostic, input, junit, output};

/// Arguments of `accord check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract to check.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    /// A baseline: a file, or `git:REV[:PATH]` (PATH defaults to CONTRACT's path in its
    /// repository).
    #[arg(long, value_name = "FILE|git:REV[:PATH]")]
    against: Option<String>,
    /// Check against every git tag matching GLOB (for example `v*`) that holds CONTRACT's path,
    /// and say which releases break.
    #[arg(long, value_name = "GLOB", conflicts_with = "against")]
    against_tags: Option<String>,
    /// The least level of a compatibility finding that fails the run (exit 1).
    #[arg(long, value_enum, default_value = "breaking")]
    fail_on: FailOn,
    /// How to report: text for people; json (without a baseline: a JSON array of lint findings;
    /// with one: the versioned check report); github (workflow commands).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Accepted breaks: a JSON file of entries keyed by rule id and path (`*` ends a prefix),
    /// each with a reason and an optional expiry date; accepted findings do not fail the run,
    /// expired or unmatched entries do.
    #[arg(long, value_name = "FILE")]
    accept: Option<PathBuf>,
    /// Re-extract the contract from this crate directory and fail (exit 1) with a diff when the
    /// committed CONTRACT is stale.
    #[arg(long, value_name = "DIR")]
    source: Option<PathBuf>,
    /// An extract configuration (`accord.toml`): re-extract from its `extract.source` (or
    /// `--source`) and fail like `--source` when CONTRACT is stale.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// The formats of `accord check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CheckFormat {
    /// For people.
    Text,
    /// For scripts: one JSON document on stdout.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=RULE::message`).
    Github,
    /// A SARIF 2.1.0 log, for GitHub code scanning.
    Sarif,
    /// A JUnit XML report: one test case per rule and place, failed when it fails the run.
    Junit,
}

/// One lint finding with its place in the text.
struct Located {
    diagnostic: Diagnostic,
    span: Span,
    position: Position,
}

/// The comparison with one baseline.
pub(crate) struct Compared {
    pub(crate) baseline: Baseline,
    pub(crate) report: Report,
    /// For each finding of the report, the accept entry that accepts it.
    pub(crate) accepted: Vec<Option<usize>>,
}

impl Compared {
    /// Whether a finding not accepted fails at `threshold` (old callers × new plant).
    fn fails(&self, threshold: Level) -> bool {
        self.report.findings.iter().zip(&self.accepted).any(|(f, a)| {
            a.is_none() && f.pairing == Pairing::OldCallersNewPlant && f.level >= threshold
        })
    }
}

/// A problem with an accept entry: expired, or accepting nothing.
struct EntryProblem {
    rule: &'static str,
    entry: usize,
    message: String,
}

/// The accept file's entries, what they accepted, and their problems.
struct Accepting {
    file: String,
    entries: Vec<Entry>,
    problems: Vec<EntryProblem>,
}

/// Marks the findings accepted by live entries; names expired entries and entries that accept
/// nothing.
fn apply(entries: &[Entry], compared: &mut [Compared], today: Date) -> Vec<EntryProblem> {
    let mut used = vec![false; entries.len()];
    for c in compared.iter_mut() {
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
}

/// The accept entry that accepted a finding, as the machine formats name it.
pub(crate) struct AcceptedBy {
    /// The accept file, line and column of the entry.
    pub(crate) location: (String, usize, usize),
    /// The entry's reason.
    pub(crate) reason: String,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else {
        return Outcome::InputError;
    };
    if let Some(source) = &args.source {
        match crate::extract::up_to_date(
            args.config.as_deref(),
            source,
            &args.contract,
            &loaded.document,
        ) {
            Ok(true) => {}
            Ok(false) => return Outcome::Problems,
            Err(outcome) => return outcome,
        }
    }
    let entries = match &args.accept {
        Some(path) => match accept::load(path) {
            Some(entries) => Some((path.display().to_string(), entries)),
            None => return Outcome::InputError,
        },
        None => None,
    };
    let lint = LintReport::of(&loaded.document);
    let map = SourceMap::new(&loaded.text);
    let mut found: Vec<Located> = lint
        .diagnostics
        .iter()
        .map(|d| {
            let span = diagnostic::lint_span(&map, &d.pointer);
            Located { diagnostic: d.clone(), span, position: map.position(span.start) }
        })
        .collect();
    // In the order of the file; findings at one place keep the registry's order.
    found.sort_by_key(|l| l.span.start);

    let baselines = match (&args.against, &args.against_tags) {
        (Some(spec), _) => match baseline::resolve(spec, &args.contract) {
            Some(b) => vec![b],
            None => return Outcome::InputError,
        },
        (None, Some(glob)) => match baseline::tags(glob, &args.contract) {
            Some(b) => b,
            None => return Outcome::InputError,
        },
        (None, None) => Vec::new(),
    };
    let file = args.contract.display().to_string();
    let current =
        Source { file: file.clone(), text: loaded.text.clone(), document: loaded.document };
    let mut compared: Vec<Compared> = baselines
        .into_iter()
        .map(|baseline| {
            let report = diff(&baseline.source, &current);
            let accepted = vec![None; report.findings.len()];
            Compared { baseline, report, accepted }
        })
        .collect();
    let accepting = entries.map(|(file, entries)| {
        let problems = apply(&entries, &mut compared, Date::today_utc());
        Accepting { file, entries, problems }
    });
    let accepting = accepting.as_ref();
    let threshold = match args.fail_on {
        FailOn::Breaking => Level::Breaking,
        FailOn::Risky => Level::Risky,
    };
    let items = items(&file, &found, &compared, accepting, threshold);
    let failed = items.iter().any(|i| i.fails);

    let text = match args.format {
        CheckFormat::Text => text_report(
            &args.contract,
            &loaded.text,
            &found,
            &lint,
            &compared,
            accepting,
            threshold,
        ),
        CheckFormat::Json
            if compared.is_empty() && args.against_tags.is_none() && accepting.is_none() =>
        {
            json_lint(&found)
        }
        CheckFormat::Json => {
            pretty(&json_report(&file, &found, &compared, accepting, threshold, failed))
        }
        CheckFormat::Github => github_report(&items),
        CheckFormat::Sarif => pretty(&crate::sarif::log(&file, &items)),
        CheckFormat::Junit => junit_report(&file, &items),
    };
    if !output::print(&text) {
        return Outcome::InputError;
    }
    if failed { Outcome::Problems } else { Outcome::Success }
}

fn pairing_title(p: Pairing) -> &'static str {
    match p {
        Pairing::OldCallersNewPlant => "old callers × new plant",
        Pairing::NewCallersOldPlant => "new callers × old plant",
    }
}

fn items(
    file: &str,
    found: &[Located],
    compared: &[Compared],
    accepting: Option<&Accepting>,
    threshold: Level,
) -> Vec<Item> {
    let mut out: Vec<Item> = found
        .iter()
        .map(|l| Item {
            rule: l.diagnostic.rule,
            level: l.diagnostic.severity.as_str(),
            fails: l.diagnostic.severity == Severity::Error,
            message: l.diagnostic.message.clone(),
            location: Some((file.to_owned(), l.position.line, l.position.column)),
            accepted: None,
        })
        .collect();
    for c in compared {
        for (f, accepted) in c.report.findings.iter().zip(&c.accepted) {
            let entry = accepted.and_then(|n| accepting.map(|a| &a.entries[n]));
            let note = entry.map_or(String::new(), |e| {
                format!(" (accepted by {}:{}: {})", e.file, e.line, e.reason)
            });
            out.push(Item {
                rule: f.rule,
                level: f.level.as_str(),
                fails: entry.is_none()
                    && f.pairing == Pairing::OldCallersNewPlant
                    && f.level >= threshold,
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
            });
        }
    }
    if let Some(a) = accepting {
        for p in &a.problems {
            let e = &a.entries[p.entry];
            out.push(Item {
                rule: p.rule,
                level: "error",
                fails: true,
                message: p.message.clone(),
                location: Some((e.file.clone(), e.line, e.column)),
                accepted: None,
            });
        }
    }
    out
}

/// The accepted findings of one comparison, as text.
fn accepted_text(out: &mut String, c: &Compared, a: &Accepting) {
    for (f, n) in c.report.findings.iter().zip(&c.accepted) {
        let Some(n) = n else { continue };
        let e = &a.entries[*n];
        let place = f
            .location
            .as_ref()
            .map_or("-".to_owned(), |l| format!("{}:{}:{}", l.file, l.line, l.column));
        let _ = writeln!(
            out,
            "{place}: accepted {}[{}] {} ({}): by {}:{}: {}",
            f.level,
            f.rule,
            f.path,
            pairing_title(f.pairing),
            e.file,
            e.line,
            e.reason
        );
    }
}

fn text_report(
    path: &Path,
    text: &str,
    found: &[Located],
    lint: &LintReport,
    compared: &[Compared],
    accepting: Option<&Accepting>,
    threshold: Level,
) -> String {
    let mut out = String::new();
    for l in found {
        out.push_str(&diagnostic::render_lint_diagnostic(
            path,
            text,
            &l.diagnostic,
            l.span,
            l.position,
        ));
        out.push('\n');
    }
    if compared.is_empty() {
        out.push_str(&lint.summary());
        out.push('\n');
        return out;
    }
    let _ = writeln!(out, "lint: {}", lint.summary());
    for c in compared {
        let _ = writeln!(out, "\n# against {} ({})", c.baseline.name, c.baseline.source.file);
        out.push_str(&c.report.to_text());
        if let Some(a) = accepting {
            accepted_text(&mut out, c, a);
        }
    }
    if let Some(a) = accepting {
        let _ = writeln!(out);
        for p in &a.problems {
            let e = &a.entries[p.entry];
            let _ = writeln!(
                out,
                "{}:{}:{}: error[{}] {}",
                e.file, e.line, e.column, p.rule, p.message
            );
        }
        let accepted: usize =
            compared.iter().map(|c| c.accepted.iter().filter(|a| a.is_some()).count()).sum();
        let _ = writeln!(
            out,
            "accept: {} ({} entries): {accepted} accepted, {} entry problems",
            a.file,
            a.entries.len(),
            a.problems.len()
        );
    }
    if compared.len() > 1 {
        let breaking: Vec<&str> = compared
            .iter()
            .filter(|c| c.fails(threshold))
            .map(|c| c.baseline.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "\nreleases checked: {}; failing at {threshold}: {}",
            compared.len(),
            if breaking.is_empty() { "none".to_owned() } else { breaking.join(", ") }
        );
    }
    out
}

fn lint_json(found: &[Located]) -> Vec<Value> {
    found
        .iter()
        .map(|l| {
            json!({
                "rule": l.diagnostic.rule,
                "severity": l.diagnostic.severity.as_str(),
                "message": l.diagnostic.message,
                "help": l.diagnostic.help,
                "pointer": l.diagnostic.pointer.as_str(),
                "line": l.position.line,
                "column": l.position.column,
            })
        })
        .collect()
}

fn pretty(value: &Value) -> String {
    // Serializing a Value cannot fail.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

fn json_lint(found: &[Located]) -> String {
    pretty(&Value::Array(lint_json(found)))
}

fn json_report(
    file: &str,
    found: &[Located],
    compared: &[Compared],
    accepting: Option<&Accepting>,
    threshold: Level,
    failed: bool,
) -> Value {
    let baselines: Vec<Value> = compared
        .iter()
        .map(|c| {
            let mut b = json!({
                "name": c.baseline.name,
                "file": c.baseline.source.file,
                "fails": c.fails(threshold),
                "report": c.report.to_json(),
            });
            if let Some(a) = accepting {
                let accepted: Vec<Value> = c
                    .report
                    .findings
                    .iter()
                    .zip(&c.accepted)
                    .filter_map(|(f, n)| {
                        let e = &a.entries[(*n)?];
                        Some(json!({
                            "rule": f.rule,
                            "path": f.path,
                            "pairing": f.pairing.as_str(),
                            "level": f.level.as_str(),
                            "reason": e.reason,
                            "entry": {"file": e.file, "line": e.line, "column": e.column},
                        }))
                    })
                    .collect();
                b["accepted"] = Value::Array(accepted);
            }
            b
        })
        .collect();
    let mut report = json!({
        "version": 1,
        "contract": file,
        "failOn": threshold.as_str(),
        "lint": lint_json(found),
        "baselines": baselines,
        "fails": failed,
    });
    if let Some(a) = accepting {
        let problems: Vec<Value> = a
            .problems
            .iter()
            .map(|p| {
                let e = &a.entries[p.entry];
                json!({
                    "rule": p.rule,
                    "message": p.message,
                    "entry": {"rule": e.rule, "path": e.path, "file": e.file, "line": e.line, "column": e.column},
                })
            })
            .collect();
        report["accept"] = json!({"file": a.file, "problems": problems});
    }
    report
}

/// Escapes workflow-command data (`%`, CR, LF) and, for properties, `:` and `,` too.
fn escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

fn github_report(items: &[Item]) -> String {
    let mut out = String::new();
    for i in items {
        let command = match i.level {
            _ if i.fails => "error",
            "error" | "breaking" | "warning" | "risky" => "warning",
            _ => "notice",
        };
        let mut props = Vec::new();
        if let Some((file, line, col)) = &i.location {
            props.push(format!("file={}", escape(file, true)));
            props.push(format!("line={line}"));
            props.push(format!("col={col}"));
        }
        props.push(format!("title={}", escape(i.rule, true)));
        let _ = writeln!(out, "::{command} {}::{}", props.join(","), escape(&i.message, false));
    }
    out
}

fn junit_report(file: &str, items: &[Item]) -> String {
    let mut cases: Vec<junit::Case> = items
        .iter()
        .map(|i| {
            let place =
                i.location.as_ref().map_or(String::new(), |(f, l, c)| format!(" at {f}:{l}:{c}"));
            let name = format!("{}[{}]{place}", i.level, i.rule);
            let failure = i.fails.then(|| (i.level.to_owned(), i.message.clone(), None));
            let out = (!i.fails).then(|| i.message.clone());
            junit::Case { classname: i.rule.to_owned(), name, failure, out, skipped: None }
        })
        .collect();
    if cases.is_empty() {
        cases.push(junit::Case {
            classname: "accord".to_owned(),
            name: "check".to_owned(),
            failure: None,
            out: None,
            skipped: None,
        });
    }
    junit::render("accord check", &[junit::Suite { name: file.to_owned(), cases }])
}
