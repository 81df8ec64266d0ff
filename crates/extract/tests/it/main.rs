//! Integration tests of accord-extract: one test binary, one module per concern (each was its own binary).

mod docs;
mod fixtures;
mod hostile;
mod resolution;
