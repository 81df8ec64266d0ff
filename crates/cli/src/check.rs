//! `accord check`: the contract lint. Every finding with its place in the file, then a summary;
//! exit 1 when any finding is an error.

use std::path::{Path, PathBuf};

use accord_schema_model::{Position, SourceMap, Span};
use accord_validate::{Diagnostic, LintReport};
use serde_json::{Value, json};

use crate::{Outcome, OutputFormat, diagnostic, input, output};

/// Arguments of `accord check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract to check.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    /// How to report: text for people, or a JSON array of findings (rule, severity, message,
    /// help, pointer, line, column) for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

/// One finding with its place in the text.
struct Located {
    diagnostic: Diagnostic,
    span: Span,
    position: Position,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else {
        return Outcome::InputError;
    };
    let report = LintReport::of(&loaded.document);
    let map = SourceMap::new(&loaded.text);
    let mut found: Vec<Located> = report
        .diagnostics
        .iter()
        .map(|d| {
            let span = diagnostic::lint_span(&map, &d.pointer);
            Located { diagnostic: d.clone(), span, position: map.position(span.start) }
        })
        .collect();
    // In the order of the file; findings at one place keep the registry's order.
    found.sort_by_key(|l| l.span.start);
    let text = match args.format {
        OutputFormat::Text => text_report(&args.contract, &loaded.text, &found, &report),
        OutputFormat::Json => json_report(&found),
    };
    if !output::print(&text) {
        return Outcome::InputError;
    }
    if report.has_errors() { Outcome::Problems } else { Outcome::Success }
}

fn text_report(path: &Path, text: &str, found: &[Located], report: &LintReport) -> String {
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
    out.push_str(&report.summary());
    out.push('\n');
    out
}

fn json_report(found: &[Located]) -> String {
    let all: Vec<Value> = found
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
        .collect();
    // Serializing a Value cannot fail.
    let mut text = serde_json::to_string_pretty(&Value::Array(all)).unwrap_or_default();
    text.push('\n');
    text
}
