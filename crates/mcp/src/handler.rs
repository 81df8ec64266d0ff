//! The MCP requests: `tools/list`, `tools/call`, `resources/list`, `resources/read`.
//!
//! A call is checked before it is forwarded: an argument the method does not declare is
//! refused, then the arguments become the method's params and are validated with
//! accord-validate, so an invalid call never reaches the plant and the agent gets each error
//! with its JSON Pointer as a tool error it can correct from. A declared error of the method is
//! a tool error (`isError`) with its code, message and data; any other error the plant
//! answers, and a transport failure, is an MCP error.
//!
//! A tool error says everything in its text and carries no `structuredContent`: clients
//! validate `structuredContent` against the tool's `outputSchema` (the TypeScript SDK does, on
//! error results too), and an error is not the method's result, so it would be refused there
//! and the agent would never read why its call failed.

use std::time::Duration;

use accord_client::{Collect, Reply};
use accord_validate::Target;
use accord_wire::RpcError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::catalog::{COLLECT_EVENTS, MAX_EVENT_WAIT_MS, MAX_EVENTS, MethodTool, method};
use crate::resources::{CONTRACT_URI, Resources};
use crate::schema::{RESULT_MEMBER, argument_pointer, to_params, undeclared, unknown_arguments};
use crate::{Inner, Mcp};

impl ServerHandler for Mcp {
    fn get_info(&self) -> ServerConfig {
        let doc = &self.inner.doc;
        let mut instructions = String::from(
            "Each tool is one method of a JSON-RPC contract. Its annotations come from the semantics the contract declares; destructive and undeclared methods are hidden unless the operator allowed them.",
        );
        if let Some(d) = &doc.description {
            instructions = format!("{}\n\n{instructions}", d.trim());
        }
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(
                Implementation::new("accord-mcp", env!("CARGO_PKG_VERSION"))
                    .with_title(doc.name.clone().unwrap_or_else(|| "accord".to_owned())),
            )
            .with_instructions(instructions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.catalog.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let inner = &self.inner;
        let result = if request.name == COLLECT_EVENTS && inner.catalog.events.is_some() {
            inner.collect(args).await?
        } else {
            let Some(tool) = inner.catalog.method(&request.name) else {
                return Err(ErrorData::invalid_params(format!("no tool `{}`", request.name), None));
            };
            inner.call(tool, args).await?
        };
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.inner.resources.list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let text = if uri == CONTRACT_URI {
            self.inner.contract_text().await
        } else if let Some(types) = self.inner.resources.types_of(&self.inner.doc, &uri) {
            types
        } else {
            return Err(ErrorData::resource_not_found(format!("no resource `{uri}`"), None));
        };
        let contents = ResourceContents::text(text, uri).with_mime_type("application/json");
        Ok(ReadResourceResponse::Complete(ReadResourceResult::new(vec![contents])))
    }
}

impl Inner {
    /// One method tool's call: arguments to params, validated, forwarded, the answer mapped.
    async fn call(
        &self,
        tool: &MethodTool,
        args: Map<String, Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let route = &tool.route;
        let m = method(&self.doc, &route.namespace, &route.method)
            .ok_or_else(|| ErrorData::internal_error("the tool's method is gone", None))?;
        let unknown = undeclared(m, &args);
        if !unknown.is_empty() {
            return Ok(invalid_arguments(unknown));
        }
        let params = match to_params(m, args) {
            Ok(params) => params,
            Err(problems) => return Ok(invalid_arguments(problems)),
        };
        let target =
            Target::Params { namespace: route.namespace.clone(), method: route.method.clone() };
        let validator = self
            .contract
            .validator(&target)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        if let Err(errors) = validator.validate(&params) {
            let errors = errors
                .iter()
                .map(|e| {
                    let message =
                        format!("expected {}, found {} ({})", e.expected, e.found, e.rule.id());
                    (argument_pointer(m, &e.pointer), message)
                })
                .collect();
            return Ok(invalid_arguments(errors));
        }
        match self.client.call(&route.qualified(), Some(params)).await {
            Ok(Reply::Result(value)) => {
                Ok(CallToolResult::structured(json!({RESULT_MEMBER: value})))
            }
            Ok(Reply::Error(error)) if m.errors.iter().flatten().any(|d| d.code == error.code) => {
                Ok(declared_error(&error))
            }
            Ok(Reply::Error(error)) => Err(ErrorData::internal_error(
                format!(
                    "the plant answered {} {} (not an error this method declares)",
                    error.code, error.message
                ),
                Some(error.to_value()),
            )),
            Err(e) => Err(ErrorData::internal_error(format!("the plant: {e}"), None)),
        }
    }

    /// `collect_events`: subscribe, gather, unsubscribe.
    async fn collect(&self, args: Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let mut errors = unknown_arguments(&["event", "count", "timeoutMs"], &args);
        let event = match args.get("event").and_then(Value::as_str) {
            Some(e) if self.catalog.event_names.iter().any(|n| n == e) => e.to_owned(),
            other => {
                errors.push((
                    "/event".to_owned(),
                    format!(
                        "expected one of {}, found {}",
                        self.catalog.event_names.join(", "),
                        other.map_or("nothing".to_owned(), |o| format!("`{o}`"))
                    ),
                ));
                String::new()
            }
        };
        let mut bounded = |name: &str, default: u64, max: u64| match args.get(name) {
            None => default,
            Some(v) => match v.as_u64().filter(|n| (1..=max).contains(n)) {
                Some(n) => n,
                None => {
                    errors.push((
                        format!("/{name}"),
                        format!("expected an integer from 1 to {max}, found {v}"),
                    ));
                    default
                }
            },
        };
        let count = bounded("count", 1, MAX_EVENTS);
        let wait = bounded("timeoutMs", 5000, MAX_EVENT_WAIT_MS);
        if !errors.is_empty() {
            return Ok(invalid_arguments(errors));
        }
        let mut collect = Collect::new(count as usize, Duration::from_millis(wait));
        collect.emit_on_fake = self.fake;
        match self.client.collect_events(&event, collect).await {
            Ok(payloads) => {
                Ok(CallToolResult::structured(json!({"event": event, "payloads": payloads})))
            }
            Err(e) => Err(ErrorData::internal_error(format!("the plant: {e}"), None)),
        }
    }

    /// The contract resource: the describe answer when the wire has a describe method and the
    /// plant answers it, else the document as the model writes it.
    async fn contract_text(&self) -> String {
        if self.client.dialect().describe.is_some()
            && let Ok(Reply::Result(answer)) = self.client.describe(None).await
        {
            return serde_json::to_string_pretty(&answer).unwrap_or_default();
        }
        Resources::document(&self.doc)
    }
}

/// The tool error of arguments that are not the method's params: one line per problem, its
/// JSON Pointer into the arguments first.
fn invalid_arguments(errors: Vec<(String, String)>) -> CallToolResult {
    let lines: Vec<String> = errors
        .iter()
        .map(|(pointer, message)| {
            let at = if pointer.is_empty() { "(arguments)" } else { pointer };
            format!("{at}: {message}")
        })
        .collect();
    CallToolResult::error(vec![ContentBlock::text(format!(
        "The arguments were refused before anything was sent to the plant:\n{}",
        lines.join("\n")
    ))])
}

/// The tool error of a declared error the plant answered: code, message and data in text.
fn declared_error(error: &RpcError) -> CallToolResult {
    let mut text = format!("The plant answered error {}: {}", error.code, error.message);
    if let Some(data) = &error.data {
        text.push_str(&format!("\ndata: {data}"));
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}
