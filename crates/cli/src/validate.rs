//! `accord validate`: JSON values checked against a contract, from a file or stdin.

use std::io::Read;
use std::path::{Path, PathBuf};

use accord_schema_model::SourceMap;
use accord_validate::{ValidationError, ValidationRule};
use serde_json::{Value, json};

use crate::diagnostic::escape_controls;
use crate::output::plural;
use crate::target::TargetArgs;
use crate::{Outcome, OutputFormat, output};

/// Arguments of `accord validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    #[command(flatten)]
    target: TargetArgs,
    /// The value to check; `-` (the default) reads stdin.
    #[arg(value_name = "FILE", default_value = "-")]
    file: PathBuf,
    /// One JSON value per line; prints a summary.
    #[arg(long)]
    jsonl: bool,
    /// How to report.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

pub(crate) fn run(args: &Args) -> Outcome {
    crate::target::with_validator(&args.contract, &args.target, |validator| check(args, validator))
        .unwrap_or(Outcome::InputError)
}

fn check(args: &Args, validator: accord_validate::Validator<'_>) -> Outcome {
    let Some(bytes) = read_input(&args.file) else {
        return Outcome::InputError;
    };
    let results: Vec<(usize, Vec<ValidationError>)> = if args.jsonl {
        bytes
            .split(|&b| b == b'\n')
            .enumerate()
            .filter(|(_, line)| line.iter().any(|b| !b.is_ascii_whitespace()))
            .map(|(i, line)| (i + 1, validator.validate_bytes(line).err().unwrap_or_default()))
            .collect()
    } else {
        vec![(1, validator.validate_bytes(&bytes).err().unwrap_or_default())]
    };
    let invalid = results.iter().filter(|(_, e)| !e.is_empty()).count();
    let text = match args.format {
        OutputFormat::Text => text_report(args.jsonl, &results, invalid),
        OutputFormat::Json => json_report(args.jsonl, &results, invalid),
    };
    // Errors echo the input (member names, found values) and the contract's names.
    if !output::print(&escape_controls(&text)) {
        return Outcome::InputError;
    }
    // A single value that is not JSON at all (a binary file, a truncated download) is
    // unreadable input, not a value that breaks the contract: exit 2, as for any input error.
    // In `--jsonl`, lines are judged one by one and a line that is not JSON counts as invalid.
    if !args.jsonl && results[0].1.iter().any(|e| e.rule == ValidationRule::Syntax) {
        let file = shown(&args.file);
        eprintln!("error: {} is not JSON: nothing was validated", escape_controls(&file));
        return Outcome::InputError;
    }
    if invalid == 0 { Outcome::Success } else { Outcome::Problems }
}

/// The value's file as messages name it (`stdin` for `-`).
fn shown(file: &Path) -> String {
    if file == Path::new("-") { "stdin".to_owned() } else { file.display().to_string() }
}

/// A compile error with the contract's path, line and column.
pub(crate) fn located(path: &Path, text: &str, err: &accord_validate::Error) -> String {
    use accord_validate::Error as E;
    let at = match err {
        E::DanglingRef { at, .. }
        | E::BadPattern { at, .. }
        | E::RefCycle { at, .. }
        | E::BadDiscriminator { at, .. } => Some(at),
        _ => None,
    };
    let map = SourceMap::new(text);
    let line = match at.and_then(|p| map.locate(p)) {
        Some(l) => {
            let p = map.position(l.label().start);
            format!("{}:{}:{}: {err}", path.display(), p.line, p.column)
        }
        None => format!("{}: {err}", path.display()),
    };
    escape_controls(&line).into_owned()
}

fn read_input(file: &Path) -> Option<Vec<u8>> {
    let read = if file == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(file)
    };
    match read {
        Ok(bytes) => Some(bytes),
        Err(err) => {
            let message = format!("cannot read {}: {err}", file.display());
            eprintln!("error: {}", escape_controls(&message));
            None
        }
    }
}

/// Invalid lines shown in a JSON Lines text summary.
const SHOWN_LINES: usize = 10;

fn text_report(jsonl: bool, results: &[(usize, Vec<ValidationError>)], invalid: usize) -> String {
    let mut out = String::new();
    if !jsonl {
        let errors = &results[0].1;
        if errors.is_empty() {
            out.push_str("valid\n");
        } else {
            out.push_str(&format!("invalid: {}\n", plural(errors.len(), "error")));
            for e in errors {
                out.push_str(&format!("  {e}\n"));
            }
        }
        return out;
    }
    out.push_str(&format!(
        "{}: {} valid, {} invalid\n",
        plural(results.len(), "value"),
        results.len() - invalid,
        invalid
    ));
    for (line, errors) in results.iter().filter(|(_, e)| !e.is_empty()).take(SHOWN_LINES) {
        out.push_str(&format!("line {line}: {}\n", errors[0]));
        if errors.len() > 1 {
            out.push_str(&format!("  (and {} more on this line)\n", errors.len() - 1));
        }
    }
    if invalid > SHOWN_LINES {
        out.push_str(&format!(
            "… {} more invalid lines (--format json lists them all)\n",
            invalid - SHOWN_LINES
        ));
    }
    out
}

fn error_json(e: &ValidationError) -> Value {
    json!({
        "pointer": e.pointer,
        "rule": e.rule.id(),
        "expected": e.expected,
        "found": e.found,
        "nearest": e.nearest.iter().map(error_json).collect::<Vec<_>>(),
    })
}

fn json_report(jsonl: bool, results: &[(usize, Vec<ValidationError>)], invalid: usize) -> String {
    let report = if jsonl {
        json!({
            "values": results.len(),
            "valid": results.len() - invalid,
            "invalid": invalid,
            "invalidLines": results.iter().filter(|(_, e)| !e.is_empty()).map(|(line, errors)| json!({
                "line": line,
                "errors": errors.iter().map(error_json).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    } else {
        let errors = &results[0].1;
        json!({"valid": errors.is_empty(), "errors": errors.iter().map(error_json).collect::<Vec<_>>()})
    };
    // Serializing a Value cannot fail.
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}
