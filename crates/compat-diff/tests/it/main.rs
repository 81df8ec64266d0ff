//! Integration tests of accord-compat-diff: one test binary, one module per concern (each was its own binary).

mod edits;
mod fixtures;
mod presence;
mod properties;
mod seed;
mod strategies;
mod wire;
