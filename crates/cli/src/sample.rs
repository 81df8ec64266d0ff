//! `accord sample`: generated values of a contract's types, one JSON value per line.

use std::path::PathBuf;

use crate::target::TargetArgs;
use crate::{Outcome, output};

/// Arguments of `accord sample`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    #[command(flatten)]
    target: TargetArgs,
    /// The seed: the same seed gives the same values, on every machine.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many values.
    #[arg(long, default_value_t = 1)]
    count: u64,
}

pub(crate) fn run(args: &Args) -> Outcome {
    crate::target::with_validator(&args.contract, &args.target, |validator| sample(args, validator))
        .unwrap_or(Outcome::InputError)
}

fn sample(args: &Args, validator: accord_validate::Validator<'_>) -> Outcome {
    let mut text = String::new();
    for i in 0..args.count {
        // Value i of a run is the value of seed + i: `--seed 7 --count 3` ends where
        // `--seed 9 --count 1` begins.
        match validator.generate(args.seed.wrapping_add(i)) {
            Ok(value) => {
                text.push_str(&value.to_string());
                text.push('\n');
            }
            Err(err) => {
                eprintln!("error: {}: {err}", args.contract.display());
                return Outcome::InputError;
            }
        }
    }
    if output::print(&text) { Outcome::Success } else { Outcome::InputError }
}
