//! What an import is told rather than guesses: semantics by method-name pattern, the wire's
//! separator and codes profile, namespace versions. From the command line or the `[import]`
//! table of accord.toml.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::Error;

/// Options of an OpenRPC import.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// What stands between namespace and method in the source's method names (`_` for
    /// `eth_getBalance`); the contract's `wire.separator`.
    pub separator: String,
    /// The codes profile of the plant (`eip-1474`, `jsonrpsee`, `accord`), written as
    /// `wire.codes.profile`; `None` writes none (accord's own).
    pub profile: Option<String>,
    /// The plant's describe method (`rpc.discover`); `None`: the plant answers none.
    pub describe: Option<String>,
    /// The contract version of every namespace; `None`: the document's `info.version`.
    pub version: Option<String>,
    /// The namespace that holds `components/schemas`; `None`: the namespace with the most
    /// methods (the first such in the document).
    pub types_namespace: Option<String>,
    /// The namespace of method names without the separator.
    pub default_namespace: String,
    /// Semantics by method-name pattern, in the order the user wrote them (`--semantics` flags
    /// first, then accord.toml's `[import.semantics]` in file order); the first match wins.
    pub semantics: Vec<SemanticsRule>,
    /// Follow `$ref`s into files outside the document's folder (`../shared/errors.json`);
    /// without it such a ref is an `unresolved-ref` loss.
    pub allow_outside: bool,
    /// The folder relative file `$ref`s are resolved against, instead of the folder of the file
    /// that holds each ref: for specs whose own tooling resolves refs from the repository root
    /// (starknet-specs writes `./api/starknet_api_openrpc.json#…` inside `api/`). It counts as
    /// inside the document's folder for [`Options::allow_outside`].
    pub ref_base: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            separator: "_".to_owned(),
            profile: None,
            describe: None,
            version: None,
            types_namespace: None,
            default_namespace: "api".to_owned(),
            semantics: Vec::new(),
            allow_outside: false,
            ref_base: None,
        }
    }
}

/// Methods whose wire names match any of `patterns` get `semantics`.
#[derive(Debug, Clone)]
pub struct SemanticsRule {
    /// `read`, `idempotent`, `write` or `destructive`.
    pub semantics: String,
    /// Glob patterns over wire names (`eth_get*`).
    pub patterns: Vec<String>,
    set: GlobSet,
}

impl SemanticsRule {
    /// A rule from `read=eth_get*,eth_call` form: a semantics value and comma-separated globs.
    ///
    /// # Errors
    ///
    /// [`Error::Options`] for a semantics value the format does not know, or a bad glob.
    pub fn parse(text: &str) -> Result<SemanticsRule, Error> {
        let (semantics, patterns) = text.split_once('=').ok_or_else(|| {
            Error::Options(format!("`--semantics {text}`: expected VALUE=PATTERN[,PATTERN…], e.g. read='eth_get*,eth_call'"))
        })?;
        let patterns: Vec<String> = patterns
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        SemanticsRule::new(semantics.trim(), patterns)
    }

    /// A rule giving `semantics` to methods matching `patterns`.
    ///
    /// # Errors
    ///
    /// [`Error::Options`] for a semantics value the format does not know, or a bad glob.
    pub fn new(semantics: &str, patterns: Vec<String>) -> Result<SemanticsRule, Error> {
        if !["read", "idempotent", "write", "destructive"].contains(&semantics) {
            return Err(Error::Options(format!(
                "semantics `{semantics}` is not one of read, idempotent, write, destructive"
            )));
        }
        let mut builder = GlobSetBuilder::new();
        for p in &patterns {
            let glob = Glob::new(p).map_err(|e| Error::Options(format!("pattern `{p}`: {e}")))?;
            builder.add(glob);
        }
        let set = builder.build().map_err(|e| Error::Options(e.to_string()))?;
        Ok(SemanticsRule { semantics: semantics.to_owned(), patterns, set })
    }

    /// Whether the rule covers the method called `wire_name`.
    pub fn matches(&self, wire_name: &str) -> bool {
        self.set.is_match(wire_name)
    }

    /// The first of the rule's patterns that matches `wire_name`.
    fn pattern_of(&self, wire_name: &str) -> Option<&str> {
        self.set.matches(wire_name).first().map(|&i| self.patterns[i].as_str())
    }
}

/// A method two rules give different semantics: the first one applies.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SemanticsOverlap {
    /// The semantics that applies and the pattern that gave it.
    pub applied: (String, String),
    /// Each later rule with other semantics that matches too, with its pattern.
    pub overruled: Vec<(String, String)>,
}

impl Options {
    /// The semantics the rules give `wire_name`: the first rule that matches.
    pub fn semantics_of(&self, wire_name: &str) -> Option<&str> {
        self.semantics.iter().find(|r| r.matches(wire_name)).map(|r| r.semantics.as_str())
    }

    /// When rules with different semantics match `wire_name`: which applies (the first) and
    /// which are overruled. `None` when at most one semantics matches.
    pub fn semantics_overlap(&self, wire_name: &str) -> Option<SemanticsOverlap> {
        let mut matching = self
            .semantics
            .iter()
            .filter_map(|r| r.pattern_of(wire_name).map(|p| (r.semantics.clone(), p.to_owned())));
        let applied = matching.next()?;
        let overruled: Vec<(String, String)> = matching.filter(|(s, _)| *s != applied.0).collect();
        (!overruled.is_empty()).then_some(SemanticsOverlap { applied, overruled })
    }

    /// Reads the `[import]` table of an accord.toml over these options: `separator`, `profile`,
    /// `describe`, `version`, `types-namespace`, and `[import.semantics]` (value → list of
    /// patterns), read in file order. Rules from the table come after those already given.
    ///
    /// # Errors
    ///
    /// [`Error::Options`] for text that is not TOML or members of the wrong type.
    pub fn read_toml(&mut self, text: &str) -> Result<(), Error> {
        let root: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| Error::Options(format!("accord.toml: {e}")))?;
        let Some(table) = root.get("import") else { return Ok(()) };
        let table = table
            .as_table()
            .ok_or_else(|| Error::Options("accord.toml: `import` must be a table".to_owned()))?;
        let text_of = |key: &str| -> Result<Option<String>, Error> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => {
                    Err(Error::Options(format!("accord.toml: `import.{key}` must be a string")))
                }
            }
        };
        if let Some(s) = text_of("separator")? {
            self.separator = s;
        }
        self.profile = text_of("profile")?.or(self.profile.take());
        self.describe = text_of("describe")?.or(self.describe.take());
        self.version = text_of("version")?.or(self.version.take());
        self.types_namespace = text_of("types-namespace")?.or(self.types_namespace.take());
        if let Some(sem) = table.get("semantics") {
            let sem = sem.as_table().ok_or_else(|| {
                Error::Options("accord.toml: `import.semantics` must be a table".to_owned())
            })?;
            for (value, patterns) in sem {
                let patterns = patterns
                    .as_array()
                    .map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect())
                    .ok_or_else(|| {
                        Error::Options(format!(
                            "accord.toml: `import.semantics.{value}` must be a list of patterns"
                        ))
                    })?;
                self.semantics.push(SemanticsRule::new(value, patterns)?);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_matching_rule_wins_and_nothing_is_guessed() {
        let mut o = Options::default();
        o.semantics.push(SemanticsRule::parse("read=eth_get*,eth_call").unwrap());
        o.semantics.push(SemanticsRule::parse("write=eth_*").unwrap());
        assert_eq!(o.semantics_of("eth_getBalance"), Some("read"));
        assert_eq!(o.semantics_of("eth_call"), Some("read"));
        assert_eq!(o.semantics_of("eth_sendTransaction"), Some("write"));
        assert_eq!(o.semantics_of("debug_getRawBlock"), None, "no rule: undeclared");
    }

    #[test]
    fn bad_rules_are_refused_with_what_is_wrong() {
        let e = SemanticsRule::parse("readonly=eth_*").unwrap_err().to_string();
        assert!(e.contains("`readonly` is not one of"), "{e}");
        let e = SemanticsRule::parse("eth_*").unwrap_err().to_string();
        assert!(e.contains("expected VALUE=PATTERN"), "{e}");
    }

    #[test]
    fn accord_toml_table_adds_rules_and_wire_options() {
        let mut o = Options::default();
        o.read_toml(
            "[import]\nprofile = \"eip-1474\"\n[import.semantics]\nread = [\"eth_get*\"]\n",
        )
        .unwrap();
        assert_eq!(o.profile.as_deref(), Some("eip-1474"));
        assert_eq!(o.semantics_of("eth_getCode"), Some("read"));
        let e = o.read_toml("[import]\nseparator = 1\n").unwrap_err().to_string();
        assert!(e.contains("`import.separator` must be a string"), "{e}");
    }

    /// The table's rules apply in the order written, not sorted by key: with keys sorted,
    /// `read = ["eth_*"]` came before `write` and made `eth_sendTransaction` a read.
    #[test]
    fn accord_toml_rules_apply_in_file_order() {
        let mut o = Options::default();
        o.read_toml(
            "[import.semantics]\nwrite = [\"eth_send*\", \"eth_sign*\"]\nidempotent = [\"eth_uninstallFilter\"]\nread = [\"eth_*\"]\n",
        )
        .unwrap();
        let order: Vec<&str> = o.semantics.iter().map(|r| r.semantics.as_str()).collect();
        assert_eq!(order, ["write", "idempotent", "read"]);
        assert_eq!(o.semantics_of("eth_sendTransaction"), Some("write"));
        assert_eq!(o.semantics_of("eth_signTypedData"), Some("write"));
        assert_eq!(o.semantics_of("eth_uninstallFilter"), Some("idempotent"));
        assert_eq!(o.semantics_of("eth_getBalance"), Some("read"));
        let overlap = o.semantics_overlap("eth_sendTransaction").expect("two rules match");
        assert_eq!(overlap.applied, ("write".to_owned(), "eth_send*".to_owned()));
        assert_eq!(overlap.overruled, [("read".to_owned(), "eth_*".to_owned())]);
        assert_eq!(o.semantics_overlap("eth_getBalance"), None, "one rule: no overlap");
    }

    /// Flags come before the table, so a flag overrides the file.
    #[test]
    fn flags_come_before_the_file() {
        let mut o = Options::default();
        o.semantics.push(SemanticsRule::parse("read=eth_sendTransaction").unwrap());
        o.read_toml("[import.semantics]\nwrite = [\"eth_send*\"]\n").unwrap();
        assert_eq!(o.semantics_of("eth_sendTransaction"), Some("read"));
        assert_eq!(o.semantics_of("eth_sendRawTransaction"), Some("write"));
    }
}
