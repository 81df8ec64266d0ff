//! The safety policy: which methods a run may call, decided from each method's semantics
//! (format.md §6.2) and what the operator allowed. The policy is the only door to the wire for a
//! contract method: the phases ask [`Policy::decide`] and send nothing to a method it skips.

use accord_schema_model::{Document, Method};

use crate::Error;

/// A semantics class as `--allow` names it: the model's one reading of semantics.
pub use accord_schema_model::SemanticsClass as Class;

/// What the operator allowed: semantics classes, and single methods named `namespace.method`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    classes: Vec<Class>,
    methods: Vec<String>,
}

impl Default for Policy {
    /// `read` methods only.
    fn default() -> Self {
        Policy { classes: vec![Class::Read], methods: Vec::new() }
    }
}

/// Whether one method is called, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Called: its class is allowed, or it was named.
    Call,
    /// Not called, with the reason and the option that would allow it.
    Skip(String),
}

impl Policy {
    /// The default policy plus the `--allow` entries (comma-separated classes or method names),
    /// checked against `doc`: a method name the contract does not have is refused, so a typo
    /// never silently allows nothing.
    ///
    /// # Errors
    ///
    /// [`Error::Allow`] for an entry that is neither a class nor a method of the contract.
    pub fn with_allowed<'a>(
        doc: &Document,
        entries: impl IntoIterator<Item = &'a str>,
    ) -> Result<Policy, Error> {
        let mut policy = Policy::default();
        for entry in entries.into_iter().flat_map(|e| e.split(',')) {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            if let Some(class) = Class::from_name(entry) {
                if !policy.classes.contains(&class) {
                    policy.classes.push(class);
                }
            } else if crate::contract_method(doc, entry).is_some() {
                policy.methods.push(entry.to_owned());
            } else {
                let classes: Vec<&str> = Class::ALL.iter().map(|c| c.as_str()).collect();
                return Err(Error::Allow {
                    entry: entry.to_owned(),
                    reason: format!(
                        "neither a semantics class ({}) nor a method of the contract (namespace.method)",
                        classes.join(", ")
                    ),
                });
            }
        }
        policy.classes.sort();
        Ok(policy)
    }

    /// Whether `name` (`namespace.method`) may be called.
    pub fn decide(&self, name: &str, method: &Method) -> Decision {
        let class = Class::of(method);
        if self.classes.contains(&class) || self.methods.iter().any(|m| m == name) {
            return Decision::Call;
        }
        Decision::Skip(match class {
            Class::Undeclared => format!(
                "undeclared semantics (ask before pressing); --allow undeclared or --allow {name}"
            ),
            other => format!("{}; --allow {} or --allow {name}", other.as_str(), other.as_str()),
        })
    }

    /// The classes allowed, in order.
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }
}
