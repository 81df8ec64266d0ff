//! Choosing what in a contract a value is checked against: `--params NS.METHOD`,
//! `--result NS.METHOD`, `--event NS.EVENT` or `--type NS.TYPE`.

use accord_validate::Target;

/// The target flags, at most one of which is given (commands that need one say so).
#[derive(Debug, clap::Args)]
#[group(required = false, multiple = false)]
pub(crate) struct TargetArgs {
    /// A method's params, as a caller sends them (an object by name or an array by position).
    #[arg(long, value_name = "NS.METHOD")]
    params: Option<String>,
    /// A method's result.
    #[arg(long, value_name = "NS.METHOD")]
    result: Option<String>,
    /// An event's payload.
    #[arg(long, value_name = "NS.EVENT")]
    event: Option<String>,
    /// A named type.
    #[arg(long = "type", value_name = "NS.TYPE")]
    ty: Option<String>,
}

impl TargetArgs {
    /// The target named, or why the name is not `namespace.name`, or that none was named.
    pub(crate) fn target(&self) -> Result<Target, String> {
        self.optional_target()?
            .ok_or_else(|| "name what to check: --params, --result, --event or --type".to_owned())
    }

    /// The target named, if any.
    pub(crate) fn optional_target(&self) -> Result<Option<Target>, String> {
        let split = |flag: &str, text: &str| -> Result<(String, String), String> {
            match text.split_once('.') {
                Some((ns, name)) if !ns.is_empty() && !name.is_empty() => {
                    Ok((ns.to_owned(), name.to_owned()))
                }
                _ => {
                    Err(format!("--{flag} takes NAMESPACE.NAME (such as pump.start), got `{text}`"))
                }
            }
        };
        if let Some(text) = &self.params {
            let (namespace, method) = split("params", text)?;
            Ok(Some(Target::Params { namespace, method }))
        } else if let Some(text) = &self.result {
            let (namespace, method) = split("result", text)?;
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

/// Reads and compiles the contract at `path` and hands out the validator of the target the
/// flags name; on any failure prints the diagnostic and returns `None` (an input error).
pub(crate) fn with_validator<T>(
    path: &std::path::Path,
    flags: &TargetArgs,
    use_it: impl FnOnce(accord_validate::Validator<'_>) -> T,
) -> Option<T> {
    let loaded = crate::input::load(path)?;
    let target = match flags.target() {
        Ok(target) => target,
        Err(message) => {
            eprintln!("error: {message}");
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
            eprintln!("error: {}: {err}", path.display());
            None
        }
    }
}
