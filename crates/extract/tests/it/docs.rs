//! docs/extract.md's table of diagnostics names every code extract emits.

use std::path::Path;

/// The codes of `diags.error(…)`, `warn(…)`, `undescribed(…)` calls and of `Diagnostic`
/// records in the crate's source: the first string literal after the call or the `code:`.
fn emitted() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut codes = Vec::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for marker in [".error(", ".warn(", ".undescribed(", "code: \""] {
            for (at, _) in text.match_indices(marker) {
                let rest = &text[at + marker.len()..];
                let rest = rest.trim_start().trim_start_matches('"');
                let code: String =
                    rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '-').collect();
                let literal = marker.ends_with('"')
                    || text[at + marker.len()..].trim_start().starts_with('"');
                if literal && !code.is_empty() && !codes.contains(&code) {
                    codes.push(code);
                }
            }
        }
    }
    codes.sort();
    codes
}

#[test]
fn every_diagnostic_code_is_in_the_docs_table_with_its_fix() {
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/extract.md"),
    )
    .unwrap();
    let table = &docs[docs.find("## Diagnostics and their fixes").expect("the section")..];
    let table = &table[..table[3..].find("\n## ").map_or(table.len(), |i| i + 3)];
    let codes = emitted();
    assert!(codes.len() > 30, "the scan finds the codes: {codes:?}");
    let missing: Vec<&String> =
        codes.iter().filter(|c| !table.contains(&format!("`{c}`"))).collect();
    assert!(missing.is_empty(), "docs/extract.md's diagnostics table lacks {missing:?}");
}
