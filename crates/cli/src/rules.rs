//! `accord rules` and `accord explain RULE`: both registries, the compatibility rules
//! (crates/compat-diff) and the lint rules (crates/validate's lint registry), each rule marked
//! `compat` or `lint`; as a table, JSON or the markdown of docs/compat-rules.md and
//! docs/lint-rules.md.

use accord_compat_diff::{CompatRule, RULES, rule, rules_markdown};
use accord_validate::{LintRule, lint_rules_markdown};
use serde_json::{Value, json};

use crate::{Outcome, output};

/// Arguments of `accord rules`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// text (one rule a line), json (every field), or markdown (docs/compat-rules.md, then
    /// docs/lint-rules.md).
    #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
    format: RulesFormat,
    /// Which registry: both, the compatibility rules only, or the lint rules only.
    #[arg(long, value_enum, default_value_t = Which::All)]
    kind: Which,
}

/// The formats of `accord rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RulesFormat {
    /// One rule a line: id, kind, levels, what it is about.
    Text,
    /// `{"version": 1, "rules": [...]}`, each rule with its `kind`.
    Json,
    /// The text of docs/compat-rules.md and of docs/lint-rules.md.
    Markdown,
}

/// The registries `accord rules` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Which {
    /// Compatibility rules, then lint rules.
    All,
    /// The compatibility rules of `accord diff` and `check --against`.
    Compat,
    /// The lint rules of `accord check`.
    Lint,
}

impl Which {
    fn compat(self) -> bool {
        self != Which::Lint
    }

    fn lint(self) -> bool {
        self != Which::Compat
    }
}

/// Arguments of `accord explain`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExplainArgs {
    /// A compatibility or lint rule id (see `accord rules`).
    rule: String,
}

fn rule_json(r: &CompatRule) -> Value {
    json!({
        "id": r.id,
        "kind": "compat",
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

fn lint_json(r: &LintRule) -> Value {
    json!({
        "id": r.id(),
        "kind": "lint",
        "severity": r.severity().as_str(),
        "purpose": r.summary(),
        "doc": r.doc(),
    })
}

pub(crate) fn run(args: &Args) -> Outcome {
    let compat: &[CompatRule] = if args.kind.compat() { RULES } else { &[] };
    let lint: &[LintRule] = if args.kind.lint() { LintRule::all() } else { &[] };
    let text = match args.format {
        RulesFormat::Text => {
            let mut text: String = compat
                .iter()
                .map(|r| {
                    format!(
                        "{:<36} compat  input: {:<8} output: {:<8} {}\n",
                        r.id, r.input, r.output, r.purpose
                    )
                })
                .collect();
            for r in lint {
                text.push_str(&format!(
                    "{:<36} lint    {:<33} {}\n",
                    r.id(),
                    r.severity().as_str(),
                    r.summary()
                ));
            }
            text
        }
        RulesFormat::Json => {
            let all: Vec<Value> =
                compat.iter().map(rule_json).chain(lint.iter().map(lint_json)).collect();
            let mut t = serde_json::to_string_pretty(&json!({"version": 1, "rules": all}))
                .unwrap_or_default();
            t.push('\n');
            t
        }
        RulesFormat::Markdown => match args.kind {
            Which::All => format!("{}\n{}", rules_markdown(), lint_rules_markdown()),
            Which::Compat => rules_markdown(),
            Which::Lint => lint_rules_markdown(),
        },
    };
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}

pub(crate) fn explain(args: &ExplainArgs) -> Outcome {
    let text = if let Some(r) = rule(&args.rule) {
        let mut text = format!(
            "{} (compat): {}\n\nsubject: {}; action: {}\nlevel for params (input): {}; for results, events and error data (output): {}\n\n{}\n",
            r.id, r.purpose, r.subject, r.action, r.input, r.output, r.doc
        );
        if !r.dual.is_empty() {
            text.push_str(&format!("\nThe same change with old and new swapped: `{}`.\n", r.dual));
        }
        text.push_str(&format!("\nFixture: fixtures/diff/{}/\n", r.id));
        text
    } else if let Some(r) = LintRule::find(&args.rule) {
        format!(
            "{} (lint, {}): {}\n\n{}\n\nFixture: fixtures/lint/{}/\n",
            r.id(),
            r.severity(),
            r.summary(),
            r.doc().trim_end(),
            r.id()
        )
    } else {
        let ids = RULES.iter().map(|r| r.id).chain(LintRule::all().iter().map(LintRule::id));
        let hint = accord_validate::did_you_mean(&args.rule, ids)
            .map_or(String::new(), |id| format!("; did you mean `{id}`?"));
        eprintln!(
            "error: no compatibility or lint rule `{}` (`accord rules` lists them){hint}",
            args.rule
        );
        return Outcome::InputError;
    };
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}
