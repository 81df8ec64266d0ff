//! Reproducer transcripts: the exchange of one check, one line per message, as execution-apis'
//! `.io` files write them. `>> ` is what conform sent, `<< ` what the plant answered, `// ` a
//! note that sets how the following lines travel (`// transport: http|ws`, `// credential:
//! none|wrong|right`) or says what happened (`// http status 401`, `// no answer`).

use std::fmt::Write as _;

use crate::Error;

/// How a message travels (accord-wire's one name for it).
pub use accord_wire::Transport;

/// A transport as a `// transport:` note writes it (`http`, `ws`: the `.io` files' short names).
pub(crate) fn note_name(transport: Transport) -> &'static str {
    match transport {
        Transport::Http => "http",
        Transport::WebSocket => "ws",
    }
}

/// Which credential a message carries (docs/wire.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    /// No `Authorization` header.
    None,
    /// A bearer token that is not the plant's.
    Wrong,
    /// The token given (or none, for a plant without credentials).
    Right,
}

impl Credential {
    /// As written in notes.
    pub fn as_str(self) -> &'static str {
        match self {
            Credential::None => "none",
            Credential::Wrong => "wrong",
            Credential::Right => "right",
        }
    }
}

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// `// text`.
    Note(String),
    /// `>> text`: sent.
    Sent(String),
    /// `<< text`: received.
    Received(String),
}

/// The exchange of one check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The lines, in order.
    pub lines: Vec<Line>,
}

impl Transcript {
    /// Adds a note.
    pub fn note(&mut self, text: impl Into<String>) {
        self.lines.push(Line::Note(text.into()));
    }

    /// Adds what was sent.
    pub fn sent(&mut self, text: &str) {
        self.lines.push(Line::Sent(one_line(text)));
    }

    /// Adds what was received.
    pub fn received(&mut self, text: &str) {
        self.lines.push(Line::Received(one_line(text)));
    }

    /// Notes the transport and credential of the lines that follow.
    pub fn route(&mut self, transport: Transport, credential: Credential) {
        self.note(format!("transport: {}", note_name(transport)));
        self.note(format!("credential: {}", credential.as_str()));
    }

    /// The transcript as text, one line per message, each ending in a newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            let _ = match line {
                Line::Note(t) => writeln!(out, "// {t}"),
                Line::Sent(t) => writeln!(out, ">> {t}"),
                Line::Received(t) => writeln!(out, "<< {t}"),
            };
        }
        out
    }

    /// Reads a transcript; blank lines are skipped.
    ///
    /// # Errors
    ///
    /// [`Error::Transcript`] for a line that starts with none of `//`, `>>` and `<<`.
    pub fn parse(text: &str) -> Result<Transcript, Error> {
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let raw = raw.trim_end_matches('\r');
            if raw.trim().is_empty() {
                continue;
            }
            let rest = |prefix: &str| {
                raw[prefix.len()..].strip_prefix(' ').unwrap_or(&raw[prefix.len()..]).to_owned()
            };
            let line = if raw.starts_with("//") {
                Line::Note(rest("//"))
            } else if raw.starts_with(">>") {
                Line::Sent(rest(">>"))
            } else if raw.starts_with("<<") {
                Line::Received(rest("<<"))
            } else {
                return Err(Error::Transcript {
                    line: i + 1,
                    reason: "a line must start with `>>` (sent), `<<` (received) or `//` (a note)"
                        .to_owned(),
                });
            };
            lines.push(line);
        }
        Ok(Transcript { lines })
    }
}

/// A message on one line: JSON is written compactly (members in the order received); anything
/// else has its line breaks escaped.
fn one_line(text: &str) -> String {
    if !text.contains('\n') && !text.contains('\r') {
        return text.to_owned();
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => value.to_string(),
        Err(_) => text.replace('\r', "\\r").replace('\n', "\\n"),
    }
}
