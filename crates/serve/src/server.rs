//! The accept loop: one port, HTTP/1.1 with a header read timeout (hyper's, which axum::serve
//! does not set), upgrades for the WebSocket, and a graceful shutdown that stops accepting,
//! lets requests in flight finish and closes WebSockets with "going away".

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use accord_schema_model::{Dialect, Document};
use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_io_timeout::TimeoutStream;

use crate::answers::FakePlant;
use crate::body_budget::BodyBudget;
use crate::slots::{Conn, Slots};
use crate::{Config, Error, TokenHandle, http, ws};

/// How long a shutdown waits for requests in flight and WebSockets before it drops them.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The largest read buffer of an HTTP connection, and so the largest request head.
const READ_BUFFER: usize = 32 * 1024;

/// What every connection shares.
pub(crate) struct Shared {
    pub(crate) plant: FakePlant,
    pub(crate) slots: Arc<Slots>,
    pub(crate) body_budget: BodyBudget,
    pub(crate) shutdown: watch::Receiver<bool>,
    pub(crate) read_timeout: Duration,
    pub(crate) write_timeout: Duration,
    pub(crate) extra: Option<axum::Router>,
}

/// A running plant.
pub struct Server {
    addr: SocketAddr,
    stop: ShutdownHandle,
    token: Option<TokenHandle>,
    task: JoinHandle<()>,
    /// What the connections share, for the contract and its dialect as the engine holds them.
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("addr", &self.addr).finish_non_exhaustive()
    }
}

/// Stops a running plant; cheap to clone (for a signal handler, a test, another task).
#[derive(Debug, Clone)]
pub struct ShutdownHandle(Arc<watch::Sender<bool>>);

impl ShutdownHandle {
    /// Asks the plant to stop: it stops accepting, finishes requests in flight (up to
    /// [`SHUTDOWN_GRACE`]) and closes WebSockets with 1001 (going away).
    pub fn shutdown(&self) {
        self.0.send_replace(true);
    }
}

impl Server {
    /// The served contract: the engine's one copy (a caller that gave it to [`start`] reads it
    /// here rather than keeping a copy).
    pub fn document(&self) -> &Document {
        self.shared.plant.core.document()
    }

    /// How the served contract is spoken (its methods' wire names, its describe method), as
    /// the engine resolved it at start.
    pub fn dialect(&self) -> &Dialect {
        self.shared.plant.core.dialect()
    }

    /// The address the plant listens on (the port chosen when asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// `ws://ADDR/`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// A handle that stops the plant.
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.stop.clone()
    }

    /// A handle that replaces the plant's token while it serves; `None` for a plant without
    /// credentials (a token cannot be added to it later).
    pub fn token_handle(&self) -> Option<TokenHandle> {
        self.token.clone()
    }

    /// Stops the plant and waits until it has stopped.
    pub async fn shutdown(self) {
        self.stop.shutdown();
        self.stopped().await;
    }

    /// Waits until the plant has stopped (after [`ShutdownHandle::shutdown`]).
    pub async fn stopped(self) {
        let _ = self.task.await;
    }
}

/// Compiles the contract, binds `config.addr` and serves until shut down.
///
/// # Errors
///
/// The contract does not compile or has a namespace `rpc`, the scenario does not fit it, the
/// token is empty or no header could carry it, or the address cannot be bound.
pub async fn start(doc: Document, config: Config) -> Result<Server, Error> {
    let plant = FakePlant::new(doc, &config)?;
    let token = plant.token.is_set().then(|| TokenHandle(plant.token.clone()));
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|error| Error::Bind { addr: config.addr, error })?;
    let addr = listener.local_addr().map_err(|error| Error::Bind { addr: config.addr, error })?;
    let (tx, rx) = watch::channel(false);
    let shared = Arc::new(Shared {
        plant,
        slots: Arc::new(Slots::new(config.limits.connections)),
        body_budget: BodyBudget::new(config.limits.body_memory, config.limits.engine.body_bytes),
        shutdown: rx.clone(),
        read_timeout: config.read_timeout,
        write_timeout: config.write_timeout,
        extra: config.extra.clone(),
    });
    let task = tokio::spawn(accept(listener, shared.clone(), rx, config));
    tracing::info!(%addr, "serving");
    Ok(Server { addr, stop: ShutdownHandle(Arc::new(tx)), token, task, shared })
}

/// One request: `POST /` and `GET /` (the upgrade), other paths to the extra router when there
/// is one and 404 otherwise, 405 for other methods. A plain match rather than a router: two
/// routes, and this runs for every request.
async fn route(
    shared: Arc<Shared>,
    conn: Arc<Conn>,
    request: Request<Incoming>,
) -> Result<Response<Body>, std::convert::Infallible> {
    if let Some(response) = accord_plant::http::metrics(&shared.plant.core, &request) {
        return Ok(response);
    }
    if request.uri().path() != "/" {
        return Ok(match &shared.extra {
            Some(router) => {
                use tower_service::Service as _;
                // A Router is always ready and never fails (its error type is Infallible).
                router.clone().call(request.map(Body::new)).await?
            }
            None => status(StatusCode::NOT_FOUND),
        });
    }
    let response = match *request.method() {
        Method::POST => http::post(&shared, &conn, request).await,
        Method::GET => ws::upgrade(shared, &conn, request.map(Body::new)).await,
        _ => {
            let mut response = status(StatusCode::METHOD_NOT_ALLOWED);
            response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, POST"));
            response
        }
    };
    Ok(response)
}

/// Logs an HTTP connection closed because a write stalled past the write timeout (the one
/// `TimedOut` I/O error a connection can end with: hyper's own timeouts are not I/O errors).
fn log_write_stall(result: Result<(), hyper::Error>, timeout: Duration) {
    if let Err(error) = result
        && is_timed_out(&error)
    {
        let timeout_ms = timeout.as_millis() as u64;
        tracing::info!(transport = "http", timeout_ms, "write stalled; closing");
    }
}

/// Whether `error` is, or was caused by, an I/O error of kind `TimedOut`: the write timeout.
fn is_timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        source = error.source();
    }
    false
}

fn status(code: StatusCode) -> Response<Body> {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = code;
    response
}

async fn accept(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: watch::Receiver<bool>,
    config: Config,
) {
    // Each connection task holds a receiver; `closed()` resolves when the last one is gone.
    let (open_tx, open_rx) = watch::channel(());
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) => {
                        // Out of file descriptors and the like: wait a moment rather than spin.
                        tracing::error!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let Some(conn) = shared.slots.admit().await else {
                    refuse(&stream, &shared);
                    continue;
                };
                let _ = stream.set_nodelay(true);
                // Only writes are timed here: reads are hyper's header timeout, the body timeout
                // (http.rs) and FrameWatch (ws.rs), each knowing when a peer owes bytes. A write
                // that completes at once never arms the timer.
                let mut stream = TimeoutStream::new(stream);
                stream.set_write_timeout(Some(config.write_timeout));
                let stream = Box::pin(stream);
                let for_connection = shared.clone();
                let this = conn.clone();
                let service = hyper::service::service_fn(move |request| {
                    route(for_connection.clone(), this.clone(), request)
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    // Head and body in one buffer, one iovec: measured cheaper in the kernel
                    // than hyper's default of two for answers of this size (docs/benchmarks.md).
                    .writev(false)
                    // The read buffer of each connection, which bounds a request head too:
                    // hyper's default (~400 KB) times every connection reading a body is
                    // more memory than the body budget (docs/serve.md, Limits).
                    .max_buf_size(READ_BUFFER)
                    .timer(TokioTimer::new())
                    .header_read_timeout(config.read_timeout)
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                let mut stop = shutdown.clone();
                let open = open_rx.clone();
                let write_timeout = config.write_timeout;
                let slots = shared.slots.clone();
                tokio::spawn(async move {
                    let mut connection = std::pin::pin!(connection);
                    tokio::select! {
                        result = connection.as_mut() => log_write_stall(result, write_timeout),
                        _ = stop.changed() => {
                            // Finish the request in flight, then close; idle ones close now.
                            connection.as_mut().graceful_shutdown();
                            log_write_stall(connection.await, write_timeout);
                        }
                        // Closed to make room for a new connection (slots.rs): dropped as it is.
                        () = conn.evicted() => {}
                    }
                    slots.forget(&conn);
                    drop(open);
                });
            }
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);
    tracing::info!("shutting down");
    // Bodies waiting for the body budget are answered now rather than at their read timeout.
    shared.body_budget.close();
    drop(open_rx);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, open_tx.closed()).await;
    shared.slots.all_free(SHUTDOWN_GRACE).await;
    tracing::info!("stopped");
}

/// Refuses a connection for which no slot could be had: a 503 with `-32003` naming the
/// `connections` limit, written only if the socket takes it at once, then closed.
fn refuse(stream: &tokio::net::TcpStream, shared: &Shared) {
    tracing::info!(
        transport = "http",
        "connection refused: every slot is answering or a WebSocket"
    );
    let body = shared.plant.limit(accord_wire::limits::CONNECTIONS);
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.try_write(&[head.as_bytes(), &body].concat());
}
