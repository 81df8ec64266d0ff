//! What a validator reports: one [`ValidationError`] per way a value does not match, with the
//! JSON Pointer of the value, what was expected, what was found, and the rule involved. The
//! wording is built here, once, so that the value path and the bytes path say the same thing.

use std::borrow::Cow;
use std::fmt;

use crate::number::Num;

/// The rule a value broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ValidationRule {
    /// The JSON type is not the type's kind.
    Type,
    /// Below `min`.
    Minimum,
    /// At or below `exclusiveMin`.
    ExclusiveMinimum,
    /// Above `max`.
    Maximum,
    /// At or above `exclusiveMax`.
    ExclusiveMaximum,
    /// Not a whole multiple of `multipleOf`.
    MultipleOf,
    /// Shorter than `minLength`.
    MinLength,
    /// Longer than `maxLength`.
    MaxLength,
    /// No match of `pattern`.
    Pattern,
    /// Not matched against `pattern`: the match would cost more than one validation may
    /// spend ([`MAX_PATTERN_COST`](crate::MAX_PATTERN_COST)).
    PatternCost,
    /// Not in the declared `format`.
    Format,
    /// Not the literal's value.
    Literal,
    /// Not one of the enum's values.
    Enum,
    /// Fewer items than `minItems`.
    MinItems,
    /// More items than `maxItems`.
    MaxItems,
    /// Two equal items where `uniqueItems` is set.
    UniqueItems,
    /// A tuple (or positional params) of the wrong length.
    Length,
    /// A required member or param is absent.
    Required,
    /// A member a closed object does not declare.
    Closed,
    /// A map key that does not match the map's key type.
    MapKey,
    /// No arm of a union matches.
    Union,
    /// A union's discriminator is absent or names no arm.
    Discriminator,
    /// Nesting deeper than the validator's limit.
    Depth,
    /// The bytes are not JSON (bytes path only).
    Syntax,
    /// An object names a key twice (bytes path only: a `Value` keeps one member per key).
    DuplicateKey,
}

impl ValidationRule {
    /// A stable identifier for the rule.
    pub fn id(self) -> &'static str {
        match self {
            ValidationRule::Type => "type",
            ValidationRule::Minimum => "min",
            ValidationRule::ExclusiveMinimum => "exclusive-min",
            ValidationRule::Maximum => "max",
            ValidationRule::ExclusiveMaximum => "exclusive-max",
            ValidationRule::MultipleOf => "multiple-of",
            ValidationRule::MinLength => "min-length",
            ValidationRule::MaxLength => "max-length",
            ValidationRule::Pattern => "pattern",
            ValidationRule::PatternCost => "pattern-cost",
            ValidationRule::Format => "format",
            ValidationRule::Literal => "literal",
            ValidationRule::Enum => "enum",
            ValidationRule::MinItems => "min-items",
            ValidationRule::MaxItems => "max-items",
            ValidationRule::UniqueItems => "unique-items",
            ValidationRule::Length => "length",
            ValidationRule::Required => "required",
            ValidationRule::Closed => "closed",
            ValidationRule::MapKey => "map-key",
            ValidationRule::Union => "union",
            ValidationRule::Discriminator => "discriminator",
            ValidationRule::Depth => "depth",
            ValidationRule::Syntax => "syntax",
            ValidationRule::DuplicateKey => "duplicate-key",
        }
    }
}

/// One way a value does not match its type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValidationError {
    /// The JSON Pointer of the value inside the validated document (`""` for the whole value).
    pub pointer: String,
    /// The rule broken.
    pub rule: ValidationRule,
    /// What the type asks for, including the bound, pattern or values involved.
    pub expected: String,
    /// What the value is.
    pub found: String,
    /// For a union no arm of which matches: the errors of the arm that came nearest.
    pub nearest: Vec<ValidationError>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{at}: expected {}, found {} [{}]", self.expected, self.found, self.rule.id())?;
        for inner in &self.nearest {
            write!(f, "\n  nearest arm: {inner}")?;
        }
        Ok(())
    }
}

/// One segment of the path to the value being checked.
#[derive(Debug, Clone)]
pub(crate) enum Seg<'a> {
    Key(Cow<'a, str>),
    Index(usize),
}

/// The path to the value being checked, kept only when errors are wanted.
#[derive(Debug, Default)]
pub(crate) struct Path<'a> {
    segs: Vec<Seg<'a>>,
}

impl<'a> Path<'a> {
    pub(crate) fn push(&mut self, seg: Seg<'a>) {
        self.segs.push(seg);
    }

    pub(crate) fn pop(&mut self) {
        self.segs.pop();
    }

    pub(crate) fn len(&self) -> usize {
        self.segs.len()
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.segs.truncate(len);
    }

    /// The path as a JSON Pointer.
    pub(crate) fn pointer(&self) -> String {
        let mut out = String::new();
        for seg in &self.segs {
            out.push('/');
            match seg {
                Seg::Key(k) => {
                    for c in k.chars() {
                        match c {
                            '~' => out.push_str("~0"),
                            '/' => out.push_str("~1"),
                            c => out.push(c),
                        }
                    }
                }
                Seg::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }
}

/// "Found" descriptions, one per JSON type, shared by both paths.
pub(crate) mod found {
    use super::Num;

    /// Strings longer than this are cut in messages.
    const SHOWN: usize = 48;

    pub(crate) fn null() -> String {
        "null".to_owned()
    }

    pub(crate) fn boolean(b: bool) -> String {
        b.to_string()
    }

    pub(crate) fn number(n: Num) -> String {
        if n.is_integer() {
            format!("the integer {}", n.render())
        } else {
            format!("the number {}", n.render())
        }
    }

    pub(crate) fn string(s: &str) -> String {
        format!("the string {}", quoted(s))
    }

    pub(crate) fn object() -> String {
        "an object".to_owned()
    }

    pub(crate) fn array() -> String {
        "an array".to_owned()
    }

    /// An array of `len` items.
    pub(crate) fn array_of(len: usize) -> String {
        format!("an array of {}", crate::checks::items(len))
    }

    /// An object that lacks a required member.
    pub(crate) fn object_without(name: &str) -> String {
        format!("an object without `{name}`")
    }

    /// Params that lack a required param.
    pub(crate) fn params_without(name: &str) -> String {
        format!("params without `{name}`")
    }

    /// A map key its key type refuses.
    pub(crate) fn key(key: &str) -> String {
        format!("the key {}", quoted(key))
    }

    /// A string as JSON, cut to a readable length.
    pub(crate) fn quoted(s: &str) -> String {
        if s.chars().count() <= SHOWN {
            serde_json::to_string(s).unwrap_or_default()
        } else {
            let cut: String = s.chars().take(SHOWN).collect();
            format!("{}…", serde_json::to_string(&cut).unwrap_or_default())
        }
    }
}

/// The error of a map key its key type refuses at `pointer`, with the key type's own errors
/// (as the nearest) moved to the key's place.
pub(crate) fn map_key_error(
    pointer: String,
    key: &str,
    key_errors: Vec<ValidationError>,
) -> ValidationError {
    let nearest = key_errors
        .into_iter()
        .map(|mut e| {
            e.pointer = pointer.clone();
            e
        })
        .collect();
    ValidationError {
        pointer,
        rule: ValidationRule::MapKey,
        expected: expected::map_key(),
        found: found::key(key),
        nearest,
    }
}

/// A member by name: what a required member's error expects, and what a closed object's error
/// found.
pub(crate) fn member(name: &str) -> String {
    format!("the member `{name}`")
}

/// "Expected" descriptions of the structural rules, shared by both paths (the scalar rules
/// word theirs in `checks.rs`).
pub(crate) mod expected {
    use std::borrow::Borrow;
    use std::fmt::Display;

    use crate::program::Record;

    /// A literal's value.
    pub(crate) fn exactly(value: impl Display) -> String {
        format!("exactly {value}")
    }

    /// A tuple's length.
    pub(crate) fn array_of_exactly(len: usize) -> String {
        format!("an array of exactly {}", crate::checks::items(len))
    }

    /// A union's discriminator member, absent.
    pub(crate) fn discriminator(member: &str) -> String {
        format!("an object with the member `{member}` that picks the arm")
    }

    /// A discriminator's tags.
    pub(crate) fn one_of_tags<S: Borrow<str>>(tags: &[S]) -> String {
        format!("one of {}", tags.join(", "))
    }

    /// A union's arms, by kind.
    pub(crate) fn union_arms<S: Borrow<str>>(arms: &[S]) -> String {
        format!("one of the union's arms ({})", arms.join(" | "))
    }

    /// A required param, by name.
    pub(crate) fn param(name: &str) -> String {
        format!("the param `{name}`")
    }

    /// A required param sent by position.
    pub(crate) fn param_at(name: &str, position: usize) -> String {
        format!("the param `{name}` at position {position}")
    }

    /// More params by position than declared.
    pub(crate) fn at_most_params(declared: usize) -> String {
        format!("at most {declared} params")
    }

    /// A map key its key type refuses.
    pub(crate) fn map_key() -> String {
        "a key the map's key type accepts".to_owned()
    }

    /// "only the members …" for a closed object.
    pub(crate) fn closed(record: &Record) -> String {
        let names: Vec<String> =
            record.members.list.iter().take(12).map(|m| format!("`{}`", m.name)).collect();
        if names.is_empty() {
            "no members (the object is closed)".to_owned()
        } else {
            format!("only the members {} (the object is closed)", names.join(", "))
        }
    }
}
