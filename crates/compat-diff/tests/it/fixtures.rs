//! Every rule's fixture (`fixtures/diff/<rule-id>/{old,new}.types.json`) and its report.

use std::path::{Path, PathBuf};

use accord_compat_diff::{Category, RULES, Source, diff, rule, rules_markdown};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn source(rel: &str) -> Source {
    let text = std::fs::read_to_string(root().join(rel)).expect(rel);
    Source::parse(rel, &text).expect(rel)
}

#[test]
fn every_rule_has_a_fixture_that_reports_it() {
    let mut folders: Vec<String> = std::fs::read_dir(root().join("fixtures/diff"))
        .expect("fixtures/diff")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    for r in RULES {
        assert!(folders.contains(&r.id.to_owned()), "rule {} has no fixtures/diff/{}/", r.id, r.id);
    }
    // Every case is compared and snapshotted before the test fails (insta's glob! counts the
    // snapshot failures; the other problems are collected), so one failure hides none.
    let mut problems = Vec::new();
    insta::glob!("../../../../fixtures/diff", "*/old.types.json", |path| {
        let dir = path.parent().expect("a case folder");
        let folder = dir.file_name().expect("a folder name").to_string_lossy().into_owned();
        // A folder is a rule id, or `<rule-id>.<case>` for a further case of the same rule.
        let id = folder.split_once('.').map_or(folder.as_str(), |(id, _)| id);
        if rule(id).is_none() {
            problems.push(format!("fixtures/diff/{folder}/ names no rule"));
            return;
        }
        let old = source(&format!("fixtures/diff/{folder}/old.types.json"));
        let new = source(&format!("fixtures/diff/{folder}/new.types.json"));
        let report = diff(&old, &new);
        if !report.findings.iter().any(|f| f.rule == id) {
            problems.push(format!(
                "fixtures/diff/{folder} does not report {id}:\n{}",
                report.to_text()
            ));
        }
        for f in report.findings.iter().filter(|f| f.location.is_none()) {
            problems.push(format!("{folder}: {} has no location", f.rule));
        }
        // The snapshot is named by the folder alone, as before the glob.
        let mut settings = insta::Settings::clone_current();
        settings.remove_snapshot_suffix();
        settings.remove_input_file();
        settings.bind(|| insta::assert_snapshot!(folder.clone(), report.to_text()));
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_json_report_for_one_fixture() {
    let old = source("fixtures/diff/bound-tightened/old.types.json");
    let new = source("fixtures/diff/bound-tightened/new.types.json");
    insta::assert_json_snapshot!(diff(&old, &new).to_json());
}

#[test]
fn structural_rules_are_dual() {
    for r in RULES.iter().filter(|r| r.category == Category::Structural) {
        let d = rule(r.dual).unwrap_or_else(|| panic!("{}: dual {} is not a rule", r.id, r.dual));
        assert_eq!(r.input, d.output, "{} input vs {} output", r.id, d.id);
        assert_eq!(r.output, d.input, "{} output vs {} input", r.id, d.id);
    }
}

#[test]
fn docs_compat_rules_is_up_to_date() {
    let path = root().join("docs/compat-rules.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != rules_markdown() {
        if std::env::var_os("ACCORD_BLESS").is_some() {
            std::fs::write(&path, rules_markdown()).expect("write docs/compat-rules.md");
        } else {
            panic!("docs/compat-rules.md is stale: run `cargo xtask bless` (ACCORD_BLESS=1)");
        }
    }
}

#[test]
fn a_document_against_itself_and_its_canonical_form_is_empty() {
    let mut all = Vec::new();
    for dir in ["fixtures/contracts", "fixtures/diff"] {
        for entry in walk(&root().join(dir)) {
            all.push(entry);
        }
    }
    assert!(!all.is_empty());
    for path in all {
        let text = std::fs::read_to_string(&path).expect("read");
        let Ok(a) = Source::parse("a.types.json", &text) else { continue };
        let report = diff(&a, &a);
        assert!(report.findings.is_empty(), "{}: {}", path.display(), report.to_text());
        let formatted = a.document.to_canonical_string();
        let b = Source::parse("b.types.json", &formatted).expect("canonical form reads");
        let report = diff(&a, &b);
        assert!(report.findings.is_empty(), "{} vs fmt: {}", path.display(), report.to_text());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.to_string_lossy().ends_with(".types.json") {
            out.push(p);
        }
    }
    out.sort();
    out
}
