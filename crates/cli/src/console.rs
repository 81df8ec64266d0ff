//! `accord console --url URL`: the console (accord-console) on its own port, in front of a
//! live plant, until SIGINT or SIGTERM.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::{Outcome, input, output, token};

/// Arguments of `accord console`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The plant's URL (http:// or https://; its WebSocket is the same URL as ws:// or wss://).
    #[arg(long, value_name = "URL")]
    url: String,
    /// A file holding the bearer token sent to the plant for a page that supplies no credential
    /// of its own (trailing whitespace removed).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Where the console listens (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:7879")]
    addr: SocketAddr,
    /// The plant's contract, for a plant whose wire has no describe method (or to hold it to
    /// this file rather than to what it describes).
    #[arg(long, value_name = "CONTRACT")]
    contract: Option<PathBuf>,
    /// Also answer requests whose Host (and Origin) is NAME or NAME:PORT, for a console fronted
    /// by a proxy; repeatable. Only loopback names with the console's port and its listen
    /// address are served otherwise (any other Host gets 403: DNS rebinding).
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

pub(crate) fn run(args: &Args) -> Outcome {
    let contract = match &args.contract {
        None => None,
        Some(path) => match input::load(path) {
            Some(loaded) => Some(loaded.document),
            None => return Outcome::InputError,
        },
    };
    let token = match &args.token_file {
        None => None,
        Some(path) => match token::read(path) {
            Some(token) => Some(token),
            None => return Outcome::InputError,
        },
    };
    let mut config = accord_console::Config::default();
    config.contract = contract;
    config.token = token;
    config.allow_hosts = args.allow_host.clone();
    let console = match accord_console::Console::new(config) {
        Ok(console) => console,
        Err(err) => {
            eprintln!("error: {err}");
            return Outcome::InputError;
        }
    };
    if let Err(err) = console.set_upstream(&args.url) {
        eprintln!("error: --url: {err}");
        return Outcome::InputError;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the runtime: {err}");
            return Outcome::InputError;
        }
    };
    runtime.block_on(serve(args, console))
}

async fn serve(args: &Args, console: accord_console::Console) -> Outcome {
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("error: cannot listen on {}: {err}", args.addr);
            return Outcome::InputError;
        }
    };
    let addr = listener.local_addr().unwrap_or(args.addr);
    if let Err(err) = console.listening_on(addr) {
        eprintln!("error: {err}");
        return Outcome::InputError;
    }
    let banner = format!(
        "accord console: http://{addr}{} in front of {}\n",
        accord_console::PAGE_PATH,
        args.url
    );
    if let Err(err) = output::print_strict(&banner) {
        eprintln!("error: cannot write the banner (the console's URL) to stdout: {err}");
        return Outcome::InputError;
    }
    let stop = async {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            match signal(SignalKind::terminate()) {
                Ok(mut terminate) => {
                    tokio::select! {
                        _ = tokio::signal::ctrl_c() => {}
                        _ = terminate.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    };
    match axum::serve(listener, console.router()).with_graceful_shutdown(stop).await {
        Ok(()) => Outcome::Success,
        Err(err) => {
            eprintln!("error: the console stopped: {err}");
            Outcome::InputError
        }
    }
}
