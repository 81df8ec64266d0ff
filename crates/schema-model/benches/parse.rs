//! Placeholder until the parse benchmark lands.
fn main() {}
