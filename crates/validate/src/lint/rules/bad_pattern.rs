//! `bad-pattern`: string patterns the regex dialect cannot compile.

use std::collections::HashMap;

use accord_schema_model::{Pointer, TypeKind};
use regex::Regex;

use crate::Error;
use crate::lint::LintContext;
use crate::lint::walk::Walk;

declare_rule! {
    /// ## What it does
    /// Flags a string `pattern` that does not compile as a regular expression in the format's
    /// dialect, that of the Rust `regex` crate (format.md, section 10.3).
    ///
    /// ## Why is this bad?
    /// A validator cannot check a string against a pattern it cannot compile, so the contract
    /// does not compile at all. Patterns copied from JSON Schema are the usual cause: ECMA-262
    /// look-around (`(?=…)`, `(?!…)`, `(?<=…)`) and backreferences (`\1`) are not in this
    /// dialect, which guarantees matching in linear time instead.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "string", "pattern": "^(?!tmp-)[a-z]+$" }
    /// ```
    ///
    /// ## Fix
    /// Rewrite the pattern without look-around or backreferences (split the condition into a
    /// pattern and an enum, or state it in `description`), or fix the syntax error the message
    /// names.
    pub(crate) struct BadPattern;
}

/// One pattern that does not compile.
#[derive(Debug, Clone)]
pub(crate) struct Bad {
    /// The `pattern` member.
    pub(crate) pointer: Pointer,
    pub(crate) pattern: String,
    pub(crate) reason: String,
}

pub(crate) fn find(walk: &Walk<'_>) -> Vec<Bad> {
    let mut out = Vec::new();
    // Why each distinct pattern does not compile, if it does not: contracts repeat patterns.
    let mut reasons: HashMap<&str, Option<String>> = HashMap::new();
    for node in &walk.nodes {
        let TypeKind::String(rules) = &node.node.kind else { continue };
        let Some(pattern) = &rules.pattern else { continue };
        let reason = reasons
            .entry(pattern)
            .or_insert_with(|| Regex::new(pattern).err().map(|err| err.to_string()));
        if let Some(reason) = reason {
            out.push(Bad {
                pointer: node.pointer.key("pattern"),
                pattern: pattern.clone(),
                reason: reason.clone(),
            });
        }
    }
    out
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = cx.found.patterns.clone();
    for e in &cx.repaired.errors {
        if let Error::BadPattern { at, pattern, reason } = e
            && !found.iter().any(|b| b.pointer == *at)
        {
            found.push(Bad {
                pointer: at.clone(),
                pattern: pattern.clone(),
                reason: reason.clone(),
            });
        }
    }
    for bad in found {
        cx.report(
            bad.pointer,
            format!("pattern `{}` does not compile: {}", bad.pattern, short_reason(&bad.reason)),
            help(&bad.pattern),
        );
    }
}

/// The regex crate's explanation without its drawing of the pattern: the `error:` line.
fn short_reason(reason: &str) -> String {
    reason
        .lines()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .map_or_else(|| reason.lines().map(str::trim).collect::<Vec<_>>().join(" "), str::to_owned)
}

fn help(pattern: &str) -> String {
    let look_around = ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|p| pattern.contains(p));
    let backreference = pattern
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0');
    if look_around {
        "this dialect (the Rust regex crate's) has no look-around; match the positive form, and state the exclusion in an enum or the description".to_owned()
    } else if backreference {
        "this dialect (the Rust regex crate's) has no backreferences; spell the repeated part out, or check it outside the contract".to_owned()
    } else {
        "fix the expression; the dialect is the Rust regex crate's (docs/format.md, section 10.3)"
            .to_owned()
    }
}
