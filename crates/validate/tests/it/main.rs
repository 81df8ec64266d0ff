//! Integration tests of accord-validate: one test binary, one module per concern.

mod paths;
