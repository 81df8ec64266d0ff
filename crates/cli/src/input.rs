//! Reading documents from files, with every failure turned into a rendered diagnostic.

use std::path::Path;

use accord_schema_model::Document;

use crate::diagnostic;

/// A document read from a file, with the text it was read from.
pub(crate) struct Loaded {
    pub(crate) text: String,
    pub(crate) document: Document,
}

/// Reads and parses `path`; on failure prints the diagnostic to stderr and returns `None`.
pub(crate) fn load(path: &Path) -> Option<Loaded> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            diagnostic::print_io_error(path, &err);
            return None;
        }
    };
    match Document::parse_bytes(&bytes) {
        Ok(document) => {
            // parse_bytes succeeded, so the bytes are UTF-8.
            let text = String::from_utf8(bytes).unwrap_or_default();
            Some(Loaded { text, document })
        }
        Err(err) => {
            diagnostic::print_parse_error(path, &bytes, &err);
            None
        }
    }
}
