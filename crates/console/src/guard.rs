//! The Host and Origin allow-lists (docs/console.md, "Who may use it"). A web page on a name
//! that re-points to 127.0.0.1 (DNS rebinding) is "same origin" with the console as far as the
//! browser knows: only the `Host` it sends tells the console apart from its own page. So the
//! console serves only the names it answers on: the loopback names with its port, its listen
//! address, and the names the operator adds (`--allow-host`, for a console fronted by a
//! proxy); any other `Host` gets 403. An `Origin`, when a request carries one (every
//! cross-origin fetch, every POST a browser makes, every WebSocket upgrade), must name one of
//! the same: a page of another origin cannot call, confirm or watch.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};

use axum::extract::{Request, State as Extract};
use axum::http::uri::{Authority, Uri};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::State;
use crate::api::problem;

/// The names the console answers on.
#[derive(Debug, Default)]
pub(crate) struct Allowed {
    /// Where it listens, once known (the port of the loopback names, and an address of its
    /// own when it listens on one).
    pub(crate) listen: OnceLock<SocketAddr>,
    /// `--allow-host`: `NAME` (any port) or `NAME:PORT`, lowercased.
    pub(crate) extra: Vec<String>,
}

impl Allowed {
    /// Whether `host` (brackets removed, lowercase) with `port` (`None`: the scheme's default
    /// was meant and is `default`) is one of the console's names.
    fn allows(&self, host: &str, port: Option<u16>, default: u16) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        let port = port.unwrap_or(default);
        let listen = self.listen.get();
        let own_port = listen.is_none_or(|a| a.port() == port);
        let loopback = matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1");
        if loopback && own_port {
            return true;
        }
        if let Some(addr) = listen
            && !addr.ip().is_unspecified()
            && host.parse::<IpAddr>().is_ok_and(|ip| ip == addr.ip())
            && own_port
        {
            return true;
        }
        self.extra.iter().any(|name| match Authority::try_from(name.as_str()) {
            Ok(a) if a.port_u16().is_some() => {
                a.host().trim_start_matches('[').trim_end_matches(']') == host
                    && a.port_u16() == Some(port)
            }
            _ => name.trim_start_matches('[').trim_end_matches(']') == host,
        })
    }

    /// Whether a `Host` header's value names the console.
    pub(crate) fn host(&self, value: &str) -> bool {
        Authority::try_from(value).is_ok_and(|a| self.allows(a.host(), a.port_u16(), 80))
    }

    /// Whether an `Origin` header's value is one of the console's own origins (`http` or
    /// `https` on one of its names; `null` and other schemes are not).
    pub(crate) fn origin(&self, value: &str) -> bool {
        let Ok(uri) = Uri::try_from(value) else { return false };
        let default = match uri.scheme_str() {
            Some("http") => 80,
            Some("https") => 443,
            _ => return false,
        };
        uri.authority().is_some_and(|a| self.allows(a.host(), a.port_u16(), default))
    }
}

/// The middleware in front of every route of the console.
pub(crate) async fn guard(
    Extract(state): Extract<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    // HTTP/1.1 names the host in `Host`; HTTP/2 in the URI's authority.
    let host = headers
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .or_else(|| request.uri().authority().map(ToString::to_string));
    let Some(host) = host else {
        return problem(StatusCode::FORBIDDEN, "refused: the request names no Host");
    };
    if !state.allowed.host(&host) {
        return problem(
            StatusCode::FORBIDDEN,
            format!(
                "refused: the Host `{}` is not a name this console answers on (loopback with its port, its listen address, or one given with --allow-host)",
                shown(&host)
            ),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
        if !state.allowed.origin(&origin) {
            return problem(
                StatusCode::FORBIDDEN,
                format!(
                    "refused: the Origin `{}` is not the console's own (a page of another origin may not use it)",
                    shown(&origin)
                ),
            );
        }
    }
    next.run(request).await
}

/// A header value as an error message may show it: at most 200 characters, no controls.
fn shown(value: &str) -> String {
    value.chars().take(200).map(|c| if c.is_control() { '?' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(listen: &str, extra: &[&str]) -> Allowed {
        let allowed = Allowed {
            listen: OnceLock::new(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
        };
        allowed.listen.set(listen.parse().unwrap()).unwrap();
        allowed
    }

    #[test]
    fn only_the_consoles_own_names_are_served() {
        let a = allowed("127.0.0.1:7879", &["console.plant.lan", "proxy.lan:8443"]);
        for ok in ["127.0.0.1:7879", "localhost:7879", "LOCALHOST:7879", "[::1]:7879"] {
            assert!(a.host(ok), "{ok}");
        }
        for refused in
            ["rebind.evil.example:7879", "127.0.0.1:7880", "localhost", "127.0.0.2:7879", ""]
        {
            assert!(!a.host(refused), "{refused}");
        }
        assert!(a.host("console.plant.lan") && a.host("console.plant.lan:9000"));
        assert!(a.host("proxy.lan:8443") && !a.host("proxy.lan:8444"));
        assert!(a.origin("http://localhost:7879") && a.origin("https://proxy.lan:8443"));
        for refused in
            ["null", "http://rebind.evil.example:7879", "file://", "ftp://localhost:7879"]
        {
            assert!(!a.origin(refused), "{refused}");
        }
        let lan = allowed("192.168.4.2:80", &[]);
        assert!(lan.host("192.168.4.2") && lan.origin("http://192.168.4.2"));
        assert!(!allowed("0.0.0.0:80", &[]).host("0.0.0.0"));
    }
}
