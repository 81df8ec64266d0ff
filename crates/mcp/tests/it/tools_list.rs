//! `tools/list` of both bundled contracts under the default policy on the fake, as snapshots;
//! each tool's annotations are also held to the table of docs/mcp.md written out here, so a
//! snapshot accepted by mistake cannot hide a wrong hint.

use crate::common;

use accord_mcp::{Catalog, ExposurePolicy};
use accord_schema_model::{Dialect, Semantics};
use serde_json::{Value, json};

/// docs/mcp.md's table: readOnly, destructive, idempotent (openWorld is the backend's).
fn table(semantics: Option<&Semantics>) -> (bool, bool, bool) {
    match semantics {
        Some(Semantics::Read) => (true, false, true),
        Some(Semantics::Write) => (false, false, false),
        Some(Semantics::Idempotent) => (false, false, true),
        Some(Semantics::Destructive) => (false, true, false),
        _ => (false, true, false),
    }
}

fn check_annotations(name: &str, catalog: &Catalog, open_world: bool) {
    let doc = common::contract(name);
    for t in &catalog.methods {
        let m = &doc.namespaces.as_ref().unwrap()[&t.route.namespace].methods.as_ref().unwrap()
            [&t.route.method];
        let (read_only, destructive, idempotent) = table(m.semantics.as_ref());
        let undeclared = !matches!(
            m.semantics,
            Some(
                Semantics::Read | Semantics::Write | Semantics::Idempotent | Semantics::Destructive
            )
        );
        let a = t.tool.annotations.as_ref().expect("annotations on every tool");
        let want = json!({
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": idempotent,
            "openWorldHint": open_world || undeclared,
        });
        assert_eq!(serde_json::to_value(a).unwrap(), want, "{name}: {}", t.tool.name);
        assert_eq!(t.tool.title.as_deref(), Some(t.route.wire_name.as_str()));
        assert!(accord_mcp::names::is_portable(&t.tool.name), "{}", t.tool.name);
    }
}

fn tools_list(name: &str, policy: &ExposurePolicy, open_world: bool) -> (Catalog, Value) {
    let doc = common::contract(name);
    let dialect = Dialect::of(&doc).unwrap();
    let catalog = Catalog::build(&doc, &dialect, policy, open_world).unwrap();
    let tools = serde_json::to_value(catalog.tools()).unwrap();
    (catalog, json!({"tools": tools}))
}

#[test]
fn pump_plant_tools_list() {
    let (catalog, list) = tools_list("pump-plant", &ExposurePolicy::default(), false);
    check_annotations("pump-plant", &catalog, false);
    insta::assert_json_snapshot!("pump-plant.tools-list", list);
    insta::assert_snapshot!("pump-plant.exposure", catalog.exposure());
}

#[test]
fn boiler_plant_tools_list() {
    let (catalog, list) = tools_list("boiler-plant", &ExposurePolicy::default(), false);
    check_annotations("boiler-plant", &catalog, false);
    insta::assert_json_snapshot!("boiler-plant.tools-list", list);
    insta::assert_snapshot!("boiler-plant.exposure", catalog.exposure());
}

#[test]
fn allowed_and_upstream_tools_keep_the_table_with_open_world_true() {
    let dialect = Dialect::of(&common::contract("pump-plant")).unwrap();
    let mut policy = ExposurePolicy::default();
    policy.allow("destructive,undeclared", &dialect).unwrap();
    let (catalog, _) = tools_list("pump-plant", &policy, true);
    assert!(catalog.hidden.is_empty(), "{:?}", catalog.hidden);
    check_annotations("pump-plant", &catalog, true);
    let self_test = catalog.methods.iter().find(|t| t.route.method == "runSelfTest").unwrap();
    assert!(self_test.tool.description.as_deref().unwrap().contains("WARNING"));
}

#[test]
fn the_policy_hides_destructive_and_undeclared_and_read_only_keeps_reads() {
    let (catalog, _) = tools_list("pump-plant", &ExposurePolicy::default(), false);
    let hidden: Vec<&str> = catalog.hidden.iter().map(|h| h.method.as_str()).collect();
    assert_eq!(hidden, ["pump.resetRuntimeCounters", "pump.runSelfTest", "tank.drain"]);

    let dialect = Dialect::of(&common::contract("pump-plant")).unwrap();
    let mut by_name = ExposurePolicy::default();
    by_name.allow("pump.resetRuntimeCounters", &dialect).unwrap();
    let (catalog, _) = tools_list("pump-plant", &by_name, false);
    assert!(catalog.method("pump_resetRuntimeCounters").is_some());
    assert!(catalog.method("tank_drain").is_none());
    assert!(by_name.clone().allow("pump.explode", &dialect).is_err());

    let mut read_only = ExposurePolicy::default();
    read_only.read_only = true;
    let (catalog, _) = tools_list("pump-plant", &read_only, false);
    assert!(catalog.methods.iter().all(|t| t.class == accord_mcp::Class::Read));
    assert!(catalog.events.is_some(), "collect_events is gated like a read");
}

#[test]
fn names_that_collide_after_sanitising_still_start_with_suffixes() {
    let doc = accord_schema_model::Document::parse(
        r#"{"schema": 1, "namespaces": {"a": {"version": "1.0.0", "methods": {
            "b_c": {"semantics": "read", "result": {"kind": "null"}},
            "b.c": {"semantics": "read", "result": {"kind": "null"}}
        }}, "a_b": {"version": "1.0.0", "methods": {
            "c": {"semantics": "read", "result": {"kind": "null"}}
        }}}}"#,
    )
    .unwrap();
    let dialect = Dialect::of(&doc).unwrap();
    let catalog = Catalog::build(&doc, &dialect, &ExposurePolicy::default(), false).unwrap();
    let names: Vec<(String, String)> =
        catalog.methods.iter().map(|t| (t.tool.name.to_string(), t.route.qualified())).collect();
    assert_eq!(
        names,
        [
            ("a_b_c".to_owned(), "a.b_c".to_owned()),
            ("a_b_c_2".to_owned(), "a.b.c".to_owned()),
            ("a_b_c_3".to_owned(), "a_b.c".to_owned()),
        ]
    );
    assert!(catalog.exposure().contains("a_b_c_3: a_b.c [read]"), "{}", catalog.exposure());
}
