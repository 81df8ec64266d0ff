//! The resources an agent can read: the contract (the plant's describe answer, or the document
//! itself when its wire has no describe method) and each namespace's named types.

use accord_schema_model::Document;
use rmcp::model::Resource;
use serde_json::Value;

/// The URI of the contract resource.
pub(crate) const CONTRACT_URI: &str = "accord://contract";
/// The prefix of a namespace's types resource: `accord://types/pump`.
pub(crate) const TYPES_PREFIX: &str = "accord://types/";

/// The resources, listed once and read by URI. Their texts are written when read, not at
/// start-up: writing a large contract twice (the document and its types) was a fifth of
/// `accord mcp`'s start-up for 1,000 methods, for resources an agent may never read.
pub(crate) struct Resources {
    /// The namespaces, each with a types resource.
    namespaces: Vec<String>,
}

impl Resources {
    pub(crate) fn build(doc: &Document) -> Resources {
        Resources {
            namespaces: doc.namespaces.iter().flatten().map(|(ns, _)| ns.clone()).collect(),
        }
    }

    /// The document as the model writes it.
    pub(crate) fn document(doc: &Document) -> String {
        doc.to_canonical_string()
    }

    /// The list `resources/list` answers.
    pub(crate) fn list(&self) -> Vec<Resource> {
        let mut out = vec![
            Resource::new(CONTRACT_URI, "contract")
                .with_title("The contract")
                .with_description(
                    "The plant's describe answer (the contract it serves), or the contract document when its wire has no describe method.",
                )
                .with_mime_type("application/json"),
        ];
        for ns in &self.namespaces {
            out.push(
                Resource::new(format!("{TYPES_PREFIX}{ns}"), format!("{ns} types"))
                    .with_description(format!(
                        "The named types of namespace `{ns}`, as the contract writes them."
                    ))
                    .with_mime_type("application/json"),
            );
        }
        out
    }

    /// The types text of the namespace a `accord://types/NS` URI names: the namespace's part of
    /// what the model's writer writes (the one writer).
    pub(crate) fn types_of(&self, doc: &Document, uri: &str) -> Option<String> {
        let ns = uri.strip_prefix(TYPES_PREFIX)?;
        if !self.namespaces.iter().any(|n| n == ns) {
            return None;
        }
        let written = doc.to_value();
        let pointer = format!("/namespaces/{}/types", ns.replace('~', "~0").replace('/', "~1"));
        let part =
            written.pointer(&pointer).cloned().unwrap_or_else(|| Value::Object(Default::default()));
        Some(serde_json::to_string_pretty(&part).unwrap_or_default())
    }
}
