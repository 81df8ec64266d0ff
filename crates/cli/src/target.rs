//! Choosing what in a contract a value is checked against: `--params NS.METHOD`,
//! `--result NS.METHOD`, `--event NS.EVENT` or `--type NS.TYPE`.

use accord_validate::Target;

/// The target flags, exactly one of which is given.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
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
    /// The target named, or why the name is not `namespace.name`.
    pub(crate) fn target(&self) -> Result<Target, String> {
        let split = |flag: &str, text: &str| -> Result<(String, String), String> {
            match text.split_once('.') {
                Some((ns, name)) if !ns.is_empty() && !name.is_empty() => Ok((ns.to_owned(), name.to_owned())),
                _ => Err(format!("--{flag} takes NAMESPACE.NAME (such as pump.start), got `{text}`")),
            }
        };
        if let Some(text) = &self.params {
            let (namespace, method) = split("params", text)?;
            Ok(Target::Params { namespace, method })
        } else if let Some(text) = &self.result {
            let (namespace, method) = split("result", text)?;
            Ok(Target::Result { namespace, method })
        } else if let Some(text) = &self.event {
            let (namespace, event) = split("event", text)?;
            Ok(Target::Event { namespace, event })
        } else if let Some(text) = &self.ty {
            let (namespace, name) = split("type", text)?;
            Ok(Target::Type { namespace, name })
        } else {
            // clap's group makes one of the four required.
            Err("name what to check: --params, --result, --event or --type".to_owned())
        }
    }
}
