//! The safety policy and the transcript format on their own: no plant needed.

use accord_conform::{
    Class, Decision, Endpoint, Error, Line, NoProgress, Options, Policy, Transcript,
};
use accord_schema_model::Document;

fn pump() -> Document {
    let path =
        format!("{}/../../fixtures/contracts/pump-plant.types.json", env!("CARGO_MANIFEST_DIR"));
    Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses")
}

fn decision(policy: &Policy, doc: &Document, name: &str) -> Decision {
    let (ns, m) = name.split_once('.').expect("qualified");
    let method = &doc.namespaces.as_ref().expect("ns")[ns].methods.as_ref().expect("methods")[m];
    policy.decide(name, method)
}

#[test]
fn by_default_only_read_methods_are_called() {
    let doc = pump();
    let policy = Policy::default();
    assert_eq!(policy.classes(), &[Class::Read]);
    assert_eq!(decision(&policy, &doc, "pump.status"), Decision::Call);
    for skipped in ["pump.start", "pump.setSpeed", "pump.resetRuntimeCounters", "pump.runSelfTest"]
    {
        assert!(matches!(decision(&policy, &doc, skipped), Decision::Skip(_)), "{skipped}");
    }
}

#[test]
fn undeclared_methods_are_called_only_when_allowed_or_named() {
    let doc = pump();
    let everything_else =
        Policy::with_allowed(&doc, ["idempotent,write,destructive"]).expect("policy");
    assert!(
        matches!(decision(&everything_else, &doc, "pump.runSelfTest"), Decision::Skip(r) if r.contains("ask before pressing"))
    );
    let named = Policy::with_allowed(&doc, ["pump.runSelfTest"]).expect("policy");
    assert_eq!(decision(&named, &doc, "pump.runSelfTest"), Decision::Call);
    assert!(
        matches!(decision(&named, &doc, "pump.start"), Decision::Skip(_)),
        "naming one method allows only it"
    );
    let class = Policy::with_allowed(&doc, ["undeclared"]).expect("policy");
    assert_eq!(decision(&class, &doc, "pump.runSelfTest"), Decision::Call);
}

#[test]
fn an_allow_entry_that_is_neither_class_nor_method_is_refused() {
    let err = Policy::with_allowed(&pump(), ["write,pump.strat"]).unwrap_err();
    assert!(matches!(&err, Error::Allow { entry, .. } if entry == "pump.strat"), "{err}");
}

#[test]
fn the_plan_lists_every_method_with_its_decision_and_sends_nothing() {
    let doc = pump();
    // Nothing listens on port 9 of loopback; the plan does not need it.
    let plant = Endpoint::new("http://127.0.0.1:9/");
    let plan =
        accord_conform::plan(&doc, &plant, &Options::default()).expect("a wire that resolves");
    assert_eq!(plan.methods.len(), 13);
    assert_eq!(plan.called().count(), 6);
    assert_eq!(plan.events.len(), 4);
    assert!(!plan.credentials);
    let _ = NoProgress;
}

#[test]
fn transcripts_render_and_parse_and_refuse_other_lines() {
    let mut t = Transcript::default();
    t.route(accord_conform::Transport::Http, accord_conform::Credential::Wrong);
    t.sent(r#"{"jsonrpc":"2.0","method":"rpc.describe","id":1}"#);
    t.received("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": null,\n  \"error\": {\"code\": -32002, \"message\": \"Credential refused\"}\n}");
    let text = t.render();
    assert_eq!(
        text,
        "// transport: http\n// credential: wrong\n>> {\"jsonrpc\":\"2.0\",\"method\":\"rpc.describe\",\"id\":1}\n<< {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32002,\"message\":\"Credential refused\"}}\n"
    );
    assert_eq!(Transcript::parse(&text).expect("parses"), t);
    assert_eq!(
        Transcript::parse(">>{}\n\n<<  x").expect("parses").lines,
        vec![Line::Sent("{}".into()), Line::Received(" x".into())]
    );
    let err = Transcript::parse("// note\n{\"jsonrpc\": \"2.0\"}\n").unwrap_err();
    assert!(matches!(err, Error::Transcript { line: 2, .. }), "{err}");
}

#[test]
fn the_plan_follows_the_contracts_wire_section() {
    let path =
        format!("{}/../../fixtures/future/foreign-wire.types.json", env!("CARGO_MANIFEST_DIR"));
    let doc = Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses");
    let plant = Endpoint::new("http://127.0.0.1:9/");
    let plan = accord_conform::plan(&doc, &plant, &Options::default()).expect("plan");
    let dialect = accord_schema_model::Dialect::of(&doc).expect("dialect");
    assert_eq!(plan.protocol.describe, None, "`describe: false`: no describe phase");
    assert_eq!(plan.protocol.probe, "eth_blockNumber", "the first read method, by its wire name");
    assert_eq!(plan.protocol.method_not_found, dialect.codes.method_not_found);
    for code in &dialect.codes.invalid_params {
        assert!(plan.protocol.invalid_params.contains(code), "{code}");
    }
    assert!(
        plan.to_text().contains(
            "protocol: describe none (the describe phase is skipped); probes to eth_blockNumber"
        ),
        "{}",
        plan.to_text()
    );
    // Without a wire section: accord's own protocol, as before.
    let accord = accord_conform::plan(&pump(), &plant, &Options::default()).expect("plan");
    assert!(accord.protocol.accord);
    assert_eq!(accord.protocol.describe.as_deref(), Some("rpc.describe"));
    assert_eq!(accord.protocol.probe, "rpc.describe");
    assert_eq!(accord.protocol.method_not_found, [-32601]);
    assert_eq!(accord.protocol.invalid_params, [-32602]);
    assert_eq!(accord.protocol.depth_limit, Some(128));
}

fn work_queue() -> Document {
    let path =
        format!("{}/../../fixtures/contracts/work-queue.types.json", env!("CARGO_MANIFEST_DIR"));
    Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses")
}

#[test]
fn the_plan_shows_the_flows_of_the_links_and_runs_one_only_when_every_step_is_allowed() {
    let doc = work_queue();
    let plant = Endpoint::new("http://127.0.0.1:9/");
    let mut options = Options::default();
    options.policy = Policy::with_allowed(&doc, ["write"]).expect("policy");
    let plan = accord_conform::plan(&doc, &plant, &options).expect("plan");
    let flows: Vec<(String, bool)> =
        plan.flows.iter().map(|f| (f.name(), f.decision == Decision::Call)).collect();
    // ack and nack are idempotent: not allowed by `--allow write`, so their flows are skipped;
    // enqueue → stats (write, read) runs.
    assert!(
        flows.contains(&("queue.enqueue → queue.claim → queue.ack".to_owned(), false)),
        "{flows:?}"
    );
    assert!(
        flows.contains(&("queue.enqueue → queue.claim → queue.nack".to_owned(), false)),
        "{flows:?}"
    );
    assert!(flows.contains(&("queue.enqueue → queue.stats".to_owned(), true)), "{flows:?}");
    // With the destructive class alone nothing the flows touch is allowed.
    options.policy = Policy::with_allowed(&doc, ["destructive"]).expect("policy");
    let none = accord_conform::plan(&doc, &plant, &options).expect("plan");
    assert!(none.flows.iter().all(|f| f.decision != Decision::Call), "{:?}", none.flows);
    // Everything allowed: the dry run's text, line by line.
    options.policy =
        Policy::with_allowed(&doc, ["idempotent,write,destructive,undeclared"]).expect("policy");
    let all = accord_conform::plan(&doc, &plant, &options).expect("plan");
    insta::assert_snapshot!(all.to_text());
    let partial = accord_conform::plan(&doc, &plant, &{
        let mut o = Options::default();
        o.policy = Policy::with_allowed(&doc, ["write"]).expect("policy");
        o
    })
    .expect("plan");
    insta::assert_snapshot!("flows_skipped_by_policy", partial.to_text());
}
