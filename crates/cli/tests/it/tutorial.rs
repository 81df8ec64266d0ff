//! docs/tutorial.md, run: every ```sh block's commands are executed in order, in an empty
//! directory, with the built `accord` first on PATH, and what they print is compared with the
//! ```text block that follows (no such block: they must print nothing). A change of a command or
//! of accord's output that the page does not follow fails here.
//!
//! The rules the page is written to (docs/tutorial.md says them to its readers too):
//! - each command runs as `bash -c`, stdout and stderr together, and must exit 0 (a command
//!   shown failing says so with `|| echo "exit $?"`);
//! - a line ending in `&` is a server started in the background, alone in its block, listening
//!   on `127.0.0.1:PORT`: the harness starts it on port 0 instead, reads as many lines of its
//!   stdout as the following block holds, and from then on runs later commands with the real
//!   port in place of PORT and shows it as PORT in their output. `kill %N` stops the N-th
//!   running job (as an interactive shell numbers them); jobs still running at the end are
//!   stopped too;
//! - only `sh` is run: a ```bash, ```shell, ```console or ```zsh block is refused rather than
//!   skipped, and so is a ```text block that follows no ```sh block.
//!
//! Needs git and curl (the tutorial uses both); `cargo xtask test` installs curl when it is missing.

use crate::common;

use std::io::{BufRead, BufReader, Lines};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

/// One ```sh block, the commands in it, and the output block after it.
#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence in the page.
    line: usize,
    commands: Vec<String>,
    expected: Option<String>,
}

/// The page's ```sh blocks, in order, each with its expected output.
fn blocks(page: &str) -> Result<Vec<Block>, String> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut lines = page.lines().enumerate().peekable();
    // Whether the last thing seen (blank lines aside) was a ```sh block still without output.
    let mut after_sh = false;
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            if !line.trim().is_empty() {
                after_sh = false;
            }
            continue;
        };
        let language = info.split_whitespace().next().unwrap_or("");
        let mut body = String::new();
        let mut closed = false;
        for (_, inner) in lines.by_ref() {
            if inner.starts_with("```") {
                closed = true;
                break;
            }
            body.push_str(inner);
            body.push('\n');
        }
        if !closed {
            return Err(format!("line {}: a ``` block that is never closed", n + 1));
        }
        match language {
            "sh" => {
                blocks.push(Block { line: n + 1, commands: commands(&body), expected: None });
                after_sh = true;
            }
            "text" => {
                if !after_sh {
                    return Err(format!(
                        "line {}: a ```text block that follows no ```sh block: output no command \
                         prints",
                        n + 1
                    ));
                }
                blocks.last_mut().expect("a block").expected = Some(body);
                after_sh = false;
            }
            "bash" | "shell" | "console" | "zsh" | "shell-session" => {
                return Err(format!(
                    "line {}: a ```{language} block: write commands in ```sh blocks, the only \
                     ones this test runs",
                    n + 1
                ));
            }
            _ => after_sh = false,
        }
    }
    Ok(blocks)
}

/// The commands of a block: `\`-continued lines joined, blank lines and comments left out.
fn commands(body: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
        if current.is_empty() && (line.trim().is_empty() || line.trim_start().starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                commands.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        commands.push(current);
    }
    commands
}

/// A server started by a `… &` line.
struct Job {
    child: Child,
    /// The port the page says (`7878`) and the one it listens on.
    shown: String,
    real: String,
}

/// The jobs still running; stopped when dropped, whatever happened.
#[derive(Default)]
struct Jobs(Vec<Job>);

impl Jobs {
    /// `text` with each job's page port replaced by its real one.
    fn to_real(&self, text: &str) -> String {
        self.0.iter().fold(text.to_owned(), |t, j| {
            t.replace(&format!("127.0.0.1:{}", j.shown), &format!("127.0.0.1:{}", j.real))
        })
    }

    /// `text` with each job's real port shown as the page's.
    fn to_shown(&self, text: &str) -> String {
        self.0.iter().fold(text.to_owned(), |t, j| {
            t.replace(&format!("127.0.0.1:{}", j.real), &format!("127.0.0.1:{}", j.shown))
        })
    }
}

impl Drop for Jobs {
    fn drop(&mut self) {
        for job in &mut self.0 {
            let _ = job.child.kill();
            let _ = job.child.wait();
        }
    }
}

/// Where commands run and what they find on PATH.
struct Shell {
    dir: PathBuf,
    path: String,
}

impl Shell {
    fn new(dir: &Path) -> Shell {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("the tutorial's directory");
        let accord = Path::new(env!("CARGO_BIN_EXE_accord"));
        let bin = accord.parent().expect("the binary's directory");
        let path = match std::env::var_os("PATH") {
            Some(old) => {
                let mut all = vec![bin.to_path_buf()];
                all.extend(std::env::split_paths(&old));
                std::env::join_paths(all).expect("PATH").to_string_lossy().into_owned()
            }
            None => bin.display().to_string(),
        };
        Shell { dir: dir.to_path_buf(), path }
    }

    /// `bash -c SCRIPT` in the directory, with the environment every command gets: accord first
    /// on PATH, no colour, a fixed width, and a git identity of its own.
    fn bash(&self, script: &str) -> Command {
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(script)
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env("GIT_AUTHOR_NAME", "accord tutorial")
            .env("GIT_AUTHOR_EMAIL", "tutorial@example.invalid")
            .env("GIT_COMMITTER_NAME", "accord tutorial")
            .env("GIT_COMMITTER_EMAIL", "tutorial@example.invalid")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .stdin(Stdio::null());
        command
    }
}

/// The port of the first `127.0.0.1:PORT` in `text`.
fn port_in(text: &str) -> Option<&str> {
    let at = text.find("127.0.0.1:")? + "127.0.0.1:".len();
    let digits = text[at..].find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len() - at);
    (digits > 0).then(|| &text[at..at + digits])
}

/// Lines with trailing whitespace removed, trailing blank lines dropped.
fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    lines[..end].join("\n")
}

fn mismatch(block: &Block, expected: &str, actual: &str) -> String {
    let diff = similar::TextDiff::from_lines(expected, actual);
    format!(
        "docs/tutorial.md:{}: the output of\n  {}\nis not the page's (- page, + actual):\n{}",
        block.line,
        block.commands.join("\n  "),
        diff.unified_diff().context_radius(3)
    )
}

/// Runs the page's blocks in `dir`: the first difference, failure or malformed block as an error.
fn run_page(page: &str, dir: &Path) -> Result<(), String> {
    let blocks = blocks(page)?;
    if blocks.is_empty() {
        return Err("no ```sh block".into());
    }
    let shell = Shell::new(dir);
    let mut jobs = Jobs::default();
    for block in &blocks {
        let expected = normalise(block.expected.as_deref().unwrap_or(""));
        if let Some(command) = block.commands.iter().find_map(|c| c.trim_end().strip_suffix('&')) {
            if block.commands.len() != 1 {
                return Err(format!(
                    "docs/tutorial.md:{}: a background command must be alone in its block",
                    block.line
                ));
            }
            start(&shell, &mut jobs, block, command.trim_end(), &expected)?;
            continue;
        }
        let mut actual = String::new();
        for command in &block.commands {
            if let Some(n) = command.trim().strip_prefix("kill %") {
                stop(&mut jobs, block, n)?;
                continue;
            }
            let out = shell
                .bash(&format!("{{ {}\n}} 2>&1", jobs.to_real(command)))
                .output()
                .map_err(|e| format!("cannot run bash: {e}"))?;
            let printed = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() {
                return Err(format!(
                    "docs/tutorial.md:{}: `{command}` exited {} (a command shown failing ends \
                     in `|| echo \"exit $?\"`); it printed:\n{printed}",
                    block.line, out.status
                ));
            }
            actual.push_str(&jobs.to_shown(&printed));
        }
        let actual = normalise(&actual);
        if actual != expected {
            return Err(mismatch(block, &expected, &actual));
        }
    }
    Ok(())
}

/// Starts a `COMMAND &` line on port 0 and holds the first lines of its output to the page.
fn start(
    shell: &Shell,
    jobs: &mut Jobs,
    block: &Block,
    command: &str,
    expected: &str,
) -> Result<(), String> {
    let at = block.line;
    let Some(shown) = port_in(command).map(str::to_owned) else {
        return Err(format!(
            "docs/tutorial.md:{at}: a background command must listen on 127.0.0.1:PORT"
        ));
    };
    if expected.is_empty() {
        return Err(format!(
            "docs/tutorial.md:{at}: a background command must be followed by the first lines it \
             prints (where it listens)"
        ));
    }
    let script = format!("exec {}", command.replace(&format!("127.0.0.1:{shown}"), "127.0.0.1:0"));
    let mut child = shell
        .bash(&script)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut job = Job { child, shown, real: String::new() };
    // Line by line, stopping at the first difference: a server that prints fewer lines than the
    // page shows would otherwise be waited on (nextest's slow-timeout ends such a run).
    let mut lines: Lines<BufReader<ChildStdout>> = BufReader::new(stdout).lines();
    let mut actual = String::new();
    for (i, want) in expected.lines().enumerate() {
        let Some(Ok(line)) = lines.next() else {
            let _ = job.child.kill();
            let _ = job.child.wait();
            return Err(mismatch(block, expected, &actual));
        };
        if i == 0 {
            job.real = port_in(&line).unwrap_or("").to_owned();
        }
        let line =
            line.replace(&format!("127.0.0.1:{}", job.real), &format!("127.0.0.1:{}", job.shown));
        actual.push_str(line.trim_end());
        actual.push('\n');
        if line.trim_end() != want {
            jobs.0.push(job);
            return Err(mismatch(block, expected, actual.trim_end()));
        }
    }
    // The rest of its output is not read: drained, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    jobs.0.push(job);
    Ok(())
}

/// `kill %N`: SIGTERM to the N-th running job, and waits for it.
fn stop(jobs: &mut Jobs, block: &Block, n: &str) -> Result<(), String> {
    let index = n.trim().parse::<usize>().ok().filter(|&n| n >= 1 && n <= jobs.0.len());
    let Some(index) = index else {
        return Err(format!("docs/tutorial.md:{}: `kill %{n}`: no such job", block.line));
    };
    let mut job = jobs.0.remove(index - 1);
    let pid = job.child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let _ = job.child.wait();
    Ok(())
}

/// The tools the page's commands use beside accord.
fn require(tool: &str, install: &str) {
    let found = Command::new(tool).arg("--version").stdout(Stdio::null()).status();
    assert!(
        found.is_ok_and(|s| s.success()),
        "docs/tutorial.md's commands need `{tool}`, which is not on PATH: {install}"
    );
}

#[test]
fn the_tutorial_runs_as_written() {
    require("curl", "`cargo xtask test` installs it (apt-get install curl) when it is missing");
    require("git", "install git");
    let page = std::fs::read_to_string(common::root().join("docs/tutorial.md")).expect("the page");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tutorial");
    if let Err(problem) = run_page(&page, &dir) {
        panic!("{problem}");
    }
}

/// The harness itself: a page that drifts from what its commands print fails, and so does each
/// way of writing a page that would leave a command unchecked.
#[test]
fn a_page_that_drifts_fails() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tutorial-drift");
    let init = "```sh\naccord init fan >/dev/null 2>&1\n";
    let good =
        format!("{init}accord check fan.types.json\n```\n\n```text\n0 errors, 0 warnings\n```\n");
    if let Err(problem) = run_page(&good, &dir) {
        panic!("the page as written fails: {problem}");
    }
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a changed command",
            good.replace("check fan.types.json", "check fan.types.json --format json"),
            "is not the page's",
        ),
        ("a changed output", good.replace("0 warnings", "1 warning"), "is not the page's"),
        (
            "a command that fails without saying so",
            "```sh\naccord check missing.types.json\n```\n".into(),
            "exited",
        ),
        (
            "a failing command whose exit the page gets wrong",
            "```sh\naccord check missing.types.json 2>/dev/null || echo \"exit $?\"\n```\n\n\
             ```text\nexit 1\n```\n"
                .into(),
            "is not the page's",
        ),
        (
            "a command whose output the page leaves out",
            "```sh\naccord rules\n```\n".into(),
            "is not the page's",
        ),
        (
            "output no command prints",
            "```sh\naccord --version\n```\n\nprose\n\n```text\naccord\n```\n".into(),
            "follows no ```sh block",
        ),
        ("a block in another shell", "```bash\naccord --version\n```\n".into(), "```bash block"),
        (
            "a server that does not say where it listens",
            format!(
                "{init}```\n\n```sh\naccord serve fan.types.json --addr 127.0.0.1:7878 &\n```\n"
            ),
            "followed by the first lines",
        ),
    ];
    for (what, page, says) in cases {
        match run_page(&page, &dir) {
            Ok(()) => panic!("{what}: the page passed:\n{page}"),
            Err(problem) => assert!(problem.contains(says), "{what}: {problem}"),
        }
    }
}
