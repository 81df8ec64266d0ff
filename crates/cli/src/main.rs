//! The accord command line.
fn main() {}
