//! Integration tests of accord-mcp: one test binary, one module per concern (each was its own binary).

mod by_position;
mod common;
mod http;
mod tools_list;
mod upstream;
