//! The project's build tasks.
fn main() {}
