//! Compatibility diff of two accord contracts: which changes break callers or plants that keep
//! running while a rollout or a rollback is under way.
//!
//! This layer sits on `accord-schema-model` (the documents) and `accord-validate` (its value
//! generator and validators, for witness values) and must never depend on serve or the cli: the
//! cli renders its [`Report`], and later layers (check, a CI gate) take it by itself. It does no
//! IO.
//!
//! # Overview
//!
//! One comparison engine walks old and new under a [`Polarity`]: params are written by callers
//! and read by the plant ([`Polarity::Input`]: the new plant must accept all that old callers
//! send); results, event payloads and error data are written by the plant and read by callers
//! ([`Polarity::Output`]: old callers must accept all that the new plant sends). The engine only
//! names rules; every [`CompatRule`] in [`RULES`] carries its level per polarity, so one verdict
//! flips by polarity and never by duplicated code. A named type is compared once per polarity
//! that reaches it, and its findings say which positions reach it.
//!
//! Two pairings are judged apart: old callers against the new plant (the rule's level under the
//! position's polarity) and new callers against the old plant (the level under the other
//! polarity). The rollout advice follows from the two.
//!
//! # Example
//!
//! ```
//! use accord_compat_diff::{Level, Source, diff};
//!
//! let old = Source::parse("old.types.json", r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0",
//!   "methods": {"start": {"params": [{"name": "rpm", "type": {"kind": "integer", "max": 3000}}],
//!     "result": {"kind": "null"}}}}}}"#)?;
//! let new = Source::parse("new.types.json", r#"{"schema": 1, "namespaces": {"pump": {"version": "2.0.0",
//!   "methods": {"start": {"params": [{"name": "rpm", "type": {"kind": "integer", "max": 1000}}],
//!     "result": {"kind": "null"}}}}}}"#)?;
//! let report = diff(&old, &new);
//! let finding = &report.findings[0];
//! assert_eq!((finding.rule, finding.level), ("bound-tightened", Level::Breaking));
//! assert_eq!(finding.path, "pump.start.params.rpm");
//! assert!(finding.witness.is_some(), "a value old callers may send that the new plant refuses");
//! # Ok::<(), accord_compat_diff::Error>(())
//! ```

mod compare;
mod report;
mod rules;
mod version;
mod wire;
mod witness;

use accord_schema_model::Document;

pub use crate::{
    compare::{PositionKind, compare_types},
    report::{Finding, Location, Pairing, Report, SchemaDifference},
    rules::{Category, CompatRule, Level, Polarity, RULES, rule, rules_markdown},
};

/// What can go wrong before a comparison.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A document could not be read.
    #[error("{file}: {source}")]
    Parse {
        /// The file as named by the caller.
        file: String,
        /// What the reader refused.
        #[source]
        source: accord_schema_model::Error,
    },
}

/// A document with the text and file name it was read from (for line and column).
#[derive(Debug, Clone)]
pub struct Source {
    /// The file name shown in findings.
    pub file: String,
    /// The text.
    pub text: String,
    /// The document read from it.
    pub document: Document,
}

impl Source {
    /// Reads `text` as a document named `file`.
    ///
    /// # Errors
    ///
    /// [`Error::Parse`] when the reader refuses the text.
    pub fn parse(file: &str, text: &str) -> Result<Source, Error> {
        let document = Document::parse(text)
            .map_err(|source| Error::Parse { file: file.to_owned(), source })?;
        Ok(Source { file: file.to_owned(), text: text.to_owned(), document })
    }

    /// A source for a document that has no text (findings carry no line and column).
    pub fn from_document(file: &str, document: Document) -> Source {
        Source { file: file.to_owned(), text: String::new(), document }
    }
}

/// Compares `old` with `new`: every finding for both pairings, the version policy, and the
/// schema difference.
pub fn diff(old: &Source, new: &Source) -> Report {
    let mut cx = compare::Comparison::new(&old.document, &new.document);
    cx.documents();
    let mut changes = cx.changes;
    // The wire section (how callers reach the plant): nothing when neither side has one.
    changes.extend(wire::changes(&old.document, &new.document));
    changes.extend(version::policy(&old.document, &new.document, &changes));
    report::build(old, new, changes)
}
