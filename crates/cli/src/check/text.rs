//! The text report: rustc-style lint diagnostics, each comparison's findings, accepted findings
//! and the accept file's problems.

use std::fmt::Write as _;

use super::accepting::Accepting;
use super::items::{Item, pairing_title};
use super::{Checked, Compared, Contract, Policy, fail_on_text};
use crate::diagnostic;
use crate::output::plural;

/// The text report of a run: each contract's findings and comparisons, then, over several
/// contracts, the accept file's section and the list of contracts that fail.
pub(super) fn render(
    all: &[Contract],
    per_contract: &[(String, Vec<Item>)],
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
) -> String {
    let single = all.len() == 1;
    let mut out = String::new();
    for c in all {
        let c = match c {
            Contract::Checked(c) => c,
            // Alone, its diagnostic on stderr is the report; among others it has its
            // section too, so that the report names every contract.
            Contract::Unreadable(file, why) if !single => {
                let _ = writeln!(
                    out,
                    "## {file}\nerror[{}]: cannot be read: {} (the diagnostic is on stderr)\n",
                    why.code,
                    diagnostic::escape_controls(&why.message)
                );
                continue;
            }
            Contract::Unreadable(..) => continue,
        };
        if !single {
            let _ = writeln!(out, "## {}", c.file);
        }
        out.push_str(&text_report(c, accepting, policy, single));
        if !single {
            out.push('\n');
        }
    }
    if !single {
        if let Some(a) = accepting {
            accept_section(&mut out, a, all);
        }
        let failing: Vec<&str> = per_contract
            .iter()
            .filter(|(_, items)| items.iter().any(|i| i.fails))
            .map(|(file, _)| file.as_str())
            .collect();
        let _ = writeln!(
            out,
            "contracts checked: {}; failing: {}",
            all.len(),
            if failing.is_empty() { "none".to_owned() } else { failing.join(", ") }
        );
    }
    out
}

/// The accepted findings of one comparison, as text.
fn accepted_text(out: &mut String, c: &Compared, a: &Accepting) {
    for (f, n) in c.report.findings.iter().zip(&c.accepted) {
        let Some(n) = n else { continue };
        let e = &a.entries[*n];
        let place = f
            .location
            .as_ref()
            .map_or("-".to_owned(), |l| format!("{}:{}:{}", l.file, l.line, l.column));
        let _ = writeln!(
            out,
            "{place}: accepted {}[{}] {} ({}): by {}:{}: {}",
            f.level,
            f.rule,
            f.path,
            pairing_title(f.pairing),
            e.file,
            e.line,
            e.reason
        );
    }
}

/// One contract's text report.
fn text_report(
    c: &Checked,
    accepting: Option<&Accepting>,
    policy: Policy<'_>,
    single: bool,
) -> String {
    let mut out = String::new();
    for l in &c.found {
        out.push_str(&diagnostic::render_lint_diagnostic(
            &c.path,
            &c.text,
            &l.diagnostic,
            l.span,
            l.position,
        ));
        out.push('\n');
    }
    let denied = if policy.deny_warnings && c.lint.warnings() > 0 {
        " (warnings denied: they fail the run)"
    } else {
        ""
    };
    if c.compared.is_empty() {
        let _ = writeln!(out, "{}{denied}", c.lint.summary());
        return out;
    }
    let _ = writeln!(out, "lint: {}{denied}", c.lint.summary());
    for compared in &c.compared {
        let _ = writeln!(
            out,
            "\n# against {} ({})",
            compared.baseline.name, compared.baseline.source.file
        );
        // Accepted findings are listed as accepted below, not counted in the summary as if
        // they still failed.
        let mut open = compared.report.clone();
        let mut accepted = compared.accepted.iter();
        open.findings.retain(|_| accepted.next().is_some_and(Option::is_none));
        out.push_str(&diagnostic::escape_controls(&open.to_text()));
        if let Some(a) = accepting {
            let mut accepted = String::new();
            accepted_text(&mut accepted, compared, a);
            out.push_str(&diagnostic::escape_controls(&accepted));
        }
    }
    if single && let Some(a) = accepting {
        out.push('\n');
        accept_lines(&mut out, a, c.compared.iter());
    }
    if c.compared.len() > 1 {
        let breaking: Vec<&str> = c
            .compared
            .iter()
            .filter(|compared| compared.fails(policy.thresholds))
            .map(|compared| compared.baseline.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "\nreleases checked: {}; failing at {}: {}",
            c.compared.len(),
            fail_on_text(policy.thresholds),
            if breaking.is_empty() { "none".to_owned() } else { breaking.join(", ") }
        );
    }
    out
}

/// The accept file's problems and its summary line, over every comparison of the run.
fn accept_lines<'c>(out: &mut String, a: &Accepting, compared: impl Iterator<Item = &'c Compared>) {
    for p in &a.problems {
        let e = &a.entries[p.entry];
        let _ =
            writeln!(out, "{}:{}:{}: error[{}] {}", e.file, e.line, e.column, p.rule, p.message);
    }
    let accepted: usize = compared.map(|c| c.accepted.iter().filter(|a| a.is_some()).count()).sum();
    let _ = writeln!(
        out,
        "accept: {} ({}): {accepted} accepted, {}",
        a.file,
        plural(a.entries.len(), "entry"),
        plural(a.problems.len(), "entry problem")
    );
}

/// The accept section of a run over several contracts, once after them all.
fn accept_section(out: &mut String, a: &Accepting, all: &[Contract]) {
    let compared = all.iter().flat_map(|c| match c {
        Contract::Checked(c) => c.compared.iter(),
        Contract::Unreadable(..) => [].iter(),
    });
    accept_lines(out, a, compared);
}
