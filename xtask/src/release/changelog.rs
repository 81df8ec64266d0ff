//! CHANGELOG.md's "Unreleased" section moved under the released version.

use anyhow::{Result, bail};

/// The heading the changes of the next release collect under.
const UNRELEASED: &str = "## Unreleased";

/// `text` with a fresh, empty "Unreleased" section and what was under it moved to
/// `## VERSION — DATE`. Refuses a changelog without the section, and one whose section is
/// empty: a release with nothing written down is a release nobody can read.
pub(crate) fn release(text: &str, version: &str, date: &str) -> Result<String> {
    let Some(start) = text.lines().position(|l| l.trim_end() == UNRELEASED) else {
        bail!("CHANGELOG.md has no `{UNRELEASED}` section to release");
    };
    let lines: Vec<&str> = text.lines().collect();
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with("## "))
        .map_or(lines.len(), |i| start + 1 + i);
    let body = &lines[start + 1..end];
    if body.iter().all(|l| l.trim().is_empty()) {
        bail!("CHANGELOG.md's `{UNRELEASED}` section is empty: write what this release changes");
    }
    let mut out: Vec<String> = lines[..=start].iter().map(|l| (*l).to_owned()).collect();
    out.push(String::new());
    out.push(format!("## {version} — {date}"));
    out.extend(body.iter().map(|l| (*l).to_owned()));
    out.extend(lines[end..].iter().map(|l| (*l).to_owned()));
    let mut joined = out.join("\n");
    joined.push('\n');
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::release;

    #[test]
    fn moves_the_unreleased_section() {
        let text =
            "# Changelog\n\n## Unreleased\n\n### Added\n- a\n\n## 0.1.0 — 2026-12-01\n\n- old\n";
        let out = release(text, "0.2.0", "2026-12-03").unwrap();
        assert_eq!(
            out,
            "# Changelog\n\n## Unreleased\n\n## 0.2.0 — 2026-12-03\n\n### Added\n- a\n\n## 0.1.0 — 2026-12-01\n\n- old\n"
        );
    }

    #[test]
    fn refuses_an_empty_or_missing_section() {
        assert!(release("# Changelog\n", "0.2.0", "d").is_err());
        assert!(release("## Unreleased\n\n## 0.1.0\n", "0.2.0", "d").is_err());
    }
}
