//! Hostile source (docs/extract.md, "Bounds on hostile source"): nesting past the limit, a
//! module that contains itself, too much source. Each is an input error naming the place, never
//! a stack overflow, a hang or unbounded memory; and source just inside the limits still reads.

use std::{collections::HashMap, path::Path};

use accord_extract::{
    Config, Error, MAX_NESTING, MAX_SOURCE_BYTES, SourceLoader, extract, extract_dir,
};

const TRAIT: &str = "/// accord: namespace = \"h\", version = \"1.0.0\"\npub trait H {\n    fn get(&self) -> Deep;\n}\n";

struct Map(HashMap<String, String>);

impl SourceLoader for Map {
    fn read(&mut self, path: &str) -> Option<String> {
        self.0.get(path).cloned()
    }
}

fn one_file(text: String) -> Map {
    Map(HashMap::from([("src/lib.rs".to_owned(), text)]))
}

#[test]
fn every_hostile_fixture_is_an_input_error_naming_the_place() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract/hostile");
    let mut cases: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert_eq!(cases.len(), 8);
    let mut seen = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        match extract_dir(&case, &Config::default()) {
            Err(e @ Error::Limit { .. }) => {
                let text = e.to_string();
                let shown = text.replace(&format!("{}/", case.display()), "");
                seen.push(format!("{name}: {shown}"));
            }
            other => panic!("{name}: expected a limit error, got {other:?}"),
        }
    }
    insta::assert_snapshot!("hostile", seen.join("\n"));
}

#[test]
fn source_just_inside_the_nesting_limit_still_reads() {
    // Generics exactly MAX_NESTING deep, parentheses one less (the `const` item's own level),
    // an alias chain as long: all parsed. The method's result nests as deep as the written
    // contract may (docs/format.md §2.5: the result's node is at level 6, each `Vec` one more).
    let generics =
        format!("pub type Wide = {}u8{};\n", "Vec<".repeat(MAX_NESTING), ">".repeat(MAX_NESTING));
    let parens = format!(
        "pub const X: u8 = {}1{};\n",
        "(".repeat(MAX_NESTING - 1),
        ")".repeat(MAX_NESTING - 1)
    );
    let chain: String =
        (0..MAX_NESTING).map(|i| format!("pub type B{i} = Vec<B{}>;\n", i + 1)).collect();
    let deepest = accord_schema_model::DEPTH_LIMIT - 6;
    let deep = |n: usize| format!("pub type Deep = {}u8{};\n", "Vec<".repeat(n), ">".repeat(n));
    let source = |n: usize| {
        format!("{TRAIT}{}{generics}{parens}{chain}pub type B{} = u8;\n", deep(n), MAX_NESTING)
    };
    // On extract_dir's own stack: a debug build of syn needs ~32 KiB a level of generics,
    // more than a test thread's 2 MiB at this depth.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile-inside-limits");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), source(deepest)).unwrap();
    let x = extract_dir(&dir, &Config::default()).unwrap();
    assert!(!x.has_errors(), "{:?}", x.diagnostics);
    let result =
        &x.document.namespaces.as_ref().unwrap()["h"].methods.as_ref().unwrap()["get"].result;
    let mut depth = 0;
    let mut node = result;
    while let accord_schema_model::TypeKind::Array(a) = &node.kind {
        depth += 1;
        node = &a.items;
    }
    assert_eq!(depth, deepest);
    // What extract writes, the reader reads.
    accord_schema_model::Document::parse(&x.document.to_canonical_string()).unwrap();

    // One level more is past what the reader reads: refused, never written (found by the
    // `extract` fuzz target's smoke, `fuzz/regressions/extract-deeper-than-the-reader.bin`).
    std::fs::write(dir.join("src/lib.rs"), source(deepest + 1)).unwrap();
    match extract_dir(&dir, &Config::default()) {
        Err(e @ Error::Limit { code: "nesting-too-deep", .. }) => {
            assert!(e.to_string().contains("/namespaces/h/methods/get/result"), "{e}");
        }
        other => panic!("expected nesting-too-deep, got {other:?}"),
    }
}

#[test]
fn more_source_than_the_cap_is_refused_before_it_is_parsed() {
    let text =
        format!("{TRAIT}pub type Deep = u8;\n{}", "// padding\n".repeat(MAX_SOURCE_BYTES / 11 + 1));
    let x = extract(&mut one_file(text), "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["source-too-large"]);
    assert!(x.diagnostics[0].message.contains("64 MiB"), "{}", x.diagnostics[0]);
    assert!(x.found_nothing());
}

/// Found by the `extract` fuzz target (fuzz/regressions/extract-self-newtype.bin): a newtype of
/// itself was written as a ref to itself, which check refuses (`ref-cycle`).
#[test]
fn a_newtype_of_itself_is_any_value_not_a_ref_cycle() {
    let text = format!("{TRAIT}#[derive(Serialize, Deserialize)]\npub struct Deep(Box<Deep>);\n");
    let x = extract(&mut one_file(text), "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["self-reference"]);
    let t = &x.document.namespaces.as_ref().unwrap()["h"].types.as_ref().unwrap()["Deep"];
    assert!(matches!(t.kind, accord_schema_model::TypeKind::Any), "{t:?}");
}

/// `struct Deep(Option<Deep>)` (the `extract` fuzz target's smoke, regression
/// `extract-newtype-option-self.bin`): serde's newtype is transparent and `Some(x)` is `x`, so
/// every value is `null`; the self arm of `Deep | null` is dropped, never written as the ref
/// cycle check refuses.
#[test]
fn a_newtype_of_an_option_of_itself_is_null_not_a_ref_cycle() {
    let text =
        format!("{TRAIT}#[derive(Serialize, Deserialize)]\npub struct Deep(Option<Deep>);\n");
    let x = extract(&mut one_file(text), "src/lib.rs", &Config::default());
    let codes: Vec<&str> = x.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["self-reference"]);
    let t = &x.document.namespaces.as_ref().unwrap()["h"].types.as_ref().unwrap()["Deep"];
    assert!(matches!(t.kind, accord_schema_model::TypeKind::Null), "{t:?}");
    // Nested: `Option<Option<Deep>>` is a union of a union (`extract-newtype-option-option-self.bin`);
    // three deep leaves `null` three times; `Option<Option<()>>` is `(null | null) | null`
    // without any self arm (`extract-option-option-unit.bin`), merged inner union first.
    for wrapped in [
        "Option<Option<Option<Deep>>>",
        "Option<Option<Option<Option<Deep>>>>",
        "Option<Option<()>>",
    ] {
        let text =
            format!("{TRAIT}#[derive(Serialize, Deserialize)]\npub struct Deep({wrapped});\n");
        let x = extract(&mut one_file(text), "src/lib.rs", &Config::default());
        let t = &x.document.namespaces.as_ref().unwrap()["h"].types.as_ref().unwrap()["Deep"];
        assert!(matches!(t.kind, accord_schema_model::TypeKind::Null), "{wrapped}: {t:?}");
    }
    let text = format!(
        "{TRAIT}#[derive(Serialize, Deserialize)]\npub struct Deep(Option<Option<Deep>>);\n"
    );
    let x = extract(&mut one_file(text), "src/lib.rs", &Config::default());
    let t = &x.document.namespaces.as_ref().unwrap()["h"].types.as_ref().unwrap()["Deep"];
    assert!(matches!(t.kind, accord_schema_model::TypeKind::Null), "{t:?}");
}
