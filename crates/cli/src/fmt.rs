//! `accord fmt`: canonical, lossless rewriting.

use std::io::Write;
use std::path::PathBuf;

use crate::{Outcome, input};

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
            let mut out = std::io::stdout().lock();
            if let Err(err) = out.write_all(canonical.as_bytes()).and_then(|()| out.flush()) {
                eprintln!("error: cannot write to stdout: {err}");
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
    for path in &would_change {
        println!("would reformat {}", path.display());
    }
    if input_errors {
        Outcome::InputError
    } else if would_change.is_empty() {
        Outcome::Success
    } else {
        eprintln!(
            "{} of {} files would be reformatted; run `accord fmt` on them",
            would_change.len(),
            args.files.len()
        );
        Outcome::Problems
    }
}
