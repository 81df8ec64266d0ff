//! Integration tests of the model's reader and writer: one test binary, one module per concern.

mod fixtures;
mod props;
mod reader;
mod refs;
mod wire;
