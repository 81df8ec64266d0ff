//! The four MCP tool hints from a method's declared semantics, always all four (docs/mcp.md):
//! a client that finds one missing reads the spec's default, which for `destructiveHint` and
//! `openWorldHint` is the worst case.

use rmcp::model::ToolAnnotations;

use crate::policy::Class;

/// The hints of a method of `class`; `open_world` is false for the built-in fake and true for
/// a live plant. An undeclared method takes the spec's worst-case defaults whatever the
/// backend.
pub fn annotations(class: Class, open_world: bool) -> ToolAnnotations {
    let (read_only, destructive, idempotent, open_world) = match class {
        Class::Read => (true, false, true, open_world),
        Class::Write => (false, false, false, open_world),
        Class::Idempotent => (false, false, true, open_world),
        Class::Destructive => (false, true, false, open_world),
        Class::Undeclared => (false, true, false, true),
    };
    ToolAnnotations::new()
        .read_only(read_only)
        .destructive(destructive)
        .idempotent(idempotent)
        .open_world(open_world)
}
