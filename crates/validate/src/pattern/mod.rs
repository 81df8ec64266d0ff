//! The cost bound of `pattern` checks. The format's dialect (the `regex` crate's) matches in
//! time linear in the string, but the factor is the compiled pattern's size: in the worst case
//! (the lazy DFA gives up and the PikeVM runs) every byte of the string steps every state of
//! the pattern's Thompson NFA. `(a{100}){100}x` is about 10,000 states, and a 200 KB string
//! against it took 45 s, with the server's other connections waiting behind it.
//!
//! So one validation run (one call of a `Validator` method) may spend at most
//! [`MAX_PATTERN_COST`] state-bytes (the pattern's NFA states times the string's bytes, summed
//! over every string matched in the run); a string whose check would go past it is not
//! matched at all and fails with the rule `pattern-cost`. The cost is known before the match
//! runs, so a refusal costs nothing, and the matching a run does is bounded (about 16 ns per
//! state-byte at worst, measured on `(a{100}){100}x`: 1.6 s for the whole bound, spent on a
//! blocking section by `accord serve`, never on its event loop). The bound is loose enough for
//! real material: the Ethereum execution-apis vectors (crates/cli/tests/it/import_vectors.rs),
//! whole blocks of hex strings against their patterns, stay inside it; 10,000,000 did not.

use std::cell::Cell;
use std::sync::{Arc, OnceLock};

use regex::Regex;

mod classes;

use classes::Classes;

/// The most state-bytes one validation run may spend matching patterns (see the module doc):
/// a 10 MB string against a 10-state pattern, or 9,800 bytes against `(a{100}){100}x`.
pub const MAX_PATTERN_COST: u64 = 100_000_000;

/// A compiled `pattern` with its size.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    regex: Regex,
    /// The same pattern decided by a table lookup per byte, when it has the common shape
    /// (`classes.rs`); the regex answers the rest.
    classes: Option<Arc<Classes>>,
    /// The states of its Thompson NFA (at least 1), counted when first needed (building the
    /// NFA again costs about what compiling the regex did, and a contract of many patterns
    /// must not pay it at start-up), shared by every node of the same pattern.
    states: Arc<OnceLock<u64>>,
}

impl Pattern {
    /// Compiles `pattern`; the error is the `regex` crate's message.
    pub(crate) fn new(pattern: &str) -> Result<Pattern, String> {
        let regex = Regex::new(pattern).map_err(|e| e.to_string())?;
        let classes = Classes::new(pattern).map(Arc::new);
        Ok(Pattern { regex, classes, states: Arc::new(OnceLock::new()) })
    }

    /// The pattern's text.
    pub(crate) fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// Whether `s` matches: `None` when matching it would take the run past
    /// [`MAX_PATTERN_COST`] (nothing is matched then).
    pub(crate) fn matches(&self, s: &str) -> Option<bool> {
        let cost = self.states().saturating_mul(s.len() as u64 + 1);
        let spent = SPENT.get();
        if spent.saturating_add(cost) > MAX_PATTERN_COST {
            return None;
        }
        SPENT.set(spent + cost);
        Some(match &self.classes {
            Some(classes) => classes.is_match(s),
            None => self.regex.is_match(s),
        })
    }

    /// The one string this pattern matches, if it matches exactly one (`^0x2$`).
    pub(crate) fn literal(&self) -> Option<&str> {
        std::str::from_utf8(self.classes.as_ref()?.literal()?).ok()
    }

    /// [`Pattern::matches`] on the bytes of a string known to be UTF-8, when the pattern is of
    /// the shape matched by byte table: `None` when it is not, or when matching would take the
    /// run past the bound (the caller then goes through [`Pattern::matches`], which says so).
    pub(crate) fn matches_bytes(&self, bytes: &[u8]) -> Option<bool> {
        let classes = self.classes.as_ref()?;
        let cost = self.states().saturating_mul(bytes.len() as u64 + 1);
        let spent = SPENT.get();
        if spent.saturating_add(cost) > MAX_PATTERN_COST {
            return None;
        }
        SPENT.set(spent + cost);
        Some(classes.is_match_bytes(bytes))
    }

    /// The longest string (in bytes) one run can match against this pattern.
    pub(crate) fn longest(&self) -> u64 {
        longest(self.states())
    }

    fn states(&self) -> u64 {
        *self.states.get_or_init(|| states(self.regex.as_str()).unwrap_or(u64::MAX))
    }
}

/// The states of `pattern`'s Thompson NFA, as the `regex` crate builds it (same syntax
/// defaults), if it compiles.
pub(crate) fn states(pattern: &str) -> Option<u64> {
    let nfa = regex_automata::nfa::thompson::NFA::new(pattern).ok()?;
    Some((nfa.states().len() as u64).max(1))
}

/// The longest string (in bytes) one run can match against a pattern of `states` states.
pub(crate) fn longest(states: u64) -> u64 {
    (MAX_PATTERN_COST / states.max(1)).saturating_sub(1)
}

thread_local! {
    /// The state-bytes spent by the validation run on this thread. Every run is synchronous and
    /// starts with a [`Run`], so a thread-local is the run's own counter without threading a
    /// budget through every path (values, bytes, the quiet probes of unions).
    static SPENT: Cell<u64> = const { Cell::new(0) };
}

/// One validation run: starting it resets the spending, so each run has the whole bound.
pub(crate) struct Run(());

impl Run {
    pub(crate) fn start() -> Run {
        SPENT.set(0);
        Run(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_costly_pattern_is_refused_before_it_runs() {
        let costly = Pattern::new("(a{100}){100}x").unwrap();
        assert!(costly.states() > 10_000, "{}", costly.states());
        let _run = Run::start();
        assert_eq!(costly.matches(&"a".repeat(1 << 20)), None);
        // Refused without matching: nothing was spent.
        assert_eq!(SPENT.get(), 0);
        let cheap = Pattern::new("^[a-z]+$").unwrap();
        assert_eq!(cheap.matches(&"a".repeat(100_000)), Some(true));
        let _run = Run::start();
        assert_eq!(costly.matches("aax"), Some(false));
    }

    #[test]
    fn the_bound_is_per_run() {
        let p = Pattern::new("^[a-z]+$").unwrap();
        let s = "a".repeat(usize::try_from(p.longest()).unwrap());
        let _run = Run::start();
        assert_eq!(p.matches(&s), Some(true));
        assert_eq!(p.matches("a"), None);
        let _run = Run::start();
        assert_eq!(p.matches("a"), Some(true));
    }
}
