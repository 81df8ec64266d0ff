//! The `[lint]` table of accord.toml: which lint rules are allowed (not reported), warnings or
//! errors, for every contract or for contracts matching path globs, and whether warnings fail
//! the run.
//!
//! ```toml
//! [lint]
//! deny-warnings = false                 # as `accord check --deny warnings`
//!
//! [lint.rules]
//! unknown-semantics = "error"           # a semantics typo ("reed") fails the run
//! undeclared-semantics = "allow"
//!
//! [[lint.overrides]]                    # later overrides win over earlier ones and [lint.rules]
//! paths = ["legacy/**/*.types.json"]    # globs, relative to the directory of accord.toml
//! rules = { dotted-name = "allow" }
//! ```
//!
//! Every key is checked: an unknown key, rule id or level is refused (exit 2) with the nearest
//! known one, so that a typo cannot turn a rule off unnoticed.

use std::path::{Path, PathBuf};

use accord_validate::{Diagnostic, LintRule, Severity, did_you_mean};

/// What the configuration makes of a rule's findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error: the run fails.
    Error,
}

/// Rule levels set by one table.
type Levels = Vec<(&'static str, Level)>;

/// Levels for the contracts some globs match.
#[derive(Debug)]
struct Override {
    paths: globset::GlobSet,
    rules: Levels,
}

/// The `[lint]` table, read and checked.
#[derive(Debug)]
pub(crate) struct LintConfig {
    /// The directory of accord.toml, which path globs are relative to.
    dir: PathBuf,
    rules: Levels,
    overrides: Vec<Override>,
    /// `deny-warnings = true`: warnings fail the run.
    pub(crate) deny_warnings: bool,
}

/// The file `accord check` reads when `--config` is not given.
const DEFAULT: &str = "accord.toml";

/// The `[lint]` table of `explicit`, or of ./accord.toml when it exists; `Ok(None)` when there
/// is none; `Err` after the error is printed.
pub(crate) fn load(explicit: Option<&Path>) -> Result<Option<LintConfig>, ()> {
    let path = match explicit {
        Some(path) => path.to_owned(),
        None if Path::new(DEFAULT).is_file() => PathBuf::from(DEFAULT),
        None => return Ok(None),
    };
    let text = std::fs::read_to_string(&path).map_err(|err| {
        eprintln!("error: cannot read {}: {err}", path.display());
    })?;
    let dir = path.parent().map_or_else(PathBuf::new, Path::to_owned);
    parse(&text, dir).map_err(|reason| eprintln!("error: {}: {reason}", path.display()))
}

/// The `[lint]` table of `text`, an accord.toml whose directory is `dir`.
fn parse(text: &str, dir: PathBuf) -> Result<Option<LintConfig>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let Some(lint) = table.get("lint") else { return Ok(None) };
    let lint = lint.as_table().ok_or("`lint` must be a table ([lint])")?;
    let mut config =
        LintConfig { dir, rules: Vec::new(), overrides: Vec::new(), deny_warnings: false };
    for (key, value) in lint {
        match key.as_str() {
            "deny-warnings" => {
                config.deny_warnings =
                    value.as_bool().ok_or("`lint.deny-warnings` must be true or false")?;
            }
            "rules" => config.rules = levels(value, "lint.rules")?,
            "overrides" => {
                let list = value
                    .as_array()
                    .ok_or("`lint.overrides` must be an array of tables ([[lint.overrides]])")?;
                for (n, entry) in list.iter().enumerate() {
                    config.overrides.push(override_entry(entry, n)?);
                }
            }
            other => return Err(unknown(other, "lint", &["deny-warnings", "rules", "overrides"])),
        }
    }
    Ok(Some(config))
}

fn override_entry(entry: &toml::Value, n: usize) -> Result<Override, String> {
    let at = format!("lint.overrides[{n}]");
    let table = entry.as_table().ok_or(format!("`{at}` must be a table"))?;
    let mut paths = None;
    let mut rules = None;
    for (key, value) in table {
        match key.as_str() {
            "paths" => {
                let list =
                    value.as_array().ok_or(format!("`{at}.paths` must be an array of globs"))?;
                let mut set = globset::GlobSetBuilder::new();
                for glob in list {
                    let glob = glob.as_str().ok_or(format!("`{at}.paths` must hold strings"))?;
                    let glob = globset::GlobBuilder::new(glob)
                        .literal_separator(true)
                        .build()
                        .map_err(|e| format!("`{at}.paths`: `{glob}` is not a glob: {e}"))?;
                    set.add(glob);
                }
                paths = Some(set.build().map_err(|e| format!("`{at}.paths`: {e}"))?);
            }
            "rules" => rules = Some(levels(value, &format!("{at}.rules"))?),
            other => return Err(unknown(other, &at, &["paths", "rules"])),
        }
    }
    match (paths, rules) {
        (Some(paths), Some(rules)) => Ok(Override { paths, rules }),
        (None, _) => Err(format!("`{at}` has no `paths` (the globs it applies to)")),
        (_, None) => Err(format!("`{at}` has no `rules`")),
    }
}

/// A table of rule id → `allow` | `warn` | `error`.
fn levels(value: &toml::Value, at: &str) -> Result<Levels, String> {
    let table = value.as_table().ok_or(format!("`{at}` must be a table of rule = level"))?;
    let ids = || LintRule::all().iter().map(LintRule::id);
    let mut out = Vec::new();
    for (id, level) in table {
        let Some(rule) = LintRule::find(id) else {
            let hint =
                did_you_mean(id, ids()).map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            return Err(format!(
                "`{at}`: no lint rule `{id}` (`accord rules --kind lint` lists them){hint}"
            ));
        };
        let level = match level.as_str() {
            Some("allow") => Level::Allow,
            Some("warn") => Level::Warn,
            Some("error") => Level::Error,
            _ => {
                return Err(format!(
                    "`{at}.{id}` must be \"allow\", \"warn\" or \"error\", found {level}"
                ));
            }
        };
        out.push((rule.id(), level));
    }
    Ok(out)
}

fn unknown(key: &str, at: &str, known: &[&'static str]) -> String {
    let hint = did_you_mean(key, known.iter().copied())
        .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
    let list = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    format!("unknown key `{key}` in `{at}` (it has {list}){hint}")
}

impl LintConfig {
    /// The findings of the contract at `contract` with the configured levels: allowed rules
    /// dropped, the others at their level.
    pub(crate) fn apply(&self, contract: &Path, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let relative = self.relative(contract);
        let overrides: Vec<&Override> =
            self.overrides.iter().filter(|o| o.paths.is_match(&relative)).collect();
        diagnostics
            .into_iter()
            .filter_map(|mut d| {
                let level = overrides
                    .iter()
                    .rev()
                    .find_map(|o| find(&o.rules, d.rule))
                    .or_else(|| find(&self.rules, d.rule));
                match level {
                    None => {}
                    Some(Level::Allow) => return None,
                    Some(Level::Warn) => d.severity = Severity::Warning,
                    Some(Level::Error) => d.severity = Severity::Error,
                }
                Some(d)
            })
            .collect()
    }

    /// `contract` relative to the directory of accord.toml, as path globs are written; as given
    /// when it is not under that directory.
    fn relative(&self, contract: &Path) -> PathBuf {
        let absolute = |p: &Path| std::fs::canonicalize(p).ok();
        let dir = if self.dir.as_os_str().is_empty() { Path::new(".") } else { &self.dir };
        match (absolute(dir), absolute(contract)) {
            (Some(dir), Some(file)) => {
                file.strip_prefix(&dir).map_or_else(|_| contract.to_owned(), Path::to_owned)
            }
            _ => contract.to_owned(),
        }
    }
}

fn find(levels: &Levels, rule: &str) -> Option<Level> {
    levels.iter().find(|(id, _)| *id == rule).map(|(_, level)| *level)
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn refused(text: &str) -> String {
        parse(text, ".".into()).expect_err("refused")
    }

    #[test]
    fn typos_are_refused_with_the_nearest_name() {
        assert!(refused("[lint]\ndeny-warning = true").contains("did you mean `deny-warnings`?"));
        let rule = refused("[lint.rules]\nunknown-semantic = \"error\"");
        assert!(rule.contains("did you mean `unknown-semantics`?"), "{rule}");
        let level = refused("[lint.rules]\nunknown-semantics = \"fatal\"");
        assert!(level.contains("must be \"allow\", \"warn\" or \"error\""), "{level}");
        assert!(refused("[[lint.overrides]]\nrules = {}").contains("has no `paths`"));
    }

    #[test]
    fn no_lint_table_is_no_configuration() {
        assert!(parse("[extract]\nsource = \".\"\n", ".".into()).expect("read").is_none());
    }
}
