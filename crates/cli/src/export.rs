//! `accord export`: a contract in another schema language.

use std::path::PathBuf;

use crate::target::TargetArgs;
use crate::{Outcome, input, output};

/// Arguments of `accord export`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    to: To,
}

#[derive(Debug, clap::Subcommand)]
enum To {
    /// JSON Schema 2020-12: of one target, or of the whole contract (every part a `$defs` entry).
    Jsonschema(JsonSchemaArgs),
    /// OpenRPC 1.3: every method under its wire name, named types as components, and
    /// `x-accord-*` extensions for what OpenRPC lacks (`accord import openrpc` reads it back).
    Openrpc(OpenrpcArgs),
}

#[derive(Debug, clap::Args)]
struct OpenrpcArgs {
    /// The contract.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
}

#[derive(Debug, clap::Args)]
struct JsonSchemaArgs {
    /// The contract.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    #[command(flatten)]
    target: TargetArgs,
    /// Keep accord's own `x-accord-*` annotations (units, formats, …). Without it the output
    /// has none, so that strict validators take it as is (ajv 8's default strict mode refuses
    /// unknown keywords unless they are declared with `ajv.addKeyword`).
    #[arg(long)]
    accord_annotations: bool,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let args = match &args.to {
        To::Jsonschema(args) => args,
        To::Openrpc(args) => return openrpc(args),
    };
    let Some(loaded) = input::load(&args.contract) else {
        return Outcome::InputError;
    };
    let target = match args.target.optional_target(&loaded.document) {
        Ok(target) => target,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::InputError;
        }
    };
    let schema = match &target {
        Some(target) => accord_validate::json_schema(&loaded.document, target),
        None => accord_validate::json_schema_of_contract(&loaded.document),
    };
    match schema {
        Ok(schema) => {
            let schema = accord_validate::strict_json_schema(schema, args.accord_annotations);
            // Serializing a Value cannot fail.
            let text = serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n";
            if output::print(&text) { Outcome::Success } else { Outcome::InputError }
        }
        Err(err) => {
            eprintln!("error: {}", crate::validate::located(&args.contract, &loaded.text, &err));
            Outcome::InputError
        }
    }
}

fn openrpc(args: &OpenrpcArgs) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else {
        return Outcome::InputError;
    };
    match accord_import::export_openrpc(&loaded.document) {
        Ok(document) => {
            // Serializing a Value cannot fail.
            let text = serde_json::to_string_pretty(&document).unwrap_or_default() + "\n";
            if output::print(&text) { Outcome::Success } else { Outcome::InputError }
        }
        Err(err) => {
            eprintln!("error: {}: {err}", args.contract.display());
            Outcome::InputError
        }
    }
}
