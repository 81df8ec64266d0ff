//! Rendering errors for people: miette reports with a source snippet, the file's
//! path:line:column, the JSON pointer, and help on what to do.

use std::io::IsTerminal;
use std::path::Path;

use accord_schema_model::{Error, ErrorKind, READABLE_SCHEMAS, is_newer_than_readable};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

/// A document that could not be read, as miette shows it.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
struct ParseDiagnostic {
    message: String,
    #[source_code]
    source_code: Snippet,
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

/// `text` with every control character but line feed and tab (ESC, CR, BEL, C1 controls) and
/// every bidirectional override written out as `\u001b`, JSON's way: names and values from a
/// contract reach the terminal in messages, and a contract must not be able to drive the
/// terminal (clear it, hide text, reorder a line).
pub(crate) fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let drives = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    // Every such character starts with a byte below 0x20, DEL, or 0xC2 (C1) or 0xE2 (the
    // overrides) as its lead byte: text without those bytes (the request log's lines, almost
    // always) is passed through after one pass over its bytes, no decoding. The pass does not
    // stop early, so that it compiles to vector instructions.
    let may_drive =
        |b: u8| (b < 0x20 && b != b'\n' && b != b'\t') | (b == 0x7F) | (b == 0xC2) | (b == 0xE2);
    let suspect = text.bytes().fold(false, |seen, b| seen | may_drive(b));
    if !suspect || !text.chars().any(drives) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if drives(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The text of a snippet with its control characters made harmless without moving a byte:
/// each becomes as many `?` as it has bytes, so that every span still points where it did.
fn harmless(text: String) -> String {
    if !text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        return text;
    }
    text.chars()
        .flat_map(|c| {
            let n =
                if c.is_control() && !matches!(c, '\n' | '\t' | '\r') { c.len_utf8() } else { 0 };
            let keep = (n == 0).then_some(c);
            keep.into_iter().chain(std::iter::repeat_n('?', n))
        })
        .collect()
}

/// The rendered report: a `path:line:column` header line for editors and CI logs, then the
/// miette report with the snippet.
pub(crate) fn render_parse_error(path: &Path, bytes: &[u8], err: &Error) -> String {
    let mut out = String::new();
    let position = err.position.map(|p| format!(":{}:{}", p.line, p.column)).unwrap_or_default();
    // One header form for every finding (`file:line:col: level[id]: message`), as editors
    // and CI annotations read it.
    out.push_str(&format!(
        "{}{position}: error[{}]: {}\n",
        escape_controls(&path.display().to_string()),
        err.kind.code(),
        escape_controls(&err.kind.to_string())
    ));

    // Invalid UTF-8 is shown with replacement characters; the error stands at the first
    // invalid byte, and every byte before it is the same in the lossy text.
    let text = harmless(String::from_utf8_lossy(bytes).into_owned());
    let span = err.span.map_or((0, 0).into(), |s| {
        let start = s.start.min(text.len());
        let len = if matches!(*err.kind, ErrorKind::InvalidUtf8) { 0 } else { s.len() };
        SourceSpan::from((start, len.min(text.len() - start)))
    });
    let report = ParseDiagnostic {
        message: format!("at {}", escape_controls(&abbreviate(&err.pointer.to_string()))),
        source_code: Snippet { name: escape_controls(&path.display().to_string()).into(), text },
        span,
        label: label(&err.kind).to_owned(),
        help: misspelt_required(bytes, err).or_else(|| help(&err.kind)),
        code: format!("accord::{}", err.kind.code()),
    };
    render(&mut out, &report, std::io::stderr().is_terminal());
    out
}

/// Renders a report with miette into `out`: colours only on a terminal and without NO_COLOR,
/// 100 columns wide.
fn render(out: &mut String, report: &dyn Diagnostic, to_terminal: bool) {
    let theme = if to_terminal && std::env::var_os("NO_COLOR").is_none() {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    // Rendering into a String cannot fail.
    let _ = handler.render_report(out, report);
}

fn label(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::InvalidUtf8 => "not UTF-8",
        ErrorKind::Syntax { .. } => "here",
        ErrorKind::Empty => "nothing here",
        ErrorKind::Truncated => "the text ends here",
        ErrorKind::TooDeep { .. } => "too deep",
        ErrorKind::DuplicateKey { .. } => "second occurrence",
        ErrorKind::IntegerOutOfRange { .. } => "past the 64-bit range",

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

/// For a missing required member, the member beside it that is one slip from its name
/// (`paylod` for `payload`): the usual cause, and a help that says so.
fn misspelt_required(bytes: &[u8], err: &Error) -> Option<String> {
    let ErrorKind::MissingField { field, .. } = &*err.kind else { return None };
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let record = value.pointer(&err.pointer.to_string())?.as_object()?;
    let slip = accord_schema_model::members::near_miss(field, record.keys().map(String::as_str))?;
    Some(format!("`{}` is one slip from `{field}`: rename it", escape_controls(slip)))
}

fn help(kind: &ErrorKind) -> Option<String> {
    let readable = READABLE_SCHEMAS.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    Some(match kind {
        ErrorKind::UnsupportedSchema { found, .. } if is_newer_than_readable(found) => format!(
            "this accord was built for schema {readable}; a newer document needs a newer accord (`cargo install --path crates/cli` from a newer checkout)"
        ),
        ErrorKind::UnsupportedSchema { .. } => format!(
            "no accord reads this number; if the document was written for schema {readable}, write that"
        ),

        ErrorKind::MissingSchema { .. } => format!(
            "if the document was written for schema {readable}, say so: add \"schema\": 1 at the top"
        ),
        ErrorKind::SchemaNotInteger { found } if found.starts_with('"') => {
            "write the number without quotes: \"schema\": 1".to_owned()
        }
        ErrorKind::SchemaNotInteger { .. } => {
            format!("format versions are whole numbers; this accord reads schema {readable}")
        }
        ErrorKind::UnknownKind { kind } => match accord_schema_model::Kind::suggest(kind) {
            Some(meant) => format!(
                "write `\"kind\": \"{}\"`; schema 1 spells its kinds as the message lists them",
                meant.name()
            ),
            None => "a newer accord may know this kind, but then the document must carry a newer schema number".to_owned(),
        },
        ErrorKind::DuplicateKey { .. } => "keep one of the two members, or rename one".to_owned(),
        ErrorKind::TooDeep { limit } => {
            format!("contracts never need more than {limit} levels; this input is not a contract")
        }
        ErrorKind::Truncated => "the file may have been cut off while it was written or copied".to_owned(),
        ErrorKind::InvalidUtf8 => "save the file as UTF-8".to_owned(),
        _ => return None,
    })
}

/// Pointers deeper than this many segments are shown with their middle elided.
const POINTER_SEGMENTS_SHOWN: usize = 32;

/// A pointer for a message: in full, or for very deep ones (the 100,000-deep attack), the
/// first and last segments with a count of those left out.
fn abbreviate(pointer: &str) -> String {
    let segments: Vec<&str> = pointer.split('/').skip(1).collect();
    if segments.len() <= POINTER_SEGMENTS_SHOWN {
        return pointer.to_owned();
    }
    let head = segments[..6].join("/");
    let tail = segments[segments.len() - 4..].join("/");
    format!("/{head}/…({} more segments)…/{tail}", segments.len() - 10)
}

/// Lines longer than this are shown as a window around the label (minified documents are one
/// line; an attack can be a 100,000-character line).
const LONG_LINE: usize = 160;
/// Characters of context on each side of the label in a window.
const WINDOW: usize = 60;

/// The document text as miette reads it, with over-long lines cut to a window around the span.
#[derive(Debug)]
struct Snippet {
    name: String,
    text: String,
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text = self.text.as_str();
        let start = floor_char(text, span.offset().min(text.len()));
        let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |at| start + at);
        if line_end - line_start <= LONG_LINE {
            let inner = text.read_span(span, context_lines_before, context_lines_after)?;
            return Ok(Box::new(MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                *inner.span(),
                inner.line(),
                inner.column(),
                inner.line_count(),
            )));
        }
        let from = floor_char(text, start.saturating_sub(WINDOW).max(line_start));
        let to = floor_char(text, (start + span.len() + WINDOW).min(line_end));
        let line = text[..line_start].bytes().filter(|&b| b == b'\n').count();
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &text.as_bytes()[from..to],
            (from, to - from).into(),
            line,
            // miette's header shows the column of the label's start, as for short lines.
            text[line_start..start].chars().count(),
            1,
        )))
    }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One lint finding, as miette shows it.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct LintDiagnostic {
    message: String,
    source_code: Snippet,
    span: SourceSpan,
    label: String,
    help: String,
    severity: miette::Severity,
}

impl Diagnostic for LintDiagnostic {
    // No `code`: the header line names the rule already, and parse errors show none either.

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source_code)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let label = miette::LabeledSpan::new_with_span(Some(self.label.clone()), self.span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// The bytes a lint finding points at: for a member with a scalar value, the key and the value
/// (`"min": 3000`); else the key, or the value's first token. When the text does not have the
/// pointer (it always should), the nearest place above it that it has.
pub(crate) fn lint_span(
    map: &accord_schema_model::SourceMap<'_>,
    pointer: &accord_schema_model::Pointer,
) -> accord_schema_model::Span {
    let mut at = pointer.clone();
    loop {
        if let Some(located) = map.locate(&at) {
            let scalar =
                !matches!(map.text().as_bytes().get(located.value.start), Some(b'{' | b'['));
            return match located.key {
                Some(key) if scalar => {
                    accord_schema_model::Span { start: key.start, end: located.value.end }
                }
                _ => located.label(),
            };
        }
        if at.is_root() {
            return accord_schema_model::Span { start: 0, end: 0 };
        }
        at.pop();
    }
}

/// A lint finding for people: a `path:line:column: severity[rule]: message` header line for
/// editors and CI logs, then the miette report with the snippet, its label and the help.
pub(crate) fn render_lint_diagnostic(
    path: &Path,
    text: &str,
    diagnostic: &accord_validate::Diagnostic,
    span: accord_schema_model::Span,
    position: accord_schema_model::Position,
) -> String {
    let mut out = format!(
        "{}:{}:{}: {}[{}]: {}\n",
        escape_controls(&path.display().to_string()),
        position.line,
        position.column,
        diagnostic.severity,
        diagnostic.rule,
        escape_controls(&diagnostic.message)
    );
    let label = accord_validate::LintRule::find(diagnostic.rule).map_or("here", |r| r.label());
    let report = LintDiagnostic {
        message: format!("at {}", escape_controls(&abbreviate(&diagnostic.pointer.to_string()))),
        source_code: Snippet {
            name: escape_controls(&path.display().to_string()).into(),
            text: harmless(text.to_owned()),
        },
        span: SourceSpan::from((span.start, span.len())),
        label: label.to_owned(),
        help: escape_controls(&diagnostic.help).into_owned(),
        severity: match diagnostic.severity {
            accord_validate::Severity::Error => miette::Severity::Error,
            _ => miette::Severity::Warning,
        },
    };
    render(&mut out, &report, std::io::stdout().is_terminal());
    out
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn controls_and_overrides_are_escaped_and_their_lead_bytes_alone_are_not() {
        let cases = [
            ("plain text\twith a tab\n", "plain text\twith a tab\n"),
            ("esc \u{1b}[2J del \u{7f}", "esc \\u001b[2J del \\u007f"),
            ("c1 \u{85} \u{9b}", "c1 \\u0085 \\u009b"),
            ("bidi \u{202e}x\u{2067}", "bidi \\u202ex\\u2067"),
            // Lead bytes 0xC2 and 0xE2 that begin harmless characters.
            ("£ € \u{2069}", "£ € \\u2069"),
            ("£ € – ©", "£ € – ©"),
        ];
        for (text, want) in cases {
            assert_eq!(escape_controls(text), want, "{text:?}");
        }
    }
}
