//! `cargo xtask freeze VERSION`: copies `fixtures/golden/current/` to `fixtures/golden/vVERSION/`,
//! once. Frozen goldens are the outputs of a released version and are never rewritten.

use std::{fs, path::Path};

use anyhow::{Context, Result, bail};

use crate::{
    ensure::{self, Mode},
    fixtures::{self, GOLDEN_CURRENT},
    workspace::{self, show},
};

/// Checks that `version` is `MAJOR.MINOR.PATCH`: three decimal numbers without leading zeros.
pub(crate) fn check_version(version: &str) -> Result<(), String> {
    let bad = |why: &str| {
        Err(format!("`{version}` is not a version MAJOR.MINOR.PATCH such as 0.1.0: {why}"))
    };
    if version.starts_with(['v', 'V']) {
        return bad("leave out the leading `v` (the folder gets it)");
    }
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() != 3 {
        return bad("it needs exactly three numbers separated by dots");
    }
    for part in parts {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return bad("each part must be a decimal number (no pre-release or build suffix)");
        }
        if part.len() > 1 && part.starts_with('0') {
            return bad("a number may not have leading zeros");
        }
        if part.parse::<u64>().is_err() {
            return bad("a number is too large");
        }
    }
    Ok(())
}

/// Freezes the current goldens as those of `version`.
pub(crate) fn run(root: &Path, version: &str) -> Result<()> {
    check_version(version).map_err(anyhow::Error::msg)?;
    let target = Path::new("fixtures/golden").join(format!("v{version}"));
    if fs::symlink_metadata(root.join(&target)).is_ok() {
        bail!(
            "{} already exists: frozen goldens are never rewritten (pick the version being released)",
            show(&target)
        );
    }
    let files = workspace::files_under(&root.join(GOLDEN_CURRENT))?;
    if files.is_empty() {
        bail!("{GOLDEN_CURRENT} has no files to freeze: run `cargo xtask fixtures` first");
    }
    let drifts = fixtures::sync(root, Mode::Check)?;
    if !drifts.is_empty() {
        bail!(
            "refusing to freeze goldens that are out of date.\n{}",
            ensure::report(&drifts, "run `cargo xtask fixtures`, commit, then freeze")
        );
    }
    // Copy into a scratch folder and rename it into place, so a failure leaves no half-frozen folder.
    let scratch = Path::new("fixtures/golden").join(format!(".freeze-v{version}.tmp"));
    let scratch_abs = root.join(&scratch);
    if scratch_abs.exists() {
        fs::remove_dir_all(&scratch_abs)
            .with_context(|| format!("could not remove {}", show(&scratch)))?;
    }
    let copied = copy_all(root, &files, &scratch).and_then(|()| {
        fs::rename(&scratch_abs, root.join(&target))
            .with_context(|| format!("could not rename {} to {}", show(&scratch), show(&target)))
    });
    if let Err(err) = copied {
        let _ = fs::remove_dir_all(&scratch_abs);
        return Err(err);
    }
    for file in &files {
        println!("froze {}", show(&target.join(file)));
    }
    println!("freeze: {} files copied from {GOLDEN_CURRENT} to {}", files.len(), show(&target));
    Ok(())
}

fn copy_all(root: &Path, files: &[std::path::PathBuf], to: &Path) -> Result<()> {
    for file in files {
        let from = Path::new(GOLDEN_CURRENT).join(file);
        let dest = root.join(to).join(file);
        if let Some(dir) = dest.parent() {
            fs::create_dir_all(dir)
                .with_context(|| format!("could not create {}", dir.display()))?;
        }
        fs::copy(root.join(&from), &dest)
            .with_context(|| format!("could not copy {} to {}", show(&from), dest.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_version;

    #[test]
    fn accepts_major_minor_patch() {
        for good in ["0.1.0", "1.0.0", "10.20.30", "0.0.0"] {
            assert_eq!(check_version(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn refuses_anything_else() {
        for bad in [
            "",
            "0.1",
            "1",
            "0.1.0.0",
            "v0.1.0",
            "0.1.x",
            "0.1.0-rc.1",
            "0.1.0+build",
            "01.0.0",
            "0..1",
            " 0.1.0",
            "0.1.0/..",
            "99999999999999999999.0.0",
        ] {
            assert!(check_version(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn explains_a_leading_v() {
        let err = check_version("v1.2.3").unwrap_err();
        assert!(err.contains("leading `v`"), "{err}");
    }
}
