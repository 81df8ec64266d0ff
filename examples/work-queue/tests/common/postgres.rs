#![allow(dead_code)]
//! A PostgreSQL database of its own for each test, on the server `ACCORD_TEST_POSTGRES_URL`
//! names (`cargo xtask test`, the README's test command, starts a throwaway one; `eval "$(bash
//! .ci/postgres start)"` does the same by hand). No URL is a failure that says how to start one, never a silent pass. Shared by the
//! store suite (src/store/suite.rs) and the integration tests.

use std::sync::atomic::{AtomicU64, Ordering};

/// The variable the tests read.
pub(crate) const VAR: &str = "ACCORD_TEST_POSTGRES_URL";

/// The server's URL, or a panic naming the command that starts one.
pub(crate) fn server_url() -> String {
    std::env::var(VAR).unwrap_or_else(|_| {
        panic!(
            "this test needs PostgreSQL and {VAR} is not set. `cargo xtask test` (the README's \
             test command) installs Debian's `postgresql` and starts a throwaway server for its \
             run; by hand:\n\
             \n    eval \"$(bash .ci/postgres start)\" && cargo nextest run --workspace\n\
             \nand stop it with `bash .ci/postgres stop \"$ACCORD_TEST_POSTGRES_DIR\"`"
        )
    })
}

/// `url` with its database replaced by `name`.
pub(crate) fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let cut = base.rfind('/').filter(|&i| i > "postgres://".len()).unwrap_or(base.len());
    let mut out = format!("{}/{name}", &base[..cut]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

/// A new, empty database on the test server; its URL.
pub(crate) async fn fresh_database(tag: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let server = server_url();
    let name = format!(
        "wq_{tag}_{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos()
    );
    let (client, connection) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("{VAR}={server} does not answer ({e}); is the server running?"));
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap_or_else(|e| panic!("CREATE DATABASE {name} on {server}: {e}"));
    drop(client);
    let _ = driver.await;
    with_database(&server, &name)
}
