//! Tool names that survive every client: `^[A-Za-z0-9_-]{1,48}$`, the strictest rule among
//! MCP clients, with collisions suffixed in document order and a reverse map kept.

use std::collections::HashMap;

/// The longest tool name some clients accept.
pub const MAX_NAME: usize = 48;

/// Whether `name` passes the strictest client rule.
pub fn is_portable(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// `name` with every character outside `[A-Za-z0-9_-]` replaced by `_`, cut to
/// [`MAX_NAME`]; an empty name becomes `tool`.
pub fn sanitise(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(MAX_NAME)
        .collect();
    if out.is_empty() {
        out.push_str("tool");
    }
    out
}

/// The names given so far, and what each stands for.
#[derive(Debug, Default)]
pub(crate) struct Names {
    taken: HashMap<String, String>,
}

impl Names {
    /// Keeps `name` for `owner` as it is (a name of accord's own, such as `collect_events`).
    pub(crate) fn reserve(&mut self, name: &str, owner: &str) {
        self.taken.insert(name.to_owned(), owner.to_owned());
    }

    /// The tool name of `original`: sanitised, and when that is taken, suffixed `_2`, `_3`, …
    /// (the base cut so that the whole stays within [`MAX_NAME`]).
    pub(crate) fn assign(&mut self, original: &str) -> String {
        let base = sanitise(original);
        let mut name = base.clone();
        let mut n = 2u32;
        while self.taken.contains_key(&name) {
            let suffix = format!("_{n}");
            let keep = MAX_NAME - suffix.len();
            name = format!("{}{suffix}", &base[..base.len().min(keep)]);
            n += 1;
        }
        self.taken.insert(name.clone(), original.to_owned());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_and_other_characters_become_underscores_and_length_is_cut() {
        assert_eq!(sanitise("pump.status"), "pump_status");
        assert_eq!(sanitise("eth_getBalance"), "eth_getBalance");
        assert_eq!(sanitise("ns.méthode/x"), "ns_m_thode_x");
        assert_eq!(sanitise(""), "tool");
        let long = "a".repeat(70);
        assert_eq!(sanitise(&long).len(), MAX_NAME);
        assert!(is_portable(&sanitise(&long)));
    }

    #[test]
    fn collisions_are_suffixed_in_order_and_stay_portable() {
        let mut names = Names::default();
        names.reserve("collect_events", "accord");
        assert_eq!(names.assign("a.b"), "a_b");
        assert_eq!(names.assign("a_b"), "a_b_2");
        assert_eq!(names.assign("a/b"), "a_b_3");
        assert_eq!(names.assign("collect.events"), "collect_events_2");
        let long = "x".repeat(60);
        let first = names.assign(&long);
        let second = names.assign(&format!("{long}."));
        assert_eq!(first.len(), MAX_NAME);
        assert_eq!(second, format!("{}_2", "x".repeat(MAX_NAME - 2)));
        assert!(is_portable(&second));
    }
}
