//! The JSON report (`--format json`), version 1.

use serde_json::{Value, json};

use super::accepting::Accepting;
use super::items::Item;
use super::{Checked, Contract, Located, Policy, fail_on_text};
use crate::input::Unreadable;

/// The JSON report of a run: the lint findings alone for one contract checked without a
/// baseline (the shape `accord check --format json` has always had), else one report per
/// contract, under `contracts` when there are several.
pub(super) fn render(
    all: &[Contract],
    per_contract: &[(String, Vec<Item>)],
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
    tags_asked: bool,
    failed: bool,
) -> String {
    let unreadable = all.iter().any(|c| matches!(c, Contract::Unreadable(..)));
    match all {
        [Contract::Unreadable(file, why)] => pretty(&unreadable_json(file, why)),
        [Contract::Checked(c)] if c.compared.is_empty() && !tags_asked && accepting.is_none() => {
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
                "failOn": fail_on_text(policy.thresholds),
                "contracts": contracts,
                "fails": failed || unreadable,
            });
            if let Some(a) = accepting {
                report["accept"] = accept_json(a);
            }
            pretty(&report)
        }
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

/// Pretty JSON with a final newline.
pub(super) fn pretty(value: &Value) -> String {
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
