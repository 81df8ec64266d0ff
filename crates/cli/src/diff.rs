//! `accord diff OLD NEW`: what changed between two contracts, judged for old callers against
//! the new plant and new callers against the old plant (crates/compat-diff).

use std::path::PathBuf;

use accord_compat_diff::{Level, Source, diff};

use crate::{Outcome, input, output};

/// Arguments of `accord diff`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract as deployed today.
    old: PathBuf,
    /// The contract to deploy.
    new: PathBuf,
    /// Output format: text for people, json for scripts, markdown for a pull-request comment.
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormat,
    /// What fails the run (exit 1), comma-separated: `breaking`, `risky` (risky and breaking),
    /// `policy` (the version policy and reservations, which fail no reader). The default fails
    /// on breaking and policy findings.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "breaking,policy")]
    fail_on: Vec<FailOn>,
}

/// How `accord diff` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DiffFormat {
    /// For people: `file:line:col: level[rule] path: message` lines.
    Text,
    /// For scripts: the versioned JSON report.
    Json,
    /// For a pull-request comment: tables and folded details.
    Markdown,
}

/// Which findings make `accord diff` and `accord check` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FailOn {
    /// Breaking findings only.
    Breaking,
    /// Risky and breaking findings.
    Risky,
    /// Policy findings (`version-not-bumped`, reservations): no reader fails on them.
    Policy,
}

impl FailOn {
    /// The levels `--fail-on` names ([`Level::fails_at`] says which findings each fails on).
    pub(crate) fn levels(values: &[FailOn]) -> Vec<Level> {
        values
            .iter()
            .map(|v| match v {
                FailOn::Breaking => Level::Breaking,
                FailOn::Risky => Level::Risky,
                FailOn::Policy => Level::Policy,
            })
            .collect()
    }
}

pub(crate) fn run(args: &Args) -> Outcome {
    let (Some(old), Some(new)) = (input::load(&args.old), input::load(&args.new)) else {
        return Outcome::InputError;
    };
    let old =
        Source { file: args.old.display().to_string(), text: old.text, document: old.document };
    let new =
        Source { file: args.new.display().to_string(), text: new.text, document: new.document };
    let report = diff(&old, &new);
    let text = match args.format {
        DiffFormat::Text => crate::diagnostic::escape_controls(&report.to_text()).into_owned(),
        DiffFormat::Markdown => {
            crate::diagnostic::escape_controls(&report.to_markdown()).into_owned()
        }
        DiffFormat::Json => {
            let mut t = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default();
            t.push('\n');
            t
        }
    };
    if !output::print(&text) {
        return Outcome::InputError;
    }
    if report.fails(&FailOn::levels(&args.fail_on)) { Outcome::Problems } else { Outcome::Success }
}
