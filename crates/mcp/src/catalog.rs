//! The tools a contract becomes: one per exposed method (name, title, description, schemas,
//! annotations), the `collect_events` tool when the contract declares events, and the list of
//! what is hidden and why.

use std::collections::HashMap;
use std::sync::Arc;

use accord_schema_model::{Dialect, Document, Method, MethodRoute, TypeKind, TypeNode};
use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};

use crate::Error;
use crate::annotations::annotations;
use crate::names::Names;
use crate::policy::{Class, ExposurePolicy};
use crate::schema::{input_schema, output_schema};

/// The name of the events tool.
pub const COLLECT_EVENTS: &str = "collect_events";
/// The most notifications one `collect_events` call waits for.
pub const MAX_EVENTS: u64 = 100;
/// The longest one `collect_events` call waits, in milliseconds.
pub const MAX_EVENT_WAIT_MS: u64 = 60_000;

/// One exposed method.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MethodTool {
    /// The method as the wire reaches it.
    pub route: MethodRoute,
    /// The MCP tool.
    pub tool: Tool,
    /// Its semantics class.
    pub class: Class,
}

/// A method left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hidden {
    /// The contract name, `namespace.method`.
    pub method: String,
    /// Why it is not exposed.
    pub reason: String,
}

/// Every tool of one contract under one policy.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The method tools, in document order.
    pub methods: Vec<MethodTool>,
    /// The events tool, when the contract declares events.
    pub events: Option<Tool>,
    /// The events `collect_events` takes, `namespace.event`, in document order.
    pub event_names: Vec<String>,
    /// What is hidden.
    pub hidden: Vec<Hidden>,
    /// Tool name → index in `methods`.
    by_name: HashMap<String, usize>,
}

impl Catalog {
    /// The tools of `doc` under `policy`; `open_world` is the backend's (false for the fake).
    ///
    /// # Errors
    ///
    /// [`Error::Schema`] when a method's params or result cannot be exported.
    pub fn build(
        doc: &Document,
        dialect: &Dialect,
        policy: &ExposurePolicy,
        open_world: bool,
    ) -> Result<Catalog, Error> {
        let mut names = Names::default();
        if dialect.events().next().is_some() {
            names.reserve(COLLECT_EVENTS, "accord");
        }
        let mut methods = Vec::new();
        let mut hidden = Vec::new();
        for route in dialect.methods() {
            let Some(m) = method(doc, &route.namespace, &route.method) else { continue };
            let class = Class::of(m);
            if let Err(reason) = policy.decide(&route.qualified(), class) {
                hidden.push(Hidden { method: route.qualified(), reason });
                continue;
            }
            let name = names.assign(&route.qualified());
            let input = input_schema(doc, &route.namespace, &route.method, m)?;
            let output = output_schema(doc, &route.namespace, &route.method)?;
            let tool = Tool::new(name, description(m, class), object(input))
                .with_title(route.wire_name.clone())
                .with_raw_output_schema(Arc::new(object(output)))
                .with_annotations(annotations(class, open_world));
            methods.push(MethodTool { route: route.clone(), tool, class });
        }
        let event_names: Vec<String> = dialect.events().map(|(name, _)| name.to_owned()).collect();
        // Collecting events changes nothing on the plant: gated like a read, so exposed even
        // under --read-only.
        let events = (!event_names.is_empty()).then(|| events_tool(&event_names, open_world));
        let by_name =
            methods.iter().enumerate().map(|(i, t)| (t.tool.name.to_string(), i)).collect();
        Ok(Catalog { methods, events, event_names, hidden, by_name })
    }

    /// Every tool, the method tools first.
    pub fn tools(&self) -> Vec<Tool> {
        self.methods.iter().map(|t| t.tool.clone()).chain(self.events.clone()).collect()
    }

    /// The method tool named `name`.
    pub fn method(&self, name: &str) -> Option<&MethodTool> {
        self.by_name.get(name).map(|&i| &self.methods[i])
    }

    /// What `accord mcp` prints to stderr at start: each tool with the method it calls, then
    /// each hidden method with its reason.
    pub fn exposure(&self) -> String {
        let mut out =
            format!("exposed ({}):\n", self.methods.len() + usize::from(self.events.is_some()));
        for t in &self.methods {
            let qualified = t.route.qualified();
            let wire = if t.route.wire_name == qualified {
                String::new()
            } else {
                format!(", wire name {}", t.route.wire_name)
            };
            out.push_str(&format!("  {}: {qualified} [{}{wire}]\n", t.tool.name, t.class.as_str()));
        }
        if self.events.is_some() {
            out.push_str(&format!("  {COLLECT_EVENTS}: {} [read]\n", self.event_names.join(", ")));
        }
        out.push_str(&format!("hidden ({}):\n", self.hidden.len()));
        for h in &self.hidden {
            out.push_str(&format!("  {}: {}\n", h.method, h.reason));
        }
        out
    }
}

/// The method `ns.name` of `doc`.
pub(crate) fn method<'d>(doc: &'d Document, ns: &str, name: &str) -> Option<&'d Method> {
    doc.namespaces.as_ref()?.get(ns)?.methods.as_ref()?.get(name)
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// A description an agent can act on: what the method does, what calling it does to the
/// plant, units, declared errors, deprecation.
fn description(m: &Method, class: Class) -> String {
    let mut out = String::new();
    if let Some(d) = &m.description {
        out.push_str(d.trim());
        out.push('\n');
    }
    if let Some(d) = m.deprecated.as_ref().filter(|d| d.is_deprecated()) {
        match d {
            accord_schema_model::Deprecated::Note(note) => {
                out.push_str(&format!("DEPRECATED: {note}\n"));
            }
            accord_schema_model::Deprecated::Flag(_) => out.push_str("DEPRECATED.\n"),
        }
    }
    out.push_str(match class {
        Class::Read => "Semantics: read (no effect on the plant).\n",
        Class::Idempotent => "Semantics: idempotent (changes the plant; repeating it is harmless).\n",
        Class::Write => "Semantics: write (changes the plant; each call has its effect again).\n",
        Class::Destructive => "Semantics: destructive (removes or overwrites plant state; ask before calling).\n",
        Class::Undeclared => "WARNING: the contract declares no semantics for this method: treat it as destructive and ask before calling.\n",
    });
    let units: Vec<String> = m
        .params
        .iter()
        .flatten()
        .filter_map(|p| unit(&p.field.ty).map(|u| format!("{} in {u}", p.name)))
        .chain(unit(&m.result).map(|u| format!("result in {u}")))
        .collect();
    if !units.is_empty() {
        out.push_str(&format!("Units: {}.\n", units.join("; ")));
    }
    let errors: Vec<String> = m
        .errors
        .iter()
        .flatten()
        .map(|e| match &e.description {
            Some(d) => format!("{} {} ({})", e.code, e.message, d.trim()),
            None => format!("{} {}", e.code, e.message),
        })
        .collect();
    if !errors.is_empty() {
        out.push_str(&format!(
            "Errors (returned as tool errors with code, message and data): {}.\n",
            errors.join("; ")
        ));
    }
    out.trim_end().to_owned()
}

/// The unit of a number or integer type written in place (not behind a ref).
fn unit(ty: &TypeNode) -> Option<&str> {
    match &ty.kind {
        TypeKind::Integer(rules) | TypeKind::Number(rules) => rules.unit.as_deref(),
        _ => None,
    }
}

fn events_tool(events: &[String], open_world: bool) -> Tool {
    let input = json!({
        "type": "object",
        "properties": {
            "event": {"type": "string", "enum": events, "description": "The event, namespace.event."},
            "count": {"type": "integer", "minimum": 1, "maximum": MAX_EVENTS, "default": 1, "description": "Stop after this many notifications."},
            "timeoutMs": {"type": "integer", "minimum": 1, "maximum": MAX_EVENT_WAIT_MS, "default": 5000, "description": "Stop waiting after this many milliseconds."}
        },
        "required": ["event"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {"event": {"type": "string"}, "payloads": {"type": "array"}},
        "required": ["event", "payloads"]
    });
    Tool::new(
        COLLECT_EVENTS,
        "Subscribes to one of the contract's events and returns the payloads of the notifications that arrive (up to `count`, within `timeoutMs`), then unsubscribes.\nSemantics: read (no effect on the plant).",
        object(input),
    )
    .with_title("collect events")
    .with_raw_output_schema(Arc::new(object(output)))
    .with_annotations(annotations(Class::Read, open_world))
}
