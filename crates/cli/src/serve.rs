//! `accord serve`: a fake plant from a contract (accord-serve), until SIGINT or SIGTERM.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use accord_schema_model::{Dialect, Document};
use accord_serve::{Config, Mode, Prefer, ScenarioSource, ServeLimits, TokenHandle};
use clap::ValueEnum;

use crate::diagnostic::escape_controls;
use crate::log_writer::BatchedStderr;
use crate::output::plural;
use crate::{Outcome, input, output, token};

/// Arguments of `accord serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The contract to serve.
    #[arg(value_name = "CONTRACT")]
    contract: PathBuf,
    /// Where to listen: HOST:PORT, the host an IP address or a name such as `localhost`
    /// (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = listen_addr)]
    addr: SocketAddr,
    /// The seed of every generated value.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// stable: the same request always gets the same answer; sequence: the n-th call of a
    /// method gets the n-th value.
    #[arg(long, value_enum, default_value_t = ModeArg::Stable)]
    mode: ModeArg,
    /// A file holding the bearer token callers must send (its trailing whitespace removed);
    /// SIGHUP re-reads it.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Canned answers matched by method and params (docs/serve.md).
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// Which valid answers the fake prefers, comma-separated: typical (the default: non-null,
    /// richest, lower-hex, static), uniform (none: every valid answer alike, for fuzzing a
    /// client), non-null (union arms that are not null first), object (object arms first),
    /// richest (the arm with the most members, objects in arrays too), lower-hex (hex text in
    /// lower case and whole bytes), static (one value whatever the seed: a type's example or
    /// default, else zero, the least text a pattern matches), examples (a method's examples
    /// before generated values, whatever the params). A list replaces the default
    /// (docs/serve.md).
    #[arg(long, value_name = "LIST", value_parser = Prefer::parse)]
    prefer: Option<Prefer>,
    /// Send each subscription a notification every MS milliseconds.
    #[arg(long, value_name = "MS")]
    event_interval: Option<u64>,
    /// The request log on stderr: text lines or JSON lines.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// The largest HTTP body or WebSocket message, in bytes (docs/wire.md §9).
    #[arg(long, value_name = "BYTES", default_value_t = ServeLimits::default().engine.body_bytes as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_body_bytes: u64,
    /// The deepest JSON nesting accepted (at most 128, the JSON parser's own limit).
    #[arg(long, value_name = "LEVELS", default_value_t = ServeLimits::default().engine.depth as u64,
          value_parser = clap::value_parser!(u64).range(1..=128))]
    max_depth: u64,
    /// The most requests in one batch.
    #[arg(long, value_name = "N", default_value_t = ServeLimits::default().engine.batch_length as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_batch: u64,
    /// The most open connections, HTTP and WebSocket [default: the descriptor limit less 64,
    /// and at least half of it].
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    max_connections: Option<u64>,
    /// The most subscriptions on one WebSocket.
    #[arg(long, value_name = "N", default_value_t = ServeLimits::default().engine.subscriptions as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_subscriptions: u64,
    /// The most bytes all HTTP bodies being read may hold together (at least --max-body-bytes).
    #[arg(long, value_name = "BYTES", default_value_t = ServeLimits::default().body_memory as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_body_memory: u64,
    /// The largest answer to one message, in bytes; a response past it is refused (`-32003`).
    #[arg(long, value_name = "BYTES", default_value_t = ServeLimits::default().engine.answer_bytes as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_answer_bytes: u64,
    /// The most values in one generated result, error data or event payload.
    #[arg(long, value_name = "N", default_value_t = ServeLimits::default().generation.nodes as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_generated_values: u64,
    /// The most bytes of JSON in one generated result, error data or event payload.
    #[arg(long, value_name = "BYTES", default_value_t = ServeLimits::default().generation.bytes as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_generated_bytes: u64,
    /// How long request headers, a body, or a begun WebSocket frame may stall before closing.
    #[arg(long, value_name = "MS", default_value_t = Config::default().read_timeout.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    read_timeout: u64,
    /// How long one write may wait for a peer that does not read (an HTTP answer, a WebSocket
    /// message) before the connection is closed.
    #[arg(long, value_name = "MS", default_value_t = Config::default().write_timeout.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    write_timeout: u64,
    /// Also serve the console, a web page to browse the contract and call the fake, at
    /// /console on the same port (docs/console.md).
    #[arg(long)]
    console: bool,
    /// With --console: also answer console requests whose Host (and Origin) is NAME or
    /// NAME:PORT (a console fronted by a proxy); repeatable. Otherwise only loopback names with
    /// the port and the listen address are served (any other Host gets 403).
    #[arg(long, value_name = "NAME", requires = "console")]
    allow_host: Vec<String>,
    /// Count what callers use (docs/usage.md) and answer the counts as OpenMetrics text on
    /// GET of PATH (e.g. `/metrics`; never `/`), for Prometheus to scrape.
    #[arg(long, value_name = "PATH")]
    metrics_path: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    Stable,
    Sequence,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// `--addr`: an IP address and port as they stand, or a host name and port resolved (the first
/// address the name resolves to), as `conform --url` takes `localhost`.
fn listen_addr(text: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs as _;
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    if text.rsplit_once(':').is_none_or(|(host, port)| host.is_empty() || port.is_empty()) {
        return Err(format!(
            "`{text}` is not HOST:PORT (for example 127.0.0.1:7878 or localhost:0)"
        ));
    }
    match text.to_socket_addrs() {
        Ok(mut addrs) => addrs.next().ok_or_else(|| format!("`{text}` resolves to no address")),
        Err(err) => Err(format!("cannot resolve `{text}`: {err}")),
    }
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(loaded) = input::load(&args.contract) else { return Outcome::InputError };
    let token = match &args.token_file {
        None => None,
        Some(path) => match token::read(path) {
            Some(token) => Some(token),
            None => return Outcome::InputError,
        },
    };
    let scenario = match &args.scenario {
        None => None,
        Some(path) => match read(path) {
            Some(text) => Some(ScenarioSource { file: path.display().to_string(), text }),
            None => return Outcome::InputError,
        },
    };
    if args.event_interval == Some(0) {
        eprintln!("error: --event-interval must be at least 1 (milliseconds)");
        return Outcome::InputError;
    }
    let log = init_log(args.log_format);
    let mut config = Config::default();
    config.addr = args.addr;
    config.seed = args.seed;
    config.mode = match args.mode {
        ModeArg::Stable => Mode::Stable,
        ModeArg::Sequence => Mode::Sequence,
    };
    config.token = token;
    config.scenario = scenario;
    config.event_interval = args.event_interval.map(Duration::from_millis);
    config.limits = limits(args);
    config.read_timeout = Duration::from_millis(args.read_timeout);
    config.write_timeout = Duration::from_millis(args.write_timeout);
    config.prefer = args.prefer.unwrap_or_default();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the runtime: {err}");
            return Outcome::InputError;
        }
    };
    let outcome = runtime.block_on(serve(args, loaded.document, config));
    // A stderr nobody reads (a full pipe) must not hold the exit: past the limit the rest of
    // the log is dropped.
    log.flush_within(FINAL_FLUSH);
    outcome
}

/// The `--max-*` options.
fn limits(args: &Args) -> ServeLimits {
    let mut limits = ServeLimits::default();
    limits.engine.body_bytes = usize::try_from(args.max_body_bytes).unwrap_or(usize::MAX);
    limits.engine.depth = usize::try_from(args.max_depth).unwrap_or(128);
    limits.engine.batch_length = usize::try_from(args.max_batch).unwrap_or(usize::MAX);
    limits.connections = match args.max_connections {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
        None => accord_serve::default_connections(),
    };
    limits.engine.subscriptions = usize::try_from(args.max_subscriptions).unwrap_or(usize::MAX);
    limits.body_memory = usize::try_from(args.max_body_memory).unwrap_or(usize::MAX);
    limits.engine.answer_bytes = usize::try_from(args.max_answer_bytes).unwrap_or(usize::MAX);
    limits.generation.nodes = usize::try_from(args.max_generated_values).unwrap_or(usize::MAX);
    limits.generation.bytes = usize::try_from(args.max_generated_bytes).unwrap_or(usize::MAX);
    limits
}

async fn serve(args: &Args, doc: Document, mut config: Config) -> Outcome {
    // The banner's lines after the first two: the first two are read from the server's own
    // contract and dialect once it runs (a dialect of its own was a second pass over every
    // method before the first answer).
    let mut tail = String::new();
    config.metrics_path.clone_from(&args.metrics_path);
    if let Some(path) = &args.metrics_path {
        let _ = write!(tail, "\nmetrics: {{URL}}{}", path.trim_start_matches('/'));
    }
    // The console speaks to this fake over loopback like to any plant: its URL is known once
    // the fake listens.
    let console = if args.console {
        let mut console_config = accord_console::Config::default();
        console_config.contract = Some(doc.clone());
        console_config.fake = true;
        console_config.allow_hosts = args.allow_host.clone();
        match accord_console::Console::new(console_config) {
            Ok(console) => {
                config.extra = Some(console.router());
                tail.push_str("\nconsole: {URL}console");
                Some(console)
            }
            Err(err) => {
                let message = format!("{}: {err}", args.contract.display());
                eprintln!("error: {}", escape_controls(&message));
                return Outcome::InputError;
            }
        }
    } else {
        None
    };
    let server = match accord_serve::start(doc, config).await {
        Ok(server) => server,
        Err(err) => {
            let message = format!("{}{err}", start_error_subject(args, &err));
            eprintln!("error: {}", escape_controls(&message));
            return Outcome::InputError;
        }
    };
    if let Some(console) = &console
        && let Err(err) =
            console.set_upstream(&server.url()).and_then(|()| console.listening_on(server.addr()))
    {
        eprintln!("error: the console cannot reach the fake: {err}");
        server.shutdown().await;
        return Outcome::InputError;
    }
    // The handlers are registered before the banner is printed: whoever reads the URL may
    // signal at once, and a signal before registration would kill the process unanswered.
    let reload = args.token_file.clone().zip(server.token_handle());
    let stop_signal = match Signals::register(reload) {
        Ok(signals) => signals,
        Err(err) => {
            eprintln!("error: cannot handle signals: {err}");
            return Outcome::InputError;
        }
    };
    // The banner is the one place the URL (its port, with port 0) is told: if it cannot be
    // written, a closed pipe included, nobody can use this plant.
    // The banner names the contract and one of its methods: the contract's text.
    let banner = banner(server.document(), server.dialect(), args.token_file.as_deref()) + &tail;
    let banner = format!("{}\n", banner.replace("{URL}", &server.url()));
    if let Err(err) = output::print_strict(&escape_controls(&banner)) {
        eprintln!("error: cannot write the banner (the plant's URL) to stdout: {err}");
        server.shutdown().await;
        return Outcome::InputError;
    }
    let stop = server.shutdown_handle();
    tokio::spawn(async move {
        stop_signal.recv().await;
        stop.shutdown();
    });
    server.stopped().await;
    Outcome::Success
}

/// What a start error is about, as its message's prefix: the contract for what the contract
/// causes, the token file for its token, nothing for the port (the address is in the message)
/// or the scenario (whose message starts with its file).
fn start_error_subject(args: &Args, err: &accord_serve::Error) -> String {
    use accord_serve::Error as E;
    match (err, &args.token_file) {
        (E::Bind { .. } | E::Scenario { .. }, _) => String::new(),
        (E::EmptyToken | E::UnusableToken { .. }, Some(file)) => {
            format!("the token file {}: ", file.display())
        }
        _ => format!("{}: ", args.contract.display()),
    }
}

/// How long the log's last lines may take to reach stderr at exit.
const FINAL_FLUSH: Duration = Duration::from_secs(1);

/// The token file and the plant's token, for SIGHUP to re-read the one into the other.
type Reload = (PathBuf, TokenHandle);

/// SIGINT (Ctrl-C) and, on Unix, SIGTERM; SIGHUP too when there is a token file to re-read
/// (without one, SIGHUP keeps its default: the process ends).
struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(unix)]
    hangup: Option<(tokio::signal::unix::Signal, Reload)>,
}

impl Signals {
    #[cfg(unix)]
    fn register(reload: Option<Reload>) -> std::io::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        let hangup = match reload {
            Some(reload) => Some((signal(SignalKind::hangup())?, reload)),
            None => None,
        };
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
            hangup,
        })
    }

    #[cfg(not(unix))]
    fn register(_reload: Option<Reload>) -> std::io::Result<Signals> {
        Ok(Signals {})
    }

    /// Waits for a signal to stop, re-reading the token file at each SIGHUP meanwhile.
    #[cfg(unix)]
    async fn recv(mut self) {
        loop {
            let hangup = async {
                match &mut self.hangup {
                    Some((signal, reload)) => {
                        signal.recv().await;
                        Some(&*reload)
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = self.interrupt.recv() => return,
                _ = self.terminate.recv() => return,
                Some((path, handle)) = hangup => reload_token(path, handle),
            }
        }
    }

    #[cfg(not(unix))]
    async fn recv(self) {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// SIGHUP: the token file read again and its token put in place; on any problem the old token
/// stays, and the log says why.
#[cfg(unix)]
fn reload_token(path: &Path, handle: &TokenHandle) {
    let file = path.display().to_string();
    let token = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read the token file: {err}"))
        .and_then(|text| token::parse(&text).map(str::to_owned));
    match token.and_then(|token| handle.replace(&token).map_err(|err| err.to_string())) {
        Ok(()) => tracing::info!(%file, "SIGHUP: token file re-read; the new token is in place"),
        Err(reason) => {
            tracing::error!(%file, %reason, "SIGHUP: token file not re-read; the old token stays");
        }
    }
}

fn read(path: &Path) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(err) => {
            crate::diagnostic::print_io_error(path, &err);
            None
        }
    }
}

fn init_log(format: LogFormat) -> BatchedStderr {
    use std::io::IsTerminal;
    let ansi = std::io::stderr().is_terminal();
    let writer = BatchedStderr::start();
    let make = writer.clone();
    let builder = tracing_subscriber::fmt()
        .with_writer(move || make.clone())
        .with_target(false)
        .with_ansi(ansi);
    let _ = match format {
        LogFormat::Text => builder.event_format(crate::log_line::LogLine).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    writer
}

/// What startup prints: the URL and a curl command that works as it stands (the first method
/// with an example, called with that example's params; else rpc.describe).
fn banner(doc: &Document, dialect: &Dialect, token_file: Option<&Path>) -> String {
    let name = doc.name.as_deref().unwrap_or("the contract");
    let namespaces = doc.namespaces.iter().flatten().count();
    let methods: usize = doc
        .namespaces
        .iter()
        .flatten()
        .map(|(_, n)| n.methods.as_ref().map_or(0, |m| m.len()))
        .sum();
    // Names as the contract's wire calls them (`dialect`: the served contract's).
    let example = doc.namespaces.iter().flatten().find_map(|(ns, namespace)| {
        namespace.methods.iter().flatten().find_map(|(m, method)| {
            let example = method.examples.as_ref()?.iter().find(|e| e.result.is_some())?;
            let name = dialect.wire_name(ns, m)?.to_owned();
            Some((name, example.params.clone()))
        })
    });
    let describe = dialect.describe.as_deref();
    // Without an example or a describe method: the first method, with no params.
    let first = || dialect.methods().next().map(|r| r.wire_name.clone());
    let (method, params) = example.unwrap_or_else(|| {
        let method = describe.map(str::to_owned).or_else(first).unwrap_or_default();
        (method, serde_json::json!({}))
    });
    let request =
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let auth = match token_file {
        Some(path) => format!(" -H \"Authorization: Bearer $(cat '{}')\"", path.display()),
        None => String::new(),
    };
    let (namespaces, methods) = (plural(namespaces, "namespace"), plural(methods, "method"));
    format!(
        "accord serve: {name} ({namespaces}, {methods}) on {{URL}} (POST for HTTP, GET to upgrade to a WebSocket)\n\
         try:\n  curl -s {{URL}} -H 'Content-Type: application/json'{auth} -d '{}'",
        request.to_string().replace('\'', "'\\''")
    )
}
