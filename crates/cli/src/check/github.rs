//! The GitHub Actions report (`--format github`): one workflow command per finding.

use std::fmt::Write as _;

use super::items::Item;
use crate::diagnostic;

/// Escapes workflow-command data (`%`, CR, LF) and, for properties, `:` and `,` too.
fn escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The path of a `REV:path` place (a baseline read from git) when `file` is one: not a file on
/// disk, and its part after the first `:` is.
fn git_revision_place(file: &str) -> Option<&str> {
    if std::path::Path::new(file).exists() {
        return None;
    }
    file.split_once(':').map(|(_, path)| path).filter(|path| !path.is_empty())
}

/// The findings as GitHub workflow commands (`::error file=…,line=…::message`).
pub(super) fn report(items: &[&Item]) -> String {
    let mut out = String::new();
    for i in items {
        let command = match i.level {
            _ if i.fails => "error",
            "error" | "breaking" | "warning" | "risky" => "warning",
            _ => "notice",
        };
        let mut props = Vec::new();
        let mut message = i.message.clone();
        if let Some((file, line, col)) = &i.location {
            match git_revision_place(file) {
                // A place in a release read from git (`v1.0.0:thermostat.types.json`, what a
                // removed item points at) is in no file GitHub has: the annotation goes on the
                // file as it is now, without a line, and the message says where the item was.
                Some(path) => {
                    props.push(format!("file={}", escape(path, true)));
                    message = format!("(was at {file}:{line}:{col}) {message}");
                }
                None => {
                    props.push(format!("file={}", escape(file, true)));
                    props.push(format!("line={line}"));
                    props.push(format!("col={col}"));
                }
            }
        }
        props.push(format!("title={}", escape(i.rule, true)));
        // Control characters from the contract are written out before the workflow-command
        // escape, so that a name cannot drive the log's terminal either.
        let message = diagnostic::escape_controls(&message);
        let _ = writeln!(out, "::{command} {}::{}", props.join(","), escape(&message, false));
    }
    out
}
