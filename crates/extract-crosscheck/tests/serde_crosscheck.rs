//! The serde cross-check of every extract fixture (see the crate doc).

use std::path::Path;

use accord_schema_model::{Document, Field, TypeKind, TypeNode};
use accord_validate::{Contract, Target};
use serde::{Serialize, de::DeserializeOwned};

#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/collections/src/lib.rs"]
mod collections;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/docs-deprecated/src/lib.rs"]
mod docs_deprecated;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/enum-adjacent/src/lib.rs"]
mod enum_adjacent;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/enum-external/src/lib.rs"]
mod enum_external;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/enum-internal/src/lib.rs"]
mod enum_internal;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/enum-untagged/src/lib.rs"]
mod enum_untagged;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/flatten/src/lib.rs"]
mod flatten;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/generics-aliases/src/lib.rs"]
mod generics_aliases;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/modules/src/lib.rs"]
mod modules;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/opaque/src/lib.rs"]
mod opaque;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/presence/src/lib.rs"]
mod presence;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/rename/src/lib.rs"]
mod rename;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/rpc-jsonrpsee/src/lib.rs"]
mod rpc_jsonrpsee;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/scalars/src/lib.rs"]
mod scalars;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/struct-shapes/src/lib.rs"]
mod struct_shapes;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/transparent-closed/src/lib.rs"]
mod transparent_closed;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/unit-enum/src/lib.rs"]
mod unit_enum;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/unresolved/src/lib.rs"]
mod unresolved;
#[allow(unreachable_pub, dead_code, unexpected_cfgs, deprecated, missing_docs, clippy::all)]
#[path = "../../../fixtures/extract/well-known/src/lib.rs"]
mod well_known;

/// Checks one type: `(contract name, check)`.
type Check = (&'static str, fn(&Contract, &Contract, &str, &str) -> Result<(), String>);

struct Case {
    dir: &'static str,
    checks: Vec<Check>,
    /// Types whose shape extract reports it cannot know (an error diagnostic): not checked.
    unknowable: Vec<&'static str>,
}

macro_rules! checks {
    ($($name:literal => $ty:ty),* $(,)?) => {
        vec![$(($name, check::<$ty> as fn(&Contract, &Contract, &str, &str) -> Result<(), String>)),*]
    };
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            dir: "collections",
            checks: checks!["Collections" => collections::Collections, "Axis" => collections::Axis],
            unknowable: vec![],
        },
        Case {
            dir: "docs-deprecated",
            checks: checks!["Level" => docs_deprecated::Level],
            unknowable: vec![],
        },
        Case {
            dir: "enum-adjacent",
            checks: checks!["Message" => enum_adjacent::Message],
            unknowable: vec![],
        },
        Case {
            dir: "enum-external",
            checks: checks!["Shape" => enum_external::Shape, "Inner" => enum_external::Inner],
            unknowable: vec![],
        },
        Case {
            dir: "enum-internal",
            checks: checks!["Mode" => enum_internal::Mode],
            unknowable: vec![],
        },
        Case {
            dir: "enum-untagged",
            checks: checks!["Value" => enum_untagged::Value, "Reading" => enum_untagged::Reading],
            unknowable: vec![],
        },
        Case {
            dir: "flatten",
            checks: checks!["Request" => flatten::Request, "Labels" => flatten::Labels],
            unknowable: vec![],
        },
        Case {
            dir: "generics-aliases",
            checks: checks![
                "Page<Block>" => generics_aliases::Page<generics_aliases::Block>,
                "Block" => generics_aliases::Block,
                "Page<BlockNumber>" => generics_aliases::Page<generics_aliases::ids::BlockNumber>,
            ],
            unknowable: vec![],
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
        },
        Case { dir: "opaque", checks: checks![], unknowable: vec!["Reading", "Celsius"] },
        Case {
            dir: "presence",
            checks: checks!["Reading" => presence::Reading, "Settings" => presence::Settings],
            unknowable: vec![],
        },
        Case {
            dir: "rename",
            checks: checks![
                "Camel" => rename::Camel, "Screaming" => rename::Screaming, "Pascal" => rename::Pascal,
                "Command" => rename::Command, "Original" => rename::Original,
            ],
            unknowable: vec![],
        },
        Case {
            dir: "rpc-jsonrpsee",
            checks: checks!["Block" => rpc_jsonrpsee::Block, "Head" => rpc_jsonrpsee::Head],
            unknowable: vec![],
        },
        Case { dir: "scalars", checks: checks!["Scalars" => scalars::Scalars], unknowable: vec![] },
        Case {
            dir: "struct-shapes",
            checks: checks![
                "Nothing" => struct_shapes::Nothing, "Meters" => struct_shapes::Meters,
                "Pair" => struct_shapes::Pair, "Point" => struct_shapes::Point,
            ],
            unknowable: vec![],
        },
        Case {
            dir: "transparent-closed",
            checks: checks!["Strict" => transparent_closed::Strict, "Tag" => transparent_closed::Tag],
            unknowable: vec![],
        },
        Case {
            dir: "unit-enum",
            checks: checks!["State" => unit_enum::State, "Severity" => unit_enum::Severity],
            unknowable: vec![],
        },
        Case { dir: "unresolved", checks: checks![], unknowable: vec!["Holder"] },
        Case {
            dir: "well-known",
            checks: checks!["Known" => well_known::Known],
            unknowable: vec![],
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
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|d| root.join(d).join("src").is_dir())
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
                        if let Err(e) = f(&input, &output, ns_name, type_name) {
                            failures.push(format!("{}: {ns_name}.{type_name}: {e}", case.dir));
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
