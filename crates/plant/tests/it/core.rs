//! The core without a transport: routing, params, describe in its three credential states,
//! the judgement of answers and event payloads.

use accord_plant::{Access, Answer, Config, Credential, Error, OnViolation, Plant, Route};
use serde_json::{Value, json};

const PUMP: &str = include_str!("../../../../fixtures/contracts/pump-plant.types.json");

fn plant(config: Config) -> Plant {
    Plant::from_contract("pump-plant.types.json", PUMP, config).expect("the bundled contract")
}

fn answer_value(route: Route<'_>) -> Value {
    match route {
        Route::Answer(Answer::Raw(bytes)) => serde_json::from_slice(&bytes).unwrap(),
        Route::Answer(Answer::Value(value)) => value,
        Route::Answer(Answer::Error(error)) => error.to_value(),
        other => panic!("not answered by the plant: {other:?}"),
    }
}

#[test]
fn a_contract_that_does_not_parse_is_a_start_up_error_naming_it() {
    let error = Plant::from_contract("broken.types.json", "{\"schema\": 1,", Config::default())
        .expect_err("refused");
    assert!(matches!(error, Error::Contract { .. }), "{error:?}");
    assert!(
        error.to_string().starts_with("the contract `broken.types.json` does not parse"),
        "{error}"
    );
    let error = Plant::from_contract(
        "rpc.types.json",
        r#"{"schema": 1, "namespaces": {"rpc": {"version": "1.0.0"}}}"#,
        Config::default(),
    )
    .expect_err("refused");
    assert!(matches!(error, Error::ReservedNamespace { .. }), "{error}");
    let mut config = Config::default();
    config.credential = Credential::Token("two\nlines".into());
    let error = Plant::from_contract("pump", PUMP, config).expect_err("refused");
    assert!(error.to_string().contains("a line break"), "{error}");
}

#[test]
fn params_are_checked_before_the_handler_with_the_wires_error_data() {
    let plant = plant(Config::default());
    let bad = json!({"pump": "pump one"});
    let error = answer_value(plant.route("pump.status", Some(&bad), Access::Full));
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(error["message"], "Invalid params");
    assert_eq!(error["data"]["errors"][0]["path"], "/pump", "{error}");
    assert!(error["data"]["errors"][0]["rule"].is_string(), "{error}");
    // The same error data accord-wire builds for accord serve.
    let doc = accord_schema_model::Document::parse(PUMP).unwrap();
    let contract = accord_validate::Contract::compile(&doc).unwrap();
    let target =
        accord_validate::Target::Params { namespace: "pump".into(), method: "status".into() };
    let errors = contract.validator(&target).unwrap().validate(&bad).unwrap_err();
    assert_eq!(error, accord_wire::RpcError::invalid_params(&errors).to_value());

    assert!(matches!(
        plant.route("pump.status", Some(&json!(["P-101"])), Access::Full),
        Route::Contract(_)
    ));
    // An absent `params` is an empty object: a required param is missing.
    assert_eq!(answer_value(plant.route("pump.status", None, Access::Full))["code"], -32602);
    let missing = answer_value(plant.route("pump.nothing", None, Access::Full));
    assert_eq!(
        missing,
        json!({"code": -32601, "message": "Method not found", "data": {"method": "pump.nothing"}})
    );
    assert!(matches!(plant.route("rpc.subscribe", None, Access::Full), Route::Subscribe));
}

#[test]
fn describe_has_three_credential_states_with_a_static_token_or_a_callback() {
    for credential in
        [Credential::Token("s3cret".into()), Credential::check(|t| t == "s3cret" || t == "next")]
    {
        let mut config = Config::default();
        config.credential = credential;
        let plant = plant(config);
        assert_eq!(plant.access(Some("Bearer s3cret")), Access::Full);
        assert_eq!(plant.access(None), Access::Reduced);
        assert_eq!(plant.access(Some("Bearer wrong")), Access::Refused);
        assert_eq!(plant.access(Some("Basic czNjcmV0")), Access::Refused);
        let full = answer_value(plant.route("rpc.describe", None, Access::Full));
        assert_eq!(full["reduced"], false);
        assert!(full["contract"]["namespaces"]["pump"].is_object());
        let reduced = answer_value(plant.route("rpc.describe", None, Access::Reduced));
        assert_eq!(reduced["reduced"], true);
        assert!(reduced.get("contract").is_none() && reduced["update"].is_string(), "{reduced}");
        let required = answer_value(plant.route("pump.list", None, Access::Reduced));
        assert_eq!(required["code"], -32001, "{required}");
        let built = json!({"builtAgainst": {"pump": "2.0.0", "boiler": "1.0.0"}});
        let verdicts = answer_value(plant.route("rpc.describe", Some(&built), Access::Reduced));
        assert_eq!(verdicts["namespaces"]["pump"]["compatible"], true, "{verdicts}");
        assert_eq!(verdicts["namespaces"]["boiler"]["reason"], "not served", "{verdicts}");
    }
    let rotating = std::sync::Arc::new(std::sync::Mutex::new("old".to_owned()));
    let current = rotating.clone();
    let mut config = Config::default();
    config.credential = Credential::check(move |t| *current.lock().unwrap() == t);
    let plant = plant(config);
    assert_eq!(plant.access(Some("Bearer old")), Access::Full);
    *rotating.lock().unwrap() = "new".to_owned();
    assert_eq!(plant.access(Some("Bearer old")), Access::Refused, "the rotated secret is refused");
    assert_eq!(plant.access(Some("Bearer new")), Access::Full);
}

#[test]
fn an_answer_that_breaks_the_contract_is_an_error_or_a_counted_warning_never_silent() {
    let mut config = Config::default();
    config.on_violation = OnViolation::Fail;
    let strict = plant(config.clone());
    let Route::Contract(call) =
        strict.route("pump.getSpeed", Some(&json!(["P-101"])), Access::Full)
    else {
        panic!("a contract call");
    };
    assert_eq!(strict.settle(call, Ok(json!(1480))), Ok(json!(1480)));
    let error = strict.settle(call, Ok(json!(99_999))).expect_err("past the result's maximum");
    assert_eq!(error.code, -32603);
    assert!(
        error.data.unwrap()["reason"]
            .as_str()
            .unwrap()
            .contains("pump.getSpeed: its result does not match")
    );
    // pump.start's error, which getSpeed does not declare.
    let undeclared = accord_wire::RpcError::declared(-32010, "pump interlocked", None);
    let error = strict.settle(call, Err(undeclared)).expect_err("undeclared");
    assert!(
        error.data.unwrap()["reason"]
            .as_str()
            .unwrap()
            .contains("which the method does not declare")
    );
    assert_eq!(strict.violations(), 2);

    config.on_violation = OnViolation::Warn;
    let lenient = plant(config);
    let Route::Contract(call) = lenient.route("pump.status", Some(&json!(["P-101"])), Access::Full)
    else {
        panic!("a contract call");
    };
    // Declared, right message, data of the right type: no violation.
    let declared =
        accord_wire::RpcError::declared(-32004, "unknown pump", Some(json!({"pump": "P-999"})));
    assert_eq!(lenient.settle(call, Err(declared.clone())), Err(declared));
    assert_eq!(lenient.violations(), 0);
    let wrong_message =
        accord_wire::RpcError::declared(-32004, "no such pump", Some(json!({"pump": "P-999"})));
    assert_eq!(
        lenient.settle(call, Err(wrong_message.clone())),
        Err(wrong_message),
        "sent as made"
    );
    assert_eq!(lenient.violations(), 1, "but counted");
    assert!(
        lenient.recent_violations()[0].reason.contains("where the contract says `unknown pump`")
    );
}

#[test]
fn an_event_payload_that_breaks_the_contract_is_never_emitted() {
    let plant = plant(Config::default());
    let good =
        json!({"pump": "P-103", "from": "starting", "to": "running", "at": "2024-05-14T06:00:32Z"});
    assert_eq!(plant.emit("pump.stateChanged", good), Ok(()));
    let bad =
        json!({"pump": "P-103", "from": "starting", "to": "flying", "at": "2024-05-14T06:00:32Z"});
    let violation = plant.emit("pump.stateChanged", bad).expect_err("refused");
    assert!(violation.reason.contains("payload does not match"), "{violation}");
    assert!(plant.emit("pump.noSuchEvent", json!({})).is_err());
    assert_eq!(plant.violations(), 2);
}
