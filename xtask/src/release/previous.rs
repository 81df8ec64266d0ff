//! The releases a repository has made, found by tag where tags travelled with the clone and by
//! release commit where they did not (shallow or tagless CI clones, mirrors).
//!
//! A release commit is the one `cargo xtask release` makes: its subject is
//! [`COMMIT_PREFIX`]`vX.Y.Z` and it sets the workspace version to `X.Y.Z`. The same convention is
//! read by `accord check --against-tags` (crates/cli/src/baseline.rs), so every clone finds the
//! same previous release.

use std::path::Path;

use anyhow::Result;
use semver::Version;

use super::git;

/// The subject line of a release commit, before the tag name: `release: v0.2.0`.
pub(crate) const COMMIT_PREFIX: &str = "release: ";

/// One release: its version, its name (`v0.2.0`) and the revision that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    pub(crate) version: Version,
    pub(crate) name: String,
    /// The tag when there is one, else the release commit's hash.
    pub(crate) rev: String,
}

/// Every release reachable from `HEAD`, oldest first: tags `vX.Y.Z`, then release commits whose
/// version has no tag.
pub(crate) fn releases(root: &Path) -> Result<Vec<Release>> {
    let mut found: Vec<Release> = Vec::new();
    let tags = git(root, &["tag", "--list", "v*", "--merged", "HEAD"])?;
    for tag in tags.lines().map(str::trim) {
        if let Some(version) = version_of(tag) {
            found.push(Release { version, name: tag.to_owned(), rev: tag.to_owned() });
        }
    }
    let grep = format!("--grep=^{COMMIT_PREFIX}v[0-9]");
    let commits = git(root, &["log", "--format=%H %s", &grep, "HEAD"])?;
    for line in commits.lines() {
        let Some((hash, subject)) = line.split_once(' ') else { continue };
        let Some(name) = subject.strip_prefix(COMMIT_PREFIX) else { continue };
        let Some(version) = version_of(name.trim()) else { continue };
        if !found.iter().any(|r| r.version == version) {
            found.push(Release { version, name: name.trim().to_owned(), rev: hash.to_owned() });
        }
    }
    found.sort_by(|a, b| a.version.cmp(&b.version));
    Ok(found)
}

/// The newest release older than `version`.
pub(crate) fn before(releases: &[Release], version: &Version) -> Option<Release> {
    releases.iter().rev().find(|r| r.version < *version).cloned()
}

/// `v1.2.3` → 1.2.3; anything else (pre-releases included) is not a release name.
fn version_of(name: &str) -> Option<Version> {
    let version = Version::parse(name.strip_prefix('v')?).ok()?;
    (version.pre.is_empty() && version.build.is_empty()).then_some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_release_names() {
        assert_eq!(version_of("v0.2.0"), Some(Version::new(0, 2, 0)));
        for not in ["0.2.0", "v0.2", "v0.2.0-rc.1", "version-1", "v"] {
            assert_eq!(version_of(not), None, "{not}");
        }
    }

    #[test]
    fn picks_the_newest_older_release() {
        let r = |v: &str| Release {
            version: Version::parse(v).unwrap(),
            name: format!("v{v}"),
            rev: format!("v{v}"),
        };
        let all = [r("0.1.0"), r("0.2.0"), r("0.10.0")];
        assert_eq!(before(&all, &Version::new(0, 3, 0)), Some(r("0.2.0")));
        assert_eq!(before(&all, &Version::new(0, 11, 0)), Some(r("0.10.0")));
        assert_eq!(before(&all, &Version::new(0, 1, 0)), None);
    }
}
