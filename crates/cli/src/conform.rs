//! `accord conform CONTRACT --url URL`: holds a live plant to its contract (crates/conform).
//! The plan is printed first; the progress bar is drawn here, on stderr, only when stderr is a
//! terminal.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use accord_conform::{
    Endpoint, Error, Options, Outcome as CheckOutcome, Phase, Policy, Progress, Report, Transcript,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::diagnostic::escape_controls;
use crate::{Outcome, input, junit, output};

/// Arguments of `accord conform`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract the plant must keep.
    contract: PathBuf,
    /// Where the plant listens: `http://host:port/` (or `ws://…`).
    #[arg(long)]
    url: String,
    /// A file holding the plant's Bearer token (without it the plant is taken to have no
    /// credentials, and the credential phase is skipped).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Generated valid params, and mutants, per called method (at most 10000).
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u64).range(0..=MAX_CALLS))]
    calls: u64,
    /// The seed of every generated value: one seed, one run.
    #[arg(long, default_value_t = 0, value_name = "N")]
    seed: u64,
    /// What else may be called besides `read` methods: semantics classes (idempotent, write,
    /// destructive, undeclared) or single methods (`pump.start`), comma-separated.
    #[arg(long, value_name = "LIST")]
    allow: Vec<String>,
    /// Print the plan (what would be called, what skipped and why) and send nothing.
    #[arg(long)]
    dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: ConformFormat,
    /// Re-send a transcript (`>>`/`<<`/`//` lines, as a failure's reproducer is written) and
    /// judge the answers again.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// How long to wait for one answer, and for events after a subscription, in milliseconds.
    #[arg(long, default_value_t = 5000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// The error code invalid params must be refused with.
    #[arg(long, default_value_t = accord_wire_invalid_params(), value_name = "CODE", allow_hyphen_values = true)]
    invalid_params_code: i64,
    /// Write each failure's transcript to DIR/NNN-KIND.io, ready for --replay.
    #[arg(long, value_name = "DIR")]
    transcripts: Option<PathBuf>,
    /// How many calls may wait for the plant at once; the report is the same whatever N.
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// How long the whole run may take (`90s`, `5m`); checks not done by then are reported not
    /// run, and the run fails. Without it the run takes as long as the plant does.
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    deadline: Option<Duration>,
}

const fn accord_wire_invalid_params() -> i64 {
    -32602
}

/// The most `--calls`: already hours against a slow plant, and far from where the counts a run
/// keeps could overflow.
const MAX_CALLS: u64 = 10_000;

/// How `accord conform` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ConformFormat {
    /// For people: the plan, counts per phase, each failure with its transcript, per method.
    Text,
    /// One JSON document.
    Json,
    /// JUnit XML: one suite per phase, one case per check.
    Junit,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else { return Outcome::InputError };
    let doc = loaded.document;
    let token = match &args.token_file {
        None => None,
        Some(path) => match crate::token::read(path) {
            Some(token) => Some(token),
            None => return Outcome::InputError,
        },
    };
    let policy = match Policy::with_allowed(&doc, args.allow.iter().map(String::as_str)) {
        Ok(p) => p,
        Err(err) => {
            eprintln!("error: {}", escape_controls(&err.to_string()));
            return Outcome::InputError;
        }
    };
    let mut options = Options::default();
    options.calls = usize::try_from(args.calls).unwrap_or(usize::MAX);
    options.seed = args.seed;
    options.policy = policy;
    options.timeout = Duration::from_millis(args.timeout);
    options.invalid_params_code = args.invalid_params_code;
    options.jobs = usize::from(args.jobs);
    options.deadline = args.deadline;
    let mut plant = Endpoint::new(args.url.clone());
    plant.token = token;
    let plan = match accord_conform::plan(&doc, &plant, &options) {
        Ok(plan) => plan,
        // The URL is the command line's, not the contract's.
        Err(err @ Error::Url { .. }) => {
            eprintln!("error: {}", escape_controls(&err.to_string()));
            return Outcome::InputError;
        }
        Err(err) => {
            eprintln!("error: {}", escape_controls(&format!("{}: {err}", args.contract.display())));
            return Outcome::InputError;
        }
    };
    if args.dry_run {
        let text = match args.format {
            ConformFormat::Json => pretty(&plan.to_json()),
            _ => plan.to_text(),
        };
        return if output::print(&escape_controls(&text)) {
            Outcome::Success
        } else {
            Outcome::InputError
        };
    }
    let transcript = match &args.replay {
        None => None,
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| Transcript::parse(&t).map_err(|e| e.to_string()))
        {
            Ok(t) => Some(t),
            Err(err) => {
                eprintln!("error: {}", escape_controls(&format!("{}: {err}", path.display())));
                return Outcome::InputError;
            }
        },
    };
    // The plan comes first, before anything is sent, so an operator sees what will be called.
    if args.format == ConformFormat::Text
        && transcript.is_none()
        && !output::print(&escape_controls(&format!("{}\n", plan.to_text())))
    {
        return Outcome::InputError;
    }
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("error: cannot start the runtime: {err}");
            return Outcome::InputError;
        }
    };
    let bar = Bar::new();
    let result = runtime.block_on(async {
        match &transcript {
            Some(t) => accord_conform::replay(&doc, &plant, &options, t, &bar).await,
            None => accord_conform::run(&doc, &plant, &options, &bar).await,
        }
    });
    let report = match result {
        Ok(report) => report,
        Err(err @ (Error::Connect { .. } | Error::Url { .. })) => {
            eprintln!("error: {}", escape_controls(&err.to_string()));
            return Outcome::InputError;
        }
        Err(err) => {
            eprintln!("error: {}", escape_controls(&format!("{}: {err}", args.contract.display())));
            return Outcome::InputError;
        }
    };
    if let Some(dir) = &args.transcripts
        && let Err(err) = save_transcripts(dir, &report)
    {
        eprintln!("error: {}", escape_controls(&format!("{}: {err}", dir.display())));
        return Outcome::InputError;
    }
    let text = match args.format {
        ConformFormat::Text => {
            let full = report.to_text();
            // The plan was printed already; the rest follows it.
            let plan_text = report.plan.to_text();
            full.strip_prefix(&plan_text)
                .map_or(full.clone(), |rest| rest.trim_start_matches('\n').to_owned())
        }
        ConformFormat::Json => pretty(&report.to_json()),
        ConformFormat::Junit => junit_report(&report),
    };
    // The report quotes the contract's names and the plant's answers: neither may drive the
    // terminal.
    if !output::print(&escape_controls(&text)) {
        return Outcome::InputError;
    }
    if report.passed() { Outcome::Success } else { Outcome::Problems }
}

fn pretty(value: &serde_json::Value) -> String {
    let mut t = serde_json::to_string_pretty(value).unwrap_or_default();
    t.push('\n');
    t
}

fn save_transcripts(dir: &std::path::Path, report: &Report) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (n, check) in report.failures().enumerate() {
        let kind = match &check.outcome {
            CheckOutcome::Failed(problems) => {
                problems.first().map_or("failure", |p| p.kind.as_str())
            }
            _ => "failure",
        };
        let mut text = format!("// {} {}: {}\n", check.phase.as_str(), check.subject, check.name);
        text.push_str(&check.transcript.render());
        std::fs::write(dir.join(format!("{:03}-{kind}.io", n + 1)), text)?;
    }
    Ok(())
}

fn junit_report(report: &Report) -> String {
    let suites: Vec<junit::Suite> = Phase::ALL
        .iter()
        .filter_map(|&phase| {
            let cases: Vec<junit::Case> = report
                .checks
                .iter()
                .filter(|c| c.phase == phase)
                .map(|c| {
                    let (failure, skipped) = match &c.outcome {
                        CheckOutcome::Passed => (None, None),
                        // Not run fails the run, so it is a failure here too, not a skip.
                        CheckOutcome::NotRun(reason) => {
                            (Some(("not-run".to_owned(), reason.clone(), None)), None)
                        }
                        CheckOutcome::Skipped(reason) => (None, Some(reason.clone())),
                        CheckOutcome::Failed(problems) => {
                            let kind = problems.first().map_or("failure", |p| p.kind.as_str());
                            let message: Vec<String> = problems
                                .iter()
                                .map(|p| format!("[{}] {}", p.kind.as_str(), p.message))
                                .collect();
                            (
                                Some((
                                    kind.to_owned(),
                                    message.join("; "),
                                    Some(c.transcript.render()),
                                )),
                                None,
                            )
                        }
                    };
                    junit::Case {
                        classname: c.subject.clone(),
                        name: c.name.clone(),
                        failure,
                        out: None,
                        skipped,
                    }
                })
                .collect();
            (!cases.is_empty()).then(|| junit::Suite { name: phase.as_str().to_owned(), cases })
        })
        .collect();
    junit::render("accord conform", &suites)
}

/// The progress bar: drawn on stderr when it is a terminal, hidden otherwise (pipes, CI logs,
/// tests), so reports stay clean.
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = if std::io::stderr().is_terminal() {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
            bar.set_style(style);
        }
        Bar(bar)
    }
}

impl Progress for Bar {
    fn start(&self, total: u64) {
        self.0.set_length(total);
    }

    fn advance(&self, what: &str) {
        // The estimate can fall short (mutants, examples); the bar grows rather than overflows.
        if self.0.position() + 1 > self.0.length().unwrap_or(0) {
            self.0.inc_length(1);
        }
        self.0.set_message(escape_controls(what).into_owned());
        self.0.inc(1);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
