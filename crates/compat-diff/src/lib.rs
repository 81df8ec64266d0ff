#![doc = include_str!("../README.md")]

mod compare;
mod report;
mod rules;
pub mod usage;
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
#[non_exhaustive]
pub enum Error {
    /// A document could not be read. The reader's error is printed in the message and so is
    /// not also a `source` (a reporter walking the chain would print it twice).
    #[error("{file}: {error}")]
    Parse {
        /// The file as named by the caller.
        file: String,
        /// What the reader refused.
        error: accord_schema_model::Error,
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
        let document =
            Document::parse(text).map_err(|error| Error::Parse { file: file.to_owned(), error })?;
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
