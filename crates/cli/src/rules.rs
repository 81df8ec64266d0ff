//! `accord rules` and `accord explain RULE`: the compatibility rule registry
//! (crates/compat-diff), as a table, JSON or the markdown of docs/compat-rules.md.

use accord_compat_diff::{CompatRule, RULES, rule, rules_markdown};
use serde_json::{Value, json};

use crate::{Outcome, output};

/// Arguments of `accord rules`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// text (one rule a line), json (every field), or markdown (docs/compat-rules.md).
    #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
    format: RulesFormat,
}

/// The formats of `accord rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RulesFormat {
    /// One rule a line: id, input level, output level, purpose.
    Text,
    /// `{"version": 1, "rules": [...]}`.
    Json,
    /// The text of docs/compat-rules.md.
    Markdown,
}

/// Arguments of `accord explain`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExplainArgs {
    /// A compatibility rule id (see `accord rules`).
    rule: String,
}

fn rule_json(r: &CompatRule) -> Value {
    json!({
        "id": r.id,
        "purpose": r.purpose,
        "subject": r.subject,
        "action": r.action,
        "input": r.input.as_str(),
        "output": r.output.as_str(),
        "dual": if r.dual.is_empty() { Value::Null } else { json!(r.dual) },
        "witness": r.witness,
        "doc": r.doc,
    })
}

pub(crate) fn run(args: &Args) -> Outcome {
    let text = match args.format {
        RulesFormat::Text => RULES
            .iter()
            .map(|r| {
                format!(
                    "{:<36} input: {:<8} output: {:<8} {}\n",
                    r.id, r.input, r.output, r.purpose
                )
            })
            .collect(),
        RulesFormat::Json => {
            let all: Vec<Value> = RULES.iter().map(rule_json).collect();
            let mut t = serde_json::to_string_pretty(&json!({"version": 1, "rules": all}))
                .unwrap_or_default();
            t.push('\n');
            t
        }
        RulesFormat::Markdown => rules_markdown(),
    };
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}

pub(crate) fn explain(args: &ExplainArgs) -> Outcome {
    let Some(r) = rule(&args.rule) else {
        eprintln!("error: no compatibility rule `{}` (`accord rules` lists them)", args.rule);
        return Outcome::InputError;
    };
    let mut text = format!(
        "{}: {}\n\nsubject: {}; action: {}\nlevel for params (input): {}; for results, events and error data (output): {}\n\n{}\n",
        r.id, r.purpose, r.subject, r.action, r.input, r.output, r.doc
    );
    if !r.dual.is_empty() {
        text.push_str(&format!("\nThe same change with old and new swapped: `{}`.\n", r.dual));
    }
    text.push_str(&format!("\nFixture: fixtures/diff/{}/\n", r.id));
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}
