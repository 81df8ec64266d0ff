//! Extraction throughput on a generated crate of about 100,000 lines: 100 modules of documented
//! serde structs and enums (renames, options, maps, vectors, nested types across modules) and
//! one jsonrpsee-style trait with a method per struct. Target: 200,000 lines per second. The
//! peer is the floor: `syn::parse_file` of the same files, which extract must do anyway.
//!
//! The second bench extracts the same types from a dependency: the plant crate holds only the
//! trait (`use plant_types::…`), the 100 modules are the path dependency `plant_types`, followed
//! as extract follows any dependency; lines per second count the dependency's lines.
//!
//! `cargo bench -p accord-extract --bench extract`

use std::collections::BTreeMap;
use std::fmt::Write as _;

use accord_extract::{Config, Dependency, extract, extract_with_dependencies};

const MODULES: usize = 100;
const STRUCTS: usize = 28;

/// The generated crate, path → text, and its line count.
fn generated() -> (BTreeMap<String, String>, usize) {
    let mut files = BTreeMap::new();
    // `RpcResult` imported as a jsonrpsee plant does: without it every result is an unresolved
    // type and no struct is lowered at all.
    let mut lib =
        String::from("use serde::{Deserialize, Serialize};\nuse jsonrpsee::core::RpcResult;\n\n");
    for m in 0..MODULES {
        writeln!(lib, "pub mod m{m};").unwrap();
        let mut src = String::from(
            "use std::collections::HashMap;\n\nuse serde::{Deserialize, Serialize};\n\n",
        );
        if m > 0 {
            writeln!(src, "use crate::m{}::S0 as Previous;\n", m - 1).unwrap();
        }
        for s in 0..STRUCTS {
            let prev = if m > 0 && s == 0 {
                "Previous".to_owned()
            } else if s > 0 {
                format!("S{}", s - 1)
            } else {
                "u8".to_owned()
            };
            write!(
                src,
                "/// Struct {s} of module {m}.\n///\n/// It has a second paragraph.\n#[derive(Debug, Serialize, Deserialize)]\n#[serde(rename_all = \"camelCase\")]\npub struct S{s} {{\n    /// The identifier.\n    pub item_id: u32,\n    /// An optional label.\n    #[serde(skip_serializing_if = \"Option::is_none\")]\n    pub label: Option<String>,\n    /// Values by name.\n    #[serde(default)]\n    pub values: HashMap<String, f64>,\n    /// The previous one.\n    pub previous: Box<{prev}>,\n    /// A list.\n    pub items: Vec<E{s}>,\n    pub flag: bool,\n}}\n\n/// Enum {s}.\n#[derive(Debug, Serialize, Deserialize)]\n#[serde(tag = \"kind\", rename_all = \"snake_case\")]\npub enum E{s} {{\n    /// Nothing.\n    Empty,\n    /// A value.\n    Value {{ amount: i64, unit: String }},\n    /// Another.\n    Other {{ count: u16 }},\n}}\n\n"
            )
            .unwrap();
        }
        files.insert(format!("src/m{m}.rs"), src);
    }
    lib.push_str("\n/// The API.\n///\n/// accord: version = \"1.0.0\"\n#[rpc(server, namespace = \"bench\", namespace_separator = \".\")]\npub trait Api {\n");
    for m in 0..MODULES {
        for s in 0..STRUCTS {
            writeln!(lib, "    /// Gets S{s} of m{m}.\n    #[method(name = \"get{m}x{s}\")]\n    async fn get_{m}_{s}(&self, id: u32, filter: Option<String>) -> RpcResult<m{m}::S{s}>;").unwrap();
        }
    }
    lib.push_str("}\n\n#[derive(Serialize, Deserialize)]\npub struct Unused;\n");
    files.insert("src/lib.rs".into(), lib);
    let lines = files.values().map(|t| t.lines().count()).sum();
    (files, lines)
}

/// The same crate split in two: the trait in `src/lib.rs`, the types in the dependency
/// `plant_types` under `types/src/`.
fn generated_workspace() -> (BTreeMap<String, String>, usize) {
    let (files, _) = generated();
    let mut out = BTreeMap::new();
    for (path, text) in files {
        if path == "src/lib.rs" {
            let (mods, rest) = text.split_at(text.find("\n/// The API.").expect("the trait"));
            out.insert("types/src/lib.rs".to_owned(), mods.to_owned());
            let api = format!(
                "use plant_types::*;\n{}",
                rest.replace("RpcResult<m", "RpcResult<plant_types::m")
            );
            out.insert("src/lib.rs".to_owned(), api);
        } else {
            out.insert(path.replacen("src/", "types/src/", 1), text);
        }
    }
    let lines = out.values().map(|t| t.lines().count()).sum();
    (out, lines)
}

fn main() {
    let (files, lines) = generated();
    eprintln!("generated crate: {lines} lines in {} files", files.len());
    divan::main();
}

#[divan::bench(sample_count = 10)]
fn extract_100k_lines(bencher: divan::Bencher) {
    let (files, lines) = generated();
    bencher
        .counter(divan::counter::ItemsCount::new(lines))
        .with_inputs(|| files.clone())
        .bench_local_values(|mut files| {
            let x = extract(&mut files, "src/lib.rs", &Config::default());
            assert_eq!(x.lines, lines);
            assert_eq!(named_types(&x), 5600, "every struct and enum is lowered");
            x
        });
}

#[divan::bench(sample_count = 10)]
fn syn_parse_only_peer(bencher: divan::Bencher) {
    let (files, lines) = generated();
    bencher.counter(divan::counter::ItemsCount::new(lines)).bench_local(|| {
        files
            .values()
            .map(|text| syn::parse_file(text).map(|f| f.items.len()).unwrap_or(0))
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 10)]
fn extract_100k_lines_from_a_path_dependency(bencher: divan::Bencher) {
    let (files, lines) = generated_workspace();
    let deps = [Dependency { name: "plant_types".into(), root: "types/src/lib.rs".into() }];
    bencher
        .counter(divan::counter::ItemsCount::new(lines))
        .with_inputs(|| files.clone())
        .bench_local_values(|mut files| {
            let x = extract_with_dependencies(&mut files, "src/lib.rs", &Config::default(), &deps);
            assert_eq!(x.lines, lines, "every line of the dependency is read");
            assert_eq!(
                x.document
                    .namespaces
                    .as_ref()
                    .map(|n| n["bench"].types.as_ref().map_or(0, |t| t.len())),
                Some(5600)
            );
            x
        });
}

fn named_types(x: &accord_extract::Extraction) -> usize {
    x.document.namespaces.as_ref().and_then(|n| n["bench"].types.as_ref()).map_or(0, |t| t.len())
}
