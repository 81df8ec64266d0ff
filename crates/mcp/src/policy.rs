//! The exposure policy: which methods become tools, decided by their declared semantics.
//! read, idempotent and write are exposed; destructive and undeclared ("ask before pressing")
//! are hidden unless allowed by class or by name; `--read-only` exposes read methods only.

use accord_schema_model::Dialect;

use crate::Error;

/// A method's semantics as the policy reads them: the model's one reading (an unknown value
/// is undeclared), shared with conform and the console.
pub use accord_schema_model::SemanticsClass as Class;

/// What `--allow` and `--read-only` say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExposurePolicy {
    /// Expose destructive methods.
    pub destructive: bool,
    /// Expose methods without declared semantics.
    pub undeclared: bool,
    /// Methods exposed whatever their class, by contract name (`namespace.method`).
    pub methods: Vec<String>,
    /// Expose read methods only (it wins over everything allowed).
    pub read_only: bool,
}

impl ExposurePolicy {
    /// Reads `--allow`'s comma-separated list: `destructive`, `undeclared`, or a method by its
    /// contract name or wire name (resolved through `dialect`).
    ///
    /// # Errors
    ///
    /// [`Error::Allow`] for a name that is neither a class nor a method of the contract.
    pub fn allow(&mut self, list: &str, dialect: &Dialect) -> Result<(), Error> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item {
                "destructive" => self.destructive = true,
                "undeclared" => self.undeclared = true,
                name => match dialect.resolve(name) {
                    Some(route) => self.methods.push(route.qualified()),
                    None => return Err(Error::Allow(name.to_owned())),
                },
            }
        }
        Ok(())
    }

    /// Whether a method of `class` named `qualified` is exposed, and if not, why.
    pub fn decide(&self, qualified: &str, class: Class) -> Result<(), String> {
        if self.read_only {
            return match class {
                Class::Read => Ok(()),
                _ => Err(format!("{}; --read-only exposes read methods only", class.as_str())),
            };
        }
        let by_name = self.methods.iter().any(|m| m == qualified);
        match class {
            Class::Read | Class::Idempotent | Class::Write => Ok(()),
            Class::Destructive if self.destructive || by_name => Ok(()),
            Class::Undeclared if self.undeclared || by_name => Ok(()),
            Class::Destructive => {
                Err(format!("destructive; expose with --allow destructive or --allow {qualified}"))
            }
            Class::Undeclared => Err(format!(
                "no semantics declared (ask before pressing); expose with --allow undeclared or --allow {qualified}"
            )),
        }
    }
}
