//! `accord sample`: generated values of a contract's types, one JSON value per line.

use std::path::PathBuf;

use crate::Outcome;
use crate::output::{self, Written};
use crate::target::TargetArgs;

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
    // Written value by value: a large --count never waits whole in memory, and a reader that
    // has seen enough (`| head -1`) ends the run at once.
    let mut out = output::Lines::new();
    for i in 0..args.count {
        // Value i of a run is the value of seed + i: `--seed 7 --count 3` ends where
        // `--seed 9 --count 1` begins.
        match validator.generate(args.seed.wrapping_add(i)) {
            Ok(value) => match out.line(&value.to_string()) {
                Written::More => {}
                Written::Closed => return Outcome::Success,
                Written::Failed => return Outcome::InputError,
            },
            Err(err) => {
                if !out.finish() {
                    return Outcome::InputError;
                }
                eprintln!("error: {}: {err}", args.contract.display());
                return Outcome::InputError;
            }
        }
    }
    if out.finish() { Outcome::Success } else { Outcome::InputError }
}
