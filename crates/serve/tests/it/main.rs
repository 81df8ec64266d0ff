//! accord-serve driven from outside: a real HTTP client and a real WebSocket client against a
//! plant on 127.0.0.1:0, each plant stopped at the end of its test.

mod common;
mod credentials;
mod envelope;
mod events;
mod fake;
mod foreign;
mod hostile;
mod hostile_contract;
mod hostile_pattern;
mod lifecycle;
mod limits;
mod prefer;
mod property;
mod results;
mod scenario;
mod stall;
mod write_stall;
