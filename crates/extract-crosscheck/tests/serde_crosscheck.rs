//! The serde cross-check of every extract fixture (see the crate doc).

use std::path::Path;

use accord_schema_model::{Document, Field, TypeKind, TypeNode};
use accord_validate::{Contract, Target};
use serde::{Serialize, de::DeserializeOwned};

/// Compiles `fixtures/extract/<case>/src/lib.rs` as module `$name` (fixture code is plain crate
/// code, not held to this workspace's lints).
macro_rules! fixture {
    ($($name:ident => $path:literal),* $(,)?) => {$(
        #[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
        #[path = $path]
        mod $name;
    )*};
}

fixture! {
    assoc_types => "../../../fixtures/extract/assoc-types/src/lib.rs",
    collections => "../../../fixtures/extract/collections/src/lib.rs",
    deps_path => "../../../fixtures/extract/deps-path/types/src/lib.rs",
    deps_vendored => "../../../fixtures/extract/deps-vendored/src/lib.rs",
    docs_deprecated => "../../../fixtures/extract/docs-deprecated/src/lib.rs",
    enum_external => "../../../fixtures/extract/enum-external/src/lib.rs",
    generics_aliases => "../../../fixtures/extract/generics-aliases/src/lib.rs",
    generics_impl => "../../../fixtures/extract/generics-impl/src/lib.rs",
    impl_serialize => "../../../fixtures/extract/impl-serialize/src/lib.rs",
    modules => "../../../fixtures/extract/modules/src/lib.rs",
    no_finite_value => "../../../fixtures/extract/no-finite-value/src/lib.rs",
    presence => "../../../fixtures/extract/presence/src/lib.rs",
    rpc_jsonrpc_derive => "../../../fixtures/extract/rpc-jsonrpc-derive/src/lib.rs",
    rpc_jsonrpsee => "../../../fixtures/extract/rpc-jsonrpsee/src/lib.rs",
    rpc_wire_names => "../../../fixtures/extract/rpc-wire-names/src/lib.rs",
    scalars => "../../../fixtures/extract/scalars/src/lib.rs",
    serde_alias => "../../../fixtures/extract/serde-alias/src/lib.rs",
    serde_default => "../../../fixtures/extract/serde-default/src/lib.rs",
    serde_deny_unknown_fields => "../../../fixtures/extract/serde-deny-unknown-fields/src/lib.rs",
    serde_flatten => "../../../fixtures/extract/serde-flatten/src/lib.rs",
    serde_from_into => "../../../fixtures/extract/serde-from-into/src/lib.rs",
    serde_other => "../../../fixtures/extract/serde-other/src/lib.rs",
    serde_rename => "../../../fixtures/extract/serde-rename/src/lib.rs",
    serde_rename_all => "../../../fixtures/extract/serde-rename-all/src/lib.rs",
    serde_rename_all_fields => "../../../fixtures/extract/serde-rename-all-fields/src/lib.rs",
    serde_rename_per_direction => "../../../fixtures/extract/serde-rename-per-direction/src/lib.rs",
    serde_serialize_with => "../../../fixtures/extract/serde-serialize-with/src/lib.rs",
    serde_skip => "../../../fixtures/extract/serde-skip/src/lib.rs",
    serde_skip_deserializing => "../../../fixtures/extract/serde-skip-deserializing/src/lib.rs",
    serde_skip_serializing => "../../../fixtures/extract/serde-skip-serializing/src/lib.rs",
    serde_skip_serializing_if => "../../../fixtures/extract/serde-skip-serializing-if/src/lib.rs",
    serde_tag => "../../../fixtures/extract/serde-tag/src/lib.rs",
    serde_tag_content => "../../../fixtures/extract/serde-tag-content/src/lib.rs",
    serde_transparent => "../../../fixtures/extract/serde-transparent/src/lib.rs",
    serde_untagged => "../../../fixtures/extract/serde-untagged/src/lib.rs",
    serde_with => "../../../fixtures/extract/serde-with/src/lib.rs",
    smart_pointers => "../../../fixtures/extract/smart-pointers/src/lib.rs",
    struct_shapes => "../../../fixtures/extract/struct-shapes/src/lib.rs",
    union_collapse => "../../../fixtures/extract/union-collapse/src/lib.rs",
    unit_enum => "../../../fixtures/extract/unit-enum/src/lib.rs",
    unresolved => "../../../fixtures/extract/unresolved/src/lib.rs",
    well_known => "../../../fixtures/extract/well-known/src/lib.rs",
    well_known_crates => "../../../fixtures/extract/well-known-crates/src/lib.rs",
    well_known_eth => "../../../fixtures/extract/well-known-eth/src/lib.rs",
    workspace => "../../../fixtures/extract/workspace/crates/types/src/lib.rs",
    workspace_member => "../../../fixtures/extract/workspace-member/types/src/lib.rs",
    workspace_root_package => "../../../fixtures/extract/workspace-root-package/src/lib.rs",
    workspace_root_package_valves =>
        "../../../fixtures/extract/workspace-root-package/valves/src/lib.rs",
}

/// Checks one type: `(contract name, check)`.
type Check = (&'static str, fn(&Contract, &Contract, &str, &str) -> Result<(), String>);

struct Case {
    dir: &'static str,
    checks: Vec<Check>,
    /// Types whose shape extract reports it cannot know (an error diagnostic): not checked.
    unknowable: Vec<&'static str>,
    /// Types whose contract extract warns is wrong for one direction (a warning names what the
    /// format cannot say): checked, and the check must fail, so a fixed extraction shows here.
    known_wrong: Vec<&'static str>,
}

macro_rules! checks {
    ($($name:literal => $ty:ty),* $(,)?) => {
        vec![$(($name, check::<$ty> as fn(&Contract, &Contract, &str, &str) -> Result<(), String>)),*]
    };
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            dir: "assoc-types",
            // Each checked as the associated type really is, so a wrong impl picked shows.
            checks: checks![
                "EthPayloadAttributes" =>
                    <assoc_types::EthEngine as assoc_types::EngineTypes>::PayloadAttributes,
                "EthPayload" => <assoc_types::EthEngine as assoc_types::EngineTypes>::Payload,
                "Header" => assoc_types::Header,
                "PooledTx" => <assoc_types::MainPool as assoc_types::PoolTypes>::Transaction,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "collections",
            checks: checks!["Collections" => collections::Collections, "Axis" => collections::Axis],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "deps-path",
            checks: checks![
                "Unit" => deps_path::Unit, "Reading" => deps_path::Reading,
                "Alarm" => deps_path::alarms::Alarm, "Gauge" => deps_path::prelude::Gauge,
            ],
            unknowable: vec!["Calibration"],
            known_wrong: vec![],
        },
        Case {
            // The types are rgb's own, read from its vendored source and checked against the real
            // crate's serde.
            dir: "deps-vendored",
            checks: checks![
                "Rgb<u8>" => rgb::RGB8, "Rgba<u16>" => rgb::Rgba<u16>,
                "Gray_v08<u8>" => rgb::Gray<u8>, "GrayAlpha_v08<u8>" => rgb::GrayAlpha<u8>,
                "Bgr<u8>" => rgb::alt::BGR8,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "docs-deprecated",
            checks: checks!["Level" => docs_deprecated::Level],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "enum-external",
            checks: checks!["Shape" => enum_external::Shape, "Inner" => enum_external::Inner],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "generics-aliases",
            checks: checks![
                "Page<Block>" => generics_aliases::Page<generics_aliases::Block>,
                "Block" => generics_aliases::Block,
                "Page<BlockNumber>" => generics_aliases::Page<generics_aliases::ids::BlockNumber>,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "generics-impl",
            checks: checks!["Block" => generics_impl::Block, "Receipt" => generics_impl::Receipt],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "impl-serialize",
            checks: checks![],
            unknowable: vec!["Reading", "Celsius"],
            known_wrong: vec![],
        },
        Case {
            dir: "modules",
            checks: checks![
                "Overview" => modules::Overview,
                "Status" => modules::pump::Status,
                "valve::Status" => modules::valve::Status,
                "Position" => modules::valve::Position,
                "Odd" => modules::odd::Odd,
                "Deep" => modules::pump::inner::Deep,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            // No value of `Chain`, `Ring` or `Pair` can be built (each holds another of its
            // cycle), so neither can one of `Holder`: the contract reads the cycles' first types
            // as any value; `List`'s recursion ends.
            dir: "no-finite-value",
            checks: checks!["List" => no_finite_value::List],
            unknowable: vec!["Chain", "Ring", "Pair", "Holder"],
            known_wrong: vec![],
        },
        Case {
            dir: "presence",
            checks: checks!["Reading" => presence::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "rpc-jsonrpc-derive",
            checks: checks![
                "BlockNumber" => rpc_jsonrpc_derive::BlockNumber,
                "TransactionRequest" => rpc_jsonrpc_derive::TransactionRequest,
                "Header" => rpc_jsonrpc_derive::Header,
                "Filter" => rpc_jsonrpc_derive::Filter,
                "BlockTag" => rpc_jsonrpc_derive::BlockTag,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "rpc-jsonrpsee",
            checks: checks!["Block" => rpc_jsonrpsee::Block, "Head" => rpc_jsonrpsee::Head],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "rpc-wire-names",
            checks: checks![
                "Header" => rpc_wire_names::Header, "Digest" => rpc_wire_names::Digest,
                "Block" => rpc_wire_names::Block, "SignedBlock" => rpc_wire_names::SignedBlock,
                "StorageKey" => rpc_wire_names::StorageKey,
                "StorageData" => rpc_wire_names::StorageData,
                "StorageChangeSet" => rpc_wire_names::StorageChangeSet,
                "ReadProof" => rpc_wire_names::ReadProof,
                "RuntimeVersion" => rpc_wire_names::RuntimeVersion,
                "Health" => rpc_wire_names::Health, "PeerInfo" => rpc_wire_names::PeerInfo,
                "NodeRole" => rpc_wire_names::NodeRole, "ChainType" => rpc_wire_names::ChainType,
                "SyncState" => rpc_wire_names::SyncState,
                "TransactionStatus" => rpc_wire_names::TransactionStatus,
                "FollowEvent" => rpc_wire_names::FollowEvent,
                "MethodResponse" => rpc_wire_names::MethodResponse,
                "StorageQuery" => rpc_wire_names::StorageQuery,
                "StorageQueryType" => rpc_wire_names::StorageQueryType,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "scalars",
            checks: checks!["Scalars" => scalars::Scalars],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-alias",
            checks: checks!["Reading" => serde_alias::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-default",
            checks: checks![
                "Reading" => serde_default::Reading, "Settings" => serde_default::Settings,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-deny-unknown-fields",
            checks: checks!["Strict" => serde_deny_unknown_fields::Strict],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-flatten",
            checks: checks!["Request" => serde_flatten::Request, "Labels" => serde_flatten::Labels],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-from-into",
            checks: checks![],
            unknowable: vec!["Level", "Percent"],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-other",
            checks: checks!["Severity" => serde_other::Severity],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-rename",
            checks: checks!["Original" => serde_rename::Original],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-rename-all",
            checks: checks![
                "Camel" => serde_rename_all::Camel, "Screaming" => serde_rename_all::Screaming,
                "Pascal" => serde_rename_all::Pascal, "Command" => serde_rename_all::Command,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-rename-all-fields",
            checks: checks!["Command" => serde_rename_all_fields::Command],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-rename-per-direction",
            checks: checks![
                "Reading" => serde_rename_per_direction::Reading,
                "Mode" => serde_rename_per_direction::Mode,
            ],
            unknowable: vec![],
            known_wrong: vec!["Mode"],
        },
        Case {
            dir: "serde-serialize-with",
            checks: checks![],
            unknowable: vec!["Register"],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-skip",
            checks: checks!["Reading" => serde_skip::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-skip-deserializing",
            checks: checks!["Reading" => serde_skip_deserializing::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-skip-serializing",
            checks: checks!["Credentials" => serde_skip_serializing::Credentials],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-skip-serializing-if",
            checks: checks!["Reading" => serde_skip_serializing_if::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-tag",
            checks: checks!["Mode" => serde_tag::Mode],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-tag-content",
            checks: checks!["Message" => serde_tag_content::Message],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-transparent",
            checks: checks!["Tag" => serde_transparent::Tag],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-untagged",
            checks: checks!["Value" => serde_untagged::Value, "Reading" => serde_untagged::Reading],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "serde-with",
            checks: checks![],
            unknowable: vec!["Counter"],
            known_wrong: vec![],
        },
        Case {
            dir: "smart-pointers",
            checks: checks![
                "Pointers" => smart_pointers::Pointers, "Inner" => smart_pointers::Inner,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "struct-shapes",
            checks: checks![
                "Nothing" => struct_shapes::Nothing, "Meters" => struct_shapes::Meters,
                "Pair" => struct_shapes::Pair, "Point" => struct_shapes::Point,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            // Its element types are made by macros: the arms are any value, merged.
            dir: "union-collapse",
            checks: checks![],
            unknowable: vec!["FilterChanges", "Either"],
            known_wrong: vec![],
        },
        Case {
            dir: "unit-enum",
            checks: checks!["State" => unit_enum::State],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "unresolved",
            checks: checks![],
            unknowable: vec!["Holder"],
            known_wrong: vec![],
        },
        Case {
            dir: "well-known",
            checks: checks!["Known" => well_known::Known],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "well-known-crates",
            checks: checks!["Stamped" => well_known_crates::Stamped],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "well-known-eth",
            checks: checks!["Account" => well_known_eth::Account],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            // The wire types live in the workspace's `ws-types` member, the traits in two others.
            dir: "workspace",
            checks: checks![
                "Block" => workspace::Block, "Filter" => workspace::logs::Filter,
                "Log" => workspace::logs::Log,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            dir: "workspace-member",
            checks: checks!["Reading" => workspace_member::Reading, "Unit" => workspace_member::Unit],
            unknowable: vec![],
            known_wrong: vec![],
        },
        Case {
            // The root package's types and a member's.
            dir: "workspace-root-package",
            checks: checks![
                "Reading" => workspace_root_package::Reading,
                "Position" => workspace_root_package_valves::Position,
            ],
            unknowable: vec![],
            known_wrong: vec![],
        },
    ]
}

const SEEDS: u64 = 48;

/// Values made from the contract's input reading must deserialize into `T`; what `T` writes
/// back must validate against its output reading.
fn check<T: Serialize + DeserializeOwned>(
    input: &Contract,
    output: &Contract,
    ns: &str,
    name: &str,
) -> Result<(), String> {
    let target = Target::Type { namespace: ns.into(), name: name.into() };
    let gen_v = input.validator(&target).map_err(|e| e.to_string())?;
    let out_v = output.validator(&target).map_err(|e| e.to_string())?;
    for seed in 0..SEEDS {
        let value = gen_v.generate(seed).map_err(|e| format!("no value to generate: {e}"))?;
        let typed: T = serde_json::from_value(value.clone())
            .map_err(|e| format!("serde refuses a value the contract admits: {value} ({e})"))?;
        let back =
            serde_json::to_value(&typed).map_err(|e| format!("serde cannot write it back: {e}"))?;
        if let Err(errors) = out_v.validate(&back) {
            let first = &errors[0];
            return Err(format!(
                "the contract refuses what serde writes: {back} (at {}: expected {}, found {})",
                first.pointer, first.expected, first.found
            ));
        }
    }
    Ok(())
}

/// The contract as one direction reads it: each field's and param's presence in that
/// direction becomes its `optional` (what a direction-blind validator and generator read).
fn project(doc: &Document, input: bool) -> Document {
    fn field(f: &mut Field, input: bool) {
        let optional = if input { f.is_optional_in() } else { f.is_optional_out() };
        f.optional = optional.then_some(true);
        f.input_optional = None;
        f.output_optional = None;
        node(&mut f.ty, input);
    }
    fn node(n: &mut TypeNode, input: bool) {
        match &mut n.kind {
            TypeKind::Array(a) => node(&mut a.items, input),
            TypeKind::Tuple(t) => t.elements.iter_mut().for_each(|e| node(e, input)),
            TypeKind::Object(o) => o.fields.iter_mut().flatten().for_each(|(_, f)| field(f, input)),
            TypeKind::Map(m) => node(&mut m.values, input),
            TypeKind::Union(u) => u.variants.iter_mut().for_each(|v| node(v, input)),
            _ => {}
        }
    }
    let mut doc = doc.clone();
    for ns in doc.namespaces.iter_mut().flatten().map(|(_, ns)| ns) {
        for t in ns.types.iter_mut().flatten().map(|(_, t)| t) {
            node(t, input);
        }
        for m in ns.methods.iter_mut().flatten().map(|(_, m)| m) {
            m.params.iter_mut().flatten().for_each(|p| field(&mut p.field, input));
            node(&mut m.result, input);
        }
        for e in ns.events.iter_mut().flatten().map(|(_, e)| e) {
            node(&mut e.payload, input);
        }
    }
    doc
}

#[test]
fn every_fixture_agrees_with_serde() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
    let cases = cases();
    // Every case with an expected contract: single crates, a crate with a path dependency, a
    // workspace.
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|d| root.join(d).join("expected.types.json").is_file())
        .collect();
    dirs.sort();
    let covered: Vec<String> = cases.iter().map(|c| c.dir.to_owned()).collect();
    assert_eq!(dirs, covered, "every fixture case is compiled and checked here");

    let mut failures = Vec::new();
    for case in &cases {
        let text =
            std::fs::read_to_string(root.join(case.dir).join("expected.types.json")).unwrap();
        let doc = Document::parse(&text).unwrap();
        let input = Contract::compile(&project(&doc, true)).unwrap();
        let output = Contract::compile(&project(&doc, false)).unwrap();
        for (ns_name, ns) in doc.namespaces.iter().flatten() {
            for type_name in ns.types.iter().flatten().map(|(n, _)| n) {
                if case.unknowable.contains(&type_name.as_str()) {
                    continue;
                }
                match case.checks.iter().find(|(n, _)| n == type_name) {
                    Some((_, f)) => {
                        let result = f(&input, &output, ns_name, type_name);
                        let wrong = case.known_wrong.contains(&type_name.as_str());
                        match result {
                            Err(e) if !wrong => {
                                failures.push(format!("{}: {ns_name}.{type_name}: {e}", case.dir))
                            }
                            Ok(()) if wrong => failures.push(format!(
                                "{}: {ns_name}.{type_name} is listed as known wrong but agrees with serde",
                                case.dir
                            )),
                            _ => {}
                        }
                    }
                    None => failures.push(format!(
                        "{}: type `{type_name}` has no Rust type to check against",
                        case.dir
                    )),
                }
            }
        }
    }
    for case in &cases {
        let text =
            std::fs::read_to_string(root.join(case.dir).join("expected.types.json")).unwrap();
        let doc = Document::parse(&text).unwrap();
        let named: Vec<&String> = doc
            .namespaces
            .iter()
            .flatten()
            .flat_map(|(_, ns)| ns.types.iter().flatten().map(|(n, _)| n))
            .collect();
        for (name, _) in &case.checks {
            if !named.iter().any(|n| n == name) {
                failures.push(format!(
                    "{}: the table checks `{name}`, which the contract does not have",
                    case.dir
                ));
            }
        }
    }
    assert!(failures.is_empty(), "extraction disagrees with serde:\n{}", failures.join("\n"));
}

/// The params of `chain.getBlock` as jsonrpsee's generated server reads them, on serde:
/// by name into a struct of the params (`param_kind = map`), by position one after the other,
/// a missing trailing `Option` read as `None` (jsonrpsee's `ParamsSequence::optional_next`).
#[derive(serde::Deserialize)]
struct GetBlockByName {
    #[serde(rename = "blockNumber")]
    _number: u32,
    #[serde(rename = "full")]
    _full: Option<bool>,
}

fn get_block_as_jsonrpsee_reads(params: &serde_json::Value) -> Result<(), String> {
    match params {
        serde_json::Value::Object(_) => serde_json::from_value::<GetBlockByName>(params.clone())
            .map(drop)
            .map_err(|e| e.to_string()),
        serde_json::Value::Array(items) => {
            let number = items.first().ok_or("no blockNumber")?;
            serde_json::from_value::<u32>(number.clone()).map_err(|e| e.to_string())?;
            if let Some(full) = items.get(1) {
                serde_json::from_value::<Option<bool>>(full.clone()).map_err(|e| e.to_string())?;
            }
            if items.len() > 2 {
                return Err("too many params".into());
            }
            Ok(())
        }
        other => Err(format!("params neither an array nor an object: {other}")),
    }
}

/// An `Option<T>` param is `T | null`, as serde reads it: the explicit `null` jsonrpsee hands
/// to serde is read as `None`, so the contract admits it, by name and by position, and every
/// params value the contract admits is one jsonrpsee's server reads.
#[test]
fn option_params_admit_the_null_serde_accepts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
    let text = std::fs::read_to_string(root.join("rpc-jsonrpsee/expected.types.json")).unwrap();
    let doc = Document::parse(&text).unwrap();
    let input = Contract::compile(&project(&doc, true)).unwrap();
    let target = Target::Params { namespace: "chain".into(), method: "getBlock".into() };
    let v = input.validator(&target).unwrap();
    for sent in [
        serde_json::json!({"blockNumber": 7, "full": null}),
        serde_json::json!([7, null]),
        serde_json::json!({"blockNumber": 7}),
        serde_json::json!([7]),
    ] {
        get_block_as_jsonrpsee_reads(&sent).unwrap_or_else(|e| panic!("serde refuses {sent}: {e}"));
        assert!(v.validate(&sent).is_ok(), "the contract refuses {sent}, which serde accepts");
    }
    for seed in 0..SEEDS {
        let value = v.generate(seed).unwrap();
        get_block_as_jsonrpsee_reads(&value)
            .unwrap_or_else(|e| panic!("serde refuses params the contract admits: {value} ({e})"));
    }
}

/// Extract never writes what `accord check` refuses: every fixture's extracted contract (the
/// expected document, which the extract fixture test holds byte for byte to the extraction)
/// has no error under check's lint.
#[test]
fn every_extracted_contract_passes_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs {
        let Ok(text) = std::fs::read_to_string(dir.join("expected.types.json")) else { continue };
        let doc = match Document::parse(&text) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{}: does not read: {e}", dir.display()));
                continue;
            }
        };
        checked += 1;
        if let Err(e) = accord_schema_model::Dialect::of(&doc) {
            failures.push(format!("{}: wire-unresolved: {e}", dir.display()));
        }
        let report = accord_validate::LintReport::of(&doc);
        for d in
            report.diagnostics.iter().filter(|d| d.severity == accord_schema_model::Severity::Error)
        {
            failures.push(format!("{}: {d:?}", dir.display()));
        }
    }
    assert!(checked >= 45, "only {checked} fixture contracts found");
    assert!(failures.is_empty(), "check refuses extracted contracts:\n{}", failures.join("\n"));
}
