//! The contract-version policy: per namespace, a breaking change needs a major bump of
//! `version`, an additive one a minor bump; in 0.x a breaking change needs a minor bump and an
//! additive one a patch bump.

use accord_schema_model::{Document, Pointer};
use semver::Version;

use crate::compare::{Change, PositionKind};
use crate::rules::{self, Level, Polarity};

/// The least version `old` may move to for changes of level `worst`.
pub(crate) fn least_next(old: &Version, worst: Level) -> Option<Version> {
    let (major, minor, patch) = (old.major, old.minor, old.patch);
    let v = match (worst, major) {
        (Level::Breaking, 0) => Version::new(0, minor + 1, 0),
        (Level::Breaking, _) => Version::new(major + 1, 0, 0),
        (Level::Risky | Level::Policy | Level::Safe, 0) => Version::new(0, minor, patch + 1),
        (Level::Risky | Level::Policy | Level::Safe, _) => Version::new(major, minor + 1, 0),
        (Level::None, _) => return None,
    };
    Some(v)
}

pub(crate) fn policy(old: &Document, new: &Document, changes: &[Change]) -> Vec<Change> {
    let mut out = Vec::new();
    let (Some(olds), Some(news)) = (&old.namespaces, &new.namespaces) else { return out };
    for (name, o) in olds {
        let Some(n) = news.get(name) else { continue };
        let worst = changes
            .iter()
            .filter(|c| c.namespace == *name)
            .map(|c| c.rule.level(c.polarity))
            .max()
            .unwrap_or(Level::None);
        let (Ok(ov), Ok(nv)) = (Version::parse(&o.version), Version::parse(&n.version)) else {
            continue;
        };
        let Some(least) = least_next(&ov, worst) else { continue };
        if nv < least {
            let what =
                if worst == Level::Breaking { "a breaking change" } else { "an additive change" };
            let zero = if ov.major == 0 { " (0.x rule)" } else { "" };
            let mut pointer = Pointer::root();
            for k in ["namespaces", name.as_str(), "version"] {
                pointer.push_key(k);
            }
            out.push(Change {
                rule: &rules::VERSION_NOT_BUMPED,
                polarity: Polarity::Input,
                position: PositionKind::Surface,
                namespace: name.clone(),
                path: format!("{name}.version"),
                message: if ov == nv {
                    format!(
                        "namespace `{name}` has {what} but its version stayed at {ov}; the least next version is {least}{zero}"
                    )
                } else {
                    format!(
                        "namespace `{name}` has {what} but its version went from {ov} to {nv}; the least next version is {least}{zero}"
                    )
                },
                on_old: false,
                pointer,
                witness: None,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_next_versions() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert_eq!(least_next(&v("1.2.3"), Level::Breaking), Some(v("2.0.0")));
        assert_eq!(least_next(&v("1.2.3"), Level::Safe), Some(v("1.3.0")));
        assert_eq!(least_next(&v("0.2.3"), Level::Breaking), Some(v("0.3.0")));
        assert_eq!(least_next(&v("0.2.3"), Level::Risky), Some(v("0.2.4")));
        assert_eq!(least_next(&v("1.2.3"), Level::None), None);
    }
}
