//! Fakes that real clients can use: `--prefer` (non-null and object arms first, examples
//! first) and scenario entries that match params by JSON Pointer rules and answer an example,
//! an arm, an error or a delay (docs/serve.md).

use std::time::{Duration, Instant};

use accord_schema_model::Document;
use accord_serve::{Config, Mode, Prefer, ScenarioSource, Server};
use serde_json::{Value, json};

use crate::common::{call, fixtures, local, local_with};

fn read(path: &str) -> Document {
    Document::parse(&std::fs::read_to_string(fixtures().join(path)).unwrap()).unwrap()
}

async fn boiler(config: Config) -> Server {
    accord_serve::start(read("serve/boiler/boiler.types.json"), config).await.unwrap()
}

/// Twenty answers of `boiler_lastFault` (a union of `null` and an object), in sequence mode so
/// that each is made from its own seed.
async fn last_faults(prefer: Prefer) -> Vec<Value> {
    let server = boiler(local_with(|c| {
        c.mode = Mode::Sequence;
        c.prefer = prefer;
    }))
    .await;
    let mut answers = Vec::new();
    for _ in 0..20 {
        answers.push(call(&server, "boiler_lastFault", json!([])).await["result"].clone());
    }
    server.shutdown().await;
    answers
}

#[tokio::test]
async fn prefer_non_null_never_answers_null_where_an_object_arm_exists() {
    let uniform = last_faults(Prefer::UNIFORM).await;
    // Uniform (the old default): both arms, seeded (what `get_block('latest')` tripped on).
    assert!(uniform.iter().any(Value::is_null), "{uniform:?}");
    assert!(uniform.iter().any(Value::is_object), "{uniform:?}");
    assert_eq!(last_faults(Prefer::parse("uniform").unwrap()).await, uniform);
    // The default is typical: never `null` where an object may be.
    let default = last_faults(Prefer::default()).await;
    assert!(default.iter().all(Value::is_object), "default: {default:?}");
    for list in ["non-null", "object", "non-null,object", "richest", "typical"] {
        let preferred = last_faults(Prefer::parse(list).unwrap()).await;
        assert!(preferred.iter().all(Value::is_object), "{list}: {preferred:?}");
    }
}

/// Twenty answers of `method` with `params` from the imported Ethereum contract, in sequence
/// mode, under `prefer`.
async fn eth_answers(prefer: Prefer, method: &str, params: Value) -> Vec<Value> {
    let doc = Document::parse(
        &std::fs::read_to_string(fixtures().join("import/execution-apis/expected.types.json"))
            .unwrap(),
    )
    .unwrap();
    let server = accord_serve::start(
        doc,
        local_with(|c| {
            c.mode = Mode::Sequence;
            c.prefer = prefer;
        }),
    )
    .await
    .unwrap();
    let mut answers = Vec::new();
    for _ in 0..20 {
        let answer = call(&server, method, params.clone()).await;
        assert!(answer.get("result").is_some(), "{method}: {answer}");
        answers.push(answer["result"].clone());
    }
    server.shutdown().await;
    answers
}

/// Every string in `value` that starts with `0x`.
fn hex_strings<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) if s.starts_with("0x") => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| hex_strings(v, out)),
        Value::Object(members) => members.values().for_each(|v| hex_strings(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_typical_default_gives_logs_full_blocks_and_one_case_hex() {
    let filter =
        json!([{"address": "0x6b175474e89094c44da98b954eedeac495271d0f", "fromBlock": "0x10"}]);
    // `eth_getLogs`: the log-object arm, not the hash array; uniform gives both.
    let logs = eth_answers(Prefer::default(), "eth_getLogs", filter.clone()).await;
    let is_hash_list = |v: &Value| v.as_array().unwrap().iter().any(Value::is_string);
    assert!(logs.iter().all(|v| !is_hash_list(v)), "{logs:?}");
    assert!(logs.iter().any(|v| v.as_array().unwrap().iter().any(Value::is_object)));
    let uniform = eth_answers(Prefer::UNIFORM, "eth_getLogs", filter).await;
    assert!(uniform.iter().any(is_hash_list), "uniform gives the hash arm too");
    // Blocks: never `null`, with every optional member (`difficulty`, which ethers reads),
    // full transactions when asked for.
    let blocks =
        eth_answers(Prefer::default(), "eth_getBlockByNumber", json!(["0x1b4", true])).await;
    for block in &blocks {
        assert!(block.is_object(), "{block}");
        assert!(block.get("difficulty").is_some(), "{block}");
        assert!(block["transactions"].as_array().unwrap().iter().all(Value::is_object), "{block}");
    }
    // Hex text: lower case, whole bytes where the pattern allows (a `bytes` value, an
    // address); uniform writes mixed-case addresses.
    let mut hex = Vec::new();
    blocks.iter().for_each(|b| hex_strings(b, &mut hex));
    assert!(hex.iter().all(|s| !s.bytes().any(|b| b.is_ascii_uppercase())), "{hex:?}");
    let extra_data: Vec<&str> = blocks.iter().map(|b| b["extraData"].as_str().unwrap()).collect();
    assert!(extra_data.iter().all(|s| s.len() % 2 == 0), "{extra_data:?}");
    let uniform =
        eth_answers(Prefer::UNIFORM, "eth_getBlockByNumber", json!(["0x1b4", true])).await;
    let mut hex = Vec::new();
    uniform.iter().for_each(|b| hex_strings(b, &mut hex));
    assert!(hex.iter().any(|s| s.bytes().any(|b| b.is_ascii_uppercase())), "uniform: mixed case");
}

/// Every object in `value` that has both `a` and `b` (at any depth).
fn pairs<'v>(value: &'v Value, a: &str, b: &str, out: &mut Vec<(&'v Value, &'v Value)>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| pairs(v, a, b, out)),
        Value::Object(members) => {
            if let (Some(x), Some(y)) = (members.get(a), members.get(b)) {
                out.push((x, y));
            }
            members.values().for_each(|v| pairs(v, a, b, out));
        }
        _ => {}
    }
}

#[tokio::test]
async fn static_values_agree_where_a_rule_the_contract_cannot_state_ties_them() {
    // A signature's `v` and `yParity` are both the `byte` type; the spec ties them in prose
    // only. Drawn independently (uniform, or typical without `static`) they rarely agree;
    // static, both are the byte's static value.
    let blocks =
        eth_answers(Prefer::default(), "eth_getBlockByNumber", json!(["0x1b4", true])).await;
    let mut signatures = Vec::new();
    blocks.iter().for_each(|b| pairs(b, "v", "yParity", &mut signatures));
    assert!(signatures.len() > 10, "{blocks:?}");
    assert!(signatures.iter().all(|(v, y)| *v == "0x00" && *y == "0x00"), "{signatures:?}");
    // The seed still picks shapes: how many transactions a block holds.
    let counts: std::collections::BTreeSet<usize> =
        blocks.iter().map(|b| b["transactions"].as_array().unwrap().len()).collect();
    assert!(counts.len() > 1, "{counts:?}");
    for list in ["uniform", "non-null,richest,lower-hex"] {
        let drawn = eth_answers(
            Prefer::parse(list).unwrap(),
            "eth_getBlockByNumber",
            json!(["0x1b4", true]),
        )
        .await;
        let mut signatures = Vec::new();
        drawn.iter().for_each(|b| pairs(b, "v", "yParity", &mut signatures));
        assert!(signatures.iter().any(|(v, y)| v != y), "{list}: {signatures:?}");
    }
}

#[tokio::test]
async fn prefer_examples_answers_an_example_whatever_the_params() {
    let example = json!({"sensor": "flow", "celsius": 71.5});
    let plain = boiler(local()).await;
    let generated = call(&plain, "boiler_temperature", json!(["flue"])).await;
    assert_ne!(generated["result"], example);
    plain.shutdown().await;
    let server = boiler(local_with(|c| c.prefer = Prefer::parse("examples").unwrap())).await;
    for sensor in ["flow", "return", "flue"] {
        let answer = call(&server, "boiler_temperature", json!([sensor])).await;
        assert_eq!(answer["result"], example, "{sensor}");
    }
    // A method without examples is still generated.
    let set = call(&server, "boiler_setTarget", json!([40])).await;
    assert!(set["result"].is_boolean());
    server.shutdown().await;
}

#[test]
fn prefer_names_are_checked() {
    assert_eq!(Prefer::default(), Prefer::TYPICAL);
    assert_eq!(Prefer::parse("typical").unwrap(), Prefer::TYPICAL);
    assert_eq!(Prefer::parse("").unwrap(), Prefer::UNIFORM);
    assert_eq!(Prefer::parse("uniform").unwrap(), Prefer::UNIFORM);
    let all = Prefer::parse("non-null, object,examples").unwrap();
    assert!(all.examples && all.arms.non_null && all.arms.objects);
    assert!(!all.lower_hex && !all.arms.richest, "a list replaces the default");
    assert!(!all.static_values, "a list replaces the default");
    assert!(Prefer::default().static_values && !Prefer::parse("uniform").unwrap().static_values);
    assert!(Prefer::parse("static").unwrap().static_values);
    let error = Prefer::parse("non-null,objects").unwrap_err();
    assert_eq!(
        error,
        "`objects` is not a preference (use typical, uniform, non-null, object, richest, lower-hex, static, examples)"
    );
}

fn scenario(text: &str) -> Config {
    let source = ScenarioSource { file: "wire.scenario.json".into(), text: text.into() };
    local_with(|c| c.scenario = Some(source))
}

#[tokio::test]
async fn scenario_rules_match_params_by_pointer() {
    let text = r#"{"scenario": 1, "answers": [
      {"method": "eth_getBalance", "match": {"/block": {"equals": "latest"}}, "result": "0x1"},
      {"method": "eth.getBalance", "match": {"/address": {"pattern": "^0x0+$"}}, "error": {"code": 3}},
      {"method": "eth_getBalance", "match": {"/1": {"oneOf": ["safe", "finalized"]}}, "delayMs": 150},
      {"method": "eth_blockNumber", "delayMs": 1, "result": "0x10"}
    ]}"#;
    let doc = read("future/foreign-wire.types.json");
    let server = accord_serve::start(doc, scenario(text)).await.unwrap();
    let someone = "0x407d73d8a49eeb85d32cf465507dd71d507100c1";
    let zero = "0x0000000000000000000000000000000000000000";

    // Params are matched read by name: `/block` is the second param, sent by position; the
    // rules below give it as `/1`, which is read as that name.
    let latest = call(&server, "eth_getBalance", json!([someone, "latest"])).await;
    assert_eq!(latest["result"], "0x1");
    let error = call(&server, "eth_getBalance", json!([zero, "pending"])).await;
    assert_eq!(error["error"], json!({"code": 3, "message": "execution reverted"}));
    // A delay only: then answered as if no entry matched (generated), after the delay.
    let started = Instant::now();
    let delayed = call(&server, "eth_getBalance", json!([someone, "safe"])).await;
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert!(delayed["result"].as_str().unwrap().starts_with("0x"), "{delayed}");
    assert_ne!(delayed["result"], "0x1");
    let quick = Instant::now();
    let pending = call(&server, "eth_getBalance", json!([someone, "pending"])).await;
    assert!(quick.elapsed() < Duration::from_millis(150));
    assert_ne!(pending["result"], "0x1");
    assert_eq!(call(&server, "eth_blockNumber", json!([])).await["result"], "0x10");
    server.shutdown().await;
}

#[tokio::test]
async fn scenario_picks_an_example_or_an_arm() {
    let text = r#"{"scenario": 1, "answers": [
      {"method": "boiler_temperature", "match": {"/sensor": {"oneOf": ["return", "flue"]}}, "example": "flow"},
      {"method": "boiler_lastFault", "arm": 1}
    ]}"#;
    let mut config = scenario(text);
    config.mode = Mode::Sequence;
    let server = boiler(config).await;
    let answer = call(&server, "boiler_temperature", json!(["flue"])).await;
    assert_eq!(answer["result"], json!({"sensor": "flow", "celsius": 71.5}));
    for _ in 0..10 {
        let fault = call(&server, "boiler_lastFault", json!([])).await;
        let code = fault["result"]["code"].as_str().unwrap_or_else(|| panic!("{fault}"));
        assert!(code.starts_with("F-"), "{fault}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn scenario_rules_are_checked_at_startup() {
    for (answers, wanted) in [
        (
            r#"[{"method": "boiler_setTarget", "arm": 0}]"#,
            "`boiler.setTarget`'s result is not a union, so it has no arm to pick (at /answers/0/arm)",
        ),
        (
            r#"[{"method": "boiler_lastFault", "arm": 2}]"#,
            "`arm` is the index of an arm of `boiler.lastFault`'s result (0 to 1)",
        ),
        (
            r#"[{"method": "boiler_temperature", "match": {"/1": {"equals": "flow"}}, "result": {"sensor": "flow", "celsius": 1}}]"#,
            "`boiler.temperature` has no param at position 1 (at /answers/0/match/~11)",
        ),
        (
            r#"[{"method": "boiler_temperature", "match": {"/0": {"like": "flow"}}, "example": 0}]"#,
            "a rule is one of {\"equals\": VALUE}, {\"pattern\": \"REGEX\"}, {\"oneOf\": [VALUE, ...]}",
        ),
        (
            r#"[{"method": "boiler_temperature", "match": {"/0": {"pattern": "("}}, "example": 0}]"#,
            "not a pattern:",
        ),
        (
            r#"[{"method": "boiler_temperature", "example": "return"}]"#,
            "`boiler.temperature` has no example \"return\" with a valid result",
        ),
        (
            r#"[{"method": "boiler_temperature", "example": 0, "arm": 0}]"#,
            "a canned answer has one of result, error, example, arm, not example and arm",
        ),
    ] {
        let text = format!(r#"{{"scenario": 1, "answers": {answers}}}"#);
        let error = accord_serve::start(read("serve/boiler/boiler.types.json"), scenario(&text))
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains(wanted), "{answers}\n{error}");
    }
}
