//! Reading documents from files, with every failure turned into a rendered diagnostic.

use std::path::Path;

use accord_schema_model::Document;

use crate::diagnostic;

/// A document read from a file, with the text it was read from.
pub(crate) struct Loaded {
    pub(crate) text: String,
    pub(crate) document: Document,
}

/// Why a document could not be read, as a report names it (the diagnostic for people is on
/// stderr already).
pub(crate) struct Unreadable {
    /// The reader's error code (`malformed-json`, `schema-missing` …), or `unreadable-file`.
    pub(crate) code: &'static str,
    /// What is wrong.
    pub(crate) message: String,
    /// The JSON Pointer of the value the error is about, when the text was read.
    pub(crate) pointer: Option<String>,
    /// Line and column (1-based), when the text was read.
    pub(crate) position: Option<(usize, usize)>,
}

/// How many of a file's structural errors are printed before "and N more".
const SHOWN_ERRORS: usize = 20;

/// Reads and parses `path`; on failure prints the diagnostic to stderr and returns `None`.
pub(crate) fn load(path: &Path) -> Option<Loaded> {
    read(path).ok()
}

/// Reads and parses `path`; on failure prints the diagnostic to stderr and says why, for the
/// reports that must carry the failure too (`check --format json|github|sarif|junit`).
pub(crate) fn read(path: &Path) -> Result<Loaded, Unreadable> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            diagnostic::print_io_error(path, &err);
            return Err(Unreadable {
                code: "unreadable-file",
                message: format!("cannot read {}: {err}", path.display()),
                pointer: None,
                position: None,
            });
        }
    };
    match Document::parse_bytes_all(&bytes) {
        Ok(document) => {
            // parse_bytes_all succeeded, so the bytes are UTF-8.
            let text = String::from_utf8(bytes).unwrap_or_default();
            Ok(Loaded { text, document })
        }
        Err(errors) => {
            // Every structural error at once, as a compiler reports them, up to a bound that
            // keeps a file of a million mistakes from flooding the terminal.
            for err in errors.iter().take(SHOWN_ERRORS) {
                diagnostic::print_parse_error(path, &bytes, err);
            }
            if errors.len() > SHOWN_ERRORS {
                eprintln!(
                    "error: and {} more error(s) in {}",
                    errors.len() - SHOWN_ERRORS,
                    path.display()
                );
            }
            let Some(err) = errors.first() else {
                return Err(Unreadable {
                    code: "unreadable-file",
                    message: format!("{} was refused without a reason", path.display()),
                    pointer: None,
                    position: None,
                });
            };
            Err(Unreadable {
                code: err.kind.code(),
                message: err.kind.to_string(),
                pointer: Some(err.pointer.to_string()),
                position: err.position.map(|p| (p.line, p.column)),
            })
        }
    }
}
