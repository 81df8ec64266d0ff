//! Integration tests of accord-conform: one test binary, one module per concern (each was its own binary).

mod conform;
mod plant;
mod policy_transcript;
