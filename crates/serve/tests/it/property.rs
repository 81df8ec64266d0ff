//! Generated valid params for every method of both bundled contracts: every answer is a valid
//! result of the method, or one of its declared errors with valid data.

use accord_validate::{Contract, Target};
use serde_json::{Value, json};

use crate::common::{contract, local_with, post};

const SEEDS: u64 = 24;

#[tokio::test]
async fn every_answer_to_valid_params_is_valid() {
    for name in ["pump-plant", "work-queue"] {
        let doc = contract(name);
        let compiled = Contract::compile(&doc).unwrap();
        for mode in [accord_serve::Mode::Stable, accord_serve::Mode::Sequence] {
            let config = local_with(|c| {
                c.mode = mode;
                c.seed = 11;
            });
            let server = accord_serve::start(doc.clone(), config).await.unwrap();
            let mut checked = 0;
            for (ns, namespace) in doc.namespaces.iter().flatten() {
                for (m, method) in namespace.methods.iter().flatten() {
                    let params = Target::Params { namespace: ns.clone(), method: m.clone() };
                    let params = compiled.validator(&params).unwrap();
                    let result = Target::Result { namespace: ns.clone(), method: m.clone() };
                    let result = compiled.validator(&result).unwrap();
                    // One batch per method: SEEDS generated param sets.
                    let batch: Vec<Value> = (0..SEEDS)
                        .map(|seed| {
                            json!({"jsonrpc": "2.0", "id": seed, "method": format!("{ns}.{m}"),
                                   "params": params.generate(seed).unwrap()})
                        })
                        .collect();
                    let reply = post(&server, &Value::Array(batch).to_string()).await;
                    let answers = reply.body.as_array().unwrap_or_else(|| panic!("{}", reply.text));
                    assert_eq!(answers.len() as u64, SEEDS);
                    for answer in answers {
                        if let Some(value) = answer.get("result") {
                            if let Err(errors) = result.validate(value) {
                                panic!("{ns}.{m}: invalid result {value}: {errors:?}");
                            }
                        } else {
                            let code = answer["error"]["code"].as_i64().unwrap();
                            let declared = method.errors.iter().flatten().find(|e| e.code == code);
                            let declared = declared.unwrap_or_else(|| panic!("{ns}.{m}: {answer}"));
                            if declared.data.is_some() {
                                let target = Target::ErrorData {
                                    namespace: ns.clone(),
                                    method: m.clone(),
                                    code,
                                };
                                compiled
                                    .validator(&target)
                                    .unwrap()
                                    .validate(&answer["error"]["data"])
                                    .unwrap();
                            }
                        }
                        checked += 1;
                    }
                }
            }
            // Every declared error, asked for through rpc.fake: its generated data is valid.
            for (ns, namespace) in doc.namespaces.iter().flatten() {
                for (m, method) in namespace.methods.iter().flatten() {
                    let params = Target::Params { namespace: ns.clone(), method: m.clone() };
                    let params = compiled.validator(&params).unwrap().generate(5).unwrap();
                    for declared in method.errors.iter().flatten() {
                        let fake = json!({"jsonrpc": "2.0", "id": 1, "method": "rpc.fake", "params": {
                            "call": {"method": format!("{ns}.{m}"), "params": params},
                            "error": declared.code}});
                        let answer = post(&server, &fake.to_string()).await.body;
                        assert_eq!(answer["error"]["code"], declared.code, "{answer}");
                        assert_eq!(answer["error"]["message"], declared.message.as_str());
                        match &declared.data {
                            Some(_) => {
                                let target = Target::ErrorData {
                                    namespace: ns.clone(),
                                    method: m.clone(),
                                    code: declared.code,
                                };
                                compiled
                                    .validator(&target)
                                    .unwrap()
                                    .validate(&answer["error"]["data"])
                                    .unwrap();
                            }
                            None => assert!(answer["error"].get("data").is_none(), "{answer}"),
                        }
                        checked += 1;
                    }
                }
            }
            assert!(checked > 0);
            server.shutdown().await;
        }
    }
}
