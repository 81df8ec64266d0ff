//! The `accord` binary: building it and running `fmt --stdout` and `inspect` on a document.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::workspace::{self, show};

/// A built `accord` binary and the directory it runs in (paths it is given are relative to it).
#[derive(Debug)]
pub(crate) struct Accord {
    bin: PathBuf,
    cwd: PathBuf,
}

/// What one run of `accord` gave.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit code; `None` if it was killed by a signal.
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// The stdout of a successful run; otherwise an error naming what was run.
    pub(crate) fn success(self, what: &str) -> Result<String> {
        if self.code == Some(0) {
            return Ok(self.stdout);
        }
        bail!(
            "{what} exited with {}:\n{}",
            self.code.map_or("a signal".to_owned(), |c| c.to_string()),
            self.stderr.trim_end()
        )
    }
}

impl Accord {
    /// Builds today's `accord` (`$CARGO build -q -p accord-cli`) into `<root>/target/debug/`
    /// (or `$CARGO_TARGET_DIR/debug/`).
    pub(crate) fn build_current(root: &Path) -> Result<Accord> {
        eprintln!("building accord (package accord-cli)...");
        let mut cmd = workspace::cargo();
        cmd.current_dir(root).args(["build", "-q", "-p", "accord-cli"]);
        workspace::stdout_of(&mut cmd).context("could not build today's `accord`")?;
        Ok(Accord::at(workspace::target_dir(root).join("debug/accord"), root))
    }

    /// The binary's path.
    pub(crate) fn bin(&self) -> &Path {
        &self.bin
    }

    /// An `accord` binary already built at `bin`, run from `cwd`.
    pub(crate) fn at(bin: PathBuf, cwd: &Path) -> Accord {
        Accord { bin, cwd: cwd.to_path_buf() }
    }

    /// Runs `accord ARGS...`, failing only if it cannot be started or prints non-UTF-8.
    pub(crate) fn run(&self, args: &[&str]) -> Result<Run> {
        let mut cmd = Command::new(&self.bin);
        cmd.current_dir(&self.cwd).args(args);
        let out = workspace::output(&mut cmd)?;
        Ok(Run {
            code: out.status.code(),
            stdout: String::from_utf8(out.stdout)
                .with_context(|| format!("{} printed non-UTF-8", workspace::describe(&cmd)))?,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }

    /// `accord fmt --stdout FILE`: the canonical text of one document.
    pub(crate) fn fmt_stdout(&self, file: &Path) -> Result<Run> {
        self.run(&["fmt", "--stdout", &file.to_string_lossy()])
    }

    /// The canonical text of `file`, or an error naming it.
    pub(crate) fn canonical(&self, file: &Path) -> Result<String> {
        self.fmt_stdout(file)?.success(&format!("`accord fmt --stdout {}`", show(file)))
    }

    /// `accord inspect FILE [--format FORMAT]`, or an error naming the file.
    pub(crate) fn inspect(&self, file: &Path, format: Option<&str>) -> Result<String> {
        let file_arg = file.to_string_lossy();
        let mut args = vec!["inspect", &file_arg];
        if let Some(format) = format {
            args.extend(["--format", format]);
        }
        self.run(&args)?.success(&format!("`accord {}`", args.join(" ")))
    }

    /// `accord rules --format markdown --kind compat`: the text of docs/compat-rules.md.
    pub(crate) fn rules_markdown(&self) -> Result<String> {
        self.run(&["rules", "--format", "markdown", "--kind", "compat"])?
            .success("`accord rules --format markdown --kind compat`")
    }
}
