//! Integration tests of accord-plant: one test binary, one module per concern (each was its own binary).

mod core;
mod pass_through;
mod transports;
mod usage;
