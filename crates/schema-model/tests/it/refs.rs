//! What a ref names (docs/format.md §7.12): a type of its own namespace unless it names another,
//! chains of refs followed to their end, dangling refs and cycles refused.

use accord_schema_model::{Document, RefType, Resolved, TypeKind, TypeNode};

const DOC: &str = r#"{"schema": 1, "namespaces": {
  "pump": {"version": "1.0.0", "types": {
    "Rpm": {"kind": "integer"}, "Speed": {"kind": "ref", "name": "Rpm"},
    "Level": {"kind": "ref", "name": "Metres", "namespace": "tank"},
    "Loop": {"kind": "ref", "name": "Loop2"}, "Loop2": {"kind": "ref", "name": "Loop"},
    "Lost": {"kind": "ref", "name": "Nowhere"}, "Me": {"kind": "ref", "name": "Me"},
    "Into": {"kind": "ref", "name": "A"},
    "A": {"kind": "ref", "name": "B"}, "B": {"kind": "ref", "name": "C"}, "C": {"kind": "ref", "name": "A"}
  }},
  "tank": {"version": "1.0.0", "types": {"Metres": {"kind": "number"}, "Rpm": {"kind": "string"}}}
}}"#;

fn reference(name: &str, namespace: Option<&str>) -> RefType {
    RefType { name: name.to_owned(), namespace: namespace.map(str::to_owned) }
}

fn named<'d>(doc: &'d Document, ns: &str, name: &str) -> &'d TypeNode {
    doc.namespaces.as_ref().unwrap()[ns].types.as_ref().unwrap().get(name).unwrap()
}

#[test]
fn a_ref_names_a_type_of_its_own_namespace_unless_it_names_another() {
    let doc = Document::parse(DOC).unwrap();
    let (ns, name, node) = doc.named("pump", &reference("Rpm", None)).unwrap();
    assert_eq!((ns, name), ("pump", "Rpm"));
    assert!(matches!(node.kind, TypeKind::Integer(_)));
    let (ns, _, node) = doc.named("tank", &reference("Rpm", None)).unwrap();
    assert_eq!(ns, "tank", "the same name in the namespace the ref stands in");
    assert!(matches!(node.kind, TypeKind::String(_)));
    let (ns, _, _) = doc.named("pump", &reference("Rpm", Some("tank"))).unwrap();
    assert_eq!(ns, "tank", "a ref's own namespace wins");
    assert_eq!(reference("Rpm", None).namespace_in("pump"), "pump");
    assert_eq!(reference("Rpm", Some("tank")).namespace_in("pump"), "tank");
    assert!(doc.named("pump", &reference("Metres", None)).is_none(), "not in pump");
    assert!(doc.named("pump", &reference("Rpm", Some("valve"))).is_none(), "no such namespace");
}

#[test]
fn chains_of_refs_are_followed_to_their_end_and_cycles_refused() {
    let doc = Document::parse(DOC).unwrap();
    let speed = named(&doc, "pump", "Speed");
    let end = doc.through_refs("pump", speed).unwrap();
    assert_eq!((end.namespace, end.name), ("pump", Some("Rpm")));
    assert!(matches!(end.node.kind, TypeKind::Integer(_)));
    let level = doc.through_refs("pump", named(&doc, "pump", "Level")).unwrap();
    assert_eq!((level.namespace, level.name), ("tank", Some("Metres")));
    let rpm = named(&doc, "pump", "Rpm");
    assert_eq!(
        doc.through_refs("pump", rpm),
        Some(Resolved { namespace: "pump", name: None, node: rpm }),
        "a node that is no ref is its own end"
    );
    for cyclic in ["Loop", "Me", "Into", "A"] {
        assert_eq!(
            doc.through_refs("pump", named(&doc, "pump", cyclic)),
            None,
            "{cyclic}: a cycle"
        );
    }
    assert_eq!(doc.through_refs("pump", named(&doc, "pump", "Lost")), None, "a dangling ref");
}
