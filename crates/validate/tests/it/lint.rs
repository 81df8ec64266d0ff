//! Contract lint: every rule against its fixture (`fixtures/lint/<rule>/`), the registry against
//! the fixtures and the docs, and the bundled contracts.

use std::path::{Path, PathBuf};

use accord_schema_model::{Document, SourceMap};
use accord_validate::{Diagnostic, LintReport, LintRule, Severity, lint, lint_rules_markdown};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn read(path: &Path) -> (String, Document) {
    let text = std::fs::read_to_string(path).expect("read fixture");
    let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, doc)
}

/// The diagnostics as the snapshots show them: position, severity, rule and pointer, then the
/// message and the help. Every pointer must stand in the text.
fn render(text: &str, diagnostics: &[Diagnostic]) -> String {
    let map = SourceMap::new(text);
    let mut out = String::new();
    for d in diagnostics {
        let located = map.locate(&d.pointer).unwrap_or_else(|| {
            panic!("the pointer {} of {} is not in the text", d.pointer, d.rule)
        });
        let at = map.position(located.label().start);
        out.push_str(&format!(
            "{}:{} {}[{}] {}\n  {}\n  help: {}\n",
            at.line, at.column, d.severity, d.rule, d.pointer, d.message, d.help
        ));
    }
    out.push_str(&LintReport::from(diagnostics.to_vec()).summary());
    out.push('\n');
    out
}

/// The folder names of `fixtures/lint`, sorted.
fn fixture_folders() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("fixtures/lint"))
        .expect("fixtures/lint")
        .map(|e| e.expect("entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn folder_rule(path: &Path) -> String {
    path.parent().and_then(Path::file_name).expect("fixture folder").to_string_lossy().into_owned()
}

#[test]
fn every_fixture_triggers_its_rule() {
    insta::with_settings!({ snapshot_path => "../snapshots" }, {
        insta::glob!("../../../../fixtures/lint", "*/contract.types.json", |path| {
            let rule = folder_rule(path);
            let (text, doc) = read(path);
            let diagnostics = lint(&doc);
            assert!(
                diagnostics.iter().any(|d| d.rule == rule),
                "{} does not trigger `{rule}`:\n{}",
                path.display(),
                render(&text, &diagnostics)
            );
            insta::assert_snapshot!(render(&text, &diagnostics));
        });
    });
}

#[test]
fn clean_fixtures_trigger_nothing() {
    let mut checked = 0;
    for folder in fixture_folders() {
        let path = root().join("fixtures/lint").join(&folder).join("clean.types.json");
        if !path.exists() {
            continue;
        }
        let (text, doc) = read(&path);
        let diagnostics = lint(&doc);
        assert!(diagnostics.is_empty(), "{}:\n{}", path.display(), render(&text, &diagnostics));
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn every_rule_has_a_fixture_and_every_fixture_a_rule() {
    let ids: Vec<String> = LintRule::all().iter().map(|r| r.id().to_owned()).collect();
    let folders = fixture_folders();
    for id in &ids {
        assert!(
            root().join("fixtures/lint").join(id).join("contract.types.json").exists(),
            "rule `{id}` has no fixtures/lint/{id}/contract.types.json"
        );
    }
    for folder in &folders {
        assert!(ids.contains(folder), "fixtures/lint/{folder} names no rule of the registry");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "a rule id is listed twice");
}

#[test]
fn rule_ids_are_kebab_case_and_docs_have_every_section() {
    let sections = ["## What it does", "## Why is this bad?", "## Example", "## Fix"];
    for rule in LintRule::all() {
        let id = rule.id();
        assert!(
            !id.is_empty()
                && id
                    .split('-')
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
            "`{id}` is not kebab-case"
        );
        let doc = rule.doc();
        let mut from = 0;
        for section in sections {
            let at = doc[from..].find(&format!("{section}\n")).unwrap_or_else(|| {
                panic!("the doc of `{id}` lacks `{section}` (or has it out of order)")
            });
            from += at + section.len();
        }
        assert!(doc.contains("```json"), "the example of `{id}` has no JSON block");
        assert!(!rule.summary().is_empty() && !rule.label().is_empty());
    }
}

#[test]
fn docs_lint_rules_md_is_the_registry_rendered() {
    let path = root().join("docs/lint-rules.md");
    let expected = lint_rules_markdown();
    if std::env::var_os("ACCORD_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write docs/lint-rules.md");
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/lint-rules.md is not the registry's rendering; run `cargo xtask bless` (ACCORD_BLESS=1) and commit it"
    );
}

#[test]
fn bundled_contracts_have_no_errors() {
    insta::with_settings!({ snapshot_path => "../snapshots" }, {
        insta::glob!("../../../../fixtures/contracts", "*.types.json", |path| {
            let (text, doc) = read(path);
            let report = LintReport::of(&doc);
            assert!(!report.has_errors(), "{}:\n{}", path.display(), render(&text, &report.diagnostics));
            insta::assert_snapshot!(render(&text, &report.diagnostics));
        });
    });
}

#[test]
fn future_documents_lint_without_panicking() {
    for entry in std::fs::read_dir(root().join("fixtures/future")).expect("fixtures/future") {
        let path = entry.expect("entry").path();
        let (text, doc) = read(&path);
        // Every pointer must stand in the text (render panics otherwise).
        render(&text, &lint(&doc));
    }
}

/// Lints a document given as JSON text and lists `rule pointer` per diagnostic.
fn check(text: &str) -> String {
    let doc = Document::parse(text).expect("document reads");
    lint(&doc).iter().map(|d| format!("{} {} {}\n", d.severity, d.rule, d.pointer)).collect()
}

#[test]
fn a_contract_that_does_not_compile_still_gets_every_rule() {
    // A dangling ref, a bad pattern and a bad discriminator each stop `Contract::compile`; the
    // invalid default and example are found anyway, against the rest of the contract.
    let out = check(
        r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0",
          "methods": {"m": {"semantics": "read",
            "params": [{"name": "a", "type": {"kind": "ref", "name": "Level", "default": 200}}],
            "result": {"kind": "ref", "name": "Missing"},
            "examples": [{"params": {"a": -1}}]}},
          "types": {
            "Level": {"kind": "integer", "min": 0, "max": 100},
            "Tag": {"kind": "string", "pattern": "(", "default": 3},
            "Either": {"kind": "union", "discriminator": "t", "variants": [{"kind": "string"}]}
          }}}}"#,
    );
    insta::assert_snapshot!(out, @r"
    error invalid-default /namespaces/p/methods/m/params/0/type/default
    error dangling-ref /namespaces/p/methods/m/result/name
    error invalid-example /namespaces/p/methods/m/examples/0/params/a
    error bad-pattern /namespaces/p/types/Tag/pattern
    error invalid-default /namespaces/p/types/Tag/default
    error discriminator-invalid /namespaces/p/types/Either/discriminator
    ");
}

#[test]
fn a_discriminator_failing_only_through_a_dangling_ref_is_reported_once() {
    let out = check(
        r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0", "types": {
            "U": {"kind": "union", "discriminator": "t", "variants": [{"kind": "ref", "name": "Gone"}]}
          }}}}"#,
    );
    insta::assert_snapshot!(out, @"error dangling-ref /namespaces/p/types/U/variants/0/name");
}

#[test]
fn a_ref_into_a_cycle_is_not_the_cycle() {
    // `Entry` only refers to the cycle A -> B -> A; the cycle is reported at its first member.
    let out = check(
        r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0", "types": {
            "Entry": {"kind": "ref", "name": "A"},
            "A": {"kind": "ref", "name": "B"},
            "B": {"kind": "union", "variants": [{"kind": "ref", "name": "A"}, {"kind": "null"}]}
          }}}}"#,
    );
    insta::assert_snapshot!(out, @"error ref-cycle /namespaces/p/types/A");
}

#[test]
fn report_counts_and_summary() {
    let doc = Document::parse(
        r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0", "methods": {
            "a": {"result": {"kind": "null"}},
            "b": {"semantics": "read", "result": {"kind": "enum", "values": ["x", "x"]}}
          }}}}"#,
    )
    .expect("reads");
    let report = LintReport::of(&doc);
    assert_eq!((report.errors(), report.warnings()), (1, 1));
    assert!(report.has_errors());
    assert_eq!(report.summary(), "1 error, 1 warning");
    assert_eq!(report.diagnostics[0].severity, Severity::Warning);
    assert_eq!(LintReport::default().summary(), "0 errors, 0 warnings");
}

#[test]
fn the_compile_rules_fire_exactly_when_compile_refuses() {
    // Lint finds what `Contract::compile` refuses by its own rules (so that it can report all
    // of it); they must agree with the compiler on every document there is.
    const COMPILE_RULES: [&str; 4] =
        ["dangling-ref", "ref-cycle", "bad-pattern", "discriminator-invalid"];
    let mut paths = Vec::new();
    for folder in ["fixtures/contracts", "fixtures/future"] {
        for entry in std::fs::read_dir(root().join(folder)).expect("folder") {
            paths.push(entry.expect("entry").path());
        }
    }
    for folder in fixture_folders() {
        for file in ["contract.types.json", "clean.types.json"] {
            let path = root().join("fixtures/lint").join(&folder).join(file);
            if path.exists() {
                paths.push(path);
            }
        }
    }
    for path in paths {
        let (_, doc) = read(&path);
        let compiles = accord_validate::Contract::compile(&doc).is_ok();
        let flagged = lint(&doc).iter().any(|d| COMPILE_RULES.contains(&d.rule));
        assert_eq!(compiles, !flagged, "{}: compile and lint disagree", path.display());
    }
}

#[test]
fn on_accord_s_own_wire_minus_32004_is_free_and_the_credential_codes_are_not() {
    // wire.md §4: `-32004` answers only `rpc.subscribe`/`rpc.unsubscribe`, so a contract method
    // may declare it (the bundled pump contract does); `-32001..-32003` can answer any method.
    let doc = Document::parse(
        r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0", "methods": {
            "start": {"semantics": "write", "result": {"kind": "null"}, "errors": [
              {"code": -32004, "message": "unknown pump"},
              {"code": -32002, "message": "wrong key"}
            ]}}}}}"#,
    )
    .expect("reads");
    let found: Vec<String> = lint(&doc)
        .into_iter()
        .filter(|d| d.rule == "error-code-collides-with-protocol")
        .map(|d| format!("{} {}", d.pointer, d.message))
        .collect();
    insta::assert_snapshot!(found.join("\n"), @"/namespaces/pump/methods/start/errors/1/code error -32002 `wrong key` of `pump.start` is also the wire's protocol code -32002 (credential refused, accord's wire): a caller cannot tell them apart");
}

#[test]
fn a_wire_that_does_not_resolve_is_one_finding_and_no_collision() {
    // An unknown profile: the codes are unknown, so no collision is claimed on top of it.
    let out = check(
        r#"{"schema": 1, "wire": {"codes": {"profile": "geth"}}, "namespaces": {"eth": {"version": "1.0.0",
          "methods": {"m": {"semantics": "read", "result": {"kind": "null"},
            "errors": [{"code": -32000, "message": "x"}]}}}}}"#,
    );
    insta::assert_snapshot!(out, @"error wire-unresolved /wire/codes/profile");
}
