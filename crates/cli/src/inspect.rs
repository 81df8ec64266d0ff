//! `accord inspect`: a short summary of a document.

use std::fmt::Write;
use std::path::PathBuf;

use accord_schema_model::{Dialect, Document, EventRoute, Method, Namespace, Semantics};
use serde_json::{Value, json};

use crate::diagnostic::escape_controls;
use crate::output::plural;
use crate::{Outcome, OutputFormat, input, output};

/// Arguments of `accord inspect`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The document to summarise.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// How to report.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.file) else {
        return Outcome::InputError;
    };
    let summary = Summary::of(&loaded.document);
    let text = match args.format {
        OutputFormat::Text => summary.text(),
        // Serializing a Value cannot fail.
        OutputFormat::Json => {
            serde_json::to_string_pretty(&summary.json()).unwrap_or_default() + "\n"
        }
    };
    // Names, semantics and the wire summary are the contract's text: written out, never
    // passed to the terminal as controls (serde_json escapes them in JSON but bidi overrides).
    if output::print(&escape_controls(&text)) { Outcome::Success } else { Outcome::InputError }
}

/// The groups methods are listed in, most harmless first; undeclared last.
const GROUPS: [&str; 5] = ["read", "idempotent", "write", "destructive", "undeclared"];

struct Summary<'a> {
    doc: &'a Document,
}

struct NamespaceSummary<'a> {
    name: &'a str,
    ns: &'a Namespace,
    /// Method names per entry of `GROUPS`.
    groups: [Vec<MethodLine<'a>>; 5],
}

struct MethodLine<'a> {
    name: &'a str,
    /// Semantics text this accord does not know, kept as written.
    unknown_semantics: Option<&'a str>,
    deprecated: bool,
}

fn group_of(method: &Method) -> usize {
    match method.declared_semantics() {
        Some(Semantics::Read) => 0,
        Some(Semantics::Idempotent) => 1,
        Some(Semantics::Write) => 2,
        Some(Semantics::Destructive) => 3,
        _ => 4,
    }
}

impl<'a> Summary<'a> {
    fn of(doc: &'a Document) -> Self {
        Summary { doc }
    }

    fn namespaces(&self) -> Vec<NamespaceSummary<'a>> {
        let all = self.doc.namespaces.iter().flatten();
        all.map(|(name, ns)| {
            let mut groups: [Vec<MethodLine<'a>>; 5] = Default::default();
            for (method_name, method) in ns.methods.iter().flatten() {
                groups[group_of(method)].push(MethodLine {
                    name: method_name,
                    unknown_semantics: match &method.semantics {
                        Some(Semantics::Unknown(text)) => Some(text),
                        _ => None,
                    },
                    deprecated: method.deprecated.as_ref().is_some_and(|d| d.is_deprecated()),
                });
            }
            NamespaceSummary { name, ns, groups }
        })
        .collect()
    }

    fn text(&self) -> String {
        let doc = self.doc;
        let mut out = String::new();
        let _ = writeln!(out, "schema {} (this accord reads schema {})", doc.schema, readable());
        if let Some(name) = &doc.name {
            let _ = writeln!(out, "name: {name}");
        }
        let unknown = doc.unknown_member_count();
        if unknown > 0 {
            let members = plural(unknown, "member");
            let _ =
                writeln!(out, "{members} unknown to this accord: kept by fmt, ignored by checks");
        }
        if let Some(wire) = wire_summary(doc) {
            let _ = writeln!(out, "wire: {}", wire.text);
        }
        let namespaces = self.namespaces();
        let _ = writeln!(out, "{}", plural(namespaces.len(), "namespace"));
        for ns in &namespaces {
            let _ = writeln!(out);
            let mut head = format!("{} {}", ns.name, ns.ns.version);
            if let Some(component) = &ns.ns.component {
                let _ = write!(head, " (component {})", component.name);
            }
            if ns.ns.deprecated.as_ref().is_some_and(|d| d.is_deprecated()) {
                head.push_str(" [deprecated]");
            }
            let _ = writeln!(out, "{head}");
            let _ = writeln!(
                out,
                "  {}, {}, {}",
                plural(count(&ns.ns.methods), "method"),
                plural(count(&ns.ns.events), "event"),
                plural(count(&ns.ns.types), "type")
            );
            for (group, methods) in GROUPS.iter().zip(&ns.groups) {
                if methods.is_empty() {
                    continue;
                }
                let names: Vec<String> = methods
                    .iter()
                    .map(|m| {
                        let mut line = m.name.to_owned();
                        if let Some(text) = m.unknown_semantics {
                            let _ = write!(line, " (semantics `{text}` unknown to this accord)");
                        }
                        if m.deprecated {
                            line.push_str(" [deprecated]");
                        }
                        line
                    })
                    .collect();
                let mut row = format!("  {group:<12} {}", names.join(", "));
                if *group == "undeclared" {
                    row.push_str(" — ask before pressing");
                }
                let _ = writeln!(out, "{row}");
            }
            // One line per method that has links or causes, under a heading like the groups'.
            let flows = flows(ns.name, ns.ns);
            for (heading, lines) in [("links", &flows.links), ("causes", &flows.causes)] {
                for (i, line) in lines.iter().enumerate() {
                    let heading = if i == 0 { heading } else { "" };
                    let _ = writeln!(out, "  {heading:<12} {line}");
                }
            }
        }
        out
    }

    fn json(&self) -> Value {
        let doc = self.doc;
        let namespaces: Vec<Value> = self
            .namespaces()
            .iter()
            .map(|ns| {
                let mut methods = serde_json::Map::new();
                for (group, lines) in GROUPS.iter().zip(&ns.groups) {
                    let names: Vec<Value> = lines
                        .iter()
                        .map(|m| {
                            json!({
                                "name": m.name,
                                "deprecated": m.deprecated,
                                "unknownSemantics": m.unknown_semantics,
                            })
                        })
                        .collect();
                    methods.insert((*group).to_owned(), Value::Array(names));
                }
                let mut summary = json!({
                    "name": ns.name,
                    "version": ns.ns.version,
                    "component": ns.ns.component.as_ref().map(|c| &c.name),
                    "deprecated": ns.ns.deprecated.as_ref().is_some_and(|d| d.is_deprecated()),
                    "counts": {
                        "methods": count(&ns.ns.methods),
                        "events": count(&ns.ns.events),
                        "types": count(&ns.ns.types),
                    },
                    "methods": methods,
                });
                // Only a namespace with links or causes gets the members, so the summary of
                // every other document is what it was before they existed.
                let flows = flows(ns.name, ns.ns);
                if let Some(members) = summary.as_object_mut() {
                    if !flows.links_json.is_empty() {
                        members.insert("links".to_owned(), Value::Array(flows.links_json));
                    }
                    if !flows.causes_json.is_empty() {
                        members.insert("causes".to_owned(), Value::Array(flows.causes_json));
                    }
                }
                summary
            })
            .collect();
        let mut out = json!({
            "schema": doc.schema,
            "readableSchemas": accord_schema_model::READABLE_SCHEMAS,
            "name": doc.name,
            "unknownMembers": doc.unknown_member_count(),
            "namespaces": namespaces,
        });
        // Only a document with a `wire` section gets the member, so the summary of every
        // document in accord's own dialect is what it was before the section existed.
        if let (Some(wire), Some(members)) = (wire_summary(doc), out.as_object_mut()) {
            members.insert("wire".to_owned(), wire.json);
        }
        out
    }
}

/// A namespace's links and causes, in words (one entry per source method) and as JSON.
struct Flows {
    links: Vec<String>,
    causes: Vec<String>,
    links_json: Vec<Value>,
    causes_json: Vec<Value>,
}

/// The links and causes of the methods of namespace `name`: `enqueue → claim (queue =
/// $params.queue)`, `enqueue: jobEnqueued`. A target in another namespace is named
/// `namespace.name`.
fn flows(name: &str, ns: &Namespace) -> Flows {
    let mut flows = Flows {
        links: Vec::new(),
        causes: Vec::new(),
        links_json: Vec::new(),
        causes_json: Vec::new(),
    };
    let qualified = |target_ns: &str, item: &str| {
        if target_ns == name { item.to_owned() } else { format!("{target_ns}.{item}") }
    };
    for (method_name, method) in ns.methods.iter().flatten() {
        let links = method.links.iter().flatten();
        let targets: Vec<String> = links
            .map(|(link_name, link)| {
                let (target_ns, target) = link.target(name);
                let params: Vec<String> = link
                    .params
                    .iter()
                    .flatten()
                    .map(|(param, value)| match value {
                        Value::String(text) => format!("{param} = {text}"),
                        other => format!("{param} = {other}"),
                    })
                    .collect();
                flows.links_json.push(json!({
                    "from": method_name,
                    "name": link_name,
                    "to": format!("{target_ns}.{target}"),
                    "params": link.params.as_ref().map(|p| {
                        p.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<serde_json::Map<_, _>>()
                    }),
                }));
                let mut text = qualified(target_ns, target);
                if link_name != target {
                    text = format!("{link_name}: {text}");
                }
                if !params.is_empty() {
                    let _ = write!(text, " ({})", params.join(", "));
                }
                text
            })
            .collect();
        if !targets.is_empty() {
            flows.links.push(format!("{method_name} → {}", targets.join(", ")));
        }
        let events: Vec<String> = method
            .causes
            .iter()
            .flatten()
            .map(|cause| {
                let (event_ns, event) = cause.target(name);
                flows
                    .causes_json
                    .push(json!({ "method": method_name, "event": format!("{event_ns}.{event}") }));
                qualified(event_ns, event)
            })
            .collect();
        if !events.is_empty() {
            flows.causes.push(format!("{method_name}: {}", events.join(", ")));
        }
    }
    flows
}

/// The dialect a document with a `wire` section is spoken in, in words and as JSON; `None` for
/// accord's own.
struct WireSummary {
    text: String,
    json: Value,
}

fn wire_summary(doc: &Document) -> Option<WireSummary> {
    let dialect = match Dialect::of(doc) {
        Ok(dialect) if dialect.is_accord() => return None,
        Ok(dialect) => dialect,
        Err(err) => {
            return Some(WireSummary {
                text: format!("cannot be resolved: {err}"),
                json: json!({"error": err.to_string()}),
            });
        }
    };
    let example = dialect.methods().next().map(|m| m.wire_name.clone());
    let describe = dialect.describe.clone();
    let pubsub = dialect.events().filter(|(_, r)| matches!(r, EventRoute::Pubsub(_))).count();
    let events = dialect.events().count();
    let mut text = String::new();
    if let Some(example) = &example {
        let _ = write!(text, "methods called like `{example}`, ");
    }
    let _ = write!(
        text,
        "describe {}, codes {}",
        describe.as_deref().map_or("none".to_owned(), |d| format!("`{d}`")),
        dialect.codes.profile.as_str()
    );
    if events > 0 {
        let _ = write!(text, ", {pubsub} of {} pubsub", plural(events, "event"));
    }
    Some(WireSummary {
        text,
        json: json!({
            "exampleMethod": example,
            "describe": describe,
            "codesProfile": dialect.codes.profile.as_str(),
            "events": events,
            "pubsubEvents": pubsub,
        }),
    })
}

fn count<T>(map: &Option<indexmap::IndexMap<String, T>>) -> usize {
    map.as_ref().map_or(0, |m| m.len())
}

fn readable() -> String {
    accord_schema_model::READABLE_SCHEMAS.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}
