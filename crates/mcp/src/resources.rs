//! The resources an agent can read: the contract (the plant's describe answer, or the document
//! itself when its wire has no describe method) and each namespace's named types.

use accord_schema_model::Document;
use rmcp::model::Resource;
use serde_json::Value;

/// The URI of the contract resource.
pub(crate) const CONTRACT_URI: &str = "accord://contract";
/// The prefix of a namespace's types resource: `accord://types/pump`.
pub(crate) const TYPES_PREFIX: &str = "accord://types/";

/// The resources, listed once and read by URI.
pub(crate) struct Resources {
    /// The document as the model writes it.
    pub(crate) document: String,
    /// Each namespace's `types`, as the model writes them, by namespace.
    pub(crate) types: Vec<(String, String)>,
}

impl Resources {
    pub(crate) fn build(doc: &Document) -> Resources {
        let document = doc.to_canonical_string();
        // The model's writer is the one writer: each namespace's part is taken from its output.
        let written = doc.to_value();
        let types = doc
            .namespaces
            .iter()
            .flatten()
            .map(|(ns, _)| {
                let part = written
                    .pointer(&format!(
                        "/namespaces/{}/types",
                        ns.replace('~', "~0").replace('/', "~1")
                    ))
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Default::default()));
                let text = serde_json::to_string_pretty(&part).unwrap_or_default();
                (ns.clone(), text)
            })
            .collect();
        Resources { document, types }
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
        for (ns, _) in &self.types {
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

    /// The types text of the namespace a `accord://types/NS` URI names.
    pub(crate) fn types_of(&self, uri: &str) -> Option<&str> {
        let ns = uri.strip_prefix(TYPES_PREFIX)?;
        self.types.iter().find(|(n, _)| n == ns).map(|(_, t)| t.as_str())
    }
}
