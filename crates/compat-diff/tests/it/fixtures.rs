//! Every rule's fixture (`fixtures/diff/<rule-id>/{old,new}.types.json`) and its report.

use std::path::{Path, PathBuf};

use accord_compat_diff::{
    Category, Level, Pairing, Polarity, RULES, Source, diff, rule, rules_markdown,
};

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

/// One row of docs/compat-rules.md's table: the rule id and its input and output columns.
fn docs_table() -> Vec<(String, Level, Level)> {
    let text = std::fs::read_to_string(root().join("docs/compat-rules.md")).expect("the doc");
    let level = |cell: &str| {
        Level::from_name(cell.trim()).unwrap_or_else(|| panic!("`{cell}` is not a level"))
    };
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            // | rule | category | subject | action | input | output | purpose |
            (cells.len() >= 8 && Level::from_name(cells[5]).is_some())
                .then(|| (cells[1].trim_matches('`').to_owned(), level(cells[5]), level(cells[6])))
        })
        .collect()
}

/// docs/compat-rules.md's table, read as a reader of the doc reads it, is the registry: every
/// rule once, with its input and output levels; the two columns are the two pairings (old
/// callers × new plant reads the column of the position's polarity, new callers × old plant
/// the other one). And every finding of every fixture stands at the level the table gives for
/// its pairing: for a change found under a set of polarities (one, or both for a named type
/// reached from params and results), old callers × new plant is the worst of those columns,
/// new callers × old plant the worst of the other columns, and a pairing whose level is below
/// policy is not reported there.
#[test]
fn the_docs_table_is_the_registry_in_both_pairings() {
    let table = docs_table();
    assert_eq!(table.len(), RULES.len(), "one row per rule");
    for r in RULES {
        let rows: Vec<_> = table.iter().filter(|(id, _, _)| id == r.id).collect();
        assert_eq!(rows.len(), 1, "{} rows for {}", rows.len(), r.id);
        let (_, input, output) = rows[0];
        assert_eq!((*input, *output), (r.input, r.output), "{}: doc (input, output)", r.id);
    }
    assert!(
        table.iter().any(|(_, i, o)| *i == Level::Policy || *o == Level::Policy),
        "the policy level is in the table"
    );
    let column = |id: &str, polarity: Polarity| {
        let (_, input, output) = table.iter().find(|(t, _, _)| t == id).expect("a row");
        match polarity {
            Polarity::Input => *input,
            Polarity::Output => *output,
        }
    };
    let mut checked = 0;
    for dir in std::fs::read_dir(root().join("fixtures/diff")).expect("fixtures/diff") {
        let folder = dir.expect("entry").file_name().to_string_lossy().into_owned();
        let old = source(&format!("fixtures/diff/{folder}/old.types.json"));
        let new = source(&format!("fixtures/diff/{folder}/new.types.json"));
        let report = diff(&old, &new);
        for f in &report.findings {
            // The same change in the other pairing: same rule, path, message and place.
            let other = report.findings.iter().find(|g| {
                g.pairing != f.pairing
                    && g.rule == f.rule
                    && g.path == f.path
                    && g.message == f.message
                    && g.location == f.location
            });
            let (p1, p2) = match f.pairing {
                Pairing::OldCallersNewPlant => (Some(f.level), other.map(|g| g.level)),
                Pairing::NewCallersOldPlant => (other.map(|g| g.level), Some(f.level)),
            };
            let sets: [&[Polarity]; 3] =
                [&[Polarity::Input], &[Polarity::Output], &[Polarity::Input, Polarity::Output]];
            let fits = sets.iter().any(|set| {
                let worst = |flip: bool| {
                    set.iter()
                        .map(|&p| column(f.rule, if flip { p.flip() } else { p }))
                        .max()
                        .unwrap_or(Level::None)
                };
                let shown = |level: Level, reported: Option<Level>, first: bool| match reported {
                    Some(l) => l == level,
                    // Not reported: none in the first pairing, below policy in the second.
                    None if first => level == Level::None,
                    None => level < Level::Policy,
                };
                shown(worst(false), p1, true) && shown(worst(true), p2, false)
            });
            assert!(
                fits,
                "fixtures/diff/{folder}: {} at {} is ({p1:?}, {p2:?}) by pairing, which the doc's row does not give:\n{}",
                f.rule,
                f.path,
                report.to_text()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} findings checked");
}
