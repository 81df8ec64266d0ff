//! `cargo xtask crates [--check]`: every library crate built alone, with its default features and
//! with none, and the number of packages each pulls in, written to docs/crates.md's table.
//!
//! A downstream project takes one crate, not the workspace: building each alone (`-p X`, so no
//! other member's features are unified in) is what proves a feature gate holds, and the counts
//! show what each choice costs. `--check` fails when a crate does not build alone or the table
//! is out of date.
//!
//! The hand-written maps of the crates are held to the workspace here too, before anything is
//! built: CONTRIBUTING.md's "workspace in one screen" names every folder under `crates/` (and
//! none that is gone), and docs/crates.md's job table and its sections name every library crate.

use std::{collections::BTreeSet, fs, path::Path};

use crate::workspace::{self, describe, stdout_of};
use anyhow::{Context, Result, bail};

/// The file whose table this task writes.
const DOC: &str = "docs/crates.md";
const BEGIN: &str = "<!-- crates-table: begin (cargo xtask crates) -->";
const END: &str = "<!-- crates-table: end -->";

pub(crate) fn run(root: &Path, check: bool) -> Result<()> {
    let libraries: Vec<String> = workspace::publishable_packages(root)?
        .into_iter()
        .filter(|(_, lib)| *lib)
        .map(|(package, _)| package)
        .collect();
    maps_name_every_crate(root, &libraries)?;
    let mut rows = Vec::new();
    for package in libraries {
        let mut counts = Vec::new();
        for no_default in [false, true] {
            let mut build = workspace::cargo();
            build.current_dir(root).args(["check", "--quiet", "--lib", "-p", &package]);
            if no_default {
                build.arg("--no-default-features");
            }
            println!("crates: {}", describe(&build));
            let status =
                build.status().with_context(|| format!("could not run {}", describe(&build)))?;
            if !status.success() {
                bail!("{} failed: {package} does not build alone", describe(&build));
            }
            counts.push(dependencies(root, &package, no_default)?);
        }
        rows.push(format!("| `{package}` | {} | {} |", counts[0], counts[1]));
    }
    let table = format!(
        "{BEGIN}\n| crate | packages it pulls in (default features) | with `--no-default-features` |\n| --- | --- | --- |\n{}\n{END}",
        rows.join("\n")
    );
    let path = root.join(DOC);
    let text = fs::read_to_string(&path).with_context(|| format!("could not read {DOC}"))?;
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        bail!("{DOC} has no `{BEGIN}` … `{END}` table to fill");
    };
    let updated = format!("{}{table}{}", &text[..start], &text[end + END.len()..]);
    if updated == text {
        println!("crates: {DOC} is up to date");
    } else if check {
        bail!("{DOC}'s table is out of date; run `cargo xtask crates`:\n{table}");
    } else {
        fs::write(&path, updated).with_context(|| format!("could not write {DOC}"))?;
        println!("crates: wrote {DOC}");
    }
    Ok(())
}

/// How many distinct packages (itself left out) `package` pulls in as normal dependencies.
fn dependencies(root: &Path, package: &str, no_default: bool) -> Result<usize> {
    let mut tree = workspace::cargo();
    tree.current_dir(root).args([
        "tree",
        "--offline",
        "-e",
        "normal",
        "--prefix",
        "none",
        "-p",
        package,
    ]);
    if no_default {
        tree.arg("--no-default-features");
    }
    let out = stdout_of(&mut tree)?;
    let distinct: BTreeSet<&str> = out
        .lines()
        .filter_map(|l| l.split(' ').next().zip(l.split(' ').nth(1)))
        .map(|(name, _)| name)
        .filter(|name| *name != package)
        .collect();
    Ok(distinct.len())
}

/// The crate maps written by hand: CONTRIBUTING.md's, by folder, and docs/crates.md's job table
/// and sections, by package. A crate added or removed without its line fails here, naming it.
fn maps_name_every_crate(root: &Path, libraries: &[String]) -> Result<()> {
    let mut problems = Vec::new();

    let folders: BTreeSet<String> = fs::read_dir(root.join("crates"))
        .context("could not read crates/")?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    let contributing = fs::read_to_string(root.join("CONTRIBUTING.md"))
        .context("could not read CONTRIBUTING.md")?;
    let mapped: BTreeSet<String> = contributing
        .lines()
        .filter_map(|line| line.strip_prefix("crates/"))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    for missing in folders.difference(&mapped) {
        problems.push(format!("CONTRIBUTING.md's map has no line `crates/{missing}`"));
    }
    for gone in mapped.difference(&folders) {
        problems.push(format!("CONTRIBUTING.md's map names `crates/{gone}`, which is not a crate"));
    }

    let text =
        fs::read_to_string(root.join(DOC)).with_context(|| format!("could not read {DOC}"))?;
    // The job table is the first table, before the generated one.
    let jobs = text.split("## What each pulls in").next().unwrap_or_default();
    for package in libraries {
        let row =
            jobs.lines().any(|l| l.starts_with("| ") && l.contains(&format!("| `{package}`")));
        if !row {
            problems.push(format!("{DOC}'s job table has no row for `{package}`"));
        }
        if !text.lines().any(|l| l == format!("### {package}")) {
            problems.push(format!("{DOC} has no `### {package}` section"));
        }
    }
    if problems.is_empty() {
        println!("crates: the maps in CONTRIBUTING.md and {DOC} name every crate");
        Ok(())
    } else {
        bail!("the crate maps are out of date:\n  {}", problems.join("\n  "))
    }
}
