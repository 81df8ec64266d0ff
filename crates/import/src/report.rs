//! The import report: one [`Loss`] per construct of the source that the contract cannot hold
//! exactly, with where it is and what the contract accepts instead.

use serde_json::{Value, json};

/// Whether the contract accepts more or fewer values than the source at a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Accepts {
    /// The contract accepts values the source refuses.
    Wider,
    /// The contract refuses values the source accepts.
    Narrower,
}

impl Accepts {
    /// As written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Accepts::Wider => "wider",
            Accepts::Narrower => "narrower",
        }
    }
}

/// One construct the contract cannot hold exactly.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Loss {
    /// The JSON Pointer of the construct in the source document.
    pub pointer: String,
    /// A stable id of the kind of loss (`not`, `one-of-overlap`, `pattern-dialect`, …).
    pub kind: &'static str,
    /// Whether the contract accepts more or fewer values there.
    pub accepts: Accepts,
    /// What the contract does instead, in a sentence.
    pub detail: String,
}

/// Something the import decided that the user should see but that loses nothing: two
/// semantics rules matching one method, a method pair recognised as a subscription.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Note {
    /// The JSON Pointer of the construct in the source document.
    pub pointer: String,
    /// A stable id of the kind of note (`semantics-overlap`, `subscription`).
    pub kind: &'static str,
    /// What was decided, in a sentence.
    pub detail: String,
}

/// Everything an import could not carry over exactly, in source order.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// The losses, sorted by pointer then kind, each once.
    pub losses: Vec<Loss>,
    /// The notes, sorted by pointer then kind; never a loss (`--strict` ignores them).
    pub notes: Vec<Note>,
}

impl Report {
    /// A report of `losses`, sorted and without repeats (a schema inlined at two places is
    /// reported once, at its place in the source).
    pub fn new(mut losses: Vec<Loss>) -> Report {
        losses.sort();
        losses.dedup();
        Report { losses, notes: Vec::new() }
    }

    /// This report with `notes` (sorted, without repeats).
    #[must_use]
    pub fn with_notes(mut self, mut notes: Vec<Note>) -> Report {
        notes.sort();
        notes.dedup();
        self.notes = notes;
        self
    }

    /// The number of losses of each kind, by kind id.
    pub fn by_kind(&self) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for loss in &self.losses {
            match counts.iter_mut().find(|(k, _)| *k == loss.kind) {
                Some((_, n)) => *n += 1,
                None => counts.push((loss.kind, 1)),
            }
        }
        counts.sort();
        counts
    }

    /// The report as JSON: `{"losses": [{pointer, kind, accepts, detail}], "byKind": {...}}`,
    /// and `"notes": [{pointer, kind, detail}]` when there are notes.
    pub fn to_json(&self) -> Value {
        let losses: Vec<Value> = self
            .losses
            .iter()
            .map(|l| {
                json!({"pointer": l.pointer, "kind": l.kind, "accepts": l.accepts.as_str(), "detail": l.detail})
            })
            .collect();
        let by_kind: serde_json::Map<String, Value> =
            self.by_kind().into_iter().map(|(k, n)| (k.to_owned(), json!(n))).collect();
        let mut out = json!({"losses": losses, "byKind": by_kind});
        if !self.notes.is_empty() {
            let notes: Vec<Value> = self
                .notes
                .iter()
                .map(|n| json!({"pointer": n.pointer, "kind": n.kind, "detail": n.detail}))
                .collect();
            out["notes"] = Value::Array(notes);
        }
        out
    }

    /// One line per note: `POINTER: kind: detail`.
    pub fn notes_to_lines(&self) -> String {
        let mut out = String::new();
        for n in &self.notes {
            let at = crate::error::display_pointer(&n.pointer);
            out.push_str(&format!("{at}: {}: {}\n", n.kind, n.detail));
        }
        out
    }

    /// One line per loss: `POINTER: kind (wider|narrower): detail`.
    pub fn to_lines(&self) -> String {
        let mut out = String::new();
        for l in &self.losses {
            let at = crate::error::display_pointer(&l.pointer);
            out.push_str(&format!("{at}: {} ({}): {}\n", l.kind, l.accepts.as_str(), l.detail));
        }
        out
    }
}
