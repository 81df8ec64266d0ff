//! `accord --help` and every subcommand's `--help`, as snapshots: the descriptions people read
//! first cannot drift from what the commands do without a reviewed snapshot change.

use std::process::{Command, Output};

use crate::common::*;

/// `accord ARGS` with help wrapped at 100 columns, whatever the terminal.
fn accord(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("run accord")
}

/// The subcommands `accord --help` lists (its `Commands:` section, `help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line is indented two spaces; a wrapped description line more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|name| name != "help")
        .collect()
}

#[test]
fn accord_help_is_a_snapshot() {
    let out = accord(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("accord", stdout(&out));
}

#[test]
fn every_subcommand_help_is_a_snapshot() {
    let top = stdout(&accord(&["--help"]));
    let all = subcommands(&top);
    assert!(all.len() >= 12, "the Commands: section was not found in\n{top}");
    for name in &all {
        let out = accord(&[name, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{name} --help: {}", stderr(&out));
        insta::assert_snapshot!(name.as_str(), stdout(&out));
    }
}
