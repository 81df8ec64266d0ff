//! The format version (`schema`) this build writes and the numbers it reads.

/// The `schema` number this build writes.
///
/// Change it only with `docs/schema-policy.md` open: a new TypeNode kind, a removed or renamed
/// field, a changed field type or a changed meaning of validation forces a bump; new optional
/// fields, sections and semantics values do not.
pub const SCHEMA_VERSION: u64 = 1;

/// Every `schema` number this build reads. A document carrying any other number is refused,
/// never read on a best-effort basis.
pub const READABLE_SCHEMAS: &[u64] = &[1];

/// Whether this build reads documents written under `schema`.
pub fn reads_schema(schema: u64) -> bool {
    READABLE_SCHEMAS.contains(&schema)
}

/// Whether a `schema` number, as written, is newer than every number this build reads (so the
/// remedy is a newer accord, not a corrected document). Negative and fractional numbers are not.
pub fn is_newer_than_readable(number: &str) -> bool {
    let max = READABLE_SCHEMAS.iter().copied().max().unwrap_or(0);
    match number.parse::<u64>() {
        Ok(n) => n > max,
        // All digits but past u64: newer than anything.
        Err(_) => !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
    }
}
