//! A by-position method: its tool takes an object keyed by param name, and the call is sent
//! as the array the plant expects, validated first, errors pointed at argument names.

use std::time::Duration;

use accord_mcp::schema::{argument_pointer, input_schema, to_params, undeclared};
use accord_mcp::{Backend, Mcp, Options};
use accord_schema_model::Document;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

const CONTRACT: &str = r#"{"schema": 1, "namespaces": {"calc": {"version": "1.0.0", "methods": {
  "scale": {"semantics": "read", "paramStructure": "by-position",
    "params": [
      {"name": "value", "type": {"kind": "number"}},
      {"name": "factor", "type": {"kind": "integer", "min": 1, "unit": "x"}, "description": "How many times."},
      {"name": "label", "type": {"kind": "string"}, "optional": true}
    ],
    "result": {"kind": "number"}}
}}}}"#;

fn object(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().unwrap().clone()
}

#[test]
fn the_input_schema_is_an_object_keyed_by_param_name_and_arguments_go_back_to_an_array() {
    let doc = Document::parse(CONTRACT).unwrap();
    let m = &doc.namespaces.as_ref().unwrap()["calc"].methods.as_ref().unwrap()["scale"];
    let schema = input_schema(&doc, "calc", "scale", m).unwrap();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["value", "factor"]));
    assert_eq!(schema["properties"]["factor"]["description"], "How many times.");
    assert_eq!(schema["additionalProperties"], false);

    let params = to_params(m, object(json!({"factor": 2, "value": 1.5}))).unwrap();
    assert_eq!(params, json!([1.5, 2]));
    let params = to_params(m, object(json!({"factor": 2, "value": 1.5, "label": "x"}))).unwrap();
    assert_eq!(params, json!([1.5, 2, "x"]));
    let refused = to_params(m, object(json!({"value": 1, "label": "x"}))).unwrap_err();
    let pointers: Vec<&str> = refused.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pointers, ["/factor"]);
    let unknown = undeclared(m, &object(json!({"value": 1, "a/b": 2, "zz": 1})));
    assert_eq!(
        unknown,
        [
            (
                "/a~1b".to_owned(),
                "unknown argument `a/b`: this tool takes only `value`, `factor`, `label`"
                    .to_owned()
            ),
            (
                "/zz".to_owned(),
                "unknown argument `zz`: this tool takes only `value`, `factor`, `label`".to_owned()
            ),
        ]
    );
    assert_eq!(argument_pointer(m, "/1"), "/factor");
    assert_eq!(argument_pointer(m, "/0/x"), "/value/x");
}

#[tokio::test]
async fn a_by_position_call_reaches_the_fake_as_an_array_and_a_bad_one_is_pointed_by_name() {
    let mut options = Options::new(Backend::Fake { seed: 0 });
    options.timeout = Duration::from_secs(10);
    let mcp = Mcp::start(Document::parse(CONTRACT).unwrap(), options).await.unwrap();
    let server = mcp.serve_http("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let client = ().serve(StreamableHttpClientTransport::from_uri(server.url())).await.unwrap();
    let ok = CallToolRequestParams::new("calc_scale")
        .with_arguments(object(json!({"value": 2.5, "factor": 3})));
    let result = client.call_tool(ok).await.unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(result.structured_content.unwrap()["result"].is_number());
    let bad = CallToolRequestParams::new("calc_scale")
        .with_arguments(object(json!({"value": 2.5, "factor": 0})));
    let result = client.call_tool(bad).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none(), "{result:?}");
    let text = result.content[0].as_text().unwrap().text.clone();
    assert!(text.contains("\n/factor: expected "), "{text}");
    client.cancel().await.unwrap();
    server.stop();
}
