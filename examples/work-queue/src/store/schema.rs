//! The queue's own tables, under versioned migrations applied at start: migration N (1-based)
//! takes a database from version N-1 to N. A database whose queue schema is newer than the
//! newest migration here was written by a newer node; this node refuses it rather than read
//! tables it does not know (the format policy's rule for a newer format, applied to the node's
//! own storage). SQLite keeps the version in `PRAGMA user_version`; PostgreSQL in the table
//! `work_queue_schema`.

/// SQLite's migrations. Version 1 is the layout of the node before versions were kept, written
/// with IF NOT EXISTS, so a database from then (version 0, tables present) migrates in place.
pub(crate) const SQLITE: &[&str] = &["
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    queue TEXT NOT NULL,
    payload TEXT NOT NULL,
    priority INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    enqueued_at INTEGER NOT NULL,
    visible_at INTEGER NOT NULL,
    token TEXT,
    worker TEXT,
    claimed_at INTEGER,
    expires_at INTEGER,
    previous_token TEXT,
    nacked_token TEXT,
    last_error TEXT,
    completed_at INTEGER
);
CREATE INDEX IF NOT EXISTS claimable ON jobs (queue, state, priority DESC, seq);
"];

/// PostgreSQL's migrations: the same columns (times in ms since the epoch, as SQLite keeps
/// them, so both stores share the lease rules), plus an index for the reaper's scan of claimed
/// jobs, which every node runs.
pub(crate) const POSTGRES: &[&str] = &["
CREATE TABLE jobs (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    queue TEXT NOT NULL,
    payload TEXT NOT NULL,
    priority INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    enqueued_at BIGINT NOT NULL,
    visible_at BIGINT NOT NULL,
    token TEXT,
    worker TEXT,
    claimed_at BIGINT,
    expires_at BIGINT,
    previous_token TEXT,
    nacked_token TEXT,
    last_error TEXT,
    completed_at BIGINT
);
CREATE INDEX claimable ON jobs (queue, state, priority DESC, seq);
CREATE INDEX leased ON jobs (expires_at) WHERE state = 'claimed';
"];

/// Refuses a queue schema newer than `known`, naming both numbers.
pub(crate) fn check(found: i64, known: usize) -> Result<(), String> {
    if found > known as i64 {
        return Err(format!(
            "the database's queue schema is version {found}, newer than this node knows \
             (version {known}): it was written by a newer work-queue node; run that node, or a \
             database this one made"
        ));
    }
    Ok(())
}
