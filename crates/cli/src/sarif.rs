//! `accord check --format sarif`: the findings as a SARIF 2.1.0 log, as GitHub code scanning
//! takes it. The tool's rules are the compatibility registry and the lint registry; a result's
//! level is `error` when it fails the run, `warning` for other risky, breaking or warning
//! findings, and `note` for safe and policy ones (a policy finding, such as
//! `version-not-bumped` or a removal left unreserved, fails no reader; its `accordLevel` is
//! `policy` and it is tagged `policy`, and it is an `error` only under `--fail-on policy`). A contract that cannot be read is an `error` result under
//! the reader's error code (`malformed-json`, `schema-missing` …), at the place it names; a
//! baseline that cannot be read is one under `baseline-unreadable`. A finding accepted by
//! `--accept` carries an external, accepted suppression with the entry's reason and place.

use accord_compat_diff::RULES;
use serde_json::{Value, json};

use crate::check::Item;

/// The SARIF log for `items`, the findings of the checked `contracts`.
pub(crate) fn log(contracts: &[&str], items: &[&Item]) -> Value {
    let mut rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.purpose},
                "fullDescription": {"text": r.doc},
                "help": {"text": format!("{} Input: {}. Output: {}. {}", r.purpose, r.input, r.output, r.doc)},
                "properties": {"category": "compatibility"},
            })
        })
        .collect();
    for r in accord_validate::LintRule::all() {
        rules.push(json!({
            "id": r.id(),
            "shortDescription": {"text": r.summary()},
            "properties": {"category": "lint"},
        }));
    }
    let index = |id: &str| rules.iter().position(|r| r["id"] == id);
    let results: Vec<Value> = items
        .iter()
        .map(|i| {
            let level = match i.level {
                _ if i.fails => "error",
                "error" | "breaking" | "warning" | "risky" => "warning",
                _ => "note",
            };
            // Places in a baseline (removals) are not files of the checked tree: named in the
            // message instead.
            let (here, text) = match &i.location {
                Some((file, line, col)) if !contracts.contains(&file.as_str()) => {
                    (None, format!("{} (at {file}:{line}:{col})", i.message))
                }
                other => (other.as_ref(), i.message.clone()),
            };
            let mut result = json!({
                "ruleId": i.rule,
                "level": level,
                "message": {"text": text},
                "properties": {"accordLevel": i.level},
            });
            if i.level == "policy" {
                result["properties"]["tags"] = json!(["policy"]);
            }
            if let Some(evidence) = &i.evidence {
                result["properties"]["accordUsage"] = evidence.clone();
            }
            if let Some(n) = index(i.rule) {
                result["ruleIndex"] = json!(n);
            }
            // An accepted finding stays in the log, suppressed: code scanning shows it as
            // dismissed with the entry's reason instead of losing it.
            if let Some(by) = &i.accepted {
                let (file, line, col) = &by.location;
                result["suppressions"] = json!([{
                    "kind": "external",
                    "status": "accepted",
                    "justification": by.reason,
                    "location": {
                        "physicalLocation": {
                            "artifactLocation": {"uri": file},
                            "region": {"startLine": line, "startColumn": col},
                        }
                    },
                }]);
            }
            if let Some((file, line, col)) = here {
                result["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": {"uri": file},
                        "region": {"startLine": line, "startColumn": col},
                    }
                }]);
            }
            result
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "accord",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
