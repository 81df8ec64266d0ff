#![doc = include_str!("../README.md")]

mod answers;
mod body_budget;
mod credential;
mod error;
mod frame_watch;
mod http;
mod pubsub;
mod scenario;
mod seed;
mod server;
mod slots;
mod table;
mod ws;
mod ws_close;
mod ws_send;

use std::net::SocketAddr;
use std::time::Duration;

pub use accord_plant::Limits as EngineLimits;
pub use accord_validate::{ArmPreference, Budget};

pub use crate::credential::TokenHandle;
pub use crate::error::Error;
pub use crate::scenario::ScenarioSource;
pub use crate::seed::Mode;
pub use crate::server::{SHUTDOWN_GRACE, Server, ShutdownHandle, start};

/// The limits of docs/wire.md §9: the ones accord-plant's answer engine enforces on each
/// message and WebSocket ([`EngineLimits`]), and the ones of accord serve's own transport and
/// generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeLimits {
    /// `body-bytes`, `depth` (at most 128, the JSON parser's own limit; a larger value counts
    /// as 128), `batch-length`, `subscriptions` and `answer-bytes` (a response that would pass
    /// it is answered with `-32003` `answer-bytes` instead).
    pub engine: EngineLimits,
    /// The most open connections, HTTP and WebSocket alike (by default, from the descriptor
    /// limit: see [`default_connections`]).
    pub connections: usize,
    /// How large one generated result, error data or event payload may grow (`-32003`
    /// `generation-nodes` or `generation-bytes` past it).
    pub generation: Budget,
    /// The most bytes all HTTP bodies being read or answered may hold together (the first
    /// 8 KiB of each not counted); at least `body_bytes`.
    pub body_memory: usize,
}

impl Default for ServeLimits {
    fn default() -> ServeLimits {
        ServeLimits {
            engine: EngineLimits::default(),
            generation: Budget::default(),
            connections: default_connections(),
            body_memory: 32 << 20,
        }
    }
}

/// Descriptors kept for what is not a connection (standard streams, the listener, the
/// runtime's own, a log file) and for the connection refused or closed to make room.
const SPARE_DESCRIPTORS: u64 = 64;

/// The default connection limit: the process's descriptor limit (`RLIMIT_NOFILE`, soft) less
/// 64 spare descriptors, and at least half of it, so that connections are refused by the plant
/// with a word before the system refuses them without one; 256 where there is no such limit.
pub fn default_connections() -> usize {
    #[cfg(unix)]
    {
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        if let Some(soft) = limit.current {
            let n = soft.saturating_sub(SPARE_DESCRIPTORS).max(soft / 2).max(1);
            return usize::try_from(n).unwrap_or(usize::MAX);
        }
    }
    256
}

impl ServeLimits {
    /// The configured maximum of the limit named `name` (docs/wire.md §9's names).
    pub fn max_of(&self, name: &str) -> u64 {
        use accord_wire::limits::{BODY_MEMORY, CONNECTIONS, GENERATION_BYTES, GENERATION_NODES};
        let max = match name {
            BODY_MEMORY => self.body_memory.max(self.engine.body_bytes),
            CONNECTIONS => self.connections,
            GENERATION_NODES => self.generation.nodes,
            GENERATION_BYTES => self.generation.bytes,
            _ => return self.engine.max_of(name),
        };
        max as u64
    }
}

/// How to serve.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Where to listen; port 0 picks a free port ([`Server::addr`] tells which).
    pub addr: SocketAddr,
    /// The seed of every generated value.
    pub seed: u64,
    /// How generated answers are seeded.
    pub mode: Mode,
    /// The bearer token; `None` serves without credentials.
    pub token: Option<String>,
    /// Canned answers.
    pub scenario: Option<ScenarioSource>,
    /// Send each subscription a generated notification this often; `None` sends them only on
    /// demand (`rpc.fake` `emit`).
    pub event_interval: Option<Duration>,
    /// The limits.
    pub limits: ServeLimits,
    /// How long a request's headers or body, or a WebSocket frame or fragmented message once
    /// begun, may stall; an idle WebSocket has no deadline.
    pub read_timeout: Duration,
    /// How long one write to a peer may wait for the peer to read (HTTP answers and WebSocket
    /// messages alike); past it the connection is closed and its slot is free again.
    pub write_timeout: Duration,
    /// Which valid answers a fake prefers (`--prefer`); the default is [`Prefer::TYPICAL`].
    pub prefer: Prefer,
    /// Routes for every path but `/`, answered on the plant's port (`accord serve --console`
    /// mounts the console here); `None` answers them 404. The plant's limits on connections,
    /// heads and writes apply to them; body and WebSocket limits are the router's own.
    pub extra: Option<axum::Router>,
    /// Usage counting (docs/usage.md): `None`, off; a path such as `/metrics`, on, with the
    /// counters answered as OpenMetrics text on `GET` of that path (never `/`).
    pub metrics_path: Option<String>,
}

/// Which answers a fake prefers among the valid ones (`--prefer`, docs/serve.md): union arms
/// in the generator's order, hex text in one form, and the method's examples before generated
/// values. The default is [`Prefer::TYPICAL`]: values a typical client can consume.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Prefer {
    /// The order the generator tries union arms in.
    pub arms: ArmPreference,
    /// Hex text (`0x` and digits) in lower case and whole bytes where the pattern allows it
    /// ([`accord_validate::Generator::one_case_hex`]).
    pub lower_hex: bool,
    /// Answer a call whose params match no example with one of the method's examples (chosen
    /// by the call's seed) rather than a generated value.
    pub examples: bool,
    /// Values take their static form, the same whatever the seed: a type's example or default,
    /// else for a scalar zero, the least text a pattern matches, an enum's first value
    /// ([`accord_validate::Generator::static_values`]).
    pub static_values: bool,
}

impl Prefer {
    /// The names `--prefer` takes, in the order docs/serve.md lists them.
    pub const NAMES: [&'static str; 8] =
        ["typical", "uniform", "non-null", "object", "richest", "lower-hex", "static", "examples"];

    /// What a typical client can consume, the default: non-null arms first, then the richest
    /// object arm, hex text in lower case and whole bytes, static values (a type's example or
    /// default, else zero, the least match of a pattern), which agree where two members of one
    /// type must. Examples for other params are not sent: their values belong to other params
    /// (another block's number, another account).
    pub const TYPICAL: Prefer = Prefer {
        arms: ArmPreference::TYPICAL,
        lower_hex: true,
        examples: false,
        static_values: true,
    };

    /// Every valid answer alike: union arms in a seeded random order, hex text as its pattern
    /// samples it, every value drawn from the seed (for fuzzing a client).
    pub const UNIFORM: Prefer = Prefer {
        arms: ArmPreference::NONE,
        lower_hex: false,
        examples: false,
        static_values: false,
    };

    /// Reads a comma-separated list of [`Prefer::NAMES`] (`non-null,object,examples`). A list
    /// replaces the default: it prefers what it names and nothing else (`typical` names the
    /// default's preferences, `uniform` none); an empty list prefers nothing.
    ///
    /// # Errors
    ///
    /// A name this build does not know, with the names it does.
    pub fn parse(list: &str) -> Result<Prefer, String> {
        let mut prefer = Prefer::UNIFORM;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "typical" => {
                    prefer.arms = ArmPreference::TYPICAL;
                    prefer.lower_hex = true;
                    prefer.static_values = true;
                }
                "uniform" => {}
                "non-null" => prefer.arms = prefer.arms.non_null(),
                "object" => prefer.arms = prefer.arms.objects(),
                "richest" => prefer.arms = prefer.arms.objects().richest(),
                "lower-hex" => prefer.lower_hex = true,
                "static" => prefer.static_values = true,
                "examples" => prefer.examples = true,
                other => {
                    return Err(format!(
                        "`{other}` is not a preference (use {})",
                        Prefer::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(prefer)
    }
}

impl Default for Prefer {
    fn default() -> Prefer {
        Prefer::TYPICAL
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 7878)),
            seed: 0,
            mode: Mode::Stable,
            token: None,
            scenario: None,
            event_interval: None,
            limits: ServeLimits::default(),
            read_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            prefer: Prefer::default(),
            extra: None,
            metrics_path: None,
        }
    }
}
