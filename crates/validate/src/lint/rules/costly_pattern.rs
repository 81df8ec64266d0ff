//! `costly-pattern`: string patterns whose nested repetition or compiled size makes every match
//! slow.

use std::collections::HashMap;

use accord_schema_model::{Pointer, TypeKind};
use regex_syntax::hir::{Hir, HirKind};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a string `pattern` whose counted repetitions nest deep enough that the repeated
    /// part is expanded a thousand times or more (`(a{100}){100}x`: ten thousand copies of
    /// `a`), or whose compiled program is larger than 256 KiB.
    ///
    /// ## Why is this bad?
    /// The format's pattern dialect (the Rust `regex` crate's) matches in time linear in the
    /// length of the string, but the factor is the size of the compiled pattern: a counted
    /// repetition is compiled as that many copies of what it repeats, and nested counts
    /// multiply. Every string a plant, `accord serve` or `accord conform` checks against such a
    /// pattern costs that factor per character: `(a{100}){100}x` takes over a minute on a 1 MB
    /// string, long enough for a caller to freeze a server with two requests. (accord checks
    /// `minLength` and `maxLength` first, so a bound on the length limits the damage.) accord
    /// itself bounds the cost: one validation matches at most 100,000,000 state-bytes (string
    /// bytes times the pattern's NFA states, summed over the value), and a string past it is
    /// refused with the rule `pattern-cost` without being matched, so against such a pattern
    /// long strings are refused whether or not they match.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "string", "pattern": "^(a{100}){100}x$" }
    /// ```
    ///
    /// ## Fix
    /// Repeat with `+` or `*` and bound the string with `minLength` and `maxLength` instead of
    /// counting copies: `^a+x$` with `"maxLength": 10001`.
    pub(crate) struct CostlyPattern;
}

const HELP: &str = "repeat with `+` or `*` and bound the string with minLength/maxLength instead of counting copies";

/// Copies of a repeated part at which a pattern counts as costly.
const MAX_EXPANSION: u64 = 1000;

/// The compiled size at which a pattern counts as costly.
const MAX_COMPILED: usize = 256 << 10;

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    // The verdict on each distinct pattern (parsed, and compiled under the limit, once):
    // contracts repeat their patterns.
    let mut verdicts: HashMap<&str, Option<String>> = HashMap::new();
    for node in &cx.walk.nodes {
        let TypeKind::String(rules) = &node.node.kind else { continue };
        let Some(pattern) = &rules.pattern else { continue };
        if let Some(reason) = verdicts.entry(pattern).or_insert_with(|| costly(pattern)) {
            found.push((node.pointer.key("pattern"), reason.clone()));
        }
    }
    for (at, message) in found {
        cx.report(at, message, HELP);
    }
}

/// Why `pattern` is costly, if it is, with the bound validation holds it to.
fn costly(pattern: &str) -> Option<String> {
    // A pattern that does not parse is `bad-pattern`'s.
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let expansion = nested_expansion(&hir);
    let why = if expansion.nested && expansion.copies >= MAX_EXPANSION {
        format!(
            "pattern `{pattern}` nests counted repetitions that expand its repeated part {} times; every match costs that much per character",
            expansion.copies
        )
    } else if regex::RegexBuilder::new(pattern).size_limit(MAX_COMPILED).build().is_err() {
        format!(
            "pattern `{pattern}` compiles to more than {} KiB; every match costs that much per character",
            MAX_COMPILED >> 10
        )
    } else {
        return None;
    };
    Some(match crate::pattern::states(pattern) {
        Some(states) => format!(
            "{why}: validation matches at most {} bytes of string against it in one value ({states} NFA states; the bound is string bytes x states <= {} per validation) and refuses longer strings with `pattern-cost`",
            crate::pattern::longest(states),
            crate::MAX_PATTERN_COST,
        ),
        None => why,
    })
}

/// The most copies of any part a pattern's counted repetitions make (their counts multiplied
/// along each nesting), and whether that comes from more than one level of nesting.
#[derive(Debug, Clone, Copy, Default)]
struct Expansion {
    copies: u64,
    nested: bool,
}

/// Walks the HIR without recursion (a pattern is contract input).
fn nested_expansion(hir: &Hir) -> Expansion {
    let mut most = Expansion { copies: 1, nested: false };
    // (node, copies so far, counted repetitions around it)
    let mut stack: Vec<(&Hir, u64, u32)> = vec![(hir, 1, 0)];
    while let Some((h, copies, levels)) = stack.pop() {
        match h.kind() {
            HirKind::Repetition(rep) => {
                // An unbounded repetition is a loop, not copies: its `min` is what is copied.
                let count = u64::from(rep.max.unwrap_or(rep.min).max(1));
                let (copies, levels) = if count > 1 {
                    (copies.saturating_mul(count), levels + 1)
                } else {
                    (copies, levels)
                };
                if copies > most.copies {
                    most = Expansion { copies, nested: levels > 1 };
                }
                stack.push((&rep.sub, copies, levels));
            }
            HirKind::Capture(cap) => stack.push((&cap.sub, copies, levels)),
            HirKind::Concat(parts) | HirKind::Alternation(parts) => {
                stack.extend(parts.iter().map(|p| (p, copies, levels)));
            }
            HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => {}
        }
    }
    most
}

#[cfg(test)]
mod tests {
    use super::nested_expansion;

    fn expansion(pattern: &str) -> (u64, bool) {
        let e = nested_expansion(&regex_syntax::Parser::new().parse(pattern).unwrap());
        (e.copies, e.nested)
    }

    #[test]
    fn counts_multiply_along_nesting() {
        assert_eq!(expansion("(a{100}){100}x"), (10_000, true));
        assert_eq!(expansion("^a{1000}$"), (1000, false));
        assert_eq!(expansion("^(ab){2,3}[0-9]+$"), (3, false));
        assert_eq!(expansion("^((a{10}){10}){10}$"), (1000, true));
        assert_eq!(expansion("^[a-z]+$"), (1, false));
    }
}
