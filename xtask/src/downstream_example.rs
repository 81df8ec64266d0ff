//! docs/crates.md's downstream project, built and run as a project of its own: its `Cargo.toml`
//! and `src/main.rs` as the page shows them, the `git` dependencies pointed at this checkout's
//! crate folders, in a folder under the target directory. A page whose example stopped
//! compiling against the crates, or whose quoted output drifted, fails here.

use std::{fs, path::Path};

use crate::workspace;

/// The text between `## A downstream project` and the next `## ` heading.
fn section(page: &str) -> &str {
    let start =
        page.find("## A downstream project").expect("docs/crates.md: the downstream section");
    let rest = &page[start + 3..];
    &page[start..start + 3 + rest.find("\n## ").unwrap_or(rest.len())]
}

/// The body of the first fenced block tagged `lang` in `text`.
fn block<'a>(text: &'a str, lang: &str) -> &'a str {
    let open = format!("```{lang}\n");
    let start = text.find(&open).unwrap_or_else(|| panic!("a ```{lang} block")) + open.len();
    &text[start..start + text[start..].find("```\n").expect("the block's end")]
}

/// `{ git = "…", rev = "…"` of `accord-NAME` made `{ path = "ROOT/crates/NAME"`.
fn to_path_dependencies(manifest: &str, root: &Path) -> String {
    manifest
        .lines()
        .map(|line| match line.split_once(" = { git = ") {
            Some((name, rest)) if name.starts_with("accord-") => {
                let after_rev = rest.split_once("\", rev = \"").expect("git and rev").1;
                let tail = &after_rev[after_rev.find('"').expect("the rev's end") + 1..];
                let folder = root.join("crates").join(&name["accord-".len()..]);
                format!("{name} = {{ path = \"{}\"{tail}", folder.display())
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_downstream_example_builds_and_runs_as_the_page_says() {
    let root = workspace::root();
    let page = fs::read_to_string(root.join("docs/crates.md")).unwrap();
    let section = section(&page);
    let dir = workspace::target_dir(&root).join("downstream-example");
    let _ = fs::remove_dir_all(dir.join("src"));
    fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = to_path_dependencies(block(section, "toml"), &root);
    assert!(
        !manifest.contains("git ="),
        "every accord dependency points at this checkout:\n{manifest}"
    );
    // Only because the folder lies inside accord's own workspace: a project of its own.
    fs::write(dir.join("Cargo.toml"), format!("{manifest}\n[workspace]\n")).unwrap();
    fs::write(dir.join("src/main.rs"), block(section, "rust")).unwrap();
    // The workspace's lock file, so that the project builds with the versions CI tests, offline.
    fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let contract = root.join("fixtures/contracts/pump-plant.types.json");
    let run = |params: &str| {
        workspace::cargo()
            .args(["run", "--offline", "--quiet", "--"])
            .arg(&contract)
            .args(["pump.setSpeed", params])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("CARGO_MANIFEST_DIR")
            .output()
            .unwrap()
    };
    let valid = run(r#"["P-101", 1200]"#);
    assert_eq!(valid.status.code(), Some(0), "{}", String::from_utf8_lossy(&valid.stderr));
    let invalid = run(r#"["P-101", 99999]"#);
    assert_eq!(invalid.status.code(), Some(1), "{}", String::from_utf8_lossy(&invalid.stderr));
    let quoted = section.split("it prints `").nth(1).and_then(|rest| rest.split('`').next());
    assert_eq!(
        Some(String::from_utf8_lossy(&invalid.stderr).trim_end()),
        quoted,
        "docs/crates.md quotes what the project prints"
    );
}

#[test]
fn git_dependencies_become_path_dependencies() {
    let manifest = "[dependencies]\naccord-validate = { git = \"https://x/a.git\", rev = \"abc\", default-features = false }\nserde_json = \"1\"";
    assert_eq!(
        to_path_dependencies(manifest, Path::new("/r")),
        "[dependencies]\naccord-validate = { path = \"/r/crates/validate\", default-features = false }\nserde_json = \"1\""
    );
}

/// Each crate README's example is a whole `src/main.rs` a downstream project can paste: it
/// hides no line (rustdoc's `# ` lines are invisible on the page and break a paste), has its
/// `fn main`, and the sentence before it names its dependencies. rustdoc runs each one as the
/// crate's doctest (`cargo test --doc`), so they also compile and pass as written.
/// The first fenced Rust block (```` ``` ````, ```` ```rust ```` or ```` ```no_run ````): where its
/// fence starts, and its body.
fn first_rust_block(text: &str) -> Option<(usize, &str)> {
    let mut offset = 0;
    let mut open: Option<(usize, bool)> = None;
    for line in text.split_inclusive('\n') {
        let fence = line.trim_end();
        if let Some(lang) = fence.strip_prefix("```") {
            match open {
                None => open = Some((offset, matches!(lang, "" | "rust" | "no_run"))),
                Some((start, true)) => {
                    let body_start = start + text[start..].find('\n')? + 1;
                    return Some((start, &text[body_start..offset]));
                }
                Some((_, false)) => open = None,
            }
        }
        offset += line.len();
    }
    None
}

#[test]
fn every_crate_readme_example_is_a_whole_program_with_its_dependencies_named() {
    let root = workspace::root();
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        let Ok(text) = fs::read_to_string(&readme) else { continue };
        let Some((open, body)) = first_rust_block(&text) else { continue };
        let shown = readme.strip_prefix(&root).unwrap().display().to_string();
        assert!(
            !body.lines().any(|line| line == "#" || line.starts_with("# ")),
            "{shown}: the example hides lines from the page"
        );
        assert!(body.contains("fn main()"), "{shown}: the example has no `fn main`");
        let before = &text[..open];
        assert!(
            before
                .trim_end()
                .rsplit("\n\n")
                .next()
                .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                .is_some_and(|p| p.contains("as dependencies") || p.contains("as a dependency")),
            "{shown}: the paragraph before the example names its dependencies"
        );
    }
}
