//! JSON-Schema-Test-Suite (json-schema-org, MIT; vendored under
//! fixtures/import/json-schema-test-suite with its LICENSE): every case of the required tests of
//! drafts 2020-12 and 07 is imported as `--strict` would; every case that imports without a loss
//! must get the suite's verdict on every one of its tests from accord's validator. A loss is the
//! import's promise that the contract may disagree; silence is a promise that it does not.
//!
//! The lossless count per file is committed in `lossless.txt` beside the cases (docs/interop.md
//! reports it); `ACCORD_BLESS=1` rewrites it (review the diff like a snapshot).

use std::path::PathBuf;

use accord_import::import_json_schema;
use accord_validate::{Contract, Target};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/import/json-schema-test-suite")
}

/// What one draft's run found.
#[derive(Default)]
struct Run {
    cases: usize,
    lossless: usize,
    /// file → (cases, lossless)
    by_file: Vec<(String, usize, usize)>,
    disagreements: Vec<String>,
}

fn run(draft: &str) -> Run {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir().join(draft))
        .expect("the suite is vendored")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Run::default();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("reads")).expect("json");
        let mut lossless = 0;
        for case in &cases {
            out.cases += 1;
            let what = format!("{draft}/{stem}: {}", case["description"]);
            let mut schema = case["schema"].clone();
            // The draft 7 files do not all say `$schema`; the import reads it to pick the draft.
            if draft == "draft7"
                && let Some(m) = schema.as_object_mut()
            {
                m.entry("$schema").or_insert("http://json-schema.org/draft-07/schema#".into());
            }
            let Ok(import) = import_json_schema(&schema, "suite", "0.1.0", Some("Root")) else {
                continue; // refused: never a silent answer
            };
            if !import.report.losses.is_empty() {
                if std::env::var_os("SUITE_DEBUG").is_some() {
                    let kinds: Vec<String> = import
                        .report
                        .losses
                        .iter()
                        .map(|l| format!("{}:{}", l.kind, l.pointer))
                        .collect();
                    eprintln!("LOSSY {what}: {}", kinds.join(" "));
                }
                continue;
            }
            lossless += 1;
            let contract = match Contract::compile(&import.document) {
                Ok(c) => c,
                Err(e) => {
                    out.disagreements.push(format!("{what}: the contract does not compile: {e}"));
                    continue;
                }
            };
            let target = Target::Type { namespace: "suite".into(), name: "Root".into() };
            let validator = contract.validator(&target).expect("the root is a type");
            for test in case["tests"].as_array().expect("tests") {
                let expected = test["valid"].as_bool().expect("valid");
                if validator.is_valid(&test["data"]) != expected {
                    out.disagreements.push(format!(
                        "{what} / {}: the suite says {}, accord says {}",
                        test["description"],
                        if expected { "valid" } else { "invalid" },
                        if expected { "invalid" } else { "valid" },
                    ));
                }
            }
        }
        out.lossless += lossless;
        out.by_file.push((stem, cases.len(), lossless));
    }
    out
}

fn table(run: &Run) -> String {
    let mut text = String::new();
    for (file, cases, lossless) in &run.by_file {
        text.push_str(&format!("{file} {lossless}/{cases}\n"));
    }
    text.push_str(&format!("total {}/{}\n", run.lossless, run.cases));
    text
}

fn compare(draft: &str, text: &str) {
    let path = dir().join(format!("lossless.{draft}.txt"));
    if std::env::var_os("ACCORD_BLESS").is_some() {
        std::fs::write(&path, text).expect("bless");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{} is stale: run with ACCORD_BLESS=1 and review the diff\n{text}",
        path.display()
    );
}

/// Zero disagreements: every lossless case gets the suite's verdict on every test.
fn assert_no_disagreement(run: &Run) {
    assert!(
        run.disagreements.is_empty(),
        "{} disagreement(s) on lossless cases:\n{}",
        run.disagreements.len(),
        run.disagreements.join("\n")
    );
}

#[test]
fn draft_2020_12_lossless_cases_agree_with_the_suite() {
    let run = run("draft2020-12");
    assert_eq!(run.cases, 383, "the vendored suite's case count");
    assert_no_disagreement(&run);
    assert!(
        run.lossless >= 150,
        "{} of {} cases import without loss; the floor is 150",
        run.lossless,
        run.cases
    );
    compare("draft2020-12", &table(&run));
}

#[test]
fn draft_07_lossless_cases_agree_with_the_suite() {
    let run = run("draft7");
    assert_eq!(run.cases, 257, "the vendored suite's case count");
    assert_no_disagreement(&run);
    compare("draft7", &table(&run));
}
