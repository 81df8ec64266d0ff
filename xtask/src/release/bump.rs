//! The workspace version and the versions of the internal dependencies, moved together.

use anyhow::{Result, bail};

/// `Cargo.toml`'s text with `[workspace.package] version` and every internal dependency's
/// `version = "…"` (the rows of `[workspace.dependencies]` that have a `path`) set to `version`.
/// Refuses a manifest without a workspace version.
pub(crate) fn workspace_manifest(text: &str, version: &str) -> Result<String> {
    let mut section = "";
    let mut package = false;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed;
        }
        let replaced = if section == "[workspace.package]" && trimmed.starts_with("version") {
            package = true;
            Some(format!("version = \"{version}\"\n"))
        } else if section == "[workspace.dependencies]" && trimmed.contains("path =") {
            Some(set_inline_version(line, version)?)
        } else {
            None
        };
        out.push_str(replaced.as_deref().unwrap_or(line));
    }
    if !package {
        bail!("Cargo.toml has no `version` in [workspace.package]");
    }
    Ok(out)
}

/// `name = { path = "…", version = "old" }` with the version replaced (or added).
fn set_inline_version(line: &str, version: &str) -> Result<String> {
    let Some(close) = line.rfind('}') else { bail!("not an inline table: {}", line.trim()) };
    let head = &line[..close];
    let tail = &line[close..];
    let head = match head.find("version = \"") {
        Some(at) => {
            let from = at + "version = \"".len();
            let Some(len) = head[from..].find('"') else {
                bail!("unclosed version: {}", line.trim())
            };
            format!("{}{version}{}", &head[..from], &head[from + len..])
        }
        None => format!("{}, version = \"{version}\" ", head.trim_end()),
    };
    Ok(format!("{head}{tail}"))
}

#[cfg(test)]
mod tests {
    use super::workspace_manifest;

    #[test]
    fn bumps_the_workspace_and_internal_versions() {
        let text = "[workspace.package]\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace.dependencies]\naccord-validate = { path = \"crates/validate\", version = \"0.1.0\" }\naccord-wire = { path = \"crates/wire\" }\nserde = { version = \"1\" }\n\n[profile.bench]\nversion = \"x\"\n";
        let out = workspace_manifest(text, "0.2.0").unwrap();
        assert_eq!(
            out,
            "[workspace.package]\nversion = \"0.2.0\"\nedition = \"2024\"\n\n[workspace.dependencies]\naccord-validate = { path = \"crates/validate\", version = \"0.2.0\" }\naccord-wire = { path = \"crates/wire\", version = \"0.2.0\" }\nserde = { version = \"1\" }\n\n[profile.bench]\nversion = \"x\"\n"
        );
    }

    #[test]
    fn refuses_a_manifest_without_versions() {
        assert!(workspace_manifest("[workspace]\n", "0.2.0").is_err());
    }
}
