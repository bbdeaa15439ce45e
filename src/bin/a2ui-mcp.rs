//! The `a2ui-mcp` command-line tool (written with the core).
fn main() {}
