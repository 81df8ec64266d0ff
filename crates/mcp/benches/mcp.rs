//! accord mcp's start-up and one call, over rmcp's stdio framing (newline-delimited JSON-RPC
//! on a byte stream) on an in-process pipe pair, so no process spawn is measured:
//!
//! - start-up to the first `tools/list` answer for a generated 1,000-method contract: the
//!   catalog (1,000 JSON Schema exports), the validators, the in-process fake, the MCP
//!   handshake and the list (target: under 50 ms);
//! - one `tools/call` round trip of `pump_status` on the fake, session already open: argument
//!   validation, the call to `accord serve`'s engine over loopback HTTP, the answer (target:
//!   under 1 ms).
//!
//! `cargo bench -p accord-mcp`; figures in docs/benchmarks.md.

use std::time::Duration;

use accord_mcp::{Backend, Mcp, Options};
use accord_schema_model::Document;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

fn options() -> Options {
    let mut options = Options::new(Backend::Fake { seed: 0 });
    options.timeout = Duration::from_secs(10);
    options
}

/// A contract of `n` read methods, each with one bounded integer param and an object result.
fn generated(n: usize) -> Document {
    let mut methods = serde_json::Map::new();
    for i in 0..n {
        methods.insert(
            format!("m{i:04}"),
            json!({
                "semantics": "read",
                "description": format!("Reads register {i}."),
                "params": [{"name": "id", "type": {"kind": "integer", "min": 0, "max": 65535}}],
                "result": {"kind": "ref", "name": "Reading"}
            }),
        );
    }
    let doc = json!({"schema": 1, "namespaces": {"gen": {
        "version": "1.0.0",
        "types": {"Reading": {"kind": "object", "fields": {
            "value": {"type": {"kind": "number", "unit": "bar"}},
            "at": {"type": {"kind": "string", "format": "date-time"}}
        }}},
        "methods": methods
    }}});
    Document::from_value(doc).unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn startup_to_first_tools_list_1000_methods(bencher: divan::Bencher) {
    let rt = runtime();
    let doc = generated(1000);
    bencher.bench_local(|| {
        rt.block_on(async {
            let (client_io, server_io) = tokio::io::duplex(1 << 20);
            let mcp = Mcp::start(doc.clone(), options()).await.unwrap();
            let server = tokio::spawn(async move {
                let running = mcp.serve(server_io).await.unwrap();
                let _ = running.waiting().await;
            });
            let client = ().serve(client_io).await.unwrap();
            let tools = client.list_tools(None).await.unwrap();
            assert_eq!(tools.tools.len(), 1000);
            client.cancel().await.unwrap();
            let _ = server.await;
        })
    });
}

#[divan::bench(sample_count = 200, sample_size = 10)]
fn tools_call_round_trip_on_the_fake(bencher: divan::Bencher) {
    let rt = runtime();
    let contract =
        format!("{}/../../fixtures/contracts/pump-plant.types.json", env!("CARGO_MANIFEST_DIR"));
    let doc = Document::parse(&std::fs::read_to_string(contract).unwrap()).unwrap();
    let client = rt.block_on(async {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let mcp = Mcp::start(doc, options()).await.unwrap();
        tokio::spawn(async move {
            let running = mcp.serve(server_io).await.unwrap();
            let _ = running.waiting().await;
        });
        ().serve(client_io).await.unwrap()
    });
    let args: serde_json::Map<String, Value> =
        json!({"pump": "P-101"}).as_object().unwrap().clone();
    bencher.bench_local(|| {
        rt.block_on(async {
            let call = CallToolRequestParams::new("pump_status").with_arguments(args.clone());
            let result = client.call_tool(call).await.unwrap();
            assert_eq!(result.is_error, Some(false));
        })
    });
}
