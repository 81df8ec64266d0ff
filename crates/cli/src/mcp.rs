//! `accord mcp`: a contract's methods as MCP tools (accord-mcp), over stdio or Streamable HTTP,
//! answered by accord serve's fake or forwarded to a live plant.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use accord_mcp::{Backend, ExposurePolicy, Mcp, Options};
use accord_schema_model::Dialect;

use crate::{Outcome, input, output, token};

/// Arguments of `accord mcp`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract whose methods become tools.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    /// Answer with the built-in fake (accord serve's engine and seeds); the default.
    #[arg(long, conflicts_with = "upstream")]
    fake: bool,
    /// Forward calls to the live plant at URL (http:// or ws://), on the contract's wire.
    #[arg(long, value_name = "URL")]
    upstream: Option<String>,
    /// A file holding the plant's bearer token, sent with every forwarded call.
    #[arg(long, value_name = "FILE", requires = "upstream")]
    token_file: Option<PathBuf>,
    /// The fake's seed (accord serve --seed).
    #[arg(long, default_value_t = 0, conflicts_with = "upstream")]
    seed: u64,
    /// Also expose, comma-separated: `destructive`, `undeclared`, or methods by name
    /// (`pump.resetRuntimeCounters`).
    #[arg(long, value_name = "LIST")]
    allow: Vec<String>,
    /// Expose read methods only (and collect_events).
    #[arg(long)]
    read_only: bool,
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// How long one call to the plant may take, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// With --http: also answer requests whose Host (and Origin) is NAME or NAME:PORT (a
    /// server fronted by a proxy); repeatable. Otherwise only loopback names with the port and
    /// the listen address are served (any other Host or Origin gets 403).
    #[arg(long, value_name = "NAME", requires = "http")]
    allow_host: Vec<String>,
    /// With --http: the most sessions open at once; one more closes the idlest.
    #[arg(long, value_name = "N", default_value_t = accord_mcp::DEFAULT_MAX_SESSIONS as u64,
          requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    max_sessions: u64,
    /// With --http: how long a session may stay unused before it is closed, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = accord_mcp::DEFAULT_SESSION_IDLE.as_millis() as u64,
          requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    session_idle: u64,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else { return Outcome::InputError };
    let doc = loaded.document;
    let dialect = match Dialect::of(&doc) {
        Ok(d) => d,
        Err(err) => {
            eprintln!("error: {}: {err}", args.contract.display());
            return Outcome::InputError;
        }
    };
    let mut policy = ExposurePolicy::default();
    policy.read_only = args.read_only;
    for list in &args.allow {
        if let Err(err) = policy.allow(list, &dialect) {
            eprintln!("error: {err}");
            return Outcome::InputError;
        }
    }
    let backend = match &args.upstream {
        None => Backend::Fake { seed: args.seed },
        Some(url) => {
            let token = match &args.token_file {
                None => None,
                Some(path) => match token::read(path) {
                    Some(token) => Some(token),
                    None => return Outcome::InputError,
                },
            };
            Backend::Upstream { url: url.clone(), token }
        }
    };
    let mut options = Options::new(backend);
    options.policy = policy;
    options.timeout = Duration::from_millis(args.timeout);
    options.allow_hosts = args.allow_host.clone();
    options.max_sessions = usize::try_from(args.max_sessions).unwrap_or(usize::MAX);
    options.session_idle = Duration::from_millis(args.session_idle);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the runtime: {err}");
            return Outcome::InputError;
        }
    };
    let outcome = runtime.block_on(serve(args, doc, options));
    // A stdin read pending on the blocking pool must not hold the exit.
    runtime.shutdown_timeout(Duration::from_millis(100));
    outcome
}

async fn serve(args: &Args, doc: accord_schema_model::Document, options: Options) -> Outcome {
    let mcp = match Mcp::start(doc, options).await {
        Ok(mcp) => mcp,
        Err(err) => {
            eprintln!("error: {}: {err}", args.contract.display());
            return Outcome::InputError;
        }
    };
    // stdout is the protocol under stdio: what is exposed and hidden goes to stderr.
    eprint!("accord mcp: {}\n{}", args.contract.display(), mcp.catalog().exposure());
    let Some(addr) = args.http else {
        return match mcp.serve_stdio().await {
            Ok(()) => Outcome::Success,
            Err(err) => {
                eprintln!("error: {err}");
                Outcome::InputError
            }
        };
    };
    let server = match mcp.serve_http(addr).await {
        Ok(server) => server,
        Err(err) => {
            eprintln!("error: {err}");
            return Outcome::InputError;
        }
    };
    // The one place the URL (its port, with port 0) is told.
    if let Err(err) = output::print_strict(&format!("accord mcp listening on {}\n", server.url())) {
        eprintln!("error: cannot write the URL to stdout: {err}");
        return Outcome::InputError;
    }
    tokio::select! {
        stopped = server.stopped() => match stopped {
            Ok(()) => Outcome::Success,
            Err(err) => {
                eprintln!("error: {err}");
                Outcome::InputError
            }
        },
        _ = tokio::signal::ctrl_c() => Outcome::Success,
    }
}
