//! `cargo xtask roundtrip [--against REV]`: reading and rewriting documents loses nothing.
//!
//! (a) Every document in `fixtures/contracts` and `fixtures/future` is read by today's model,
//! written canonically and read back: same model, same JSON value as the input, and writing
//! again gives the same text. (b) The same for every `*.types.json` of every frozen
//! `fixtures/golden/v*/` folder. (c) With `--against REV`, `accord` built from REV and today's
//! `accord` rewrite each other's output without loss.

use std::{fs, path::Path};

use accord_schema_model::Document;
use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{
    accord::{Accord, Run},
    value_diff::{describe, first_difference},
    workspace::{self, DOCUMENT_SUFFIX, show},
    worktree::{self, OldBuild},
};

/// Counts and failures across the whole run.
#[derive(Default)]
struct Tally {
    checked: usize,
    losses: Vec<String>,
}

impl Tally {
    fn record(&mut self, path: &Path, result: Result<(), String>) {
        self.checked += 1;
        match result {
            Ok(()) => println!("ok    {}", show(path)),
            Err(why) => {
                println!("LOSS  {}: {why}", show(path));
                self.losses.push(format!("{}: {why}", show(path)));
            }
        }
    }
}

pub(crate) fn run(root: &Path, against: Option<&str>) -> Result<()> {
    let mut tally = Tally::default();
    let docs = workspace::documents(root)?;

    println!("today's reader and writer, fixtures/contracts and fixtures/future:");
    for doc in &docs {
        let result = workspace::read_text(root, &doc.path)
            .map_err(|err| format!("{err:#}"))
            .and_then(|text| lossless(&text));
        tally.record(&doc.path, result);
    }

    let frozen = frozen_folders(root)?;
    if frozen.is_empty() {
        println!(
            "no frozen goldens yet (no fixtures/golden/v*/ folder): nothing released to read back"
        );
    }
    for dir in &frozen {
        println!("today's reader and writer, frozen {}:", show(dir));
        for file in workspace::files_under(&root.join(dir))? {
            if !file.to_string_lossy().ends_with(DOCUMENT_SUFFIX) {
                continue;
            }
            let path = dir.join(&file);
            let result = workspace::read_text(root, &path)
                .map_err(|err| format!("{err:#}"))
                .and_then(|text| lossless(&text));
            tally.record(&path, result);
        }
    }

    if let Some(rev) = against {
        let old = worktree::build(root, rev)?;
        let new = Accord::build_current(root)?;
        against_old(root, &docs, &old, &new, &mut tally)?;
    }

    println!("roundtrip: {} documents checked, {} with a loss", tally.checked, tally.losses.len());
    if !tally.losses.is_empty() {
        let n = tally.losses.len();
        bail!(
            "{n} round trip{} lose or change something:\n  {}",
            if n == 1 { "" } else { "s" },
            tally.losses.join("\n  ")
        );
    }
    Ok(())
}

/// The frozen golden folders, `fixtures/golden/v*/`, sorted.
fn frozen_folders(root: &Path) -> Result<Vec<std::path::PathBuf>> {
    let golden = Path::new("fixtures/golden");
    let mut dirs = Vec::new();
    let Ok(entries) = fs::read_dir(root.join(golden)) else {
        return Ok(dirs);
    };
    for entry in entries {
        let entry = entry.context("could not list fixtures/golden")?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('v') && entry.file_type().is_ok_and(|t| t.is_dir()) {
            dirs.push(golden.join(name));
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Today's model reads `text`, writes it canonically and reads that back: the two models are
/// equal, the output's JSON value equals the input's, and writing again gives the same text.
pub(crate) fn lossless(text: &str) -> Result<(), String> {
    let doc = Document::parse(text).map_err(|err| format!("today's reader refuses it: {err}"))?;
    let input: Value = serde_json::from_str(text).map_err(|err| format!("not JSON: {err}"))?;
    let out = doc.to_canonical_string();
    let again = Document::parse(&out)
        .map_err(|err| format!("today's reader refuses its own canonical output: {err}"))?;
    let output: Value = serde_json::from_str(&out)
        .map_err(|err| format!("the canonical output is not JSON: {err}"))?;
    if let Some(pointer) = first_difference(&input, &output) {
        return Err(format!(
            "the canonical output loses or changes a value; {}",
            describe(&pointer, &input, "input", &output, "output")
        ));
    }
    if again != doc {
        let hint = first_difference(&doc.to_value(), &again.to_value())
            .map(|p| format!(" (first difference of their values at {p:?})"))
            .unwrap_or_default();
        return Err(format!(
            "the model read back from the canonical output differs from the model read from the input{hint}"
        ));
    }
    let twice = again.to_canonical_string();
    if twice != out {
        let line = out
            .lines()
            .zip(twice.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| out.lines().count().min(twice.lines().count()))
            + 1;
        return Err(format!(
            "writing is not idempotent: writing the re-read model differs from the first write at line {line}"
        ));
    }
    Ok(())
}

/// The outcome of one direction for one document.
enum Cell {
    Ok,
    Loss(String),
    Refused,
    Skipped,
}

impl Cell {
    fn short(&self) -> String {
        match self {
            Cell::Ok => "ok".to_owned(),
            Cell::Loss(pointer) => {
                format!("LOSS at {}", if pointer.is_empty() { "/" } else { pointer })
            }
            Cell::Refused => "REFUSED".to_owned(),
            Cell::Skipped => "-".to_owned(),
        }
    }
}

/// One `fmt --stdout` compared with what it should keep.
struct Rewrite {
    cell: Cell,
    /// What went wrong, for the final list.
    problem: Option<String>,
    /// The canonical text printed, if it was JSON.
    output: Option<String>,
}

/// Runs `fmt --stdout FILE` and compares its output's value with `expected`.
fn rewrite(accord: &Accord, file: &Path, expected: &Value, who: &str) -> Result<Rewrite> {
    let Run { code, stdout, stderr } = accord.fmt_stdout(file)?;
    if code != Some(0) {
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        let why = format!(
            "{who} refuses it (exit {}): {first}",
            code.map_or("signal".into(), |c| c.to_string())
        );
        return Ok(Rewrite { cell: Cell::Refused, problem: Some(why), output: None });
    }
    let output: Value = match serde_json::from_str(&stdout) {
        Ok(value) => value,
        Err(err) => {
            let why = format!("{who} printed something that is not JSON: {err}");
            return Ok(Rewrite { cell: Cell::Refused, problem: Some(why), output: None });
        }
    };
    match first_difference(expected, &output) {
        None => Ok(Rewrite { cell: Cell::Ok, problem: None, output: Some(stdout) }),
        Some(pointer) => {
            let why = format!(
                "{who} loses or changes a value; {}",
                describe(&pointer, expected, "its input", &output, "its output")
            );
            Ok(Rewrite { cell: Cell::Loss(pointer), problem: Some(why), output: Some(stdout) })
        }
    }
}

/// (c): the old build rewrites today's documents (new→old), and today's build rewrites the old
/// build's output (old→new); both must keep every value.
fn against_old(
    root: &Path,
    docs: &[workspace::Source],
    old: &OldBuild,
    new: &Accord,
    tally: &mut Tally,
) -> Result<()> {
    let label = old.label();
    println!("against {label}:");
    println!(
        "  new→old: the old build rewrites today's document (`fmt --stdout`); its output must keep every value"
    );
    println!(
        "  old→new: today's build rewrites the old build's output; its output must keep every value"
    );
    let mut rows = Vec::new();
    for doc in docs {
        let text = workspace::read_text(root, &doc.path)?;
        let input: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", show(&doc.path)))?;
        let mut problems = Vec::new();
        let by_old = rewrite(&old.accord, &doc.path, &input, &format!("the build of {label}"))?;
        problems.extend(by_old.problem.map(|w| format!("new→old: {w}")));
        let old_new = match by_old.output {
            Some(old_output) => {
                let kept = worktree::output_path(old, &doc.path);
                let abs = root.join(&kept);
                if let Some(dir) = abs.parent() {
                    fs::create_dir_all(dir)
                        .with_context(|| format!("could not create {}", dir.display()))?;
                }
                fs::write(&abs, &old_output)
                    .with_context(|| format!("could not write {}", show(&kept)))?;
                let expected: Value = serde_json::from_str(&old_output)
                    .with_context(|| format!("{} is not JSON", show(&kept)))?;
                let by_new = rewrite(new, &kept, &expected, "today's build")?;
                problems.extend(by_new.problem.map(|w| format!("old→new: {w}")));
                by_new.cell
            }
            None => Cell::Skipped,
        };
        tally.checked += 1;
        for problem in problems {
            tally.losses.push(format!("{}: {problem}", show(&doc.path)));
        }
        rows.push([show(&doc.path), old_new.short(), by_old.cell.short()]);
    }
    print_table(&["document", "old→new", "new→old"], &rows);
    Ok(())
}

fn print_table(header: &[&str; 3], rows: &[[String; 3]]) {
    let mut widths = header.map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 3]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        println!("  {}", padded.join("  ").trim_end());
    };
    line(*header);
    line(widths.map(|w| "-".repeat(w)).each_ref().map(String::as_str));
    for row in rows {
        line(row.each_ref().map(String::as_str));
    }
}

#[cfg(test)]
mod tests {
    use super::lossless;

    #[test]
    fn a_document_with_unknown_members_round_trips() {
        let text = r#"{
  "x-top": [1, 2, {"deep": true}],
  "namespaces": {
    "pump": {
      "methods": {
        "status": { "x-owner": "ops", "result": { "kind": "string" }, "semantics": "read" }
      },
      "version": "1.0.0"
    }
  },
  "schema": 1
}"#;
        assert_eq!(lossless(text), Ok(()));
    }

    #[test]
    fn a_document_the_reader_refuses_is_named_as_such() {
        let err = lossless(r#"{"namespaces": {}}"#).unwrap_err();
        assert!(err.starts_with("today's reader refuses it"), "{err}");
    }
}
