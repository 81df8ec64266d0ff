//! The CONTRACT arguments of `accord check`, as files: a file as it is named; a directory, every
//! `*.types.json` under it; a pattern with `*`, `?` or `[` (quoted, so that the shell leaves it
//! alone), every file it matches (`*` within one directory, `**` across them). Files come in the
//! order the arguments name them, a directory's and a pattern's sorted, each file once.

use std::path::{Path, PathBuf};

/// What a contract file's name ends with.
const SUFFIX: &str = ".types.json";

/// The files the arguments name, or `None` after an error saying which argument names none.
pub(crate) fn expand(args: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = Vec::new();
    for arg in args {
        let found = if arg.is_dir() {
            let found = walk(arg, |p| p.to_string_lossy().ends_with(SUFFIX));
            if found.is_empty() {
                eprintln!("error: {}: no `*{SUFFIX}` file in this directory", arg.display());
                return None;
            }
            found
        } else if is_pattern(arg) {
            let matcher = match globset::GlobBuilder::new(&arg.to_string_lossy())
                .literal_separator(true)
                .build()
            {
                Ok(glob) => glob.compile_matcher(),
                Err(err) => {
                    eprintln!("error: `{}` is not a glob: {err}", arg.display());
                    return None;
                }
            };
            let found = walk(&base(arg), |p| matcher.is_match(p));
            if found.is_empty() {
                eprintln!("error: no file matches `{}`", arg.display());
                return None;
            }
            found
        } else {
            // A file, read (or refused as unreadable) as it stands.
            vec![arg.clone()]
        };
        for path in found {
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    Some(out)
}

/// Whether `arg` is a pattern rather than a path (a file or a directory that exists is a path
/// even when its name has `*` in it).
fn is_pattern(arg: &Path) -> bool {
    !arg.exists() && arg.to_string_lossy().contains(['*', '?', '['])
}

/// The directory a pattern's matches are under: its components before the first with a
/// pattern character (`.` when the first has one).
fn base(pattern: &Path) -> PathBuf {
    let mut base = PathBuf::new();
    for part in pattern.components() {
        if part.as_os_str().to_string_lossy().contains(['*', '?', '[']) {
            break;
        }
        base.push(part);
    }
    if base.as_os_str().is_empty() { PathBuf::from(".") } else { base }
}

/// The files under `dir` (symbolic links not followed) that `keep` wants, sorted. A file whose
/// path begins `./` because `dir` is `.` is named without it, as people write it.
fn walk(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let path = e.into_path();
            match path.strip_prefix(".") {
                Ok(rest) if dir == Path::new(".") => rest.to_owned(),
                _ => path,
            }
        })
        .filter(|p| keep(p))
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{base, is_pattern};

    #[test]
    fn a_pattern_is_walked_from_its_literal_directories() {
        assert_eq!(
            base(Path::new("fixtures/contracts/*.types.json")),
            PathBuf::from("fixtures/contracts")
        );
        assert_eq!(base(Path::new("**/*.types.json")), PathBuf::from("."));
        assert!(is_pattern(Path::new("no-such/*.types.json")));
        assert!(!is_pattern(Path::new("plain.types.json")));
    }
}
