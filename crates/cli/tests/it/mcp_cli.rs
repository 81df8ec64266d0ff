//! `accord mcp` as a child process on stdio, driven by rmcp's own client: the exposure policy
//! and a read call on the fake.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;

fn contract(name: &str) -> String {
    format!("{}/../../fixtures/contracts/{name}.types.json", env!("CARGO_MANIFEST_DIR"))
}

async fn tool_names(args: &[&str]) -> Vec<String> {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_accord"));
    command.arg("mcp").args(args).stderr(std::process::Stdio::null());
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let names =
        client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    client.cancel().await.unwrap();
    names
}

#[tokio::test]
async fn destructive_tools_are_absent_by_default_and_present_when_allowed() {
    let pump = contract("pump-plant");
    let default = tool_names(&[&pump]).await;
    assert!(default.contains(&"pump_status".to_owned()), "{default:?}");
    assert!(!default.contains(&"tank_drain".to_owned()), "{default:?}");
    assert!(!default.contains(&"pump_runSelfTest".to_owned()), "{default:?}");

    let allowed = tool_names(&[&pump, "--allow", "destructive"]).await;
    assert!(allowed.contains(&"tank_drain".to_owned()), "{allowed:?}");
    assert!(!allowed.contains(&"pump_runSelfTest".to_owned()), "{allowed:?}");

    let read_only = tool_names(&[&pump, "--read-only"]).await;
    assert!(!read_only.contains(&"pump_start".to_owned()), "{read_only:?}");
    assert!(read_only.contains(&"pump_list".to_owned()), "{read_only:?}");
}

#[tokio::test]
async fn a_read_tool_answers_over_stdio_with_structured_content() {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_accord"));
    command.arg("mcp").arg(contract("pump-plant")).stderr(std::process::Stdio::null());
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let call = CallToolRequestParams::new("pump_status")
        .with_arguments(json!({"pump": "P-101"}).as_object().unwrap().clone());
    let result = client.call_tool(call).await.unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.structured_content.unwrap()["result"]["state"], "running");
    client.cancel().await.unwrap();
}

#[test]
fn an_unknown_allow_name_is_a_usage_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(["mcp", &contract("pump-plant"), "--allow", "pump.explode"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pump.explode"));
}
