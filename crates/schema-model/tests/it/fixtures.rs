//! The writer on every contract the repository holds: every `*.types.json` under `fixtures/`
//! that the reader accepts is written losslessly (same JSON value, same model) and idempotently
//! (writing the canonical text's model gives it back byte for byte), and its canonical text
//! keeps every line within the layout's width unless one member alone is wider.

use std::path::{Path, PathBuf};

use accord_schema_model::Document;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Every `*.types.json` under `dir`, sorted.
fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            documents(&path, out);
        } else if path.to_string_lossy().ends_with(".types.json") {
            out.push(path);
        }
    }
}

#[test]
fn every_fixture_the_reader_accepts_is_written_losslessly_and_idempotently() {
    let mut all = Vec::new();
    documents(&fixtures(), &mut all);
    let mut read = 0;
    for path in &all {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(doc) = Document::parse(&text) else { continue };
        read += 1;
        assert_eq!(
            String::from_utf8(doc.to_compact_json()).unwrap(),
            serde_json::to_string(&doc.to_value()).unwrap(),
            "{}: the streamed compact JSON is the value writer's",
            path.display()
        );
        let out = doc.to_canonical_string();
        let again = Document::parse(&out)
            .unwrap_or_else(|e| panic!("{}: the canonical text is refused: {e}", path.display()));
        assert_eq!(again, doc, "{}: the model changed", path.display());
        let input: serde_json::Value = serde_json::from_str(&text).unwrap();
        let output: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(input, output, "{}: the JSON value changed", path.display());
        assert_eq!(again.to_canonical_string(), out, "{}: not idempotent", path.display());
        for line in out.lines() {
            // A line past the width is a scalar member, or an opening `"key": {`, never a value
            // that was joined onto one line.
            let long = line.chars().count() > 100;
            assert!(
                !long
                    || !(line.trim_end_matches(',').ends_with('}')
                        || line.trim_end_matches(',').ends_with(']')),
                "{}: a joined line is wider than 100 characters: {line}",
                path.display()
            );
        }
    }
    assert!(read > 100, "only {read} of {} fixtures read: is fixtures/ there?", all.len());
}
