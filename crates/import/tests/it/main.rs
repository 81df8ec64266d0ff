//! Integration tests of accord-import: one test binary, one module per concern (each was its own binary).

mod execution_apis;
mod export_openrpc;
mod json_schema;
mod links;
mod test_suite;
