//! Rendering errors for people: miette reports with a source snippet, the file's
//! path:line:column, the JSON pointer, and help on what to do.

use std::io::IsTerminal;
use std::path::Path;

use accord_schema_model::{Error, ErrorKind, READABLE_SCHEMAS};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, NamedSource, SourceSpan};

/// A document that could not be read, as miette shows it.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
struct ParseDiagnostic {
    message: String,
    #[source_code]
    source_code: NamedSource<String>,
    #[label("{label}")]
    span: SourceSpan,
    label: String,
    #[help]
    help: Option<String>,
    #[diagnostic(code)]
    code: String,
}

/// Prints a parse error of `path` to stderr.
pub(crate) fn print_parse_error(path: &Path, bytes: &[u8], err: &Error) {
    eprint!("{}", render_parse_error(path, bytes, err));
}

/// Prints an IO error of `path` to stderr.
pub(crate) fn print_io_error(path: &Path, err: &std::io::Error) {
    eprintln!("error: cannot read {}: {err}", path.display());
}

/// The rendered report: a `path:line:column` header line for editors and CI logs, then the
/// miette report with the snippet.
pub(crate) fn render_parse_error(path: &Path, bytes: &[u8], err: &Error) -> String {
    let mut out = String::new();
    let position = err
        .position
        .map(|p| format!(":{}:{}", p.line, p.column))
        .unwrap_or_default();
    out.push_str(&format!(
        "error[{}]: {}{position}: {}\n",
        err.kind.code(),
        path.display(),
        err.kind
    ));
    // Invalid UTF-8 is shown with replacement characters; the error stands at the first
    // invalid byte, and every byte before it is the same in the lossy text.
    let text = String::from_utf8_lossy(bytes).into_owned();
    let span = err.span.map_or((0, 0).into(), |s| {
        let start = s.start.min(text.len());
        let len = if matches!(err.kind, ErrorKind::InvalidUtf8) {
            0
        } else {
            s.len()
        };
        SourceSpan::from((start, len.min(text.len() - start)))
    });
    let report = ParseDiagnostic {
        message: format!("at {}", err.pointer),
        source_code: NamedSource::new(path.display().to_string(), text),
        span,
        label: label(&err.kind).to_owned(),
        help: help(&err.kind),
        code: format!("accord::{}", err.kind.code()),
    };
    let theme = if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    // Rendering into a String cannot fail.
    let _ = handler.render_report(&mut out, &report);
    out
}

fn label(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::InvalidUtf8 => "not UTF-8",
        ErrorKind::Syntax { .. } => "here",
        ErrorKind::Truncated => "the text ends here",
        ErrorKind::TooDeep { .. } => "too deep",
        ErrorKind::DuplicateKey { .. } => "second occurrence",
        ErrorKind::MissingSchema { .. } => "no `schema` in this object",
        ErrorKind::SchemaNotInteger { .. } => "not an integer",
        ErrorKind::UnsupportedSchema { .. } => "this format version",
        ErrorKind::UnknownKind { .. } => "unknown kind",
        ErrorKind::WrongType { .. } => "wrong type",
        ErrorKind::MissingField { .. } => "missing a required member",
        ErrorKind::InvalidValue { .. } => "not allowed",
        _ => "here",
    }
}

fn help(kind: &ErrorKind) -> Option<String> {
    let readable = READABLE_SCHEMAS
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    Some(match kind {
        ErrorKind::UnsupportedSchema { .. } => format!(
            "this accord was built for schema {readable}; a newer document needs a newer accord (`cargo install --path crates/cli` from a newer checkout)"
        ),
        ErrorKind::MissingSchema { .. } => format!(
            "if the document was written for schema {readable}, say so: add \"schema\": 1 at the top"
        ),
        ErrorKind::SchemaNotInteger { .. } => "write the number without quotes: \"schema\": 1".to_owned(),
        ErrorKind::UnknownKind { .. } => {
            "a newer accord may know this kind, but then the document must carry a newer schema number".to_owned()
        }
        ErrorKind::DuplicateKey { .. } => "keep one of the two members, or rename one".to_owned(),
        ErrorKind::TooDeep { limit } => {
            format!("contracts never need more than {limit} levels; this input is not a contract")
        }
        ErrorKind::Truncated => "the file may have been cut off while it was written or copied".to_owned(),
        ErrorKind::InvalidUtf8 => "save the file as UTF-8".to_owned(),
        _ => return None,
    })
}
