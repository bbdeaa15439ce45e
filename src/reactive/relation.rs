//! [`affects`]: the one relation between a change and what a value reads, which the index,
//! the change sets and the bindings all follow.

use crate::path::JsonPointer;

/// Whether a change at `change` affects a value that reads `dependency`: one is the other, or
/// lies under it, token by token.
///
/// ```
/// use a2ui_catalog_mcp::{JsonPointer, reactive::affects};
/// let p = |s: &str| JsonPointer::parse(s).unwrap();
/// assert!(affects(&p("/rows/1/name"), &p("/rows"))); // the list was replaced
/// assert!(affects(&p("/rows"), &p("/rows/1/name"))); // a row of the list was edited
/// assert!(!affects(&p("/rows/1"), &p("/rows/10"))); // tokens, not characters
/// assert!(affects(&p("/x/y"), &p("/"))); // the root is above every path
/// ```
pub fn affects(dependency: &JsonPointer, change: &JsonPointer) -> bool {
    let (d, c) = (dependency.tokens(), change.tokens());
    let common = d.len().min(c.len());
    d[..common] == c[..common]
}
