//! CONTRIBUTING.md's refinement recipe, tried: two dummy refinement rows, one on numbers and one
//! on arrays, a kind whose nodes nest (accord-schema-model's `dummy-refinement` feature,
//! crates/schema-model/src/refinement.rs), must fail to compile at
//! exactly the sites the recipe lists between `<!-- refinement-sites:start -->` and
//! `<!-- refinement-sites:end -->`, and nowhere else.
//!
//! A crate whose sites fail stops its dependents from being checked, so each crate with sites
//! (each has a `dummy-refinement-handled` feature: its own handling of the dummy, under `cfg`)
//! is checked on its own, with its dependencies' handling enabled and its own not: the errors
//! it shows are its sites. Then the whole workspace is checked with every crate's handling
//! enabled, with their tests, benches and examples, which must compile: no site outside those
//! crates' libraries and binaries (test code that names every field handles the dummy itself),
//! and the handling itself is sound. The checks share the workspace's target directory (check
//! artifacts, one set per feature combination); a crate that fails is checked again on every
//! run, so the per-crate checks take only libraries and binaries.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

use serde_json::Value;

use crate::workspace;

const DOC: &str = "CONTRIBUTING.md";
const START: &str = "<!-- refinement-sites:start -->";
const END: &str = "<!-- refinement-sites:end -->";
const ROW: &str = "accord-schema-model/dummy-refinement";
const HANDLED: &str = "dummy-refinement-handled";

/// A site: a file (relative to the root) and the function holding the code.
type Site = (String, String);

/// The sites the recipe lists: each bullet between the markers starts with the file and the
/// function, both in backticks (``- `crates/…/read.rs` — `number_rules`: …``).
fn listed_sites(doc: &str) -> Result<BTreeSet<Site>, String> {
    let start = doc.find(START).ok_or(format!("{DOC} has no `{START}` line"))?;
    let end = doc.find(END).ok_or(format!("{DOC} has no `{END}` line"))?;
    let mut sites = BTreeSet::new();
    for line in doc[start..end].lines().filter(|l| l.trim_start().starts_with("- ")) {
        let ticked: Vec<&str> = line.split('`').skip(1).step_by(2).take(2).collect();
        match ticked[..] {
            [file, function] => sites.insert((file.to_owned(), function.to_owned())),
            _ => return Err(format!("{DOC}: a site is `file` — `function`: {line}")),
        };
    }
    Ok(sites)
}

/// The function a line of a source file stands in: the nearest `fn` at or above it.
fn enclosing_fn(source: &str, line: usize) -> String {
    let lines: Vec<&str> = source.lines().take(line).collect();
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let at = l.find("fn ")?;
            let before = l[..at].trim();
            let words_ok = before
                .split_whitespace()
                .all(|w| matches!(w, "pub" | "pub(crate)" | "pub(super)" | "const" | "async"));
            let name: String =
                l[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            (words_ok && !name.is_empty()).then_some(name)
        })
        .unwrap_or_else(|| "(outside any fn)".to_owned())
}

/// A package with sites: the ones of them it depends on (normal, dev or build), and the cargo
/// arguments that select its library and binaries.
struct Handling {
    dependencies: Vec<String>,
    targets: Vec<&'static str>,
}

/// Workspace packages with the `dummy-refinement-handled` feature, by name.
fn handling_packages(root: &Path) -> BTreeMap<String, Handling> {
    let mut cmd = workspace::cargo();
    cmd.current_dir(root).args(["metadata", "--no-deps", "--format-version", "1", "--offline"]);
    let out = cmd.output().expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let handling: BTreeSet<String> = packages
        .iter()
        .filter(|p| p["features"].get(HANDLED).is_some())
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect();
    packages
        .iter()
        .filter_map(|p| {
            let name = p["name"].as_str()?.to_owned();
            handling.contains(&name).then_some(())?;
            let deps = p["dependencies"].as_array().into_iter().flatten();
            let mut on: Vec<String> = deps
                .filter_map(|d| d["name"].as_str())
                .filter(|d| handling.contains(*d) && *d != name)
                .map(str::to_owned)
                .collect();
            on.sort();
            on.dedup();
            let kinds: Vec<&str> = p["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|t| t["kind"].as_array().into_iter().flatten())
                .filter_map(Value::as_str)
                .collect();
            let mut targets = Vec::new();
            if kinds.contains(&"lib") {
                targets.push("--lib");
            }
            if kinds.contains(&"bin") {
                targets.push("--bins");
            }
            Some((name, Handling { dependencies: on, targets }))
        })
        .collect()
}

/// `cargo check --keep-going` of `targets` (`--lib`, `--bins`, `--all-targets`) of `packages`
/// (the workspace when empty) with `features`: the sites of its errors, and the errors as text.
fn check(
    root: &Path,
    packages: &[&str],
    targets: &[&str],
    features: &[String],
) -> (BTreeSet<Site>, Vec<String>) {
    let mut cmd = workspace::cargo();
    cmd.current_dir(root).args(["check", "--keep-going", "--offline"]).args(targets);
    cmd.args(["--message-format", "json", "--features", &features.join(",")]);
    if packages.is_empty() {
        cmd.arg("--workspace");
    }
    for p in packages {
        cmd.args(["-p", p]);
    }
    let out = cmd.output().expect("cargo check runs");
    let mut sites = BTreeSet::new();
    let mut errors = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        let diagnostic = &message["message"];
        if message["reason"] != "compiler-message" || diagnostic["level"] != "error" {
            continue;
        }
        let spans = diagnostic["spans"].as_array().cloned().unwrap_or_default();
        let Some(span) = spans.iter().find(|s| s["is_primary"] == true) else {
            errors.push(diagnostic["message"].as_str().unwrap_or_default().to_owned());
            continue;
        };
        let file = span["file_name"].as_str().unwrap_or_default().to_owned();
        let line = usize::try_from(span["line_start"].as_u64().unwrap_or(0)).unwrap_or(0);
        let source = fs::read_to_string(root.join(&file)).unwrap_or_default();
        let function = enclosing_fn(&source, line);
        errors.push(format!(
            "{file}:{line} (`{function}`): {}",
            diagnostic["message"].as_str().unwrap_or_default()
        ));
        sites.insert((file, function));
    }
    // cargo's own failures (a feature it does not know) print no compiler message.
    if !out.status.success() && errors.is_empty() {
        errors.push(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    (sites, errors)
}

#[test]
fn a_dummy_refinement_fails_to_compile_at_exactly_the_sites_contributing_names() {
    let root = workspace::root();
    let doc = fs::read_to_string(root.join(DOC)).expect("CONTRIBUTING.md");
    let listed = listed_sites(&doc).unwrap_or_else(|e| panic!("{e}"));
    assert!(!listed.is_empty(), "{DOC} lists no refinement site");
    let handling = handling_packages(&root);
    assert!(
        handling.contains_key("accord-schema-model"),
        "accord-schema-model has no `{HANDLED}` feature"
    );

    let mut found = BTreeSet::new();
    let mut report = Vec::new();
    for (package, Handling { dependencies, targets }) in &handling {
        let mut features = vec![ROW.to_owned()];
        features.extend(dependencies.iter().map(|d| format!("{d}/{HANDLED}")));
        let (sites, errors) = check(&root, &[package], targets, &features);
        assert!(
            !errors.is_empty(),
            "{package} has a `{HANDLED}` feature but no site: the dummy compiles without its handling"
        );
        report.push(format!(
            "{package} (with {}):\n  {}",
            features.join(", "),
            errors.join("\n  ")
        ));
        found.extend(sites);
    }
    let all: Vec<String> = handling.keys().map(|p| format!("{p}/{HANDLED}")).collect();
    let (_, errors) = check(&root, &[], &["--all-targets"], &all);
    assert!(
        errors.is_empty(),
        "with every crate's handling, the workspace must compile; it does not:\n  {}",
        errors.join("\n  ")
    );

    let missing: Vec<&Site> = listed.difference(&found).collect();
    let unlisted: Vec<&Site> = found.difference(&listed).collect();
    assert!(
        missing.is_empty() && unlisted.is_empty(),
        "{DOC}'s refinement sites and the compiler's disagree.\n\
         listed, but the compiler does not stop there: {missing:?}\n\
         named by the compiler, not listed: {unlisted:?}\n\
         what the compiler said:\n{}",
        report.join("\n")
    );
}

#[test]
fn sites_and_functions_are_read_as_written() {
    let doc = format!(
        "x\n{START}\n- `a/b.rs` — `one`: read it.\n- `c.rs` — `two`, the second\nnot a bullet `x`\n{END}\n- `d.rs` — `out`"
    );
    let sites = listed_sites(&doc).unwrap();
    let expected: BTreeSet<Site> = [("a/b.rs", "one"), ("c.rs", "two")]
        .into_iter()
        .map(|(f, n)| (f.to_owned(), n.to_owned()))
        .collect();
    assert_eq!(sites, expected);
    assert!(listed_sites(&format!("{START}\n- `only-a-file.rs`\n{END}")).is_err());
    let source = "impl X {\n    pub(crate) fn numbers(\n        a: u8,\n    ) {\n        let y = 1;\n    }\n}\nfn other() {}\n";
    assert_eq!(enclosing_fn(source, 5), "numbers");
    assert_eq!(enclosing_fn(source, 8), "other");
    assert_eq!(enclosing_fn(source, 1), "(outside any fn)");
}
