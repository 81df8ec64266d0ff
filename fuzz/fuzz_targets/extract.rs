//! Generated Rust source into `accord_extract::extract`: never a panic, a stack overflow or a
//! hang (the bounds of docs/extract.md, "Bounds on hostile source"), and never a contract that
//! `accord check` refuses. The bytes drive a small grammar of what extract reads (an RPC trait of
//! either framework, structs and enums with serde attributes, aliases, nested generics and
//! brackets, `#[path]` modules that may name each other); an input whose first byte is odd is
//! read as raw source instead.
#![no_main]

use std::collections::HashMap;

use accord_extract::{Config, SourceLoader, extract};
use libfuzzer_sys::fuzz_target;

struct Map(HashMap<String, String>);

impl SourceLoader for Map {
    fn read(&mut self, path: &str) -> Option<String> {
        self.0.get(path).cloned()
    }
}

/// The bytes, one choice at a time (0 once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[usize::from(self.next()) % from.len()]
    }
}

const SCALARS: &[&str] = &["u8", "u64", "i32", "f64", "bool", "String", "char", "()", "Hash", "Unknown"];
const WRAPPERS: &[&str] = &["Vec", "Option", "Box", "std::collections::BTreeMap<String, ", "HashSet"];
const SERDE: &[&str] = &[
    "",
    "#[serde(untagged)]",
    "#[serde(tag = \"t\")]",
    "#[serde(tag = \"t\", content = \"c\")]",
    "#[serde(rename_all = \"camelCase\")]",
    "#[serde(transparent)]",
    "#[serde(deny_unknown_fields)]",
];

fn ty(b: &mut Bytes, names: &[String], depth: usize) -> String {
    if depth == 0 || b.next() % 3 == 0 {
        let n = b.next();
        return if n % 2 == 0 && !names.is_empty() {
            names[usize::from(n) % names.len()].clone()
        } else {
            b.pick(SCALARS).to_owned()
        };
    }
    match b.next() % 5 {
        0 => format!("({}, {})", ty(b, names, depth - 1), ty(b, names, depth - 1)),
        1 => {
            // Deep nesting on purpose, now and then past the bounds.
            let n = usize::from(b.next()) * 2;
            format!("{}u8{}", "Vec<".repeat(n), ">".repeat(n))
        }
        _ => {
            let w = b.pick(WRAPPERS);
            let close = if w.ends_with(", ") { ">" } else { ">" };
            let open = if w.ends_with(", ") { w.to_owned() } else { format!("{w}<") };
            format!("{open}{}{close}", ty(b, names, depth - 1))
        }
    }
}

fn generate(b: &mut Bytes) -> HashMap<String, String> {
    let mut files = HashMap::new();
    let count = 1 + usize::from(b.next() % 6);
    let names: Vec<String> = (0..count).map(|i| format!("T{i}")).collect();
    let mut lib = String::from("use serde::{Deserialize, Serialize};\npub type Hash = String;\n");
    for name in &names {
        let attr = b.pick(SERDE);
        match b.next() % 4 {
            0 => {
                lib += &format!("#[derive(Serialize, Deserialize)]\n{attr}\npub struct {name} {{\n");
                for f in 0..b.next() % 4 {
                    lib += &format!("    pub f{f}: {},\n", ty(b, &names, 3));
                }
                lib += "}\n";
            }
            1 => {
                lib += &format!("#[derive(Serialize, Deserialize)]\n{attr}\npub enum {name} {{\n");
                for v in 0..1 + b.next() % 4 {
                    match b.next() % 3 {
                        0 => lib += &format!("    V{v},\n"),
                        1 => lib += &format!("    V{v}({}),\n", ty(b, &names, 2)),
                        _ => lib += &format!("    V{v} {{ x: {} }},\n", ty(b, &names, 2)),
                    }
                }
                lib += "}\n";
            }
            2 => lib += &format!("pub type {name} = {};\n", ty(b, &names, 3)),
            _ => lib += &format!("#[derive(Serialize, Deserialize)]\npub struct {name}({});\n", ty(b, &names, 2)),
        }
    }
    let derive = b.next() % 2 == 0;
    let namespace = if b.next() % 2 == 0 { "" } else { ", namespace = \"ns\"" };
    if derive {
        lib += "#[rpc]\npub trait Api {\n    type Metadata;\n";
    } else {
        lib += &format!("#[rpc(server{namespace})]\npub trait Api {{\n");
    }
    for m in 0..b.next() % 6 {
        let wire = b.pick(&["chain_get", "get", "chainHead_v1_", "a.b", "_x", "rpc_m"]);
        let attr = if derive { "rpc" } else { "method" };
        lib += &format!(
            "    #[{attr}(name = \"{wire}{m}\")]\n    fn m{m}(&self, p: {}) -> Result<{}, E>;\n",
            ty(b, &names, 2),
            ty(b, &names, 2)
        );
    }
    if !derive && b.next() % 2 == 0 {
        lib += &format!(
            "    #[subscription(name = \"chain_subscribe\" => \"chain_note\", unsubscribe = \"chain_unsubscribe\", item = {})]\n    fn sub(&self);\n",
            ty(b, &names, 2)
        );
    }
    lib += "}\n";
    // Modules, which may name each other or the root.
    for i in 0..b.next() % 3 {
        let target = b.pick(&["lib.rs", "m0.rs", "m1.rs", "m2.rs"]);
        lib += &format!("#[path = \"{target}\"]\nmod m{i};\n");
        files.insert(format!("src/m{i}.rs"), format!("#[path = \"{}\"]\nmod inner;\n", b.pick(&["lib.rs", "m0.rs", "m1.rs"])));
    }
    files.insert("src/lib.rs".to_owned(), lib);
    files
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let files = if b.next() % 2 == 1 {
        HashMap::from([("src/lib.rs".to_owned(), String::from_utf8_lossy(b.0).into_owned())])
    } else {
        generate(&mut b)
    };
    // The caller's thread of libFuzzer is the main thread (8 MiB): enough for the bounds in a
    // release build, which is what cargo fuzz runs.
    let x = extract(&mut Map(files), "src/lib.rs", &Config::default());
    if x.has_errors() || x.found_nothing() {
        return;
    }
    // What extract would write reads back and check finds no error in it.
    let text = x.document.to_canonical_string();
    let doc = accord_schema_model::Document::parse(&text).expect("extract writes what the reader reads");
    let errors: Vec<_> = accord_validate::lint(&doc)
        .into_iter()
        .filter(|d| d.severity == accord_validate::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "check refuses what extract wrote: {errors:?}\n{text}");
});
