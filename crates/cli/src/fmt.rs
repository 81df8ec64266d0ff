//! `accord fmt`: canonical, lossless rewriting.

use std::path::PathBuf;

use crate::{Outcome, input, output};

/// Arguments of `accord fmt`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The documents to rewrite.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Rewrite nothing; exit 1 and name the files that would change.
    #[arg(long, conflicts_with = "stdout")]
    check: bool,
    /// Print the canonical form of the one FILE to stdout instead of rewriting it.
    #[arg(long)]
    stdout: bool,
}

pub(crate) fn run(args: &Args) -> Outcome {
    if args.stdout && args.files.len() != 1 {
        eprintln!("error: --stdout takes exactly one FILE, got {}", args.files.len());
        return Outcome::InputError;
    }
    let mut input_errors = false;
    let mut would_change = Vec::new();
    for path in &args.files {
        let Some(loaded) = input::load(path) else {
            input_errors = true;
            continue;
        };
        let canonical = loaded.document.to_canonical_string();
        if args.stdout {
            if !output::print(&canonical) {
                return Outcome::InputError;
            }
        } else if canonical != loaded.text {
            if args.check {
                would_change.push(path);
            } else if let Err(err) = std::fs::write(path, &canonical) {
                eprintln!("error: cannot write {}: {err}", path.display());
                input_errors = true;
            } else {
                eprintln!("formatted {}", path.display());
            }
        }
    }
    let listing: String =
        would_change.iter().map(|path| format!("would reformat {}\n", path.display())).collect();
    if !output::print(&listing) {
        return Outcome::InputError;
    }
    if input_errors {
        Outcome::InputError
    } else if would_change.is_empty() {
        Outcome::Success
    } else {
        match (would_change.len(), args.files.len()) {
            (_, 1) => eprintln!("the file would be reformatted; run `accord fmt` on it"),
            (1, total) => {
                eprintln!("1 of {total} files would be reformatted; run `accord fmt` on it")
            }
            (n, total) => {
                eprintln!("{n} of {total} files would be reformatted; run `accord fmt` on them")
            }
        }
        Outcome::Problems
    }
}
