//! Integration tests of accord-validate: one test binary, one module per concern.

mod budget;
mod differential;
mod generate;
mod lint;
mod paths;
mod patterns;
mod presence;
mod unique;
mod utf8;
