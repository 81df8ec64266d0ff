//! Name resolution and module walking on in-memory sources: the paths the fixtures (compiled
//! for real inside another crate) cannot use, such as `crate::`, and the places diagnostics
//! point at.

use std::collections::BTreeMap;

use accord_extract::{Config, Dependency, Severity, extract, extract_with_dependencies};
use accord_schema_model::{Dialect, EventRoute, Profile, TypeKind, TypeNode};

fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(p, t)| ((*p).to_owned(), (*t).to_owned())).collect()
}

fn types(x: &accord_extract::Extraction, ns: &str) -> Vec<String> {
    x.document.namespaces.as_ref().unwrap()[ns]
        .types
        .iter()
        .flatten()
        .map(|(n, _)| n.clone())
        .collect()
}

fn result(x: &accord_extract::Extraction, ns: &str, method: &str) -> TypeNode {
    x.document.namespaces.as_ref().unwrap()[ns].methods.as_ref().unwrap()[method].result.clone()
}

#[test]
fn crate_super_self_renames_and_reexports_resolve_to_the_right_item() {
    let mut src = sources(&[
        (
            "src/lib.rs",
            "mod a;\npub mod b { pub mod c; }\npub use a::Thing as Exported;\n\
             /// accord: namespace = \"n\", version = \"1.0.0\"\n\
             pub trait Api {\n  fn one(&self) -> crate::Exported;\n  fn two(&self) -> b::c::Other;\n  fn three(&self) -> self::b::c::Again;\n}\n",
        ),
        ("src/a.rs", "pub struct Thing { pub x: u8 }\nmod hidden;\n"),
        ("src/a/hidden.rs", "pub struct Hidden;\n"),
        (
            "src/b/c.rs",
            "use super::super::a::{self as alpha};\npub struct Other { pub t: alpha::Thing }\npub type Again = crate::a::Thing;\n",
        ),
    ]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    assert!(x.diagnostics.is_empty(), "{:?}", x.diagnostics);
    assert_eq!(types(&x, "n"), ["Thing", "Other"]);
    // The alias is expanded where used: a ref to the same named type.
    assert!(matches!(&result(&x, "n", "three").kind, TypeKind::Ref(r) if r.name == "Thing"));
    // Provenance: every element knows where it came from.
    let at = |p: &str| x.provenance.iter().find(|(q, _)| q == p).map(|(_, l)| l.to_string());
    assert_eq!(at("/namespaces/n/types/Other").as_deref(), Some("src/b/c.rs:2:12"));
    assert_eq!(at("/namespaces/n/methods/two").as_deref(), Some("src/lib.rs:7:6"));
    assert_eq!(at("/namespaces/n/types/Other/fields/t").as_deref(), Some("src/b/c.rs:2:24"));
}

#[test]
fn a_missing_module_is_an_error_and_an_unresolved_type_is_any_with_one_warning_per_type() {
    let mut src = sources(&[(
        "src/lib.rs",
        "mod gone;\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn get(&self) -> Nowhere;\n    fn ext(&self) -> somecrate::Widget;\n    fn again(&self, w: somecrate::Widget) -> Vec<somecrate::Widget>;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let lines: Vec<String> = x
        .diagnostics
        .iter()
        .map(|d| format!("{} {} {}", d.location, d.severity.as_str(), d.code))
        .collect();
    assert_eq!(
        lines,
        [
            "src/lib.rs:1:5 error missing-module",
            "src/lib.rs:4:22 warning unresolved-type",
            "src/lib.rs:5:33 warning unresolved-type"
        ]
    );
    let widget = &x.diagnostics[2];
    assert!(widget.message.contains("(3 uses)"), "{}", widget.message);
    assert!(widget.help.as_ref().unwrap().contains("[types.\"somecrate::Widget\"]"));
    assert!(!widget.help.as_ref().unwrap().contains("kind = \"string\" ("), "no blind kind");
    assert_eq!(result(&x, "n", "ext").kind, TypeKind::Any);

    // `--strict`: the same types are errors.
    let mut strict = Config::default();
    strict.strict = true;
    let x = extract(&mut src, "src/lib.rs", &strict);
    let errors = x.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    assert_eq!(errors, 3);
}

#[test]
fn an_opaque_type_is_any_with_a_warning_and_its_help_suggests_the_kind_its_declaration_implies() {
    let mut src = sources(&[(
        "src/lib.rs",
        "pub struct Obj { a: u8 }\nimpl serde::Serialize for Obj { }\npub struct Name(String);\nimpl serde::Serialize for Name { }\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn o(&self) -> Obj;\n    fn s(&self) -> Name;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    assert!(!x.has_errors());
    let helps: Vec<&str> = x.diagnostics.iter().filter_map(|d| d.help.as_deref()).collect();
    assert!(helps[0].contains("[types.\"crate::Obj\"] kind = \"object\""), "{helps:?}");
    assert!(helps[1].contains("[types.\"crate::Name\"] kind = \"string\""), "{helps:?}");
    let mut strict = Config::default();
    strict.strict = true;
    assert!(extract(&mut src, "src/lib.rs", &strict).has_errors());
}

#[test]
fn types_entries_take_globs_and_the_longest_match_wins() {
    let config = Config::parse(
        "[types.\"alloy_eips::*\"]\nkind = \"any\"\n\n[types.\"alloy_eips::eip1898::*\"]\nkind = \"string\"\n\n[types.\"crate::Made\"]\nkind = \"integer\"\n",
        "accord.toml",
    )
    .unwrap();
    let mut src = sources(&[(
        "src/lib.rs",
        "use alloy_eips::eip1898::BlockId;\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn a(&self) -> alloy_eips::Other;\n    fn b(&self) -> BlockId;\n    fn c(&self) -> Made;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &config);
    assert!(x.diagnostics.is_empty(), "{:?}", x.diagnostics);
    assert_eq!(result(&x, "n", "a").kind, TypeKind::Any);
    assert!(matches!(result(&x, "n", "b").kind, TypeKind::String(_)));
    // A name nothing resolves (a macro's type) is described by its module path.
    assert!(matches!(result(&x, "n", "c").kind, TypeKind::Integer(_)));
}

#[test]
fn a_crate_without_rpc_traits_is_warned_about() {
    let mut src = sources(&[("src/lib.rs", "pub struct Lonely;\n")]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["no-rpc-traits"]);
    assert!(x.found_nothing());
}

#[test]
fn unknown_keys_of_accord_toml_are_refused_with_the_closest_known_key() {
    let err = |text: &str| Config::parse(text, "accord.toml").unwrap_err().to_string();
    assert_eq!(
        err("[extract]\nsourc = \".\"\n"),
        "accord.toml: unknown key `extract.sourc`: did you mean `extract.source`?"
    );
    assert_eq!(
        err("[namespaces.pump]\nverison = \"1.0.0\"\n"),
        "accord.toml: unknown key `namespaces.pump.verison`: did you mean `namespaces.pump.version`?"
    );
    assert!(err("[extract]\nzzz = 1\n").contains("known: `source`"));
    assert!(err("[extrct]\n").contains("did you mean `extract`?"));
}

#[test]
fn extract_source_in_accord_toml_is_one_directory_or_a_list() {
    let parse = |text: &str| Config::parse(text, "accord.toml").map(|c| c.sources);
    assert_eq!(parse("[extract]\nsource = \".\"\n").unwrap(), ["."]);
    assert_eq!(
        parse("[extract]\nsource = [\"plant\", \"../types\"]\n").unwrap(),
        ["plant", "../types"]
    );
    assert!(parse("").unwrap().is_empty());
    for bad in ["source = []", "source = [1]", "source = 1"] {
        let err = parse(&format!("[extract]\n{bad}\n")).unwrap_err().to_string();
        assert!(err.contains("`extract.source` must be a directory or a"), "{bad}: {err}");
    }
}

#[test]
fn an_override_in_accord_toml_describes_an_external_or_opaque_type() {
    let config = Config::parse(
        "[types.\"somecrate::Widget\"]\nkind = \"string\"\nformat = \"widget\"\n\n[types.\"crate::Raw\"]\nkind = \"integer\"\n",
        "accord.toml",
    )
    .unwrap();
    let mut src = sources(&[(
        "src/lib.rs",
        "pub struct Raw(u8);\nimpl serde::Serialize for Raw { }\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn ext(&self) -> somecrate::Widget;\n    fn raw(&self) -> Raw;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &config);
    assert!(x.diagnostics.is_empty(), "{:?}", x.diagnostics);
    assert!(
        matches!(&result(&x, "n", "ext").kind, TypeKind::String(r) if r.format.as_deref() == Some("widget"))
    );
    assert!(matches!(&result(&x, "n", "raw").kind, TypeKind::Integer(_)));
    assert!(Config::parse("[typo]\n", "accord.toml").is_err());
    assert!(
        Config::parse("[types.\"x\"]\nkind = \"tensor\"\n", "accord.toml")
            .unwrap_err()
            .to_string()
            .contains("tensor")
    );
}

#[test]
fn serde_repr_enums_are_integer_enums_of_their_discriminants() {
    let mut src = sources(&[(
        "src/lib.rs",
        "#[derive(Serialize_repr, Deserialize_repr)]\n#[repr(u8)]\npub enum Level { Low = 1, Mid, High = 7 }\n\
         /// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn level(&self) -> Level;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    assert!(x.diagnostics.is_empty(), "{:?}", x.diagnostics);
    let level = &x.document.namespaces.as_ref().unwrap()["n"].types.as_ref().unwrap()["Level"];
    let TypeKind::Enum(e) = &level.kind else { panic!("an enum: {level:?}") };
    assert_eq!(e.values, [serde_json::json!(1), serde_json::json!(2), serde_json::json!(7)]);
}

#[test]
fn a_jsonrpsee_trait_records_the_wire_it_is_served_on() {
    let mut src = sources(&[(
        "src/lib.rs",
        "#[rpc(server, namespace = \"boiler\")]\npub trait Boiler {\n    #[method(name = \"status\", unknown_key)]\n    fn n(&self) -> u8;\n\
         \x20   /// accord: name = \"level\"\n    #[method(name = \"drumLevel\")]\n    fn l(&self) -> u8;\n\
         \x20   #[subscription(name = \"subscribeTelemetry\" => \"telemetry\", item = u8)]\n    fn t(&self) -> SubscriptionResult;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    // `_` is recorded, not warned about.
    assert_eq!(codes, ["unknown-method-key", "no-version"]);
    // The model's own resolver reads the recorded wire as jsonrpsee serves it.
    let dialect = Dialect::of(&x.document).unwrap();
    assert_eq!(dialect.describe, None);
    assert_eq!(dialect.codes.profile, Profile::Jsonrpsee);
    assert_eq!(dialect.wire_name("boiler", "status"), Some("boiler_status"));
    // A method the doc tag renames keeps the name jsonrpsee serves.
    assert_eq!(dialect.wire_name("boiler", "level"), Some("boiler_drumLevel"));
    let Some(EventRoute::Pubsub(route)) = dialect.event("boiler.telemetry") else {
        panic!("a pubsub route: {:?}", dialect.event("boiler.telemetry"))
    };
    assert_eq!(route.subscribe, "boiler_subscribeTelemetry");
    assert_eq!(route.notification, "boiler_telemetry");
    // jsonrpsee's own rule names the unsubscribe method when the attribute does not.
    assert_eq!(route.unsubscribe, "boiler_unsubscribeTelemetry");
    assert!(route.params.is_empty());
}

#[test]
fn on_accords_wire_a_jsonrpsee_trait_without_the_dot_separator_is_warned_about() {
    let mut src = sources(&[(
        "src/lib.rs",
        "#[rpc(server, namespace = \"eth\")]\npub trait Eth {\n    #[method(name = \"blockNumber\", unknown_key)]\n    fn n(&self) -> u8;\n}\n",
    )]);
    let config = Config::parse("[extract]\nwire = \"accord\"\n", "accord.toml").unwrap();
    let x = extract(&mut src, "src/lib.rs", &config);
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["namespace-separator", "unknown-method-key", "no-version"]);
    assert!(!x.has_errors());
    assert_eq!(x.document.wire, None);
    assert_eq!(x.document.namespaces.as_ref().unwrap()["eth"].wire, None);
    let bad = Config::parse("[extract]\nwire = \"geth\"\n", "accord.toml").unwrap_err();
    assert!(bad.to_string().contains("`extract.wire` is `geth`"), "{bad}");
}

#[test]
fn a_generic_trait_reads_its_parameters_as_any_value_unless_accord_toml_binds_them() {
    let mut src = sources(&[(
        "src/lib.rs",
        "pub struct Block { pub n: u8 }\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api<T, U> {\n    fn get(&self, id: u8) -> Vec<T>;\n    fn other(&self) -> U;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["generic-trait", "generic-trait"]);
    assert!(
        matches!(&result(&x, "n", "get").kind, TypeKind::Array(a) if a.items.kind == TypeKind::Any)
    );
    let config = Config::parse("[generics.Api]\nT = \"crate::Block\"\n", "accord.toml").unwrap();
    let x = extract(&mut src, "src/lib.rs", &config);
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["generic-trait"], "U is still unbound");
    assert!(
        matches!(&result(&x, "n", "get").kind, TypeKind::Array(a) if matches!(&a.items.kind, TypeKind::Ref(r) if r.name == "Block"))
    );
    assert_eq!(result(&x, "n", "other").kind, TypeKind::Any);
}

#[test]
fn rpc_attributes_inside_and_outside_cfg_attr_are_read_together() {
    let mut src = sources(&[(
        "src/lib.rs",
        "/// accord: version = \"1.0.0\"\n#[rpc(server)]\n#[cfg_attr(feature = \"client\", rpc(client, namespace = \"eth\", namespace_separator = \".\"))]\npub trait Eth {\n    #[method(name = \"blockNumber\")]\n    fn n(&self) -> u8;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    assert!(x.diagnostics.is_empty(), "{:?}", x.diagnostics);
    assert!(
        x.document.namespaces.as_ref().unwrap()["eth"]
            .methods
            .as_ref()
            .unwrap()
            .contains_key("blockNumber")
    );
}

#[test]
fn integer_keyed_maps_under_buffered_content_are_warned_about() {
    let mut src = sources(&[(
        "src/lib.rs",
        "use std::collections::HashMap;\n\
         pub struct Counts { pub by_id: HashMap<u32, u32> }\n\
         #[serde(tag = \"t\")]\npub enum Event { Counted(Counts), Plain { by_name: HashMap<String, u8> } }\n\
         pub struct Outer { #[serde(flatten)] pub counts: Counts }\n\
         /// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn event(&self) -> Event;\n    fn outer(&self) -> Outer;\n    fn counts(&self) -> Counts;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let lines: Vec<String> =
        x.diagnostics.iter().map(|d| format!("{} {}", d.location, d.code)).collect();
    assert_eq!(lines, ["src/lib.rs:4:18 buffered-map-keys", "src/lib.rs:5:42 buffered-map-keys"]);
}

#[test]
fn traits_sharing_a_namespace_merge_and_a_method_declared_twice_differently_names_both_places() {
    let mut src = sources(&[(
        "src/lib.rs",
        "#[rpc(server, namespace = \"eth\")]\npub trait EthApi {\n    #[method(name = \"blockNumber\")]\n    fn block_number(&self) -> u64;\n    #[method(name = \"chainId\")]\n    fn chain_id(&self) -> u64;\n}\n\
         #[rpc(server, namespace = \"eth\")]\npub trait EthFilter {\n    #[method(name = \"newFilter\")]\n    fn new_filter(&self) -> String;\n    #[method(name = \"chainId\")]\n    fn chain_id(&self) -> u64;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let ns = &x.document.namespaces.as_ref().unwrap()["eth"];
    let methods: Vec<&String> = ns.methods.as_ref().unwrap().keys().collect();
    assert_eq!(methods, ["blockNumber", "chainId", "newFilter"]);
    // Identical declarations are no conflict; each method's place is in its own trait.
    assert!(!x.has_errors(), "{:?}", x.diagnostics);
    let at = |p: &str| x.provenance.iter().find(|(q, _)| q == p).map(|(_, l)| l.to_string());
    assert_eq!(at("/namespaces/eth/methods/newFilter").as_deref(), Some("src/lib.rs:11:8"));
    assert_eq!(at("/namespaces/eth/methods/chainId").as_deref(), Some("src/lib.rs:6:8"));

    let mut differ = sources(&[(
        "src/lib.rs",
        "#[rpc(server, namespace = \"eth\")]\npub trait EthApi {\n    #[method(name = \"chainId\")]\n    fn chain_id(&self) -> u64;\n}\n\
         #[rpc(server, namespace = \"eth\")]\npub trait EthFilter {\n    #[method(name = \"chainId\")]\n    fn chain_id(&self) -> String;\n}\n",
    )]);
    let x = extract(&mut differ, "src/lib.rs", &Config::default());
    let errors: Vec<String> = x
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            "src/lib.rs:9:8: error[duplicate-member]: method `eth.chainId` is declared by trait `EthApi` (src/lib.rs:4:8) and, differently, by trait `EthFilter`\n  help: rename one, or make the two declarations identical; the contract keeps the one in `EthApi`"
        ]
    );
}

#[test]
fn types_are_followed_into_dependencies_through_reexports_and_globs_and_the_table_wins() {
    let mut src = sources(&[
        (
            "src/lib.rs",
            "use dep_b::nested::*;\n/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn a(&self) -> dep_a::Thing;\n    fn b(&self) -> Other;\n    fn c(&self) -> gone::Lost;\n    fn d(&self) -> dep_a::Address;\n}\n",
        ),
        // dep_a re-exports a type of dep_b, and names alloy's Address, which the table knows.
        ("deps/a/lib.rs", "pub use dep_b::Thing;\npub use alloy_primitives::Address;\n"),
        (
            "deps/b/lib.rs",
            "pub mod nested { pub struct Other { pub x: u8 } }\npub struct Thing { pub inner: crate::nested::Other }\n",
        ),
    ]);
    let deps = [
        Dependency { name: "dep_a".into(), root: "deps/a/lib.rs".into() },
        Dependency { name: "dep_b".into(), root: "deps/b/lib.rs".into() },
        Dependency { name: "gone".into(), root: "/nowhere/src/lib.rs".into() },
    ];
    let x = extract_with_dependencies(&mut src, "src/lib.rs", &Config::default(), &deps);
    assert_eq!(types(&x, "n"), ["Thing", "Other"]);
    assert!(matches!(&result(&x, "n", "d").kind, TypeKind::String(r) if r.pattern.is_some()));
    let lines: Vec<String> = x.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "src/lib.rs:1:1: warning[dependencies-not-read]: dependencies the code names whose source is not on disk, so their types are not read: gone; read: dep_a, dep_b\n  help: `cargo fetch` in the crate (or drop --offline) puts their source on disk",
            "src/lib.rs:6:26: warning[unresolved-type]: `gone::Lost` is an external type extract does not know and whose source it could not read (1 use); read as any value\n  help: describe it in accord.toml: [types.\"gone::Lost\"] with the type node of what its serde form writes (kind = \"object\", \"string\", …)"
        ]
    );
}

#[test]
fn a_subscriptions_params_are_recorded_in_its_event_wire() {
    let mut src = sources(&[(
        "src/lib.rs",
        "pub struct Log { pub data: String }\npub struct Filter { pub address: String }\n#[rpc(server, namespace = \"eth\")]\npub trait EthPubSub {\n    #[subscription(name = \"subscribeLogs\" => \"logs\", item = Log)]\n    fn subscribe_logs(&self, filter: Filter, limit: Option<u32>) -> SubscriptionResult;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let doc = x.document.to_value();
    let wire = &doc["namespaces"]["eth"]["wire"]["events"]["logs"];
    assert_eq!(wire["subscribe"], "eth_subscribeLogs");
    assert_eq!(wire["unsubscribe"], "eth_unsubscribeLogs");
    assert_eq!(wire["notification"], "eth_logs");
    assert_eq!(wire["arguments"][0]["name"], "filter");
    assert_eq!(wire["arguments"][0]["type"]["kind"], "ref");
    assert_eq!(wire["arguments"][1]["name"], "limit");
    assert_eq!(wire["arguments"][1]["optional"], true);
    assert_eq!(doc["namespaces"]["eth"]["events"]["logs"]["payload"]["name"], "Log");
    // It reads back and writes the same (a member the model keeps as written).
    let text = x.document.to_canonical_string();
    let again = accord_schema_model::Document::parse(&text).unwrap();
    assert_eq!(again.to_canonical_string(), text);
}

#[test]
fn a_generic_trait_is_bound_by_the_crates_one_impl_of_its_server_trait() {
    let mut src = sources(&[(
        "src/lib.rs",
        "mod node { pub struct Block { pub n: u8 } pub struct Node; impl super::ApiServer<Block> for Node {} }\n#[rpc(server, namespace = \"n\")]\npub trait Api<T> {\n    #[method(name = \"get\")]\n    fn get(&self) -> T;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    assert!(!x.diagnostics.iter().any(|d| d.code == "generic-trait"), "{:?}", x.diagnostics);
    assert!(matches!(&result(&x, "n", "get").kind, TypeKind::Ref(r) if r.name == "Block"));
}

#[test]
fn an_option_param_admits_null_and_a_committed_t_narrowing_it_is_kept_by_the_merge() {
    let mut src = sources(&[(
        "src/lib.rs",
        "/// accord: namespace = \"n\", version = \"1.0.0\"\npub trait Api {\n    fn f(&self, a: Option<u8>, b: Option<u32>) -> u8;\n}\n",
    )]);
    let x = extract(&mut src, "src/lib.rs", &Config::default());
    let doc = x.document.to_value();
    let params = &doc["namespaces"]["n"]["methods"]["f"]["params"];
    for p in [0, 1] {
        assert_eq!(params[p]["type"]["kind"], "union", "{params}");
        assert_eq!(params[p]["type"]["variants"][1]["kind"], "null");
        assert_eq!(params[p]["optional"], true);
    }
    // A committed `T` (with its bound) narrows `b` and is kept; `a` (already `T | null`) stays.
    let committed = accord_schema_model::Document::parse(
        r#"{"schema": 1, "namespaces": {"n": {"version": "1.0.0", "methods": {"f": {
            "params": [
              {"name": "a", "type": {"kind": "union", "variants": [{"kind": "integer"}, {"kind": "null"}]}, "optional": true},
              {"name": "b", "type": {"kind": "integer", "max": 10, "unit": "s"}, "optional": true}
            ],
            "result": {"kind": "integer"}}}}}}"#,
    )
    .unwrap();
    let merged = accord_extract::merge(&x, &committed).to_value();
    let params = &merged["namespaces"]["n"]["methods"]["f"]["params"];
    assert_eq!(params[0]["type"]["kind"], "union", "{params}");
    assert_eq!(params[1]["type"], serde_json::json!({"kind": "integer", "max": 10, "unit": "s"}));
}
