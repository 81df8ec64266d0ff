//! The member names of every record of the format, as this build reads them: the one list the
//! reader takes its names from (read.rs checks each name it takes against it in debug builds)
//! and that tools asking "is this member known here?" read, such as the lint's did-you-mean for
//! a misspelt member. A member not listed for its record is an unknown member, kept as it is.

use crate::Kind;

/// The document itself.
pub const DOCUMENT: &[&str] = &["schema", "name", "description", "wire", "namespaces"];
/// A namespace.
pub const NAMESPACE: &[&str] = &[
    "version",
    "description",
    "deprecated",
    "component",
    "wire",
    "methods",
    "events",
    "types",
    "reserved",
];
/// A `wire` section (of the document or of a namespace).
pub const WIRE: &[&str] =
    &["separator", "describe", "codes", "depthLimit", "pubsub", "methods", "events"];
/// A wire's `codes`.
pub const WIRE_CODES: &[&str] =
    &["profile", "methodNotFound", "invalidParams", "limit", "reserved"];
/// A wire's `pubsub`.
pub const PUBSUB: &[&str] = &["subscribe", "unsubscribe", "notification"];
/// The wire of one event (`wire.events.NAME`).
pub const EVENT_WIRE: &[&str] = &["params", "subscribe", "unsubscribe", "notification"];
/// A namespace's `component`.
pub const COMPONENT: &[&str] = &["name", "description"];
/// A method.
pub const METHOD: &[&str] = &[
    "semantics",
    "paramStructure",
    "result",
    "description",
    "deprecated",
    "params",
    "errors",
    "examples",
    "links",
    "causes",
];
/// A link of a method (`links.NAME`).
pub const LINK: &[&str] = &["method", "namespace", "summary", "description", "params"];
/// A cause of a method (an item of `causes`).
pub const CAUSE: &[&str] = &["event", "namespace", "description"];
/// An object field; a param has these and [`PARAM`].
pub const FIELD: &[&str] =
    &["type", "optional", "inputOptional", "outputOptional", "description", "deprecated"];
/// The members a param has besides those of a field.
pub const PARAM: &[&str] = &["name"];
/// An event.
pub const EVENT: &[&str] = &["payload", "description", "deprecated", "examples"];
/// A declared error.
pub const ERROR: &[&str] = &["code", "message", "description", "data"];
/// A method's example.
pub const EXAMPLE: &[&str] = &["name", "description", "params", "result"];
/// A reserved entry (of a namespace, an enum or an object).
pub const RESERVED: &[&str] = &["name", "note"];
/// Every type node, whatever its kind; its kind's own members are [`refinements`].
pub const TYPE_NODE: &[&str] = &["kind", "description", "deprecated", "default", "examples"];

/// The members of type nodes of `kind` alone (its refinements), from the one declaration
/// ([`crate::Refinement`]).
pub const fn refinements(kind: Kind) -> &'static [&'static str] {
    crate::Refinement::names(kind)
}

/// The name in `known` that `name` is one slip away from: the same letters in another case,
/// or one letter added, left out or changed, or two neighbours swapped (`maxLenght`,
/// `optinal`, `strnig`). `None` for a name known as it stands, for a short name (under three
/// letters, where one slip reaches too much), and for a name further from every known one,
/// which is what a newer writer's member looks like.
pub fn near_miss<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower: Vec<char> = name.chars().map(|c| c.to_ascii_lowercase()).collect();
    if lower.len() < 3 {
        return None;
    }
    let mut found = None;
    for candidate in known {
        if candidate == name {
            return None;
        }
        let other: Vec<char> = candidate.chars().map(|c| c.to_ascii_lowercase()).collect();
        if found.is_none() && one_slip(&lower, &other) {
            found = Some(candidate);
        }
    }
    found
}

/// Whether `a` and `b` are equal or one edit or transposition apart.
fn one_slip(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    match long.len() - short.len() {
        0 => {
            let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            match differ.as_slice() {
                [] | [_] => true,
                [i, j] => *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i],
                _ => false,
            }
        }
        1 => {
            // The first difference is the letter the longer has in addition.
            let at = short.iter().zip(long).position(|(x, y)| x != y).unwrap_or(short.len());
            short[at..] == long[at + 1..]
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{FIELD, near_miss};

    #[test]
    fn one_slip_away_and_no_further() {
        let kinds = ["string", "integer", "number"];
        assert_eq!(near_miss("strnig", kinds), Some("string"), "two neighbours swapped");
        assert_eq!(near_miss("strin", kinds), Some("string"), "a letter left out");
        assert_eq!(near_miss("integers", kinds), Some("integer"), "a letter added");
        assert_eq!(near_miss("numbar", kinds), Some("number"), "a letter changed");
        assert_eq!(near_miss("String", kinds), Some("string"), "another case");
        assert_eq!(near_miss("string", kinds), None, "known as it stands");
        assert_eq!(near_miss("decimal", kinds), None, "far from every name");
        assert_eq!(near_miss("srtnig", kinds), None, "two slips");
        assert_eq!(near_miss("optinal", FIELD.iter().copied()), Some("optional"));
        assert_eq!(near_miss("descripton", FIELD.iter().copied()), Some("description"));
    }
}
