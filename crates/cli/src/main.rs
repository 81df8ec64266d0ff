//! `accord`: the command line of the accord toolkit for RPC contracts.
//!
//! This is the only crate with a command line parser, miette's "fancy" rendering and process
//! exit codes: 0 success, 1 the check found problems, 2 usage or input errors.

// std's `eprint!`/`eprintln!` panic when stderr cannot be written (`2>/dev/full`), which would
// turn any message into exit 101. These, defined before the modules so that every module's
// calls resolve to them, drop a message stderr refuses: there is nowhere else to say it, and
// the exit code still tells.
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

// The whole binary allocates through mimalloc: much of its work (reading a contract, the lint,
// serve's requests) is many small short-lived allocations, which glibc's malloc handled
// slowly (docs/benchmarks.md, `accord check`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod accept;
mod baseline;
mod check;
mod conform;
mod console;
mod contracts;
mod diagnostic;
mod diff;
mod export;
mod extract;
mod fmt;
mod import;
mod init;
mod input;
mod inspect;
mod junit;
mod lint_config;
mod log_line;
mod log_writer;
mod mcp;
mod output;
mod rules;
mod sample;
mod sarif;
mod serve;
mod target;
mod token;
mod usage;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// accord: contracts for JSON-RPC plants, in the `.types.json` format.
#[derive(Debug, Parser)]
#[command(name = "accord", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint contracts (files, directories, globs) and, with `--against`, judge their
    /// compatibility with a baseline (a file, `git:REV[:PATH]` or every tag matching
    /// --against-tags); exit 1 on errors or breaking findings.
    Check(check::Args),
    /// Compare two contracts: what breaks old callers of the new plant, or new callers of the
    /// old plant; exit 1 on a breaking finding.
    Diff(diff::Args),
    /// List the compatibility rules (docs/compat-rules.md) and the lint rules
    /// (docs/lint-rules.md), each marked compat or lint.
    Rules(rules::Args),
    /// Print the documentation of one compatibility or lint rule.
    Explain(rules::ExplainArgs),
    /// Extract the contract from a plant's Rust source (merging into --out when it exists).
    Extract(extract::Args),
    /// Write a starter contract NAME.types.json to edit, and print what to do next.
    Init(init::Args),
    /// Rewrite documents in canonical form, losslessly (unknown members are kept).
    Fmt(fmt::Args),
    /// Summarise a document: schema number, namespaces, contract versions, methods by semantics.
    Inspect(inspect::Args),
    /// Check JSON values (params, results, event payloads, named types) against a contract.
    Validate(validate::Args),
    /// Write a contract (or one of its types) in another schema language.
    Export(export::Args),
    /// Make a contract from an OpenRPC document or a JSON Schema, reporting every construct it
    /// cannot hold exactly (--strict: exit 1 on any).
    Import(import::Args),
    /// Print generated values of a contract's types, one JSON value per line.
    Sample(sample::Args),
    /// Serve a fake plant from a contract: JSON-RPC 2.0 over HTTP and WebSocket (docs/serve.md).
    Serve(serve::Args),
    /// Hold a live plant to its contract: describe, credentials, safe calls, invalid params,
    /// envelope probes and events; exit 1 on a failure, 2 when the plant cannot be reached.
    Conform(conform::Args),
    /// Serve the console, a web page to browse a live plant's contract and call it (confirming
    /// before anything but a read), in front of the plant at --url (docs/console.md).
    Console(console::Args),
    /// Serve a contract's methods as MCP tools (stdio, or Streamable HTTP with --http), their
    /// annotations and exposure from the declared semantics (docs/mcp.md).
    Mcp(mcp::Args),
    /// What a contract's callers use, per method and deprecated member, over a window, from a
    /// Prometheus-compatible query API or a plant's saved metrics text (docs/usage.md).
    Usage(usage::Args),
}

/// How a command reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// For people.
    Text,
    /// For scripts: one JSON document on stdout.
    Json,
}

/// How a command ended, as the process exit code says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Everything asked for was done and nothing was found (exit 0).
    Success,
    /// The command ran and found problems (exit 1).
    Problems,
    /// Usage or input errors (exit 2).
    InputError,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> ExitCode {
        ExitCode::from(match outcome {
            Outcome::Success => 0,
            Outcome::Problems => 1,
            Outcome::InputError => 2,
        })
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage(&err).into(),
    };
    let outcome = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Extract(args) => extract::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Rules(args) => rules::run(&args),
        Command::Explain(args) => rules::explain(&args),
        Command::Init(args) => init::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Conform(args) => conform::run(&args),
        Command::Console(args) => console::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        Command::Usage(args) => usage::run(&args),
    };
    outcome.into()
}

/// What clap has to say instead of running a command: usage errors on stderr (exit 2, as the
/// exit-code table wants); `--help` and `--version` on stdout, exit 0, or 2 when stdout cannot
/// take them (clap's own `exit` would say 0 whatever happened to the text).
fn usage(err: &clap::Error) -> Outcome {
    use std::io::Write as _;
    if err.use_stderr() {
        let _ = err.print();
        return Outcome::InputError;
    }
    let printed = err.print().and_then(|()| std::io::stdout().flush());
    if output::check(printed) { Outcome::Success } else { Outcome::InputError }
}
