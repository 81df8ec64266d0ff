//! `accord import`: an OpenRPC document or a JSON Schema as a contract, with the report of
//! what the contract cannot hold exactly (docs/interop.md).

use std::path::{Path, PathBuf};

use accord_import::{Import, Options, SemanticsRule};
use serde_json::Value;

use crate::{Outcome, output};

/// Arguments of `accord import`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    from: From,
}

#[derive(Debug, clap::Subcommand)]
enum From {
    /// An OpenRPC 1.x document: method names split into namespaces by the separator.
    Openrpc(OpenrpcArgs),
    /// A JSON Schema (2020-12 or 07): its `$defs` as named types of one namespace.
    Jsonschema(JsonSchemaArgs),
}

/// What every import takes.
#[derive(Debug, clap::Args)]
struct Common {
    /// Where to write the contract (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Where to write the loss report as JSON (one entry per construct the contract cannot
    /// hold exactly).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Exit 1 when anything is lost (the contract is still written).
    #[arg(long)]
    strict: bool,
}

#[derive(Debug, clap::Args)]
struct OpenrpcArgs {
    /// The OpenRPC document.
    #[arg(value_name = "FILE")]
    source: PathBuf,
    #[command(flatten)]
    common: Common,
    /// Semantics by method-name pattern, VALUE=GLOB[,GLOB…] (`read='eth_get*,eth_call'`);
    /// repeatable. Rules apply in the order written, the first match wins: flags in command-line
    /// order, then the --config file's `[import.semantics]` in file order. A method matched by
    /// rules of different semantics is reported (a `semantics-overlap` note). Never guessed: a
    /// method no rule covers is undeclared.
    #[arg(long, value_name = "VALUE=GLOBS")]
    semantics: Vec<String>,
    /// An accord.toml whose `[import]` table gives options (its `[import.semantics]` rules, in
    /// file order, come after those of --semantics: a flag wins over the file).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Follow `$ref`s into files outside the document's folder (refs into files beside it and
    /// below it are always followed; nothing is ever fetched over the network).
    #[arg(long)]
    allow_outside: bool,
    /// Resolve relative file `$ref`s against DIR instead of the folder of the file holding the
    /// ref, for specs whose own tooling resolves them from the repository root (such as
    /// starknet-specs, whose `api/` files write `./api/starknet_api_openrpc.json#…`).
    #[arg(long, value_name = "DIR")]
    ref_base: Option<PathBuf>,
    /// What stands between namespace and method in the method names.
    #[arg(long, value_name = "TEXT")]
    separator: Option<String>,
    /// The plant's codes profile (`eip-1474`, `jsonrpsee`, `accord`), written as wire.codes.
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
    /// The plant's describe method (`rpc.discover`); default: none.
    #[arg(long, value_name = "METHOD")]
    describe: Option<String>,
    /// The contract version of every namespace (default: the document's info.version).
    #[arg(long = "contract-version", value_name = "SEMVER")]
    contract_version: Option<String>,
}

#[derive(Debug, clap::Args)]
struct JsonSchemaArgs {
    /// The JSON Schema.
    #[arg(value_name = "FILE")]
    source: PathBuf,
    #[command(flatten)]
    common: Common,
    /// The type name of the root schema (without it, only `$defs` are imported).
    #[arg(long, value_name = "TYPE")]
    name: Option<String>,
    /// The namespace the types go into.
    #[arg(long, value_name = "NAME", default_value = "types")]
    namespace: String,
    /// The namespace's contract version.
    #[arg(long = "contract-version", value_name = "SEMVER", default_value = "0.1.0")]
    contract_version: String,
}

pub(crate) fn run(args: &Args) -> Outcome {
    match &args.from {
        From::Openrpc(a) => {
            let Some(source) = read_json(&a.source) else { return Outcome::InputError };
            let options = match openrpc_options(a) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Outcome::InputError;
                }
            };
            let import = accord_import::import_openrpc_file(&source, &a.source, &options);
            finish(&a.source, import, &a.common)
        }
        From::Jsonschema(a) => {
            let Some(source) = read_json(&a.source) else { return Outcome::InputError };
            let import = accord_import::import_json_schema(
                &source,
                &a.namespace,
                &a.contract_version,
                a.name.as_deref(),
            );
            finish(&a.source, import, &a.common)
        }
    }
}

fn openrpc_options(a: &OpenrpcArgs) -> Result<Options, String> {
    let mut options = Options::default();
    for rule in &a.semantics {
        options.semantics.push(SemanticsRule::parse(rule).map_err(|e| e.to_string())?);
    }
    if let Some(config) = &a.config {
        let text = std::fs::read_to_string(config)
            .map_err(|e| format!("cannot read {}: {e}", config.display()))?;
        options.read_toml(&text).map_err(|e| format!("{}: {e}", config.display()))?;
    }
    options.allow_outside = a.allow_outside;
    options.ref_base.clone_from(&a.ref_base);
    if let Some(s) = &a.separator {
        options.separator = s.clone();
    }
    if a.profile.is_some() {
        options.profile = a.profile.clone();
    }
    if a.describe.is_some() {
        options.describe = a.describe.clone();
    }
    if a.contract_version.is_some() {
        options.version = a.contract_version.clone();
    }
    Ok(options)
}

fn read_json(path: &Path) -> Option<Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return None;
        }
    };
    match accord_schema_model::parse_json(&text) {
        Ok(v) => Some(v),
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            None
        }
    }
}

fn finish(source: &Path, import: Result<Import, accord_import::Error>, common: &Common) -> Outcome {
    let import = match import {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {}: {e}", source.display());
            return Outcome::InputError;
        }
    };
    let text = import.document.to_canonical_string();
    match &common.out {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &text) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return Outcome::InputError;
            }
        }
        None => {
            if !output::print(&text) {
                return Outcome::InputError;
            }
        }
    }
    if let Some(path) = &common.report {
        let json =
            serde_json::to_string_pretty(&import.report.to_json()).unwrap_or_default() + "\n";
        if let Err(e) = std::fs::write(path, json) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return Outcome::InputError;
        }
    }
    for line in import.report.to_lines().lines() {
        eprintln!("loss: {}: {line}", source.display());
    }
    for line in import.report.notes_to_lines().lines() {
        eprintln!("note: {}: {line}", source.display());
    }
    let n = import.report.losses.len();
    if n > 0 {
        eprintln!(
            "{n} loss(es): the contract cannot hold these constructs exactly (see docs/interop.md)"
        );
    }
    if common.strict && n > 0 { Outcome::Problems } else { Outcome::Success }
}
