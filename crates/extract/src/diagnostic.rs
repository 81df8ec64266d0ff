//! What extract says about the source: refusals, opaque types, hazards. Each is data with a
//! stable code and a place (file:line:column), never a panic and never a silent `any`.

use std::fmt;

/// How serious a diagnostic is: the model's one `Severity`, shared with validate's lint.
pub use accord_schema_model::Severity;

/// A place in the source: the file as named in the sources, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Location {
    /// The file, relative to the crate directory (`src/lib.rs`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One finding of an extraction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code (`unresolved-type`, `opaque-serde`, …); docs/extract.md lists them all.
    pub code: &'static str,
    /// What is wrong, naming the Rust item.
    pub message: String,
    /// Where.
    pub location: Location,
    /// What to do about it.
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}[{}]: {}",
            self.location,
            self.severity.as_str(),
            self.code,
            self.message
        )?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

/// Collects diagnostics, keeping the file every span of the moment belongs to.
#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    pub(crate) all: Vec<Diagnostic>,
    seen: std::collections::HashSet<Diagnostic>,
    /// `--strict`: what extract cannot describe (read as any value) is an error, not a warning.
    pub(crate) strict: bool,
}

impl Diagnostics {
    pub(crate) fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        location: Location,
        message: String,
        help: Option<String>,
    ) {
        let d = Diagnostic { severity, code, message, location, help };
        // One construct reached from several places is reported once.
        if self.seen.insert(d.clone()) {
            self.all.push(d);
        }
    }

    pub(crate) fn error(
        &mut self,
        code: &'static str,
        at: Location,
        message: String,
        help: Option<String>,
    ) {
        self.push(Severity::Error, code, at, message, help);
    }

    /// A type extract cannot describe and reads as any value: a warning, an error under
    /// `--strict` (the contract is then not written).
    pub(crate) fn undescribed(
        &mut self,
        code: &'static str,
        at: Location,
        message: String,
        help: Option<String>,
    ) {
        if self.strict {
            self.push(Severity::Error, code, at, message, help);
        } else {
            self.push(Severity::Warning, code, at, format!("{message}; read as any value"), help);
        }
    }

    pub(crate) fn warn(
        &mut self,
        code: &'static str,
        at: Location,
        message: String,
        help: Option<String>,
    ) {
        self.push(Severity::Warning, code, at, message, help);
    }
}

/// The location of a span in `file`.
pub(crate) fn locate(file: &str, span: proc_macro2::Span) -> Location {
    let start = span.start();
    Location { file: file.to_owned(), line: start.line, column: start.column + 1 }
}
