//! Choosing what in a contract a value is checked against: `--params METHOD`,
//! `--result METHOD`, `--event NS.EVENT` or `--type NS.TYPE`. A method is named by its wire
//! name (`eth_getBalance`) or by the contract's `namespace.method` (docs/wire.md §11.1), as the
//! contract's Dialect resolves it.

use crate::diagnostic::escape_controls;
use accord_schema_model::{Dialect, Document, MethodRoute};
use accord_validate::{Target, did_you_mean};

/// The target flags, at most one of which is given (commands that need one say so).
#[derive(Debug, clap::Args)]
#[group(required = false, multiple = false)]
pub(crate) struct TargetArgs {
    /// A method's params, as a caller sends them (an object by name or an array by position).
    /// The method by its wire name (`eth_getBalance`) or as NS.METHOD.
    #[arg(long, value_name = "METHOD")]
    params: Option<String>,
    /// A method's result. The method by its wire name or as NS.METHOD.
    #[arg(long, value_name = "METHOD")]
    result: Option<String>,
    /// An event's payload.
    #[arg(long, value_name = "NS.EVENT")]
    event: Option<String>,
    /// A named type.
    #[arg(long = "type", value_name = "NS.TYPE")]
    ty: Option<String>,
}

impl TargetArgs {
    /// The target named in `doc`, or why the name is not one, or that none was named.
    pub(crate) fn target(&self, doc: &Document) -> Result<Target, String> {
        self.optional_target(doc)?
            .ok_or_else(|| "name what to check: --params, --result, --event or --type".to_owned())
    }

    /// The target named in `doc`, if any.
    pub(crate) fn optional_target(&self, doc: &Document) -> Result<Option<Target>, String> {
        if let Some(text) = &self.params {
            let (namespace, method) = method(doc, "params", text)?;
            Ok(Some(Target::Params { namespace, method }))
        } else if let Some(text) = &self.result {
            let (namespace, method) = method(doc, "result", text)?;
            Ok(Some(Target::Result { namespace, method }))
        } else if let Some(text) = &self.event {
            let (namespace, event) = split("event", text)?;
            Ok(Some(Target::Event { namespace, event }))
        } else if let Some(text) = &self.ty {
            let (namespace, name) = split("type", text)?;
            Ok(Some(Target::Type { namespace, name }))
        } else {
            Ok(None)
        }
    }
}

/// `namespace.name`, split at the first `.`.
fn split(flag: &str, text: &str) -> Result<(String, String), String> {
    match text.split_once('.') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() => {
            Ok((ns.to_owned(), name.to_owned()))
        }
        _ => Err(format!("--{flag} takes NAMESPACE.NAME (such as pump.start), got `{text}`")),
    }
}

/// The method `text` names in `doc`, by its wire name or by `namespace.method`, as the
/// contract's Dialect resolves it: (namespace, method).
fn method(doc: &Document, flag: &str, text: &str) -> Result<(String, String), String> {
    // A contract whose names do not resolve (a `wire` section `accord check` refuses, or two
    // dotted names that collide) is read by the contract's names alone, as before wire names.
    let Ok(dialect) = Dialect::of(doc) else {
        return split(flag, text);
    };
    if let Some(route) = dialect.resolve(text) {
        return Ok((route.namespace.clone(), route.method.clone()));
    }
    if dialect.is_accord() && split(flag, text).is_err() {
        // Not NAMESPACE.METHOD at all: the form is what to fix first.
        return split(flag, text);
    }
    // On accord's own wire the two spellings are one, and shown once.
    let spellings = |r: &MethodRoute| {
        if r.wire_name == r.qualified() {
            format!("`{}`", r.wire_name)
        } else {
            format!("`{}` (`{}`)", r.wire_name, r.qualified())
        }
    };
    let names: Vec<String> =
        dialect.methods().flat_map(|r| [r.wire_name.clone(), r.qualified()]).collect();
    let close =
        did_you_mean(text, names.iter().map(String::as_str)).and_then(|n| dialect.resolve(n));
    Err(match (close, dialect.methods().next()) {
        (Some(route), _) => format!(
            "--{flag}: the contract has no method called `{text}`; did you mean {}?",
            spellings(route)
        ),
        (None, Some(example)) => format!(
            "--{flag}: the contract has no method called `{text}`: name one by its wire name or as NAMESPACE.METHOD, such as {}",
            spellings(example)
        ),
        (None, None) => {
            format!("--{flag}: the contract has no methods, so none is called `{text}`")
        }
    })
}

/// Reads and compiles the contract at `path` and hands out the validator of the target the
/// flags name; on any failure prints the diagnostic and returns `None` (an input error).
pub(crate) fn with_validator<T>(
    path: &std::path::Path,
    flags: &TargetArgs,
    use_it: impl FnOnce(accord_validate::Validator<'_>) -> T,
) -> Option<T> {
    let loaded = crate::input::load(path)?;
    let target = match flags.target(&loaded.document) {
        Ok(target) => target,
        Err(message) => {
            // A did-you-mean names the contract's methods and types.
            eprintln!("error: {}", escape_controls(&message));
            return None;
        }
    };
    let contract = match accord_validate::Contract::compile(&loaded.document) {
        Ok(contract) => contract,
        Err(err) => {
            eprintln!("error: {}", crate::validate::located(path, &loaded.text, &err));
            eprintln!(
                "  help: `accord check {}` lists every problem of the contract",
                path.display()
            );
            return None;
        }
    };
    match contract.validator(&target) {
        Ok(validator) => Some(use_it(validator)),
        Err(err) => {
            let message = format!("{}: {err}", path.display());
            eprintln!("error: {}", escape_controls(&message));
            None
        }
    }
}
