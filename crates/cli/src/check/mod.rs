//! `accord check`: the contract lint and, with a baseline (`--against FILE`,
//! `--against git:REV[:PATH]`, `--against-tags GLOB`), the compatibility classification and the
//! contract-version policy against each baseline. Every finding with its place in the file, then
//! a summary; exit 1 on a lint error or a finding at or above `--fail-on`.
//!
//! Several contracts (files, directories, globs: contracts.rs) make one report. A contract that
//! cannot be read is in every format's report too (exit 2). The `[lint]` table of accord.toml
//! (lint_config.rs) and `--deny warnings` set what fails the run.

//!
//! This file runs the check; each output format has its own file: text.rs, json.rs,
//! github.rs, junit.rs (SARIF is crate::sarif, shared with other commands). items.rs
//! flattens findings of both kinds for the machine formats; accepting.rs applies the accept
//! file.

use std::path::{Path, PathBuf};

use accord_compat_diff::{Level, Pairing, Report, Source, diff};
use accord_schema_model::{Position, SourceMap, Span};
use accord_validate::{Diagnostic, LintReport};

use crate::accept::{self, Date};
use crate::baseline::{self, Baseline, Unavailable};
use crate::diff::FailOn;
use crate::input::Unreadable;
use crate::{Outcome, contracts, diagnostic, input, lint_config, output};

mod accepting;
mod github;
mod items;
mod json;
mod junit;
mod text;

use accepting::Accepting;
pub(crate) use items::Item;

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
        let problems = accepting::apply(&entries, compared, Date::today_utc());
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
                (c.file.clone(), items::of(&c.file, &c.found, &c.compared, accepting, policy))
            }
            Contract::Unreadable(file, why) => (file.clone(), vec![items::unreadable(file, why)]),
        })
        .collect();
    if let Some(last) = per_contract.last_mut() {
        last.1.extend(items::accept_problems(accepting));
    }
    let unreadable = all.iter().any(|c| matches!(c, Contract::Unreadable(..)));
    let failed = per_contract.iter().flat_map(|(_, items)| items).any(|i| i.fails);
    let flat: Vec<&Item> = per_contract.iter().flat_map(|(_, items)| items).collect();

    let text = match args.format {
        CheckFormat::Text => text::render(&all, &per_contract, accepting, policy),
        CheckFormat::Json => json::render(
            &all,
            &per_contract,
            accepting,
            policy,
            args.against_tags.is_some(),
            failed,
        ),
        CheckFormat::Github => github::report(&flat),
        CheckFormat::Sarif => {
            let files: Vec<&str> = per_contract.iter().map(|(file, _)| file.as_str()).collect();
            json::pretty(&crate::sarif::log(&files, &flat))
        }
        CheckFormat::Junit => junit::report(&per_contract),
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
