//! `accord check`: the contract lint and, with a baseline (`--against FILE`,
//! `--against git:REV[:PATH]`, `--against-tags GLOB`), the compatibility classification and the
//! contract-version policy against each baseline. Every finding with its place in the file, then
//! a summary; exit 1 on a lint error or a finding at or above `--fail-on`.
//!
//! Several contracts (files, directories, globs: contracts.rs) make one report. A contract that
//! cannot be read is in every format's report too (exit 2). The `[lint]` table of accord.toml
//! (lint_config.rs) and `--deny warnings` set what fails the run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use accord_compat_diff::{Level, Pairing, Report, Source, diff};
use accord_schema_model::{Position, SourceMap, Span};
use accord_validate::{Diagnostic, LintReport, Severity};
use serde_json::{Value, json};

use crate::accept::{self, Date, Entry};
use crate::baseline::{self, Baseline, Unavailable};
use crate::diff::FailOn;
use crate::input::Unreadable;
use crate::output::plural;
use crate::{Outcome, contracts, diagnostic, input, junit, lint_config, output};

/// Arguments of `accord check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contracts to check: files, directories (every `*.types.json` under them) or quoted
    /// globs (`'contracts/**/*.types.json'`); one report for all of them.
    #[arg(value_name = "CONTRACT", required = true, num_args = 1..)]
    contracts: Vec<PathBuf>,
    /// A baseline: a file, or `git:REV[:PATH]` (PATH defaults to CONTRACT's path in its
    /// repository).
    #[arg(long, value_name = "FILE|git:REV[:PATH]")]
    against: Option<String>,
    /// Check against every git tag matching GLOB (for example `v*`) that holds CONTRACT's path,
    /// and say which releases break.
    #[arg(long, value_name = "GLOB", conflicts_with = "against")]
    against_tags: Option<String>,
    /// What compatibility findings fail the run (exit 1), comma-separated: `breaking`, `risky`
    /// (risky and breaking), `policy` (the version policy and reservations, which fail no
    /// reader but tell callers what a release holds). The default fails on both breaking and
    /// policy findings; `--fail-on breaking` lets an unbumped version through.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "breaking,policy")]
    fail_on: Vec<FailOn>,
    /// How to report: text for people; json (one contract without a baseline: a JSON array of
    /// lint findings; with one: the versioned check report; several contracts: one report with a
    /// `contracts` array; a contract that cannot be read: its `error`); github (workflow
    /// commands); sarif; junit. Every format carries a read error (exit 2).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Accepted breaks: a JSON file of entries keyed by rule id and path (`*` ends a prefix),
    /// each with a reason and an optional expiry date; accepted findings do not fail the run,
    /// expired or unmatched entries do.
    #[arg(long, value_name = "FILE")]
    accept: Option<PathBuf>,
    /// Re-extract the contract from this crate or workspace directory (repeat it for several)
    /// and fail (exit 1) with a diff when the committed CONTRACT is stale.
    #[arg(long, value_name = "DIR")]
    source: Vec<PathBuf>,
    /// The configuration (`accord.toml`; by default the one in the current directory, if
    /// any): its `[lint]` table sets rules to allow, warn or error, per path too; with
    /// `--source`, its `[extract]` table says how to re-extract.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Fail the run (exit 1) on these findings too: `warnings`, every lint warning left after
    /// the `[lint]` table.
    #[arg(long, value_enum, value_name = "WHAT")]
    deny: Vec<Deny>,
    /// A usage source (docs/usage.md): a Prometheus-compatible query API's URL (`http://…`)
    /// or a plant's saved metrics text. Each finding against the baseline that removes or
    /// narrows what old callers send carries what the callers did over --window: "called 1,234
    /// times in 30d, by callers declaring 2.1.0" or "no use in 30d on 3 plants". Levels do not
    /// change without --usage-gate.
    #[arg(long, value_name = "URL|FILE")]
    usage: Option<String>,
    /// The window of --usage: a whole number and s, m, h, d or w.
    #[arg(long, default_value = "30d", value_parser = crate::usage::window::parse, requires = "usage")]
    window: crate::usage::window::Window,
    /// With --usage: report a removal as safe (with its evidence) when the method, param or
    /// field was deprecated through the whole window and not used once in it, on a source
    /// that covers the window. A source that cannot be reached, or covers less, changes no
    /// level.
    #[arg(long, requires = "usage")]
    usage_gate: bool,
}

/// What `--deny` can make fail a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Deny {
    /// Every lint warning.
    Warnings,
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
    /// Whether a finding not accepted fails at `thresholds` (old callers × new plant).
    fn fails(&self, thresholds: &[Level]) -> bool {
        self.report
            .findings
            .iter()
            .zip(&self.accepted)
            .any(|(f, a)| a.is_none() && fails(f.pairing, f.level, thresholds))
    }
}

/// `--fail-on` as given: its levels, comma-separated (`breaking`, `breaking,policy`).
fn fail_on_text(thresholds: &[Level]) -> String {
    thresholds.iter().map(|l| l.as_str()).collect::<Vec<_>>().join(",")
}

/// Whether a finding of `level` in `pairing` fails a run whose `--fail-on` names `thresholds`.
fn fails(pairing: Pairing, level: Level, thresholds: &[Level]) -> bool {
    pairing == Pairing::OldCallersNewPlant && thresholds.iter().any(|&t| level.fails_at(t))
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
fn apply<'c>(
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

/// One contract, checked: its lint findings and its comparisons.
struct Checked {
    file: String,
    path: PathBuf,
    text: String,
    found: Vec<Located>,
    lint: LintReport,
    compared: Vec<Compared>,
}

/// One contract of the run: checked, or unreadable (its diagnostic is on stderr already).
enum Contract {
    Checked(Checked),
    Unreadable(String, Unreadable),
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(paths) = contracts::expand(&args.contracts) else {
        return Outcome::InputError;
    };
    if paths.len() > 1 {
        let against_file = args
            .against
            .as_deref()
            .is_some_and(|a| a.strip_prefix("git:").is_none_or(|rev| rev.contains(':')));
        if !args.source.is_empty() || against_file {
            eprintln!(
                "error: --source and --against FILE (or git:REV:PATH) name one contract's counterpart; with {} contracts, check them one by one, or use --against git:REV or --against-tags",
                paths.len()
            );
            return Outcome::InputError;
        }
    }
    let Ok(lint_config) = lint_config::load(args.config.as_deref()) else {
        return Outcome::InputError;
    };
    let deny_warnings = args.deny.contains(&Deny::Warnings)
        || lint_config.as_ref().is_some_and(|c| c.deny_warnings);
    let entries = match &args.accept {
        Some(path) => match accept::load(path) {
            Some(entries) => Some((path.display().to_string(), entries)),
            None => return Outcome::InputError,
        },
        None => None,
    };
    let usage = match &args.usage {
        Some(source) => match crate::usage::read_source(source, &args.window) {
            Ok(counts) => {
                let usage = counts.to_usage();
                if usage.coverage != accord_compat_diff::usage::Coverage::Whole {
                    eprintln!(
                        "note: usage source {source}: {}; no level changes for it",
                        crate::usage::coverage_text(&usage.coverage, &args.window)
                    );
                }
                Some(usage)
            }
            Err(why) => {
                eprintln!("error: {why}");
                return Outcome::InputError;
            }
        },
        None => None,
    };
    let mut all = Vec::with_capacity(paths.len());
    for path in &paths {
        let loaded = match input::read(path) {
            Ok(loaded) => loaded,
            Err(why) => {
                all.push(Contract::Unreadable(path.display().to_string(), why));
                continue;
            }
        };
        // A baseline that cannot be read makes its contract's result an input error, which the
        // machine formats carry like an unreadable contract (so a SARIF log is never empty when
        // the step fails for it).
        let baselines = match baselines_of(args, path) {
            Ok(baselines) => baselines,
            Err(Unavailable(message)) => {
                let why = Unreadable {
                    code: "baseline-unreadable",
                    message,
                    pointer: None,
                    position: None,
                };
                all.push(Contract::Unreadable(path.display().to_string(), why));
                continue;
            }
        };
        match check_one(args, path, loaded, baselines, lint_config.as_ref(), usage.as_ref()) {
            Ok(checked) => all.push(Contract::Checked(checked)),
            Err(outcome) => return outcome,
        }
    }
    let accepting = entries.map(|(file, entries)| {
        let compared = all.iter_mut().flat_map(|c| match c {
            Contract::Checked(c) => c.compared.iter_mut(),
            Contract::Unreadable(..) => [].iter_mut(),
        });
        let problems = apply(&entries, compared, Date::today_utc());
        Accepting { file, entries, problems }
    });
    let accepting = accepting.as_ref();
    let thresholds = FailOn::levels(&args.fail_on);
    let policy = Policy { thresholds: &thresholds, deny_warnings };
    // The items of each contract; the accept file's problems once, after them all.
    let mut per_contract: Vec<(String, Vec<Item>)> = all
        .iter()
        .map(|c| match c {
            Contract::Checked(c) => {
                (c.file.clone(), items(&c.file, &c.found, &c.compared, accepting, policy))
            }
            Contract::Unreadable(file, why) => (file.clone(), vec![unreadable_item(file, why)]),
        })
        .collect();
    if let Some(last) = per_contract.last_mut() {
        last.1.extend(problem_items(accepting));
    }
    let unreadable = all.iter().any(|c| matches!(c, Contract::Unreadable(..)));
    let failed = per_contract.iter().flat_map(|(_, items)| items).any(|i| i.fails);
    let flat: Vec<&Item> = per_contract.iter().flat_map(|(_, items)| items).collect();
    let single = all.len() == 1;

    let text = match args.format {
        CheckFormat::Text => {
            let mut out = String::new();
            for c in &all {
                let c = match c {
                    Contract::Checked(c) => c,
                    // Alone, its diagnostic on stderr is the report; among others it has its
                    // section too, so that the report names every contract.
                    Contract::Unreadable(file, why) if !single => {
                        let _ = writeln!(
                            out,
                            "## {file}\nerror[{}]: cannot be read: {} (the diagnostic is on stderr)\n",
                            why.code,
                            diagnostic::escape_controls(&why.message)
                        );
                        continue;
                    }
                    Contract::Unreadable(..) => continue,
                };
                if !single {
                    let _ = writeln!(out, "## {}", c.file);
                }
                out.push_str(&text_report(c, accepting, policy, single));
                if !single {
                    out.push('\n');
                }
            }
            if !single {
                if let Some(a) = accepting {
                    accept_section(&mut out, a, &all);
                }
                let failing: Vec<&str> = per_contract
                    .iter()
                    .filter(|(_, items)| items.iter().any(|i| i.fails))
                    .map(|(file, _)| file.as_str())
                    .collect();
                let _ = writeln!(
                    out,
                    "contracts checked: {}; failing: {}",
                    all.len(),
                    if failing.is_empty() { "none".to_owned() } else { failing.join(", ") }
                );
            }
            out
        }
        CheckFormat::Json => match all.as_slice() {
            [Contract::Unreadable(file, why)] => pretty(&unreadable_json(file, why)),
            [Contract::Checked(c)]
                if c.compared.is_empty() && args.against_tags.is_none() && accepting.is_none() =>
            {
                json_lint(&c.found)
            }
            [Contract::Checked(c)] => {
                let mut report = json_report(c, accepting, policy, failed);
                if let Some(a) = accepting {
                    report["accept"] = accept_json(a);
                }
                pretty(&report)
            }
            several => {
                let contracts: Vec<Value> = several
                    .iter()
                    .map(|c| match c {
                        Contract::Checked(c) => {
                            let fails = per_contract
                                .iter()
                                .find(|(file, _)| file == &c.file)
                                .is_some_and(|(_, items)| items.iter().any(|i| i.fails));
                            json_report(c, accepting, policy, fails)
                        }
                        Contract::Unreadable(file, why) => unreadable_json(file, why),
                    })
                    .collect();
                let mut report = json!({
                    "version": 1,
                    "failOn": fail_on_text(&thresholds),
                    "contracts": contracts,
                    "fails": failed || unreadable,
                });
                if let Some(a) = accepting {
                    report["accept"] = accept_json(a);
                }
                pretty(&report)
            }
        },
        CheckFormat::Github => github_report(&flat),
        CheckFormat::Sarif => {
            let files: Vec<&str> = per_contract.iter().map(|(file, _)| file.as_str()).collect();
            pretty(&crate::sarif::log(&files, &flat))
        }
        CheckFormat::Junit => junit_report(&per_contract),
    };
    if !output::print(&text) || unreadable {
        return Outcome::InputError;
    }
    if failed { Outcome::Problems } else { Outcome::Success }
}

/// What fails a run.
#[derive(Debug, Clone, Copy)]
struct Policy<'t> {
    /// The levels `--fail-on` names; a compatibility finding (old callers × new plant) fails
    /// when it fails at one of them ([`Level::fails_at`]).
    thresholds: &'t [Level],
    /// Whether lint warnings fail too (`--deny warnings`).
    deny_warnings: bool,
}

/// The baselines `path` is compared with: `--against`'s one, `--against-tags`' every release,
/// or none.
fn baselines_of(args: &Args, path: &Path) -> Result<Vec<Baseline>, Unavailable> {
    match (&args.against, &args.against_tags) {
        (Some(spec), _) => Ok(vec![baseline::resolve(spec, path)?]),
        (None, Some(glob)) => baseline::tags(glob, path),
        (None, None) => Ok(Vec::new()),
    }
}

/// Lints `path` (the lint configuration applied) and compares it with `baselines`; the
/// outcome instead when the run must stop (a stale contract under `--source`: exit 1, the
/// reason printed).
fn check_one(
    args: &Args,
    path: &Path,
    loaded: input::Loaded,
    baselines: Vec<Baseline>,
    config: Option<&lint_config::LintConfig>,
    usage: Option<&accord_compat_diff::usage::Usage>,
) -> Result<Checked, Outcome> {
    // `--config` alone re-extracts when the configuration names an `extract.source`, as its help
    // says (it used to be read only with `--source`, so `check --config` never found a stale
    // file); a configuration with only a `[lint]` table extracts nothing.
    let extracts =
        !args.source.is_empty() || args.config.as_deref().is_some_and(crate::extract::names_source);
    if extracts {
        match crate::extract::up_to_date(
            args.config.as_deref(),
            &args.source,
            path,
            &loaded.document,
        ) {
            Ok(true) => {}
            Ok(false) => return Err(Outcome::Problems),
            Err(outcome) => return Err(outcome),
        }
    }
    let mut lint = LintReport::of(&loaded.document);
    if let Some(config) = config {
        lint = LintReport::from(config.apply(path, lint.diagnostics));
    }
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

    let file = path.display().to_string();
    // The text lends itself to the comparisons and comes back for the report: a large
    // contract's text is never copied.
    let current = Source { file: file.clone(), text: loaded.text, document: loaded.document };
    let compared: Vec<Compared> = baselines
        .into_iter()
        .map(|baseline| {
            let mut report = diff(&baseline.source, &current);
            if let Some(usage) = usage {
                report.add_usage(&baseline.source.document, usage, args.usage_gate);
            }
            let accepted = vec![None; report.findings.len()];
            Compared { baseline, report, accepted }
        })
        .collect();
    Ok(Checked { file, path: path.to_owned(), text: current.text, found, lint, compared })
}

/// An unreadable contract as a finding of the machine formats: it fails the run.
fn unreadable_item(file: &str, why: &Unreadable) -> Item {
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

/// An unreadable contract in the JSON report: the error object in place of the findings.
fn unreadable_json(file: &str, why: &Unreadable) -> Value {
    json!({
        "version": 1,
        "contract": file,
        "error": {
            "code": why.code,
            "message": why.message,
            "pointer": why.pointer,
            "line": why.position.map(|p| p.0),
            "column": why.position.map(|p| p.1),
        },
        "fails": true,
    })
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
fn problem_items(accepting: Option<&Accepting>) -> Vec<Item> {
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
    c: &Checked,
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
    single: bool,
) -> String {
    let mut out = String::new();
    for l in &c.found {
        out.push_str(&diagnostic::render_lint_diagnostic(
            &c.path,
            &c.text,
            &l.diagnostic,
            l.span,
            l.position,
        ));
        out.push('\n');
    }
    let denied = if policy.deny_warnings && c.lint.warnings() > 0 {
        " (warnings denied: they fail the run)"
    } else {
        ""
    };
    if c.compared.is_empty() {
        let _ = writeln!(out, "{}{denied}", c.lint.summary());
        return out;
    }
    let _ = writeln!(out, "lint: {}{denied}", c.lint.summary());
    for compared in &c.compared {
        let _ = writeln!(
            out,
            "\n# against {} ({})",
            compared.baseline.name, compared.baseline.source.file
        );
        // Accepted findings are listed as accepted below, not counted in the summary as if
        // they still failed.
        let mut open = compared.report.clone();
        let mut accepted = compared.accepted.iter();
        open.findings.retain(|_| accepted.next().is_some_and(Option::is_none));
        out.push_str(&diagnostic::escape_controls(&open.to_text()));
        if let Some(a) = accepting {
            let mut accepted = String::new();
            accepted_text(&mut accepted, compared, a);
            out.push_str(&diagnostic::escape_controls(&accepted));
        }
    }
    if single && let Some(a) = accepting {
        out.push('\n');
        accept_lines(&mut out, a, c.compared.iter());
    }
    if c.compared.len() > 1 {
        let breaking: Vec<&str> = c
            .compared
            .iter()
            .filter(|compared| compared.fails(policy.thresholds))
            .map(|compared| compared.baseline.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "\nreleases checked: {}; failing at {}: {}",
            c.compared.len(),
            fail_on_text(policy.thresholds),
            if breaking.is_empty() { "none".to_owned() } else { breaking.join(", ") }
        );
    }
    out
}

/// The accept file's problems and its summary line, over every comparison of the run.
fn accept_lines<'c>(out: &mut String, a: &Accepting, compared: impl Iterator<Item = &'c Compared>) {
    for p in &a.problems {
        let e = &a.entries[p.entry];
        let _ =
            writeln!(out, "{}:{}:{}: error[{}] {}", e.file, e.line, e.column, p.rule, p.message);
    }
    let accepted: usize = compared.map(|c| c.accepted.iter().filter(|a| a.is_some()).count()).sum();
    let _ = writeln!(
        out,
        "accept: {} ({}): {accepted} accepted, {}",
        a.file,
        plural(a.entries.len(), "entry"),
        plural(a.problems.len(), "entry problem")
    );
}

/// The accept section of a run over several contracts, once after them all.
fn accept_section(out: &mut String, a: &Accepting, all: &[Contract]) {
    let compared = all.iter().flat_map(|c| match c {
        Contract::Checked(c) => c.compared.iter(),
        Contract::Unreadable(..) => [].iter(),
    });
    accept_lines(out, a, compared);
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
    c: &Checked,
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
    fails: bool,
) -> Value {
    let baselines: Vec<Value> = c
        .compared
        .iter()
        .map(|compared| {
            let mut b = json!({
                "name": compared.baseline.name,
                "file": compared.baseline.source.file,
                "fails": compared.fails(policy.thresholds),
                "report": compared.report.to_json(),
            });
            if let Some(a) = accepting {
                let accepted: Vec<Value> = compared
                    .report
                    .findings
                    .iter()
                    .zip(&compared.accepted)
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
    json!({
        "version": 1,
        "contract": c.file,
        "failOn": fail_on_text(policy.thresholds),
        "lint": lint_json(&c.found),
        "baselines": baselines,
        "fails": fails,
    })
}

/// The accept file's problems, as the JSON report's `accept` member.
fn accept_json(a: &Accepting) -> Value {
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
    json!({"file": a.file, "problems": problems})
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

/// The path of a `REV:path` place (a baseline read from git) when `file` is one: not a file on
/// disk, and its part after the first `:` is.
fn git_revision_place(file: &str) -> Option<&str> {
    if std::path::Path::new(file).exists() {
        return None;
    }
    file.split_once(':').map(|(_, path)| path).filter(|path| !path.is_empty())
}

fn github_report(items: &[&Item]) -> String {
    let mut out = String::new();
    for i in items {
        let command = match i.level {
            _ if i.fails => "error",
            "error" | "breaking" | "warning" | "risky" => "warning",
            _ => "notice",
        };
        let mut props = Vec::new();
        let mut message = i.message.clone();
        if let Some((file, line, col)) = &i.location {
            match git_revision_place(file) {
                // A place in a release read from git (`v1.0.0:thermostat.types.json`, what a
                // removed item points at) is in no file GitHub has: the annotation goes on the
                // file as it is now, without a line, and the message says where the item was.
                Some(path) => {
                    props.push(format!("file={}", escape(path, true)));
                    message = format!("(was at {file}:{line}:{col}) {message}");
                }
                None => {
                    props.push(format!("file={}", escape(file, true)));
                    props.push(format!("line={line}"));
                    props.push(format!("col={col}"));
                }
            }
        }
        props.push(format!("title={}", escape(i.rule, true)));
        // Control characters from the contract are written out before the workflow-command
        // escape, so that a name cannot drive the log's terminal either.
        let message = diagnostic::escape_controls(&message);
        let _ = writeln!(out, "::{command} {}::{}", props.join(","), escape(&message, false));
    }
    out
}

fn junit_report(per_contract: &[(String, Vec<Item>)]) -> String {
    let suites: Vec<junit::Suite> = per_contract
        .iter()
        .map(|(file, items)| {
            let mut cases: Vec<junit::Case> = items
                .iter()
                .map(|i| {
                    let place = i
                        .location
                        .as_ref()
                        .map_or(String::new(), |(f, l, c)| format!(" at {f}:{l}:{c}"));
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
            junit::Suite { name: file.clone(), cases }
        })
        .collect();
    junit::render("accord check", &suites)
}
